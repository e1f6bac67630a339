//! The rules every question is judged by, over readings handed in
//! directly (no repository). Each family's own judging is tested in its
//! folder (`src/family/*/judge/tests.rs`).

use majordomus_readings::Unread;
use majordomus_records::policy::Policy;
use majordomus_records::task::TaskState;

use super::*;
use crate::answer::Status;
use crate::fixtures::{all_well, answer, nothing_read, record, status_of};

#[test]
fn with_nothing_behind_it_no_question_passes() {
    for task in [TaskState::None, TaskState::Unreadable("garbled".into()), TaskState::Active(Box::new(record()))] {
        let answers = answer_all(&nothing_read(task), &Policy::default());
        assert_eq!(answers.len(), QUESTIONS.len());
        for a in &answers {
            assert_ne!(a.status, Status::Pass, "{} passed with nothing read", a.id);
        }
    }
}

#[test]
fn an_unread_reading_is_never_a_pass_it_is_unknown_with_its_reason() {
    let mut r = all_well();
    r.commit.push = Err(Unread::io("the refs could not be read"));
    let a = answer(&r, "pushed");
    assert_eq!(a.status, Status::Unknown);
    assert_eq!(a.evidence, "The refs could not be read.");
}

#[test]
fn a_repository_where_all_is_well_passes_every_measured_question() {
    let answers = answer_all(&all_well(), &Policy::default());
    for id in [
        "regression-tested",
        "committed",
        "no-untracked",
        "no-stash",
        "settled",
        "pushed",
        "integrated",
        "upstream-alive",
        "measurable",
    ] {
        assert_eq!(status_of(&answers, id), Status::Pass, "{id}");
    }
    assert_eq!(status_of(&answers, "scoped"), Status::Exempt);
}

#[test]
fn without_a_task_record_the_questions_that_need_one_are_unknown_with_the_remedy_start() {
    let mut r = all_well();
    r.task = TaskState::None;
    let answers = answer_all(&r, &Policy::default());
    for q in QUESTIONS.iter().filter(|q| q.needs_task) {
        let a = answers.iter().find(|a| a.id == q.id.as_str()).expect("answered");
        assert_eq!(a.status, Status::Unknown, "{}", q.id);
        assert_eq!(a.evidence, "No task record says where this work started.");
        assert_eq!(a.remedy, "majordomus start TASK");
        assert_eq!(a.unread_kind(), Some(majordomus_readings::UnreadKind::NoTask), "{}", q.id);
    }
    // And the questions that need none are judged without one: the dispatch
    // and each question's `needs_task` agree.
    for q in QUESTIONS.iter().filter(|q| !q.needs_task) {
        let a = answers.iter().find(|a| a.id == q.id.as_str()).expect("answered");
        assert_eq!(a.status, Status::Pass, "{}: {}", q.id, a.evidence);
    }
    assert_eq!(status_of(&answers, "pushed"), Status::Pass);
}

#[test]
fn every_answer_carries_a_source_evidence_and_a_remedy() {
    for r in [all_well(), nothing_read(TaskState::None)] {
        for a in answer_all(&r, &Policy::default()) {
            assert!(!a.source.is_empty() && !a.remedy.is_empty(), "{}", a.id);
            assert!(a.evidence.len() > a.status.as_str().len() + 10, "{}: {}", a.id, a.evidence);
            assert!(a.details.is_object(), "{}", a.id);
        }
    }
}
