//! What every command needs first: the repository, its policy, the tool's
//! own state directory.

use std::path::Path;

use majordomus_invariant::in_force::InForce;
use majordomus_readings::Repo;
use majordomus_records::confined::{Dir, Perm};
use majordomus_records::ledger::{self, Entry, Event};
use majordomus_records::task::{TaskRecord, TaskState};
use majordomus_records::{PlaceError, Policy, StatePaths};

use crate::out::errln;
use crate::CliError;

/// The repository a command runs in, with its policy and state paths.
#[derive(Debug)]
pub struct Workspace {
    pub repo: Repo,
    pub paths: StatePaths,
}

impl Workspace {
    pub fn open(cwd: &Path) -> Result<Self, CliError> {
        let repo =
            majordomus_readings::open(cwd).map_err(|e| CliError::Usage(majordomus_records::task::error_chain(&e)))?;
        Ok(Self::of(repo))
    }

    /// The workspace of a repository already open (as `open` opens it).
    pub fn of(repo: Repo) -> Self {
        Self {
            paths: StatePaths::new(repo.root()).with_git_dir(repo.git_dir()).with_common_dir(repo.common_dir()),
            repo,
        }
    }

    /// The policy in force: with a task active here, the policy as it
    /// stood at its start plus only the changes since that add strictness;
    /// without one, the working tree's policy, a problem in which is a
    /// configuration error (exit 2), every problem reported at once.
    pub fn policy(&self) -> Result<Policy, CliError> {
        Ok(self.in_force(&TaskState::here(&self.paths))?.policy)
    }

    /// The policy in force for `task`, with what the document says of it
    /// (`majordomus_invariant::in_force`: the one way every command gets it).
    pub fn in_force(&self, task: &TaskState) -> Result<InForce, CliError> {
        Ok(majordomus_invariant::in_force::read(Some(&self.repo), self.paths.root(), task)?)
    }

    /// Writes one of the tool's state files atomically (see [`write_state`]).
    pub fn write_state(&self, path: &Path, bytes: &[u8]) -> Result<(), CliError> {
        write_state(&self.paths, path, bytes)
    }

    /// Creates the state directory with its own `.gitignore`, for writers
    /// that append rather than replace (the ledger).
    pub fn ensure_state_dir(&self) -> Result<(), CliError> {
        ensure_state_dir(&self.paths)
    }

    /// Opens the repository for `check`: one libgit2 cannot read (the
    /// reftable format, say) is not an error but a repository whose every
    /// reading is unread, with the reason. The second handle the readings
    /// take is opened beside it ([`majordomus_readings::open_with_spare`]).
    pub fn open_for_check(cwd: &Path) -> Result<Opened, CliError> {
        match majordomus_readings::open_with_spare(cwd) {
            Ok(repo) => Ok(Opened::Readable(Self::of(repo))),
            Err(majordomus_readings::OpenError::Unreadable { root, reason }) => {
                Ok(Opened::Unreadable { paths: StatePaths::new(root), reason })
            }
            Err(e) => Err(CliError::Usage(majordomus_records::task::error_chain(&e))),
        }
    }

    /// The task active here; without one, a usage error saying what needs it.
    pub fn active_task(&self, what: &str) -> Result<TaskRecord, CliError> {
        match TaskState::here(&self.paths) {
            TaskState::Active(r) => Ok(*r),
            TaskState::None => Err(CliError::Usage(format!(
                "no task is active here, and {what} belongs to a task: start one with majordomus start TASK"
            ))),
            TaskState::Unreadable(reason) => Err(CliError::Usage(format!(
                "the task record cannot be read ({reason}); repair {}, or end the task with majordomus finish --outcome partial (or blocked, failed)",
                self.paths.task().display()
            ))),
        }
    }

    /// The ledger's entries; one that cannot be read is a usage error
    /// naming the file and line.
    pub fn ledger(&self) -> Result<Vec<Entry>, CliError> {
        let path = self.paths.ledger();
        let read =
            ledger::load_here(&self.paths).map_err(|e| CliError::Usage(majordomus_records::task::error_chain(&e)))?;
        if let Some(torn) = read.torn {
            errln!("majordomus: note: the ledger was damaged: {}", torn.sentence(&path));
        }
        Ok(read.entries)
    }

    /// The task's ledger, folded.
    pub fn book(
        &self,
        task: &TaskRecord,
    ) -> Result<majordomus_invariant::family::bookkeeping::readings::TaskBook, CliError> {
        majordomus_invariant::family::bookkeeping::readings::TaskBook::fold(&task.id, &self.ledger()?)
            .map_err(|e| CliError::Usage(e.reason))
    }

    /// Takes the ledger's exclusive lock, for a writer that reads the ledger
    /// to decide what it appends (the next todo number, say): hold it from
    /// the read to the append. Waits up to ten seconds for another writer;
    /// past that, a usage error naming the lock file.
    pub fn lock_ledger(&self) -> Result<ledger::LedgerLock, CliError> {
        ledger::lock(&self.paths, std::time::Duration::from_secs(10)).map_err(ledger_error)
    }

    /// Appends one event for the task to the ledger.
    pub fn append(&self, task: &TaskRecord, event: Event) -> Result<Entry, CliError> {
        let entry = Entry {
            at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            task: Some(task.id.clone()),
            event,
        };
        ledger::append(&self.paths, &entry).map_err(ledger_error)?;
        Ok(entry)
    }
}

/// Says on standard error when the ledger's last line is torn (a write
/// that did not finish): the readings ignore it, and the next append
/// removes it.
pub fn say_torn_ledger(paths: &StatePaths) {
    if let Some(note) = torn_ledger(paths) {
        errln!("majordomus: note: {note}");
    }
}

/// The sentence naming the ledger's torn last line, if it has one: a note
/// for whoever reads the answer (the stop hook's reason or message), never
/// a verdict. The line is no entry, so no question's answer rests on it;
/// a write it held did not finish, and what it would have recorded reads
/// as never recorded (README, "Reliability").
pub fn torn_ledger(paths: &StatePaths) -> Option<String> {
    let path = paths.ledger();
    ledger::torn(&path).map(|torn| format!("the ledger was damaged: {}", torn.sentence(&path)))
}

/// A ledger that could not be locked or written: refused as given (a
/// symbolic link where it goes, an entry out of bounds, the lock held too
/// long) is exit 2; anything else is internal.
pub fn ledger_error(e: ledger::LedgerError) -> CliError {
    if e.is_refusal() {
        CliError::Usage(majordomus_records::task::error_chain(&e))
    } else {
        CliError::internal("cannot write the ledger", e)
    }
}

/// A place that could not be written: refused (a symbolic link, a file
/// where a directory goes) is exit 2, naming it; anything else is internal.
pub fn place_error(e: PlaceError) -> CliError {
    if e.is_refusal() {
        CliError::Usage(majordomus_records::task::error_chain(&e))
    } else {
        CliError::internal("cannot write majordomus's state", e)
    }
}

/// A repository opened for `check`.
#[derive(Debug)]
pub enum Opened {
    Readable(Workspace),
    /// git knows it, libgit2 cannot read it: its state paths and the reason.
    Unreadable {
        paths: StatePaths,
        reason: String,
    },
}

/// The policy in force in the working tree `paths` belongs to, for `task`,
/// where the repository itself cannot be opened (see [`Workspace::in_force`]).
pub fn in_force_unopened(paths: &StatePaths, task: &TaskState) -> Result<InForce, CliError> {
    Ok(majordomus_invariant::in_force::read(None, paths.root(), task)?)
}

/// Writes one of the tool's state files atomically. The state directory
/// carries a `.gitignore` of its own, so git never lists it even where
/// `start` never ran; it and every directory below it are reached without
/// following a symbolic link ([`majordomus_records::confined`]).
pub fn write_state(paths: &StatePaths, path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    let (dir, name) = state_parent(paths, path)?;
    dir.replace(&name, bytes, Perm::Private).map_err(place_error)
}

/// [`write_state`] for a file the next run works out again (the
/// `gates.completion` document): atomic, not flushed to the disk first
/// (`majordomus_records::confined::Dir::replace_derived`).
pub fn write_derived_state(paths: &StatePaths, path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    let (dir, name) = state_parent(paths, path)?;
    dir.replace_derived(&name, bytes, Perm::Private).map_err(place_error)
}

/// [`write_state`] for a file that must not exist yet: `Ok(false)`, and
/// nothing written, when it does (another writer created it first).
pub fn create_state(paths: &StatePaths, path: &Path, bytes: &[u8]) -> Result<bool, CliError> {
    let (dir, name) = state_parent(paths, path)?;
    dir.create(&name, bytes, Perm::Private).map_err(place_error)
}

/// Removes one of the tool's state files (never through a link):
/// `Ok(false)` when it was not there.
pub fn remove_state(paths: &StatePaths, path: &Path) -> Result<bool, CliError> {
    let (dir, name) = state_parent(paths, path)?;
    dir.remove(&name).map_err(place_error)
}

/// The state directory (made where missing) or the directory below it that
/// holds `path`, and `path`'s name. The one rule every write of majordomus
/// keeps: nothing outside its state directory. A path made from something a
/// file said (a record's id, say) that would leave it is an internal error,
/// and nothing is written.
fn state_parent(paths: &StatePaths, path: &Path) -> Result<(Dir, String), CliError> {
    let outside = || {
        CliError::internal(
            "refusing to write outside the state directory",
            std::io::Error::other(format!("{} is not inside {}", path.display(), paths.state_dir().display())),
        )
    };
    let rel = path.strip_prefix(paths.state_dir()).map_err(|_| outside())?;
    let mut names = Vec::new();
    for c in rel.components() {
        match c {
            std::path::Component::Normal(n) => names.push(n.to_str().ok_or_else(outside)?.to_string()),
            _ => return Err(outside()),
        }
    }
    let name = names.pop().ok_or_else(outside)?;
    let mut dir = paths.open_state(true).map_err(place_error)?;
    for sub in names {
        dir = dir.child(&sub, true).map_err(place_error)?;
    }
    Ok((dir, name))
}

/// Creates the state directory with its own `.gitignore`. Each directory on
/// the way to it (`.ai`, `.ai/local`, `.ai/local/state`) must be a real
/// directory of this working tree, or absent: one that is a symlink, or a
/// file, is refused with exit 2 and nothing is written, since state written
/// through it would land elsewhere (a tracked symlink could point anywhere).
pub fn ensure_state_dir(paths: &StatePaths) -> Result<(), CliError> {
    paths.open_state(true).map(|_| ()).map_err(place_error)
}

/// Whether the state directory can be written where it belongs: see
/// [`ensure_state_dir`]. Checks only; writes nothing.
pub fn state_dir_usable(paths: &StatePaths) -> Result<(), CliError> {
    match paths.open_state(false) {
        Ok(_) => Ok(()),
        Err(e) if e.io_kind() == Some(std::io::ErrorKind::NotFound) => Ok(()),
        Err(e) => Err(place_error(e)),
    }
}
