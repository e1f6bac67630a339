//! Tasks whose linked worktree is gone: `git worktree remove` deletes the
//! worktree and its own git directory, and with them the task record and
//! the copy `start` keeps there (`.git/worktrees/NAME/majordomus/`). So
//! `start` in a linked worktree keeps a second copy in the common git
//! directory, by the worktree's name (`majordomus/worktrees/NAME.json`,
//! removed by `finish`), and a copy there naming a worktree git no longer
//! has, whose directory is gone, or that keeps no copy of its own (put back
//! under its name: `git worktree add DIR/NAME BRANCH`) is a task left open
//! (test/cases/343). There the task is in view again, its record gone, and
//! `majordomus finish` ends it.
//!
//! A submodule's task is kept the same way by its git directory
//! (`.git/modules/NAME/majordomus/task.json`), which `git submodule deinit
//! -f` leaves while it clears the submodule's working tree, the record
//! with it: such a copy naming a task whose working tree holds no record
//! is a task left open too (test/cases/344).
//!
//! One reading for everyone who asks: the stop hook blocks on it
//! (`apps/majordomus-cli/src/commands/hook/orphan.rs`), `check` holds
//! `nothing-accumulated` open on it from any worktree of the repository,
//! with or without a task of its own ([`hold`]), and `sweep` lists it as a
//! task left behind (test/cases/362).

use std::path::{Path, PathBuf};

use serde_json::json;

use majordomus_readings::Repo;
use majordomus_records::paths::GIT_STATE_DIR;
use majordomus_records::{StatePaths, TaskRecord};

use crate::answer::Status;
use crate::judgement::{with, Judgement};
use crate::question::QuestionId;
use crate::readings::Readings;

/// A task left open in a linked worktree that is gone, or in a submodule
/// whose working tree no longer holds its record.
#[derive(Debug, Clone)]
pub struct Orphan {
    /// The worktree's name, as git named it (its path's last part), or the
    /// submodule's name under the git directory's `modules/`.
    pub name: String,
    /// A submodule's: the path of its working tree, where one is configured.
    pub submodule: Option<Option<String>>,
    /// The task record's copy, where it still reads.
    pub record: Option<TaskRecord>,
    /// Where that copy is (for a repository nested here, the note its
    /// start left: [`note_around`]).
    pub copy: PathBuf,
    /// A task in a repository nested inside this one whose directory is
    /// gone (moved, or deleted with its work): what its start's note says.
    pub nested: Option<NestedNote>,
}

/// What a start in a repository nested inside another left there
/// ([`note_around`]): where, and which task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NestedNote {
    pub root: String,
    pub task: String,
    pub started_at: Option<String>,
    /// The agent's session that started it (host, id): only that
    /// session's stop is held by it, as by the task while it is there.
    pub session: Option<(String, String)>,
}

/// The tasks of `repo`'s repository left open in linked worktrees that are
/// gone, or in submodules whose working tree holds no record. Read only
/// where copies are kept at all (one directory listing otherwise).
pub fn orphans(repo: &Repo) -> Vec<Orphan> {
    kept_with(repo, false).orphans
}

/// A task of the repository kept in a linked worktree, a submodule or a
/// repository nested inside that is there, holding its record: where, and
/// the file to read the record from (its copy, which names the session
/// that started it), read only by who asks ([`Held::record`]).
#[derive(Debug, Clone)]
pub struct Held {
    pub root: PathBuf,
    pub record_file: PathBuf,
}

impl Held {
    /// The record, where it reads, when its text holds `needle` (a
    /// session's id: one stop asks only of its own session's tasks, and
    /// a record is parsed only where its text could name it).
    pub fn record_naming(&self, needle: &str) -> Option<TaskRecord> {
        let bytes = majordomus_records::regular::read(&self.record_file).ok()?;
        if !needle.is_empty() && !bytes.windows(needle.len()).any(|w| w == needle.as_bytes()) {
            return None;
        }
        TaskRecord::parse(&self.record_file, &bytes).ok()
    }
}

/// Every task whose copy the repository keeps for other worktrees to find:
/// those left open where no worktree shows them, and those held.
#[derive(Debug, Default)]
pub struct Kept {
    pub orphans: Vec<Orphan>,
    pub held: Vec<Held>,
}

/// The copies `repo`'s repository keeps of tasks in linked worktrees and
/// submodules, and the notes of tasks in repositories nested inside
/// ([`Kept`]). One directory listing each where there are none.
pub fn kept(repo: &Repo) -> Kept {
    kept_with(repo, true)
}

/// [`kept`], the held tasks only where `held` asks for them (a check asks
/// only for the orphans, on its hot path).
fn kept_with(repo: &Repo, held: bool) -> Kept {
    let mut out = Kept::default();
    for (name, path) in StatePaths::worktree_copies(repo.common_dir()) {
        // There, with the copy in its own git directory: its task is its
        // own to judge. Put back under its name, it has no copy of its own,
        // and is still this one.
        let own = repo.common_dir().join("worktrees").join(&name).join(GIT_STATE_DIR).join("task.json");
        let there =
            if own.exists() { repo.git.find_worktree(&name).ok().filter(|w| w.validate().is_ok()) } else { None };
        match there {
            Some(w) if held => out.held.push(Held { root: w.path().to_path_buf(), record_file: path }),
            Some(_) => {}
            None => {
                let record = TaskRecord::load(&path).ok().flatten();
                out.orphans.push(Orphan { name, submodule: None, record, copy: path, nested: None });
            }
        }
    }
    modules(repo.common_dir(), "", 0, held, &mut out);
    nested(repo, held, &mut out);
    out
}

/// Where a start in a repository nested inside another (a scratch
/// repository `git init` made in the project) leaves a note in each
/// repository around it, by its root and its task: the stop made from the
/// project finds the task there through it (test/cases/365), and `finish`
/// there removes it. A note whose root holds no active task says nothing
/// (finished by a majordomus that left its notes); one whose root is gone
/// (the repository moved, or deleted with its work, the task never
/// finished) is a task left open (test/cases/434).
pub const NESTED: &str = "nested";

/// How many repositories around a nested one get its note, and how far up
/// the file system they are looked for.
const MAX_AROUND: usize = 8;

/// Leaves the note of a task started at `root` in every repository around
/// it ([`NESTED`]). What cannot be written is returned, for the start to
/// say: the task is recorded all the same.
pub fn note_around(root: &Path, record: &TaskRecord) -> Vec<String> {
    let session = record.owner.as_ref().and_then(|o| o.session.as_ref());
    let note = json!({
        "root": root.display().to_string(), "task": record.task, "id": record.id, "started_at": record.started_at,
        "session": session.map(|s| json!({ "host": s.host, "id": s.id })),
    });
    let bytes = serde_json::to_vec(&note).unwrap_or_default();
    around(root, true, |dir, name| dir.replace(name, &bytes, majordomus_records::confined::Perm::Private).map(drop))
}

/// Removes the note of the task started at `root` from every repository
/// around it ([`note_around`]): `finish` ends the task, and with it what
/// the repositories around keep of it. What cannot be removed is returned.
pub fn unnote_around(root: &Path) -> Vec<String> {
    around(root, false, |dir, name| dir.remove(name).map(drop))
}

/// Applies `each` to the nested-notes directory of every repository around
/// `root` ([`MAX_AROUND`]), with the note's name; says what failed.
fn around(
    root: &Path,
    create: bool,
    each: impl Fn(&majordomus_records::confined::Dir, &str) -> Result<(), majordomus_records::confined::PlaceError>,
) -> Vec<String> {
    let mut failed = Vec::new();
    let name = format!("{:016x}.json", fnv(root.as_os_str().as_encoded_bytes()));
    let mut from = root.parent().map(Path::to_path_buf);
    for _ in 0..MAX_AROUND {
        let Some(dir) = from.take() else { break };
        let Ok(around) = majordomus_readings::open(&dir) else { break };
        let rel = Path::new(GIT_STATE_DIR).join(NESTED);
        let done =
            majordomus_records::confined::open_dir(around.common_dir(), &rel, create).and_then(|d| each(&d, &name));
        match done {
            // Nothing to remove where no note was ever written.
            Err(e) if create || e.io_kind() != Some(std::io::ErrorKind::NotFound) => {
                failed.push(format!("{}: {e}", around.common_dir().join(&rel).join(&name).display()));
            }
            _ => {}
        }
        from = around.root().parent().map(Path::to_path_buf);
    }
    failed
}

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3))
}

/// The tasks active in repositories nested inside `repo`'s working trees,
/// from the notes their starts left ([`note_around`]).
/// Where `held` asks (the stop hook, `sweep`; never `check`, for whom
/// another repository's task is not this one's): a note holding an active
/// record is held, and one whose root is gone is a task left open there
/// ([`Orphan::nested`]).
fn nested(repo: &Repo, held: bool, out: &mut Kept) {
    if !held {
        return;
    }
    let Ok(entries) = std::fs::read_dir(repo.common_dir().join(GIT_STATE_DIR).join(NESTED)) else { return };
    for entry in entries.flatten() {
        let Ok(bytes) = majordomus_records::regular::read(&entry.path()) else { continue };
        let Ok(note) = serde_json::from_slice::<serde_json::Value>(&bytes) else { continue };
        let Some(root) = note.get("root").and_then(|r| r.as_str()).map(PathBuf::from) else { continue };
        if root == repo.root() {
            continue;
        }
        let record_file = StatePaths::new(&root).task();
        if record_file.exists() {
            out.held.push(Held { root, record_file });
            continue;
        }
        // A note that names its task (the notes `finish` removes) whose
        // repository is no longer there: moved, or deleted, unfinished.
        let text = |key: &str| note.get(key).and_then(|v| v.as_str()).map(str::to_string);
        if let (Some(task), false) = (text("task"), root.exists()) {
            let name = entry.file_name().to_string_lossy().into_owned();
            let session = note.get("session").and_then(|s| {
                let field = |k: &str| s.get(k).and_then(|v| v.as_str()).map(str::to_string);
                Some((field("host")?, field("id")?))
            });
            let nested = NestedNote { root: root.display().to_string(), task, started_at: text("started_at"), session };
            out.orphans.push(Orphan { name, submodule: None, record: None, copy: entry.path(), nested: Some(nested) });
        }
    }
}

/// The submodules under `dir`'s `modules/` (nested ones too, to a depth)
/// whose git directory keeps a task record's copy while their working
/// tree holds no record. One directory listing where there are none.
fn modules(dir: &Path, prefix: &str, depth: usize, held: bool, out: &mut Kept) {
    let Ok(entries) = std::fs::read_dir(dir.join("modules")) else { return };
    for entry in entries.flatten() {
        let (git_dir, Some(part)) = (entry.path(), entry.file_name().to_str().map(str::to_string)) else { continue };
        let name = format!("{prefix}{part}");
        let copy = git_dir.join(GIT_STATE_DIR).join("task.json");
        if copy.exists() {
            // The working tree its configuration names (`core.worktree`,
            // which `deinit` removes), read from the file, as git reads it.
            let root = git2::Config::open(&git_dir.join("config"))
                .ok()
                .and_then(|c| c.get_path("core.worktree").ok())
                .map(|w| git_dir.join(w))
                .and_then(|w| w.canonicalize().ok());
            match root {
                Some(root) if StatePaths::new(&root).task().exists() => {
                    if held {
                        out.held.push(Held { root, record_file: copy });
                    }
                }
                root => out.orphans.push(Orphan {
                    name: name.clone(),
                    submodule: Some(root.map(|r| r.display().to_string())),
                    record: TaskRecord::load(&copy).ok().flatten(),
                    copy,
                    nested: None,
                }),
            }
        }
        if depth < 4 {
            modules(&git_dir, &format!("{name}/"), depth + 1, held, out);
        }
    }
}

fn esc(s: &str) -> String {
    majordomus_records::text::escape(s).into_owned()
}

impl Orphan {
    /// `the linked worktree x`, `the submodule lib`.
    pub fn place(&self) -> String {
        if let Some(n) = &self.nested {
            return format!("the repository at {}", esc(&n.root));
        }
        match &self.submodule {
            None => format!("the linked worktree {}", esc(&self.name)),
            Some(_) => format!("the submodule {}", esc(&self.name)),
        }
    }

    /// What is left open, and how it is known: a sentence.
    pub fn problem(&self) -> String {
        let place = self.place();
        let what = match (&self.record, &self.nested) {
            (Some(r), _) => format!("the task {:?} (started {}) in {place}", esc(&r.task), esc(&r.started_at)),
            (None, Some(NestedNote { task, started_at, .. })) => format!(
                "the task {:?} (started {}) in {place}",
                esc(task),
                esc(started_at.as_deref().unwrap_or("at a time not noted"))
            ),
            (None, _) => format!("a task in {place}"),
        };
        if self.nested.is_some() {
            return format!(
                "{what} was never finished, and that repository is no longer there (moved, or deleted with its \
                 work; the note its start left here, {}, says so)",
                self.copy.display()
            );
        }
        match &self.submodule {
            Some(root) => format!(
                "{what} was never finished, and its working tree, {}, holds no task record (`git submodule \
                 deinit` clears it; the copy in its git directory, modules/{}/{GIT_STATE_DIR}/task.json, says so)",
                self.root(root.as_deref()),
                esc(&self.name)
            ),
            None => format!(
                "{what} was never finished, and that worktree is gone (`git worktree remove` deletes its task \
                 record with it; the copy in {} says so)",
                Path::new(GIT_STATE_DIR).join("worktrees").join(format!("{}.json", self.name)).display()
            ),
        }
    }

    /// How it is ended: advice, never run as it stands.
    pub fn remedy(&self) -> String {
        if let Some(n) = &self.nested {
            return format!(
                "put the repository back at {} and end the task there with `majordomus -C {} finish --outcome \
                 partial` (or blocked, failed); if it was deleted with its work, say so and remove the note: \
                 `rm {}`",
                esc(&n.root),
                esc(&n.root),
                self.copy.display()
            );
        }
        match &self.submodule {
            Some(root) => format!(
                "put its working tree back (`git submodule update --init`), then end the task there with \
                 `majordomus -C {} finish --outcome partial` (or blocked, failed)",
                self.root(root.as_deref())
            ),
            None => {
                let branch = self.record.as_ref().and_then(|r| r.branch.clone()).unwrap_or_else(|| "BRANCH".into());
                format!(
                    "put the worktree back under its name (git names a worktree by its directory: `git worktree \
                     add DIR/{} {}`), then end the task there with `majordomus finish --outcome partial` (or \
                     blocked, failed)",
                    self.name, branch
                )
            }
        }
    }

    /// `worktree`, `submodule` or `nested`.
    pub fn kind(&self) -> &'static str {
        match (&self.nested, &self.submodule) {
            (Some(_), _) => "nested",
            (None, Some(_)) => "submodule",
            (None, None) => "worktree",
        }
    }

    fn root(&self, root: Option<&str>) -> String {
        root.map_or_else(|| esc(&self.name), esc)
    }

    fn detail(&self) -> serde_json::Value {
        json!({
            "name": self.name,
            "kind": self.kind(),
            "path": self.nested.as_ref().map(|n| n.root.clone()).or_else(|| self.submodule.clone().flatten()),
            "task": self.record.as_ref().map(|r| &r.task),
            "id": self.record.as_ref().map(|r| &r.id),
            "started_at": self.record.as_ref().map(|r| &r.started_at),
            "copy": self.copy.display().to_string(),
        })
    }
}

/// `nothing-accumulated` held open while a task of the repository is left
/// open where no worktree shows it: a pass becomes `owed`, anything else
/// names it beside what it says. Applied after acknowledgements (an
/// acknowledgement covers paths and branches, never a task) and before the
/// policy's exemptions; the same from every worktree, with or without a
/// task of its own, as the stop hook blocks on it from every worktree.
pub(crate) fn hold(id: QuestionId, v: Judgement, r: &Readings) -> Judgement {
    if id != QuestionId::NothingAccumulated || r.closing.orphans.is_empty() {
        return v;
    }
    let told: Vec<String> = r.closing.orphans.iter().map(|o| crate::prose::sentence(&o.problem())).collect();
    let told = told.join(" ");
    let details =
        with(v.details, json!({ "orphaned_tasks": r.closing.orphans.iter().map(Orphan::detail).collect::<Vec<_>>() }));
    let remedy = r.closing.orphans.iter().map(Orphan::remedy).collect::<Vec<_>>().join("; and ");
    match v.status {
        Status::Pass | Status::Exempt => Judgement::new(Status::Owed, told, details).remedy(remedy),
        _ => Judgement { evidence: format!("{} {told}", v.evidence), details, ..v },
    }
}
