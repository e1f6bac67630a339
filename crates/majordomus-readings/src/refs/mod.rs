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
    /// The branch it names: `main` for `refs/heads/main` and for
    /// `refs/remotes/<remote>/main`.
    pub branch: String,
    pub commit: String,
    /// How it was chosen, for the evidence.
    pub chosen_by: String,
}

/// The branch a trunk ref names. A remote's name may hold a `/`, so the
/// remote is the longest configured remote the ref lies under.
fn branch_of(repo: &Repo, refname: &str) -> String {
    if let Some(b) = refname.strip_prefix("refs/heads/") {
        return b.to_string();
    }
    let Some(rest) = refname.strip_prefix("refs/remotes/") else { return refname.to_string() };
    let remotes = repo.git.remotes().ok();
    let remote = remotes
        .iter()
        .flat_map(|names| names.iter().flatten())
        .filter(|r| rest.len() > r.len() + 1 && rest.starts_with(r) && rest.as_bytes()[r.len()] == b'/')
        .max_by_key(|r| r.len());
    match remote {
        Some(r) => rest[r.len() + 1..].to_string(),
        None => rest.split_once('/').map_or(rest, |(_, b)| b).to_string(),
    }
}

/// No trunk was found: what was asked for and every ref looked at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoTrunk {
    /// What the policy's `[trunk]` named (`branch "dev" on remote "up"`);
    /// `None` when it named nothing.
    pub asked: Option<String>,
    /// Why no remote was looked at, when none was.
    pub remote_note: Option<String>,
    /// The refs looked at, short names (`origin/HEAD`, `main`), in order.
    pub tried: Vec<String>,
}

impl NoTrunk {
    /// The sentence an unread trunk gives.
    pub fn reason(&self) -> String {
        let tried = or_list(&self.tried);
        match &self.asked {
            Some(asked) => format!(
                "no trunk was found: the policy's [trunk] names {asked}, and there is no {tried}; correct the policy's [trunk]"
            ),
            None => {
                let note = self.remote_note.as_deref().map(|n| format!(" ({n})")).unwrap_or_default();
                format!("no trunk was found: no {tried}{note}; name it in the policy's [trunk]")
            }
        }
    }
}

/// `a, b or c`.
fn or_list(items: &[String]) -> String {
    match items {
        [] => "ref at all".to_string(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// The remote whose branches the trunk is looked for on, and how it was
/// chosen: `origin`; else the only remote; else, among several, the remote
/// of HEAD's branch's upstream. `Err` says why none was chosen.
fn trunk_remote(repo: &Repo) -> Reading<Result<(String, String), String>> {
    let names = remotes(repo)?;
    if names.is_empty() || names.iter().any(|n| n == "origin") {
        // With no remote configured, refs left under `origin` still count.
        return Ok(Ok(("origin".to_string(), String::new())));
    }
    if let [only] = names.as_slice() {
        return Ok(Ok((only.clone(), format!("{only} is the only remote"))));
    }
    let listed = names.join(", ");
    let Some(branch) = head(repo)?.branch else {
        return Ok(Err(format!(
            "of the remotes {listed} none is origin, and HEAD is detached, so no upstream names one"
        )));
    };
    let tracking = tracking_config(repo)?;
    match tracking.get(&branch).and_then(|(remote, _)| remote.as_deref()) {
        Some(remote) if names.iter().any(|n| n == remote) => {
            Ok(Ok((remote.to_string(), format!("{remote} is the remote of {branch}'s upstream"))))
        }
        _ => Ok(Err(format!("of the remotes {listed} none is origin, and {branch} has no upstream on one of them"))),
    }
}

/// Finds the trunk: the policy's choice, else the remote's default branch
/// (`<remote>/HEAD`), else `<remote>/main`, `<remote>/master`, `main`,
/// `master`. The remote is `origin`, else the only remote, else the remote
/// of HEAD's branch's upstream ([`trunk_remote`]). `Ok(Err)` says what was
/// looked for when none exists.
pub fn trunk(repo: &Repo, remote: Option<&str>, branch: Option<&str>) -> Reading<Result<Trunk, NoTrunk>> {
    let mut candidates: Vec<(String, String)> = Vec::new();
    let mut remote_note = None;
    let asked = match (remote, branch) {
        (Some(r), Some(b)) => {
            candidates.push((format!("refs/remotes/{r}/{b}"), "the policy's [trunk]".into()));
            Some(format!("branch {b:?} on remote {r:?}"))
        }
        (Some(r), None) => {
            candidates.push((format!("refs/remotes/{r}/HEAD"), "the policy's [trunk] remote's default branch".into()));
            for b in ["main", "master"] {
                candidates.push((
                    format!("refs/remotes/{r}/{b}"),
                    "the policy's [trunk] remote and the conventional name".into(),
                ));
            }
            Some(format!("remote {r:?}"))
        }
        (None, Some(b)) => {
            match trunk_remote(repo)? {
                Ok((r, why)) => {
                    let why = if why.is_empty() { String::new() } else { format!("; {why}") };
                    candidates
                        .push((format!("refs/remotes/{r}/{b}"), format!("the policy's [trunk] branch on {r}{why}")));
                }
                Err(note) => remote_note = Some(note),
            }
            candidates.push((format!("refs/heads/{b}"), "the policy's [trunk] branch".into()));
            Some(format!("branch {b:?}"))
        }
        (None, None) => {
            match trunk_remote(repo)? {
                Ok((r, why)) => {
                    let why = if why.is_empty() { String::new() } else { format!("; {why}") };
                    candidates.push((
                        format!("refs/remotes/{r}/HEAD"),
                        format!("the remote's default branch ({r}/HEAD{why})"),
                    ));
                    for b in ["main", "master"] {
                        candidates.push((
                            format!("refs/remotes/{r}/{b}"),
                            format!("the conventional trunk name on {r}{why}"),
                        ));
                    }
                }
                Err(note) => remote_note = Some(note),
            }
            let local = match &remote_note {
                Some(note) => format!("the conventional trunk name, locally: {note}"),
                None => "the conventional trunk name".to_string(),
            };
            for name in ["refs/heads/main", "refs/heads/master"] {
                candidates.push((name.into(), local.clone()));
            }
            None
        }
    };
    for (name, chosen_by) in &candidates {
        match repo.git.find_reference(name) {
            Ok(reference) => {
                let resolved = match reference.resolve() {
                    Ok(r) => r,
                    // A symbolic ref naming nothing (an `origin/HEAD` left
                    // behind by a deleted branch) names no trunk: the next
                    // candidate does.
                    Err(e)
                        if e.code() == ErrorCode::NotFound
                            && reference.kind() == Some(git2::ReferenceType::Symbolic) =>
                    {
                        continue
                    }
                    Err(e) => return Err(Unread::git(name, &e)),
                };
                let refname = resolved.name().unwrap_or(name).to_string();
                let Some(target) = resolved.target() else { continue };
                let branch = branch_of(repo, &refname);
                return Ok(Ok(Trunk { refname, branch, commit: target.to_string(), chosen_by: chosen_by.clone() }));
            }
            Err(e) if e.code() == ErrorCode::NotFound || e.code() == ErrorCode::InvalidSpec => continue,
            Err(e) => return Err(Unread::git(name, &e)),
        }
    }
    let tried = candidates
        .iter()
        .map(|(name, _)| {
            name.strip_prefix("refs/remotes/").or_else(|| name.strip_prefix("refs/heads/")).unwrap_or(name).to_string()
        })
        .collect();
    Ok(Err(NoTrunk { asked, remote_note, tried }))
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

/// How many of the trunk's first-parent commits [`integration`] searches
/// for one holding HEAD's changes, newest first.
pub const SQUASH_SEARCH: usize = 2_000;

/// How the trunk relates to HEAD's work.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    /// Paths HEAD changed that the trunk's tip does not hold, and the
    /// commits ahead; no trunk commit searched held them all.
    Missing {
        paths: Vec<String>,
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
    integration_searching(repo, head, trunk, SQUASH_SEARCH)
}

/// [`integration`], searching at most `bound` trunk commits before its tip.
fn integration_searching(repo: &Repo, head: &str, trunk: &str, bound: usize) -> Reading<Integration> {
    let (h, t) = (parse(head)?, parse(trunk)?);
    if h == t || repo.git.graph_descendant_of(t, h).map_err(|e| Unread::git("the trunk's history", &e))? {
        return Ok(Integration::Reached);
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
    let diff = repo
        .git
        .diff_tree_to_tree(base_tree.as_ref(), Some(&head_tree), None)
        .map_err(|e| Unread::git("HEAD's changes since the merge base", &e))?;
    // Each path HEAD changed, with the blob HEAD holds there (`None`: deleted).
    let mut wanted: Vec<(std::path::PathBuf, Option<Oid>)> = Vec::new();
    for delta in diff.deltas() {
        let Some(path) = delta.new_file().path().or(delta.old_file().path()) else { continue };
        let want = head_tree.get_path(path).ok().map(|e| e.id());
        wanted.push((path.to_path_buf(), want));
    }
    let held = |tree: &git2::Tree<'_>, path: &std::path::Path, want: Option<Oid>| {
        tree.get_path(path).ok().map(|e| e.id()) == want
    };
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
    // cost one tree lookup.
    let mut first =
        wanted.iter().position(|(p, _)| missing.first().is_some_and(|m| p.to_string_lossy() == *m)).unwrap_or(0);
    let mut current = commit_of(t)?;
    let mut searched_only = None;
    let mut behind_tip = 0;
    while let Some(parent) = current.parent_ids().next() {
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
            continue;
        }
        match wanted.iter().position(|(path, want)| !held(&tree, path, *want)) {
            None => {
                return Ok(Integration::Holds { paths: wanted.len(), commit: parent.to_string(), behind_tip });
            }
            Some(i) => first = i,
        }
    }
    let (ahead, ahead_count) = commits_not_on(repo, head, Some(trunk))?;
    Ok(Integration::Missing { paths: missing, ahead, ahead_count, searched_only })
}

#[cfg(test)]
mod tests {
    use super::*;
    use majordomus_testkit::{TempDir, TestRepo};

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
        let none = trunk(&repo, None, Some("nope")).expect("trunk").expect_err("no such branch");
        assert_eq!(none.tried, ["origin/nope", "nope"]);
    }

    /// A remote named `name`, a bare repository beside `t` with `main`
    /// pushed, and `name/HEAD` set; `main` does not track it.
    fn add_remote(t: &TestRepo, name: &str) -> TempDir {
        let bare = tempfile::Builder::new().prefix("majordomus-remote-").tempdir().expect("tempdir");
        t.git_in(bare.path(), &["init", "-q", "--bare", "-b", "main"]);
        t.git(&["remote", "add", name, bare.path().to_str().expect("utf-8")]);
        t.git(&["push", "-q", name, "main"]);
        t.git(&["remote", "set-head", name, "main"]);
        bare
    }

    #[test]
    fn the_trunks_branch_is_read_past_a_remote_name_that_holds_a_slash() {
        let t = TestRepo::with_commit();
        let remote = t
            .path()
            .parent()
            .expect("parent")
            .join(format!("{}-slashed.git", t.path().file_name().expect("name").to_string_lossy()));
        t.git(&["init", "-q", "--bare", remote.to_str().expect("utf8")]);
        t.git(&["remote", "add", "team/origin", remote.to_str().expect("utf8")]);
        t.git(&["push", "-q", "team/origin", "HEAD:refs/heads/main"]);
        t.git(&["fetch", "-q", "team/origin"]);
        let repo = crate::open(t.path()).expect("open");
        let found = trunk(&repo, Some("team/origin"), None).expect("read").expect("a trunk");
        assert_eq!((found.refname.as_str(), found.branch.as_str()), ("refs/remotes/team/origin/main", "main"));
        assert_eq!(branch_of(&repo, "refs/heads/release/2.0"), "release/2.0");
        std::fs::remove_dir_all(remote).expect("cleanup");
    }

    #[test]
    fn a_dangling_remote_head_falls_through_to_the_conventional_name() {
        let t = TestRepo::with_commit();
        let remote = t
            .path()
            .parent()
            .expect("parent")
            .join(format!("{}-dangling.git", t.path().file_name().expect("name").to_string_lossy()));
        t.git(&["init", "-q", "--bare", remote.to_str().expect("utf8")]);
        t.git(&["remote", "add", "origin", remote.to_str().expect("utf8")]);
        t.git(&["push", "-q", "origin", "HEAD:refs/heads/main"]);
        t.git(&["fetch", "-q", "origin"]);
        t.git(&["symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/gone"]);
        let repo = crate::open(t.path()).expect("open");
        let found = trunk(&repo, None, None).expect("read").expect("a trunk");
        assert_eq!(found.refname, "refs/remotes/origin/main");
        std::fs::remove_dir_all(remote).expect("cleanup");
    }

    #[test]
    fn a_sole_remote_not_named_origin_gives_the_trunk() {
        let t = TestRepo::with_commit();
        let _gh = add_remote(&t, "gh");
        t.git(&["commit", "-q", "--allow-empty", "-m", "local work"]);
        let repo = crate::open(t.path()).expect("open");
        let found = trunk(&repo, None, None).expect("trunk").expect("gh");
        assert_eq!(found.refname, "refs/remotes/gh/main");
        assert!(found.chosen_by.contains("gh/HEAD") && found.chosen_by.contains("only remote"), "{}", found.chosen_by);
        t.git(&["remote", "set-head", "gh", "-d"]);
        let found = trunk(&repo, None, None).expect("trunk").expect("gh/main");
        assert_eq!(found.refname, "refs/remotes/gh/main");
        assert!(found.chosen_by.contains("conventional trunk name on gh"), "{}", found.chosen_by);
    }

    #[test]
    fn among_several_remotes_the_upstreams_remote_gives_the_trunk() {
        let t = TestRepo::with_commit();
        let (_a, _b) = (add_remote(&t, "a"), add_remote(&t, "b"));
        let repo = crate::open(t.path()).expect("open");
        let local = trunk(&repo, None, None).expect("trunk").expect("local main");
        assert_eq!(local.refname, "refs/heads/main");
        assert!(local.chosen_by.contains("none is origin"), "{}", local.chosen_by);
        t.git(&["branch", "-q", "--set-upstream-to", "b/main"]);
        let found = trunk(&repo, None, None).expect("trunk").expect("b");
        assert_eq!(found.refname, "refs/remotes/b/main");
        assert!(found.chosen_by.contains("b is the remote of main's upstream"), "{}", found.chosen_by);
    }

    #[test]
    fn a_trunk_the_policy_names_but_that_does_not_exist_says_what_was_asked() {
        let t = TestRepo::with_commit();
        let _gh = add_remote(&t, "gh");
        let repo = crate::open(t.path()).expect("open");
        let none = trunk(&repo, None, Some("develop")).expect("trunk").expect_err("no develop");
        assert_eq!(none.tried, ["gh/develop", "develop"]);
        assert!(none.reason().contains(r#"names branch "develop""#), "{}", none.reason());
        let none = trunk(&repo, Some("up"), None).expect("trunk").expect_err("no remote up");
        assert!(none.reason().contains(r#"remote "up""#) && none.reason().contains("up/HEAD"), "{}", none.reason());
        assert!(trunk(&repo, Some("gh"), None).expect("trunk").is_ok());
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
        assert_eq!(
            integration(&repo, &feature, &main).expect("read"),
            Integration::Holds { paths: 2, commit: main.clone(), behind_tip: 0 }
        );
        t.git(&["merge", "-q", "--no-edit", "feature"]);
        assert_eq!(integration(&repo, &feature, &t.head()).expect("read"), Integration::Reached);
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
        match integration_searching(&repo, &feature, &t.head(), 3).expect("read") {
            Integration::Missing { searched_only, .. } => assert_eq!(searched_only, Some(3)),
            other => panic!("expected missing, got {other:?}"),
        }
        assert_eq!(
            integration_searching(&repo, &feature, &t.head(), 4).expect("read"),
            Integration::Holds { paths: 2, commit: squash, behind_tip: 4 }
        );
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
