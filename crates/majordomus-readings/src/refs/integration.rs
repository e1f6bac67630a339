//! Whether the trunk holds HEAD's work: reached, or held by a squash or
//! rebase merge, or missing.
//!
//! "Held" compares each path's blob *and* mode: a change that is only
//! `chmod +x` is a change the trunk must hold too. A squash merge the
//! trunk edited since still counts; one the trunk undid since (a path
//! back at what it was before the change, at the tip or at any commit
//! between the squash merge and the tip) does not.

use git2::{ErrorCode, Oid};

use super::{commits_not_on, parse};
use crate::{Reading, Repo, Unread};
use majordomus_records::RepoPath;

/// How many of the trunk's first-parent commits [`integration`] searches
/// for one holding HEAD's changes, newest first.
pub const SQUASH_SEARCH: usize = 2_000;

/// How the trunk relates to HEAD's work. Serialized, it is what the
/// integration cache keeps (`majordomus-invariant`'s
/// `family/integration/cache.rs`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Integration {
    /// The trunk's history contains HEAD.
    Reached,
    /// The trunk does not contain HEAD, but one of its commits held every
    /// path HEAD changed since their merge base with the same content: a
    /// squash or rebase merge.
    Holds {
        paths: usize,
        /// The trunk commit that held them: its tip, or the first-parent
        /// commit the squash merge landed as.
        commit: String,
        /// How many first-parent commits before the tip it is (0: the tip).
        behind_tip: usize,
    },
    /// The trunk's history reaches HEAD, but its tip holds paths HEAD
    /// changed since the task's start as the start had them: the work was
    /// reverted on the trunk since, or merged without its changes
    /// ([`integration_since`]).
    Undone {
        paths: Vec<String>,
        /// The trunk's tip, which holds them so.
        tip: String,
        /// A commit made here since the start that the trunk's ref held
        /// and a fetch took off it (a forced update: the remote's branch
        /// pushed back over it), which HEAD does not hold either: `git
        /// pull --rebase` drops such a commit as already upstream
        /// (test/cases/615). `None`: the work was undone on the trunk.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dropped: Option<String>,
        /// The remote-tracking ref a fetch took `dropped` off, where it is
        /// not the trunk's: a branch whose work since the trunk reaches
        /// (the task's branch's upstream force-pushed back over it, then
        /// rebased and merged: test/cases/627). `None`: the trunk's.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dropped_from: Option<String>,
    },
    /// Paths HEAD changed that the trunk's tip does not hold, and the
    /// commits ahead; no trunk commit searched held them all, or the one
    /// that did was undone on the trunk since.
    Missing {
        paths: Vec<String>,
        /// Of those, the ones the tip holds with HEAD's content but another
        /// mode (a `chmod` the trunk lacks).
        mode_only: Vec<String>,
        /// The trunk commit that held HEAD's changes (a squash merge) and
        /// the later trunk commit that put a path back as it was before
        /// them (a revert), when that is why they are missing.
        reverted: Option<(String, String)>,
        ahead: Vec<String>,
        ahead_count: usize,
        /// `Some(n)` when the search stopped after `n` trunk commits
        /// ([`SQUASH_SEARCH`]) before reaching the merge base or the root:
        /// older commits were not read.
        searched_only: Option<usize>,
    },
}

/// Whether the trunk holds HEAD's work: its history reaches HEAD, or its tip
/// holds every path HEAD changed since the merge base at HEAD's content, or
/// an earlier commit on its first-parent history did (a squash merge the
/// trunk has edited since). That search goes back to the merge base, at most
/// [`SQUASH_SEARCH`] commits, looking up only the changed paths in each
/// commit's tree: no diff per commit.
pub fn integration(repo: &Repo, head: &str, trunk: &str) -> Reading<Integration> {
    integration_searching(repo, head, trunk, None, SQUASH_SEARCH)
}

/// [`integration`] for the work HEAD holds since `start` (the task's start
/// commit): a trunk whose history reaches HEAD holds it unless its tip
/// holds a path HEAD changed since `start` back as `start` had it (a revert
/// of the work pushed to the trunk, a revert of its merge, `git revert -m
/// 1`, a merge that took nothing of it, `git merge -s ours`), as a squash
/// merge undone since is missing (test/cases/437).
pub fn integration_since(repo: &Repo, head: &str, trunk: &str, start: Option<&str>) -> Reading<Integration> {
    integration_searching(repo, head, trunk, start, SQUASH_SEARCH)
}

/// [`integration_since`], searching at most `bound` trunk commits before
/// its tip.
fn integration_searching(
    repo: &Repo,
    head: &str,
    trunk: &str,
    start: Option<&str>,
    bound: usize,
) -> Reading<Integration> {
    let (h, t) = (parse(head)?, parse(trunk)?);
    if h == t || repo.git.graph_descendant_of(t, h).map_err(|e| Unread::git("the trunk's history", &e))? {
        return match start.filter(|s| *s != head).map(parse).transpose()? {
            Some(s) => reached_since(repo, h, t, s),
            None => Ok(Integration::Reached),
        };
    }
    let base = match repo.git.merge_base(h, t) {
        Ok(b) => Some(b),
        Err(e) if e.code() == ErrorCode::NotFound => None,
        Err(e) => return Err(Unread::git("the merge base of HEAD and the trunk", &e)),
    };
    let commit_of = |oid: Oid| repo.git.find_commit(oid).map_err(|e| Unread::git(&format!("the commit {oid}"), &e));
    let tree_of = |oid: Oid| -> Reading<git2::Tree<'_>> {
        commit_of(oid)?.tree().map_err(|e| Unread::git(&format!("the tree of {oid}"), &e))
    };
    let head_tree = tree_of(h)?;
    let trunk_tree = tree_of(t)?;
    let base_tree = base.map(tree_of).transpose()?;
    let mut changed = crate::trees::changed_paths(&repo.git, base_tree.as_ref(), Some(&head_tree))
        .map_err(|e| Unread::git("HEAD's changes since the merge base", &e))?;
    // With no merge base, "changed" from the empty tree names every path
    // HEAD holds and none it lacks: a file deleted would be held by a
    // trunk that still has it (test/cases/348). In a shallow clone that is
    // the clone's cut, not the histories (the trunk fetched again with
    // `--depth`): what HEAD changed cannot be read. Otherwise (a branch
    // begun with `git checkout --orphan`) the histories share nothing, and
    // every path the trunk's tip holds and HEAD does not is a change too,
    // a deletion; only the tip is asked, for no commit of the trunk's
    // comes after a merge base.
    if base.is_none() && repo.git.is_shallow() {
        return Err(Unread::repository(
            "HEAD's history and the trunk's meet at no commit this shallow clone holds (its history is cut short), so what HEAD changed cannot be read; deepen it: git fetch --unshallow",
        ));
    }
    if base.is_none() {
        let both = crate::trees::changed_paths(&repo.git, Some(&trunk_tree), Some(&head_tree))
            .map_err(|e| Unread::git("HEAD's tree beside the trunk's", &e))?;
        let mut seen: std::collections::HashSet<RepoPath> = changed.iter().cloned().collect();
        for path in both {
            if seen.insert(path.clone()) {
                changed.push(path);
            }
        }
    }
    // Each path HEAD changed, with the blob and mode HEAD holds there
    // (`None`: deleted).
    let wanted: Vec<(std::path::PathBuf, Option<Entry>)> = changed
        .into_iter()
        .map(|path| {
            let path = std::path::PathBuf::from(<std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(
                path.as_bytes(),
            ));
            let at_head = entry(&head_tree, &path);
            (path, at_head)
        })
        .collect();
    let held = |tree: &git2::Tree<'_>, path: &std::path::Path, want: Option<Entry>| entry(tree, path) == want;
    let missing: Vec<String> = wanted
        .iter()
        .filter(|(path, want)| !held(&trunk_tree, path, *want))
        .map(|(path, _)| path.to_string_lossy().into_owned())
        .collect();
    if missing.is_empty() {
        return Ok(Integration::Holds { paths: wanted.len(), commit: trunk.to_string(), behind_tip: 0 });
    }
    // The tip does not hold them: walk its first parents back to the merge
    // base. The path that failed last is looked up first, so most commits
    // cost one tree lookup. A trunk whose tip is the merge base (HEAD is
    // ahead of it: the usual unlanded branch) has no commit since the base
    // but its tip, so there is nothing to walk; nor has one that shares no
    // commit with HEAD.
    let mut first =
        wanted.iter().position(|(p, _)| missing.first().is_some_and(|m| p.to_string_lossy() == *m)).unwrap_or(0);
    let mut current = commit_of(t)?;
    let mut searched_only = None;
    let mut behind_tip = 0;
    // The trunk commits walked, tip first: those between a squash merge
    // and the tip are asked whether they undid it.
    let mut walked = vec![t];
    let mut reverted = None;
    let nothing_since = base == Some(t) || base.is_none();
    let before_base = |oid: Oid| -> Reading<bool> {
        match base {
            Some(b) => repo
                .git
                .graph_descendant_of(b, oid)
                .map_err(|e| Unread::git(&format!("whether the merge base descends from {oid}"), &e)),
            None => Ok(false),
        }
    };
    while let Some(parent) = current.parent_ids().next().filter(|_| !nothing_since) {
        if Some(parent) == base {
            break;
        }
        if behind_tip == bound {
            searched_only = Some(bound);
            break;
        }
        behind_tip += 1;
        current = commit_of(parent)?;
        let tree = current.tree().map_err(|e| Unread::git(&format!("the tree of {parent}"), &e))?;
        let (path, want) = &wanted[first];
        if !held(&tree, path, *want) {
            walked.push(parent);
            continue;
        }
        match wanted.iter().position(|(path, want)| !held(&tree, path, *want)) {
            // A commit the merge base descends from came before the work:
            // what it holds is the history HEAD changed, never a landing of
            // it (a trunk whose first parents pass beside the base, a
            // colleague's `git pull` merging it in as a second parent, walks
            // on into the base's own ancestors: test/cases/606). Every first
            // parent further back is one of them too.
            None if before_base(parent)? => break,
            None => match undone(repo, &walked, &missing, base_tree.as_ref())? {
                None => return Ok(Integration::Holds { paths: wanted.len(), commit: parent.to_string(), behind_tip }),
                Some(at) => {
                    reverted = Some((parent.to_string(), at.to_string()));
                    break;
                }
            },
            Some(i) => first = i,
        }
        walked.push(parent);
    }
    let mode_only = wanted
        .iter()
        .filter(|(path, want)| {
            let now = entry(&trunk_tree, path);
            matches!((now, want), (Some(n), Some(w)) if n.0 == w.0 && n.1 != w.1)
        })
        .map(|(path, _)| path.to_string_lossy().into_owned())
        .collect();
    let (ahead, ahead_count) = commits_not_on(repo, head, Some(trunk))?;
    Ok(Integration::Missing { paths: missing, mode_only, reverted, ahead, ahead_count, searched_only })
}

/// [`Integration::Reached`], unless the trunk's tip holds a path HEAD
/// changed since `start` back as `start` had it: then missing, naming the
/// tip.
fn reached_since(repo: &Repo, h: Oid, t: Oid, start: Oid) -> Reading<Integration> {
    let tree_of = |oid: Oid| -> Reading<git2::Tree<'_>> {
        repo.git.find_commit(oid).and_then(|c| c.tree()).map_err(|e| Unread::git(&format!("the tree of {oid}"), &e))
    };
    // Work made on top of the start: a HEAD taken back behind it, or onto
    // another line, changed nothing the trunk could undo.
    if !repo.git.graph_descendant_of(h, start).unwrap_or(false) {
        return Ok(Integration::Reached);
    }
    let (start_tree, head_tree) = match (tree_of(start), tree_of(h)) {
        (Ok(s), Ok(h)) => (s, h),
        // A start commit this repository does not hold: the ancestry is
        // the reading, as before.
        _ => return Ok(Integration::Reached),
    };
    // Paths as bytes, as git names them (not every name is UTF-8).
    let changed: Vec<std::path::PathBuf> = crate::trees::changed_paths(&repo.git, Some(&start_tree), Some(&head_tree))
        .map_err(|e| Unread::git("HEAD's changes since the start", &e))?
        .iter()
        .map(|p| std::path::PathBuf::from(<std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(p.as_bytes())))
        .collect();
    // The tip alone is asked: one tree lookup per path, whatever the
    // trunk's history since (a path edited again since its revert is the
    // trunk's to say).
    let tip = tree_of(t)?;
    // Each directory read once, for every path asked (`trees::Lookup`).
    let (tip_at, start_at) =
        (crate::trees::Lookup::new(&repo.git, tip), crate::trees::Lookup::new(&repo.git, start_tree.clone()));
    let paths: Vec<String> = changed
        .iter()
        .filter(|p| tip_at.entry_at(p) == start_at.entry_at(p))
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if paths.is_empty() {
        return Ok(Integration::Reached);
    }
    Ok(Integration::Undone { paths, tip: t.to_string(), dropped: None, dropped_from: None })
}

/// A path's blob and mode in a tree; `None` where the tree has no such path.
type Entry = (Oid, i32);

fn entry(tree: &git2::Tree<'_>, path: &std::path::Path) -> Option<Entry> {
    tree.get_path(path).ok().map(|e| (e.id(), e.filemode()))
}

/// The oldest of `walked` (trunk commits after a squash merge, the tip
/// first) at which one of `paths` (those the tip does not hold as HEAD
/// does) is back as it was at the merge base: the commit that undid the
/// squash merge. `None` when the trunk only edited them since.
fn undone(repo: &Repo, walked: &[Oid], paths: &[String], base: Option<&git2::Tree<'_>>) -> Reading<Option<Oid>> {
    let before: Vec<(&std::path::Path, Option<Entry>)> = paths
        .iter()
        .map(|p| {
            let p = std::path::Path::new(p);
            (p, base.and_then(|b| entry(b, p)))
        })
        .collect();
    for oid in walked.iter().rev() {
        let tree = repo
            .git
            .find_commit(*oid)
            .and_then(|c| c.tree())
            .map_err(|e| Unread::git(&format!("the tree of {oid}"), &e))?;
        if before.iter().any(|(path, was)| entry(&tree, path) == *was) {
            return Ok(Some(*oid));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use majordomus_testkit::TestRepo;

    #[test]
    fn a_squash_merge_is_recognised_as_integrated() {
        let t = TestRepo::with_commit();
        t.git(&["checkout", "-q", "-b", "feature"]);
        t.write("src/a.rs", "a\n");
        t.commit_all("a");
        t.write("src/b.rs", "b\n");
        let feature = t.commit_all("b");
        t.git(&["checkout", "-q", "main"]);
        t.write("other.txt", "trunk moved on\n");
        t.commit_all("trunk work");
        let repo = crate::open(t.path()).expect("open");
        let main = t.head();
        assert!(matches!(
            integration(&repo, &feature, &main).expect("read"),
            Integration::Missing { ahead_count: 2, .. }
        ));
        t.git(&["merge", "-q", "--squash", "feature"]);
        t.git(&["commit", "-q", "-m", "squashed"]);
        let main = t.head();
        assert_eq!(
            integration(&repo, &feature, &main).expect("read"),
            Integration::Holds { paths: 2, commit: main.clone(), behind_tip: 0 }
        );
        t.git(&["merge", "-q", "--no-edit", "feature"]);
        assert_eq!(integration(&repo, &feature, &t.head()).expect("read"), Integration::Reached);
    }

    /// A trunk whose first parents pass beside the merge base (a
    /// colleague's `git pull` merged it in as a second parent) is walked
    /// no further than the base's own ancestors: one holding HEAD's
    /// content there came before the work (test/cases/606).
    #[test]
    fn a_commit_the_merge_base_descends_from_holds_no_squash_merge() {
        let t = TestRepo::with_commit();
        t.write("a.txt", "2\n");
        t.commit_all("two");
        t.git(&["branch", "colleague"]);
        t.write("a.txt", "1\n");
        t.commit_all("one");
        t.git(&["checkout", "-q", "-b", "feature"]);
        t.write("a.txt", "2\n");
        let feature = t.commit_all("two again");
        t.git(&["checkout", "-q", "colleague"]);
        t.write("a.txt", "3\n");
        t.commit_all("three");
        let _ = t.git_command(t.path()).args(["merge", "-q", "main"]).output();
        t.write("a.txt", "3\n");
        t.git(&["commit", "-q", "-am", "merged, ours"]);
        let repo = crate::open(t.path()).expect("open");
        match integration(&repo, &feature, &t.head()).expect("read") {
            Integration::Missing { paths, reverted: None, searched_only: None, .. } => assert_eq!(paths, ["a.txt"]),
            other => panic!("{other:?}"),
        }
        // The same change squash-merged on that trunk since holds it.
        let _ = t.git_command(t.path()).args(["merge", "-q", "--squash", "feature"]).output();
        t.write("a.txt", "2\n");
        t.git(&["commit", "-q", "-am", "feature, squashed"]);
        t.write("b.txt", "later\n");
        let tip = t.commit_all("later");
        t.write("a.txt", "4\n");
        let edited = t.commit_all("edited");
        assert_eq!(
            integration(&repo, &feature, &tip).expect("read"),
            Integration::Holds { paths: 1, commit: tip.clone(), behind_tip: 0 }
        );
        assert!(matches!(
            integration(&repo, &feature, &edited).expect("read"),
            Integration::Holds { behind_tip: 1, .. }
        ));
    }

    /// A `feature` branch off `main` setting `a.txt` to 3 and deleting
    /// `gone.txt`, squash-merged into `main`; returns (feature, squash).
    fn squash_merged_feature(t: &TestRepo) -> (String, String) {
        t.write("a.txt", "1\n");
        t.write("gone.txt", "soon\n");
        t.commit_all("base");
        t.git(&["checkout", "-q", "-b", "feature"]);
        t.write("a.txt", "3\n");
        t.remove("gone.txt");
        let feature = t.commit_all("a=3, no gone.txt");
        t.git(&["checkout", "-q", "main"]);
        t.write("other.txt", "trunk moved on\n");
        t.commit_all("trunk work");
        t.git(&["merge", "-q", "--squash", "feature"]);
        t.git(&["commit", "-q", "-m", "feature, squashed"]);
        (feature, t.head())
    }

    #[test]
    fn a_squash_merge_the_trunk_edited_since_is_still_integrated() {
        let t = TestRepo::with_commit();
        let (feature, squash) = squash_merged_feature(&t);
        t.write("a.txt", "4\n");
        t.commit_all("a=4 on the trunk");
        t.write("gone.txt", "back\n");
        t.commit_all("gone.txt again on the trunk");
        let repo = crate::open(t.path()).expect("open");
        assert_eq!(
            integration(&repo, &feature, &t.head()).expect("read"),
            Integration::Holds { paths: 2, commit: squash, behind_tip: 2 }
        );
    }

    #[test]
    fn a_trunk_that_never_held_heads_content_does_not_integrate_it() {
        let t = TestRepo::with_commit();
        let (_, _) = squash_merged_feature(&t);
        // More work on the feature after its squash merge: no trunk commit holds it.
        t.git(&["checkout", "-q", "feature"]);
        t.write("a.txt", "5\n");
        let feature = t.commit_all("a=5");
        t.git(&["checkout", "-q", "main"]);
        t.write("a.txt", "4\n");
        let main = t.commit_all("a=4 on the trunk");
        let repo = crate::open(t.path()).expect("open");
        match integration(&repo, &feature, &main).expect("read") {
            Integration::Missing { paths, searched_only, .. } => {
                assert_eq!(paths, ["a.txt"]);
                assert_eq!(searched_only, None);
            }
            other => panic!("expected missing, got {other:?}"),
        }
    }

    #[test]
    fn the_squash_search_stops_at_its_bound_and_says_so() {
        let t = TestRepo::with_commit();
        let (feature, squash) = squash_merged_feature(&t);
        t.write("a.txt", "4\n");
        t.commit_all("a=4 on the trunk");
        for n in 0..3 {
            t.write("other.txt", &format!("{n}\n"));
            t.commit_all("more trunk work");
        }
        let repo = crate::open(t.path()).expect("open");
        match integration_searching(&repo, &feature, &t.head(), None, 3).expect("read") {
            Integration::Missing { searched_only, .. } => assert_eq!(searched_only, Some(3)),
            other => panic!("expected missing, got {other:?}"),
        }
        assert_eq!(
            integration_searching(&repo, &feature, &t.head(), None, 4).expect("read"),
            Integration::Holds { paths: 2, commit: squash, behind_tip: 4 }
        );
    }

    /// Removes the loose object `id` from the object database.
    fn delete_object(t: &TestRepo, id: &str) {
        let path = t.path().join(".git/objects").join(&id[..2]).join(&id[2..]);
        std::fs::remove_file(&path).expect("a loose object");
    }

    #[test]
    fn a_branch_ahead_of_the_trunk_reads_no_trunk_commit_below_the_tip() {
        let t = TestRepo::with_commit();
        // One commit a minute: a history walk that hides the trunk stops a
        // few commits below its tip only where the dates tell it to.
        let commit_at = |minute: u32| t.commit_all_at_minute(minute);
        for n in 0..12 {
            t.write("trunk.txt", &format!("{n}\n"));
            commit_at(n);
        }
        let trunk = t.head();
        // Deep enough that listing the commits ahead (a walk that reads a
        // few of the trunk's commits past the tip, as git's does) stops
        // before it.
        let below = t.git(&["rev-parse", "HEAD~10"]).trim().to_string();
        t.git(&["checkout", "-q", "-b", "feature"]);
        t.write("feature.txt", "work\n");
        let feature = commit_at(12);
        // A walk down the trunk's history would read this commit and fail.
        delete_object(&t, &below);
        let repo = crate::open(t.path()).expect("open");
        match integration(&repo, &feature, &trunk).expect("read") {
            Integration::Missing { paths, ahead_count, searched_only, reverted, .. } => {
                assert_eq!(
                    (paths, ahead_count, searched_only, reverted),
                    (vec!["feature.txt".to_string()], 1, None, None)
                );
            }
            other => panic!("expected missing, got {other:?}"),
        }
    }

    #[test]
    fn a_history_of_its_own_that_only_deletes_a_file_is_not_held_by_a_trunk_that_still_has_it() {
        let t = TestRepo::with_commit();
        t.write("legacy.txt", "old\n");
        let main = t.commit_all("legacy");
        t.git(&["checkout", "-q", "--orphan", "cleanup"]);
        t.remove("legacy.txt");
        let cleanup = t.commit_all("no legacy.txt, on a history of its own");
        let repo = crate::open(t.path()).expect("open");
        match integration(&repo, &cleanup, &main).expect("read") {
            Integration::Missing { paths, .. } => assert_eq!(paths, ["legacy.txt"]),
            other => panic!("expected missing, got {other:?}"),
        }
        // The same tree as the trunk's: held.
        t.write("legacy.txt", "old\n");
        let same = t.commit_all("legacy.txt back");
        assert!(matches!(integration(&repo, &same, &main).expect("read"), Integration::Holds { .. }));
    }

    #[test]
    fn a_mode_change_the_trunk_lacks_is_missing_and_said_to_be_the_mode() {
        use std::os::unix::fs::PermissionsExt;
        let t = TestRepo::with_commit();
        t.write("run.sh", "echo hi\n");
        let main = t.commit_all("run.sh");
        t.git(&["checkout", "-q", "-b", "feature"]);
        let path = t.path().join("run.sh");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        let feature = t.commit_all("run.sh is executable");
        let repo = crate::open(t.path()).expect("open");
        match integration(&repo, &feature, &main).expect("read") {
            Integration::Missing { paths, mode_only, .. } => {
                assert_eq!((paths, mode_only), (vec!["run.sh".to_string()], vec!["run.sh".to_string()]));
            }
            other => panic!("expected missing, got {other:?}"),
        }
        t.git(&["checkout", "-q", "main"]);
        t.git(&["merge", "-q", "--squash", "feature"]);
        t.git(&["commit", "-q", "-m", "squashed"]);
        assert!(matches!(integration(&repo, &feature, &t.head()).expect("read"), Integration::Holds { .. }));
    }

    #[test]
    fn a_squash_merge_the_trunk_reverted_since_is_missing_and_names_the_revert() {
        let t = TestRepo::with_commit();
        let (feature, squash) = squash_merged_feature(&t);
        t.git(&["revert", "--no-edit", "HEAD"]);
        let revert = t.head();
        t.write("other.txt", "more trunk work\n");
        let tip = t.commit_all("more trunk work");
        let repo = crate::open(t.path()).expect("open");
        match integration(&repo, &feature, &tip).expect("read") {
            Integration::Missing { paths, reverted, .. } => {
                assert_eq!(paths, ["a.txt", "gone.txt"]);
                assert_eq!(reverted, Some((squash, revert)));
            }
            other => panic!("expected missing, got {other:?}"),
        }
    }

    #[test]
    fn a_squash_merge_reverted_and_then_edited_again_is_still_missing() {
        let t = TestRepo::with_commit();
        let (feature, _) = squash_merged_feature(&t);
        t.git(&["revert", "--no-edit", "HEAD"]);
        t.write("a.txt", "7\n");
        t.write("gone.txt", "other\n");
        let tip = t.commit_all("a=7 on the trunk");
        let repo = crate::open(t.path()).expect("open");
        assert!(matches!(
            integration(&repo, &feature, &tip).expect("read"),
            Integration::Missing { reverted: Some(_), .. }
        ));
    }
}
