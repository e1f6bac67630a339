//! `scoped` judged from the change set since the start.

use serde_json::json;

use majordomus_records::task::TaskRecord;
use majordomus_records::RepoPath;

use crate::answer::Status;
use crate::judgement::Judgement;
use crate::prose::{count, names};
use crate::readings::Readings;

pub(crate) fn scoped(task: &TaskRecord, r: &Readings) -> Judgement {
    if task.scope.is_empty() {
        return Judgement::new(
            Status::Exempt,
            "The task declared no scope, so every path is in it.",
            json!({ "scope": [] }),
        );
    }
    let changes = match &r.changes {
        Ok(c) => c,
        Err(e) => return Judgement::unread(e),
    };
    let outside: Vec<&RepoPath> = changes.changed.iter().filter(|p| !in_scope_path(p, &task.scope)).collect();
    let details = json!({ "scope": task.scope, "changed": changes.changed.len(), "outside": outside });
    if outside.is_empty() {
        Judgement::new(
            Status::Pass,
            format!(
                "All {} changed since the start lie inside the scope {}.",
                count(changes.changed.len(), "path"),
                names(&task.scope)
            ),
            details,
        )
    } else {
        Judgement::new(
            Status::Refused,
            format!(
                "{} changed since the start {} outside the scope {}: {}.",
                count(outside.len(), "path"),
                if outside.len() == 1 { "lies" } else { "lie" },
                names(&task.scope),
                names(&outside)
            ),
            details,
        )
    }
}

/// [`in_scope`] for a path as bytes.
pub fn in_scope_path(path: &RepoPath, scope: &[String]) -> bool {
    scope.iter().any(|s| {
        let s = s.trim_end_matches('/').as_bytes();
        let p = path.as_bytes();
        s.is_empty() || s == b"." || p == s || p.strip_prefix(s).is_some_and(|rest| rest.starts_with(b"/"))
    })
}

/// Whether a repository-relative path lies inside one of the scope paths.
pub fn in_scope(path: &str, scope: &[String]) -> bool {
    scope.iter().any(|s| {
        let s = s.trim_end_matches('/');
        s.is_empty() || s == "." || path == s || path.strip_prefix(s).is_some_and(|rest| rest.starts_with('/'))
    })
}

#[cfg(test)]
mod tests;
