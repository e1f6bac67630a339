//! Every local branch, its commit and its configured upstream, and the
//! remotes.

use std::collections::{BTreeMap, HashMap};

use git2::{ErrorCode, Oid};
use majordomus_records::names::Names;

use super::local::{self, Known};

use crate::{Reading, Repo, Unread};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Branch {
    pub name: String,
    pub commit: String,
    pub upstream: Option<Upstream>,
    /// Its tip is the commit the task's start snapshot recorded for it: it
    /// holds nothing made since (false where no snapshot was given).
    /// Asked once here for every reading that sets such branches aside
    /// (at ten thousand branches, each asking the snapshot again was a
    /// tenth of a check).
    pub at_start: bool,
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
    branches_of(repo, tips.tips, None, None)
}

/// The local branches whose tips (full ref names, sorted, and commits)
/// [`local::branch_tips`] read, each with its configured upstream.
///
/// The configuration is read once, as one snapshot, for all branches: asking
/// libgit2 for each branch's upstream takes a fresh configuration snapshot
/// per branch, which on a repository with thousands of branches was a
/// measurable share of `check` (bench/README.md).
///
/// Whether an upstream exists is read from `remote_now` (every direct ref
/// under `refs/remotes/` now, [`super::evidence::remote_refs`]) and the
/// local branches, where given; a name in neither (a symbolic ref, a
/// namespace of its own) is asked of libgit2, as every one was: a lookup
/// opens the ref file, and a repository can hold a thousand upstreams.
///
/// `at_start`, the start snapshot's branches (short names) where there is
/// one, says which branches are still at the commit it recorded
/// ([`Branch::at_start`]).
pub fn branches_of(
    repo: &Repo,
    tips: Vec<(String, Oid)>,
    remote_now: Option<&BTreeMap<String, String>>,
    at_start: Option<&Names>,
) -> Reading<Vec<Branch>> {
    let tracking = tracking_config(repo)?;
    let mut remotes: HashMap<String, Vec<(String, String)>> = HashMap::new();
    // `tips` is sorted by name: a local branch is found in it by a search.
    debug_assert!(tips.windows(2).all(|w| w[0].0 < w[1].0), "the tips come sorted");
    let local = |refname: &str| tips.binary_search_by(|(name, _)| name.as_str().cmp(refname)).is_ok();
    let known = |refname: &str| remote_now.is_some_and(|r| r.contains_key(refname) || local(refname));
    // Each branch with tracking settings, looked for among the tips: a
    // repository holds far fewer of them than branches.
    let mut tracked: Vec<(usize, &str, &str)> = tracking
        .iter()
        .filter_map(|(branch, setting)| {
            let (Some(remote), Some(merge)) = setting else { return None };
            let full = format!("refs/heads/{branch}");
            let i = tips.binary_search_by(|(name, _)| name.as_str().cmp(&full)).ok()?;
            Some((i, remote.as_str(), merge.as_str()))
        })
        .collect();
    // In the branches' order, as each was asked before: of two unreadable,
    // the same is named every time.
    tracked.sort_unstable();
    // By the branch's position in `tips`, in its order: taken in the one
    // pass below (a map asked once per branch hashed ten thousand
    // positions for the few branches that track one).
    let mut upstreams: Vec<(usize, Upstream)> = Vec::with_capacity(tracked.len());
    for (i, remote, merge) in tracked {
        let Some(refname) = upstream_ref(repo, &mut remotes, remote, merge)? else { continue };
        let exists = known(&refname)
            || match repo.git.find_reference(&refname) {
                Ok(_) => true,
                Err(e) if e.code() == ErrorCode::NotFound => false,
                Err(e) => return Err(Unread::git(&refname, &e)),
            };
        upstreams.push((i, Upstream { refname, exists }));
    }
    let mut upstreams = upstreams.into_iter().peekable();
    let mut then = at_start.map(Names::in_order);
    let mut out = Vec::with_capacity(tips.len());
    for (i, (mut name, target)) in tips.into_iter().enumerate() {
        // The short name, in the full name's own buffer.
        if name.starts_with("refs/heads/") {
            name.replace_range(.."refs/heads/".len(), "");
        }
        let commit = crate::hex(target);
        // Short names keep the full names' order: looked up in one pass.
        let at_start = then.as_mut().and_then(|t| t.get(&name)) == Some(&commit);
        let upstream = upstreams.next_if(|(j, _)| *j == i).map(|(_, u)| u);
        out.push(Branch { upstream, name, commit, at_start });
    }
    Ok(out)
}

/// A branch's `remote` and `merge` settings.
type Tracking = (Option<String>, Option<String>);

/// `branch.<name>.remote` and `branch.<name>.merge` for every branch, from
/// the configuration read once ([`Repo::config`]).
pub(super) fn tracking_config(repo: &Repo) -> Reading<HashMap<String, Tracking>> {
    let config = repo.config()?;
    let mut out: HashMap<String, Tracking> = HashMap::new();
    for (branch, entry) in config.subsections("branch", "remote") {
        if let Some(value) = &entry.value {
            out.entry(branch.to_string()).or_default().0 = Some(value.clone());
        }
    }
    // `branch.<name>.merge` may be given more than once: the upstream is
    // the first value (git's `@{upstream}`, and `git status`), where a
    // single-valued key takes the last.
    for (branch, entry) in config.subsections("branch", "merge") {
        if let Some(value) = &entry.value {
            out.entry(branch.to_string()).or_default().1.get_or_insert_with(|| value.clone());
        }
    }
    Ok(out)
}

/// The remote-tracking ref a `branch.<name>.merge` lands in, through the
/// remote's fetch refspecs (`.` is the local repository itself).
pub(super) fn upstream_ref(
    repo: &Repo,
    remotes: &mut HashMap<String, Vec<(String, String)>>,
    remote: &str,
    merge: &str,
) -> Reading<Option<String>> {
    if remote == "." {
        return Ok(Some(merge.to_string()));
    }
    if !remotes.contains_key(remote) {
        let config = repo.config()?;
        let mut specs = Vec::new();
        // A remote is one with a URL or a push URL set; a branch naming
        // another tracks nothing (as libgit2's lookup of it fails).
        if config.has_remote(remote) {
            for spec in config.all(&format!("remote.{remote}.fetch")) {
                match fetch_refspec(spec) {
                    Ok(Some(pair)) => specs.push(pair),
                    Ok(None) => {}
                    Err(why) => return Err(Unread::repository(format!("the remote {remote}: {why}"))),
                }
            }
        }
        remotes.insert(remote.to_string(), specs);
    }
    Ok(remotes[remote].iter().find_map(|(src, dst)| map_refspec(src, dst, merge)))
}

/// The source and destination of a fetch refspec (`+src:dst`); `None` for
/// one that maps nothing into a ref (`src` alone, a negative `^src`). One
/// git refuses (a `*` on one side only, or two on one side) is an error,
/// as libgit2 refuses the remote.
fn fetch_refspec(spec: &str) -> Result<Option<(String, String)>, String> {
    let spec = spec.strip_prefix('+').unwrap_or(spec);
    if spec.starts_with('^') {
        return Ok(None);
    }
    let Some((src, dst)) = spec.rsplit_once(':') else { return Ok(None) };
    let stars = |side: &str| side.matches('*').count();
    let refused = || Err(format!("its fetch refspec {spec} is not one git accepts"));
    if stars(src) > 1 || stars(dst) > 1 {
        return refused();
    }
    if dst.is_empty() {
        return Ok(None);
    }
    if stars(src) != stars(dst) {
        return refused();
    }
    Ok(Some((src.to_string(), dst.to_string())))
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
    Ok(repo.config()?.remote_names())
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
    fn a_second_merge_value_added_after_the_upstream_went_does_not_bring_it_back() {
        let t = TestRepo::with_commit();
        let _origin = t.with_origin();
        t.git(&["checkout", "-q", "-b", "feature"]);
        t.git(&["push", "-q", "-u", "origin", "feature"]);
        t.git(&["push", "-q", "origin", "--delete", "feature"]);
        t.git(&["config", "--add", "branch.feature.merge", "refs/heads/main"]);
        let git_says = t.git(&["for-each-ref", "--format=%(upstream) %(upstream:track)", "refs/heads/feature"]);
        assert_eq!(git_says.trim(), "refs/remotes/origin/feature [gone]");
        let repo = crate::open(t.path()).expect("open");
        let all = branches(&repo).expect("branches");
        let feature = all.iter().find(|b| b.name == "feature").expect("feature");
        assert_eq!(feature.upstream, Some(Upstream { refname: "refs/remotes/origin/feature".into(), exists: false }));
    }

    #[test]
    fn upstreams_read_through_the_refs_already_read_are_what_libgit2_says() {
        let t = TestRepo::with_commit();
        let _origin = t.with_origin();
        for (branch, merge) in [("gone", "refs/heads/gone"), ("alive", "refs/heads/alive"), ("head", "refs/heads/HEAD")]
        {
            t.git(&["branch", "-q", branch]);
            t.git(&["config", &format!("branch.{branch}.remote"), "origin"]);
            t.git(&["config", &format!("branch.{branch}.merge"), merge]);
        }
        t.git(&["push", "-q", "origin", "alive", "gone"]);
        t.git(&["push", "-q", "origin", "--delete", "gone"]);
        // origin/HEAD: a symbolic ref, which the direct refs leave out.
        t.git(&["symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main"]);
        t.git(&["branch", "-q", "local"]);
        t.git(&["config", "branch.local.remote", "."]);
        t.git(&["config", "branch.local.merge", "refs/heads/main"]);
        t.git(&["config", "branch.main.merge", "refs/heads/nowhere"]);
        let repo = crate::open(t.path()).expect("open");
        let tips = local::branch_tips(repo.common_dir(), &mut Known::default()).expect("tips").tips;
        let now = crate::refs::remote_refs(&repo).expect("remote refs");
        assert!(!now.contains_key("refs/remotes/origin/HEAD"));
        let through = branches_of(&repo, tips, Some(&now), None).expect("branches");
        assert_eq!(through, branches(&repo).expect("branches"));
        let exists = |n: &str| through.iter().find(|b| b.name == n).and_then(|b| b.upstream.as_ref()).map(|u| u.exists);
        assert_eq!(
            ["alive", "gone", "head", "local", "main"].map(exists),
            [Some(true), Some(false), Some(true), Some(true), Some(false)]
        );
    }

    #[test]
    fn a_branch_is_at_start_only_at_the_commit_the_snapshot_recorded_for_it() {
        let t = TestRepo::with_commit();
        let first = t.head();
        for b in ["kept", "moved", "made", "a/z"] {
            t.git(&["branch", "-q", b]);
        }
        t.write("f.txt", "next");
        let second = t.commit_all("next");
        t.git(&["branch", "-q", "-f", "moved", &second]);
        // Recorded out of order, with a name no branch has now and one at
        // another commit than its own now.
        let start: Names = [
            ("moved".to_string(), first.clone()),
            ("kept".to_string(), first.clone()),
            ("a/z".to_string(), first.clone()),
            ("gone".to_string(), first.clone()),
            ("main".to_string(), first.clone()),
        ]
        .into_iter()
        .collect();
        let repo = crate::open(t.path()).expect("open");
        let read = |snapshot| {
            let tips = local::branch_tips(repo.common_dir(), &mut Known::default()).expect("tips").tips;
            let all = branches_of(&repo, tips, None, snapshot).expect("branches");
            all.iter().map(|b| (b.name.clone(), b.at_start)).collect::<Vec<_>>()
        };
        let flags = |pairs: &[(&str, bool)]| pairs.iter().map(|(n, f)| (n.to_string(), *f)).collect::<Vec<_>>();
        // main moved with the second commit; made is not in the snapshot.
        assert_eq!(
            read(Some(&start)),
            flags(&[("a/z", true), ("kept", true), ("made", false), ("main", false), ("moved", false)])
        );
        assert_eq!(
            read(None),
            flags(&[("a/z", false), ("kept", false), ("made", false), ("main", false), ("moved", false)])
        );
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
    fn fetch_refspecs_are_read_as_git_reads_them() {
        let pair = |s: &str, d: &str| Ok(Some((s.to_string(), d.to_string())));
        assert_eq!(fetch_refspec("+refs/heads/*:refs/remotes/o/*"), pair("refs/heads/*", "refs/remotes/o/*"));
        assert_eq!(
            fetch_refspec("refs/heads/main:refs/remotes/o/trunk"),
            pair("refs/heads/main", "refs/remotes/o/trunk")
        );
        for maps_nothing in ["refs/heads/main", "refs/heads/main:", "+refs/heads/*:", "^refs/heads/secret"] {
            assert_eq!(fetch_refspec(maps_nothing), Ok(None), "{maps_nothing}");
        }
        for refused in ["refs/heads/*:refs/remotes/o/x", "refs/heads/x:refs/remotes/o/*", "refs/*/*:refs/remotes/o/*"] {
            assert!(fetch_refspec(refused).is_err(), "{refused}");
        }
    }

    #[test]
    fn a_remote_with_a_fetch_refspec_git_refuses_leaves_its_branches_unread() {
        let t = TestRepo::with_commit();
        let _origin = t.with_origin();
        t.git(&["config", "--add", "remote.origin.fetch", "refs/heads/*:refs/remotes/origin/x"]);
        let repo = crate::open(t.path()).expect("open");
        let unread = branches(&repo).expect_err("a refspec git refuses is no upstream mapping");
        assert!(unread.to_string().contains("not one git accepts"), "{unread}");
        assert!(
            git2::Repository::open(t.path()).expect("open").find_remote("origin").is_err(),
            "libgit2 refuses it too"
        );
    }
}
