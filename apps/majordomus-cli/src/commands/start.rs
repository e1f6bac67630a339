//! `majordomus start`: record the task and its start snapshot.

use std::path::{Component, Path, PathBuf};

use clap::Args;
use majordomus_records::task::{Owner, Session, TaskRecord, TaskState, TASK_SCHEMA};

use crate::out::outln;
use crate::workspace::Workspace;
use crate::{CliError, Exit};

/// Record a task and what the repository holds at its start.
///
/// Everything already dirty, untracked, stashed or unpushed now is
/// inherited: `check` names it and never counts it against the task.
#[derive(Debug, Args)]
pub struct StartArgs {
    /// What the task is, in a few words.
    pub task: String,
    /// A path the task may change (repeatable); relative to the current directory.
    #[arg(long = "scope", value_name = "PATH")]
    pub scope: Vec<PathBuf>,
    /// An issue this task works on (repeatable).
    #[arg(long = "issue", value_name = "ID")]
    pub issue: Vec<String>,
    /// The process that owns the task. By default, the one that ran this
    /// command, or, when that is a shell running one command string
    /// (`bash -c`, as agents run commands), the nearest ancestor that is
    /// not. `sweep` counts the task as left behind once it is gone.
    #[arg(long = "owner-pid", value_name = "PID")]
    pub owner_pid: Option<u32>,
}

pub fn cmd_start(cwd: &Path, args: StartArgs) -> Result<Exit, CliError> {
    if args.task.trim().is_empty() {
        return Err(CliError::Usage("the task needs a description: majordomus start \"what the work is\"".into()));
    }
    let max = majordomus_records::task::MAX_TITLE_CHARS;
    if args.task.trim().chars().count() > max {
        return Err(CliError::Usage(format!(
            "the task's description is longer than {max} characters: name the work in a line, and keep the rest in an issue"
        )));
    }
    let ws = Workspace::open(cwd)?;
    let here = cwd.canonicalize().unwrap_or_else(|_| cwd.to_path_buf());
    let prefix = here.strip_prefix(ws.repo.root()).unwrap_or(Path::new("")).to_path_buf();
    let scope = args.scope.iter().map(|s| normalise_scope(&prefix, s)).collect::<Result<Vec<_>, _>>()?;
    let Begun { record, unread, restored } = begin(&ws, args.task.trim(), scope, args.issue, args.owner_pid)?;
    // The repositories around this one (a scratch repository made inside
    // the project) keep a note of a task an agent's session started, so
    // that the session's stop made there finds it.
    if record.owner.as_ref().is_some_and(|o| o.session.is_some()) {
        for failed in majordomus_invariant::orphans::note_around(ws.repo.root(), &record) {
            crate::out::errln!(
                "majordomus: the note of this task for a repository around it was not written ({failed})"
            );
        }
    }
    let at = match (&record.head, &record.branch) {
        (Some(c), Some(b)) => format!("{b} at {}", &c[..12]),
        (Some(c), None) => format!("detached HEAD at {}", &c[..12]),
        (None, Some(b)) => format!("{b}, which has no commit yet"),
        (None, None) => "an unborn HEAD".to_string(),
    };
    outln!("started {:?} ({}) on {at}", record.task, record.id)?;
    if !record.scope.is_empty() {
        outln!("scope: {}", crate::render::escape_text(&record.scope.join(", ")))?;
    }
    // A scope path with nothing at it is said: a typo holds every change out
    // of scope, and once the task has begun the scope only grows.
    for path in record.scope.iter().filter(|p| std::fs::symlink_metadata(ws.repo.root().join(p)).is_err()) {
        outln!(
            "scope: {} names nothing in the working tree yet (a path the task will create, or a typo: from here the scope only grows, by majordomus scope add)",
            crate::render::escape_text(path)
        )?;
    }
    let s = &record.snapshot;
    // A part the snapshot could not read is not in it: said so, not counted as none.
    let n = |v: Option<usize>, what: &str| match v {
        Some(n) => format!("{n} {what}"),
        None => format!("{what} not read"),
    };
    outln!(
        "inherited: {}, {}, {}, {}",
        n(s.dirty.as_ref().map(Vec::len), "dirty"),
        n(s.untracked.as_ref().map(Vec::len), "untracked"),
        n(s.stashes.as_ref().map(Vec::len), "stashed"),
        n(s.unpushed.as_ref().map(Vec::len), "unpushed"),
    )?;
    match &s.previous {
        Some(p) if majordomus_invariant::restart::continues(&record) => {
            outln!("continues the previous task here: {}", majordomus_invariant::restart::continued_sentence(p))?;
            // The policy in force is still the one that task started
            // under: what was loosened since, before its finish or after,
            // is named now rather than first at the next check.
            let task = TaskState::Active(Box::new(record.clone()));
            if let Ok(in_force) = ws.in_force(&task) {
                for change in in_force.finding.iter().flat_map(|f| f.loosenings()) {
                    outln!("policy: {}", crate::render::escape_text(&change.sentence()))?;
                }
            }
        }
        Some(p) => outln!("inherited from the previous task here: {}", majordomus_invariant::restart::sentence(p))?,
        None => {}
    }
    if restored > 0 {
        outln!("put back in the ledger: {restored} of what the task it continues declared, which the ledger no longer held")?;
    }
    for (what, why) in &unread {
        outln!("not read at the start: {what} ({why}); what it held then cannot be told inherited")?;
    }
    Ok(Exit::Ok)
}

/// A task just recorded, and the parts of its start snapshot that could not
/// be read.
#[derive(Debug)]
pub struct Begun {
    pub record: TaskRecord,
    pub unread: Vec<(String, String)>,
    /// What the task continued declared and the ledger no longer held, put back.
    pub restored: usize,
}

/// Records a task in `ws` (what `start` does, without printing): refused
/// with [`CliError::TaskActive`] when a task is already recorded there.
/// `owner_pid`: see [`StartArgs::owner_pid`].
pub fn begin(
    ws: &Workspace,
    task: &str,
    scope: Vec<String>,
    issues: Vec<String>,
    owner_pid: Option<u32>,
) -> Result<Begun, CliError> {
    let policy = ws.policy()?;
    crate::workspace::state_dir_usable(&ws.paths)?;
    match TaskState::here(&ws.paths) {
        TaskState::None => {}
        TaskState::Active(t) => {
            return Err(CliError::TaskActive(format!(
                "a task is already active here: {:?} ({}), started {}; end it with majordomus finish --outcome ...",
                t.task, t.id, t.started_at
            )))
        }
        TaskState::Unreadable(reason) => {
            return Err(CliError::TaskActive(format!(
                "a task is recorded here but its record cannot be read ({reason}); repair {}, or end the task \
                 first with majordomus finish --outcome partial (or blocked, failed), which archives what is there",
                ws.paths.task().display()
            )))
        }
    }
    let head = majordomus_readings::refs::head(&ws.repo).map_err(|e| CliError::internal("cannot read HEAD", e))?;
    // Before the snapshot: the snapshot records info/exclude as the task
    // starts with it, this line included.
    exclude_own_state(ws)?;
    // A part of the snapshot that could not be read is left out, not fatal:
    // the task is recorded, and what was not read is said below.
    let majordomus_invariant::snapshot::Taken { mut snapshot, unread } =
        majordomus_invariant::snapshot::snapshot(&ws.repo, &policy);
    snapshot.open_pull_requests = open_at_start(ws);
    snapshot.root = Some(majordomus_records::started_in::recorded(ws.paths.root()));
    let now = chrono::Utc::now();
    let record = TaskRecord {
        schema: TASK_SCHEMA.to_string(),
        id: format!("{}-{:x}", now.format("%Y%m%dT%H%M%SZ"), std::process::id() ^ now.timestamp_subsec_nanos()),
        task: task.to_string(),
        scope,
        scope_added: Vec::new(),
        issues,
        started_at: now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        head: head.commit.clone(),
        branch: head.branch.clone(),
        snapshot,
        owner: Some(owner(owner_pid)?),
    };
    let record = continuing(record);
    // A record its own reading would refuse is never written: the start
    // says why (an environment past its bounds, say) and records nothing.
    record.check().map_err(|why| CliError::Usage(format!("cannot start: the task record would be refused: {why}")))?;
    let mut bytes =
        serde_json::to_vec_pretty(&record).map_err(|e| CliError::internal("cannot encode the task record", e))?;
    bytes.push(b'\n');
    // Created, never replaced: of two starts racing past the check above,
    // one records its task and the other is told a task is active.
    if !crate::workspace::create_state(&ws.paths, &ws.paths.task(), &bytes)? {
        return Err(CliError::TaskActive(
            "a task is already active here: another majordomus start recorded one a moment ago; nothing was written"
                .into(),
        ));
    }
    keep_copy(ws, &bytes)?;
    // What happened to the ledger before this task is not held against it.
    majordomus_records::ledger::renew_mark(&ws.paths).map_err(|e| {
        CliError::internal("the task is recorded, but the ledger's mark in the git directory cannot be renewed", e)
    })?;
    let restored = restore_declarations(ws, &record)?;
    let unread = unread.into_iter().map(|(what, why)| (what.to_string(), why.to_string())).collect();
    Ok(Begun { record, unread, restored })
}

/// A start where the previous task here ended with questions open
/// continues that task (crates/majordomus-invariant/src/restart.rs): its
/// id, start commit, branch, time and snapshot, the policy file as it
/// stood at its start included, with this start's description, issues and
/// owner, and its scope grown by what this start names. Finishing and
/// starting again is then no way to make what a task left inherited, nor
/// to put in force a policy loosened since the task began: the policy in
/// force stays the one it started under, and what changed since is judged
/// as a change made during the task (test/cases/381).
fn continuing(fresh: TaskRecord) -> TaskRecord {
    let Some(previous) = fresh.snapshot.previous.clone() else { return fresh };
    let Some(before) = majordomus_invariant::restart::archived_record(&previous) else { return fresh };
    let (scope, scope_added) = continued_scope(&before, &fresh.scope);
    // The root is this start's: a task continued in a worktree moved
    // since is read where it stands now.
    let snapshot = majordomus_records::task::Snapshot {
        previous: Some(previous),
        root: fresh.snapshot.root.clone(),
        ..before.snapshot
    };
    TaskRecord {
        id: before.id,
        started_at: before.started_at,
        head: before.head,
        branch: before.branch,
        snapshot,
        scope,
        scope_added,
        ..fresh
    }
}

/// Puts back, for a task continued, what it declared (its archive keeps
/// it) and the ledger no longer holds: the ledger removed between the
/// finish and this start is no way to forget an open todo, a claim or
/// background work (test/cases/341).
fn restore_declarations(ws: &Workspace, record: &TaskRecord) -> Result<usize, CliError> {
    let Some(previous) = record.snapshot.previous.as_ref().filter(|_| majordomus_invariant::restart::continues(record))
    else {
        return Ok(0);
    };
    let kept = majordomus_invariant::restart::archived_declarations(previous);
    if kept.is_empty() {
        return Ok(0);
    }
    let _lock = ws.lock_ledger()?;
    let held = majordomus_records::ledger::read_here(&ws.paths)
        .map_err(|e| CliError::internal("the task is recorded, but its ledger cannot be read", e))?;
    let lost: Vec<_> = kept.iter().filter(|e| !held.contains(e)).collect();
    for entry in &lost {
        majordomus_records::ledger::append(&ws.paths, entry)
            .map_err(|e| CliError::internal("the task is recorded, but what it declared cannot be put back", e))?;
    }
    Ok(lost.len())
}

/// The scope of a task continued by a start naming `named`: a restart is
/// no way around the scope either. A task with a scope keeps it, and a path
/// the new start names beyond it is added as `scope add` adds one (recorded
/// with when, and shown by `scoped`); a start naming none does not widen it
/// to everything. A task whose scope was everything takes the start's.
fn continued_scope(before: &TaskRecord, named: &[String]) -> (Vec<String>, Vec<majordomus_records::task::ScopeAdded>) {
    if before.scope.is_empty() {
        return (named.to_vec(), Vec::new());
    }
    let (mut scope, mut added) = (before.scope.clone(), before.scope_added.clone());
    let at = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    for path in named.iter().filter(|p| !before.scope.contains(p)) {
        scope.push(path.clone());
        added.push(majordomus_records::task::ScopeAdded { path: path.clone(), at: at.clone() });
    }
    (scope, added)
}

/// The task's owner: `--owner-pid`, else the agent session's own process
/// where `start` runs inside one ([`host_session`]: the hook host's
/// process, found among the ancestors, with the session id it gives its
/// hooks), else the process that ran `start` (a `bash -c` that ends with
/// this command stands for the process that ran it), with its start time
/// where `/proc` gives it. An agent runs each command in a shell that ends
/// with it, sometimes one this cannot tell from a lasting one (a script, a
/// login shell): the agent's own process is what lasts.
fn owner(pid: Option<u32>) -> Result<Owner, CliError> {
    let session = host_session();
    let parent = std::os::unix::process::parent_id();
    let pid = pid
        .or_else(|| session.as_ref().and_then(|(_, host)| host_process(parent, host)))
        .unwrap_or_else(|| majordomus_readings::process::lasting_ancestor(parent));
    let start_time = match majordomus_readings::process::stat(pid) {
        Ok(Some(s)) => Some(s.start_time),
        Ok(None) => return Err(CliError::Usage(format!("--owner-pid {pid}: no such process is running"))),
        Err(_) => None,
    };
    Ok(Owner { pid, start_time, session: session.and_then(|(s, _)| s) })
}

/// The agent session `start` runs in, as the host's environment names it
/// for the commands it runs: Claude Code sets `CLAUDECODE=1` and
/// `CLAUDE_CODE_SESSION_ID` (the `session_id` its hooks are given), Codex
/// `CODEX_THREAD_ID`. With it, how the host's own process is recognised.
fn host_session() -> Option<(Option<Session>, HostProcess)> {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty() && v.len() <= 128);
    if var("CLAUDECODE").as_deref() == Some("1") {
        let session = var("CLAUDE_CODE_SESSION_ID").map(|id| Session { host: "claude".into(), id });
        return Some((session, HostProcess { names: &["claude"], exec_path: var("CLAUDE_CODE_EXECPATH") }));
    }
    let id = var("CODEX_THREAD_ID")?;
    Some((Some(Session { host: "codex".into(), id }), HostProcess { names: &["codex"], exec_path: None }))
}

/// How a host's process is told among the ancestors: the program it runs
/// (`/proc/PID/exe`, or the first or second argument: a script run by its
/// interpreter) is the host's executable path, or is named as the host.
#[derive(Debug)]
struct HostProcess {
    names: &'static [&'static str],
    exec_path: Option<String>,
}

/// The nearest ancestor, from `pid` up, that is the host's process; `None`
/// when none is (a sandbox's own process namespace hides it, say).
fn host_process(pid: u32, host: &HostProcess) -> Option<u32> {
    let is_host = |p: u32| {
        let exe = std::fs::read_link(format!("/proc/{p}/exe")).ok();
        let args = majordomus_readings::process::cmdline(p).unwrap_or_default();
        let named = |a: &String| {
            let base = a.rsplit('/').next().unwrap_or(a);
            host.names.contains(&base) || host.exec_path.as_deref() == Some(a.as_str())
        };
        exe.is_some_and(|e| host.exec_path.as_deref() == Some(&*e.to_string_lossy())) || args.iter().take(2).any(named)
    };
    let mut current = pid;
    for _ in 0..16 {
        if current <= 1 {
            return None;
        }
        if is_host(current) {
            return Some(current);
        }
        current = majordomus_readings::process::stat(current).ok().flatten()?.parent;
    }
    None
}

/// A scope path relative to the repository root, with `/` separators and no
/// `.` or `..`; an absolute path or one escaping the repository is refused.
pub fn normalise_scope(prefix: &Path, scope: &Path) -> Result<String, CliError> {
    normalise_scope_as(prefix, scope, "--scope")
}

/// [`normalise_scope`], its refusals naming the path as `label PATH`.
pub fn normalise_scope_as(prefix: &Path, scope: &Path, label: &str) -> Result<String, CliError> {
    if scope.is_absolute() {
        return Err(CliError::Usage(format!(
            "{label} {} is absolute; give a path inside the repository, relative to where you are",
            scope.display()
        )));
    }
    let mut parts: Vec<String> = Vec::new();
    for component in prefix.join(scope).components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if parts.pop().is_none() {
                    return Err(CliError::Usage(format!("{label} {} lies outside the repository", scope.display())));
                }
            }
            Component::Normal(p) => {
                let part = p.to_string_lossy();
                // A scope is paths, matched by prefix; a glob would be taken
                // literally and refuse what the worker meant to allow.
                if part.contains(['*', '?', '[']) {
                    return Err(CliError::Usage(format!(
                        "{label} {} looks like a glob; a scope is a directory or a file (everything beneath a directory is in scope): name the directory instead",
                        scope.display()
                    )));
                }
                parts.push(part.into_owned())
            }
            Component::RootDir | Component::Prefix(_) => {
                return Err(CliError::Usage(format!("{label} {} is not a relative path", scope.display())))
            }
        }
    }
    Ok(if parts.is_empty() { ".".to_string() } else { parts.join("/") })
}

/// Adds `/.ai/local/` to `$GIT_DIR/info/exclude` (the common directory's, so
/// every worktree shares it) unless a line already says so.
fn exclude_own_state(ws: &Workspace) -> Result<(), CliError> {
    const LINE: &str = "/.ai/local/";
    let path = ws.repo.common_dir().join("info").join("exclude");
    let current = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(CliError::internal(format!("cannot read {}", path.display()), e)),
    };
    if current.lines().any(|l| l.trim() == LINE) {
        return Ok(());
    }
    let mut next = current;
    if !next.is_empty() && !next.ends_with('\n') {
        next.push('\n');
    }
    next.push_str(LINE);
    next.push('\n');
    majordomus_records::atomic::write_atomic_keeping_mode(ws.repo.common_dir(), &path, next.as_bytes())
        .map_err(crate::workspace::place_error)
}

/// Keeps the record just written as its copy in the git directory, where
/// `git clean -x` does not reach (`TaskState::here` reads it when the
/// record is gone).
pub(crate) fn keep_copy(ws: &Workspace, bytes: &[u8]) -> Result<(), CliError> {
    majordomus_records::task::TaskRecord::keep_copy(&ws.paths, bytes).map_err(|e| match e {
        majordomus_records::task::TaskError::Write { source, .. } if source.is_refusal() => {
            CliError::Usage(majordomus_records::task::error_chain(&source))
        }
        e => CliError::internal("the task record is written, but its copy in the git directory cannot be", e),
    })
}

/// The pull requests the forge observation current now holds open, for the
/// snapshot: `backlog-not-grown` tells a pull request reopened since the
/// start by it. None where the forge was never observed or its observation
/// cannot be read (the question then reads creation times alone), or where
/// it holds as many as a refresh lists (it may have left some out).
fn open_at_start(ws: &Workspace) -> Option<majordomus_records::task::OpenAtStart> {
    let (obs, _) =
        majordomus_records::forge::Observation::load_shared(ws.repo.common_dir(), &ws.paths.forge()).ok()??;
    let numbers: Vec<u64> =
        obs.pull_requests.iter().filter(|p| p.state.eq_ignore_ascii_case("open")).map(|p| p.number).collect();
    (numbers.len() < crate::gh::PR_LIMIT).then(|| majordomus_records::task::OpenAtStart {
        observed_at: obs.observed_at.clone(),
        repository: obs.repository.clone(),
        numbers,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scope_paths_are_normalised_against_the_current_directory() {
        let ok = |prefix: &str, s: &str| normalise_scope(Path::new(prefix), Path::new(s)).expect("valid");
        assert_eq!(ok("", "./src//parser/"), "src/parser");
        assert_eq!(ok("src", "parser"), "src/parser");
        assert_eq!(ok("src", ".."), ".");
        assert_eq!(ok("", "a/../b"), "b");
    }

    #[test]
    fn absolute_and_escaping_scope_paths_are_refused() {
        assert!(normalise_scope(Path::new(""), Path::new("/etc")).is_err());
        assert!(normalise_scope(Path::new(""), Path::new("../sibling")).is_err());
        assert!(normalise_scope(Path::new("src"), Path::new("../../x")).is_err());
        for glob in ["src/*", "src/**/x.rs", "file?.rs", "[ab]"] {
            let err = normalise_scope(Path::new(""), Path::new(glob)).expect_err("a glob");
            assert!(matches!(&err, CliError::Usage(m) if m.contains("looks like a glob")), "{glob}: {err:?}");
        }
    }
}
