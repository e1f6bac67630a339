//! The completion score (README.md, "Bookkeeping, acknowledgements, the
//! score and the sweep"): 10 when every question is settled, otherwise the
//! lowest cap among those that are not. Failures never deduct: only what is
//! still undone holds the number down.

use serde::{Deserialize, Serialize};

use crate::answer::{Answer, RemedyKind, Status};
use crate::question;

/// A cap that holds the score down, with the answer's evidence and remedy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cap {
    pub id: String,
    pub cap: u8,
    pub status: Status,
    pub evidence: String,
    pub remedy: String,
    /// Whether `remedy` runs as written.
    #[serde(default)]
    pub remedy_kind: RemedyKind,
}

/// The cap of a question the policy adds and gives no cap of its own.
pub const EXTRA_QUESTION_CAP: u8 = 5;

/// The cap of a question: the policy's override, else the design's default,
/// else (an extra question) [`EXTRA_QUESTION_CAP`].
pub fn cap_of(id: &str, overrides: &std::collections::BTreeMap<String, u8>) -> u8 {
    overrides.get(id).copied().or_else(|| question::find(id).map(|q| q.cap)).unwrap_or(EXTRA_QUESTION_CAP)
}

/// The score and every cap holding it down, most severe first.
pub fn score(answers: &[Answer], overrides: &std::collections::BTreeMap<String, u8>) -> (u8, Vec<Cap>) {
    let mut caps: Vec<Cap> = answers
        .iter()
        .filter(|a| !a.status.is_settled())
        .map(|a| Cap {
            id: a.id.clone(),
            cap: cap_of(&a.id, overrides),
            status: a.status,
            evidence: a.evidence.clone(),
            remedy: a.remedy.clone(),
            remedy_kind: a.remedy_kind,
        })
        .collect();
    caps.sort_by_key(|c| c.cap);
    (caps.first().map_or(10, |c| c.cap), caps)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::answer::sample as a;

    #[test]
    fn every_question_settled_scores_ten() {
        let (score, caps) = score(&[a("pushed", Status::Pass), a("scoped", Status::Exempt)], &Default::default());
        assert_eq!((score, caps.len()), (10, 0));
    }

    #[test]
    fn the_score_is_the_lowest_cap_and_unknown_caps_like_any_other() {
        let answers = [a("pushed", Status::Owed), a("no-new-debt", Status::Unknown), a("measurable", Status::Owed)];
        let (s, caps) = score(&answers, &Default::default());
        assert_eq!(s, 5);
        assert_eq!(caps.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(), ["no-new-debt", "pushed", "measurable"]);
    }

    #[test]
    fn each_question_left_open_alone_caps_the_score_at_its_own_cap() {
        for q in question::QUESTIONS {
            for status in [Status::Owed, Status::Refused, Status::Unknown] {
                let answers: Vec<Answer> = question::QUESTIONS
                    .iter()
                    .map(|other| a(other.id.as_str(), if other.id == q.id { status } else { Status::Pass }))
                    .collect();
                let (s, caps) = score(&answers, &Default::default());
                assert_eq!(s, q.cap, "{} {status}", q.id);
                assert_eq!(caps.len(), 1, "{}", q.id);
                assert_eq!((caps[0].id.as_str(), caps[0].status), (q.id.as_str(), status));
            }
        }
    }

    #[test]
    fn caps_are_listed_most_severe_first_and_in_invariant_order_within_a_level() {
        let answers = [
            a("measurable", Status::Owed),
            a("claims-released", Status::Owed),
            a("scoped", Status::Refused),
            a("todos-done", Status::Owed),
        ];
        let (s, caps) = score(&answers, &Default::default());
        assert_eq!(s, 6);
        assert_eq!(
            caps.iter().map(|c| (c.id.as_str(), c.cap)).collect::<Vec<_>>(),
            [("claims-released", 6), ("scoped", 6), ("todos-done", 7), ("measurable", 9)]
        );
    }

    #[test]
    fn an_exempt_answer_never_caps() {
        let (s, caps) = score(&[a("committed", Status::Exempt), a("pushed", Status::Owed)], &Default::default());
        assert_eq!((s, caps.len()), (8, 1));
    }

    #[test]
    fn a_policy_cap_overrides_the_default() {
        let overrides = [("pushed".to_string(), 3)].into();
        assert_eq!(score(&[a("pushed", Status::Owed)], &overrides).0, 3);
    }
}
