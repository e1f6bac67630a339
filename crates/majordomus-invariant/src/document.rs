//! The `gates.completion` document: what `check` writes and, with `--json`,
//! prints. Its text output is rendered from this, never computed twice.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::answer::{Answer, Status};
use crate::score::Cap;
use majordomus_readings::fingerprint::Fingerprint;

/// The schema string (a contract).
pub const SCHEMA: &str = "majordomus/gates.completion/v1";

/// The JSON Schema (draft 2020-12) of the document, as `majordomus schema
/// completion` prints it. A test validates documents from real `check` runs
/// against it, so the two cannot drift apart unnoticed.
pub const JSON_SCHEMA: &str = include_str!("../schemas/gates.completion.v1.json");

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Document {
    pub schema: String,
    /// RFC 3339, UTC.
    pub generated_at: String,
    pub complete: bool,
    pub score: u8,
    /// The task record, or `null`.
    pub task: Option<serde_json::Value>,
    /// Why the task record could not be read, when it could not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_error: Option<String>,
    /// The working tree this was measured in.
    pub root: String,
    /// Count per status; every status is present.
    pub tallies: BTreeMap<Status, usize>,
    pub questions: Vec<Answer>,
    /// Every cap holding the score down, most severe first (`src/score.rs`).
    #[serde(default)]
    pub caps: Vec<Cap>,
    /// HEAD, the index and the refs as they were when this was measured, so
    /// a reader of the cached document can tell that it is stale.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<Fingerprint>,
}

impl Document {
    pub fn new(
        generated_at: chrono::DateTime<chrono::Utc>,
        root: String,
        task: Option<serde_json::Value>,
        task_error: Option<String>,
        questions: Vec<Answer>,
        score: u8,
    ) -> Self {
        let mut tallies: BTreeMap<Status, usize> = Status::ALL.iter().map(|s| (*s, 0)).collect();
        for q in &questions {
            *tallies.entry(q.status).or_default() += 1;
        }
        Self {
            schema: SCHEMA.to_string(),
            generated_at: generated_at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            complete: !questions.is_empty() && questions.iter().all(|q| q.status.is_settled()),
            score,
            task,
            task_error,
            root,
            tallies,
            questions,
            caps: Vec::new(),
            fingerprint: None,
        }
    }

    /// The questions still open: neither `pass` nor `exempt`, in order.
    pub fn open(&self) -> impl Iterator<Item = &Answer> {
        self.questions.iter().filter(|q| !q.status.is_settled())
    }

    /// The done line (a contract): the open questions as `id=status`, or
    /// `complete (N pass, M exempt)`.
    pub fn done_line(&self) -> String {
        let open: Vec<String> = self.open().map(|q| format!("{}={}", q.id, q.status)).collect();
        if open.is_empty() {
            let n = |s| self.tallies.get(&s).copied().unwrap_or(0);
            format!("done: complete ({} pass, {} exempt)", n(Status::Pass), n(Status::Exempt))
        } else {
            format!("done: {}", open.join(" "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::answer::sample as a;

    #[test]
    fn the_done_line_names_open_questions_in_order() {
        let doc = Document::new(
            chrono::Utc::now(),
            "/r".into(),
            None,
            None,
            vec![a("no-new-debt", Status::Refused), a("pushed", Status::Pass), a("nothing-accumulated", Status::Owed)],
            5,
        );
        assert!(!doc.complete);
        assert_eq!(doc.done_line(), "done: no-new-debt=refused nothing-accumulated=owed");
    }

    #[test]
    fn a_complete_document_counts_pass_and_exempt() {
        let doc = Document::new(
            chrono::Utc::now(),
            "/r".into(),
            None,
            None,
            vec![a("x", Status::Pass), a("y", Status::Exempt)],
            10,
        );
        assert!(doc.complete);
        assert_eq!(doc.done_line(), "done: complete (1 pass, 1 exempt)");
        assert_eq!(doc.tallies[&Status::Owed], 0);
    }

    #[test]
    fn the_json_schema_names_this_documents_schema_string() {
        let schema: serde_json::Value = serde_json::from_str(JSON_SCHEMA).expect("the schema is JSON");
        assert_eq!(schema["properties"]["schema"]["const"], SCHEMA);
        let statuses: Vec<&str> = Status::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(schema["$defs"]["status"]["enum"], serde_json::json!(statuses));
    }

    #[test]
    fn no_questions_is_never_complete() {
        assert!(!Document::new(chrono::Utc::now(), "/r".into(), None, None, vec![], 10).complete);
    }
}
