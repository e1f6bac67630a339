//! What every command needs first: the repository, its policy, the tool's
//! own state directory.

use std::path::Path;

use majordomus_invariant::in_force::InForce;
use majordomus_readings::Repo;
use majordomus_records::ledger::{self, Entry, Event};
use majordomus_records::task::{TaskRecord, TaskState};
use majordomus_records::{Policy, StatePaths};

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
        let paths = StatePaths::new(repo.root());
        Ok(Self { repo, paths })
    }

    /// The policy in force: with a task active here, the policy as it
    /// stood at its start plus only the changes since that add strictness;
    /// without one, the working tree's policy, a problem in which is a
    /// configuration error (exit 2), every problem reported at once.
    pub fn policy(&self) -> Result<Policy, CliError> {
        Ok(self.in_force(&TaskState::load(&self.paths.task()))?.policy)
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
    /// reading is unread, with the reason.
    pub fn open_for_check(cwd: &Path) -> Result<Opened, CliError> {
        match majordomus_readings::open(cwd) {
            Ok(repo) => Ok(Opened::Readable(Self { paths: StatePaths::new(repo.root()), repo })),
            Err(majordomus_readings::OpenError::Unreadable { root, reason }) => {
                Ok(Opened::Unreadable { paths: StatePaths::new(root), reason })
            }
            Err(e) => Err(CliError::Usage(majordomus_records::task::error_chain(&e))),
        }
    }

    /// The task active here; without one, a usage error saying what needs it.
    pub fn active_task(&self, what: &str) -> Result<TaskRecord, CliError> {
        match TaskState::load(&self.paths.task()) {
            TaskState::Active(r) => Ok(*r),
            TaskState::None => Err(CliError::Usage(format!(
                "no task is active here, and {what} belongs to a task: start one with majordomus start TASK"
            ))),
            TaskState::Unreadable(reason) => Err(CliError::Usage(format!(
                "the task record cannot be read ({reason}); repair or remove {}",
                self.paths.task().display()
            ))),
        }
    }

    /// The ledger's entries; one that cannot be read is a usage error
    /// naming the file and line.
    pub fn ledger(&self) -> Result<Vec<Entry>, CliError> {
        ledger::read(&self.paths.ledger()).map_err(|e| CliError::Usage(majordomus_records::task::error_chain(&e)))
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
        self.ensure_state_dir()?;
        ledger::lock(&self.paths.ledger(), std::time::Duration::from_secs(10)).map_err(|e| match e {
            ledger::LedgerError::Locked { .. } => CliError::Usage(majordomus_records::task::error_chain(&e)),
            other => CliError::internal("cannot lock the ledger", other),
        })
    }

    /// Appends one event for the task to the ledger.
    pub fn append(&self, task: &TaskRecord, event: Event) -> Result<Entry, CliError> {
        self.ensure_state_dir()?;
        let entry = Entry {
            at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            task: Some(task.id.clone()),
            event,
        };
        let path = self.paths.ledger();
        ledger::append(&path, &entry)
            .map_err(|e| CliError::internal(format!("cannot append to {}", path.display()), e))?;
        Ok(entry)
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
/// `start` never ran.
pub fn write_state(paths: &StatePaths, path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    within_state_dir(paths, path)?;
    ensure_state_dir(paths)?;
    majordomus_records::write_atomic(path, bytes)
        .map_err(|e| CliError::internal(format!("cannot write {}", path.display()), e))
}

/// [`write_state`] for a file that must not exist yet: `Ok(false)`, and
/// nothing written, when it does (another writer created it first).
pub fn create_state(paths: &StatePaths, path: &Path, bytes: &[u8]) -> Result<bool, CliError> {
    within_state_dir(paths, path)?;
    ensure_state_dir(paths)?;
    match majordomus_records::create_atomic(path, bytes) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        Err(e) => Err(CliError::internal(format!("cannot write {}", path.display()), e)),
    }
}

/// The one rule every write of majordomus keeps: nothing outside its state
/// directory. A path made from something a file said (a record's id, say)
/// that would leave it is an internal error, and nothing is written.
fn within_state_dir(paths: &StatePaths, path: &Path) -> Result<(), CliError> {
    use std::path::Component;
    let plain =
        path.components().all(|c| matches!(c, Component::RootDir | Component::Normal(_) | Component::Prefix(_)));
    if plain && path.starts_with(paths.state_dir()) && path != paths.state_dir() {
        Ok(())
    } else {
        Err(CliError::internal(
            "refusing to write outside the state directory",
            std::io::Error::other(format!("{} is not inside {}", path.display(), paths.state_dir().display())),
        ))
    }
}

/// Creates the state directory with its own `.gitignore`. Each directory on
/// the way to it (`.ai`, `.ai/local`, `.ai/local/state`) must be a real
/// directory of this working tree, or absent: one that is a symlink, or a
/// file, is refused with exit 2 and nothing is written, since state written
/// through it would land elsewhere (a tracked symlink could point anywhere).
pub fn ensure_state_dir(paths: &StatePaths) -> Result<(), CliError> {
    state_dir_usable(paths)?;
    let ignore = paths.state_dir().join(".gitignore");
    if !ignore.exists() {
        majordomus_records::write_atomic(&ignore, b"# majordomus's own state: never tracked\n*\n")
            .map_err(|e| CliError::internal(format!("cannot write {}", ignore.display()), e))?;
    }
    Ok(())
}

/// Whether the state directory can be written where it belongs: see
/// [`ensure_state_dir`]. Checks only; writes nothing.
pub fn state_dir_usable(paths: &StatePaths) -> Result<(), CliError> {
    let state = paths.state_dir();
    let mut steps: Vec<&Path> =
        state.ancestors().take_while(|a| a.starts_with(paths.root()) && *a != paths.root()).collect();
    steps.reverse();
    for step in steps {
        let shown = step.strip_prefix(paths.root()).unwrap_or(step).display();
        match step.symlink_metadata() {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => break,
            Err(e) => return Err(CliError::internal(format!("cannot read {}", step.display()), e)),
            Ok(m) if m.file_type().is_symlink() => {
                return Err(CliError::Usage(format!(
                    "{shown} is a symbolic link (to {}): majordomus writes its state only into a directory of this working tree; make {shown} a plain directory (or remove it); nothing was written",
                    std::fs::read_link(step).map(|t| t.display().to_string()).unwrap_or_else(|_| "?".into())
                )))
            }
            Ok(m) if !m.is_dir() => {
                return Err(CliError::Usage(format!(
                    "{shown} is a file, where majordomus keeps its state directory; move it away; nothing was written"
                )))
            }
            Ok(_) => {}
        }
    }
    Ok(())
}
