//! The reading commands' own clock: a reading that never returns ends the
//! command, saying so, rather than hanging it.
//!
//! `check`, `finish`, `start` and `gate` read the repository, much of it
//! through libgit2, which opens git's files with a blocking `open`: a FIFO
//! planted where one is read waits for a writer forever. The files opened
//! with the repository are looked at before it is opened
//! (`majordomus_readings`' `git_files.rs`); what that list cannot reach (a
//! loose object, a ref file, a file a configuration includes, a file of a
//! remote repository on this machine) is caught here. While a command
//! reads, a thread waits out [`BOUND_SECONDS`]; if the command has not
//! finished reading by then, it says which reading it was in, names the
//! FIFOs it finds in the git directory, and ends the command with the exit
//! code the command gives a reading it could not make (`check`: not done,
//! 10; the others: 2). Nothing is recorded by the watch. The bound is far
//! above an honest reading: a `check` of 300,000 files takes half a second
//! (bench/README.md), and `gate run`'s watch is off while the gate's own
//! command runs (its `timeout_seconds` is the gate's bound). It stands in
//! the environment as `MAJORDOMUS_WATCH_SECONDS` for a slow file system
//! (and for the tests): a bound changes only how long a hang lasts, never
//! what is answered.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::{Mutex, Once, OnceLock};
use std::time::{Duration, Instant};

use crate::out::errln;
use crate::Exit;

/// How long a command may read before the watch ends it, in seconds.
pub const BOUND_SECONDS: u64 = 300;

/// When the watch ends the command, in milliseconds from [`origin`];
/// [`OFF`] while nothing is watched.
static DUE_MS: AtomicU64 = AtomicU64::new(OFF);
const OFF: u64 = u64::MAX;
/// The exit code the watch ends the command with.
static EXIT: AtomicU8 = AtomicU8::new(Exit::NotDone as u8);
/// What the command was reading, and where it was run (the git directory
/// is searched from there for what blocked it).
static READING: Mutex<Option<(String, PathBuf)>> = Mutex::new(None);

/// Watches `what` (a reading of the command run in `cwd`) from now for the
/// bound, ending the command with `exit` past it.
pub fn arm(what: &str, cwd: &Path, exit: Exit) {
    *READING.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some((what.to_string(), cwd.to_path_buf()));
    EXIT.store(exit as u8, Ordering::SeqCst);
    DUE_MS.store(now_ms().saturating_add(bound().saturating_mul(1000)), Ordering::SeqCst);
    static STARTED: Once = Once::new();
    STARTED.call_once(|| {
        // Without a thread there is no watch: the command runs as before.
        let _ = std::thread::Builder::new().name("majordomus-read-watch".into()).spawn(watch);
    });
}

/// Stops watching: what follows is not a reading (a gate's own command,
/// the answer being written).
pub fn disarm() {
    DUE_MS.store(OFF, Ordering::SeqCst);
}

/// The bound in seconds: [`BOUND_SECONDS`], or the environment's.
fn bound() -> u64 {
    std::env::var("MAJORDOMUS_WATCH_SECONDS").ok().and_then(|s| s.trim().parse().ok()).unwrap_or(BOUND_SECONDS)
}

fn origin() -> Instant {
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    *ORIGIN.get_or_init(Instant::now)
}

fn now_ms() -> u64 {
    u64::try_from(origin().elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// The watch's thread: sleeps until the bound, and ends the command there
/// unless it was disarmed or armed again meanwhile.
fn watch() {
    loop {
        let due = DUE_MS.load(Ordering::SeqCst);
        let now = now_ms();
        if due != OFF && now >= due {
            end();
        }
        let wait = if due == OFF { 1000 } else { (due - now).min(1000) };
        std::thread::sleep(Duration::from_millis(wait));
    }
}

/// Says why the command ends, and ends it.
fn end() -> ! {
    let (what, cwd) = READING.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone().unwrap_or_default();
    let found = not_files_under(&cwd);
    let named = if found.is_empty() {
        "`find .git -type p` lists the FIFOs in the git directory; a remote repository on this machine, or a file a configuration includes, may hold one too".to_string()
    } else {
        format!("not a regular file in the git directory: {}", found.join(", "))
    };
    let said = format!(
        "{what} did not return within {} s, so the command was stopped and nothing was judged or recorded: a file it reads may be a FIFO (a named pipe, whose open waits for a writer) or on a file system that does not answer; {named}. Put a regular file back where one is read, then run it again",
        bound()
    );
    // The paths are the repository's: no control character reaches the terminal.
    errln!("majordomus: {}", majordomus_records::text::escape_lines(&said));
    std::process::exit(i32::from(EXIT.load(Ordering::SeqCst)))
}

/// The FIFOs, sockets and devices in the `.git` directory nearest up from
/// `cwd` (at most five, within the first 200,000 entries): what a reading
/// of git's files may have waited on. Read only when the watch ends a
/// command.
fn not_files_under(cwd: &Path) -> Vec<String> {
    let Some(dotgit) = cwd.ancestors().map(|a| a.join(".git")).find(|d| d.symlink_metadata().is_ok_and(|m| m.is_dir()))
    else {
        return Vec::new();
    };
    let mut found = Vec::new();
    let mut pending = vec![dotgit];
    let mut seen = 0usize;
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            seen += 1;
            if seen > 200_000 || found.len() >= 5 {
                return found;
            }
            let Ok(kind) = entry.file_type() else { continue };
            if kind.is_dir() {
                pending.push(entry.path());
            } else if !kind.is_file() && !kind.is_symlink() {
                found.push(entry.path().display().to_string());
            }
        }
    }
    found
}
