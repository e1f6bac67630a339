//! What of HEAD is not pushed: the commits on HEAD that no remote-tracking
//! ref counted as evidence holds ([`super::evidence`]), and of those the
//! ones made since the task's start.
//!
//! HEAD is compared first with the one ref it should be on (its upstream,
//! else the trunk): that is one walk, and it settles the common case.
//! Only when commits are left over is every counted ref asked, so a push
//! to a review branch (`git push origin HEAD:review/x`) is pushed, and the
//! reading names the ref that holds HEAD.
//!
//! Each walk is a function of commit ids alone (HEAD's, the refs' it is
//! hidden under, the start's), so its answer can be kept between checks
//! ([`Walks`]): at a thousand remote-tracking refs the walk under all of
//! them reads every one of their tips, and a repeated `check` with the
//! same ids reads none.

use git2::Oid;
use serde::{Deserialize, Serialize};

use super::evidence::RemoteEvidence;
use super::{has_commit, parse, Branch, Head, NoTrunk, Trunk, LISTED};
use crate::{Reading, Repo, Unread};

/// What HEAD's commits were compared with, and what is not there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Push {
    /// No remote is configured, nor was one at the start: nothing can be pushed.
    NoRemote,
    /// HEAD has no commit yet.
    Unborn,
    Measured {
        /// The full ref name of the ref that holds HEAD when every commit
        /// is pushed; else the ref HEAD was first compared with (empty when
        /// there was none to compare with first).
        against: String,
        /// Why that ref: `its upstream`, or why the trunk was used instead,
        /// or which remote's ref holds HEAD.
        how: String,
        commits: Vec<String>,
        count: usize,
        /// Of those, the ones made since the start commit (`None`: no start
        /// to measure from); the rest were already unpushed at the start.
        since_start: Option<(Vec<String>, usize)>,
    },
}

/// How many counted refs are asked, one by one, whether they hold HEAD,
/// to name where it was pushed.
const ASKED: usize = 64;

/// One of `push`'s walks and its answer: the commits reachable from `tip`
/// and from none of the hidden commits nor `also`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Walked {
    pub tip: String,
    /// The hidden commits' key ([`hidden_key`]): a thousand ids kept as one.
    pub hidden: String,
    pub also: Option<String>,
    /// At most [`LISTED`] ids, newest first.
    pub listed: Vec<String>,
    pub count: usize,
}

/// Where `push` finds the walks already answered and keeps new answers.
/// Whoever keeps them answers for the ids alone still deciding the walk:
/// in a shallow repository (whose `shallow` file cuts parents off without
/// changing an id) nothing may be recalled. A grafts file makes `push`
/// unread before any walk.
pub trait Walks {
    /// The answer kept for these ids, if any.
    fn recall(&self, tip: &str, hidden: &str, also: Option<&str>) -> Option<&Walked>;
    /// Keeps an answer worked out now.
    fn keep(&mut self, walked: Walked);
}

/// No walk is kept: every one is worked out.
#[derive(Debug, Default)]
pub struct NoneKept;

impl Walks for NoneKept {
    fn recall(&self, _: &str, _: &str, _: Option<&str>) -> Option<&Walked> {
        None
    }

    fn keep(&mut self, _: Walked) {}
}

/// The key [`Walked::hidden`] for these hidden commits: their raw ids,
/// sorted, each once, hashed as git hashes a blob.
pub fn hidden_key(hidden: &[Oid]) -> String {
    let mut ids = hidden.to_vec();
    ids.sort_unstable();
    ids.dedup();
    let bytes: Vec<u8> = ids.iter().flat_map(|o| o.as_bytes().iter().copied()).collect();
    Oid::hash_object(git2::ObjectType::Blob, &bytes).map(|o| o.to_string()).unwrap_or_default()
}

/// Commits a walk is hidden under, with their key, worked out once for
/// the walks that share them.
struct Hidden<'a> {
    ids: &'a [Oid],
    key: String,
}

impl<'a> Hidden<'a> {
    fn of(ids: &'a [Oid]) -> Self {
        Hidden { ids, key: hidden_key(ids) }
    }
}

/// What of HEAD no counted remote-tracking ref holds, and of that what was
/// made since `start` (the task's start commit).
pub fn push(
    repo: &Repo,
    head: &Reading<Head>,
    branches: &Reading<Vec<Branch>>,
    trunk: &Reading<Result<Trunk, NoTrunk>>,
    evidence: &Reading<RemoteEvidence>,
    start: Option<&str>,
    walks: &mut dyn Walks,
) -> Reading<Push> {
    let head = head.as_ref().map_err(Clone::clone)?;
    let Some(commit) = &head.commit else { return Ok(Push::Unborn) };
    let evidence = evidence.as_ref().map_err(Clone::clone)?;
    if let Some(reason) = evidence.grafts_reason() {
        return Err(Unread::repository(reason));
    }
    if evidence.no_remote() {
        return Ok(Push::NoRemote);
    }
    let (first, how) = first_compared(head, branches, trunk, evidence)?;
    let mut walk = repo.git.revwalk().map_err(|e| Unread::git("the history", &e))?;
    if let Some((refname, at)) = &first {
        let (_, count) = remembered(walks, &mut walk, parse(commit)?, &Hidden::of(&[parse(at)?]), None)?;
        if count == 0 {
            return Ok(Push::Measured {
                against: refname.clone(),
                how,
                commits: vec![],
                count: 0,
                since_start: Some((vec![], 0)),
            });
        }
    }
    let tips = evidence.tips();
    if tips.is_empty() {
        let why: Vec<String> = evidence.set_aside.iter().map(|s| s.why.clone()).collect();
        return Err(Unread::repository(format!(
            "no remote-tracking ref counts as evidence of a remote{}; fetch from a remote that was there at the start",
            match why.as_slice() {
                [] => " (none has been fetched)".to_string(),
                _ => format!(" ({})", why.join("; ")),
            }
        )));
    }
    let head_oid = parse(commit)?;
    let tips = Hidden::of(&tips);
    let (commits, count) = remembered(walks, &mut walk, head_oid, &tips, None)?;
    if count == 0 {
        let (against, how) = holder(repo, head_oid, evidence)?;
        return Ok(Push::Measured { against, how, commits, count, since_start: Some((vec![], 0)) });
    }
    let since_start = match start {
        Some(start) if has_commit(repo, start) => {
            Some(remembered(walks, &mut walk, head_oid, &tips, Some(parse(start)?))?)
        }
        Some(_) => None,
        None => Some((commits.clone(), count)),
    };
    let against = first.map(|(refname, _)| refname).unwrap_or_default();
    Ok(Push::Measured { against, how, commits, count, since_start })
}

/// The ref HEAD should be on and the commit it counts at: its upstream,
/// where that counts as evidence, else the trunk's remote-tracking ref;
/// and why that one.
fn first_compared(
    head: &Head,
    branches: &Reading<Vec<Branch>>,
    trunk: &Reading<Result<Trunk, NoTrunk>>,
    evidence: &RemoteEvidence,
) -> Reading<(Option<(String, String)>, String)> {
    let upstream = match &head.branch {
        Some(name) => {
            let branches = branches.as_ref().map_err(Clone::clone)?;
            branches.iter().find(|b| &b.name == name).and_then(|b| b.upstream.clone())
        }
        None => None,
    };
    let why = match &upstream {
        Some(u) if !u.refname.starts_with("refs/remotes/") => {
            format!("its upstream {} is a local branch, not a remote, so the trunk", short(&u.refname))
        }
        Some(u) if !u.exists => format!("its upstream {} is gone, so the trunk", short(&u.refname)),
        Some(u) => match evidence.get(&u.refname) {
            Some(t) => {
                let how = match &t.at_start {
                    Some(_) => "its upstream, read at its start value".to_string(),
                    None => "its upstream".to_string(),
                };
                return Ok((Some((u.refname.clone(), t.commit.clone())), how));
            }
            None => format!("its upstream {} is not evidence of the remote, so the trunk", short(&u.refname)),
        },
        None if head.branch.is_none() => "HEAD is detached, so the trunk".to_string(),
        None => "it has no upstream, so the trunk".to_string(),
    };
    match trunk {
        Ok(Ok(t)) if t.refname.starts_with("refs/remotes/") => {
            let how = match &t.at_start {
                Some(_) => format!("{why}, read at its start value"),
                None => why,
            };
            Ok((Some((t.refname.clone(), t.commit.clone())), how))
        }
        Ok(_) => Ok((None, format!("{why}, but the trunk is not a remote-tracking ref"))),
        Err(e) => Ok((None, format!("{why}, which could not be read: {}", e.reason))),
    }
}

/// [`not_on_any`] as `walks` kept it for these ids, else walked and kept.
fn remembered(
    walks: &mut dyn Walks,
    walk: &mut git2::Revwalk<'_>,
    tip: Oid,
    hidden: &Hidden<'_>,
    also: Option<Oid>,
) -> Reading<(Vec<String>, usize)> {
    let (tip_id, also_id) = (tip.to_string(), also.map(|o| o.to_string()));
    if let Some(w) = walks.recall(&tip_id, &hidden.key, also_id.as_deref()) {
        return Ok((w.listed.clone(), w.count));
    }
    let (listed, count, all_found) = not_on_any(walk, tip, hidden.ids, also)?;
    // A hidden commit missing from the object database counts as holding
    // nothing now, and would once fetched under the same id: not kept.
    if all_found {
        walks.keep(Walked { tip: tip_id, hidden: hidden.key.clone(), also: also_id, listed: listed.clone(), count });
    }
    Ok((listed, count))
}

/// Commits reachable from `tip` and from none of `hidden` (nor `also`):
/// at most [`LISTED`] ids, newest first, the full count, and whether every
/// hidden commit was found.
///
/// `walk` is reset first and may serve several calls: the commits one walk
/// parsed are kept by the next (libgit2 keeps them across a reset), so the
/// second of `push`'s walks under every remote-tracking tip does not read
/// them all again.
fn not_on_any(
    walk: &mut git2::Revwalk<'_>,
    tip: Oid,
    hidden: &[Oid],
    also: Option<Oid>,
) -> Reading<(Vec<String>, usize, bool)> {
    walk.reset().map_err(|e| Unread::git("the history", &e))?;
    let mut all_found = true;
    for oid in hidden.iter().chain(also.iter()) {
        // A commit gone from the object database (a removed remote's ref,
        // since collected) holds nothing.
        match walk.hide(*oid) {
            Err(e) if e.code() != git2::ErrorCode::NotFound => return Err(Unread::git(&oid.to_string(), &e)),
            Err(_) => all_found = false,
            Ok(()) => {}
        }
    }
    // The tip to walk goes in after the hidden commits: libgit2 starts from
    // them in the reverse order they were given (not by date, as git
    // does), and a walk that starts at an old hidden tip reads the newer
    // history down to its date before it reaches them.
    walk.push(tip).map_err(|e| Unread::git(&tip.to_string(), &e))?;
    let mut listed = Vec::new();
    let mut count = 0;
    for oid in walk.by_ref() {
        let oid = oid.map_err(|e| Unread::git("the history", &e))?;
        if listed.len() < LISTED {
            listed.push(oid.to_string());
        }
        count += 1;
    }
    Ok((listed, count, all_found))
}

/// A counted ref that holds HEAD, and which remote's it is: one that
/// points at HEAD, else the first of at most [`ASKED`] whose history
/// reaches it.
fn holder(repo: &Repo, head: Oid, evidence: &RemoteEvidence) -> Reading<(String, String)> {
    let named = |t: &super::Tracking| (t.refname.clone(), format!("a remote-tracking ref of {}", t.remote));
    if let Some(t) = evidence.refs.iter().find(|t| t.commit == head.to_string()) {
        return Ok(named(t));
    }
    for t in evidence.refs.iter().take(ASKED) {
        let tip = parse(&t.commit)?;
        if repo.git.graph_descendant_of(tip, head).map_err(|e| Unread::git("the history", &e))? {
            return Ok(named(t));
        }
    }
    Ok((String::new(), "the remote-tracking refs".to_string()))
}

/// `origin/main` for `refs/remotes/origin/main`.
fn short(refname: &str) -> &str {
    refname.strip_prefix("refs/remotes/").or_else(|| refname.strip_prefix("refs/heads/")).unwrap_or(refname)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::refs::evidence::{evidence, Start};
    use majordomus_testkit::TestRepo;

    fn read(t: &TestRepo, start: Option<&str>) -> Reading<Push> {
        let repo = crate::open(t.path()).expect("open");
        let evidence = evidence(&repo, Start::NoTask);
        let trunk = super::super::in_force(&repo, super::super::trunk(&repo, None, None), None, &evidence);
        push(&repo, &super::super::head(&repo), &super::super::branches(&repo), &trunk, &evidence, start, &mut NoneKept)
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

    #[test]
    fn a_commit_pushed_to_another_branch_of_the_remote_is_pushed_and_the_reading_says_where() {
        let t = TestRepo::with_commit();
        let _origin = t.with_origin();
        t.git(&["checkout", "-q", "-b", "feature"]);
        t.write("a.txt", "a\n");
        t.commit_all("feature");
        t.git(&["push", "-q", "origin", "HEAD:review/x"]);
        t.write("b.txt", "b\n");
        t.commit_all("more");
        t.git(&["push", "-q", "origin", "HEAD:review/y"]);
        t.git(&["reset", "-q", "--hard", "HEAD~1"]);
        let Ok(Push::Measured { against, how, count, .. }) = read(&t, None) else { panic!("measured") };
        assert_eq!(count, 0);
        assert_eq!(
            (against.as_str(), how.as_str()),
            ("refs/remotes/origin/review/x", "a remote-tracking ref of origin")
        );
        t.write("c.txt", "c\n");
        let made = t.commit_all("unpushed");
        let Ok(Push::Measured { against, how, count, commits, .. }) = read(&t, None) else { panic!("measured") };
        assert_eq!((count, commits), (1, vec![made]));
        assert_eq!(against, "refs/remotes/origin/main");
        assert!(how.contains("no upstream, so the trunk"), "{how}");
    }
}
