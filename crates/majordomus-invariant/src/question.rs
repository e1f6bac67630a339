//! The done invariant's questions: one ordered registry of typed ids.
//!
//! Each question is defined in its family (`src/family/<stage>/questions.rs`:
//! its text, source, remedy, default cap, and what each status means for
//! it); this file holds only the ids and their order. The ids and their
//! order are a contract: a snapshot test of the list makes renaming or
//! reordering a question a reviewed change.

use serde::{Deserialize, Serialize};

use crate::answer::Status;
use crate::family::{bookkeeping, closing, commit, integration, scope, verification};

/// A built-in question, by id. On the wire (documents, `majordomus
/// explain`, the policy) it is its kebab-case name: `no-new-debt`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum QuestionId {
    Scoped,
    GatesGreen,
    RegressionTested,
    Committed,
    NoUntracked,
    NoStash,
    Settled,
    Pushed,
    Integrated,
    UpstreamAlive,
    NoNewDebt,
    NothingAccumulated,
    BacklogNotGrown,
    TodosDone,
    ClaimsReleased,
    FilingsClosed,
    MarkersLive,
    NoBackgroundWork,
    Measurable,
}

impl QuestionId {
    /// The id as the documents spell it.
    pub const fn as_str(self) -> &'static str {
        match self {
            QuestionId::Scoped => "scoped",
            QuestionId::GatesGreen => "gates-green",
            QuestionId::RegressionTested => "regression-tested",
            QuestionId::Committed => "committed",
            QuestionId::NoUntracked => "no-untracked",
            QuestionId::NoStash => "no-stash",
            QuestionId::Settled => "settled",
            QuestionId::Pushed => "pushed",
            QuestionId::Integrated => "integrated",
            QuestionId::UpstreamAlive => "upstream-alive",
            QuestionId::NoNewDebt => "no-new-debt",
            QuestionId::NothingAccumulated => "nothing-accumulated",
            QuestionId::BacklogNotGrown => "backlog-not-grown",
            QuestionId::TodosDone => "todos-done",
            QuestionId::ClaimsReleased => "claims-released",
            QuestionId::FilingsClosed => "filings-closed",
            QuestionId::MarkersLive => "markers-live",
            QuestionId::NoBackgroundWork => "no-background-work",
            QuestionId::Measurable => "measurable",
        }
    }

    /// The built-in question spelled `id`, if there is one.
    pub fn parse(id: &str) -> Option<Self> {
        QUESTIONS.iter().map(|q| q.id).find(|q| q.as_str() == id)
    }

    /// The question's definition.
    pub fn def(self) -> &'static QuestionDef {
        // The registry holds every id once (a test says so).
        match QUESTIONS.iter().find(|q| q.id == self) {
            Some(q) => q,
            None => unreachable!("every question id is in the registry"),
        }
    }
}

impl std::fmt::Display for QuestionId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One built-in question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuestionDef {
    pub id: QuestionId,
    /// The family it belongs to: `src/family/<stage>/`.
    pub stage: &'static str,
    pub question: &'static str,
    pub source: &'static str,
    pub remedy: &'static str,
    /// The completion-score cap while this question is not settled.
    pub cap: u8,
    /// Whether answering needs a task record (a start to measure from).
    pub needs_task: bool,
    /// What each status it can give means for it, in the order pass, owed,
    /// refused, unknown, exempt (`majordomus explain`). A status it never
    /// gives is left out. `unknown` is always there: any reading can fail to
    /// be taken, and the evidence then says why.
    pub meanings: &'static [(Status, &'static str)],
}

/// What `unknown` means for a question whose readings need the task record
/// and git, and nothing else.
pub const UNREAD_WITHOUT_TASK: &str = "the reading could not be taken: no task record (majordomus start), or git could not be read; the evidence says which";

/// The built-in questions, in invariant order.
pub const QUESTIONS: [QuestionDef; 19] = [
    scope::questions::SCOPED,
    verification::questions::GATES_GREEN,
    verification::questions::REGRESSION_TESTED,
    commit::questions::COMMITTED,
    commit::questions::NO_UNTRACKED,
    commit::questions::NO_STASH,
    commit::questions::SETTLED,
    commit::questions::PUSHED,
    integration::questions::INTEGRATED,
    integration::questions::UPSTREAM_ALIVE,
    closing::questions::NO_NEW_DEBT,
    closing::questions::NOTHING_ACCUMULATED,
    closing::questions::BACKLOG_NOT_GROWN,
    bookkeeping::questions::TODOS_DONE,
    bookkeeping::questions::CLAIMS_RELEASED,
    bookkeeping::questions::FILINGS_CLOSED,
    bookkeeping::questions::MARKERS_LIVE,
    bookkeeping::questions::NO_BACKGROUND_WORK,
    bookkeeping::questions::MEASURABLE,
];

/// The built-in question spelled `id`.
pub fn find(id: &str) -> Option<&'static QuestionDef> {
    QuestionId::parse(id).map(QuestionId::def)
}

/// Every built-in id as the documents spell it, in order: what the policy
/// is checked against (an extra question may not take one of these).
pub fn builtin_ids() -> Vec<&'static str> {
    QUESTIONS.iter().map(|q| q.id.as_str()).collect()
}

/// What each status a built-in question can give means for it.
pub fn status_meanings(id: QuestionId) -> &'static [(Status, &'static str)] {
    id.def().meanings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_in_invariant_order() {
        let ids = builtin_ids();
        let mut unique = ids.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), ids.len(), "duplicate question id");
        insta::assert_snapshot!(ids.join("\n"));
    }

    #[test]
    fn every_id_is_spelled_the_same_on_the_wire_and_read_back() {
        for q in QUESTIONS {
            let wire = serde_json::to_value(q.id).expect("serialise");
            assert_eq!(wire, q.id.as_str());
            assert_eq!(serde_json::from_value::<QuestionId>(wire).expect("read back"), q.id);
            assert_eq!(QuestionId::parse(q.id.as_str()), Some(q.id));
            assert_eq!(q.id.def(), &q);
        }
        assert_eq!(QuestionId::parse("no-such-question"), None);
    }

    #[test]
    fn every_question_has_a_source_a_remedy_and_a_cap_below_ten() {
        for q in QUESTIONS {
            assert!(!q.source.is_empty() && !q.remedy.is_empty(), "{}", q.id);
            assert!(q.question.ends_with('?'), "{}", q.id);
            assert!((1..10).contains(&q.cap), "{}", q.id);
        }
    }

    #[test]
    fn every_question_says_what_its_statuses_mean_and_unknown_is_always_among_them() {
        for q in QUESTIONS {
            let meanings = status_meanings(q.id);
            assert!(meanings.iter().any(|(s, _)| *s == Status::Unknown), "{}", q.id);
            assert!(meanings.iter().any(|(s, _)| *s == Status::Pass), "{}", q.id);
            let order: Vec<Status> = meanings.iter().map(|(s, _)| *s).collect();
            let mut sorted = order.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(order, sorted, "{}: statuses out of order or repeated", q.id);
            assert!(meanings.iter().all(|(_, m)| !m.is_empty()), "{}", q.id);
        }
    }

    #[test]
    fn the_default_caps_are_the_designs() {
        let caps: Vec<_> = QUESTIONS.iter().map(|q| format!("{}={}", q.id, q.cap)).collect();
        insta::assert_snapshot!(caps.join("\n"));
    }

    #[test]
    fn each_family_holds_its_questions_together_in_invariant_order() {
        let stages: Vec<&str> = QUESTIONS.iter().map(|q| q.stage).collect();
        let mut seen: Vec<&str> = Vec::new();
        for s in stages {
            if seen.last() != Some(&s) {
                assert!(!seen.contains(&s), "the {s} family's questions are not together");
                seen.push(s);
            }
        }
        assert_eq!(seen, ["scope", "verification", "commit", "integration", "closing", "bookkeeping"]);
    }
}
