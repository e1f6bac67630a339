//! The policy in force: what every command that judges or records against
//! the policy (`check`, `score`, `gate`, `hook stop`, `explain`, `markers`,
//! `finish`, `ack`, `sweep`, ...) reads, through [`read`] and nothing else.
//!
//! The policy is a file in the working tree, so a task could loosen what
//! judges it: exempt its own open question, turn a failing gate's command
//! into `true`, raise its own caps. The rule (README.md, "The policy in
//! force"): **the policy in force for a task is the policy as it stood when
//! the task started**, plus only those changes since that add strictness
//! (a new gate, a new extra question, an exemption narrowed or removed, a
//! lower cap, ...). Any loosening is not in force for this task: it is
//! named, with the entry and how it loosens, and takes effect for the next
//! task. `stricter.rs` holds the rule of every key, one function each;
//! because it takes the policy apart with exhaustive patterns, a key added
//! to the policy does not compile until it has a rule.
//!
//! Where the start's policy comes from: `start` keeps the file's text in
//! the task record's snapshot (but where that text held an edit
//! uncommitted then that the task has committed since, or that the working
//! tree no longer holds, the start commit's file: [`edit_left`]); a record
//! written before that was kept falls back to the file in the start commit
//! (a symbolic link followed inside its tree); a record with neither (it started
//! on an unborn HEAD) says so, and then only what is at least as strict as
//! the defaults is in force. Without a task, the working tree's policy is
//! the policy, and one with problems is refused as it always was. With a
//! task, a working-tree policy that no longer parses leaves the start's in
//! force and is named; `gates-green` refuses until it is repaired
//! ([`hold_open`]), since no later run could read the gates it declares.

use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::json;

use majordomus_readings::Repo;
use majordomus_records::paths::POLICY_FILE;
use majordomus_records::policy::{Policy, PolicyError, Provider};
use majordomus_records::task::{TaskRecord, TaskState};

use crate::answer::{Answer, Status};
use crate::prose::short;

pub mod stricter;
#[cfg(test)]
mod tests;

/// The policy every command judges and records by, and how it came to be.
#[derive(Debug, Clone, PartialEq)]
pub struct InForce {
    pub policy: Policy,
    /// What the document says of it; `None` without a task (the working
    /// tree's policy is the policy, and nothing is compared).
    pub finding: Option<PolicyFinding>,
}

/// The policy as the document reports it: where the start's policy was
/// read from, every change since, and whether each is in force.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PolicyFinding {
    /// The policy file, relative to the root.
    pub file: String,
    /// Where the start's policy was read from, in words.
    pub start: String,
    /// Each change the working tree's policy makes to the start's.
    #[serde(default)]
    pub changes: Vec<Change>,
    /// Why the working tree's policy cannot be read, when it cannot: the
    /// start's is in force, and `gates-green` refuses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unreadable: Option<String>,
}

/// One change to the policy since the start.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Change {
    /// The entry: `[gates.unit] run`, `[[exempt]] committed`, `[caps] pushed`, ...
    pub entry: String,
    /// What changed, in words.
    pub how: String,
    pub effect: Effect,
    /// Whether it applies to this task: only what does not loosen does.
    pub in_force: bool,
}

/// What a change does to what judges the task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Effect {
    /// Adds strictness: in force at once.
    Stricter,
    /// Loosens: not in force for this task.
    Looser,
    /// Decides nothing a question answers (a wording, the hook's time
    /// budget), or takes away nothing that could be answered (no forge
    /// declared where the repository has no remote, nor had one at the
    /// start): in force at once.
    Neutral,
}

impl Change {
    pub(crate) fn new(entry: impl Into<String>, how: impl Into<String>, effect: Effect) -> Self {
        Self { entry: entry.into(), how: how.into(), effect, in_force: effect != Effect::Looser }
    }

    /// The change as a sentence: the entry, what changed, and whether it is
    /// in force for this task.
    pub fn sentence(&self) -> String {
        if self.entry == POLICY_FILE && self.effect == Effect::Looser {
            return format!(
                "{}: {}; the policy the task started under stays in force whole until it is repaired.",
                self.entry, self.how
            );
        }
        let verdict = match self.effect {
            Effect::Stricter => "it only adds strictness, so it is in force at once",
            Effect::Neutral if self.entry == "[forge] provider" => {
                "it takes away nothing a forge could have answered, so it is in force at once"
            }
            Effect::Neutral => "it decides nothing a question answers, so it is in force at once",
            Effect::Looser => "a loosening, so not in force for this task (it is for the next)",
        };
        format!("{}: {}; {verdict}.", self.entry, self.how)
    }
}

impl PolicyFinding {
    /// The changes that are not in force for the task.
    pub fn loosenings(&self) -> impl Iterator<Item = &Change> {
        self.changes.iter().filter(|c| !c.in_force)
    }
}

/// The policy in force in the working tree `root` for `task`: the start's,
/// with the changes since that add strictness. `repo` is read only for a
/// record that predates keeping the policy's text (the start commit's
/// file); `None` where the repository cannot be read. Without a task the
/// working tree's policy, or its problems.
pub fn read(repo: Option<&Repo>, root: &Path, task: &TaskState) -> Result<InForce, PolicyError> {
    let builtin = crate::question::builtin_ids();
    let path = root.join(POLICY_FILE);
    let Some(record) = task.record() else {
        return Policy::load(&path, &builtin).map(|policy| InForce { policy, finding: None });
    };
    let now_text = match majordomus_records::regular::read_to_string(&path) {
        Ok(t) => Ok(Some(t)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => match repo {
            Some(repo) => outside_checkout(repo, &path),
            None => Ok(None),
        },
        Err(source) => Err(PolicyError::Io { path: path.clone(), source }),
    };
    let now = now_text.as_ref().map_err(|e| error_text(e)).and_then(|t| match t {
        Some(text) => Policy::parse(Path::new(POLICY_FILE), text, &builtin).map_err(|e| error_text(&e)),
        None => Ok(Policy::default()),
    });
    // Read only where the working tree declares no forge: the one change
    // the remotes being on this machine decides.
    let declares_none = now.as_ref().is_ok_and(|p| p.provider() == Some(Provider::None));
    let place = stricter::Place {
        remote_less: remote_less(repo, record),
        on_this_machine: declares_none && remotes_on_this_machine(repo, record),
    };
    let start = match now_text.as_ref().ok().and_then(|now| moved_on(repo, record, &builtin, now)) {
        Some((moved, false)) => moved,
        Some((theirs, true)) => {
            with_their_strictness(at_start(repo, record, &builtin, now.as_ref().ok(), place), theirs, place)
        }
        None => at_start(repo, record, &builtin, now.as_ref().ok(), place),
    };
    let mut finding = PolicyFinding {
        file: POLICY_FILE.to_string(),
        start: start.from.clone(),
        changes: Vec::new(),
        unreadable: None,
    };
    let policy = match now {
        Ok(now) => {
            let (policy, changes) = stricter::merge_at(&start.policy, &now, place);
            finding.changes = changes;
            let text_moved = matches!((&start.text, &now_text), (Some(then), Ok(now)) if then != now);
            if finding.changes.is_empty() && text_moved {
                finding.changes.push(Change::new(
                    POLICY_FILE,
                    "its text changed since the start, and nothing it decides did",
                    Effect::Neutral,
                ));
            }
            policy
        }
        Err(why) => {
            finding.changes.push(Change::new(
                POLICY_FILE,
                format!("no longer reads as a policy ({why})"),
                Effect::Looser,
            ));
            finding.unreadable = Some(why);
            start.policy
        }
    };
    Ok(InForce { policy, finding: Some(finding) })
}

/// Whether the repository has no remote now, nor had one at the task's
/// start, as its snapshot kept them (a record that kept none cannot say,
/// and a repository not opened here cannot either: both read as not).
fn remote_less(repo: Option<&Repo>, record: &TaskRecord) -> bool {
    let none_at_start = record.snapshot.remotes.as_ref().is_some_and(|r| r.is_empty());
    none_at_start && repo.is_some_and(|r| majordomus_readings::refs::remotes(r).is_ok_and(|now| now.is_empty()))
}

/// Whether every remote the task started with, and every remote now, is a
/// directory on this machine (each URL it fetches from or pushes to, as
/// git rewrote them): then no forge holds the task's pull requests, and the
/// default forge (GitHub, through `gh`, which resolves the repository from
/// the remotes' URLs) could never be asked. Both ends decide: a remote
/// re-pointed at a directory since the start, or away from one, is not
/// (test/cases/517). A record that kept no remotes, or kept none, cannot
/// say, and a repository not opened here cannot either: both read as not.
pub fn remotes_on_this_machine(repo: Option<&Repo>, record: &TaskRecord) -> bool {
    use majordomus_readings::refs::on_this_machine;
    let Some(then) = record.snapshot.remotes.as_ref().filter(|r| !r.is_empty()) else { return false };
    let local_then = then.values().all(|r| {
        let listed = r.urls.iter().chain(&r.push_urls).flatten();
        std::iter::once(&r.url).chain(&r.push_url).chain(listed).all(|u| on_this_machine(u))
    });
    local_then && repo.is_some_and(|r| majordomus_readings::refs::remotes_on_this_machine(r).unwrap_or(false))
}

/// An error and its causes on one line, each line of its problems kept apart by `; `.
fn error_text(e: &dyn std::error::Error) -> String {
    majordomus_records::task::error_chain(e).replace('\n', "; ")
}

/// The policy as it stood at the task's start, where it was read from, and
/// its text where that is known.
struct AtStart {
    policy: Policy,
    from: String,
    /// `Some(None)`: there was no policy file. `None`: not known.
    text: Option<Option<String>>,
}

fn at_start(
    repo: Option<&Repo>,
    record: &TaskRecord,
    builtin: &[&str],
    now: Option<&Policy>,
    place: stricter::Place,
) -> AtStart {
    let parsed = |text: &Option<String>, from: String, what: &str| -> AtStart {
        match text {
            None => AtStart { policy: Policy::default(), from, text: Some(None) },
            Some(t) => match Policy::parse(Path::new(POLICY_FILE), t, builtin) {
                Ok(policy) => AtStart { policy, from, text: Some(Some(t.clone())) },
                Err(e) => unrecorded(format!("{what} no longer reads as a policy ({})", error_text(&e))),
            },
        }
    };
    if let Some(kept) = &record.snapshot.policy {
        if let Some(EditLeft { in_start_commit, why }) = edit_left(repo, record, &kept.text, now, place, builtin) {
            let start = record.head.as_deref().unwrap_or_default();
            return parsed(
                &in_start_commit,
                format!(
                    "the start commit {}'s policy file (the file held edits uncommitted at the start {why})",
                    short(start)
                ),
                "the policy in the start commit",
            );
        }
        return parsed(
            &kept.text,
            "the task record's copy of the policy file at the start".into(),
            "the policy the task record kept",
        );
    }
    let Some(start) = record.head.as_deref() else {
        return unrecorded(
            "the task record predates keeping the policy, and the task started on an unborn HEAD, with no commit to read it from"
                .into(),
        );
    };
    let Some(repo) = repo else {
        return unrecorded(format!(
            "the task record predates keeping the policy, and the start commit {} cannot be read here",
            short(start)
        ));
    };
    match in_commit(repo, start, "the start commit") {
        Ok(text) => parsed(
            &text,
            format!("the start commit {}'s policy file (the task record predates keeping a copy)", short(start)),
            "the policy in the start commit",
        ),
        Err(why) => unrecorded(format!("the task record predates keeping the policy, and {why}")),
    }
}

/// The start's policy as others moved it on since: where the policy file
/// moved since the start commit (at HEAD, or in the working tree) and only
/// commits that arrived from a remote changed it
/// ([`majordomus_readings::refs::arrival::others_version`]: a colleague's
/// change the trunk brought by a fetch, pulled; a side branch the task
/// merged is not, test/cases/583), the file as they left it is the start's
/// policy, and the task's own changes are read against it. A change of the
/// task's (committed here, or made under this repository's own address in
/// any clone and fetched) leaves the start's as it was: test/cases/464.
/// Read only where the file moved, so the common command pays two blob
/// reads; `None` wherever anything cannot be read.
fn moved_on(
    repo: Option<&Repo>,
    record: &TaskRecord,
    builtin: &[&str],
    now: &Option<String>,
) -> Option<(AtStart, bool)> {
    let (repo, start) = (repo?, record.head.as_deref()?);
    let then = in_commit(repo, start, "the start commit").ok()?;
    let head = majordomus_readings::refs::head(repo).ok()?.commit?;
    if head == start && *now == then {
        return None;
    }
    // The file as the start's: moved on by others only where the task
    // undid what they changed, which needs the trunk to have brought it.
    if *now == then && in_commit(repo, &head, "HEAD").ok()? == then && !trunk_brought_a_change(repo, record, &then) {
        return None;
    }
    let evidence =
        majordomus_readings::refs::evidence(repo, majordomus_readings::refs::Start::Snapshot(&record.snapshot)).ok()?;
    let (tip, own_too) =
        majordomus_readings::refs::arrival::others_version_beside_own(repo, record, &head, &evidence, POLICY_FILE)
            .ok()??;
    let tip = tip.to_string();
    let text = in_commit(repo, &tip, "the arrived commit").ok()??;
    let policy = Policy::parse(Path::new(POLICY_FILE), &text, builtin).ok()?;
    Some((
        AtStart {
            policy,
            from: format!(
                "the policy file at {}, as commits that arrived from a remote since the start left it (none of them \
             the task's), moved on from the start's",
                short(&tip)
            ),
            text: Some(Some(text)),
        },
        own_too,
    ))
}

/// Whether the trunk may have brought a change to the policy file since
/// the start: a value its remote-tracking ref held at the start, or took
/// by a line of its reflog since that is not a push from here (a fetch),
/// holds another policy file than the start commit's `then`. A task that
/// only pushed to the trunk pays a ref comparison and the reflog's tail;
/// one whose fetches brought no policy change, a tree lookup per fetch.
fn trunk_brought_a_change(repo: &Repo, record: &TaskRecord, then: &Option<String>) -> bool {
    let Some(trunk) = record.snapshot.trunk.as_deref() else { return false };
    let differs = |commit: &str| in_commit(repo, commit, "the trunk").map_or(true, |t| t != *then);
    let at_start = record.snapshot.remote_refs.as_ref().and_then(|r| r.get(trunk));
    if at_start.is_some_and(|t| Some(t) != record.head.as_deref() && differs(t)) {
        return true;
    }
    let now = repo.git.refname_to_id(trunk).ok().map(|o| o.to_string());
    if at_start == now.as_deref() {
        return false;
    }
    let Ok(started) = record.started_at() else { return true };
    let log = majordomus_readings::reflog::log_of(repo.common_dir(), trunk);
    majordomus_readings::reflog::since(&log, started.timestamp() - 1).map_or(true, |lines| {
        lines.iter().any(|l| l.message != "update by push" && !l.new.bytes().all(|b| b == b'0') && differs(&l.new))
    })
}

/// The start's policy, where the task's own commits changed the policy
/// file too and others' commits that arrived moved it on: the start's,
/// with what their version adds in strictness (its loosenings, as ever
/// where the task touched the file, not in force). A gate a colleague
/// added on the trunk, pulled, then taken out by the task (`git revert`
/// of their commit, or an edit) is a gate removed, named and still judged
/// (test/cases/585).
fn with_their_strictness(kept: AtStart, theirs: AtStart, place: stricter::Place) -> AtStart {
    let (policy, changes) = stricter::merge_at(&kept.policy, &theirs.policy, place);
    if !changes.iter().any(|c| c.effect == Effect::Stricter) {
        return kept;
    }
    AtStart {
        policy,
        from: format!(
            "{}, with what {} adds in strictness (the task's own commits changed the file too, so only that is taken)",
            kept.from,
            theirs.from.trim_end_matches(", moved on from the start's")
        ),
        text: None,
    }
}

/// An edit uncommitted at the start that no longer stands as one: the
/// start commit's policy file, and why, in words that follow "the file
/// held edits uncommitted at the start".
struct EditLeft {
    in_start_commit: Option<String>,
    why: &'static str,
}

/// Whether the kept text held an edit uncommitted at the start that has
/// left that state since. The kept text is the start's only while the
/// edit stays uncommitted in the working tree: once HEAD's policy file is
/// not the start commit's, the task committed it (what the task puts into
/// history is its change); once the working tree's policy no longer makes
/// every change the edit made, it was thrown away (or rewritten), and
/// nothing keeps it any more. Either way the start commit's file is the
/// start's policy and the edit, where it is still there, a change.
///
/// An edit is told from the kept text itself, whatever the snapshot's
/// dirty list says: a bit (`--skip-worktree`, `--assume-unchanged`) keeps
/// the edit out of `git status`, and through a symbolic link the dirty
/// path is the link's target (test/cases/447). A start commit holding no
/// policy file (`init` run and not yet committed) is not asked about:
/// committing it sets the repository up, and the start kept it as the
/// policy the task began under. Neither is a start commit whose policy
/// cannot be read (a link leading outside the tree): no commit holds that
/// text, so the task cannot commit it.
fn edit_left(
    repo: Option<&Repo>,
    record: &TaskRecord,
    kept: &Option<String>,
    now: Option<&Policy>,
    place: stricter::Place,
    builtin: &[&str],
) -> Option<EditLeft> {
    let (repo, start) = (repo?, record.head.as_deref()?);
    let then = in_commit(repo, start, "the start commit").ok()?;
    if then.is_none() || then == *kept {
        return None;
    }
    let head = majordomus_readings::refs::head(repo).ok().and_then(|h| h.commit);
    if head.is_some_and(|head| head != start && in_commit(repo, &head, "HEAD").ok().as_ref() != Some(&then)) {
        return Some(EditLeft {
            in_start_commit: then,
            why: "that the task has committed since, so they are its change",
        });
    }
    // A working tree policy that does not parse holds gates-green refused
    // whatever the start's is; the edit is taken to stand meanwhile.
    let now = now?;
    let parse = |t: &Option<String>| match t {
        Some(t) => Policy::parse(Path::new(POLICY_FILE), t, builtin).ok(),
        None => Some(Policy::default()),
    };
    let (committed, kept) = (parse(&then)?, parse(kept)?);
    let (_, edit) = stricter::merge_at(&committed, &kept, place);
    let (_, since) = stricter::merge_at(&committed, now, place);
    let stands = edit.iter().all(|change| since.contains(change));
    (!stands).then_some(EditLeft {
        in_start_commit: then,
        why: "that the working tree no longer holds, so they are not the start's",
    })
}

/// A start whose policy is not known: the defaults stand for it, so only
/// what is at least as strict as the defaults is in force.
fn unrecorded(why: String) -> AtStart {
    AtStart {
        policy: Policy::default(),
        from: format!(
            "not known: {why}; the defaults stand for it, so only what is at least as strict as the defaults is in force"
        ),
        text: None,
    }
}

/// The most symbolic links followed on the way to the policy file in a
/// commit, as the kernel's own limit: a loop is refused, not followed.
const MOST_LINKS: usize = 40;

/// The policy file's text in `commit` (`which` names it in a reason);
/// `Ok(None)` when it holds none. A symbolic link on the way is followed
/// inside the commit's tree, as the working tree's read follows it on
/// disk, so a link is never read as its target's name; one leading
/// outside the tree (or to an absolute path) is refused, naming it: no
/// commit holds what it leads to.
fn in_commit(repo: &Repo, commit: &str, which: &str) -> Result<Option<String>, String> {
    let commit_obj = git2::Oid::from_str(commit)
        .and_then(|oid| repo.git.find_commit(oid))
        .map_err(|_| format!("{which} {} is not in this repository", short(commit)))?;
    let tree = commit_obj
        .tree()
        .map_err(|e| format!("the tree of {which} {} cannot be read ({})", short(commit), e.message()))?;
    let unread = |what: String| format!("{POLICY_FILE} in {which} {} {what}", short(commit));
    let Some(id) = resolve(repo, &tree).map_err(&unread)? else { return Ok(None) };
    let blob = repo.git.find_blob(id).map_err(|e| unread(format!("cannot be read ({})", e.message())))?;
    String::from_utf8(blob.content().to_vec()).map(Some).map_err(|_| unread("is not UTF-8".into()))
}

/// The blob the policy file's path leads to in `tree`, following each
/// symbolic link on the way (a leading directory's too) inside the tree;
/// `None` where it leads to nothing the tree holds, as a missing file in
/// the working tree. The error says what stops the reading, in words that
/// follow the file's name.
fn resolve(repo: &Repo, tree: &git2::Tree<'_>) -> Result<Option<git2::Oid>, String> {
    let mut pending: std::collections::VecDeque<String> = POLICY_FILE.split('/').map(str::to_string).collect();
    let mut at: Vec<String> = Vec::new();
    let mut links = 0;
    while let Some(part) = pending.pop_front() {
        match part.as_str() {
            "" | "." => continue,
            ".." => {
                at.pop().ok_or(
                    "is reached through a symbolic link leading outside the working tree, which no commit holds",
                )?;
                continue;
            }
            _ => at.push(part),
        }
        let here = at.join("/");
        let entry = match tree.get_path(Path::new(&here)) {
            Ok(entry) => entry,
            Err(e) if e.code() == git2::ErrorCode::NotFound => return Ok(None),
            Err(e) => return Err(format!("cannot be read at {here} ({})", e.message())),
        };
        if entry.filemode() == MODE_LINK {
            links += 1;
            if links > MOST_LINKS {
                return Err(format!("is reached through more than {MOST_LINKS} symbolic links (a loop)"));
            }
            let blob =
                repo.git.find_blob(entry.id()).map_err(|e| format!("cannot be read at {here} ({})", e.message()))?;
            let target = std::str::from_utf8(blob.content())
                .map_err(|_| format!("is reached through the symbolic link {here}, whose target is not UTF-8"))?;
            if target.starts_with('/') {
                return Err(format!(
                    "is reached through the symbolic link {here} to the absolute path {target}, which no commit holds"
                ));
            }
            at.pop();
            for p in target.split('/').rev() {
                pending.push_front(p.to_string());
            }
            continue;
        }
        match (entry.kind(), pending.is_empty()) {
            (Some(git2::ObjectType::Blob), true) => return Ok(Some(entry.id())),
            (Some(git2::ObjectType::Tree), false) => {}
            (Some(git2::ObjectType::Tree), true) => return Err("is a directory, not a file".into()),
            (Some(git2::ObjectType::Blob), false) => return Err(format!("cannot be reached: {here} is a file")),
            _ => return Err(format!("cannot be read at {here}: it is a submodule")),
        }
    }
    Ok(None)
}

/// A tree entry's mode for a symbolic link.
const MODE_LINK: i32 = 0o120000;

/// The text `start` keeps in the snapshot: the policy file as it is now
/// (`None`: there is none). A file that cannot be read is the error `start`
/// refuses with.
pub fn text_to_keep(repo: &Repo) -> Result<Option<String>, PolicyError> {
    let path = repo.root().join(POLICY_FILE);
    match majordomus_records::regular::read_to_string(&path) {
        Ok(t) => Ok(Some(t)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => outside_checkout(repo, &path),
        Err(source) => Err(PolicyError::Io { path, source }),
    }
}

/// The policy file a sparse checkout keeps out of the working tree, as
/// the index holds it (`None`: the repository holds none there either): it
/// is the repository's policy all the same (test/cases/351). Its content
/// missing (a partial clone) is an error, never "no policy".
fn outside_checkout(repo: &Repo, path: &Path) -> Result<Option<String>, PolicyError> {
    let io = |why: String| PolicyError::Io { path: path.to_path_buf(), source: std::io::Error::other(why) };
    let skipped =
        majordomus_readings::sparse_file::skipped(repo, &[POLICY_FILE.to_string()]).map_err(|e| io(e.reason))?;
    match skipped.into_iter().next() {
        Some((_, bytes)) => String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| io(format!("{POLICY_FILE}, outside the sparse checkout, is not UTF-8"))),
        None => Ok(None),
    }
}

/// While the working tree's policy cannot be read, `gates-green` refuses:
/// the start's gates are judged (what was measured is kept in the
/// details), but the gates the repository declares from now on cannot be
/// read by any later run, CI's included.
pub fn hold_open(answers: &mut [Answer], finding: Option<&PolicyFinding>) {
    let Some(why) = finding.and_then(|f| f.unreadable.as_deref()) else { return };
    let Some(a) = answers.iter_mut().find(|a| a.id == crate::QuestionId::GatesGreen.as_str()) else { return };
    let measured = json!({ "status": a.status, "evidence": a.evidence, "details": a.details });
    a.evidence = format!(
        "The policy file {POLICY_FILE} no longer reads as a policy ({why}): the gates it declares cannot be read by any later run. The start's gates are in force for this task; as they judge it: {}",
        a.evidence
    );
    a.details = json!({ "policy_unreadable": why, "measured": measured });
    a.status = Status::Refused;
    a.remedy = format!("repair {POLICY_FILE} (majordomus check names every problem in it); the policy the task started under judges it meanwhile");
}

/// Where a gate `gates-green` refuses fails under the command the task
/// started with, and the policy file now gives it another (a loosening,
/// not in force: `run = "true"` must not judge the task that wrote it),
/// the answer says which command ran and what the ways out are: "fix what
/// the gate reports" cannot help when the command itself is what is wrong
/// (test/cases/505). The verdict is left as it is.
pub fn name_commands_in_force(answers: &mut [Answer], finding: Option<&PolicyFinding>) {
    let Some(finding) = finding else { return };
    let Some(a) = answers.iter_mut().find(|a| a.id == crate::QuestionId::GatesGreen.as_str()) else { return };
    if a.status != Status::Refused {
        return;
    }
    let failed: Vec<String> = a.details["gates"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|g| g["state"] == "failed")
        .filter_map(|g| g["id"].as_str().map(str::to_string))
        .collect();
    let changed: Vec<(&str, &Change)> = failed
        .iter()
        .filter_map(|id| {
            let entry = format!("[gates.{id}] run");
            finding.changes.iter().find(|c| c.entry == entry && !c.in_force).map(|c| (id.as_str(), c))
        })
        .collect();
    if changed.is_empty() {
        return;
    }
    let said: Vec<String> = changed
        .iter()
        .map(|(id, c)| format!("{id}'s command in {POLICY_FILE} {}", c.how.trim_end_matches('.')))
        .collect();
    a.evidence = format!(
        "{} {}: a change of a gate's command is a loosening, not in force for this task, so the start's command is the one that failed.",
        a.evidence,
        said.join("; ")
    );
    let ids: Vec<&str> = changed.iter().map(|(id, _)| *id).collect();
    a.remedy = format!(
        "the start's command of {} is the one this task runs to its end: a change to it in {POLICY_FILE} is in force only as a commit of someone else's that arrives from the remote, where no commit this task made changes the file (The policy in force). Where the command itself is what is wrong, end the task with majordomus finish --outcome blocked, saying why, and have it fixed on the trunk; where the code is what fails, fix what the gate reports, then majordomus gate run {}",
        ids.join(", "),
        match ids.as_slice() {
            [one] => one.to_string(),
            _ => "--all".to_string(),
        }
    );
}
