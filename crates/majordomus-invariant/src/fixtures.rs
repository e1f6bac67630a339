//! The readings and task record the judging tests start from: a
//! repository where all is well, or one where nothing could be read.
//! Each test changes only what it is about.

use majordomus_readings::changes::ChangeSet;
use majordomus_readings::refs::{Branch, Head, Integration, Push, Trunk, Upstream};
use majordomus_readings::status::WorkingTree;
use majordomus_readings::Unread;
use majordomus_records::policy::Policy;
use majordomus_records::task::{TaskRecord, TaskState};

use crate::answer::{Answer, Status};
use crate::done::answer_all;
use crate::family::bookkeeping::BookkeepingReadings;
use crate::family::closing::ClosingReadings;
use crate::family::commit::CommitReadings;
use crate::family::integration::{Integrated, IntegrationReadings};
use crate::family::verification::VerificationReadings;
use crate::readings::Readings;

/// The task record the judging tests start from (the test kit's).
pub(crate) fn record() -> TaskRecord {
    majordomus_testkit::task_record()
}

/// The environment the fixture's task started under, and its gates ran under.
pub(crate) fn environment() -> majordomus_records::ledger::Environment {
    majordomus_testkit::gate_environment()
}

pub(crate) fn today() -> chrono::NaiveDate {
    chrono::NaiveDate::from_ymd_opt(2026, 11, 30).expect("a date")
}

pub(crate) fn unread<T>() -> Result<T, Unread> {
    Err(Unread::io("the test took no reading"))
}

/// Readings none of which could be taken.
pub(crate) fn nothing_read(task: TaskState) -> Readings {
    let none = Unread::io("the test took no reading");
    Readings {
        task,
        head: unread(),
        tree: unread(),
        changes: unread(),
        branches: unread(),
        today: today(),
        commit: CommitReadings::unread(&none),
        integration: IntegrationReadings::unread(&none),
        verification: VerificationReadings::unread(&none),
        closing: ClosingReadings::unread(&none),
        bookkeeping: BookkeepingReadings::unread(&none),
    }
}

/// A trunk found at `refname` (`refs/heads/B` or `refs/remotes/origin/B`),
/// naming the branch B, at the commit of 40 `c`s.
pub(crate) fn trunk_at(refname: &str, c: char) -> Trunk {
    let branch = refname.strip_prefix("refs/heads/").or_else(|| refname.strip_prefix("refs/remotes/origin/"));
    Trunk {
        refname: refname.into(),
        branch: branch.expect("a branch or origin ref").into(),
        commit: c.to_string().repeat(40),
        chosen_by: "the test".into(),
        at_start: None,
        fetch_reads: None,
    }
}

/// Readings of a clean, pushed, integrated repository with one commit made.
pub(crate) fn all_well() -> Readings {
    let trunk = trunk_at("refs/remotes/origin/main", 'b');
    let none = Unread::io("the test took no reading");
    Readings {
        task: TaskState::Active(Box::new(record())),
        head: Ok(Head { commit: Some("b".repeat(40)), branch: Some("main".into()) }),
        tree: Ok(WorkingTree::default()),
        changes: Ok(ChangeSet { changed: vec!["src/lib.rs".into(), "tests/it.rs".into()], ..ChangeSet::default() }),
        branches: Ok(vec![Branch {
            name: "main".into(),
            commit: "b".repeat(40),
            upstream: Some(Upstream { refname: "refs/remotes/origin/main".into(), exists: true }),
            at_start: false,
        }]),
        today: today(),
        commit: CommitReadings {
            inherited_dirty: Ok(Default::default()),
            inherited_untracked: Ok(Some(Default::default())),
            stashes: Ok(vec![]),
            operations: Ok(vec![]),
            push: Ok(Push::Measured {
                against: "refs/remotes/origin/main".into(),
                how: "its upstream".into(),
                commits: vec![],
                count: 0,
                since_start: Some((vec![], 0)),
            }),
            elsewhere: Ok(Default::default()),
            submodules: Ok(vec![]),
            in_submodules: Ok(vec![]),
            behind: Ok(None),
            shadowed: Ok(Default::default()),
            evidence: Ok(Default::default()),
        },
        integration: IntegrationReadings {
            integrated: Ok(Integrated::Measured { trunk, integration: Integration::Reached }),
            aside: Ok(vec![]),
            upstreams: Ok(Default::default()),
            landed: Ok(vec![]),
            branches_landed: Ok(vec![]),
        },
        verification: VerificationReadings {
            gone: Ok(vec![]),
            test_code: Ok(Some(Default::default())),
            not_new: Ok(Default::default()),
            ..VerificationReadings::unread(&none)
        },
        closing: ClosingReadings::unread(&none),
        bookkeeping: BookkeepingReadings {
            commits_since_start: Ok((vec!["b".repeat(40)], 1)),
            tree_changed: Ok(true),
            ..BookkeepingReadings::unread(&none)
        },
    }
}

pub(crate) fn status_of(answers: &[Answer], id: &str) -> Status {
    answers.iter().find(|a| a.id == id).map(|a| a.status).expect("question answered")
}

pub(crate) fn answer(r: &Readings, id: &str) -> Answer {
    answer_all(r, &Policy::default()).into_iter().find(|a| a.id == id).expect("answered")
}
