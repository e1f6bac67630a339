//! `scoped` judged over readings handed in directly.

use majordomus_readings::changes::ChangeSet;
use majordomus_records::task::TaskState;

use super::*;
use crate::fixtures::{all_well, answer, record};
use majordomus_records::paths::POLICY_FILE;

#[test]
fn a_path_outside_the_scope_refuses_and_is_named() {
    let mut r = all_well();
    let mut t = record();
    t.scope = vec!["src".into()];
    r.task = TaskState::Active(Box::new(t));
    r.changes = Ok(ChangeSet { changed: vec!["src/a.rs".into(), "srcx/b.rs".into()], ..ChangeSet::default() });
    let a = answer(&r, "scoped");
    assert_eq!(a.status, Status::Refused);
    assert!(a.evidence.contains("srcx/b.rs"), "{}", a.evidence);
    assert_eq!(a.details["outside"], serde_json::json!(["srcx/b.rs"]));
}

#[test]
fn scope_matching_is_by_whole_path_components() {
    let scope = vec!["src/parser".to_string()];
    assert!(in_scope("src/parser", &scope));
    assert!(in_scope("src/parser/lex.rs", &scope));
    assert!(!in_scope("src/parser2/lex.rs", &scope));
    assert!(!in_scope("src/lib.rs", &scope));
}

#[test]
fn the_policy_file_is_not_judged_for_scope_and_is_said_to_be_reported_apart() {
    let mut r = all_well();
    let mut t = record();
    t.scope = vec!["src".into()];
    r.task = TaskState::Active(Box::new(t));
    r.changes = Ok(ChangeSet { changed: vec!["src/a.rs".into(), POLICY_FILE.into()], ..ChangeSet::default() });
    let a = answer(&r, "scoped");
    assert_eq!(a.status, Status::Pass, "{}", a.evidence);
    assert!(a.evidence.contains("reported apart, as a policy change"), "{}", a.evidence);
    assert_eq!(a.details["policy_file_changed"], true);
}

#[test]
fn the_remedy_of_a_path_out_of_scope_is_scope_add_naming_it_as_one_shell_word() {
    let mut r = all_well();
    let mut t = record();
    t.scope = vec!["src".into()];
    r.task = TaskState::Active(Box::new(t));
    r.changes = Ok(ChangeSet { changed: vec!["docs/guide.md".into(), "docs/it's.md".into()], ..ChangeSet::default() });
    let a = answer(&r, "scoped");
    assert_eq!(a.status, Status::Refused);
    assert!(a.remedy.ends_with("majordomus scope add docs/guide.md 'docs/it'\\''s.md'"), "{}", a.remedy);
}

#[test]
fn a_path_a_merge_in_progress_brings_from_its_other_side_is_not_refused_but_unknown() {
    let mut r = all_well();
    let mut t = record();
    t.scope = vec!["tests".into()];
    r.task = TaskState::Active(Box::new(t));
    r.changes = Ok(ChangeSet {
        changed: vec!["NEWS.md".into(), "tests/t.txt".into()],
        merging: vec!["NEWS.md".into()],
        ..ChangeSet::default()
    });
    let a = answer(&r, "scoped");
    assert_eq!(a.status, Status::Unknown, "{}", a.evidence);
    assert!(a.evidence.contains("MERGE_HEAD") && a.evidence.contains("NEWS.md"), "{}", a.evidence);
    assert!(a.remedy.contains("git merge --abort") && !a.remedy.contains("scope add"), "{}", a.remedy);
    // The task's own edit beside it is refused as ever, and only it is offered to scope add.
    r.changes = Ok(ChangeSet {
        changed: vec!["NEWS.md".into(), "README".into()],
        merging: vec!["NEWS.md".into()],
        ..ChangeSet::default()
    });
    let a = answer(&r, "scoped");
    assert_eq!(a.status, Status::Refused);
    assert!(a.remedy.ends_with("majordomus scope add README"), "{}", a.remedy);
}
