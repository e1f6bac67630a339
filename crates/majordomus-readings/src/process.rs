//! Processes, read from `/proc`: whether one still runs, and its start time
//! (`/proc/PID/stat` field 22, clock ticks since boot), so that a pid the
//! kernel has since given to another process is not mistaken for it.
//!
//! Where `/proc` does not exist the reading is not taken: whether a process
//! runs is then `unknown`, never assumed either way.

use std::path::Path;

use crate::{Reading, Unread};

/// What `/proc/PID/stat` says of a process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stat {
    /// The state letter (`R`, `S`, `Z`, …).
    pub state: char,
    pub parent: u32,
    /// Clock ticks since boot when the process started.
    pub start_time: u64,
}

/// Parses the text of `/proc/PID/stat`. The command name (field 2) is in
/// parentheses and may itself hold spaces and parentheses, so the fields are
/// counted from the last `)`.
pub fn parse_stat(text: &str) -> Option<Stat> {
    let rest = &text[text.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // fields[0] is field 3 (state); field N is fields[N - 3].
    Some(Stat {
        state: fields.first()?.chars().next()?,
        parent: fields.get(1)?.parse().ok()?,
        start_time: fields.get(19)?.parse().ok()?,
    })
}

fn proc_available() -> Reading<()> {
    if Path::new("/proc/self/stat").exists() {
        Ok(())
    } else {
        Err(Unread::io("/proc is not available here, so whether a process runs cannot be read"))
    }
}

/// The process's stat; `Ok(None)` when there is no such process.
pub fn stat(pid: u32) -> Reading<Option<Stat>> {
    proc_available()?;
    if pid == 0 {
        return Ok(None);
    }
    let path = format!("/proc/{pid}/stat");
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            parse_stat(&text).map(Some).ok_or_else(|| Unread::io(format!("{path} does not read as a process's stat")))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Unread::io(format!("could not read {path}: {e}"))),
    }
}

/// Whether process `pid` still runs and is the one that started at
/// `start_time` (`None`: the start time was never known, so any live
/// process under that pid counts). A zombie has ended.
pub fn is_running(pid: u32, start_time: Option<u64>) -> Reading<bool> {
    Ok(match stat(pid)? {
        None => false,
        Some(s) if matches!(s.state, 'Z' | 'X' | 'x') => false,
        Some(s) => start_time.map_or(true, |t| t == s.start_time),
    })
}

/// A process read in a walk of `/proc` ([`processes`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    pub pid: u32,
    pub parent: u32,
    pub start_time: u64,
    /// Its command name (`/proc/PID/stat` field 2).
    pub name: String,
}

/// Every live process `/proc` lists (zombies left out): one read of each
/// `/proc/PID/stat`. A process that ends during the walk is skipped.
pub fn processes() -> Reading<Vec<Seen>> {
    proc_available()?;
    let dir = std::fs::read_dir("/proc").map_err(|e| Unread::io(format!("could not list /proc: {e}")))?;
    let mut out = Vec::new();
    for entry in dir.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
        let Ok(text) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { continue };
        let Some(stat) = parse_stat(&text) else { continue };
        if matches!(stat.state, 'Z' | 'X' | 'x') {
            continue;
        }
        let name = text.find('(').zip(text.rfind(')')).map_or("", |(a, b)| &text[a + 1..b.max(a + 1)]);
        out.push(Seen { pid, parent: stat.parent, start_time: stat.start_time, name: name.to_string() });
    }
    Ok(out)
}

/// The processes of `all` below any of `roots` (children, their children,
/// and so on), each once; `roots` themselves are not included.
pub fn descendants<'a>(all: &'a [Seen], roots: &[u32]) -> Vec<&'a Seen> {
    let mut out: Vec<&Seen> = Vec::new();
    let mut frontier: Vec<u32> = roots.to_vec();
    while let Some(parent) = frontier.pop() {
        for p in all.iter().filter(|p| p.parent == parent && p.pid != parent) {
            if !roots.contains(&p.pid) && !out.iter().any(|o| o.pid == p.pid) {
                out.push(p);
                frontier.push(p.pid);
            }
        }
    }
    out
}

/// Whether process `pid`'s environment (`/proc/PID/environ`, the one it
/// was started with) holds `entry` (`NAME=value`) exactly. A process of
/// another user, whose environment cannot be read, does not.
pub fn environment_holds(pid: u32, entry: &[u8]) -> bool {
    std::fs::read(format!("/proc/{pid}/environ")).is_ok_and(|bytes| bytes.split(|b| *b == 0).any(|e| e == entry))
}

/// The processes above this one: its parent, the parent's parent, and so on
/// up to (not including) pid 1, read through each `/proc/PID/stat`.
pub fn ancestors() -> Reading<Vec<u32>> {
    proc_available()?;
    let mut out = Vec::new();
    let mut pid = std::os::unix::process::parent_id();
    while pid > 1 && !out.contains(&pid) {
        out.push(pid);
        pid = match stat(pid)? {
            Some(s) => s.parent,
            None => break,
        };
    }
    Ok(out)
}

/// The arguments a process was started with (`/proc/PID/cmdline`).
pub fn cmdline(pid: u32) -> Reading<Vec<String>> {
    proc_available()?;
    let path = format!("/proc/{pid}/cmdline");
    let bytes = std::fs::read(&path).map_err(|e| Unread::io(format!("could not read {path}: {e}")))?;
    Ok(bytes.split(|b| *b == 0).filter(|a| !a.is_empty()).map(|a| String::from_utf8_lossy(a).into_owned()).collect())
}

/// Whether these arguments are a shell running one command string
/// (`bash -c '…'`, `sh -lc '…'`): a process that ends with that command.
pub fn is_command_shell(args: &[String]) -> bool {
    const SHELLS: [&str; 7] = ["sh", "bash", "zsh", "dash", "ksh", "fish", "ash"];
    let Some(first) = args.first() else { return false };
    let name = first.rsplit('/').next().unwrap_or(first).trim_start_matches('-');
    SHELLS.contains(&name)
        && args[1..].iter().take_while(|a| a.starts_with('-')).any(|a| !a.starts_with("--") && a.contains('c'))
}

/// The process that owns work started by `pid`'s child: `pid` itself,
/// unless it is a shell running one command string, which ends with that
/// command; then the nearest ancestor that is not one (an agent runs each
/// command in a fresh `bash -c`, and the agent is what lasts).
pub fn lasting_ancestor(pid: u32) -> u32 {
    let mut current = pid;
    for _ in 0..8 {
        let (Ok(args), Ok(Some(stat))) = (cmdline(current), stat(current)) else { break };
        if !is_command_shell(&args) || stat.parent <= 1 {
            break;
        }
        current = stat.parent;
    }
    current
}

/// The first executable regular file called `name` in the directories of
/// `path` (a PATH value), as a shell would find it; empty entries are skipped.
pub fn find_on(path: &std::ffi::OsStr, name: &str) -> Option<std::path::PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    std::env::split_paths(path).filter(|d| !d.as_os_str().is_empty()).map(|d| d.join(name)).find(|candidate| {
        std::fs::metadata(candidate).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    })
}

/// The program `program` runs (the path itself, or where its symbolic
/// links lead) when that file was written at or after `since` (seconds
/// since the epoch), by its change or modification time: a program put in
/// place since then. The links on the way are not asked: a version
/// manager makes its links again (`ln -sfn`) to the same program. `None`
/// where the program is older, or cannot be read.
pub fn written_since(program: &std::path::Path, since: i64) -> Option<std::path::PathBuf> {
    use std::os::unix::fs::MetadataExt;
    let target = std::fs::canonicalize(program).ok()?;
    let meta = std::fs::metadata(&target).ok()?;
    (meta.ctime() >= since || meta.mtime() >= since).then_some(target)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_written_since_is_named_through_its_links() {
        let dir = tempfile::tempdir().expect("tempdir");
        let program = dir.path().join("gh");
        std::fs::write(&program, "#!/bin/sh\n").expect("write");
        let link = dir.path().join("gh-link");
        std::os::unix::fs::symlink("gh", &link).expect("link");
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("clock").as_secs() as i64;
        let target = program.canonicalize().expect("canonical");
        assert_eq!(written_since(&link, now - 3600), Some(target.clone()), "the program it leads to is new");
        assert_eq!(written_since(&program, now - 3600), Some(target), "the program itself");
        assert_eq!(written_since(&link, now + 3600), None, "nothing newer than an hour ahead");
        assert_eq!(written_since(&dir.path().join("absent"), now - 3600), None);
    }

    #[test]
    fn the_start_time_is_field_22_even_when_the_name_holds_parentheses() {
        let text = "1234 (a (weird) name) S 1 1234 1234 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 10 18446744073709551615";
        let s = parse_stat(text).expect("parses");
        assert_eq!(s.state, 'S');
        assert_eq!(s.parent, 1);
        assert_eq!(s.start_time, 987654);
        assert_eq!(parse_stat("garbage"), None);
    }

    #[test]
    fn this_process_runs_and_another_start_time_is_another_process() {
        if proc_available().is_err() {
            return;
        }
        let me = std::process::id();
        let s = stat(me).expect("read").expect("this process exists");
        assert!(is_running(me, Some(s.start_time)).expect("read"));
        assert!(is_running(me, None).expect("read"));
        assert!(!is_running(me, Some(s.start_time + 1)).expect("read"), "a reused pid was taken for the process");
    }

    #[test]
    fn this_processs_ancestors_start_with_its_parent_and_never_hold_pid_1() {
        if proc_available().is_err() {
            return;
        }
        let up = ancestors().expect("read");
        let parent = std::os::unix::process::parent_id();
        if parent > 1 {
            assert_eq!(up.first(), Some(&parent), "{up:?}");
        }
        assert!(!up.contains(&1) && !up.contains(&std::process::id()), "{up:?}");
    }

    #[test]
    fn a_shell_running_one_command_string_is_told_from_one_running_a_script() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(is_command_shell(&args(&["/bin/bash", "-c", "majordomus start x"])));
        assert!(is_command_shell(&args(&["bash", "-lc", "x"])));
        assert!(is_command_shell(&args(&["-zsh", "-c", "x"])));
        assert!(!is_command_shell(&args(&["bash", "script.sh"])));
        assert!(!is_command_shell(&args(&["bash"])));
        assert!(!is_command_shell(&args(&["bash", "--login"])));
        assert!(!is_command_shell(&args(&["python3", "-c", "x"])));
    }

    #[test]
    fn the_lasting_ancestor_of_a_command_shell_is_the_process_that_ran_it() {
        if proc_available().is_err() {
            return;
        }
        // sh -c 'sleep' with a second command, so the shell does not exec
        // into the sleep and stays to be looked at.
        let mut child = std::process::Command::new("sh").args(["-c", "sleep 5; true"]).spawn().expect("spawn");
        std::thread::sleep(std::time::Duration::from_millis(100));
        assert_eq!(lasting_ancestor(child.id()), std::process::id());
        assert_eq!(lasting_ancestor(std::process::id()), std::process::id());
        child.kill().expect("kill");
        child.wait().expect("wait");
    }

    #[test]
    fn descendants_are_walked_through_every_generation_and_each_is_named_once() {
        let p = |pid, parent| Seen { pid, parent, start_time: 1, name: format!("p{pid}") };
        let all = [p(10, 1), p(11, 10), p(12, 11), p(13, 1), p(14, 12), p(15, 13)];
        let mut found: Vec<u32> = descendants(&all, &[10]).iter().map(|s| s.pid).collect();
        found.sort_unstable();
        assert_eq!(found, [11, 12, 14]);
        let mut found: Vec<u32> = descendants(&all, &[10, 12, 13]).iter().map(|s| s.pid).collect();
        found.sort_unstable();
        assert_eq!(found, [11, 14, 15], "a root below another root is not named again");
        assert!(descendants(&all, &[99]).is_empty());
    }

    #[test]
    fn a_child_is_among_the_processes_with_its_parent_and_its_environment() {
        if proc_available().is_err() {
            return;
        }
        let mut child =
            std::process::Command::new("sleep").arg("5").env("MAJORDOMUS_BG_TEST", "x1").spawn().expect("spawn");
        std::thread::sleep(std::time::Duration::from_millis(50));
        let all = processes().expect("read");
        let below = descendants(&all, &[std::process::id()]);
        assert!(below.iter().any(|s| s.pid == child.id() && s.name == "sleep"), "{below:?}");
        assert!(environment_holds(child.id(), b"MAJORDOMUS_BG_TEST=x1"));
        assert!(!environment_holds(child.id(), b"MAJORDOMUS_BG_TEST=x"));
        child.kill().expect("kill");
        child.wait().expect("wait");
    }

    #[test]
    fn a_process_that_ended_no_longer_runs() {
        if proc_available().is_err() {
            return;
        }
        let mut child = std::process::Command::new("true").spawn().expect("spawn");
        let pid = child.id();
        child.wait().expect("wait");
        assert!(!is_running(pid, None).expect("read"));
    }
}
