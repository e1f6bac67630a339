//! Whether registered background work still runs: the process registered,
//! and what it started (test/cases/644).
//!
//! A server a script starts in the background outlives the script: killed,
//! the script ends and the server, reparented to pid 1, runs on. So the
//! processes below a registered one are read while it runs (`bg add`,
//! `check`, `hook stop`) and recorded in the ledger (`BackgroundChild`,
//! pid and start time); one recorded still running, the same pid with the
//! same start time, is the work still running, named in the evidence. A
//! process started and orphaned between two looks is seen by no look:
//! work started through `bg run` carries a marker in its environment,
//! `MAJORDOMUS_BG=MARKER`, which every process it starts inherits, and
//! every live process of the user holding it is read as the work, however
//! it was started (`nohup`, `setsid`, a double fork), unless it was
//! started with another environment (`env -i`).
//!
//! `/proc` is walked only where registered work may still run: the
//! registered process or a recorded one runs, or a registration carries a
//! marker. With nothing registered nothing is read.

use majordomus_readings::process::{self, Seen};
use majordomus_records::ledger::Event;

use super::readings::{Child, ProcessSeen, Registered};

/// The variable `bg run` marks the work it starts with.
pub const MARKER_VARIABLE: &str = "MAJORDOMUS_BG";

/// Each registration's [`ProcessSeen`], and the `BackgroundChild` events
/// to record: the processes found below registered work (or carrying its
/// marker) that its registration does not list yet.
pub fn look(registered: &[Registered]) -> (Vec<ProcessSeen>, Vec<Event>) {
    let mut seen: Vec<ProcessSeen> = registered
        .iter()
        .map(|reg| {
            let mut lasting = Vec::new();
            let mut unread = None;
            for c in &reg.children {
                match process::is_running(c.pid, Some(c.start_time)) {
                    Ok(true) => lasting.push(c.clone()),
                    Ok(false) => {}
                    Err(e) => unread = Some(e),
                }
            }
            // A recorded process whose state cannot be read is not taken
            // as ended: the work's answer is unread, unless it runs.
            let running = match (process::is_running(reg.pid, reg.start_time), unread) {
                (Ok(false), Some(e)) if lasting.is_empty() => Err(e),
                (running, _) => running,
            };
            ProcessSeen { running, lasting, registered: reg.clone() }
        })
        .collect();
    let walk = seen.iter().any(|s| s.running == Ok(true) || !s.lasting.is_empty() || s.registered.marker.is_some());
    if !walk {
        return (seen, Vec::new());
    }
    let all = match process::processes() {
        Ok(all) => all,
        Err(e) => {
            // Work `bg run` started is found only by the walk: where it
            // cannot be taken, that work's answer is unread, never ended.
            for s in seen.iter_mut().filter(|s| s.registered.marker.is_some() && s.runs() != Ok(true)) {
                s.running = Err(e.clone());
            }
            return (seen, Vec::new());
        }
    };
    // Never this majordomus or what it runs under: they run because
    // they are asking (`bg add` refuses them).
    let mut own = process::ancestors().unwrap_or_default();
    own.push(std::process::id());
    let mut new = Vec::new();
    for s in &mut seen {
        let reg = &s.registered;
        let mut roots: Vec<u32> = s.lasting.iter().map(|c| c.pid).collect();
        if s.running == Ok(true) {
            roots.push(reg.pid);
        }
        let mut found: Vec<&Seen> = process::descendants(&all, &roots);
        if let Some(marker) = &reg.marker {
            let entry = format!("{MARKER_VARIABLE}={marker}");
            let carrying: Vec<&Seen> = all
                .iter()
                .filter(|p| {
                    p.pid != reg.pid
                        && !found.iter().any(|f| f.pid == p.pid)
                        && process::environment_holds(p.pid, entry.as_bytes())
                })
                .collect();
            found.extend(carrying);
        }
        for p in found.into_iter().filter(|p| !own.contains(&p.pid)) {
            if s.lasting.iter().any(|c| c.pid == p.pid && c.start_time == p.start_time) {
                continue;
            }
            let child = Child { pid: p.pid, start_time: p.start_time, name: clamp_name(&p.name) };
            if !reg.children.contains(&child) {
                new.push(Event::BackgroundChild {
                    of: reg.pid,
                    pid: child.pid,
                    start_time: child.start_time,
                    name: child.name.clone(),
                });
            }
            s.lasting.push(child);
        }
    }
    (seen, new)
}

/// A command name as the ledger bounds it (the kernel's are 15 bytes).
fn clamp_name(name: &str) -> String {
    name.chars().take(64).collect()
}

/// How the processes still running below registered work are named.
pub fn describe_lasting(lasting: &[Child]) -> String {
    lasting.iter().map(|c| format!("pid {} ({})", c.pid, c.name)).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registered(pid: u32, start_time: Option<u64>) -> Registered {
        Registered {
            pid,
            start_time,
            what: None,
            at: "2026-12-07T22:00:00Z".into(),
            forgotten: None,
            marker: None,
            children: Vec::new(),
        }
    }

    #[test]
    fn nothing_is_walked_or_recorded_for_work_that_ended_with_nothing_below_it() {
        let (seen, new) = look(&[registered(u32::MAX - 1, Some(1))]);
        assert_eq!(seen.len(), 1);
        assert_eq!(seen[0].runs(), Ok(false));
        assert!(new.is_empty());
    }

    #[test]
    fn a_child_outlives_its_registered_parent_and_still_counts() {
        if process::stat(std::process::id()).is_err() {
            return;
        }
        // sh starts a sleep in the background and waits; the sh is registered.
        let mut sh = std::process::Command::new("sh").args(["-c", "sleep 30 & wait"]).spawn().expect("spawn");
        std::thread::sleep(std::time::Duration::from_millis(200));
        let start = process::stat(sh.id()).expect("read").expect("runs").start_time;
        let mut reg = registered(sh.id(), Some(start));
        let (seen, new) = look(std::slice::from_ref(&reg));
        assert_eq!(seen[0].runs(), Ok(true));
        let Some(Event::BackgroundChild { pid: child, start_time, name, .. }) = new.first().cloned() else {
            panic!("the sleep below the sh is recorded: {new:?}")
        };
        assert_eq!(name, "sleep");
        reg.children.push(Child { pid: child, start_time, name });
        sh.kill().expect("kill");
        sh.wait().expect("wait");
        let (seen, new) = look(std::slice::from_ref(&reg));
        assert_eq!(seen[0].running, Ok(false));
        assert_eq!(seen[0].runs(), Ok(true), "the sleep, reparented, still runs");
        assert_eq!(seen[0].lasting.iter().map(|c| c.pid).collect::<Vec<_>>(), [child]);
        assert!(new.is_empty(), "{new:?}");
        let _ = std::process::Command::new("kill").arg(child.to_string()).status();
    }
}
