//! What is not pushed: the commits on HEAD that are not on its upstream,
//! or on the trunk's remote-tracking branch where there is no upstream,
//! and of those the ones made since the task's start.

use super::{commits_not_on, commits_not_on_either, has_commit, remotes, Branch, Head, NoTrunk, Trunk};
use crate::{Reading, Repo, Unread};

/// What HEAD's commits were compared with, and what is not there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Push {
    /// The repository has no remote: nothing can be pushed.
    NoRemote,
    /// HEAD has no commit yet.
    Unborn,
    Measured {
        /// The full ref name compared with.
        against: String,
        /// `upstream`, or why the trunk was used instead.
        how: String,
        commits: Vec<String>,
        count: usize,
        /// Of those, the ones made since the start commit (`None`: no start
        /// to measure from); the rest were already unpushed at the start.
        since_start: Option<(Vec<String>, usize)>,
    },
}

/// What of HEAD is not on its upstream, or, where it has none (or it is
/// gone), on the trunk's remote-tracking branch; `start` is the task's start
/// commit, to tell the commits made since from those already unpushed then.
pub fn push(
    repo: &Repo,
    head: &Reading<Head>,
    branches: &Reading<Vec<Branch>>,
    trunk: &Reading<Result<Trunk, NoTrunk>>,
    start: Option<&str>,
) -> Reading<Push> {
    let head = head.as_ref().map_err(Clone::clone)?;
    let Some(commit) = &head.commit else { return Ok(Push::Unborn) };
    if remotes(repo)?.is_empty() {
        return Ok(Push::NoRemote);
    }
    let upstream = match &head.branch {
        Some(name) => {
            let branches = branches.as_ref().map_err(Clone::clone)?;
            branches.iter().find(|b| &b.name == name).and_then(|b| b.upstream.clone())
        }
        None => None,
    };
    let (against, how) = match upstream {
        Some(u) if u.exists => (u.refname, "its upstream".to_string()),
        other => {
            let why = match other {
                Some(u) => format!("its upstream {} is gone, so the trunk", u.refname),
                None if head.branch.is_none() => "HEAD is detached, so the trunk".to_string(),
                None => "it has no upstream, so the trunk".to_string(),
            };
            match trunk.as_ref().map_err(Clone::clone)? {
                Ok(t) if t.refname.starts_with("refs/remotes/") => (t.refname.clone(), why),
                _ => {
                    return Err(Unread::repository(format!(
                        "HEAD's branch has no upstream and no remote-tracking trunk was found ({why} cannot be used)"
                    )))
                }
            }
        }
    };
    let target = repo.git.refname_to_id(&against).map_err(|e| Unread::git(&against, &e))?.to_string();
    let (commits, count) = commits_not_on(repo, commit, Some(&target))?;
    let since_start = match start {
        Some(start) if count > 0 && has_commit(repo, start) => {
            Some(commits_not_on_either(repo, commit, &target, start)?)
        }
        Some(_) if count > 0 => None,
        _ => Some((commits.clone(), count)),
    };
    Ok(Push::Measured { against, how, commits, count, since_start })
}

#[cfg(test)]
mod tests {
    use super::*;
    use majordomus_testkit::TestRepo;

    fn read(t: &TestRepo, start: Option<&str>) -> Reading<Push> {
        let repo = crate::open(t.path()).expect("open");
        let trunk = super::super::trunk(&repo, None, None);
        push(&repo, &super::super::head(&repo), &super::super::branches(&repo), &trunk, start)
    }

    #[test]
    fn a_repository_with_no_remote_has_nowhere_to_push() {
        let t = TestRepo::with_commit();
        assert_eq!(read(&t, None), Ok(Push::NoRemote));
    }

    #[test]
    fn commits_not_on_the_upstream_are_counted_and_those_since_the_start_told_apart() {
        let t = TestRepo::with_commit();
        let _origin = t.with_origin();
        t.write("a.txt", "a\n");
        let start = t.commit_all("unpushed at the start");
        t.write("b.txt", "b\n");
        let new = t.commit_all("made since the start");
        let Ok(Push::Measured { against, how, count, since_start, .. }) = read(&t, Some(&start)) else {
            panic!("measured")
        };
        assert_eq!((against.as_str(), how.as_str(), count), ("refs/remotes/origin/main", "its upstream", 2));
        assert_eq!(since_start, Some((vec![new], 1)));
    }
}
