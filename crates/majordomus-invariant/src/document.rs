//! The `gates.completion` document: what `check` writes and, with `--json`,
//! prints. Its text output is rendered from this, never computed twice.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::answer::{Answer, Status};
use crate::in_force::PolicyFinding;
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
    pub task: Option<RecordJson>,
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
    /// The policy in force for the task (`src/in_force/`): where the start's
    /// policy was read from, and every change since, each said in force or
    /// not. Absent without a task: the working tree's policy is the policy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<PolicyFinding>,
}

/// A record the document holds whole (the task record), as JSON text
/// written into the document as it is. Encoding it through a
/// `serde_json::Value` tree first was a fifth of a `check` whose start
/// snapshot holds ten thousand branches.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RecordJson(Box<serde_json::value::RawValue>);

impl RecordJson {
    /// `record` as the document's pretty printing would have written it in
    /// its place: indented one level, as a field of the document.
    pub fn of<T: Serialize>(record: &T) -> Result<Self, serde_json::Error> {
        let pretty = serde_json::to_string_pretty(record)?;
        // A line break in JSON text is white space between tokens (one
        // inside a string is written `\n`): each is followed by the field's
        // indentation.
        serde_json::value::RawValue::from_string(indented(&pretty)).map(RecordJson)
    }

    /// The record whose JSON text, written pretty as `of` writes it, is
    /// `text` (a task record as it was read from its file), indented the
    /// same way. Refused where `text` is not JSON.
    pub fn from_text(text: &[u8]) -> Result<Self, serde_json::Error> {
        let text = match std::str::from_utf8(text) {
            Ok(text) => std::borrow::Cow::Borrowed(text),
            Err(_) => String::from_utf8_lossy(text),
        };
        serde_json::value::RawValue::from_string(indented(text.trim_end())).map(RecordJson)
    }

    /// The text of the record's string field `name`, where it has one.
    pub fn text_field(&self, name: &str) -> Option<String> {
        let fields: serde_json::Map<String, serde_json::Value> = serde_json::from_str(self.0.get()).ok()?;
        fields.get(name)?.as_str().map(str::to_string)
    }
}

/// `text` with two spaces after each line break, the lines copied whole
/// (`str::replace` copies a line at a time as well, but asks after each
/// character: at ten thousand lines, 4 M instructions).
fn indented(text: &str) -> String {
    let breaks = memchr::memchr_iter(b'\n', text.as_bytes());
    let mut out = String::with_capacity(text.len() + 2 * breaks.clone().count());
    let mut from = 0;
    for at in breaks {
        out.push_str(&text[from..=at]);
        out.push_str("  ");
        from = at + 1;
    }
    out.push_str(&text[from..]);
    out
}

impl PartialEq for RecordJson {
    fn eq(&self, other: &Self) -> bool {
        self.0.get() == other.0.get()
    }
}

/// The most bytes an answer's evidence or remedy may hold: the records are
/// bounded on load, and this bounds whatever else an answer quotes (a line
/// of a file, a name), so no input makes the document grow without end.
pub const MAX_EVIDENCE: usize = 16 << 10;

fn bound(text: &mut String) {
    if text.len() > MAX_EVIDENCE {
        *text = majordomus_records::text::clamp(text, MAX_EVIDENCE).into_owned();
    }
}

impl Document {
    pub fn new(
        generated_at: chrono::DateTime<chrono::Utc>,
        root: String,
        task: Option<RecordJson>,
        task_error: Option<String>,
        questions: Vec<Answer>,
        score: u8,
    ) -> Self {
        let mut tallies: BTreeMap<Status, usize> = Status::ALL.iter().map(|s| (*s, 0)).collect();
        let mut questions = questions;
        for q in &mut questions {
            bound(&mut q.evidence);
            bound(&mut q.remedy);
        }
        let task_error = task_error.map(|mut e| {
            bound(&mut e);
            e
        });
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
            policy: None,
        }
    }

    /// Reads a document written earlier (`score --cached`): its schema, and
    /// that it agrees with itself: `complete` only when every question is
    /// settled, the tallies the questions', a score of 10 only when
    /// complete. A document damaged into claiming more than its questions
    /// say is refused, never read as a pass.
    pub fn parse(bytes: &[u8]) -> Result<Self, String> {
        let doc: Document =
            serde_json::from_slice(bytes).map_err(|e| majordomus_records::json::bounded(&e.to_string()))?;
        if doc.schema != SCHEMA {
            return Err(format!(
                "its schema is {:?}, expected {SCHEMA:?}",
                majordomus_records::text::clamp(&doc.schema, 80)
            ));
        }
        let settled = !doc.questions.is_empty() && doc.questions.iter().all(|q| q.status.is_settled());
        if doc.complete != settled {
            return Err(format!("it says complete is {}, and its questions say {settled}", doc.complete));
        }
        if (doc.score == 10) != settled || doc.score > 10 {
            return Err(format!("its score {} does not agree with its questions", doc.score));
        }
        for status in Status::ALL {
            let counted = doc.questions.iter().filter(|q| q.status == status).count();
            if doc.tallies.get(&status) != Some(&counted) {
                return Err(format!("its tally of {} is not the {counted} its questions hold", status.as_str()));
            }
        }
        Ok(doc)
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
    fn a_record_is_indented_as_replacing_each_line_break_would() {
        for text in ["", "{}", "\n", "{\n\"a\": 1\n}", "\n\n{\n}\n", "é\n\u{1F600}\nx"] {
            assert_eq!(indented(text), text.replace('\n', "\n  "), "{text:?}");
        }
    }

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
    fn no_evidence_remedy_or_task_error_grows_past_its_bound() {
        let mut huge = a("committed", Status::Owed);
        huge.evidence = "e".repeat(10 << 20);
        huge.remedy = "r".repeat(MAX_EVIDENCE + 1);
        let doc = Document::new(chrono::Utc::now(), "/r".into(), None, Some("t".repeat(1 << 20)), vec![huge], 7);
        let q = &doc.questions[0];
        assert!(q.evidence.len() < MAX_EVIDENCE + 40 && q.evidence.ends_with("more bytes)"), "{}", q.evidence.len());
        assert!(q.remedy.len() < MAX_EVIDENCE + 40);
        assert!(doc.task_error.as_ref().is_some_and(|e| e.len() < MAX_EVIDENCE + 40));
    }

    #[test]
    fn a_stored_document_that_disagrees_with_itself_is_refused() {
        let doc = Document::new(
            chrono::Utc::now(),
            "/r".into(),
            None,
            None,
            vec![a("x", Status::Pass), a("y", Status::Owed)],
            7,
        );
        let bytes = serde_json::to_vec(&doc).expect("json");
        assert_eq!(Document::parse(&bytes).expect("itself"), doc);
        let mut v: serde_json::Value = serde_json::from_slice(&bytes).expect("json");
        for (key, value) in [("score", serde_json::json!(10)), ("complete", serde_json::json!(true))] {
            let mut damaged = v.clone();
            damaged[key] = value;
            let err = Document::parse(&serde_json::to_vec(&damaged).expect("json")).expect_err(key);
            assert!(err.contains("does not agree") || err.contains("its questions say"), "{key}: {err}");
        }
        v["tallies"]["owed"] = 0.into();
        assert!(Document::parse(&serde_json::to_vec(&v).expect("json")).expect_err("tally").contains("tally of owed"));
    }

    #[test]
    fn no_questions_is_never_complete() {
        assert!(!Document::new(chrono::Utc::now(), "/r".into(), None, None, vec![], 10).complete);
    }
}
