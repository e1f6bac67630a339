//! The one place a reading becomes an answer.
//!
//! Every question of the invariant is judged here from [`Readings`], and
//! nowhere else. Nothing in this module performs I/O: what it knows, it was
//! handed. The rules it keeps:
//!
//! - A reading that was not taken is `unknown`, with the reason it gives.
//!   With nothing behind it, no question passes.
//! - What the repository already held at the start is inherited: named in
//!   the evidence, never counted against the task.
//! - Evidence is a sentence of what was read, never the status again; the
//!   `details` carry the same facts as data.

use serde_json::json;

use majordomus_readings::refs::Integration;
use majordomus_readings::Unread;
use majordomus_records::policy::Policy;
use majordomus_records::task::{TaskRecord, TaskState};

use crate::answer::{Answer, Status};
use crate::measure::{Integrated, Push, Readings};
use crate::question::{QuestionDef, QUESTIONS};

/// A question judged: everything of an answer but the question's own fields.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    pub status: Status,
    pub evidence: String,
    pub details: serde_json::Value,
    /// A remedy fitted to this reading; the question's own when `None`.
    pub remedy: Option<String>,
}

impl Verdict {
    fn new(status: Status, evidence: impl Into<String>, details: serde_json::Value) -> Self {
        Self { status, evidence: evidence.into(), details, remedy: None }
    }

    fn remedy(mut self, remedy: impl Into<String>) -> Self {
        self.remedy = Some(remedy.into());
        self
    }

    /// A reading that could not be taken.
    pub fn unread(unread: &Unread) -> Self {
        Self::new(Status::Unknown, sentence(&unread.reason), json!({ "unread": unread.reason }))
    }
}

/// The evidence given when there is no task record.
pub const NO_TASK: &str = "no task record says where this work started";

/// Answers every question of the invariant, in order.
pub fn answer_all(readings: &Readings, _policy: &Policy) -> Vec<Answer> {
    QUESTIONS.iter().map(|q| finish(q, judge(q, readings))).collect()
}

fn finish(q: &QuestionDef, v: Verdict) -> Answer {
    Answer {
        id: q.id.to_string(),
        stage: q.stage.to_string(),
        question: q.question.to_string(),
        status: v.status,
        evidence: v.evidence,
        source: q.source.to_string(),
        remedy: v.remedy.unwrap_or_else(|| q.remedy.to_string()),
        details: v.details,
    }
}

fn judge(q: &QuestionDef, r: &Readings) -> Verdict {
    let task = match (&r.task, q.needs_task) {
        (TaskState::Active(task), _) => Some(task.as_ref()),
        (_, false) => None,
        (TaskState::None, true) => {
            return Verdict::new(Status::Unknown, sentence(NO_TASK), json!({ "task": null })).remedy("majordomus start TASK")
        }
        (TaskState::Unreadable(reason), true) => {
            return Verdict::new(Status::Unknown, sentence(reason), json!({ "task": null, "unread": reason }))
                .remedy("repair or remove .ai/local/state/task.json, then majordomus start TASK")
        }
    };
    match (q.id, task) {
        ("scoped", Some(t)) => scoped(t, r),
        ("regression-tested", Some(_)) => regression_tested(r),
        ("committed", Some(_)) => committed(r),
        ("no-untracked", Some(t)) => no_untracked(t, r),
        ("no-stash", Some(t)) => no_stash(t, r),
        ("settled", _) => settled(r),
        ("pushed", _) => pushed(r),
        ("integrated", _) => integrated(r),
        ("upstream-alive", _) => upstream_alive(r),
        ("measurable", Some(_)) => measurable(r),
        (id, _) => not_measured_yet(id),
    }
}

/// A question this version of majordomus has no reading for: `unknown`, and
/// it says so.
fn not_measured_yet(id: &str) -> Verdict {
    Verdict::new(
        Status::Unknown,
        format!("No reading exists for {id} yet: this version of majordomus does not measure it, so it cannot pass."),
        json!({ "unread": "no reading exists for this question yet" }),
    )
    .remedy("none yet: a later version of majordomus measures this question")
}

fn scoped(task: &TaskRecord, r: &Readings) -> Verdict {
    if task.scope.is_empty() {
        return Verdict::new(Status::Exempt, "The task declared no scope, so every path is in it.", json!({ "scope": [] }));
    }
    let changes = match &r.changes {
        Ok(c) => c,
        Err(e) => return Verdict::unread(e),
    };
    let outside: Vec<&String> = changes.changed.iter().filter(|p| !in_scope(p, &task.scope)).collect();
    let details = json!({ "scope": task.scope, "changed": changes.changed.len(), "outside": outside });
    if outside.is_empty() {
        Verdict::new(
            Status::Pass,
            format!("All {} changed since the start lie inside the scope {}.", count(changes.changed.len(), "path"), names(&task.scope)),
            details,
        )
    } else {
        Verdict::new(
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

/// Whether a repository-relative path lies inside one of the scope paths.
pub fn in_scope(path: &str, scope: &[String]) -> bool {
    scope.iter().any(|s| {
        let s = s.trim_end_matches('/');
        s.is_empty() || s == "." || path == s || path.strip_prefix(s).is_some_and(|rest| rest.starts_with('/'))
    })
}

fn regression_tested(r: &Readings) -> Verdict {
    let changes = match &r.changes {
        Ok(c) => c,
        Err(e) => return Verdict::unread(e),
    };
    if changes.changed.is_empty() {
        return Verdict::new(Status::Exempt, "Nothing changed since the start, so there is nothing to test.", json!({ "changed": 0 }));
    }
    let tests: Vec<&String> = changes.changed.iter().filter(|p| is_test_path(p)).collect();
    let details = json!({ "changed": changes.changed.len(), "tests": tests });
    if tests.is_empty() {
        Verdict::new(
            Status::Owed,
            format!("None of the {} changed since the start is a test path.", count(changes.changed.len(), "path")),
            details,
        )
    } else {
        Verdict::new(Status::Pass, format!("The change touches {}: {}.", count(tests.len(), "test path"), names(&tests)), details)
    }
}

/// Whether a path is a test by the usual conventions: a `test`, `tests`,
/// `spec` or `__tests__` directory, or a `test_*`, `*_test`, `*.test.*`,
/// `*.spec.*` file name.
pub fn is_test_path(path: &str) -> bool {
    const DIRS: [&str; 8] = ["test", "tests", "spec", "specs", "__tests__", "testdata", "testing", "e2e"];
    let mut parts = path.split('/').peekable();
    while let Some(part) = parts.next() {
        if parts.peek().is_some() {
            if DIRS.contains(&part) {
                return true;
            }
            continue;
        }
        let stem = part.split('.').next().unwrap_or(part);
        return stem.starts_with("test_")
            || stem.ends_with("_test")
            || stem.ends_with("_tests")
            || stem.ends_with("_spec")
            || part.contains(".test.")
            || part.contains(".spec.");
    }
    false
}

fn committed(r: &Readings) -> Verdict {
    let (tree, inherited) = match (&r.tree, &r.inherited_dirty) {
        (Ok(t), Ok(i)) => (t, i),
        (Err(e), _) | (_, Err(e)) => return Verdict::unread(e),
    };
    let (kept, counted): (Vec<&str>, Vec<&str>) =
        tree.dirty.iter().map(|d| d.path.as_str()).partition(|p| inherited.contains(*p));
    let details = json!({ "uncommitted": counted, "inherited": kept });
    let also = inherited_clause(&kept, "dirty");
    if counted.is_empty() {
        Verdict::new(Status::Pass, format!("No tracked file changed since the start is uncommitted{also}."), details)
    } else {
        Verdict::new(
            Status::Owed,
            format!("{} changed since the start {} not committed: {}{also}.", count(counted.len(), "tracked file"), are(counted.len()), names(&counted)),
            details,
        )
    }
}

fn no_untracked(task: &TaskRecord, r: &Readings) -> Verdict {
    let tree = match &r.tree {
        Ok(t) => t,
        Err(e) => return Verdict::unread(e),
    };
    let Some(then) = &task.snapshot.untracked else {
        return Verdict::unread(&Unread::new("the task record holds no snapshot of the untracked files at the start"));
    };
    let (kept, counted): (Vec<&str>, Vec<&str>) =
        tree.untracked.iter().map(String::as_str).partition(|p| then.iter().any(|u| u.path == *p));
    let details = json!({ "untracked": counted, "inherited": kept });
    let also = inherited_clause(&kept, "untracked");
    if counted.is_empty() {
        Verdict::new(Status::Pass, format!("No untracked, non-ignored file appeared since the start{also}."), details)
    } else {
        Verdict::new(
            Status::Owed,
            format!("{} appeared since the start: {}{also}.", count(counted.len(), "untracked file"), names(&counted)),
            details,
        )
    }
}

fn no_stash(task: &TaskRecord, r: &Readings) -> Verdict {
    let stashes = match &r.stashes {
        Ok(s) => s,
        Err(e) => return Verdict::unread(e),
    };
    let Some(then) = &task.snapshot.stashes else {
        return Verdict::unread(&Unread::new("the task record holds no snapshot of the stash at the start"));
    };
    let (kept, counted): (Vec<_>, Vec<_>) = stashes.iter().partition(|s| then.contains(&s.commit));
    let label = |s: &&majordomus_readings::stash::StashEntry| format!("stash@{{{}}} ({})", s.index, s.message);
    let details = json!({
        "made": counted.iter().map(|s| json!({ "ref": format!("stash@{{{}}}", s.index), "commit": s.commit, "message": s.message })).collect::<Vec<_>>(),
        "inherited": kept.iter().map(|s| &s.commit).collect::<Vec<_>>(),
    });
    let kept_labels: Vec<String> = kept.iter().map(label).collect();
    let also = inherited_clause(&kept_labels, "in the stash");
    if counted.is_empty() {
        Verdict::new(Status::Pass, format!("No stash entry made since the start remains{also}."), details)
    } else {
        let labels: Vec<String> = counted.iter().map(label).collect();
        Verdict::new(
            Status::Owed,
            format!("{} made since the start {}: {}{also}.", count(counted.len(), "stash entry"), remain(counted.len()), names(&labels)),
            details,
        )
        .remedy(format!("apply or drop each by its exact ref (git stash pop {}), never a bare git stash pop", labels_ref(&counted)))
    }
}

fn labels_ref(entries: &[&majordomus_readings::stash::StashEntry]) -> String {
    entries.first().map(|s| format!("stash@{{{}}}", s.index)).unwrap_or_default()
}

fn settled(r: &Readings) -> Verdict {
    let (operation, tree) = match (&r.operation, &r.tree) {
        (Ok(o), Ok(t)) => (o, t),
        (Err(e), _) | (_, Err(e)) => return Verdict::unread(e),
    };
    let details = json!({ "operation": operation, "conflicted": tree.conflicted });
    match (operation, tree.conflicted.is_empty()) {
        (None, true) => Verdict::new(Status::Pass, "No merge, rebase, cherry-pick, revert or bisect is in progress and no path is conflicted.", details),
        (op, _) => {
            let mut parts = Vec::new();
            if let Some(op) = op {
                parts.push(format!("a {op} is in progress"));
            }
            if !tree.conflicted.is_empty() {
                parts.push(format!("{} conflicted: {}", count(tree.conflicted.len(), "path is"), names(&tree.conflicted)));
            }
            let remedy = match op.as_deref() {
                Some("bisect") => "git bisect reset".to_string(),
                Some(op @ ("merge" | "rebase" | "cherry-pick" | "revert" | "am")) => {
                    format!("resolve the conflicts, then git {op} --continue (or git {op} --abort)")
                }
                _ => "resolve the conflicted paths and git add them".to_string(),
            };
            Verdict::new(Status::Owed, sentence(&parts.join("; ")), details).remedy(remedy)
        }
    }
}

fn pushed(r: &Readings) -> Verdict {
    let push = match &r.push {
        Ok(p) => p,
        Err(e) => return Verdict::unread(e),
    };
    match push {
        Push::NoRemote => Verdict::new(Status::Exempt, "The repository has no remote, so there is nowhere to push.", json!({ "remote": null })),
        Push::Unborn => Verdict::new(Status::Exempt, "HEAD has no commit yet, so there is nothing to push.", json!({ "head": null })),
        Push::Measured { against, how, commits, count: total, since_start } => {
            let short = short_ref(against);
            let Some((new, new_count)) = since_start else {
                return Verdict::unread(&Unread::new(format!(
                    "{} on HEAD {} not on {short}, and the task's start commit is not in this repository to tell which were there at the start",
                    count(*total, "commit"),
                    are(*total)
                )));
            };
            let inherited = total - new_count;
            let details = json!({ "against": against, "how": how, "unpushed": new, "count": new_count, "inherited": inherited, "all_unpushed": commits });
            let also = if inherited > 0 {
                format!(" ({} already unpushed at the start, not counted)", count(inherited, "commit"))
            } else {
                String::new()
            };
            if *new_count == 0 {
                Verdict::new(Status::Pass, format!("Every commit on HEAD is on {short}, {how}{also}."), details)
            } else {
                let ids: Vec<String> = new.iter().take(5).map(|c| c[..12.min(c.len())].to_string()).collect();
                Verdict::new(
                    Status::Owed,
                    format!("{} on HEAD {} not on {short}, {how}: {}{also}.", count(*new_count, "commit"), are(*new_count), names(&ids)),
                    details,
                )
            }
        }
    }
}

fn integrated(r: &Readings) -> Verdict {
    let integrated = match &r.integration {
        Ok(i) => i,
        Err(e) => return Verdict::unread(e),
    };
    let Integrated::Measured { trunk, integration } = integrated else {
        return Verdict::new(Status::Exempt, "HEAD has no commit yet, so there is nothing to integrate.", json!({ "head": null }));
    };
    let short = short_ref(&trunk.refname);
    let base = json!({ "trunk": trunk.refname, "trunk_commit": trunk.commit, "chosen_by": trunk.chosen_by });
    match integration {
        Integration::Reached => Verdict::new(Status::Pass, format!("The trunk {short} ({}) reaches HEAD.", trunk.chosen_by), base),
        Integration::Holds { paths } => Verdict::new(
            Status::Pass,
            format!("The trunk {short} does not reach HEAD but holds all {} HEAD changed, with the same content (a squash or rebase merge).", count(*paths, "path")),
            with(base, json!({ "squash_merged": true, "paths": paths })),
        ),
        Integration::Missing { paths, ahead, ahead_count } => Verdict::new(
            Status::Owed,
            format!(
                "The trunk {short} ({}) does not reach HEAD, which is {} ahead, and does not hold {} HEAD changed: {}.",
                trunk.chosen_by,
                count(*ahead_count, "commit"),
                count(paths.len(), "path"),
                names(paths)
            ),
            with(base, json!({ "missing": paths, "ahead": ahead, "ahead_count": ahead_count })),
        ),
    }
}

fn upstream_alive(r: &Readings) -> Verdict {
    let branches = match &r.branches {
        Ok(b) => b,
        Err(e) => return Verdict::unread(e),
    };
    let gone: Vec<String> = branches
        .iter()
        .filter_map(|b| b.upstream.as_ref().filter(|u| !u.exists).map(|u| format!("{} (tracks {})", b.name, short_ref(&u.refname))))
        .collect();
    let tracking = branches.iter().filter(|b| b.upstream.is_some()).count();
    let details = json!({ "branches": branches.len(), "tracking": tracking, "gone": gone });
    if gone.is_empty() {
        Verdict::new(
            Status::Pass,
            format!("Of {} now, {} an upstream and none is gone.", count(branches.len(), "local branch"), count_verb(tracking, "tracks", "track")),
            details,
        )
    } else {
        Verdict::new(
            Status::Owed,
            format!("{} {} an upstream that is gone: {}.", count(gone.len(), "local branch"), if gone.len() == 1 { "tracks" } else { "track" }, names(&gone)),
            details,
        )
    }
}

fn measurable(r: &Readings) -> Verdict {
    let (listed, n) = match &r.commits_since_start {
        Ok(c) => c,
        Err(e) => return Verdict::unread(e),
    };
    let details = json!({ "commits": n, "listed": listed });
    if *n > 0 {
        Verdict::new(Status::Pass, format!("HEAD holds {} made since the start.", count(*n, "commit")), details)
    } else {
        Verdict::new(Status::Owed, "Nothing measurable: no commit since the start and no todo declared.", details)
    }
}

fn with(mut a: serde_json::Value, b: serde_json::Value) -> serde_json::Value {
    if let (Some(a), serde_json::Value::Object(b)) = (a.as_object_mut(), b) {
        a.extend(b);
    }
    a
}

fn inherited_clause<S: AsRef<str>>(kept: &[S], what: &str) -> String {
    if kept.is_empty() {
        String::new()
    } else {
        format!(" ({} already {what} at the start, not counted: {})", count(kept.len(), "path"), names(kept)).replace(
            "path already in the stash",
            "entry already in the stash",
        )
    }
}

/// `1 path`, `3 paths`.
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        return format!("1 {noun}");
    }
    let plural = match noun {
        "stash entry" => "stash entries".to_string(),
        "local branch" => "local branches".to_string(),
        "path is" => "paths are".to_string(),
        n if n.ends_with('s') || n.ends_with("ch") => format!("{n}es"),
        n => format!("{n}s"),
    };
    format!("{n} {plural}")
}

fn count_verb(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn are(n: usize) -> &'static str {
    if n == 1 {
        "is"
    } else {
        "are"
    }
}

fn remain(n: usize) -> &'static str {
    if n == 1 {
        "remains"
    } else {
        "remain"
    }
}

/// Names the first few items: `a, b, c and 4 more`.
pub fn names<S: AsRef<str>>(items: &[S]) -> String {
    const SHOWN: usize = 5;
    let shown: Vec<&str> = items.iter().take(SHOWN).map(AsRef::as_ref).collect();
    let mut out = shown.join(", ");
    if items.len() > SHOWN {
        out.push_str(&format!(" and {} more", items.len() - SHOWN));
    }
    out
}

fn short_ref(name: &str) -> &str {
    name.strip_prefix("refs/remotes/").or_else(|| name.strip_prefix("refs/heads/")).unwrap_or(name)
}

/// A reason as a sentence: capitalised, ending in a full stop.
pub fn sentence(reason: &str) -> String {
    let mut chars = reason.chars();
    let mut out: String = match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    };
    if !out.ends_with('.') {
        out.push('.');
    }
    out
}

#[cfg(test)]
mod tests;
