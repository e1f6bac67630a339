//! The policy's exemptions (`[[exempt]]`): applied to any question's
//! judgement, built-in or extra, once it is judged.
//!
//! While an exemption holds, the answer is `exempt` with its reason, and
//! what was measured stays in the details; once expired, the measured answer
//! stands and says so. The exemptions applied are those of the policy in
//! force (`src/in_force/`): the task's start's, narrowed by the task but
//! never widened, so an exemption a task adds for its own open question
//! exempts nothing for it, and the document names it as a loosening.

use serde_json::json;

use majordomus_records::policy::Policy;

use crate::answer::Status;
use crate::judgement::{with, Judgement};
use crate::readings::Readings;

/// The date an exemption's `until` is judged against: the later of the
/// local date and the date in UTC. The local date follows `TZ`, which any
/// command's environment may set: `TZ=Etc/GMT+12 majordomus check` would
/// otherwise read yesterday's date and keep an exemption that ended
/// (test/cases/366). A zone ahead of UTC still ends it at its own midnight.
pub fn today() -> chrono::NaiveDate {
    chrono::Local::now().date_naive().max(chrono::Utc::now().date_naive())
}

/// Applies the policy's exemption of a question, if it has one: while it
/// holds, the answer is `exempt` with its reason (what was measured stays
/// in the details); once expired, the measured answer stands and says so.
pub(crate) fn exempted(id: &str, v: Judgement, policy: &Policy, r: &Readings) -> Judgement {
    let Some(e) = policy.exempt.iter().find(|e| e.question == id) else { return v };
    let exemption = json!({ "reason": e.reason, "until": e.until.map(|d| d.to_string()) });
    if e.holds_on(r.today) {
        let until = e.until.map(|d| format!(" until {d}")).unwrap_or_default();
        let Judgement { status, evidence, details, remedy, remedy_kind } = v;
        let details = json!({ "exemption": exemption, "measured": { "status": status, "evidence": evidence, "details": details } });
        // The reason is the policy's words: quoted as written, never
        // recased or repunctuated.
        let evidence = format!("Exempt by the policy{until}, for the reason it gives: {:?}.", e.reason);
        Judgement { status: Status::Exempt, evidence, details, remedy, remedy_kind }
    } else {
        let until = e.until.map(|d| d.to_string()).unwrap_or_default();
        Judgement {
            evidence: format!(
                "{} The policy's exemption ({:?}) expired on {until}, so it no longer exempts.",
                v.evidence, e.reason
            ),
            details: with(v.details, json!({ "expired_exemption": exemption })),
            ..v
        }
    }
}

#[cfg(test)]
mod tests {
    use majordomus_readings::refs::Push;
    use majordomus_readings::stash::StashEntry;
    use majordomus_records::policy::Exemption;

    use super::*;
    use crate::done::answer_all;
    use crate::fixtures::all_well;

    fn exempt(question: &str, until: Option<(i32, u32, u32)>) -> Policy {
        let mut p = Policy::default();
        p.exempt.push(Exemption {
            question: question.into(),
            reason: "this repository has no forge".into(),
            until: until.and_then(|(y, m, d)| chrono::NaiveDate::from_ymd_opt(y, m, d)),
        });
        p
    }

    #[test]
    fn an_exemption_that_holds_answers_exempt_with_its_reason_and_keeps_what_was_measured() {
        let mut r = all_well();
        r.commit.push = Ok(Push::Measured {
            against: "refs/remotes/origin/main".into(),
            how: "its upstream".into(),
            commits: vec!["d".repeat(40)],
            count: 1,
            since_start: Some((vec!["d".repeat(40)], 1)),
        });
        let p = exempt("pushed", Some((2026, 11, 30)));
        let a = answer_all(&r, &p).into_iter().find(|a| a.id == "pushed").expect("pushed");
        assert_eq!(a.status, Status::Exempt);
        assert_eq!(
            a.evidence,
            "Exempt by the policy until 2026-11-30, for the reason it gives: \"this repository has no forge\"."
        );
        assert_eq!(a.details["measured"]["status"], "owed");
    }

    #[test]
    fn an_expired_exemption_no_longer_exempts_and_the_real_answer_says_so() {
        let mut r = all_well();
        r.commit.stashes = Ok(vec![StashEntry { index: 0, commit: "c".repeat(40), message: "On main: wip".into() }]);
        let p = exempt("no-stash", Some((2026, 11, 29)));
        let a = answer_all(&r, &p).into_iter().find(|a| a.id == "no-stash").expect("no-stash");
        assert_eq!(a.status, Status::Owed);
        assert!(
            a.evidence.ends_with("The policy's exemption (\"this repository has no forge\") expired on 2026-11-29, so it no longer exempts."),
            "{}",
            a.evidence
        );
        assert_eq!(a.details["expired_exemption"]["until"], "2026-11-29");
    }
}
