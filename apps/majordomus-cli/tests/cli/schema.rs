//! The JSON Schemas `majordomus schema` prints, checked against documents
//! from real runs.

use serde_json::{json, Value};

use crate::common::Case;

fn validator(which: &str) -> jsonschema::Validator {
    let case = Case::new();
    let run = case.md(&["schema", which]);
    assert_eq!(run.code, 0, "{run:?}");
    let schema: Value = serde_json::from_str(&run.stdout).unwrap();
    jsonschema::draft202012::new(&schema)
        .unwrap_or_else(|e| panic!("the {which} schema is not a valid JSON Schema: {e}"))
}

fn errors(validator: &jsonschema::Validator, doc: &Value) -> Vec<String> {
    validator.iter_errors(doc).map(|e| format!("{} at {}", e, e.instance_path)).collect()
}

#[test]
fn documents_from_real_check_runs_match_the_completion_schema() {
    let v = validator("completion");
    let case = Case::new();
    // No task: every question that needs one is unknown, `task` is null.
    let run = case.md(&["check", "--format", "json"]);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(doc["task"], Value::Null);
    assert_eq!(errors(&v, &doc), Vec::<String>::new());

    // A task with work in every state the commit stage sees.
    case.start("fix the parser");
    case.repo.write("src/parser.rs", "fn parse() {}\n");
    case.repo.commit_all("parser");
    case.repo.write("src/parser.rs", "fn parse() { todo!() }\n");
    case.repo.write("notes.txt", "untracked\n");
    let run = case.md(&["check", "--json"]);
    assert_eq!(run.code, 10, "{run:?}");
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    assert!(doc["task"].is_object());
    assert_eq!(errors(&v, &doc), Vec::<String>::new());
    let written: Value =
        serde_json::from_slice(&std::fs::read(case.path().join(".ai/local/state/gates.completion.json")).unwrap())
            .unwrap();
    assert_eq!(errors(&v, &written), Vec::<String>::new());

    // A task record that cannot be read: `task_error`.
    case.repo.write(".ai/local/state/task.json", "{\"schema\": \"majordomus/task/v1\"");
    let doc: Value = serde_json::from_str(&case.md(&["check", "--json"]).stdout).unwrap();
    assert!(doc["task_error"].is_string());
    assert_eq!(errors(&v, &doc), Vec::<String>::new());
}

#[test]
fn the_completion_schema_refuses_what_is_not_a_document() {
    let v = validator("completion");
    let case = Case::new();
    let doc: Value = serde_json::from_str(&case.md(&["check", "--json"]).stdout).unwrap();
    let mut bad_status = doc.clone();
    bad_status["questions"][0]["status"] = json!("done");
    assert!(!errors(&v, &bad_status).is_empty());
    let mut extra = doc.clone();
    extra["verdict"] = json!("complete");
    assert!(!errors(&v, &extra).is_empty());
    let mut no_evidence = doc;
    no_evidence["questions"][1].as_object_mut().unwrap().remove("evidence");
    assert!(!errors(&v, &no_evidence).is_empty());
}

#[test]
fn observations_majordomus_reads_match_the_forge_schema() {
    let v = validator("forge");
    let observation = majordomus_records::forge::Observation {
        schema: majordomus_records::forge::FORGE_SCHEMA.into(),
        observed_at: "2025-11-30T10:00:00Z".into(),
        repository: "owner/name".into(),
        pull_requests: vec![majordomus_records::forge::PullRequest {
            number: 12,
            title: "Fix the parser".into(),
            author: Some("dev".into()),
            head: Some("fix-parser".into()),
            created_at: Some("2026-11-30T09:00:00Z".into()),
            state: "open".into(),
        }],
        issues: vec![majordomus_records::forge::Issue {
            repository: "owner/name".into(),
            number: 3,
            state: "open".into(),
            labels: vec!["limitation".into()],
            is_pull_request: false,
            title: "Quoted strings".into(),
            became: None,
        }],
        provenance: Some(majordomus_records::forge::Provenance {
            by: "gh".into(),
            program: Some("/usr/bin/gh".into()),
            program_at_start: Some("/usr/bin/gh".into()),
            start_path_known: true,
            program_written_since_start: None,
            file: None,
            remotes_since_start: Some(vec![]),
            task: Some("20261130T090000Z-1f2e".into()),
            remotes: Some(
                [(
                    "origin".to_string(),
                    majordomus_records::forge::RemoteSeen {
                        url: "https://github.com/owner/name.git".into(),
                        push_url: Some("git@github.com:owner/name.git".into()),
                    },
                )]
                .into(),
            ),
        }),
    };
    let doc = serde_json::to_value(&observation).unwrap();
    assert_eq!(errors(&v, &doc), Vec::<String>::new());
    let minimal =
        json!({"schema": "majordomus/forge/v1", "observed_at": "2025-11-30T10:00:00+01:00", "repository": "o/r"});
    assert_eq!(errors(&v, &minimal), Vec::<String>::new());
    // Whatever the schema accepts, majordomus reads.
    for accepted in [&doc, &minimal] {
        majordomus_records::forge::Observation::parse(std::path::Path::new("f.json"), &accepted.to_string()).unwrap();
    }
    let mut unknown = doc.clone();
    unknown["pull_requests"][0]["draft"] = json!(true);
    assert!(!errors(&v, &unknown).is_empty());
    let mut unknown_maker = doc.clone();
    unknown_maker["provenance"]["by"] = json!("hand");
    assert!(!errors(&v, &unknown_maker).is_empty());
    majordomus_records::forge::Observation::parse(std::path::Path::new("f.json"), &unknown_maker.to_string())
        .expect_err("a provenance majordomus never writes");
    // A state outside the schema's enums is refused by both.
    for (entry, state) in [("issues", "merged"), ("pull_requests", "OPEN")] {
        let mut bad_state = doc.clone();
        bad_state[entry][0]["state"] = json!(state);
        assert!(!errors(&v, &bad_state).is_empty(), "{entry} {state}");
        majordomus_records::forge::Observation::parse(std::path::Path::new("f.json"), &bad_state.to_string())
            .expect_err(state);
    }
    let mut bad_time = doc;
    bad_time["observed_at"] = json!("yesterday");
    assert!(!errors(&v, &bad_time).is_empty());
}

#[test]
fn with_no_document_named_both_schemas_print_as_one_bundle() {
    let case = Case::new();
    let run = case.md(&["schema"]);
    assert_eq!(run.code, 0, "{run:?}");
    let bundle: Value = serde_json::from_str(&run.stdout).unwrap();
    jsonschema::draft202012::new(&bundle).unwrap_or_else(|e| panic!("the bundle is not a valid JSON Schema: {e}"));
    for which in ["completion", "forge"] {
        let alone: Value = serde_json::from_str(&case.md(&["schema", which]).stdout).unwrap();
        assert_eq!(bundle["$defs"][which], alone, "the bundle's {which} schema differs from the one printed alone");
    }
}
