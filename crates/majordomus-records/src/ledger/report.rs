//! The agent's latest report of its background work, read back from the
//! ledger's end: what `no-background-work` judges (the report in force is
//! the task's latest `agent_background` entry), so a stop that would report
//! the same again can tell without reading the whole ledger as a reading.

use super::{AgentTask, Entry, Event};
use crate::StatePaths;

/// The tasks the latest `agent_background` entry of `task` recorded, when
/// the ledger ends in a whole line: `None` when there is no such entry,
/// when the ledger cannot be read, or when its last line is torn (then the
/// next append is what repairs it). Only the lines naming the kind are
/// parsed; one written otherwise (by hand, spaced) is not found, and a
/// caller then appends as if there were none.
pub fn latest_agent_report(paths: &StatePaths, task: &str) -> Option<Vec<AgentTask>> {
    let bytes = crate::regular::read(&paths.ledger()).ok()?;
    if bytes.last() != Some(&b'\n') {
        return None;
    }
    const KIND: &[u8] = br#""kind":"agent_background""#;
    bytes[..bytes.len() - 1]
        .split(|b| *b == b'\n')
        .rev()
        .filter(|line| line.windows(KIND.len()).any(|w| w == KIND))
        .filter_map(|line| Entry::parse(line).ok())
        .find_map(|entry| match entry.event {
            Event::AgentBackground { tasks } if entry.task.as_deref() == Some(task) => Some(tasks),
            _ => None,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths() -> (tempfile::TempDir, StatePaths) {
        let dir = tempfile::tempdir().expect("tempdir");
        let paths = StatePaths::new(dir.path());
        (dir, paths)
    }

    fn report(at: &str, task: &str, ids: &[&str]) -> Entry {
        let tasks = ids.iter().map(|id| AgentTask { id: (*id).into(), description: None }).collect();
        Entry { at: at.into(), task: Some(task.into()), event: Event::AgentBackground { tasks } }
    }

    #[test]
    fn the_latest_report_of_the_task_is_read_back_and_a_torn_end_reads_as_none() {
        let (_dir, paths) = paths();
        assert_eq!(latest_agent_report(&paths, "t-1"), None, "no ledger");
        for entry in [
            report("2026-11-30T10:00:00Z", "t-1", &[]),
            report("2026-11-30T10:01:00Z", "t-1", &["b1"]),
            report("2026-11-30T10:02:00Z", "t-0", &[]),
            Entry { at: "2026-11-30T10:03:00Z".into(), task: Some("t-1".into()), event: Event::TodoDone { n: 1 } },
        ] {
            super::super::append(&paths, &entry).expect("append");
        }
        let b1 = vec![AgentTask { id: "b1".into(), description: None }];
        assert_eq!(latest_agent_report(&paths, "t-1"), Some(b1), "another task's report is not this one's");
        assert_eq!(latest_agent_report(&paths, "t-0"), Some(vec![]));
        assert_eq!(latest_agent_report(&paths, "t-2"), None);
        let ledger = paths.ledger();
        let mut bytes = std::fs::read(&ledger).expect("read");
        bytes.extend_from_slice(br#"{"at":"2026-11-30T10:04:00Z","task":"t-1","kind":"agent_backgr"#);
        std::fs::write(&ledger, &bytes).expect("write");
        assert_eq!(latest_agent_report(&paths, "t-1"), None, "a torn end is left to the next append to repair");
    }
}
