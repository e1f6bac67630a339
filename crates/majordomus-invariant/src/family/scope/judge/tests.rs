//! `scoped` judged over readings handed in directly.

use majordomus_readings::changes::ChangeSet;
use majordomus_records::task::TaskState;

use super::*;
use crate::fixtures::{all_well, answer, record};

#[test]
fn a_path_outside_the_scope_refuses_and_is_named() {
    let mut r = all_well();
    let mut t = record();
    t.scope = vec!["src".into()];
    r.task = TaskState::Active(Box::new(t));
    r.changes = Ok(ChangeSet { changed: vec!["src/a.rs".into(), "srcx/b.rs".into()], inherited: vec![] });
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
