//! Every local branch, its commit and its configured upstream, and the
//! remotes.

use std::collections::HashMap;

use git2::ErrorCode;

use git2::Oid;

use super::local::{self, Known};

use crate::{Reading, Repo, Unread};

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
pub fn branches(repo: &Repo) -> Reading<Vec<Branch>> {
    let tips = local::branch_tips(repo.common_dir(), &mut Known::default())?;
    branches_of(repo, tips.tips)
}

/// The local branches whose tips (full ref names, sorted, and commits)
/// [`local::branch_tips`] read, each with its configured upstream.
///
/// The configuration is read once, as one snapshot, for all branches: asking
/// libgit2 for each branch's upstream takes a fresh configuration snapshot
/// per branch, which on a repository with thousands of branches was a
/// measurable share of `check` (bench/README.md).
pub fn branches_of(repo: &Repo, tips: Vec<(String, Oid)>) -> Reading<Vec<Branch>> {
    let tracking = tracking_config(repo)?;
    let mut remotes: HashMap<String, Vec<(String, String)>> = HashMap::new();
    let mut out = Vec::with_capacity(tips.len());
    for (mut name, target) in tips {
        // The short name, in the full name's own buffer.
        if name.starts_with("refs/heads/") {
            name.replace_range(.."refs/heads/".len(), "");
        }
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
        out.push(Branch { upstream, name, commit: crate::hex(target) });
    }
    Ok(out)
}

/// A branch's `remote` and `merge` settings.
type Tracking = (Option<String>, Option<String>);

/// `branch.<name>.remote` and `branch.<name>.merge` for every branch, from
/// one configuration snapshot.
pub(super) fn tracking_config(repo: &Repo) -> Reading<HashMap<String, Tracking>> {
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

/// The names of the configured remotes.
pub fn remotes(repo: &Repo) -> Reading<Vec<String>> {
    let names = repo.git.remotes().map_err(|e| Unread::git("the remotes", &e))?;
    Ok(names.iter().flatten().map(str::to_string).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use majordomus_testkit::TestRepo;

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
}
