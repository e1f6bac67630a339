//! Who owns a run: a process, named by more than its pid.
//!
//! The record names the parent loop that spends the budget, so that a second
//! parent is answered `busy` instead of counting into it. A pid alone cannot
//! carry that: pids are reused, and a record naming pid 4242 would call any
//! later process with that pid its owner and keep a crashed run `busy`
//! forever. So the owner is the pid **and** the process's start time (field
//! 22 of `/proc/PID/stat`, clock ticks since boot), plus the boot id, since
//! start times restart at every boot. A process with the recorded pid but
//! another start time is somebody else.
//!
//! Where a start time cannot be read (no procfs, a sandbox hiding other
//! processes), a live pid is held as the owner — [`OwnerState::Unsure`],
//! answered as `busy`. Stopping on a reused pid costs a person a decision;
//! taking a live owner for dead puts two parents on one budget.
//!
//! Reading `/proc` is the only I/O here, behind [`Probe`], so every judgement
//! is tested with processes made up for the test.

use std::fmt;
use std::path::PathBuf;

use majordomus_readings::process::{parse_stat, Stat};
use serde::{Deserialize, Serialize};

/// A process as the record names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Owner {
    pub pid: u32,
    /// `/proc/PID/stat` field 22 when the owner was named; `None` when it
    /// could not be read.
    pub start_time: Option<u64>,
    /// `/proc/sys/kernel/random/boot_id` when the owner was named.
    pub boot_id: Option<String>,
}

impl fmt::Display for Owner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pid {}", self.pid)?;
        match self.start_time {
            Some(t) => write!(f, " (started at tick {t})"),
            None => f.write_str(" (start time unknown)"),
        }
    }
}

/// What the system says about a pid right now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Process {
    /// No such process, or only its zombie remains.
    Gone,
    /// A process runs under the pid; its start time and the boot id are
    /// `None` when they cannot be read.
    Running { start_time: Option<u64>, boot_id: Option<String> },
}

/// The recorded owner, judged against what runs now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OwnerState {
    /// The very process the record names is running.
    Running,
    /// A process with that pid runs but its identity cannot be confirmed
    /// or ruled out: held as running.
    Unsure,
    /// Nothing runs under the pid, or what runs is another process (a
    /// different start time or boot): the owner is dead.
    Gone,
}

impl OwnerState {
    /// Whether the owner must be taken to be alive.
    pub fn held_alive(self) -> bool {
        !matches!(self, OwnerState::Gone)
    }
}

/// Reads the processes of this system.
pub trait Probe {
    fn process(&self, pid: u32) -> Process;
}

/// Judges the recorded owner against what now runs under its pid.
pub fn judge(recorded: &Owner, now: &Process) -> OwnerState {
    let Process::Running { start_time, boot_id } = now else {
        return OwnerState::Gone;
    };
    if let (Some(then), Some(now)) = (&recorded.boot_id, boot_id) {
        if then != now {
            return OwnerState::Gone;
        }
    }
    match (recorded.start_time, start_time) {
        (Some(then), Some(now)) if then == *now => OwnerState::Running,
        (Some(_), Some(_)) => OwnerState::Gone,
        _ => OwnerState::Unsure,
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("--owner {pid} names no running process")]
pub struct NotRunning {
    pub pid: u32,
}

/// The identity of the running process `pid`, to be recorded or compared.
pub fn identify(probe: &dyn Probe, pid: u32) -> Result<Owner, NotRunning> {
    match probe.process(pid) {
        Process::Gone => Err(NotRunning { pid }),
        Process::Running { start_time, boot_id } => Ok(Owner { pid, start_time, boot_id }),
    }
}

/// Whether `caller` is the process `recorded` names: the same pid, and no
/// start time or boot id that is known on both sides differs.
pub fn same_process(recorded: &Owner, caller: &Owner) -> bool {
    fn agree<T: PartialEq>(a: &Option<T>, b: &Option<T>) -> bool {
        match (a, b) {
            (Some(a), Some(b)) => a == b,
            _ => true,
        }
    }
    recorded.pid == caller.pid
        && agree(&recorded.start_time, &caller.start_time)
        && agree(&recorded.boot_id, &caller.boot_id)
}

/// The system's processes as Linux's procfs shows them.
#[derive(Debug, Clone)]
pub struct ProcFs {
    root: PathBuf,
}

impl Default for ProcFs {
    fn default() -> Self {
        Self { root: PathBuf::from("/proc") }
    }
}

impl Probe for ProcFs {
    fn process(&self, pid: u32) -> Process {
        let dir = self.root.join(pid.to_string());
        let boot_id = std::fs::read_to_string(self.root.join("sys/kernel/random/boot_id"))
            .ok()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty());
        match std::fs::read_to_string(dir.join("stat")) {
            Ok(stat) => match parse_stat(&stat) {
                Some(Stat { state, .. }) if state == 'Z' || state == 'X' => Process::Gone,
                Some(Stat { start_time, .. }) => Process::Running { start_time: Some(start_time), boot_id },
                None => Process::Running { start_time: None, boot_id },
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && self.root.join("self").exists() => {
                // procfs is there and has no such pid: the process is gone.
                Process::Gone
            }
            // No procfs, or the entry is hidden: whether it runs cannot be
            // told, so it is held as running with no start time.
            Err(_) => Process::Running { start_time: None, boot_id },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owner(pid: u32, start_time: Option<u64>) -> Owner {
        Owner { pid, start_time, boot_id: Some("boot-a".into()) }
    }

    fn running(start_time: Option<u64>) -> Process {
        Process::Running { start_time, boot_id: Some("boot-a".into()) }
    }

    #[test]
    fn the_same_pid_and_start_time_is_the_owner_still_running() {
        assert_eq!(judge(&owner(42, Some(1000)), &running(Some(1000))), OwnerState::Running);
    }

    #[test]
    fn the_same_pid_with_another_start_time_is_a_reused_pid_not_the_owner() {
        assert_eq!(judge(&owner(42, Some(1000)), &running(Some(2000))), OwnerState::Gone);
        assert!(!same_process(&owner(42, Some(1000)), &owner(42, Some(2000))));
    }

    #[test]
    fn a_pid_from_before_a_reboot_is_not_the_owner() {
        let now = Process::Running { start_time: Some(1000), boot_id: Some("boot-b".into()) };
        assert_eq!(judge(&owner(42, Some(1000)), &now), OwnerState::Gone);
    }

    #[test]
    fn a_pid_nobody_runs_under_is_a_dead_owner() {
        assert_eq!(judge(&owner(42, Some(1000)), &Process::Gone), OwnerState::Gone);
    }

    #[test]
    fn a_live_pid_whose_start_time_cannot_be_read_is_held_as_running() {
        assert_eq!(judge(&owner(42, Some(1000)), &running(None)), OwnerState::Unsure);
        assert_eq!(judge(&owner(42, None), &running(Some(1000))), OwnerState::Unsure);
        assert!(OwnerState::Unsure.held_alive());
    }

    #[test]
    fn a_caller_is_the_owner_only_with_the_same_pid_and_no_contradicting_identity() {
        assert!(same_process(&owner(42, Some(1)), &owner(42, Some(1))));
        assert!(same_process(&owner(42, None), &owner(42, Some(1))));
        assert!(!same_process(&owner(42, Some(1)), &owner(43, Some(1))));
    }

    #[test]
    fn a_zombie_is_a_dead_process() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join("self")).expect("self");
        std::fs::create_dir_all(dir.path().join("7")).expect("pid dir");
        std::fs::write(dir.path().join("7/stat"), "7 (sleep) Z 1 7 7 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 555 0 0")
            .expect("stat");
        let probe = ProcFs { root: dir.path().into() };
        assert_eq!(probe.process(7), Process::Gone);
        assert_eq!(probe.process(8), Process::Gone);
    }

    #[test]
    fn this_process_is_identified_with_its_start_time_on_linux() {
        if !std::path::Path::new("/proc/self/stat").exists() {
            return;
        }
        let me = identify(&ProcFs::default(), std::process::id()).expect("running");
        assert!(me.start_time.is_some());
        assert_eq!(judge(&me, &ProcFs::default().process(me.pid)), OwnerState::Running);
    }
}
