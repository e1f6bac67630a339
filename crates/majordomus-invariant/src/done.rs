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
use majordomus_readings::{Unread, UnreadKind};
use majordomus_records::policy::{Exemption, ExtraQuestion, Policy};
use majordomus_records::task::{TaskRecord, TaskState};

use crate::answer::{Answer, Status};
use crate::measure::{Integrated, Push, Readings};
use crate::question::{QuestionDef, QUESTIONS};
use crate::verification::{GateReading, GateRuns, GateSet, RecordedRun};

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
        Self::new(
            Status::Unknown,
            sentence(&unread.reason),
            json!({ "unread": unread.reason, "unread_kind": unread.kind.as_str() }),
        )
    }
}

/// Answers every question of the invariant, in order: the built-in ones,
/// then the policy's extra questions; then the policy's exemptions, as of
/// `readings.today`.
pub fn answer_all(readings: &Readings, policy: &Policy) -> Vec<Answer> {
    let builtin = QUESTIONS.iter().map(|q| {
        finish(q, exempted(q.id, bookkeeping::acknowledge(q.id, judge(q, readings), readings), policy, readings))
    });
    let extra =
        policy.questions.iter().map(|q| finish_extra(q, exempted(&q.id, gate_question(q, readings), policy, readings)));
    builtin.chain(extra).collect()
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

/// The answer of a question that needs a task record, when there is none to read.
fn no_task(task: &TaskState) -> Option<Verdict> {
    match task {
        TaskState::Active(_) => None,
        TaskState::None => Some(
            Verdict::new(
                Status::Unknown,
                sentence(majordomus_readings::NO_TASK),
                json!({ "task": null, "unread_kind": UnreadKind::NoTask.as_str() }),
            )
            .remedy("majordomus start TASK"),
        ),
        TaskState::Unreadable(reason) => Some(
            Verdict::new(
                Status::Unknown,
                sentence(reason),
                json!({ "task": null, "unread": reason, "unread_kind": UnreadKind::Record.as_str() }),
            )
            .remedy("repair or remove .ai/local/state/task.json, then majordomus start TASK"),
        ),
    }
}

fn judge(q: &QuestionDef, r: &Readings) -> Verdict {
    if q.needs_task {
        if let Some(v) = no_task(&r.task) {
            return v;
        }
    }
    let task = r.task.record();
    match (q.id, task) {
        ("scoped", Some(t)) => scoped(t, r),
        ("gates-green", Some(_)) => gates_green(r),
        ("regression-tested", Some(_)) => regression_tested(r),
        ("committed", Some(_)) => committed(r),
        ("no-untracked", Some(t)) => no_untracked(t, r),
        ("no-stash", Some(t)) => no_stash(t, r),
        ("settled", _) => settled(r),
        ("pushed", _) => pushed(r),
        ("integrated", _) => integrated(r),
        ("upstream-alive", _) => upstream_alive(r),
        ("measurable", Some(_)) => measurable(r),
        // The bookkeeping family (issue 5).
        ("todos-done", Some(_)) => bookkeeping::todos_done(r),
        ("claims-released", Some(_)) => bookkeeping::claims_released(r),
        ("filings-closed", Some(_)) => bookkeeping::filings_closed(r),
        ("markers-live", Some(_)) => bookkeeping::markers_live(r),
        ("no-background-work", Some(_)) => bookkeeping::no_background_work(r),
        // The closing questions (seed 002): done/closing.rs.
        ("no-new-debt", Some(_)) => closing::no_new_debt(r),
        ("nothing-accumulated", Some(t)) => closing::nothing_accumulated(t, r),
        ("backlog-not-grown", Some(t)) => closing::backlog_not_grown(t, r),
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
        return Verdict::new(
            Status::Exempt,
            "The task declared no scope, so every path is in it.",
            json!({ "scope": [] }),
        );
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
            format!(
                "All {} changed since the start lie inside the scope {}.",
                count(changes.changed.len(), "path"),
                names(&task.scope)
            ),
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
        return Verdict::new(
            Status::Exempt,
            "Nothing changed since the start, so there is nothing to test.",
            json!({ "changed": 0 }),
        );
    }
    let touched: Vec<&String> = changes.changed.iter().filter(|p| is_test_path(p)).collect();
    // A deleted test catches nothing: a test path the working tree no
    // longer holds is named, not counted.
    let gone = match (&r.verification.gone, touched.is_empty()) {
        (_, true) => Vec::new(),
        (Ok(g), false) => g.iter().collect(),
        (Err(e), false) => return Verdict::unread(e),
    };
    let (deleted, tests): (Vec<&String>, Vec<&String>) = touched.into_iter().partition(|p| gone.contains(p));
    let details = json!({ "changed": changes.changed.len(), "tests": tests, "deleted_tests": deleted });
    let not_counted = match deleted.len() {
        0 => String::new(),
        n => format!(" ({} deleted, and a deleted test does not count: {})", count(n, "test path"), names(&deleted)),
    };
    if tests.is_empty() {
        Verdict::new(
            Status::Owed,
            format!(
                "None of the {} changed since the start is a test path{}{not_counted}.",
                count(changes.changed.len(), "path"),
                if deleted.is_empty() { "" } else { " still there" }
            ),
            details,
        )
    } else {
        Verdict::new(
            Status::Pass,
            format!("The change touches {}: {}{not_counted}.", count(tests.len(), "test path"), names(&tests)),
            details,
        )
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
    // Of those counted, the ones whose content is what it was at the start
    // (dirty or untracked then, staged since; or a commit since undone in
    // the working tree) are not "changed since the start": said apart, so
    // the count agrees with the change set the other questions read.
    let (changed, as_at_start): (Vec<&str>, Vec<&str>) = match &r.changes {
        Ok(c) => {
            let changed: std::collections::HashSet<&str> = c.changed.iter().map(String::as_str).collect();
            counted.iter().partition(|p| changed.contains(**p))
        }
        Err(_) => (counted.clone(), Vec::new()),
    };
    let details = json!({ "uncommitted": counted, "inherited": kept, "content_as_at_start": as_at_start });
    let also = inherited_clause(&kept, "dirty");
    if counted.is_empty() {
        return Verdict::new(
            Status::Pass,
            format!("No tracked file changed since the start is uncommitted{also}."),
            details,
        );
    }
    let mut parts = Vec::new();
    if !changed.is_empty() {
        parts.push(format!(
            "{} changed since the start {} not committed: {}",
            count(changed.len(), "tracked file"),
            are(changed.len()),
            names(&changed)
        ));
    }
    if !as_at_start.is_empty() {
        parts.push(format!(
            "{} whose content is what it was at the start {} from HEAD, not committed: {}",
            count(as_at_start.len(), "tracked file"),
            if as_at_start.len() == 1 { "differs" } else { "differ" },
            names(&as_at_start)
        ));
    }
    Verdict::new(Status::Owed, format!("{}{also}.", sentence(&parts.join("; ")).trim_end_matches('.')), details)
}

fn no_untracked(task: &TaskRecord, r: &Readings) -> Verdict {
    let tree = match &r.tree {
        Ok(t) => t,
        Err(e) => return Verdict::unread(e),
    };
    let Some(then) = &task.snapshot.untracked else {
        return Verdict::unread(&Unread::record(
            "the task record holds no snapshot of the untracked files at the start",
        ));
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
        return Verdict::unread(&Unread::record("the task record holds no snapshot of the stash at the start"));
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
            format!(
                "{} made since the start {}: {}{also}.",
                count(counted.len(), "stash entry"),
                remain(counted.len()),
                names(&labels)
            ),
            details,
        )
        .remedy(format!(
            "apply or drop each by its exact ref (git stash pop {}), never a bare git stash pop",
            labels_ref(&counted)
        ))
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
        (None, true) => Verdict::new(
            Status::Pass,
            "No merge, rebase, cherry-pick, revert or bisect is in progress and no path is conflicted.",
            details,
        ),
        (op, _) => {
            let mut parts = Vec::new();
            if let Some(op) = op {
                parts.push(format!("a {op} is in progress"));
            }
            if !tree.conflicted.is_empty() {
                parts.push(format!(
                    "{} conflicted: {}",
                    count(tree.conflicted.len(), "path is"),
                    names(&tree.conflicted)
                ));
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
        Push::NoRemote => Verdict::new(
            Status::Exempt,
            "The repository has no remote, so there is nowhere to push.",
            json!({ "remote": null }),
        ),
        Push::Unborn => Verdict::new(
            Status::Exempt,
            "HEAD has no commit yet, so there is nothing to push.",
            json!({ "head": null }),
        ),
        Push::Measured { against, how, commits, count: total, since_start } => {
            let short = short_ref(against);
            let Some((new, new_count)) = since_start else {
                return Verdict::unread(&Unread::repository(format!(
                    "{} on HEAD {} not on {short}, and the task's start commit is not in this repository to tell which were there at the start",
                    count(*total, "commit"),
                    are(*total)
                )));
            };
            let inherited = total - new_count;
            let details = json!({ "against": against, "how": how, "unpushed": new, "count": new_count, "inherited": inherited, "all_unpushed": commits });
            let also = if inherited > 0 {
                format!(
                    " ({} already unpushed at the start, not counted{})",
                    count(inherited, "commit"),
                    inherited_commits(commits, new, *new_count, inherited)
                )
            } else {
                String::new()
            };
            if *new_count == 0 {
                Verdict::new(Status::Pass, format!("Every commit on HEAD is on {short} ({how}){also}."), details)
            } else {
                let ids: Vec<String> = new.iter().take(5).map(|c| c[..12.min(c.len())].to_string()).collect();
                Verdict::new(
                    Status::Owed,
                    format!(
                        "{} on HEAD {} not on {short} ({how}): {}{also}.",
                        count(*new_count, "commit"),
                        are(*new_count),
                        names(&ids)
                    ),
                    details,
                )
            }
        }
    }
}

/// `: abc, def and 3 more`, naming the listed commits that are not among
/// the new ones; empty when the listing cannot tell them apart (more new
/// commits than were listed).
fn inherited_commits(all: &[String], new: &[String], new_count: usize, inherited: usize) -> String {
    if new.len() < new_count {
        return String::new();
    }
    const SHOWN: usize = 5;
    let ids: Vec<&str> = all.iter().filter(|c| !new.contains(c)).take(SHOWN).map(|c| short(c)).collect();
    if ids.is_empty() {
        return String::new();
    }
    let more = inherited.saturating_sub(ids.len());
    let more = if more > 0 { format!(" and {more} more") } else { String::new() };
    format!(": {}{more}", ids.join(", "))
}

fn integrated(r: &Readings) -> Verdict {
    let integrated = match &r.integration {
        Ok(i) => i,
        Err(e) => return Verdict::unread(e),
    };
    let Integrated::Measured { trunk, integration } = integrated else {
        return Verdict::new(
            Status::Exempt,
            "HEAD has no commit yet, so there is nothing to integrate.",
            json!({ "head": null }),
        );
    };
    let short = short_ref(&trunk.refname);
    let base = json!({ "trunk": trunk.refname, "trunk_commit": trunk.commit, "chosen_by": trunk.chosen_by });
    match integration {
        Integration::Reached => Verdict::new(Status::Pass, format!("The trunk {short} ({}) reaches HEAD.", trunk.chosen_by), base),
        Integration::Holds { paths, behind_tip: 0, .. } => Verdict::new(
            Status::Pass,
            format!("The trunk {short} does not reach HEAD but holds all {} HEAD changed, with the same content (a squash or rebase merge).", count(*paths, "path")),
            with(base, json!({ "squash_merged": true, "paths": paths, "holding_commit": trunk.commit })),
        ),
        Integration::Holds { paths, commit, behind_tip } => Verdict::new(
            Status::Pass,
            format!(
                "The trunk {short} does not reach HEAD, but its commit {} ({} before its tip) held all {} HEAD changed, with the same content (a squash or rebase merge, edited on the trunk since).",
                &commit[..12.min(commit.len())],
                count(*behind_tip, "commit"),
                count(*paths, "path")
            ),
            with(base, json!({ "squash_merged": true, "paths": paths, "holding_commit": commit, "behind_tip": behind_tip })),
        ),
        Integration::Missing { paths, ahead, ahead_count, searched_only } => Verdict::new(
            Status::Owed,
            format!(
                "The trunk {short} ({}) does not reach HEAD, which is {} ahead, and does not hold {} HEAD changed: {}{}.",
                trunk.chosen_by,
                count(*ahead_count, "commit"),
                count(paths.len(), "path"),
                names(paths),
                match searched_only {
                    Some(n) => format!("; no squash merge of them was found in the trunk's {n} newest first-parent commits, and the older ones back to the merge base were not searched"),
                    None => String::new(),
                }
            ),
            with(base, json!({ "missing": paths, "ahead": ahead, "ahead_count": ahead_count, "squash_search_stopped_after": searched_only })),
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
        .filter_map(|b| {
            b.upstream.as_ref().filter(|u| !u.exists).map(|u| format!("{} (tracks {})", b.name, short_ref(&u.refname)))
        })
        .collect();
    let tracking = branches.iter().filter(|b| b.upstream.is_some()).count();
    let details = json!({ "branches": branches.len(), "tracking": tracking, "gone": gone });
    if gone.is_empty() {
        Verdict::new(
            Status::Pass,
            format!(
                "Of {} now, {} an upstream and none is gone.",
                count(branches.len(), "local branch"),
                count_verb(tracking, "tracks", "track")
            ),
            details,
        )
    } else {
        Verdict::new(
            Status::Owed,
            format!(
                "{} {} an upstream that is gone: {}.",
                count(gone.len(), "local branch"),
                if gone.len() == 1 { "tracks" } else { "track" },
                names(&gone)
            ),
            details,
        )
    }
}

/// A commit or a declared todo makes the task measurable; either one is
/// enough, so one unread reading does not hide the other.
fn measurable(r: &Readings) -> Verdict {
    let commits = r.commits_since_start.as_ref().map(|(listed, n)| (listed, *n));
    let todos = bookkeeping::todos_declared(r);
    let details = json!({
        "commits": commits.as_ref().ok().map(|c| c.1),
        "listed": commits.as_ref().ok().map(|c| c.0),
        "todos": todos.as_ref().ok(),
    });
    let made = match commits {
        Ok((_, n)) if n > 0 => Some(format!("HEAD holds {} made since the start", count(n, "commit"))),
        _ => None,
    };
    let declared = match todos {
        Ok(n) if n > 0 => Some(format!("the task declared {}", count(n, "todo"))),
        _ => None,
    };
    match (made, declared, commits, todos) {
        (Some(m), Some(d), _, _) => Verdict::new(Status::Pass, format!("{m}, and {d}."), details),
        (Some(s), None, _, _) | (None, Some(s), _, _) => Verdict::new(Status::Pass, sentence(&s), details),
        (None, None, Err(e), _) | (None, None, _, Err(e)) => Verdict::unread(e),
        (None, None, Ok(_), Ok(_)) => {
            Verdict::new(Status::Owed, "Nothing measurable: no commit since the start and no todo declared.", details)
        }
    }
}

// ---- Verification: gates-green, the policy's extra questions, exemptions ----

/// What the ledger says of one gate over its inputs now.
#[derive(Debug, Clone, PartialEq)]
pub enum GateState<'a> {
    /// Its latest run over exactly the inputs now passed.
    Passing(&'a RecordedRun),
    /// Its latest run over exactly the inputs now failed or timed out.
    Failed(&'a RecordedRun),
    /// It never reported: never reported is not green.
    NeverReported,
    /// It ran, but its inputs changed since: the verdict covers other content.
    Stale { last: &'a RecordedRun, now: &'a str },
    /// Its inputs or the ledger could not be read.
    Unread(&'a Unread),
}

impl GateState<'_> {
    /// The word for the state in counts and details.
    pub fn label(&self) -> &'static str {
        match self {
            GateState::Passing(_) => "passing",
            GateState::Failed(_) => "failed",
            GateState::NeverReported => "never reported",
            GateState::Stale { .. } => "stale",
            GateState::Unread(_) => "unread",
        }
    }

    pub fn status(&self) -> Status {
        match self {
            GateState::Passing(_) => Status::Pass,
            GateState::Failed(_) => Status::Refused,
            GateState::NeverReported | GateState::Stale { .. } => Status::Owed,
            GateState::Unread(_) => Status::Unknown,
        }
    }
}

/// Judges a gate's runs against its inputs now.
pub fn gate_state(runs: &Result<GateRuns, Unread>) -> GateState<'_> {
    match runs {
        Err(e) => GateState::Unread(e),
        Ok(GateRuns { current: Some(run), .. }) if run.passed() => GateState::Passing(run),
        Ok(GateRuns { current: Some(run), .. }) => GateState::Failed(run),
        Ok(GateRuns { latest: Some(last), inputs_now, .. }) => GateState::Stale { last, now: inputs_now },
        Ok(GateRuns { latest: None, .. }) => GateState::NeverReported,
    }
}

/// The first twelve characters of a hash.
fn short(hash: &str) -> &str {
    &hash[..12.min(hash.len())]
}

/// One gate's state as a clause of evidence.
fn gate_clause(id: &str, state: &GateState<'_>) -> String {
    let by = |run: &RecordedRun| match &run.commit {
        Some(c) => format!("run at {} on {}", run.at, short(c)),
        None => format!("run at {}", run.at),
    };
    match state {
        GateState::Passing(run) => format!("{id} passed over its inputs as they are now ({})", by(run)),
        GateState::Failed(run) if run.timed_out => {
            format!("{id} timed out after {} s over its inputs as they are now ({})", run.duration_ms / 1000, by(run))
        }
        GateState::Failed(run) => {
            format!("{id} failed over its inputs as they are now (exit {}, {})", run.exit, by(run))
        }
        GateState::NeverReported => format!("{id} never reported, and never reported is not green"),
        GateState::Stale { last, now } => format!(
            "{id} is stale: its inputs hashed {} at its last run ({}) and hash {} now",
            short(&last.inputs_hash),
            by(last),
            short(now)
        ),
        GateState::Unread(e) => format!("{id} could not be read: {}", e.reason),
    }
}

/// A gate's reading as data, for `details`.
fn gate_details(g: &GateReading) -> serde_json::Value {
    let mut d = json!({
        "id": g.id,
        "required": g.required,
        "always": g.always,
        "selected": g.selected(),
        "matched": g.matched.iter().take(20).collect::<Vec<_>>(),
        "matched_count": g.matched.len(),
    });
    if let Some(runs) = &g.runs {
        let state = gate_state(runs);
        let extra = match runs {
            Ok(r) => json!({
                "state": state.label(),
                "inputs_now": r.inputs_now,
                "files": r.files,
                "run": r.current.as_ref().or(r.latest.as_ref()),
            }),
            Err(e) => json!({ "state": state.label(), "unread": e.reason }),
        };
        d = with(d, extra);
    } else {
        d = with(d, json!({ "state": "not selected" }));
    }
    d
}

/// Why no gate is selected, as a clause.
fn none_selected_because(set: &GateSet) -> String {
    if set.changed == 0 {
        return "nothing changed since the start and none is marked always".to_string();
    }
    let globs: Vec<String> = set
        .gates
        .iter()
        .map(|g| {
            if g.inputs.is_empty() {
                format!("{}: no inputs", g.id)
            } else {
                format!("{}: {}", g.id, g.inputs.join(", "))
            }
        })
        .collect();
    format!("{} their inputs ({}) and none is marked always", no_change_matches(set.changed), globs.join("; "))
}

/// `the one path changed since the start matches none of`, `none of the 3
/// paths changed since the start matches`: the start of a sentence saying
/// no changed path selects a gate.
pub fn no_change_matches(changed: usize) -> String {
    match changed {
        1 => "the one path changed since the start matches none of".to_string(),
        n => format!("none of the {n} paths changed since the start matches"),
    }
}

fn gates_green(r: &Readings) -> Verdict {
    let set = match &r.verification.gates {
        Ok(s) => s,
        Err(e) => return Verdict::unread(e),
    };
    if set.gates.is_empty() {
        return Verdict::new(
            Status::Exempt,
            "No gate is declared in .ai/repo/majordomus.toml, so there is nothing to run.",
            json!({ "declared": 0 }),
        )
        .remedy("declare the repository's gates in .ai/repo/majordomus.toml");
    }
    let selected: Vec<&GateReading> = set.gates.iter().filter(|g| g.selected()).collect();
    let optional: Vec<&str> = selected.iter().filter(|g| !g.required).map(|g| g.id.as_str()).collect();
    let counted: Vec<(&GateReading, GateState<'_>)> = selected
        .iter()
        .filter(|g| g.required)
        .map(|g| {
            let state = match &g.runs {
                Some(runs) => gate_state(runs),
                None => GateState::NeverReported,
            };
            (*g, state)
        })
        .collect();
    let optional_clause = match optional.len() {
        0 => String::new(),
        1 => format!(" ({} is selected but not required, so it is not counted)", optional[0]),
        _ => format!(" ({} are selected but not required, so they are not counted)", names(&optional)),
    };
    let mut details = json!({
        "declared": set.gates.len(),
        "changed": set.changed,
        "selected": counted.iter().map(|(g, _)| &g.id).collect::<Vec<_>>(),
        "optional": optional,
        "gates": set.gates.iter().map(gate_details).collect::<Vec<_>>(),
    });
    if counted.is_empty() {
        let why = if selected.is_empty() {
            none_selected_because(set)
        } else {
            "every gate the change selects is optional".to_string()
        };
        return Verdict::new(
            Status::Pass,
            format!(
                "No required gate is selected among the {}: {why}{optional_clause}.",
                count(set.gates.len(), "declared gate")
            ),
            details,
        );
    }
    let mut tally: Vec<(&'static str, usize)> = Vec::new();
    for (_, state) in &counted {
        match tally.iter_mut().find(|(l, _)| *l == state.label()) {
            Some((_, n)) => *n += 1,
            None => tally.push((state.label(), 1)),
        }
    }
    let order = ["passing", "failed", "never reported", "stale", "unread"];
    tally.sort_by_key(|(l, _)| order.iter().position(|o| o == l));
    details = with(
        details,
        json!({ "counts": tally.iter().map(|(l, n)| (l.replace(" ", "_"), json!(n))).collect::<serde_json::Map<_, _>>() }),
    );
    let worst = |s: Status| counted.iter().any(|(_, st)| st.status() == s);
    let status = if worst(Status::Refused) {
        Status::Refused
    } else if worst(Status::Unknown) {
        Status::Unknown
    } else if worst(Status::Owed) {
        Status::Owed
    } else {
        Status::Pass
    };
    let clauses: Vec<String> = counted.iter().map(|(g, st)| gate_clause(&g.id, st)).collect();
    let evidence = format!(
        "{} selected: {}{optional_clause}; {}.",
        count(counted.len(), "gate"),
        tally.iter().map(|(l, n)| format!("{n} {l}")).collect::<Vec<_>>().join(", "),
        clauses.join("; ")
    );
    let ids_in = |s: Status| -> Vec<&str> {
        counted.iter().filter(|(_, st)| st.status() == s).map(|(g, _)| g.id.as_str()).collect()
    };
    let v = Verdict::new(status, evidence, details);
    match status {
        Status::Refused => {
            let failed = ids_in(Status::Refused);
            match failed.as_slice() {
                [one] => v.remedy(format!("fix what the gate {one} reports, then majordomus gate run {one}")),
                _ => v.remedy("fix what the failing gates report, then majordomus gate run --all"),
            }
        }
        Status::Owed => match ids_in(Status::Owed).as_slice() {
            [one] => v.remedy(format!("majordomus gate run {one}")),
            _ => v.remedy("majordomus gate run --all"),
        },
        _ => v,
    }
}

/// A policy question answered by one gate: judged like gates-green for
/// that gate alone (its `required` flag aside: the question asks for it).
fn gate_question(q: &ExtraQuestion, r: &Readings) -> Verdict {
    if let Some(v) = no_task(&r.task) {
        return v;
    }
    let set = match &r.verification.gates {
        Ok(s) => s,
        Err(e) => return Verdict::unread(e),
    };
    let Some(g) = set.get(&q.gate) else {
        return Verdict::unread(&Unread::policy(format!(
            "the gate {} that answers this question was not among the gates read",
            q.gate
        )));
    };
    let details = gate_details(g);
    if !g.selected() {
        let why = if set.changed == 0 {
            "nothing changed since the start and it is not marked always".to_string()
        } else if g.inputs.is_empty() {
            "it has no inputs and is not marked always".to_string()
        } else {
            format!("{} its inputs ({})", no_change_matches(set.changed), g.inputs.join(", "))
        };
        return Verdict::new(
            Status::Pass,
            format!("The gate {} is not selected, so it has nothing to answer: {why}.", g.id),
            details,
        );
    }
    let state = match &g.runs {
        Some(runs) => gate_state(runs),
        None => GateState::NeverReported,
    };
    let v = Verdict::new(state.status(), sentence(&format!("The gate {}", gate_clause(&g.id, &state))), details);
    match state.status() {
        Status::Refused => v.remedy(format!("fix what the gate {} reports, then majordomus gate run {}", g.id, g.id)),
        _ => v.remedy(format!("majordomus gate run {}", g.id)),
    }
}

fn finish_extra(q: &ExtraQuestion, v: Verdict) -> Answer {
    Answer {
        id: q.id.clone(),
        stage: q.stage.clone(),
        question: q.question.clone(),
        status: v.status,
        evidence: v.evidence,
        source: format!(".ai/repo/majordomus.toml + gate-run ledger (gate {})", q.gate),
        remedy: v.remedy.unwrap_or_else(|| format!("majordomus gate run {}", q.gate)),
        details: v.details,
    }
}

/// Applies the policy's exemption of a question, if it has one: while it
/// holds, the answer is `exempt` with its reason (what was measured stays
/// in the details); once expired, the measured answer stands and says so.
/// An exemption the policy did not hold at the task's start (added, or its
/// reason or date changed since) still exempts, and says it is new.
fn exempted(id: &str, v: Verdict, policy: &Policy, r: &Readings) -> Verdict {
    let Some(e) = policy.exempt.iter().find(|e| e.question == id) else { return v };
    let exemption = json!({ "reason": e.reason, "until": e.until.map(|d| d.to_string()) });
    if e.holds_on(r.today) {
        let until = e.until.map(|d| format!(" until {d}")).unwrap_or_default();
        let Verdict { status, evidence, details, remedy } = v;
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
        Verdict { status: Status::Exempt, evidence, details, remedy }
    } else {
        let until = e.until.map(|d| d.to_string()).unwrap_or_default();
        Verdict {
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

// ---- end of verification ----

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
        format!(" ({} already {what} at the start, not counted: {})", count(kept.len(), "path"), names(kept))
            .replace("path already in the stash", "entry already in the stash")
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
        n if n.ends_with('y') && !n.ends_with("ay") && !n.ends_with("ey") && !n.ends_with("oy") => {
            format!("{}ies", &n[..n.len() - 1])
        }
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

mod bookkeeping;
pub use bookkeeping::{ack_evidence, ACKNOWLEDGEABLE, LIMITATION_LABEL};
mod closing;

#[cfg(test)]
mod tests;
