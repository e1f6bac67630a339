//! The policy read from text: every problem reported at once, with where
//! it is.

use super::load::line_column;
use super::*;

const BUILTIN: [&str; 3] = ["scoped", "gates-green", "pushed"];

fn parse(text: &str) -> Result<Policy, PolicyError> {
    Policy::parse(Path::new("p.toml"), text, &BUILTIN)
}

fn problems(text: &str) -> Vec<String> {
    let err = parse(text).expect_err("invalid");
    err.problems().iter().map(|p| format!("{}:{}: {}", p.line, p.column, p.message)).collect()
}

#[test]
fn a_marker_pattern_that_is_not_a_regular_expression_or_reads_no_number_is_a_problem_at_its_line() {
    let found = problems("[markers]\nscan = [\"src\"]\npattern = 'LIMITATION\\((#'\n");
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("3:") && found[0].contains("not a regular expression"), "{found:?}");
    let found = problems("[markers]\npattern = 'LIMITATION#\\d+'\n");
    assert!(found[0].starts_with("2:") && found[0].contains("no capture group"), "{found:?}");
    let found = problems("[markers]\nexclude = [\"a/{b\"]\n");
    assert!(found[0].starts_with("2:") && found[0].contains("is not a glob"), "{found:?}");
}

#[test]
fn the_marker_register_reads_back_each_key_it_names() {
    let p = parse("[markers]\nscan = [\"lib\"]\nexclude = [\"lib/vendor/**\"]\n").expect("parse");
    let m = p.markers.expect("markers");
    assert_eq!(m.scan.as_deref(), Some(&["lib".to_string()][..]));
    assert_eq!(m.exclude.as_deref(), Some(&["lib/vendor/**".to_string()][..]));
    assert!(m.pattern.is_none() && m.extensions.is_none());
}

#[test]
fn a_missing_file_is_the_defaults() {
    let dir = tempfile::tempdir().expect("tempdir");
    assert_eq!(Policy::load(&dir.path().join("none.toml"), &BUILTIN).expect("load"), Policy::default());
}

#[test]
fn an_unknown_key_is_an_error_naming_file_line_and_column() {
    let text = "[trunk]\nbranch = \"main\"\nbrunch = \"x\"\n";
    let err = parse(text).expect_err("unknown key");
    let msg = err.to_string();
    assert!(msg.starts_with("p.toml:3:1: unknown key `brunch` in [trunk]"), "{msg}");
    assert!(msg.contains("`remote`, `branch`"), "{msg}");
}

#[test]
fn a_syntax_error_is_reported_with_its_line_and_column() {
    let err = parse("[gates.unit]\nrun = \"cargo test\nx = 1\n").expect_err("syntax");
    let p = &err.problems()[0];
    assert_eq!((p.line, err.problems().len()), (2, 1), "{err}");
}

#[test]
fn every_problem_is_reported_at_once_each_with_its_line_and_column() {
    let text = r#"colour = "blue"

[gates.unit]
run = "cargo test"
inputs = ["src/{a,b"]
tiemout = 3

[gates.docs]
inputs = ["docs/**"]

[[questions]]
id = "documented"
stage = "documentation"
question = "Were the documents updated?"
gate = "docs-check"

[[exempt]]
question = "pushed"
reason = "  "

[[exempt]]
question = "deployed"
reason = "no deployment here"

[caps]
pushed = 12
nonsense = 3
"#;
    assert_eq!(
        problems(text),
        [
            "1:1: unknown key `colour` in the policy; expected one of `trunk`, `gates`, `questions`, `exempt`, `caps`, `markers`, `hook`, `forge`, `tests`",
            "5:11: the input `src/{a,b` of gate `unit` is not a glob: unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)",
            "6:1: unknown key `tiemout` in [gates.unit]; expected one of `run`, `inputs`, `required`, `always`, `timeout_seconds`",
            "8:8: [gates.docs] has no `run`: the command majordomus runs for this gate",
            "15:8: the question `documented` is answered by the gate `docs-check`, which is not declared in [gates]",
            "19:10: `exempt.reason` is empty: why the question does not apply here",
            "22:12: the exemption names the question `deployed`, which is neither a built-in question nor one declared in [[questions]]",
            "26:10: the cap of `pushed` must be 0 to 9, not 12",
            "27:1: [caps] names the question `nonsense`, which is neither a built-in question nor one declared in [[questions]]",
        ]
    );
}

#[test]
fn an_exemption_without_a_reason_is_refused() {
    assert_eq!(
        problems("[[exempt]]\nquestion = \"pushed\"\n"),
        ["1:1: [[exempt]] has no `reason`: why the question does not apply here"]
    );
}

#[test]
fn an_exemption_or_a_cap_may_name_an_extra_question() {
    let text = "[gates.docs-check]\nrun = \"true\"\n[[questions]]\nid = \"documented\"\nstage = \"documentation\"\nquestion = \"q?\"\ngate = \"docs-check\"\n[[exempt]]\nquestion = \"documented\"\nreason = \"no docs yet\"\nuntil = 2027-01-31\n[caps]\ndocumented = 4\n";
    let p = parse(text).expect("valid");
    assert_eq!(p.questions[0].gate, "docs-check");
    assert_eq!(p.exempt[0].until, NaiveDate::from_ymd_opt(2027, 1, 31));
    assert_eq!(p.caps["documented"], 4);
}

#[test]
fn an_extra_question_may_not_reuse_a_built_in_id_and_until_must_be_a_date() {
    let text = "[gates.g]\nrun = \"true\"\n[[questions]]\nid = \"pushed\"\nstage = \"s\"\nquestion = \"q?\"\ngate = \"g\"\n[[exempt]]\nquestion = \"scoped\"\nreason = \"r\"\nuntil = \"soon\"\n";
    assert_eq!(
        problems(text),
        [
            "4:6: `pushed` is a built-in question; an extra question needs an id of its own",
            "11:9: `until` must be a date, \"YYYY-MM-DD\", not \"soon\"",
        ]
    );
}

#[test]
fn an_exemption_holds_through_its_last_day_and_not_after() {
    let e = Exemption { question: "pushed".into(), reason: "r".into(), until: NaiveDate::from_ymd_opt(2026, 12, 31) };
    assert!(e.holds_on(NaiveDate::from_ymd_opt(2026, 12, 31).expect("date")));
    assert!(!e.holds_on(NaiveDate::from_ymd_opt(2027, 1, 1).expect("date")));
}

#[test]
fn gates_keep_the_order_they_were_declared_in_with_their_defaults() {
    let text = "[gates.zeta]\nrun = \"true\"\n[gates.alpha]\nrun = \"true\"\nrequired = false\nalways = true\ntimeout_seconds = 30\n";
    let p = parse(text).expect("parse");
    let ids: Vec<_> = p.gates.keys().cloned().collect();
    assert_eq!(ids, ["zeta", "alpha"]);
    assert_eq!(p.gates["zeta"], Gate::new("true", &[]));
    assert!(!p.gates["alpha"].required && p.gates["alpha"].always);
    assert_eq!(p.gates["alpha"].timeout_seconds, Some(30));
}

#[test]
fn values_of_the_wrong_type_are_named_with_what_was_found() {
    let text = "[gates.unit]\nrun = 3\ninputs = \"src\"\nrequired = \"yes\"\ntimeout_seconds = -1\n";
    assert_eq!(
        problems(text),
        [
            "2:7: `gates.unit.run` must be a string, not an integer",
            "3:10: `gates.unit.inputs` must be an array of strings, not a string",
            "4:12: `gates.unit.required` must be true or false, not a string",
            "5:19: `gates.unit.timeout_seconds` must be a whole number of seconds above 0",
        ]
    );
}

#[test]
fn a_column_counts_characters_not_bytes() {
    assert_eq!(line_column("é = 1\nxé!", 10), (2, 3));
}

#[test]
fn the_hook_table_defaults_each_key_it_leaves_out() {
    assert_eq!(Policy::default().hook, HookPolicy { block_limit: 3, budget_ms: 20_000, auto_start: false });
    let p = parse("[hook]\nblock_limit = 1\n").expect("parse");
    assert_eq!(p.hook, HookPolicy { block_limit: 1, budget_ms: 20_000, auto_start: false });
    let p = parse("[hook]\nauto_start = true\n").expect("parse");
    assert!(p.hook.auto_start);
    let err = parse("[hook]\nauto_start = \"yes\"\n").expect_err("not a boolean");
    assert!(err.to_string().contains("`hook.auto_start` must be true or false"), "{err}");
    let err = parse("[hook]\nblock_limits = 1\n").expect_err("unknown key");
    assert!(err.to_string().starts_with("p.toml:2:1: "), "{err}");
}

#[test]
fn inputs_and_scanned_paths_lose_a_leading_dot_slash_and_a_lone_dot_is_the_whole_repository() {
    let text = "[gates.unit]\nrun = \"true\"\ninputs = [\"./src/**\", \".\", \"./\", \"docs\"]\n[markers]\nscan = [\"./lib\", \".\", \"./\", \".//apps\"]\n";
    let p = parse(text).expect("parse");
    assert_eq!(p.gates["unit"].inputs, ["src/**", "**", "**", "docs"]);
    let scan = p.markers.and_then(|m| m.scan).expect("scan");
    assert_eq!(scan, ["lib", ".", ".", "apps"]);
}

#[test]
fn an_absolute_path_or_one_leaving_the_repository_is_a_problem_at_its_place() {
    let text = "[gates.unit]\nrun = \"true\"\ninputs = [\"/etc/**\", \"../**\", \"src/../x\"]\n[markers]\nscan = [\"/src\", \"./..\"]\n";
    assert_eq!(
        problems(text),
        [
            "3:11: the input `/etc/**` of gate `unit` is absolute: paths in the policy are relative to the repository root",
            "3:22: the input `../**` of gate `unit` has a `..` component: paths in the policy name files inside the repository",
            "3:31: the input `src/../x` of gate `unit` has a `..` component: paths in the policy name files inside the repository",
            "5:9: the scanned path `/src` of [markers] is absolute: paths in the policy are relative to the repository root",
            "5:17: the scanned path `./..` of [markers] has a `..` component: paths in the policy name files inside the repository",
        ]
    );
}

#[test]
fn a_block_limit_of_0_or_a_budget_under_100_ms_is_a_problem() {
    assert_eq!(
        problems("[hook]\nblock_limit = 0\nbudget_ms = 99\n"),
        [
            "2:15: `hook.block_limit` must be 1 or more: with 0 the hook could never block a stop",
            "3:13: `hook.budget_ms` must be 100 or more: in less nothing can be read, not 99",
        ]
    );
    let p = parse("[hook]\nblock_limit = 1\nbudget_ms = 100\n").expect("the least values are accepted");
    assert_eq!(p.hook, HookPolicy { block_limit: 1, budget_ms: 100, auto_start: false });
}

#[test]
fn the_forge_table_holds_a_maximum_age_and_a_provider() {
    assert_eq!(Policy::default().forge, None);
    let p = parse("[forge]\nmax_age_minutes = 30\n").expect("parse");
    assert_eq!(p.forge.and_then(|f| f.max_age_minutes), Some(30));
    assert_eq!(
        problems("[forge]\nmax_age = 30\n"),
        ["2:1: unknown key `max_age` in [forge]; expected one of `max_age_minutes`, `provider`"]
    );
    assert_eq!(
        problems("[forge]\nmax_age_minutes = -5\n"),
        ["2:19: `forge.max_age_minutes` must be a whole number, 0 or more"]
    );
}

#[test]
fn the_forge_provider_is_one_of_four_names() {
    for name in Provider::NAMES {
        let p = parse(&format!("[forge]\nprovider = \"{name}\"\n")).expect("parse");
        assert_eq!(p.provider().map(Provider::as_str), Some(name));
    }
    assert_eq!(parse("").expect("parse").provider(), None);
    assert_eq!(
        problems("[forge]\nprovider = \"gitea\"\n"),
        ["2:12: `forge.provider` must be one of `github`, `gitlab`, `none`, `recorded`"]
    );
}

#[test]
fn the_tests_table_holds_globs_relative_to_the_root() {
    let p = parse("[tests]\npaths = [\"./checks\", \"qa/**/*.sh\"]\n").expect("parse");
    assert_eq!(p.tests.expect("tests").paths, ["checks", "qa/**/*.sh"]);
    assert_eq!(
        problems("[tests]\npaths = [\"../x\", \"a[\"]\nglobs = 1\n"),
        [
            "2:10: the test path `../x` has a `..` component: paths in the policy name files inside the repository",
            "2:18: the test path `a[` is not a glob: unclosed character class; missing ']'",
            "3:1: unknown key `globs` in [tests]; expected one of `paths`, `items`",
        ]
    );
}

#[test]
fn test_items_are_declared_by_their_files_and_a_marker_that_says_something() {
    let p = parse("[tests]\nitems = [{ paths = \"./sds.c\", marker = \"test_cond(\" }]\n").expect("parse");
    let items = p.tests.expect("tests").items;
    assert_eq!(items, [TestItems { paths: vec!["sds.c".into()], marker: "test_cond(".into() }]);
    let p = parse("[[tests.items]]\npaths = [\"src/*.c\", \"lib\"]\nmarker = \"TEST(\"\n").expect("parse");
    assert_eq!(p.tests.expect("tests").items[0].paths, ["src/*.c", "lib"]);
    // A marker of no words would make every line of those files a test.
    assert_eq!(
        problems("[tests]\nitems = [{ paths = \"a.c\", marker = \" \" }]\n"),
        ["2:36: `tests.items.marker` is empty: the words each line of such a test holds, as `test_cond(`"]
    );
    assert_eq!(
        problems("[[tests.items]]\nmarker = \"T(\"\n[[tests.items]]\npaths = []\nmarker = \"T(\"\nwhere = 1\n"),
        [
            "1:1: [[tests.items]] has no `paths`: the globs of the files that hold such tests",
            "4:9: `tests.items.paths` is empty: it must name the files that hold such tests",
            "6:1: unknown key `where` in [[tests.items]]; expected one of `paths`, `marker`",
        ]
    );
    assert_eq!(
        problems("[tests]\nitems = [{ paths = \"../a.c\" }]\n"),
        [
            "2:10: [[tests.items]] has no `marker`: the words each line of such a test holds, as `test_cond(`",
            "2:20: the path of test items `../a.c` has a `..` component: paths in the policy name files inside the repository",
        ]
    );
}

#[test]
fn a_key_with_no_value_is_a_problem_that_says_something() {
    let found = problems("[trunk]\nremote = \"origin\"\nbranch =");
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("3:") && found[0].contains("not valid TOML"), "{found:?}");
}

#[test]
fn control_characters_a_policy_quotes_are_escaped_in_its_problems() {
    let found =
        problems("[gates.\"a\\u001b]0;pwn\\u0007\\nb\"]\nrun = \"true\"\n[[questions]]\nid = \"\\u001b[31m\"\n");
    assert!(found[0].contains("the gate id `a\\x1b]0;pwn\\x07\\nb`"), "{found:?}");
    assert!(found.iter().any(|p| p.contains("the question id `\\x1b[31m`")), "{found:?}");
    assert!(found.iter().all(|p| !p.chars().any(char::is_control)), "{found:?}");
}
