//! Whether an upstream the start saw was deleted or rewritten since,
//! whatever value it holds now: its reflog's newest line against the one
//! the start snapshot recorded (`Snapshot::upstream_logs`).

use std::collections::BTreeMap;

use super::Start;
use crate::reflog::{self, Line};
use crate::{Reading, Repo};

/// Each of `refnames` with the newest line of its reflog, as
/// [`rewritten`] compares it (empty: no line), for the start snapshot.
pub fn newest_lines<'a>(repo: &Repo, refnames: impl Iterator<Item = &'a str>) -> Reading<BTreeMap<String, String>> {
    refnames
        .map(|r| Ok((r.to_string(), line_key(reflog::last_line(&reflog::log_of(repo.common_dir(), r))?.as_ref()))))
        .collect()
}

/// A reflog line as the snapshot keeps it.
fn line_key(line: Option<&Line>) -> String {
    line.map(|l| format!("{} {} {} {}", l.old, l.new, l.time, l.message)).unwrap_or_default()
}

/// Whether a ref the start snapshot names among the upstreams was written
/// since the start, whatever value it holds: its reflog's newest line is
/// not the one recorded then. Deleting a ref deletes its reflog, so an
/// upstream pruned and made again at its start value (`git fetch origin
/// main:refs/remotes/origin/feature`, `git update-ref`) shows here, and
/// must then show a fetch or push of its remote like a ref that moved
/// (test/cases/301). A reflog emptied since (`git gc` expires lines older
/// than `gc.reflogExpire`, keeping the file) is not a rewrite; a reflog
/// file gone, where there was a line, is: the ref was deleted and made
/// again without one (written by hand). Read only for the few refs
/// recorded; a record written before it was kept reads nothing here.
pub(super) fn rewritten(repo: &Repo, start: Start<'_>, refname: &str) -> Reading<bool> {
    let Start::Snapshot(s) = start else { return Ok(false) };
    let Some(recorded) = s.upstream_logs.as_ref().and_then(|l| l.get(refname)) else { return Ok(false) };
    let path = reflog::log_of(repo.common_dir(), refname);
    Ok(match reflog::last_line(&path)? {
        Some(now) => &line_key(Some(&now)) != recorded,
        None => !recorded.is_empty() && std::fs::symlink_metadata(&path).is_err(),
    })
}
