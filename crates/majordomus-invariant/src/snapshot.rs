//! The start snapshot `majordomus start` records in the task record: what
//! the repository already held when the task began, so that none of it is
//! later counted against the task; the policy file as it stood (the policy
//! in force, `src/in_force/`, is read from it); and the task this working
//! tree ended last with questions open (`src/restart.rs`).

use majordomus_readings::refs::{self, Push};
use majordomus_readings::status;
use majordomus_readings::{baselines, reflog, stash, worktrees, Repo, Unread};
use majordomus_records::ledger::gate_environment;
use majordomus_records::names::Names;
use majordomus_records::policy::Policy;
use majordomus_records::task::{Bytes, DirtyPath, LogMark, PolicyAtStart, Snapshot, UntrackedPath, MAX_POLICY_TEXT};
use majordomus_records::StatePaths;

use crate::family::integration::readings::trunk;

/// A start snapshot, and the parts of it that could not be read, each
/// named with why.
#[derive(Debug)]
pub struct Taken {
    pub snapshot: Snapshot,
    /// What each part left out is (`dirty and untracked paths`, ...) and why.
    pub unread: Vec<(&'static str, Unread)>,
}

/// Takes the start snapshot `start` records: what the repository already
/// held, so that none of it is later counted against the task.
///
/// Each part is a reading of its own: a part that could not be read is left
/// out (`None`, never recorded as empty) and named in [`Taken::unread`],
/// and takes no other part with it. A repository whose status cannot be
/// read (an index neither reader can read) still gets a task.
pub fn snapshot(repo: &Repo, policy: &Policy) -> Taken {
    let mut unread = Vec::new();
    let mut kept = |what: &'static str, reading: Result<(), Unread>| {
        if let Err(e) = reading {
            unread.push((what, e));
        }
    };
    let mut snapshot = Snapshot::default();
    let head = refs::head(repo);
    let branches = refs::branches(repo);
    let evidence = refs::evidence(repo, refs::Start::NoTask);
    let found = trunk(repo, policy);
    if let Ok(Ok(t)) = &found {
        snapshot.trunk = Some(t.refname.clone());
    }
    let trunk_now = refs::in_force(repo, found, None, &evidence);
    // Taken before the branches are moved into the snapshot: `push` reads them.
    let unpushed = match (&head, &branches) {
        (Ok(_), Ok(_)) => match refs::push(repo, &head, &branches, &trunk_now, &evidence, None, &mut refs::NoneKept) {
            Ok(Push::Measured { commits, .. }) => Ok(commits),
            Ok(Push::NoRemote | Push::Unborn) => Ok(Vec::new()),
            Err(e) => Err(e),
        },
        (Err(e), _) | (_, Err(e)) => Err(e.clone()),
    };
    let tree = status::read(repo);
    kept(
        "dirty and untracked paths",
        tree.as_ref().map_err(Clone::clone).map(|tree| {
            snapshot.dirty = Some(
                tree.dirty
                    .iter()
                    .map(|d| DirtyPath {
                        path: d.path.clone(),
                        index: d.index.clone(),
                        worktree: status::content_id(repo, &d.path),
                        mode: status::worktree_mode(repo, &d.path),
                    })
                    .collect(),
            );
            snapshot.untracked = Some(
                tree.untracked
                    .iter()
                    .map(|p| UntrackedPath {
                        path: p.clone(),
                        worktree: status::content_id(repo, p),
                        mode: status::worktree_mode(repo, p),
                    })
                    .collect(),
            );
        }),
    );
    // What governed that reading: the bits, ignore rules and settings by
    // which `check` reads the working tree as it was read here.
    kept(
        "the working tree's reading conditions",
        tree.and_then(|tree| {
            status::record(repo, &tree)
                .map(|r| snapshot.reading = Some(r))
                .map_err(|e| Unread::git("the configuration", &e))
        }),
    );
    kept(
        "branches",
        branches.map(|b| {
            // An upstream already gone now is inherited by `upstream-alive`:
            // its ref missing, or left here while a fetch found its branch
            // gone from the remote (read as the check reads it).
            let stale = refs::evidence::gone_by_fetch(
                repo,
                b.iter().filter_map(|b| b.upstream.as_ref().filter(|u| u.exists)).map(|u| u.refname.as_str()),
            )
            .unwrap_or_default();
            let stale: std::collections::BTreeSet<&str> = stale.iter().map(|(r, _)| r.as_str()).collect();
            snapshot.gone_upstreams = Some(
                b.iter()
                    .filter_map(|b| {
                        let u = b.upstream.as_ref().filter(|u| !u.exists || stale.contains(u.refname.as_str()))?;
                        Some((b.name.clone(), u.refname.clone()))
                    })
                    .collect(),
            );
            // Each upstream there now, with its reflog's newest line: one
            // pruned and made again since is told by its log (test/cases/301).
            let upstreams =
                b.iter().filter_map(|b| b.upstream.as_ref().filter(|u| u.exists)).map(|u| u.refname.as_str());
            snapshot.upstream_logs = refs::evidence::newest_lines(repo, upstreams).ok().map(Names::from);
            snapshot.branches = Some(b.into_iter().map(|b| (b.name, b.commit)).collect());
        }),
    );
    kept(
        "remotes and remote-tracking refs",
        refs::evidence::at_start_now(repo).map(|(remotes, refs)| {
            snapshot.remotes = Some(remotes);
            snapshot.remote_refs = Some(Names::from(refs));
        }),
    );
    // Read after the remotes: a relative `.gitmodules` URL resolves
    // against the superproject's.
    let base = crate::family::commit::readings::start_url(&snapshot).map(str::to_string);
    kept(
        "the submodules' refs and stashes",
        refs::in_submodules::at_start(repo, base.as_deref()).map(|s| snapshot.submodules = Some(s)),
    );
    kept(
        "HEAD's reflog",
        reflog::mark(&reflog::log_of(repo.git_dir(), "HEAD"))
            .map(|(len, last)| snapshot.head_log = Some(LogMark { len, last })),
    );
    kept("packed refs", refs::kept::packed_digest(repo.common_dir()).map(|d| snapshot.packed_refs = Some(d)));
    kept("worktrees", worktrees::read(repo).map(|w| snapshot.worktrees = Some(Names::from(w))));
    kept("stashes", stash::read(repo).map(|s| snapshot.stashes = Some(s.into_iter().map(|s| s.commit).collect())));
    kept("unpushed commits", unpushed.map(|u| snapshot.unpushed = Some(u)));
    kept(
        "debt baselines",
        baselines::read_worktree(repo).map(|found| {
            let kept = found.baselines.into_iter().map(|(p, e)| (p, e.into_iter().map(Bytes).collect()));
            snapshot.baseline_bytes = Some(kept.collect());
        }),
    );
    snapshot.gate_environment = Some(gate_environment());
    snapshot.own_addresses = Some(refs::arrival::addresses_now(repo));
    kept(
        "the policy file",
        crate::in_force::text_to_keep(repo)
            .map_err(|e| Unread::policy(majordomus_records::task::error_chain(&e)))
            .and_then(|text| match text {
                Some(t) if t.len() > MAX_POLICY_TEXT => Err(Unread::policy(format!(
                    "the policy file holds more than {MAX_POLICY_TEXT} bytes, so the start commit's copy stands for it"
                ))),
                text => {
                    snapshot.policy = Some(PolicyAtStart { text });
                    Ok(())
                }
            }),
    );
    let archives =
        [majordomus_records::paths::shared_archive_dir(repo.common_dir()), StatePaths::new(repo.root()).archive_dir()];
    let key = crate::restart::worktree_key(repo.git_dir(), repo.common_dir());
    snapshot.previous = crate::restart::previous(&archives, repo.root(), &key, repo.common_dir());
    Taken { snapshot, unread }
}

#[cfg(test)]
mod tests {
    use majordomus_records::Policy;
    use majordomus_testkit::TestRepo;

    use super::*;

    #[test]
    fn unpushed_commits_the_snapshot_could_not_read_are_left_out_not_recorded_as_none() {
        let t = TestRepo::with_commit();
        // A remote never fetched: no upstream and no remote-tracking trunk.
        t.git(&["remote", "add", "gh", "/nonexistent/gh.git"]);
        let repo = majordomus_readings::open(t.path()).expect("open");
        let taken = snapshot(&repo, &Policy::default());
        assert_eq!(taken.snapshot.unpushed, None);
        assert_eq!(taken.unread.iter().map(|(what, _)| *what).collect::<Vec<_>>(), ["unpushed commits"]);
        assert!(taken.snapshot.dirty.is_some() && taken.snapshot.stashes.is_some());
        let t = TestRepo::with_commit();
        let repo = majordomus_readings::open(t.path()).expect("open");
        let taken = snapshot(&repo, &Policy::default());
        assert_eq!(taken.snapshot.unpushed, Some(vec![]));
        assert!(taken.unread.is_empty(), "{:?}", taken.unread);
    }

    #[test]
    fn a_status_the_snapshot_cannot_read_leaves_out_dirty_and_untracked_and_nothing_else() {
        let t = TestRepo::with_commit();
        t.write("README", "dirty\n");
        // An index neither reader can read.
        std::fs::write(t.path().join(".git/index"), b"not an index").expect("write");
        let repo = majordomus_readings::open(t.path()).expect("open");
        let taken = snapshot(&repo, &Policy::default());
        assert_eq!((&taken.snapshot.dirty, &taken.snapshot.untracked), (&None, &None));
        assert_eq!(taken.snapshot.reading, None);
        let what: Vec<&str> = taken.unread.iter().map(|(what, _)| *what).collect();
        assert_eq!(what, ["dirty and untracked paths", "the working tree's reading conditions"]);
        let s = &taken.snapshot;
        assert!(s.branches.is_some() && s.worktrees.is_some() && s.stashes.is_some());
        assert!(s.unpushed.is_some() && s.baseline_bytes.is_some() && s.gate_environment.is_some());
    }

    #[test]
    fn a_path_that_is_not_utf8_is_snapshotted_as_its_bytes() {
        use std::os::unix::ffi::OsStrExt;
        let t = TestRepo::with_commit();
        std::fs::write(t.path().join(std::ffi::OsStr::from_bytes(b"caf\xe9.txt")), "x\n").expect("write");
        let repo = majordomus_readings::open(t.path()).expect("open");
        let taken = snapshot(&repo, &Policy::default());
        assert!(taken.unread.is_empty(), "{:?}", taken.unread);
        let untracked = taken.snapshot.untracked.expect("read");
        assert_eq!(untracked.len(), 1);
        assert_eq!(untracked[0].path.as_bytes(), b"caf\xe9.txt");
        assert!(untracked[0].worktree.is_some() && untracked[0].mode == Some(0o100644));
    }

    #[test]
    fn the_reading_conditions_hold_the_bits_rules_and_settings_of_the_start() {
        let t = TestRepo::with_commit();
        t.write("src/lib.rs", "fn a() {}\n");
        t.commit_all("lib");
        t.git(&["update-index", "--assume-unchanged", "src/lib.rs"]);
        t.write(".git/info/exclude", "*.log\n");
        t.write("cache/.gitignore", "*\n");
        let repo = majordomus_readings::open(t.path()).expect("open");
        let reading = snapshot(&repo, &Policy::default()).snapshot.reading.expect("read");
        assert_eq!(
            reading.bits.get(&majordomus_records::RepoPath::from("src/lib.rs")),
            Some(&majordomus_records::task::Bit::AssumeUnchanged)
        );
        assert_eq!(reading.info_exclude.expect("read").0, b"*.log\n");
        assert_eq!(
            reading.ignore_files.get(&majordomus_records::RepoPath::from("cache/.gitignore")).expect("read").0,
            b"*\n"
        );
        assert_eq!(reading.config.get("core.filemode").map(String::as_str), Some("true"));
    }

    #[test]
    fn a_split_index_is_read_whole() {
        let t = TestRepo::with_commit();
        t.git(&["update-index", "--split-index"]);
        t.write("README", "dirty\n");
        let repo = majordomus_readings::open(t.path()).expect("open");
        let taken = snapshot(&repo, &Policy::default());
        assert!(taken.unread.is_empty(), "{:?}", taken.unread);
        let dirty = taken.snapshot.dirty.expect("read");
        assert_eq!(dirty.iter().map(|d| d.path.to_string()).collect::<Vec<_>>(), ["README"]);
    }
}
