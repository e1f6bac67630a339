//! `majordomus supervise` (hidden): the parent a gate's shell runs under,
//! so that a `kill -9` of `gate run` still stops the gate.
//!
//! `gate run` puts the gate in a process group of its own, so that a time
//! limit or a signal stops everything the gate started
//! (crates/majordomus-invariant/src/runner.rs). SIGKILL cannot be caught:
//! killed by it, `gate run` would leave the group running, orphaned (a test
//! suite still writing files after the agent's tool gave up on it). Linux
//! tells a process that its parent died (`PR_SET_PDEATHSIG`), but only the
//! process that asked, and a shell's children never ask. So the gate runs
//! through this mode of the same binary: it leads the group, asks for
//! SIGUSR1 when its parent (the `gate run`) dies, runs the shell in the
//! group and waits for it. When the signal comes it stops the group as
//! `gate run` would (SIGTERM, a grace period, SIGKILL, itself included).
//! Otherwise it ends as the shell ended: its exit code, or 128 + the signal
//! that ended it, which is how the runner reads an outcome either way.
//!
//! SIGTERM, SIGINT and SIGHUP reaching it (`gate run` stopping the group)
//! are caught and left to the shell: it keeps waiting, so the exit it
//! reports is the shell's, and the SIGKILL that follows a grace period
//! ends it with the rest of the group.

use std::ffi::OsString;
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, Command};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;
use rustix::process::{Pid, Signal};

use crate::out::errln;

/// Run a command as a gate's supervisor (used by `gate run`; not for
/// direct use).
#[derive(Debug, Args)]
pub struct SuperviseArgs {
    /// The process id of the `gate run` whose death stops the group.
    #[arg(long, value_name = "PID")]
    pub parent: i32,
    /// The command to run in the group (`/bin/sh -c COMMAND`).
    #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true, value_name = "PROGRAM")]
    pub command: Vec<OsString>,
}

/// How long the group is given to end after SIGTERM, as `gate run` gives it.
const GRACE: Duration = Duration::from_secs(2);

/// Runs the command and ends the process as it ended; never returns.
pub fn cmd_supervise(args: SuperviseArgs) -> ! {
    let parent_gone = Arc::new(AtomicBool::new(false));
    let stopping = Arc::new(AtomicBool::new(false));
    // The handlers come before the request: SIGUSR1's default would end
    // this process and leave the group running.
    let caught = signal_hook::flag::register(signal_hook::consts::SIGUSR1, parent_gone.clone()).and_then(|_| {
        [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT, signal_hook::consts::SIGHUP]
            .into_iter()
            .try_for_each(|s| signal_hook::flag::register(s, stopping.clone()).map(|_| ()))
    });
    let asked = caught.and_then(|()| watch_parent());
    if let Err(e) = asked {
        errln!("majordomus: gate supervisor: cannot watch for the end of majordomus ({e}); the gate runs unwatched");
    }
    // A parent that died before the request was made: this process is
    // someone else's child already.
    if Pid::as_raw(rustix::process::getppid()) != args.parent {
        parent_gone.store(true, Ordering::SeqCst);
    }
    let Some((program, rest)) = args.command.split_first() else { std::process::exit(2) };
    let mut child = match Command::new(program).args(rest).spawn() {
        Ok(c) => c,
        Err(e) => {
            errln!("majordomus: gate supervisor: cannot start {}: {e}", program.to_string_lossy());
            // What a shell answers for a command it cannot run.
            std::process::exit(127)
        }
    };
    let mut pause = Duration::from_millis(5);
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                std::process::exit(status.code().or_else(|| status.signal().map(|s| 128 + s)).unwrap_or(1))
            }
            Ok(None) => {}
            Err(_) => stop_group(&mut child),
        }
        if parent_gone.load(Ordering::SeqCst) {
            stop_group(&mut child);
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(50));
    }
}

/// Asks for SIGUSR1 when the parent dies.
#[cfg(target_os = "linux")]
fn watch_parent() -> std::io::Result<()> {
    Ok(rustix::process::set_parent_process_death_signal(Some(Signal::USR1))?)
}

#[cfg(not(target_os = "linux"))]
fn watch_parent() -> std::io::Result<()> {
    Err(std::io::Error::other("this system has no parent-death signal"))
}

/// Stops the whole group this process leads: SIGTERM, the grace period,
/// then SIGKILL, which ends this process too.
fn stop_group(child: &mut Child) -> ! {
    let group = rustix::process::getpgrp();
    let _ = rustix::process::kill_process_group(group, Signal::TERM);
    let until = Instant::now() + GRACE;
    while Instant::now() < until && !matches!(child.try_wait(), Ok(Some(_)) | Err(_)) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = rustix::process::kill_process_group(group, Signal::KILL);
    std::process::exit(128 + 9)
}
