//! HEAD, local branches and their upstreams, the trunk, what is not pushed
//! and whether the trunk holds HEAD's work.

use std::collections::HashMap;

use git2::{BranchType, ErrorCode, Oid};

use crate::{Reading, Repo, Unread};

/// At most this many commit ids are listed in a reading's details.
pub const LISTED: usize = 50;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    /// `None` when HEAD is unborn.
    pub commit: Option<String>,
    /// The checked-out branch (short name); `None` when detached.
    pub branch: Option<String>,
}

pub fn head(repo: &Repo) -> Reading<Head> {
    let reference = match repo.git.find_reference("HEAD") {
        Ok(r) => r,
        Err(e) => return Err(Unread::git("HEAD", &e)),
    };
    let branch = reference.symbolic_target().and_then(|t| t.strip_prefix("refs/heads/")).map(str::to_string);
    let commit = match repo.git.head() {
        Ok(h) => h.target().map(|o| o.to_string()),
        Err(e) if e.code() == ErrorCode::UnbornBranch || e.code() == ErrorCode::NotFound => None,
        Err(e) => return Err(Unread::git("HEAD", &e)),
    };
    Ok(Head { commit, branch })
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Branch {
    pub name: String,
    pub commit: String,
    pub upstream: Option<Upstream>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upstream {
    /// The full name of the upstream's ref, e.g. `refs/remotes/origin/main`.
    pub refname: String,
    /// Whether that ref exists now.
    pub exists: bool,
}

/// Every local branch with its commit and configured upstream.
///
/// The configuration is read once, as one snapshot, for all branches: asking
/// libgit2 for each branch's upstream takes a fresh configuration snapshot
/// per branch, which on a repository with thousands of branches was a
/// measurable share of `check` (bench/README.md).
pub fn branches(repo: &Repo) -> Reading<Vec<Branch>> {
    let tracking = tracking_config(repo)?;
    let mut remotes: HashMap<String, Vec<(String, String)>> = HashMap::new();
    let iter = repo.git.branches(Some(BranchType::Local)).map_err(|e| Unread::git("the local branches", &e))?;
    let mut out = Vec::new();
    for item in iter {
        let (branch, _) = item.map_err(|e| Unread::git("a local branch", &e))?;
        let reference = branch.get();
        let (Some(refname), Some(target)) = (reference.name(), reference.target()) else { continue };
        let name = refname.strip_prefix("refs/heads/").unwrap_or(refname).to_string();
        let upstream = match tracking.get(&name) {
            Some((Some(remote), Some(merge))) => upstream_ref(repo, &mut remotes, remote, merge)?,
            _ => None,
        };
        let upstream = match upstream {
            Some(refname) => {
                let exists = match repo.git.find_reference(&refname) {
                    Ok(_) => true,
                    Err(e) if e.code() == ErrorCode::NotFound => false,
                    Err(e) => return Err(Unread::git(&refname, &e)),
                };
                Some(Upstream { refname, exists })
            }
            None => None,
        };
        out.push(Branch { upstream, name, commit: target.to_string() });
    }
    Ok(out)
}

/// A branch's `remote` and `merge` settings.
type Tracking = (Option<String>, Option<String>);

/// `branch.<name>.remote` and `branch.<name>.merge` for every branch, from
/// one configuration snapshot.
fn tracking_config(repo: &Repo) -> Reading<HashMap<String, Tracking>> {
    let config = repo
        .git
        .config()
        .and_then(|mut c| c.snapshot())
        .map_err(|e| Unread::git("the repository's configuration", &e))?;
    let mut out: HashMap<String, Tracking> = HashMap::new();
    let mut entries = config
        .entries(Some(r"^branch\..*\.(remote|merge)$"))
        .map_err(|e| Unread::git("the branch configuration", &e))?;
    while let Some(entry) = entries.next() {
        let entry = entry.map_err(|e| Unread::git("the branch configuration", &e))?;
        let (Some(key), Some(value)) = (entry.name(), entry.value()) else { continue };
        let Some(rest) = key.strip_prefix("branch.") else { continue };
        if let Some(branch) = rest.strip_suffix(".remote") {
            out.entry(branch.to_string()).or_default().0 = Some(value.to_string());
        } else if let Some(branch) = rest.strip_suffix(".merge") {
            out.entry(branch.to_string()).or_default().1 = Some(value.to_string());
        }
    }
    Ok(out)
}

/// The remote-tracking ref a `branch.<name>.merge` lands in, through the
/// remote's fetch refspecs (`.` is the local repository itself).
fn upstream_ref(
    repo: &Repo,
    remotes: &mut HashMap<String, Vec<(String, String)>>,
    remote: &str,
    merge: &str,
) -> Reading<Option<String>> {
    if remote == "." {
        return Ok(Some(merge.to_string()));
    }
    if !remotes.contains_key(remote) {
        let specs = match repo.git.find_remote(remote) {
            Ok(r) => r
                .refspecs()
                .filter(|s| s.direction() == git2::Direction::Fetch)
                .filter_map(|s| Some((s.src()?.to_string(), s.dst()?.to_string())))
                .collect(),
            Err(e) if e.code() == ErrorCode::NotFound || e.code() == ErrorCode::InvalidSpec => Vec::new(),
            Err(e) => return Err(Unread::git(&format!("the remote {remote}"), &e)),
        };
        remotes.insert(remote.to_string(), specs);
    }
    Ok(remotes[remote].iter().find_map(|(src, dst)| map_refspec(src, dst, merge)))
}

/// Maps `name` through one refspec side pair (`refs/heads/*` →
/// `refs/remotes/origin/*`), as git does for a fetch.
fn map_refspec(src: &str, dst: &str, name: &str) -> Option<String> {
    match (src.split_once('*'), dst.split_once('*')) {
        (Some((sp, ss)), Some((dp, ds))) => {
            let middle = name.strip_prefix(sp)?.strip_suffix(ss)?;
            Some(format!("{dp}{middle}{ds}"))
        }
        (None, None) if src == name => Some(dst.to_string()),
        _ => None,
    }
}

/// The branch changes are measured against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trunk {
    pub refname: String,
    pub commit: String,
    /// How it was chosen, for the evidence.
    pub chosen_by: String,
}

/// Finds the trunk: the policy's choice, else the remote's default branch
/// (`origin/HEAD`), else `origin/main`, `origin/master`, `main`, `master`.
/// `Ok(None)` when none exists.
pub fn trunk(repo: &Repo, remote: Option<&str>, branch: Option<&str>) -> Reading<Option<Trunk>> {
    let mut candidates: Vec<(String, &str)> = Vec::new();
    match (remote, branch) {
        (Some(r), Some(b)) => candidates.push((format!("refs/remotes/{r}/{b}"), "the policy's [trunk]")),
        (Some(r), None) => {
            candidates.push((format!("refs/remotes/{r}/HEAD"), "the policy's [trunk] remote's default branch"))
        }
        (None, Some(b)) => {
            candidates.push((format!("refs/remotes/origin/{b}"), "the policy's [trunk] branch on origin"));
            candidates.push((format!("refs/heads/{b}"), "the policy's [trunk] branch"));
        }
        (None, None) => {
            candidates.push(("refs/remotes/origin/HEAD".into(), "the remote's default branch (origin/HEAD)"));
            for name in
                ["refs/remotes/origin/main", "refs/remotes/origin/master", "refs/heads/main", "refs/heads/master"]
            {
                candidates.push((name.into(), "the conventional trunk name"));
            }
        }
    }
    for (name, chosen_by) in candidates {
        match repo.git.find_reference(&name) {
            Ok(reference) => {
                let resolved = reference.resolve().map_err(|e| Unread::git(&name, &e))?;
                let refname = resolved.name().unwrap_or(&name).to_string();
                let Some(target) = resolved.target() else { continue };
                return Ok(Some(Trunk { refname, commit: target.to_string(), chosen_by: chosen_by.to_string() }));
            }
            Err(e) if e.code() == ErrorCode::NotFound || e.code() == ErrorCode::InvalidSpec => continue,
            Err(e) => return Err(Unread::git(&name, &e)),
        }
    }
    Ok(None)
}

/// The names of the configured remotes.
pub fn remotes(repo: &Repo) -> Reading<Vec<String>> {
    let names = repo.git.remotes().map_err(|e| Unread::git("the remotes", &e))?;
    Ok(names.iter().flatten().map(str::to_string).collect())
}

/// Commits reachable from `tip` and not from `base`: at most [`LISTED`] ids
/// (newest first) and the full count.
pub fn commits_not_on(repo: &Repo, tip: &str, base: Option<&str>) -> Reading<(Vec<String>, usize)> {
    let mut walk = repo.git.revwalk().map_err(|e| Unread::git("the history", &e))?;
    walk.push(parse(tip)?).map_err(|e| Unread::git(tip, &e))?;
    if let Some(base) = base {
        walk.hide(parse(base)?).map_err(|e| Unread::git(base, &e))?;
    }
    collect(walk)
}

/// Commits reachable from `tip` and from neither `a` nor `b`.
pub fn commits_not_on_either(repo: &Repo, tip: &str, a: &str, b: &str) -> Reading<(Vec<String>, usize)> {
    let mut walk = repo.git.revwalk().map_err(|e| Unread::git("the history", &e))?;
    walk.push(parse(tip)?).map_err(|e| Unread::git(tip, &e))?;
    walk.hide(parse(a)?).map_err(|e| Unread::git(a, &e))?;
    walk.hide(parse(b)?).map_err(|e| Unread::git(b, &e))?;
    collect(walk)
}

fn collect(walk: git2::Revwalk<'_>) -> Reading<(Vec<String>, usize)> {
    let mut listed = Vec::new();
    let mut count = 0;
    for oid in walk {
        let oid = oid.map_err(|e| Unread::git("the history", &e))?;
        if listed.len() < LISTED {
            listed.push(oid.to_string());
        }
        count += 1;
    }
    Ok((listed, count))
}

/// Whether `commit` exists in the repository.
pub fn has_commit(repo: &Repo, commit: &str) -> bool {
    Oid::from_str(commit).ok().and_then(|o| repo.git.find_commit(o).ok()).is_some()
}

fn parse(id: &str) -> Reading<Oid> {
    Oid::from_str(id).map_err(|e| Unread::git(&format!("commit id {id}"), &e))
}

/// How the trunk relates to HEAD's work.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Integration {
    /// The trunk's history contains HEAD.
    Reached,
    /// The trunk does not contain HEAD, but holds every path HEAD changed
    /// since their merge base with the same content: a squash or rebase merge.
    Holds { paths: usize },
    /// Paths HEAD changed that the trunk does not hold, and the commits ahead.
    Missing { paths: Vec<String>, ahead: Vec<String>, ahead_count: usize },
}

pub fn integration(repo: &Repo, head: &str, trunk: &str) -> Reading<Integration> {
    let (h, t) = (parse(head)?, parse(trunk)?);
    if h == t || repo.git.graph_descendant_of(t, h).map_err(|e| Unread::git("the trunk's history", &e))? {
        return Ok(Integration::Reached);
    }
    let base = match repo.git.merge_base(h, t) {
        Ok(b) => Some(b),
        Err(e) if e.code() == ErrorCode::NotFound => None,
        Err(e) => return Err(Unread::git("the merge base of HEAD and the trunk", &e)),
    };
    let tree_of = |oid: Oid| -> Reading<git2::Tree<'_>> {
        repo.git.find_commit(oid).and_then(|c| c.tree()).map_err(|e| Unread::git(&format!("the tree of {oid}"), &e))
    };
    let head_tree = tree_of(h)?;
    let trunk_tree = tree_of(t)?;
    let base_tree = base.map(tree_of).transpose()?;
    let diff = repo
        .git
        .diff_tree_to_tree(base_tree.as_ref(), Some(&head_tree), None)
        .map_err(|e| Unread::git("HEAD's changes since the merge base", &e))?;
    let mut missing = Vec::new();
    let mut total = 0;
    for delta in diff.deltas() {
        let Some(path) = delta.new_file().path().or(delta.old_file().path()) else { continue };
        total += 1;
        let want = head_tree.get_path(path).ok().map(|e| e.id());
        let have = trunk_tree.get_path(path).ok().map(|e| e.id());
        if want != have {
            missing.push(path.to_string_lossy().into_owned());
        }
    }
    if missing.is_empty() {
        return Ok(Integration::Holds { paths: total });
    }
    let (ahead, ahead_count) = commits_not_on(repo, head, Some(trunk))?;
    Ok(Integration::Missing { paths: missing, ahead, ahead_count })
}

#[cfg(test)]
mod tests {
    use super::*;
    use majordomus_testkit::TestRepo;

    #[test]
    fn an_unborn_head_has_a_branch_and_no_commit() {
        let t = TestRepo::new();
        let repo = crate::open(t.path()).expect("open");
        assert_eq!(head(&repo).expect("head"), Head { commit: None, branch: Some("main".into()) });
    }

    #[test]
    fn a_branch_whose_upstream_was_deleted_reads_as_gone() {
        let t = TestRepo::with_commit();
        let _origin = t.with_origin();
        t.git(&["checkout", "-q", "-b", "feature"]);
        t.git(&["push", "-q", "-u", "origin", "feature"]);
        t.git(&["push", "-q", "origin", "--delete", "feature"]);
        let repo = crate::open(t.path()).expect("open");
        let all = branches(&repo).expect("branches");
        let feature = all.iter().find(|b| b.name == "feature").expect("feature");
        assert_eq!(feature.upstream, Some(Upstream { refname: "refs/remotes/origin/feature".into(), exists: false }));
        let main = all.iter().find(|b| b.name == "main").expect("main");
        assert!(main.upstream.as_ref().expect("main tracks origin").exists);
    }

    #[test]
    fn upstreams_map_through_the_remotes_fetch_refspec_as_git_does() {
        let t = TestRepo::with_commit();
        let _origin = t.with_origin();
        t.git(&["config", "remote.origin.fetch", "+refs/heads/*:refs/remotes/mirror/*"]);
        t.git(&["branch", "-q", "local-tracking"]);
        t.git(&["config", "branch.local-tracking.remote", "."]);
        t.git(&["config", "branch.local-tracking.merge", "refs/heads/main"]);
        t.git(&["branch", "-q", "with.dots/and-slashes"]);
        t.git(&["config", "branch.with.dots/and-slashes.remote", "origin"]);
        t.git(&["config", "branch.with.dots/and-slashes.merge", "refs/heads/x"]);
        let repo = crate::open(t.path()).expect("open");
        let all = branches(&repo).expect("branches");
        let up = |n: &str| all.iter().find(|b| b.name == n).expect("branch").upstream.clone();
        assert_eq!(up("main").expect("main").refname, "refs/remotes/mirror/main");
        assert_eq!(up("local-tracking"), Some(Upstream { refname: "refs/heads/main".into(), exists: true }));
        assert_eq!(up("with.dots/and-slashes").expect("tracks").refname, "refs/remotes/mirror/x");
        assert_eq!(
            map_refspec("refs/heads/main", "refs/remotes/origin/trunk", "refs/heads/main").as_deref(),
            Some("refs/remotes/origin/trunk")
        );
        assert_eq!(map_refspec("refs/heads/*", "refs/remotes/o/*", "refs/tags/v1"), None);
    }

    #[test]
    fn the_trunk_is_the_remotes_default_branch_then_a_conventional_name() {
        let t = TestRepo::with_commit();
        let repo = crate::open(t.path()).expect("open");
        assert_eq!(trunk(&repo, None, None).expect("trunk").expect("main").refname, "refs/heads/main");
        let _origin = t.with_origin();
        let found = trunk(&repo, None, None).expect("trunk").expect("origin");
        assert_eq!(found.refname, "refs/remotes/origin/main");
        assert!(found.chosen_by.contains("origin/HEAD"), "{}", found.chosen_by);
        assert_eq!(trunk(&repo, None, Some("nope")).expect("trunk"), None);
    }

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
        assert_eq!(integration(&repo, &feature, &main).expect("read"), Integration::Holds { paths: 2 });
        t.git(&["merge", "-q", "--no-edit", "feature"]);
        assert_eq!(integration(&repo, &feature, &t.head()).expect("read"), Integration::Reached);
    }

    #[test]
    fn commits_not_on_a_base_are_counted() {
        let t = TestRepo::with_commit();
        let base = t.head();
        t.commit_all("one");
        let tip = t.commit_all("two");
        let repo = crate::open(t.path()).expect("open");
        let (listed, count) = commits_not_on(&repo, &tip, Some(&base)).expect("walk");
        assert_eq!(count, 2);
        assert_eq!(listed[0], tip);
    }
}
