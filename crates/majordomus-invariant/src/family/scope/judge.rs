//! `scoped` judged from the change set since the start.
//!
//! It judges the task's code. The policy file is not judged here: a change
//! to it is reported as what it is, a policy change, in the document's
//! `policy` finding (`src/in_force/`), where a loosening is named and kept
//! out of force; here it is said to be reported apart. A path out of scope
//! is settled in place, by `majordomus scope add`, never by a restart.

use serde_json::json;

use majordomus_records::paths::POLICY_FILE;
use majordomus_records::task::TaskRecord;
use majordomus_records::RepoPath;

use crate::answer::Status;
use crate::judgement::Judgement;
use crate::prose::{count, names, shell_word};
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
    let policy_changed = changes.changed.iter().any(|p| *p == POLICY_FILE);
    let judged: Vec<&RepoPath> = changes.changed.iter().filter(|p| **p != POLICY_FILE).collect();
    let (merging, mut outside): (Vec<&RepoPath>, Vec<&RepoPath>) =
        judged.iter().copied().filter(|p| !in_scope_path(p, &task.scope)).partition(|p| changes.merging.contains(*p));
    // The task's commits that landed on the trunk around HEAD changed
    // paths too (test/cases/349).
    let landed = match &r.integration.landed {
        Ok(l) => l,
        Err(e) => return Judgement::unread(e),
    };
    let mut landed_outside: Vec<&super::super::integration::Landed> = Vec::new();
    for l in landed {
        if l.path != POLICY_FILE && !in_scope_path(&l.path, &task.scope) && !outside.contains(&&l.path) {
            outside.push(&l.path);
            landed_outside.push(l);
        }
    }
    let mut details = json!({
        "scope": task.scope,
        "scope_added": task.scope_added,
        "changed": judged.len(),
        "outside": outside,
        "landed_outside": landed_outside.iter().map(|l| json!({ "path": l.path, "commit": l.commit })).collect::<Vec<_>>(),
        "policy_file_changed": policy_changed,
        "merging_outside": merging,
    });
    if !changes.arrived.is_empty() {
        details["arrived"] = json!(changes.arrived);
    }
    let added = match task.scope_added.as_slice() {
        [] => String::new(),
        added => format!(
            " ({} with majordomus scope add: {})",
            if added.len() == 1 { "one path added" } else { "paths added" },
            added.iter().map(|a| format!("{} at {}", a.path, a.at)).collect::<Vec<_>>().join(", ")
        ),
    };
    let mut apart = match policy_changed {
        true => format!(" The policy file {POLICY_FILE} changed too: that is reported apart, as a policy change."),
        false => String::new(),
    };
    // What a fetch brought is others' work, wherever it lies.
    if !changes.arrived.is_empty() {
        apart.push_str(&format!(
            " Not judged: {} changed only by commits a fetch brought since the start, which are not the task's ({}).",
            count(changes.arrived.len(), "path"),
            names(&changes.arrived)
        ));
    }
    // What a merge in progress brings from its other side is read once it
    // is committed: a colleague's work fetched is then what arrived, the
    // task's own is the task's (test/cases/467). Until then, not known.
    let merge_note = match merging.as_slice() {
        [] => String::new(),
        m => format!(
            " The merge in progress brings {} outside the scope from its other side (MERGE_HEAD), which the working tree holds as it does: {}; whose {} is read once the merge is committed.",
            count(m.len(), "path"),
            names(m),
            if m.len() == 1 { "it is" } else { "they are" }
        ),
    };
    apart.push_str(&merge_note);
    if outside.is_empty() && !merging.is_empty() {
        return Judgement::new(
            Status::Unknown,
            format!(
                "Every other path of the {} changed since the start lies inside the scope {}{added}.{apart}",
                count(judged.len(), "path"),
                names(&task.scope)
            ),
            details,
        )
        .remedy("finish the merge in progress (resolve each conflicted path, git add them, then git commit), or abort it (git merge --abort); what it brought is then read: a colleague's work a fetch brought is not the task's");
    }
    if outside.is_empty() {
        Judgement::new(
            Status::Pass,
            format!(
                "All {} changed since the start lie inside the scope {}{added}.{apart}",
                count(judged.len(), "path"),
                names(&task.scope)
            ),
            details,
        )
    } else {
        let words: Vec<String> = outside.iter().map(|p| shell_word(&p.to_string())).collect();
        Judgement::new(
            Status::Refused,
            format!(
                "{} changed since the start {} outside the scope {}{added}: {}{landed}.{apart}",
                count(outside.len(), "path"),
                if outside.len() == 1 { "lies" } else { "lie" },
                names(&task.scope),
                names(&outside),
                landed = match landed_outside.as_slice() {
                    [] => String::new(),
                    l => format!(
                        " (of those, {} changed by this worktree's {}, which HEAD does not hold and the trunk does)",
                        names(&l.iter().map(|l| l.path.to_string()).collect::<Vec<_>>()),
                        names(&{
                            let mut c: Vec<&str> = l.iter().map(|l| &l.commit[..12.min(l.commit.len())]).collect();
                            c.dedup();
                            c.iter().map(|c| format!("commit {c}")).collect::<Vec<_>>()
                        })
                    ),
                }
            ),
            details,
        )
        .remedy(format!(
            "revert the changes outside the scope, or, if they belong to the task, grow the scope in place: majordomus scope add {}",
            words.join(" ")
        ))
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
