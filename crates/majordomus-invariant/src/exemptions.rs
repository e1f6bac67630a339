//! The policy's exemptions (`[[exempt]]`): applied to any question's
//! judgement, built-in or extra, once it is judged.
//!
//! While an exemption holds, the answer is `exempt` with its reason, and
//! what was measured stays in the details; once expired, the measured answer
//! stands and says so. The exemptions as they stood at the task's start are
//! read from the start commit's tree (the blob of `.ai/repo/majordomus.toml`
//! there), so an exemption the task added to its own policy is seen for what
//! it is: it keeps exempting wherever it came from (a repository with no
//! forge is told to add one), and one added since the start says so.

use std::path::Path;

use serde_json::json;

use majordomus_readings::{Reading, Repo, Unread};
use majordomus_records::paths::POLICY_FILE;
use majordomus_records::policy::{Exemption, Policy};
use majordomus_records::task::TaskState;

use crate::answer::Status;
use crate::judgement::{with, Judgement};
use crate::prose::sentence;
use crate::readings::Readings;

/// The exemptions of the policy at the task's start. `Ok(None)`: there is
/// no task record, so no start to compare with. `Ok(Some(empty))` when the
/// start had no commit, no policy file, or one that does not parse (every
/// exemption then counts as new).
pub fn at_start(repo: &Repo, task: &TaskState) -> Reading<Option<Vec<Exemption>>> {
    let Some(record) = task.record() else { return Ok(None) };
    let Some(start) = record.head.as_deref() else { return Ok(Some(Vec::new())) };
    let oid = git2::Oid::from_str(start).map_err(|e| Unread::git(&format!("commit id {start}"), &e))?;
    let commit = repo.git.find_commit(oid).map_err(|_| Unread::start_commit_missing(start))?;
    let tree = commit.tree().map_err(|e| Unread::git(&format!("the tree of {start}"), &e))?;
    let entry = match tree.get_path(Path::new(POLICY_FILE)) {
        Ok(entry) => entry,
        Err(e) if e.code() == git2::ErrorCode::NotFound => return Ok(Some(Vec::new())),
        Err(e) => return Err(Unread::git(&format!("{POLICY_FILE} in the start commit {start}"), &e)),
    };
    let Ok(blob) = entry.to_object(&repo.git).and_then(|o| o.peel_to_blob()) else { return Ok(Some(Vec::new())) };
    let Ok(text) = std::str::from_utf8(blob.content()) else { return Ok(Some(Vec::new())) };
    let builtin = crate::question::builtin_ids();
    Ok(Some(Policy::parse(Path::new(POLICY_FILE), text, &builtin).map(|p| p.exempt).unwrap_or_default()))
}

/// Applies the policy's exemption of a question, if it has one: while it
/// holds, the answer is `exempt` with its reason (what was measured stays
/// in the details); once expired, the measured answer stands and says so.
/// An exemption the policy did not hold at the task's start (added, or its
/// reason or date changed since) still exempts, and says it is new.
pub(crate) fn exempted(id: &str, v: Judgement, policy: &Policy, r: &Readings) -> Judgement {
    let Some(e) = policy.exempt.iter().find(|e| e.question == id) else { return v };
    let exemption = json!({ "reason": e.reason, "until": e.until.map(|d| d.to_string()) });
    if e.holds_on(r.today) {
        let until = e.until.map(|d| format!(" until {d}")).unwrap_or_default();
        let Judgement { status, evidence, details, remedy } = v;
        let mut details = json!({ "exemption": exemption, "measured": { "status": status, "evidence": evidence, "details": details } });
        let evidence = match added_since_start(e, r) {
            Since::NoStart => format!("Exempt by the policy{until}: {}", sentence(&e.reason)),
            Since::AtStart => {
                details = with(details, json!({ "exemption_added_since_start": false }));
                format!("Exempt by the policy{until}: {}", sentence(&e.reason))
            }
            Since::Added => {
                details = with(details, json!({ "exemption_added_since_start": true }));
                format!("Exempted{until} by a policy entry added since the task started: {}", sentence(&e.reason))
            }
            Since::Unread(why) => {
                // Not read is not "added": the claim stays unmade.
                details = with(details, json!({ "exemption_at_start_unread": why.reason }));
                format!(
                    "Exempt by the policy{until}: {} (whether it was in the policy at the start could not be read: {})",
                    sentence(&e.reason),
                    why.reason
                )
            }
        };
        Judgement { status: Status::Exempt, evidence, details, remedy }
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

/// Whether an exemption was in the policy at the task's start.
enum Since<'a> {
    /// No task record: no start to compare with.
    NoStart,
    /// It was, exactly as it is now.
    AtStart,
    /// It was not (added, or its reason or date changed since).
    Added,
    /// The policy at the start could not be read, so which is not known.
    Unread(&'a Unread),
}

fn added_since_start<'a>(e: &Exemption, r: &'a Readings) -> Since<'a> {
    if r.task.record().is_none() {
        return Since::NoStart;
    }
    match &r.exemptions_at_start {
        Ok(None) => Since::NoStart,
        Ok(Some(then)) if then.contains(e) => Since::AtStart,
        Ok(Some(_)) => Since::Added,
        Err(why) => Since::Unread(why),
    }
}

#[cfg(test)]
mod tests {
    use majordomus_readings::refs::Push;
    use majordomus_readings::stash::StashEntry;
    use majordomus_readings::status::{Dirty, WorkingTree};
    use majordomus_records::task::TaskRecord;
    use majordomus_testkit::TestRepo;

    use super::*;
    use crate::done::answer_all;
    use crate::fixtures::all_well;

    fn task(head: Option<String>) -> TaskState {
        TaskState::Active(Box::new(TaskRecord { head, ..majordomus_testkit::task_record() }))
    }

    const EXEMPT: &str = "[[exempt]]\nquestion = \"pushed\"\nreason = \"no remote\"\n";

    #[test]
    fn the_exemptions_are_read_from_the_start_commit_not_the_working_tree() {
        let t = TestRepo::with_commit();
        t.write(POLICY_FILE, EXEMPT);
        t.commit_all("policy");
        let start = t.head();
        t.write(POLICY_FILE, &format!("{EXEMPT}\n[[exempt]]\nquestion = \"committed\"\nreason = \"later\"\n"));
        t.commit_all("exempt more");
        let repo = majordomus_readings::open(t.path()).expect("open");
        let then = at_start(&repo, &task(Some(start))).expect("read").expect("a start");
        assert_eq!(then.len(), 1);
        assert_eq!((then[0].question.as_str(), then[0].reason.as_str()), ("pushed", "no remote"));
        assert_eq!(at_start(&repo, &TaskState::None).expect("read"), None);
    }

    #[test]
    fn no_policy_an_unparsable_one_or_no_commit_at_the_start_holds_no_exemption() {
        let t = TestRepo::with_commit();
        let repo = majordomus_readings::open(t.path()).expect("open");
        assert_eq!(at_start(&repo, &task(Some(t.head()))).expect("read"), Some(vec![]));
        assert_eq!(at_start(&repo, &task(None)).expect("read"), Some(vec![]));
        t.write(POLICY_FILE, &format!("{EXEMPT}\n[nonsense]\nx = 1\n"));
        t.commit_all("a bad policy");
        let repo = majordomus_readings::open(t.path()).expect("open");
        assert_eq!(at_start(&repo, &task(Some(t.head()))).expect("read"), Some(vec![]));
        let missing = "0123456789012345678901234567890123456789".to_string();
        let err = at_start(&repo, &task(Some(missing))).expect_err("unread");
        assert!(err.reason.contains("is not in this repository"), "{err}");
    }

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
        r.exemptions_at_start = Ok(Some(p.exempt.clone()));
        let a = answer_all(&r, &p).into_iter().find(|a| a.id == "pushed").expect("pushed");
        assert_eq!(a.status, Status::Exempt);
        assert_eq!(a.evidence, "Exempt by the policy until 2026-11-30: This repository has no forge.");
        assert_eq!(a.details["measured"]["status"], "owed");
        assert_eq!(a.details["exemption_added_since_start"], false);
    }

    #[test]
    fn an_exemption_added_since_the_start_still_exempts_and_says_it_is_new() {
        let mut r = all_well();
        r.tree = Ok(WorkingTree {
            dirty: vec![Dirty { path: "a.txt".into(), index: None, deleted: false }],
            ..WorkingTree::default()
        });
        let mut p = exempt("committed", None);
        p.exempt[0].reason = "later".into();
        let new = |r: &Readings, p: &Policy| answer_all(r, p).into_iter().find(|a| a.id == "committed").expect("it");
        // Not in the policy at the start.
        let a = new(&r, &p);
        assert_eq!(a.status, Status::Exempt);
        assert_eq!(a.evidence, "Exempted by a policy entry added since the task started: Later.");
        assert_eq!(a.details["exemption_added_since_start"], true);
        assert_eq!(a.details["measured"]["status"], "owed");
        // There at the start with another reason, or another date: new too.
        let mut then = p.exempt.clone();
        then[0].reason = "not yet".into();
        r.exemptions_at_start = Ok(Some(then));
        assert_eq!(new(&r, &p).details["exemption_added_since_start"], true);
        let mut then = p.exempt.clone();
        then[0].until = chrono::NaiveDate::from_ymd_opt(2026, 1, 1);
        r.exemptions_at_start = Ok(Some(then));
        assert_eq!(new(&r, &p).details["exemption_added_since_start"], true);
        // There at the start exactly as now: the usual evidence.
        r.exemptions_at_start = Ok(Some(p.exempt.clone()));
        let a = new(&r, &p);
        assert_eq!(a.evidence, "Exempt by the policy: Later.");
        assert_eq!(a.details["exemption_added_since_start"], false);
        // The policy at the start unread: not claimed to be new, and why is said.
        r.exemptions_at_start = Err(Unread::io("the start commit x is not in this repository"));
        let a = new(&r, &p);
        assert_eq!(a.status, Status::Exempt);
        assert_eq!(
            a.evidence,
            "Exempt by the policy: Later. (whether it was in the policy at the start could not be read: the start commit x is not in this repository)"
        );
        assert!(a.details.get("exemption_added_since_start").is_none(), "{}", a.details);
        assert_eq!(a.details["exemption_at_start_unread"], "the start commit x is not in this repository");
        // No task, no start to compare with: nothing said of it.
        r.task = TaskState::None;
        let a = answer_all(&r, &exempt("settled", None)).into_iter().find(|a| a.id == "settled").expect("settled");
        assert_eq!(a.evidence, "Exempt by the policy: This repository has no forge.");
        assert!(a.details.get("exemption_added_since_start").is_none(), "{}", a.details);
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
