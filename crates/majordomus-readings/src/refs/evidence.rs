//! Which remote-tracking refs are evidence of what a remote holds.
//!
//! `pushed`, `integrated` and `upstream-alive` ask what a remote holds,
//! and all a repository keeps of that is its remote-tracking refs. Those
//! are ordinary refs: `git update-ref refs/remotes/origin/main HEAD`,
//! `git fetch . HEAD:refs/remotes/origin/main`, a file written under
//! `.git/refs/remotes/`, `git remote set-url origin .` then a fetch all
//! move one without the remote ever seeing the commit. So a ref counts
//! only when three things hold:
//!
//! - its remote existed at the task's start with the same URL (and push
//!   URL, after `url.<base>.insteadOf`), leading on this machine where it
//!   led then (the same repository, by path and inode, or none, or a URL
//!   across a network: `on_disk::led_elsewhere`), and that URL is not this
//!   repository itself. A remote added or re-pointed since is named and
//!   never evidence; one removed since leaves its refs read at their start
//!   values, so removing a remote does not make work pushed or exempt;
//! - the ref still holds its start value, or its reflog's newest line is a
//!   fetch of that remote (by name, by URL, or `--all`) or a push (`update
//!   by push`, which git writes only after the remote accepted it) and
//!   holds the value it has now. A ref that moved any other way is read at
//!   its start value, and one that did not exist at the start is not
//!   evidence: both named. A remote pushes to every push URL, or with none
//!   to every URL, and git writes the push line when any one accepted: so
//!   every value is compared with the start's, and where there are two or
//!   more places the line counts only where each is read to hold the
//!   commit (`on_disk::unconfirmed`) or a fetch since found it there
//!   (`FETCH_HEAD`, test/cases/487); and where no place a push goes is
//!   the URL the remote fetches from (a push URL naming a fork), the push
//!   line counts for what the push left there, not for the fetched branch
//!   the ref stands for: the trunk is read where a fetch or the start left
//!   it (`RemoteEvidence::pushed_elsewhere`, test/cases/515);
//! - it is a remote-tracking ref at all: a fetch refspec that maps a
//!   remote onto `refs/heads/` makes local branches, never evidence.
//!
//! A remote on this machine is then read itself, not taken at its refs'
//! word (`on_disk.rs`). What it does not catch, said plainly, for a remote
//! across a network: a reflog line holds the remote's name, not the URL a
//! fetch or push used, so a push under a push URL given for one command,
//! or re-pointing a remote, fetching and pointing it back between two
//! checks, is not seen; nor is a reflog line written by hand (`git
//! update-ref -m "update by push"`).
//!
//! With no task, nothing says what the start was: every configured remote
//! that is not this repository counts, its refs as they are.
//!
//! `.git/info/grafts` is read here too: libgit2 honours it when it walks
//! history and cannot be told not to, so while one exists the questions
//! that walk history answer `unknown` ([`RemoteEvidence::grafts`]).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::os::unix::ffi::OsStringExt as _;
use std::path::{Path, PathBuf};

use git2::Oid;
use majordomus_records::task::{RemoteAtStart, Snapshot};

use crate::config::{Config, Entry};
use crate::reflog::{self, Line};
use crate::{Reading, Repo, Unread};

/// What of the start the evidence is measured against.
#[derive(Debug, Clone, Copy)]
pub enum Start<'a> {
    /// No task: every ref as it is.
    NoTask,
    /// The task record's snapshot.
    Snapshot(&'a Snapshot),
}

/// A remote-tracking ref that counts, and the commit it counts at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tracking {
    pub refname: String,
    pub remote: String,
    pub commit: String,
    /// `None`: read as it is now. `Some(why)`: read at its start value,
    /// and why (it moved since by something else than a fetch or push of
    /// its remote, or its remote was removed or re-pointed since).
    pub at_start: Option<String>,
}

/// A ref or a remote seen and not counted, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetAside {
    /// A remote's name, or a ref's full name.
    pub subject: String,
    pub why: String,
    /// A ref that did not exist at the start and was made by something
    /// else than a fetch or push: it does not exist as far as the remote
    /// is concerned (`upstream-alive` reads it as gone).
    pub appeared: bool,
}

/// The remote-tracking refs that count as evidence of the remotes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RemoteEvidence {
    pub refs: Vec<Tracking>,
    pub set_aside: Vec<SetAside>,
    /// Remotes configured now.
    pub remotes_now: Vec<String>,
    /// Remotes configured at the start (`None`: no task).
    pub remotes_at_start: Option<Vec<String>>,
    /// A grafts file with at least one graft in it.
    pub grafts: Option<PathBuf>,
    /// Every remote-tracking ref there now whose commit now is not what
    /// it counts at (set aside, or read at another start value), with that
    /// commit: a ref that keeps commits without being evidence of a
    /// remote (`git update-ref refs/remotes/origin/wip HEAD` before a
    /// reset), read as any other ref written since the start is
    /// ([`super::attribution`], test/cases/347).
    pub uncounted: Vec<(String, String)>,
    /// Every remote-tracking ref of a remote that counts whose value now
    /// is not its start value (or that appeared since), with its remote,
    /// counted or not: what a fetch since the start may have moved
    /// ([`super::arrival`] reads their reflogs). Empty with no task.
    pub moved: Vec<(String, String)>,
    /// Every branch of a counted remote on this machine that no
    /// remote-tracking ref here stands for (the start's fetch refspecs map
    /// it to none, as in a `--single-branch` or `--depth` clone, or to one
    /// that does not exist here: a push by URL writes none, `git branch
    /// -dr` deletes one), at a commit this repository has, as remote,
    /// branch and commit: nothing here says the remote keeps it, so the
    /// remote is read itself (`on_disk::beyond_refspecs`). Empty with no
    /// task.
    pub beyond_refspecs: Vec<(String, String, String)>,
    /// The remotes configured now as push mirrors (`remote.<name>.mirror`):
    /// `git push` makes their branches this repository's, deleting there a
    /// branch deleted here, and `git push --delete` is refused for them.
    pub mirrors: Vec<String>,
    /// Every counted ref whose newest line is a push that went elsewhere
    /// than the URL its remote fetches from (a push URL or
    /// `pushInsteadOf` naming a fork): what the push left there counts
    /// for what the remote holds (`pushed`), but says nothing of the
    /// fetched branch the ref stands for (the trunk, test/cases/515).
    pub pushed_elsewhere: Vec<PushedElsewhere>,
    /// Every ref the fetch refspecs of two or more remotes write, moved
    /// since the start and so read at its start value ([`shared_by`]):
    /// reading one of those remotes on this machine says what that remote
    /// holds, not what the one the ref's name stands for does.
    pub shared: Vec<String>,
    /// Every remote added since the start whose URLs are those a remote of
    /// the start had, that remote now gone or pointing elsewhere (`git
    /// remote rename origin upstream`, perhaps then `git remote add origin
    /// FORK`), as (its name at the start, its name now): its refs count
    /// under the start's name, which renaming it back gives them again.
    pub renamed: Vec<Renamed>,
    /// Every ref set aside because a fetch since found its branch gone from
    /// its remote, the ref not pruned ([`RemoteEvidence::gone_from_remote`]):
    /// a push of the branch again writes no reflog line into a ref already
    /// at its commit, so only a fetch after it says the remote has it.
    pub gone_by_fetch: Vec<String>,
    /// Each remote configured now, with its fetch refspecs: a push writes
    /// the remote-tracking ref of a branch only where they map it (a
    /// `--single-branch` or `--depth` clone maps its one branch), and
    /// without that ref nothing here says the remote has the branch.
    pub fetch_refspecs: BTreeMap<String, Vec<String>>,
    /// Each counted remote whose URL names a repository on this machine
    /// that majordomus cannot read (its refs in the reftable format, an
    /// extension or format version libgit2 does not know), with why: its
    /// refs moved since the start are set aside, not gone, and its
    /// branches are unknown, not none (test/cases/612). Read only where
    /// the remote is opened (a ref moved since the start, a task).
    pub unreadable: BTreeMap<String, String>,
}

/// A remote renamed since the start (see [`RemoteEvidence::renamed`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Renamed {
    /// Its name at the start.
    pub then: String,
    /// Its name now.
    pub now: String,
    /// Whether a remote is configured under the start's name now (another
    /// one, as its URLs differ).
    pub then_taken: bool,
}

/// A counted ref a push to another place than its remote's fetch URL
/// moved last: the value a fetch or the start gave it, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PushedElsewhere {
    pub refname: String,
    pub remote: String,
    /// Its value at the start; `None` where it appeared since.
    pub fetched: Option<String>,
    pub why: String,
}

impl RemoteEvidence {
    /// Whether the fetch refspecs of `remote`, configured now, map its
    /// branch `branch` onto a ref here, so that a push of the branch
    /// writes its remote-tracking ref (test/cases/587); true for a remote
    /// not configured now, of which nothing is known.
    pub fn maps_branch(&self, remote: &str, branch: &str) -> bool {
        self.fetch_refspecs
            .get(remote)
            .map_or(true, |specs| !refspec::maps_onto(specs, &format!("refs/heads/{branch}")).is_empty())
    }

    /// The ref `refname` if it counts.
    pub fn get(&self, refname: &str) -> Option<&Tracking> {
        self.refs.iter().find(|t| t.refname == refname)
    }

    /// Why `refname` (or its remote) is not counted, if it is set aside.
    pub fn set_aside_for(&self, refname: &str) -> Option<&SetAside> {
        self.set_aside.iter().find(|s| s.subject == refname)
    }

    /// What a fetch or the start gave `refname`, where a push elsewhere
    /// than its remote's fetch URL moved it last: the fetched branch it
    /// stands for is read there, not at the push's value.
    pub fn pushed_elsewhere_of(&self, refname: &str) -> Option<&PushedElsewhere> {
        self.pushed_elsewhere.iter().find(|p| p.refname == refname)
    }

    /// The counted and set-aside refs by name, for a caller that asks of
    /// many refs: [`RemoteEvidence::get`] and
    /// [`RemoteEvidence::set_aside_for`] search, which is quadratic over
    /// every branch of a repository with a thousand upstreams.
    pub fn by_name(&self) -> ByName<'_> {
        let mut counted = HashMap::with_capacity(self.refs.len());
        for t in &self.refs {
            counted.entry(t.refname.as_str()).or_insert(t);
        }
        let mut aside = HashMap::with_capacity(self.set_aside.len());
        for s in &self.set_aside {
            aside.entry(s.subject.as_str()).or_insert(s);
        }
        ByName { counted, aside }
    }

    /// Sets aside, as appeared, each counted ref of `gone` (a ref and why:
    /// its branch a fetch since found gone from its remote,
    /// [`gone_by_fetch`]): no evidence of the remote, and a ref that keeps
    /// commits as any other not counted does.
    pub fn gone_from_remote(&mut self, gone: &[(String, String)]) {
        for (refname, why) in gone {
            let Some(i) = self.refs.iter().position(|t| &t.refname == refname) else { continue };
            let t = self.refs.remove(i);
            self.uncounted.push((t.refname.clone(), t.commit));
            self.gone_by_fetch.push(t.refname.clone());
            self.set_aside.push(SetAside { subject: t.refname, why: why.clone(), appeared: true });
        }
    }

    /// The distinct commits the counted refs are read at.
    pub fn tips(&self) -> Vec<Oid> {
        let set: BTreeSet<Oid> = self.refs.iter().filter_map(|t| Oid::from_str(&t.commit).ok()).collect();
        set.into_iter().collect()
    }

    /// Whether no remote is configured now nor was at the start.
    pub fn no_remote(&self) -> bool {
        self.remotes_now.is_empty() && self.remotes_at_start.as_ref().map_or(true, Vec::is_empty)
    }

    /// The sentence a grafts file gives the questions that walk history.
    pub fn grafts_reason(&self) -> Option<String> {
        self.grafts.as_ref().map(|p| {
            format!(
                "{} rewrites the parents of commits, and libgit2 (which majordomus reads history with) honours it and cannot be told not to, so whether the trunk or a remote holds a commit cannot be read while it exists; remove it (git replace --graft is the supported way, and majordomus does not follow replacements)",
                p.display()
            )
        })
    }
}

/// [`RemoteEvidence`] indexed by name: the same answers as its searches
/// (the first of a name, where one is listed twice).
#[derive(Debug)]
pub struct ByName<'a> {
    counted: HashMap<&'a str, &'a Tracking>,
    aside: HashMap<&'a str, &'a SetAside>,
}

impl<'a> ByName<'a> {
    /// As [`RemoteEvidence::get`].
    pub fn get(&self, refname: &str) -> Option<&'a Tracking> {
        self.counted.get(refname).copied()
    }

    /// As [`RemoteEvidence::set_aside_for`].
    pub fn set_aside_for(&self, refname: &str) -> Option<&'a SetAside> {
        self.aside.get(refname).copied()
    }
}

/// A remote as configured now.
#[derive(Debug, Clone, Default)]
struct Configured {
    url: Option<String>,
    push_url: Option<String>,
    /// Every `url` value and every `pushurl` value, in order: git fetches
    /// from the first URL and pushes to every push URL, or with none to
    /// every URL.
    all_urls: Vec<String>,
    all_push_urls: Vec<String>,
    /// `remote.<name>.mirror`: `git push` mirrors every ref (`git remote
    /// add --mirror=push`), deleting there what is deleted here.
    mirror: bool,
    /// The destinations of its fetch refspecs (`refs/remotes/origin/*`).
    destinations: Vec<String>,
    /// Its fetch refspecs as configured.
    fetch: Vec<String>,
    /// `remote.<name>.gh-resolved` and `.glab-resolved`: which repository
    /// the forge's program answers for (`gh repo set-default`).
    gh_resolved: Option<String>,
    glab_resolved: Option<String>,
    /// The file `remotes/NAME` its URLs and `Pull:` refspecs come from,
    /// where the configuration gives it no URL ([`with_remotes_files`]).
    file: Option<PathBuf>,
}

impl Configured {
    /// A fetch refspec, and the refs it writes.
    fn add_fetch(&mut self, value: &str) {
        self.fetch.push(value.to_string());
        let spec = value.trim_start_matches('+');
        if let Some((_, dst)) = spec.split_once(':').filter(|_| !spec.starts_with('^')) {
            self.destinations.push(dst.to_string());
        }
    }
}

/// Reads the evidence: the remotes now and at the start, every
/// remote-tracking ref now and at the start, and the reflog's newest line
/// of each ref that moved since.
pub fn evidence(repo: &Repo, start: Start<'_>) -> Reading<RemoteEvidence> {
    evidence_with(repo, start, &remote_refs(repo)?, &UpstreamsRewritten::default())
}

/// [`evidence`], with the remote-tracking refs now already read
/// ([`remote_refs`]): a check reads them once, for this and for the
/// branches' upstreams; and with what [`UpstreamsRewritten::read`] read of the
/// upstreams' reflogs beside them (one it did not read is read here).
pub fn evidence_with(
    repo: &Repo,
    start: Start<'_>,
    now: &BTreeMap<String, String>,
    rewritten_since: &UpstreamsRewritten<'_>,
) -> Reading<RemoteEvidence> {
    let (configured, rewrites) = configuration(repo)?;
    let (start_remotes, start_refs) = match start {
        Start::NoTask => (None, None),
        Start::Snapshot(s) => match (&s.remotes, &s.remote_refs) {
            (Some(r), Some(f)) => (Some(r), Some(f)),
            _ => {
                return Err(Unread::record(
                    "the task record holds no snapshot of the remotes and their remote-tracking refs at the start (it was written by an older majordomus), so what moved them since cannot be told; start the task again",
                ))
            }
        },
    };
    let mut out = RemoteEvidence {
        remotes_now: configured.keys().cloned().collect(),
        remotes_at_start: start_remotes.map(|r| r.keys().cloned().collect()),
        grafts: grafts(repo)?,
        fetch_refspecs: configured.iter().map(|(name, c)| (name.clone(), c.fetch.clone())).collect(),
        ..RemoteEvidence::default()
    };
    // Each remote named now or at the start, and whether it counts.
    let mut standing: BTreeMap<String, Standing> = BTreeMap::new();
    for (name, now) in &configured {
        let (url, push) = urls(now, &rewrites).unzip();
        let leads = url.iter().chain(push.iter()).find_map(|u| points_here(repo, u).map(|h| (u, h)));
        let itself = leads.is_some();
        let here = match &leads {
            Some((_, Here::Itself)) => ", this repository itself".to_string(),
            Some((_, Here::Borrows(dir))) => {
                format!(", a repository that borrows its objects from this one ({})", borrowed(dir))
            }
            None => String::new(),
        };
        let here = here.as_str();
        // The start's URL text, leading elsewhere on this machine now: as
        // good as re-pointed (the arms below cannot hold with the text the
        // start's).
        let elsewhere = start_remotes
            .and_then(|r| r.get(name))
            .zip(url.as_deref().zip(push.as_deref()))
            .filter(|(then, (u, p))| then.url == *u && then.push_url.as_deref().unwrap_or(&then.url) == *p)
            .and_then(|(then, (u, p))| on_disk::led_elsewhere(repo.root(), then, u, p));
        let verdict = match start_remotes.map(|r| r.get(name)) {
            _ if elsewhere.is_some() => Standing::NotEvidence {
                why: elsewhere.as_ref().map(|e| e.why(name, here)).unwrap_or_default(),
                keeps_start: true,
            },
            Some(None) => {
                let from = renamed_from(name, now, &configured, start_remotes, &rewrites);
                let why = match &from {
                    Some(r) => format!(
                        "{name} was added since the start, with the URLs {then} had then (renamed since: git remote rename {then} {name}), and a remote counts under the name it had at the start; rename it back ({})",
                        rename_back(r),
                        then = r.then
                    ),
                    None => format!("{name} was added since the start{}", here.replacen(',', " and is", 1)),
                };
                out.renamed.extend(from);
                Standing::NotEvidence { why, keeps_start: false }
            }
            // Re-pointed since the start: what its refs held then is still
            // what the remote held then.
            Some(Some(then)) if Some(then.url.as_str()) != url.as_deref() => Standing::NotEvidence {
                why: format!(
                    "the URL of {name} changed since the start (from {} to {}{here}), so its refs are read at their start values",
                    then.url,
                    url.as_deref().unwrap_or("none")
                ),
                keeps_start: true,
            },
            Some(Some(then)) if Some(then.push_url.as_deref().unwrap_or(&then.url)) != push.as_deref() => {
                Standing::NotEvidence {
                    why: format!("the push URL of {name} changed since the start{here}, so its refs are read at their start values"),
                    keeps_start: true,
                }
            }
            // A URL or push URL added or removed since (`git config --add
            // remote.origin.url`): a push goes to another set of places.
            Some(Some(then)) if all_urls_then(then) != all_urls(now, &rewrites) => {
                let ((urls_then, push_then), (urls_now, push_now)) = (all_urls_then(then), all_urls(now, &rewrites));
                Standing::NotEvidence {
                    why: format!(
                        "the URLs of {name} changed since the start (fetched from {} and pushed to {} then, fetched from {} and pushed to {} now{here}: git pushes to every one), so its refs are read at their start values; put them back as they were (git remote set-url --add or --delete {name} URL)",
                        urls_then.join(", "),
                        push_then.join(", "),
                        urls_now.join(", "),
                        push_now.join(", ")
                    ),
                    keeps_start: true,
                }
            }
            _ if itself => Standing::NotEvidence {
                why: format!("the URL of {name} is{}", here.trim_start_matches(',')),
                keeps_start: false,
            },
            _ => Standing::Counts,
        };
        standing.insert(name.clone(), verdict);
    }
    for name in start_remotes.iter().flat_map(|r| r.keys()) {
        if !configured.contains_key(name) {
            let why = format!("{name} was removed since the start, so its refs are read at their start values");
            standing.insert(name.clone(), Standing::NotEvidence { why, keeps_start: true });
        }
    }
    for (name, verdict) in &standing {
        if let Standing::NotEvidence { why, .. } = verdict {
            out.set_aside.push(SetAside { subject: name.clone(), why: why.clone(), appeared: false });
        }
    }
    let owner = |refname: &str| owner_of(refname, &configured, &standing);
    // Every FETCH_HEAD's lines, read once and only for a ref a fetch moved.
    let mut fetched: Option<Vec<fetch_head::Fetched>> = None;
    for (refname, commit) in now {
        let then = start_refs.and_then(|r| r.get(refname));
        let Some(remote) = owner(refname) else {
            out.set_aside.push(SetAside {
                subject: refname.clone(),
                why: format!("no remote fetches into {}", short(refname)),
                appeared: then.is_none(),
            });
            continue;
        };
        // A ref under a counted remote's name that a remote not counted
        // also writes keeps its start value: that was the counted remote's.
        let borrowed = by_name(refname, &standing).is_some_and(|n| n != remote);
        if start_refs.is_some() && then != Some(commit) && matches!(standing[&remote], Standing::Counts) {
            out.moved.push((refname.clone(), remote.clone()));
        }
        // A ref two remotes' fetch refspecs write (now or at the start)
        // holds either's branch after a fetch or push of either: a move
        // since the start is no evidence of the one its name stands for.
        let shared = match &standing[&remote] {
            Standing::Counts if start_refs.is_none() || then != Some(commit) => {
                let said_by_a_fetch = || {
                    let Ok(Some(l)) = reflog::last_move(&reflog::log_of(repo.common_dir(), refname)) else {
                        return false;
                    };
                    if &l.new != commit || fetch_head::is_fetch(&l.message) {
                        return &l.new == commit;
                    }
                    let mut mapping =
                        start_remotes.and_then(|r| r.get(&remote)).map(|t| start_fetch(&remote, t)).unwrap_or_default();
                    mapping.extend(refspec::default_for(&remote));
                    let all = fetched.get_or_insert_with(|| fetch_head::read(repo));
                    l.message == "update by push"
                        && configured
                            .get(&remote)
                            .and_then(|c| c.url.as_deref())
                            .is_some_and(|u| fetch_head::confirms(all, refname, commit, l.time, u, &mapping))
                };
                shared_by(refname, &configured, start_remotes, &standing, said_by_a_fetch)
            }
            _ => None,
        };
        if let Some(why) = shared {
            out.shared.push(refname.clone());
            match then {
                Some(t) => out.refs.push(Tracking {
                    refname: refname.clone(),
                    remote,
                    commit: t.to_string(),
                    at_start: Some(why),
                }),
                None => out.set_aside.push(SetAside { subject: refname.clone(), why, appeared: false }),
            }
            continue;
        }
        match &standing[&remote] {
            Standing::NotEvidence { why, keeps_start } => match then.filter(|_| *keeps_start || borrowed) {
                Some(t) => out.refs.push(Tracking {
                    refname: refname.clone(),
                    remote,
                    commit: t.to_string(),
                    at_start: Some(why.clone()),
                }),
                None => out.set_aside.push(SetAside { subject: refname.clone(), why: why.clone(), appeared: false }),
            },
            Standing::Counts
                if start_refs.is_none()
                    || (then == Some(commit)
                        && !rewritten_since
                            .get(refname)
                            .unwrap_or_else(|| rewritten(repo.common_dir(), start, refname))?) =>
            {
                out.refs.push(Tracking { refname: refname.clone(), remote, commit: commit.clone(), at_start: None })
            }
            Standing::Counts => {
                let (line, renamed_from) = reflog::last_move_renamed(&reflog::log_of(repo.common_dir(), refname))?;
                // The remote as the line names it: under a name it had
                // before a `git remote rename` since (its URLs the start's
                // all along, or it would not count).
                let suffix = refname.strip_prefix(&format!("refs/remotes/{remote}")).unwrap_or_default();
                let called: Vec<&str> = renamed_from
                    .iter()
                    .filter_map(|from| from.strip_prefix("refs/remotes/")?.strip_suffix(suffix))
                    .collect();
                let from_remote = |root: &Path, l: &Line, remote: &str, url: Option<&str>| {
                    from_remote(root, l, remote, url) || called.iter().any(|c| from_remote(root, l, c, url))
                };
                let moved = if then == Some(commit) { "was deleted or rewritten" } else { "moved" };
                let url = configured.get(&remote).and_then(|c| c.url.as_deref());
                // What may write this ref: the remote's refspecs at the
                // start, and git's default (a branch onto its own name).
                let mut mapping = match start_remotes.and_then(|r| r.get(&remote)) {
                    Some(then) => start_fetch(&remote, then),
                    None => Vec::new(),
                };
                mapping.extend(refspec::default_for(&remote));
                let now_fetch = configured.get(&remote).map(|c| c.fetch.as_slice()).unwrap_or_default();
                let mapped = |l: &Line| {
                    refspec::agrees(&l.message, refname, &mapping)
                        && refspec::configured_agrees(now_fetch, refname, &mapping)
                };
                // What FETCH_HEAD says the fetch found where the line is one.
                let contradicted = match (&line, url) {
                    (Some(l), Some(u))
                        if &l.new == commit
                            && fetch_head::is_fetch(&l.message)
                            && from_remote(repo.root(), l, &remote, url) =>
                    {
                        let all = fetched.get_or_insert_with(|| fetch_head::read(repo));
                        fetch_head::contradiction(all, refname, commit, l.time, u, &mapping).cloned()
                    }
                    _ => None,
                };
                // A fetch that named its source unqualified, and no line of
                // its FETCH_HEAD saying it found that branch at the ref's
                // value: git may have resolved the name to a tag
                // (test/cases/539). Read only for such a line.
                let unresolved = match &line {
                    Some(l) if &l.new == commit && fetch_head::is_fetch(&l.message) => {
                        refspec::unqualified(&l.message, now_fetch, refname).into_iter().find(|name| {
                            !url.is_some_and(|u| {
                                let all = fetched.get_or_insert_with(|| fetch_head::read(repo));
                                fetch_head::found_branch(all, name, commit, l.time, u)
                            })
                        })
                    }
                    _ => None,
                };
                // A fetch told to write no FETCH_HEAD (`--no-write-fetch-head`)
                // leaves nothing to say what it found, so a refspec set for
                // it and put back is not seen: it counts only where a fetch
                // of the remote's URL since found the ref's commit there
                // (test/cases/574). Read only for such a line.
                let blind = line.as_ref().is_some_and(|l| {
                    &l.new == commit
                        && fetch_head::is_fetch(&l.message)
                        && l.message
                            .split_once(": ")
                            .map_or(l.message.as_str(), |(a, _)| a)
                            .split_whitespace()
                            .any(|w| w == "--no-write-fetch-head")
                        && !url.is_some_and(|u| {
                            let all = fetched.get_or_insert_with(|| fetch_head::read(repo));
                            fetch_head::confirms(all, refname, commit, l.time, u, &mapping)
                        })
                });
                // A fetch or pull that named no remote fetched the remote of
                // the branch then checked out (`branch.NAME.remote`), which
                // may be another than the ref's, under a refspec given for
                // it: it counts only where a FETCH_HEAD since says it found
                // the remote's branch at the ref's value (test/cases/654).
                let anonymous = line.as_ref().is_some_and(|l| {
                    &l.new == commit
                        && fetch_head::is_fetch(&l.message)
                        && names_no_remote(&l.message)
                        && !url.is_some_and(|u| {
                            let all = fetched.get_or_insert_with(|| fetch_head::read(repo));
                            fetch_head::confirms(all, refname, commit, l.time, u, &mapping)
                        })
                });
                // A push line at the ref's value, and no fetch of its URL
                // since that found the same commit (which confirms it).
                let unconfirmed_push = line.as_ref().is_some_and(|l| {
                    &l.new == commit
                        && l.message == "update by push"
                        && !url.is_some_and(|u| {
                            let all = fetched.get_or_insert_with(|| fetch_head::read(repo));
                            fetch_head::confirms(all, refname, commit, l.time, u, &mapping)
                        })
                });
                // A push to a remote that pushes to more than one place:
                // git writes the line when any of them accepted it.
                let doubt = match configured.get(&remote) {
                    Some(c) if unconfirmed_push => {
                        let (_, destinations) = all_urls(c, &rewrites);
                        let source = refspec::sources(&mapping, refname).into_iter().next();
                        (destinations.len() > 1)
                            .then(|| on_disk::unconfirmed(repo, &remote, &destinations, source.as_deref(), commit))
                            .flatten()
                            .map(|why| {
                                format!(
                                    "{remote} pushes to {} places ({}), and git writes \"update by push\" into {} when any one of them accepts the push, so the push is evidence only where each is read to hold it, and {why}; fetch {remote} (git fetch {remote}) so that {} says what the URL it fetches from holds",
                                    destinations.len(),
                                    destinations.join(", "),
                                    short(refname),
                                    short(refname)
                                )
                            })
                    }
                    _ => None,
                };
                // A push that went to none of the places the remote
                // fetches from: evidence of where it went, not of the
                // fetched branch the ref stands for.
                let elsewhere = configured
                    .get(&remote)
                    .filter(|_| unconfirmed_push && doubt.is_none())
                    .and_then(|c| pushes_elsewhere(repo.root(), c, &rewrites))
                    .map(|(from, to)| {
                        let branch = refspec::sources(&mapping, refname).into_iter().next();
                        let branch = branch.as_deref().map_or_else(|| short(refname).to_string(), |b| short(b).to_string());
                        PushedElsewhere {
                            refname: refname.clone(),
                            remote: remote.clone(),
                            fetched: then.map(str::to_string),
                            why: format!(
                                "{} {moved} since the start by a push to {}, not to {from}, the URL {remote} fetches from: git writes \"update by push\" into {} all the same, so it says what the push left there, not what {from} holds on {branch}; fetch {remote} (git fetch {remote}) so that {} says what {from} holds",
                                short(refname),
                                to.join(", "),
                                short(refname),
                                short(refname)
                            ),
                        }
                    });
                match line {
                    Some(l)
                        if &l.new == commit
                            && from_remote(repo.root(), &l, &remote, url)
                            && mapped(&l)
                            && contradicted.is_none()
                            && unresolved.is_none()
                            && !blind
                            && !anonymous
                            && doubt.is_none() =>
                    {
                        out.pushed_elsewhere.extend(elsewhere);
                        out.refs.push(Tracking {
                            refname: refname.clone(),
                            remote,
                            commit: commit.clone(),
                            at_start: None,
                        })
                    }
                    _ if doubt.is_some() => {
                        let doubt = doubt.unwrap_or_default();
                        match then {
                            Some(t) => out.refs.push(Tracking {
                                refname: refname.clone(),
                                commit: t.to_string(),
                                at_start: Some(format!(
                                    "{} {moved} since the start by a push: {doubt}",
                                    short(refname)
                                )),
                                remote,
                            }),
                            None => out.set_aside.push(SetAside {
                                subject: refname.clone(),
                                why: format!("{} appeared since the start by a push: {doubt}", short(refname)),
                                appeared: false,
                            }),
                        }
                    }
                    line => {
                        let how = match &line {
                            Some(l) if mapped(l) && contradicted.is_some() => {
                                let f = contradicted.as_ref().map(|f| (f.branch.as_str(), f.commit.as_str()));
                                let (branch, at) = f.unwrap_or_default();
                                format!(
                                    "by \"{}\", though FETCH_HEAD says that fetch found {remote}'s {} at {} (a refspec configured for the fetch and put back)",
                                    l.message,
                                    short(branch),
                                    &at[..at.len().min(12)]
                                )
                            }
                            Some(l) if mapped(l) && unresolved.is_some() => format!(
                                "by \"{}\", which names {remote}'s ref \"{}\" unqualified: git resolves such a name on {remote} in its own order, a tag of that name before the branch, and no FETCH_HEAD of that fetch says it found {remote}'s branch {} at {}; fetch {remote} (git fetch {remote}) so that {} says what {remote}'s branch holds",
                                l.message,
                                unresolved.as_deref().unwrap_or_default(),
                                unresolved.as_deref().unwrap_or_default(),
                                &commit[..commit.len().min(12)],
                                short(refname)
                            ),
                            Some(l) if mapped(l) && anonymous => format!(
                                "by \"{}\", a fetch that named no remote: git fetched the remote of the branch then checked out, which may be another than {remote} under a refspec given for that fetch, and no FETCH_HEAD since says it found {remote}'s branch at {}; fetch {remote} (git fetch {remote}) so that {} says what {remote}'s branch holds",
                                l.message,
                                &commit[..commit.len().min(12)],
                                short(refname)
                            ),
                            Some(l) if mapped(l) && blind => format!(
                                "by \"{}\", a fetch that wrote no FETCH_HEAD, so nothing says it found {remote}'s branch there rather than another ref a refspec set for the fetch and put back wrote into it; fetch {remote} (git fetch {remote}) so that {} says what {remote}'s branch holds",
                                l.message,
                                short(refname)
                            ),
                            Some(l) if &l.new == commit && from_remote(repo.root(), l, &remote, url) => format!(
                                "by \"{}\", which wrote into it another of {remote}'s refs than the one its refspecs at the start map onto it (a refspec given to the fetch, or configured since)",
                                l.message
                            ),
                            _ => moved_by(line.as_ref(), commit),
                        };
                        match then {
                            Some(t) => out.refs.push(Tracking {
                                refname: refname.clone(),
                                commit: t.to_string(),
                                at_start: Some(format!(
                                    "{} {moved} since the start {how}, not by a fetch or push of {remote}",
                                    short(refname)
                                )),
                                remote,
                            }),
                            None => out.set_aside.push(SetAside {
                                subject: refname.clone(),
                                why: format!(
                                    "{} appeared since the start {how}, not by a fetch or push of {remote}",
                                    short(refname)
                                ),
                                appeared: true,
                            }),
                        }
                    }
                }
            }
        }
    }
    // A remote on this machine is read itself (`on_disk.rs`).
    let on_disk: BTreeMap<String, on_disk::Remote> = configured
        .iter()
        .filter(|(name, _)| matches!(standing.get(*name), Some(Standing::Counts)))
        .filter_map(|(name, c)| {
            let (url, _) = urls(c, &rewrites)?;
            let mut mapping = match start_remotes.and_then(|r| r.get(name)) {
                Some(then) => start_fetch(name, then),
                None => c.fetch.clone(),
            };
            mapping.extend(refspec::default_for(name));
            Some((name.clone(), on_disk::Remote { url, mapping }))
        })
        .collect();
    on_disk::confirm(repo, &mut out, &on_disk, start_refs, now);
    // Each counted remote's branches no ref here stands for, under the
    // refspecs the start had (none without a task: nothing to ask it of).
    let mapped_at_start: BTreeMap<String, on_disk::Remote> = configured
        .iter()
        .filter(|(name, _)| matches!(standing.get(*name), Some(Standing::Counts)))
        .filter_map(|(name, c)| {
            let then = start_remotes?.get(name)?;
            Some((name.clone(), on_disk::Remote { url: urls(c, &rewrites)?.0, mapping: start_fetch(name, then) }))
        })
        .collect();
    // A branch the remote had at the start is none a push since made
    // (test/cases/488): a push to it is the task's work on the remote,
    // which `pushed` and `integrated` judge.
    let had = |remote: &str, branch: &str| {
        start_remotes
            .and_then(|r| r.get(remote))
            .and_then(|then| then.beyond_refspecs.as_ref())
            .is_some_and(|b| b.get(branch).is_some())
    };
    let mut unreadable = std::mem::take(&mut out.unreadable);
    out.beyond_refspecs = on_disk::beyond_refspecs(repo, &mapped_at_start, now, &mut unreadable)
        .into_iter()
        .filter(|(remote, branch, _)| !had(remote, branch))
        .collect();
    out.unreadable = unreadable;
    out.mirrors = configured.iter().filter(|(_, c)| c.mirror).map(|(name, _)| name.clone()).collect();
    let uncounted = {
        let counted_now: std::collections::HashSet<&str> =
            out.refs.iter().filter(|t| now.get(&t.refname) == Some(&t.commit)).map(|t| t.refname.as_str()).collect();
        now.iter()
            .filter(|(refname, _)| !counted_now.contains(refname.as_str()))
            .map(|(refname, commit)| (refname.clone(), commit.clone()))
            .collect()
    };
    out.uncounted = uncounted;
    // A removed remote's refs went with it: read at their start values.
    for (refname, then) in start_refs.into_iter().flatten() {
        if now.contains_key(refname) {
            continue;
        }
        let Some(remote) = owner(refname) else { continue };
        if configured.contains_key(&remote) {
            continue;
        }
        if let Standing::NotEvidence { why, .. } = &standing[&remote] {
            out.refs.push(Tracking {
                refname: refname.to_string(),
                remote,
                commit: then.to_string(),
                at_start: Some(why.clone()),
            });
        }
    }
    Ok(out)
}

/// The upstreams among `upstreams` (remote-tracking refs there now) that
/// a fetch since says their remote no longer has: a branch deleted on the
/// remote (by its forge as it merged it, or by anyone) leaves its ref here
/// until a prune (`git fetch --prune`, `fetch.prune`), and a plain fetch
/// or pull of the remote's branches since, listed in `FETCH_HEAD` without
/// it, says it is gone (`fetch_head::omits`: a fetch by the configured
/// refspecs, written after the ref's newest reflog line). Each with why.
/// Where no such fetch was made since (a remote across a network, not
/// fetched), the ref is the only word, and is taken. One a remote fetch
/// refspec excludes (`^refs/heads/...`), or two remotes write, is left to
/// its word. Reads nothing where no `FETCH_HEAD` is there, and a ref's
/// reflog only where the newest `FETCH_HEAD` of its remote omits its
/// branch.
pub fn gone_by_fetch<'a>(repo: &Repo, upstreams: impl IntoIterator<Item = &'a str>) -> Reading<Vec<(String, String)>> {
    let upstreams: Vec<&str> = upstreams.into_iter().filter(|u| u.starts_with("refs/remotes/")).collect();
    if upstreams.is_empty() {
        return Ok(Vec::new());
    }
    let fetched = fetch_head::read(repo);
    if fetched.is_empty() {
        return Ok(Vec::new());
    }
    let newest = fetch_head::newest_by_url(&fetched);
    let (configured, rewrites) = configuration(repo)?;
    let mut out = Vec::new();
    for refname in upstreams {
        let mut writers = configured.iter().filter_map(|(name, c)| {
            let source = refspec::sources(&c.fetch, refname).into_iter().next()?;
            Some((name, c, source))
        });
        let (Some((remote, c, branch)), None) = (writers.next(), writers.next()) else { continue };
        if !branch.starts_with("refs/heads/") || c.fetch.iter().any(|s| s.starts_with('^')) {
            continue;
        }
        let Some((url, _)) = urls(c, &rewrites) else { continue };
        // A reflog line the fetch wrote, at its file's time, naming no
        // refspec: the configured ones were fetched (a `git pull` on the
        // remote's only branch marks its one line for a merge).
        let by_configured = |lines: &[&fetch_head::Fetched]| {
            lines.iter().any(|f| {
                refspec::maps_onto(&c.fetch, &f.branch).iter().any(|r| {
                    reflog::last_line(&reflog::log_of(repo.common_dir(), r)).ok().flatten().is_some_and(|l| {
                        fetch_head::is_fetch(&l.message)
                            && (f.written - 1..=f.written + 1).contains(&l.time)
                            && refspec::named(&l.message).is_empty()
                    })
                })
            })
        };
        let Some(newest) = newest.get(fetch_head::shown(&url).as_str()) else { continue };
        if !newest.omits(&branch, i64::MIN, |_| true) {
            continue;
        }
        let Some(line) = reflog::last_line(&reflog::log_of(repo.common_dir(), refname))? else { continue };
        if newest.omits(&branch, line.time, by_configured) {
            out.push((
                refname.to_string(),
                format!(
                    "{} is still here at {}, but the fetch of {remote} that wrote FETCH_HEAD since it last moved listed {remote}'s branches ({}) without {}: deleted on {remote} and not pruned here (git fetch --prune {remote} removes it; a fetch that lists it again reads it alive)",
                    short(refname),
                    on_disk::abbrev(&line.new),
                    names_of(&newest.lines),
                    short(&branch),
                ),
            ));
        }
    }
    Ok(out)
}

/// The branches one `FETCH_HEAD` file lists of a remote, short, the
/// first few.
fn names_of(lines: &[&fetch_head::Fetched]) -> String {
    let listed: Vec<&str> = lines.iter().map(|f| short(&f.branch)).collect();
    match listed.len() {
        0..=3 => listed.join(", "),
        n => format!("{}, and {} more", listed[..3].join(", "), n - 3),
    }
}

/// What the snapshot records of the remotes: each configured remote's
/// URLs (after `insteadOf`) and the forge programs' default-repository
/// settings, and every remote-tracking ref's commit.
pub fn at_start_now(repo: &Repo) -> Reading<(BTreeMap<String, RemoteAtStart>, BTreeMap<String, String>)> {
    let (configured, rewrites) = configuration(repo)?;
    let refs = remote_refs(repo)?;
    let remotes = configured
        .iter()
        .filter_map(|(name, c)| {
            let (url, push) = urls(c, &rewrites)?;
            let push_url = (push != url).then_some(push);
            // Where each leads on this machine (test/cases/459).
            let url_leads = Some(on_disk::leads(repo.root(), &url));
            let push_url_leads = push_url.as_deref().map(|p| on_disk::leads(repo.root(), p));
            let (all, all_push) = all_urls(c, &rewrites);
            // Its branches no ref here stands for, where it is on this
            // machine (test/cases/488).
            let beyond = on_disk::untracked_branches(repo, &url, &c.fetch, &refs)
                .filter(|b| b.len() <= on_disk::BEYOND_KEPT)
                .map(|b| b.into_iter().map(|(branch, tip)| (branch, tip.to_string())).collect());
            Some((
                name.clone(),
                RemoteAtStart {
                    url,
                    push_url,
                    fetch: Some(c.fetch.clone()),
                    url_leads,
                    push_url_leads,
                    gh_resolved: c.gh_resolved.clone(),
                    glab_resolved: c.glab_resolved.clone(),
                    urls: (all.len() > 1).then_some(all),
                    push_urls: (all_push.len() > 1).then_some(all_push),
                    beyond_refspecs: beyond,
                },
            ))
        })
        .collect();
    Ok((remotes, refs))
}

/// Whether a remote's refs count, and if not, why and whether its refs
/// keep their start values (a remote removed or re-pointed since).
#[derive(Debug, Clone)]
enum Standing {
    Counts,
    NotEvidence { why: String, keeps_start: bool },
}

/// The URL a remote fetches from and the one it pushes to, as git
/// rewrites them: a `pushurl` by `insteadOf`, else the URL by
/// `pushInsteadOf` or, where none matches, `insteadOf`. `None` when no
/// URL is configured.
fn urls(remote: &Configured, rewrites: &Rewrites) -> Option<(String, String)> {
    let url = remote.url.as_deref()?;
    let fetch = effective(url, &rewrites.fetch).unwrap_or_else(|| url.to_string());
    let push = match remote.push_url.as_deref() {
        Some(p) => effective(p, &rewrites.fetch).unwrap_or_else(|| p.to_string()),
        None => effective(url, &rewrites.push).unwrap_or_else(|| fetch.clone()),
    };
    Some((fetch, push))
}

/// Where a remote's every push goes elsewhere than the URL it fetches
/// from (a push URL, or `url.<base>.pushInsteadOf`, naming a fork), and
/// that URL is across a network: the fetch URL and the places a push
/// goes. A fetch URL on this machine is read itself (`on_disk::confirm`),
/// so a push line there is already checked against what it holds. Two
/// texts for one repository (`git@github.com:o/r` beside
/// `https://github.com/o/r`) are not told apart from two repositories:
/// the ref waits for a fetch, as README.md says.
fn pushes_elsewhere(root: &Path, remote: &Configured, rewrites: &Rewrites) -> Option<(String, Vec<String>)> {
    let (from, _) = urls(remote, rewrites)?;
    if path_of(root, &from).is_some() {
        return None;
    }
    let (_, to) = all_urls(remote, rewrites);
    let same = |d: &String| {
        same_location(root, d, &from)
            || (path_of(root, d).is_none() && fetch_head::shown(d) == fetch_head::shown(&from))
    };
    (!to.is_empty() && !to.iter().any(same)).then_some((from, to))
}

/// Every URL a remote fetches from (git fetches from the first) and every
/// place a push goes (each push URL, or with none each URL), as git
/// rewrites them ([`urls`] for each): a second URL or push URL is a second
/// place every `git push` goes (test/cases/487).
fn all_urls(remote: &Configured, rewrites: &Rewrites) -> (Vec<String>, Vec<String>) {
    let fetch = |u: &String| effective(u, &rewrites.fetch).unwrap_or_else(|| u.clone());
    let urls: Vec<String> = remote.all_urls.iter().map(fetch).collect();
    let push = if remote.all_push_urls.is_empty() {
        remote.all_urls.iter().map(|u| effective(u, &rewrites.push).unwrap_or_else(|| fetch(u))).collect()
    } else {
        remote.all_push_urls.iter().map(fetch).collect()
    };
    (urls, push)
}

/// [`all_urls`] as the start recorded them: its lists where it kept more
/// than one, else its one URL and push URL (a record written before the
/// lists were kept says no more).
fn all_urls_then(then: &RemoteAtStart) -> (Vec<String>, Vec<String>) {
    let urls = then.urls.clone().unwrap_or_else(|| vec![then.url.clone()]);
    let push =
        then.push_urls.clone().unwrap_or_else(|| vec![then.push_url.clone().unwrap_or_else(|| then.url.clone())]);
    (urls, push)
}

/// `url.<base>.insteadOf` and `.pushInsteadOf` rewrites: (prefix, base).
#[derive(Debug, Default)]
struct Rewrites {
    fetch: Vec<(String, String)>,
    push: Vec<(String, String)>,
}

/// `url` rewritten by the rule with the longest matching prefix, as git's
/// `alias_url` picks it: git keeps one rewrite per base, in the order each
/// base first appears (the user's configuration before the repository's),
/// its prefixes in order, and of two equally long the first wins, so a
/// repository's `url.MIRROR.insteadOf up:` beside the user's
/// `url.REAL.insteadOf up:` leaves `up:` going to REAL
/// (test/cases/588). `None` when no rule matches.
fn effective(url: &str, rules: &[(String, String)]) -> Option<String> {
    let mut bases: Vec<&str> = Vec::new();
    for (_, base) in rules {
        if !bases.contains(&base.as_str()) {
            bases.push(base);
        }
    }
    let mut best: Option<(&str, &str)> = None;
    for base in bases {
        for (prefix, _) in rules.iter().filter(|(_, b)| b == base) {
            if url.starts_with(prefix.as_str()) && best.map_or(true, |(p, _)| p.len() < prefix.len()) {
                best = Some((prefix, base));
            }
        }
    }
    best.map(|(prefix, base)| format!("{base}{}", &url[prefix.len()..]))
}

/// Every remote's URLs and fetch destinations, and the URL rewrites, from
/// the configuration read once ([`Repo::config`]).
fn configuration(repo: &Repo) -> Reading<(BTreeMap<String, Configured>, Rewrites)> {
    let (mut remotes, rewrites) = configuration_of(&*repo.config()?);
    with_remotes_files(repo.common_dir(), &mut remotes)?;
    Ok((remotes, rewrites))
}

/// Adds the remotes git reads from files beside the configuration: a file
/// `remotes/NAME` in the common git directory defines the remote NAME
/// where the configuration gives it no URL (git's older way, which `git
/// fetch NAME` and `git push NAME` still read, as `git remote -v` lists
/// it): its `URL:` lines are its URLs, its `Pull:` lines its fetch
/// refspecs, which say which remote-tracking refs a fetch or push of it
/// writes. Unread, a push to such a remote whose `Pull:` line maps onto
/// `refs/remotes/origin/main` read as a push to origin (test/cases/586).
/// One `read_dir` where there is no such directory; a file that cannot be
/// read leaves the remotes unread (which refs it writes is not known).
fn with_remotes_files(common: &Path, remotes: &mut BTreeMap<String, Configured>) -> Reading<()> {
    let dir = common.join("remotes");
    let listed = match std::fs::read_dir(&dir) {
        Ok(listed) => listed,
        Err(e) if matches!(e.kind(), std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory) => return Ok(()),
        Err(e) => return Err(Unread::io(format!("the directory {}: {e}", dir.display()))),
    };
    for entry in listed {
        let entry = entry.map_err(|e| Unread::io(format!("the directory {}: {e}", dir.display())))?;
        let Ok(name) = entry.file_name().into_string() else { continue };
        if remotes.get(&name).is_some_and(|c| c.url.is_some()) {
            continue;
        }
        let path = entry.path();
        // git opens a directory there and reads no line from it.
        if std::fs::metadata(&path).is_ok_and(|m| m.is_dir()) {
            continue;
        }
        let bytes = crate::file::read(&path).map_err(|e| Unread::io(e.to_string()))?;
        let (urls, pulls) = remotes_file(&String::from_utf8_lossy(&bytes));
        // With no URL, git reads no remote by that name from it.
        if urls.is_empty() {
            continue;
        }
        let c = remotes.entry(name).or_default();
        c.file = Some(path);
        for url in urls {
            c.url.get_or_insert_with(|| url.clone());
            c.all_urls.push(url);
        }
        for spec in pulls {
            c.add_fetch(&spec);
        }
    }
    Ok(())
}

/// The URLs and the fetch refspecs a `remotes/NAME` file gives, as git's
/// `read_remotes_file` reads it: `URL:` and `Pull:` lines, trailing
/// white space taken off, the value after the colon's spaces.
fn remotes_file(text: &str) -> (Vec<String>, Vec<String>) {
    let (mut urls, mut pulls) = (Vec::new(), Vec::new());
    for line in text.split('\n').map(str::trim_end) {
        if let Some(v) = line.strip_prefix("URL:") {
            urls.push(v.trim_start().to_string());
        } else if let Some(v) = line.strip_prefix("Pull:") {
            pulls.push(v.trim_start().to_string());
        }
    }
    (urls, pulls)
}

/// The URLs each remote of `repo` (a submodule) fetches from and pushes
/// to, as git rewrites them (see [`urls`]), by name.
pub(super) fn remote_urls(repo: &git2::Repository) -> Reading<BTreeMap<String, (String, String)>> {
    let (mut remotes, rewrites) = configuration_of(&Config::read(repo)?);
    with_remotes_files(repo.commondir(), &mut remotes)?;
    Ok(remotes.iter().filter_map(|(name, c)| Some((name.clone(), urls(c, &rewrites)?))).collect())
}

/// `url` as the rewrites outside `repo`'s own configuration file (the
/// user's and the system's `url.*.insteadOf`, a mirror say) make it,
/// fetching and pushing: a URL a submodule's remote is compared with is
/// rewritten by them alike, never by a rule in the submodule's own file.
pub(super) fn outer_urls(repo: &git2::Repository, url: &str) -> Reading<(String, String)> {
    let config = Config::read(repo)?;
    let outer = config.entries().filter(|e| {
        !matches!(e.level, git2::ConfigLevel::Local | git2::ConfigLevel::Worktree | git2::ConfigLevel::App)
    });
    let (_, rewrites) = entries_of(outer);
    let remote = Configured { url: Some(url.to_string()), ..Configured::default() };
    Ok(urls(&remote, &rewrites).unwrap_or_else(|| (url.to_string(), url.to_string())))
}

/// The counted remote-tracking refs of a submodule (`sub`, checked out at
/// `dir`) read against their remotes where those are repositories on
/// this machine, as [`on_disk`] reads the superproject's: the remote's
/// own branch the ref stands for (by the remote's fetch refspecs, git's
/// default without one) must hold the ref's commit. A ref whose branch
/// does not is read at the branch's tip where the submodule has that
/// commit, and set aside where it has not or the remote lacks the
/// branch; one whose URL names no repository here is set aside. So a
/// push under a push URL given for one command (`git -C lib -c
/// remote.origin.pushurl=ELSEWHERE push origin HEAD:main`), or a line
/// written by hand (`git update-ref -m "update by push"`), does not make
/// a commit held by a remote that never received it (test/cases/555). A
/// remote across a network is left to its refs' word. Each remote is
/// opened once; this runs only where a submodule's commit is asked of.
/// Returns the refs kept, each at the commit it counts at, and those set
/// aside, each with the commit it claimed and why.
pub(super) fn submodule_refs_on_disk(
    sub: &git2::Repository,
    dir: &Path,
    counted: Vec<(String, Oid)>,
) -> Reading<SubmoduleRefs> {
    let (mut configured, rewrites) = configuration_of(&Config::read(sub)?);
    with_remotes_files(sub.commondir(), &mut configured)?;
    let mut opened: BTreeMap<String, on_disk::Place> = BTreeMap::new();
    let (mut kept, mut aside) = (Vec::with_capacity(counted.len()), Vec::new());
    for (refname, commit) in counted {
        let remote = super::submodules::remote_of(&refname).to_string();
        let Some(conf) = configured.get(&remote) else {
            kept.push((refname, commit));
            continue;
        };
        let Some((url, _)) = urls(conf, &rewrites) else {
            kept.push((refname, commit));
            continue;
        };
        let place = opened.entry(remote.clone()).or_insert_with(|| on_disk::open_from(dir, &url));
        let (path, theirs) = match place {
            on_disk::Place::Network => {
                kept.push((refname, commit));
                continue;
            }
            on_disk::Place::Nothing(path, reason) => {
                let why = format!("{remote}'s URL names {} on this machine, {reason}", path.display());
                aside.push(SubmoduleRefAside { refname, commit, why, unreadable: false });
                continue;
            }
            on_disk::Place::Unreadable(path, reason) => {
                let why = format!("{remote}'s URL names {} on this machine, {reason}", path.display());
                aside.push(SubmoduleRefAside { refname, commit, why, unreadable: true });
                continue;
            }
            on_disk::Place::Here(path, theirs) => (path.clone(), &*theirs),
        };
        let mapping = if conf.fetch.is_empty() { refspec::default_for(&remote) } else { conf.fetch.clone() };
        let source = refspec::sources(&mapping, &refname).into_iter().next();
        let tip = source.as_deref().and_then(|s| theirs.refname_to_id(s).ok());
        if on_disk::holds(theirs, tip, &commit.to_string()) {
            kept.push((refname, commit));
            continue;
        }
        let branch = source.as_deref().map_or("the branch it stands for", short).to_string();
        let why = match tip {
            None => format!("{remote}'s own repository on this machine, {}, has no {branch}", path.display()),
            Some(tip) => format!(
                "{remote}'s own repository on this machine, {}, holds {branch} at {}, which does not hold it",
                path.display(),
                on_disk::abbrev(&tip.to_string())
            ),
        };
        if let Some(tip) = tip.filter(|t| sub.find_commit(*t).is_ok()) {
            kept.push((refname.clone(), tip));
        }
        aside.push(SubmoduleRefAside { refname, commit, why, unreadable: false });
    }
    Ok((kept, aside))
}

/// What [`submodule_refs_on_disk`] kept, each ref at the commit it counts
/// at, and what it set aside.
pub type SubmoduleRefs = (Vec<(String, Oid)>, Vec<SubmoduleRefAside>);

/// A submodule's remote-tracking ref [`submodule_refs_on_disk`] did not
/// take at its word: the commit it says its remote holds, and why the
/// remote was read not to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubmoduleRefAside {
    pub refname: String,
    pub commit: Oid,
    pub why: String,
    /// Its remote is a repository on this machine majordomus cannot read
    /// (reftable, an unknown extension): whether it holds the commit is
    /// unknown, not no (test/cases/613).
    pub unreadable: bool,
}

/// [`configuration`] of one configuration.
fn configuration_of(config: &Config) -> (BTreeMap<String, Configured>, Rewrites) {
    entries_of(config.entries())
}

/// The remotes and the URL rewrites `entries` set.
fn entries_of<'a>(entries: impl Iterator<Item = &'a Entry>) -> (BTreeMap<String, Configured>, Rewrites) {
    let mut remotes: BTreeMap<String, Configured> = BTreeMap::new();
    let mut rewrites = Rewrites::default();
    for entry in entries {
        let key = entry.name.as_str();
        let Some((section, rest)) = key.split_once('.') else { continue };
        let Some((middle, last)) = rest.rsplit_once('.') else { continue };
        // A `mirror` written without `=` is true, as git reads a boolean.
        if (section, last) == ("remote", "mirror") && entry.valueless {
            remotes.entry(middle.to_string()).or_default().mirror = true;
            continue;
        }
        let Some(value) = entry.value.as_deref() else { continue };
        match (section, last) {
            ("remote", "url") => {
                let r = remotes.entry(middle.to_string()).or_default();
                r.url.get_or_insert_with(|| value.to_string());
                r.all_urls.push(value.to_string());
            }
            ("remote", "pushurl") => {
                let r = remotes.entry(middle.to_string()).or_default();
                r.push_url.get_or_insert_with(|| value.to_string());
                r.all_push_urls.push(value.to_string());
            }
            // The last value wins, as git reads a boolean.
            ("remote", "mirror") => {
                let on = matches!(value.to_ascii_lowercase().as_str(), "true" | "yes" | "on" | "1" | "");
                remotes.entry(middle.to_string()).or_default().mirror = on;
            }
            ("remote", "fetch") => remotes.entry(middle.to_string()).or_default().add_fetch(value),
            // The last value wins, as gh and glab read it (`git config --get`).
            ("remote", "gh-resolved") => {
                remotes.entry(middle.to_string()).or_default().gh_resolved = Some(value.into())
            }
            ("remote", "glab-resolved") => {
                remotes.entry(middle.to_string()).or_default().glab_resolved = Some(value.into());
            }
            ("url", "insteadof") => rewrites.fetch.push((value.to_string(), middle.to_string())),
            ("url", "pushinsteadof") => rewrites.push.push((value.to_string(), middle.to_string())),
            _ => {}
        }
    }
    (remotes, rewrites)
}

/// The remote `refname` belongs to: the remote whose fetch refspec writes
/// it (a remote not counted wins over one that is, so one remote's
/// refspec cannot launder another's refs), else the longest remote name
/// (now or at the start) it lies under. Only refs under `refs/remotes/`
/// reach here.
fn owner_of(
    refname: &str,
    configured: &BTreeMap<String, Configured>,
    standing: &BTreeMap<String, Standing>,
) -> Option<String> {
    let writers: Vec<&String> = configured
        .iter()
        .filter(|(_, c)| c.destinations.iter().any(|d| matches_destination(d, refname)))
        .map(|(n, _)| n)
        .collect();
    if let Some(w) = writers.iter().find(|n| matches!(standing.get(n.as_str()), Some(Standing::NotEvidence { .. }))) {
        return Some((*w).clone());
    }
    if let Some(w) = writers.first() {
        return Some((*w).clone());
    }
    by_name(refname, standing)
}

/// Why `refname` is evidence of no one remote, where the fetch refspecs of
/// two or more remotes write it (a `fork` remote fetching
/// `+refs/heads/*:refs/remotes/origin/*`): a fetch or a push of either
/// moves it, and its reflog's `update by push` says not which. A refspec
/// since put right still counts against a push line (written while it
/// was in force, or after), not against a fetch, whose own line and
/// `FETCH_HEAD` say which remote it read, nor a push a fetch of the
/// remote's URL since found there (`said_by_a_fetch`). `None` where one
/// remote writes it, or none does.
fn shared_by(
    refname: &str,
    configured: &BTreeMap<String, Configured>,
    start_remotes: Option<&BTreeMap<String, RemoteAtStart>>,
    standing: &BTreeMap<String, Standing>,
    said_by_a_fetch: impl FnOnce() -> bool,
) -> Option<String> {
    let now: BTreeSet<&String> =
        configured.iter().filter(|(_, c)| !refspec::sources(&c.fetch, refname).is_empty()).map(|(n, _)| n).collect();
    let then = start_remotes
        .into_iter()
        .flatten()
        .filter(|(n, t)| !refspec::sources(&start_fetch(n, t), refname).is_empty())
        .map(|(n, _)| n);
    let writers: BTreeSet<&String> = now.iter().copied().chain(then).collect();
    if writers.len() < 2 || (now.len() < 2 && said_by_a_fetch()) {
        return None;
    }
    let named = by_name(refname, standing);
    let other = writers.iter().find(|w| Some(w.as_str()) != named.as_deref()).expect("two writers");
    let names: Vec<&str> = writers.iter().map(|w| w.as_str()).collect();
    // A remote defined by a `remotes/NAME` file takes its refspecs from
    // its `Pull:` lines, whatever the configuration adds.
    let own = match configured.get(other.as_str()).and_then(|c| c.file.as_ref()) {
        Some(file) => format!("its Pull: lines in {} made Pull: +refs/heads/*:refs/remotes/{other}/*", file.display()),
        None => format!("git config --replace-all remote.{other}.fetch '+refs/heads/*:refs/remotes/{other}/*'"),
    };
    Some(format!(
        "{} is written by the fetch refspecs of {} (configured now or at the start), so a fetch or push of either moves it and what it holds may be either's; give each remote refs of its own ({own}), then fetch the remote it stands for",
        short(refname),
        names.join(" and "),
    ))
}

/// The remote `refname` lies under by name (`refs/remotes/NAME/...`), the
/// longest such name among those configured now or at the start.
fn by_name(refname: &str, standing: &BTreeMap<String, Standing>) -> Option<String> {
    super::remote_under(refname, standing.keys()).map(str::to_string)
}

/// Whether a refspec destination (`refs/remotes/origin/*`, or one ref)
/// writes `refname`.
fn matches_destination(dst: &str, refname: &str) -> bool {
    match dst.split_once('*') {
        Some((prefix, suffix)) => {
            refname.len() > prefix.len() + suffix.len() && refname.starts_with(prefix) && refname.ends_with(suffix)
        }
        None => dst == refname,
    }
}

/// Every direct ref under `refs/remotes/` and its commit, read from the
/// ref files ([`super::local`]: libgit2 parses all of `packed-refs` into a
/// sorted cache to list a few remote-tracking refs).
pub fn remote_refs(repo: &Repo) -> Reading<BTreeMap<String, String>> {
    let refs = super::local::direct_refs(repo.common_dir(), "refs/remotes")?;
    Ok(refs.into_iter().map(|(name, id)| (name, id.to_string())).collect())
}

/// The URL `remote` is configured with now, as [`evidence_with`] tells
/// its fetch lines by it ([`from_remote`]): `None` when it has none.
pub(super) fn fetch_url(repo: &Repo, remote: &str) -> Reading<Option<String>> {
    let (configured, _) = configuration(repo)?;
    Ok(configured.get(remote).and_then(|c| c.url.clone()))
}

/// Whether a reflog line is a fetch from `remote` (by its name, its URL,
/// or every remote), a clone from its URL, or a push, which git logs as
/// `update by push` once the remote accepted it. `root` is the working
/// tree relative URLs are resolved from.
pub(super) fn from_remote(root: &Path, line: &Line, remote: &str, url: Option<&str>) -> bool {
    let message = line.message.as_str();
    if message == "update by push" {
        return true;
    }
    if let Some(from) = message.strip_prefix("clone: from ") {
        return url.is_some_and(|u| same_location(root, from, u));
    }
    let action = message.split_once(": ").map_or(message, |(a, _)| a);
    let mut words = action.split_whitespace();
    if !matches!(words.next(), Some("fetch" | "pull")) {
        return false;
    }
    let (mut all, mut multiple, mut positional) = (false, false, Vec::new());
    while let Some(word) = words.next() {
        match word {
            "--all" => all = true,
            "--multiple" => multiple = true,
            w if refspec::VALUED.contains(&w) => {
                words.next();
            }
            w if w.starts_with('-') => {}
            w => positional.push(w),
        }
    }
    let names = |w: &&str| *w == remote || url.is_some_and(|u| same_location(root, w, u));
    match (all, multiple) {
        (true, _) => positional.is_empty() || positional.iter().any(names),
        (false, true) => positional.iter().any(names),
        (false, false) => positional.first().map_or(true, names),
    }
}

/// Whether a fetch's or pull's reflog message names no remote, nor `--all`
/// (`fetch: fast-forward`, `pull --rebase: fast-forward`): git then
/// fetched the current branch's remote, whichever it was.
fn names_no_remote(message: &str) -> bool {
    let action = message.split_once(": ").map_or(message, |(a, _)| a);
    let mut words = action.split_whitespace();
    if !matches!(words.next(), Some("fetch" | "pull")) {
        return false;
    }
    while let Some(word) = words.next() {
        match word {
            "--all" | "--multiple" => return false,
            w if refspec::VALUED.contains(&w) => {
                words.next();
            }
            w if w.starts_with('-') => {}
            _ => return false,
        }
    }
    true
}

/// How a ref came to hold `commit`, from its reflog's newest line.
fn moved_by(line: Option<&Line>, commit: &str) -> String {
    match line {
        None => "with no reflog line (written by hand, or with reflogs off)".to_string(),
        Some(l) if l.new != commit => "with no reflog line for its value (written by hand)".to_string(),
        Some(l) if l.message.is_empty() => "by a ref update with no message (git update-ref)".to_string(),
        Some(l) => format!("by \"{}\"", l.message),
    }
}

/// Whether two URLs name the same place: equal, or local paths that
/// resolve to the same directory.
pub(super) fn same_location(root: &Path, a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    match (local_path(root, a), local_path(root, b)) {
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

/// Whether `url` names a directory on this machine (a path, or a
/// `file://` URL), not a place across a network.
pub fn on_this_machine(url: &str) -> bool {
    path_of(Path::new("/"), url).is_some()
}

/// Whether `repo` has a remote and every URL each of its remotes fetches
/// from or pushes to, as git rewrites them, is a directory on this machine
/// ([`on_this_machine`]): then no forge holds its pull requests. Reads the
/// configuration only.
pub fn remotes_on_this_machine(repo: &Repo) -> Reading<bool> {
    let (configured, rewrites) = configuration(repo)?;
    let mut any = false;
    for remote in configured.values() {
        let Some((url, push)) = urls(remote, &rewrites) else { continue };
        let (all, all_push) = all_urls(remote, &rewrites);
        any = true;
        if ![url, push].iter().chain(&all).chain(&all_push).all(|u| on_this_machine(u)) {
            return Ok(false);
        }
    }
    Ok(any)
}

/// The directory a URL names when it is a local path or `file://` URL,
/// resolved against the root (git resolves it from there) and
/// canonicalized; `None` for a network URL or a path that does not exist.
/// Found as git finds it ([`repository_at`]): `../origin` names
/// `../origin.git` where only that is a repository.
pub(super) fn local_path(root: &Path, url: &str) -> Option<PathBuf> {
    let path = path_of(root, url)?;
    repository_at(&path).or(Some(path)).and_then(|p| p.canonicalize().ok())
}

/// The path a local URL names, resolved as git resolves it; `None` for a
/// URL across a network. This is the one place a URL becomes a path. A
/// `file://` URL names its path, `%XX` decoded, whatever its host (git's
/// `parse_connect_url` keeps only the path: `file://localhost/srv/o.git`
/// is `/srv/o.git`). A path beginning `~/` or `~NAME/` is under that home
/// (the transport's `enter_repo` expands it: test/cases/540). Any other
/// relative path is resolved against the root, where git runs.
pub(super) fn path_of(root: &Path, url: &str) -> Option<PathBuf> {
    let path = if let Some(rest) = url.strip_prefix("file://") {
        let at = rest.find('/')?;
        PathBuf::from(std::ffi::OsString::from_vec(percent_decoded(&rest[at..])))
    } else if url.contains("://") {
        return None;
    } else if url.find(':').is_some_and(|c| !url[..c].contains('/')) {
        // `host:path`, scp-like: a network URL.
        return None;
    } else if let Some(rest) = url.strip_prefix('~') {
        let (user, under) = rest.split_once('/').unwrap_or((rest, ""));
        // A home that cannot be found is none git finds either: the
        // path is kept as written, a place that holds no repository.
        match home_of(user) {
            Some(home) => home.join(under),
            None => PathBuf::from(url),
        }
    } else {
        PathBuf::from(url)
    };
    Some(if path.is_absolute() { path } else { root.join(path) })
}

/// The home directory `~NAME` names: `$HOME` for an empty name (git's
/// `interpolate_path`), else the account's in `/etc/passwd`.
fn home_of(user: &str) -> Option<PathBuf> {
    if user.is_empty() {
        return std::env::var_os("HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
    }
    let text = std::fs::read_to_string("/etc/passwd").ok()?;
    text.lines().find_map(|l| {
        let fields: Vec<&str> = l.split(':').collect();
        (fields.len() >= 6 && fields[0] == user && !fields[5].is_empty()).then(|| PathBuf::from(fields[5]))
    })
}

/// A URL's path with each `%XX` turned into its byte, as git's
/// `url_decode` does for a `file://` URL.
fn percent_decoded(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes.get(i + 1..i + 3).filter(|h| bytes[i] == b'%' && h.iter().all(u8::is_ascii_hexdigit));
        match hex.and_then(|h| u8::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok()) {
            Some(b) => {
                out.push(b);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    out
}

/// The repository git's transport finds at a local path, trying what git
/// tries in its order (`enter_repo`): `PATH/.git`, `PATH`, `PATH.git/.git`,
/// `PATH.git`; the first that is a git directory (a `HEAD` and an
/// `objects` directory) or a working tree's `.git` file's.
fn repository_at(path: &Path) -> Option<PathBuf> {
    let text = path.as_os_str().as_encoded_bytes();
    let with = |suffix: &str| {
        let mut bytes = text.to_vec();
        bytes.extend_from_slice(suffix.as_bytes());
        PathBuf::from(std::ffi::OsString::from_vec(bytes))
    };
    ["/.git", "", ".git/.git", ".git"].into_iter().map(with).find_map(|c| {
        if c.join("HEAD").is_file() && c.join("objects").is_dir() {
            Some(c)
        } else if c.ends_with(".git") && c.is_file() {
            c.parent().map(Path::to_path_buf)
        } else {
            None
        }
    })
}

/// Whether `url` names this repository: its working tree, its git
/// directory, or any of its worktrees.
fn points_here(repo: &Repo, url: &str) -> Option<Here> {
    points_at(repo.root(), repo.common_dir(), url)
}

/// How a URL leads to this repository ([`points_at`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Here {
    /// The URL names this repository itself.
    Itself,
    /// The URL names another repository whose object store borrows from
    /// this one's (`objects/info/alternates`, as `git clone --shared` or
    /// `--reference` of this repository writes it): a push there sends no
    /// object this repository has, so the remote's refs lead to commits
    /// only this repository holds (test/cases/597). Its common git
    /// directory.
    Borrows(PathBuf),
}

/// The way out for a remote that borrows its objects: take a copy of its
/// own and stop borrowing, as `git repack -a -d` then removing the
/// alternates file does (git's documented way, `git clone --dissociate`).
fn borrowed(dir: &Path) -> String {
    let dir = crate::shell_word(&dir.to_string_lossy());
    format!("its objects/info/alternates leads here, so what is pushed there is held only here; give it its own copy: git -C {dir} repack -a -d && rm {dir}/objects/info/alternates")
}

/// Whether `url`, resolved from `root`, names the repository whose common
/// git directory is `common_dir`, or one whose object store borrows from
/// that repository's (read only for a URL on this machine, one file per
/// alternate).
pub(super) fn points_at(root: &Path, common_dir: &Path, url: &str) -> Option<Here> {
    let path = local_path(root, url)?;
    let ours = common_dir.canonicalize().ok()?;
    let flags = git2::RepositoryOpenFlags::NO_SEARCH;
    let other = git2::Repository::open_ext(&path, flags, std::iter::empty::<&std::ffi::OsStr>()).ok()?;
    let theirs = other.commondir().canonicalize().ok()?;
    if theirs == ours {
        return Some(Here::Itself);
    }
    borrows_from(&theirs.join("objects"), &ours.join("objects")).then_some(Here::Borrows(theirs))
}

/// Whether the object directory `objects` reaches `ours` through its
/// alternates, as git follows them: each line of `info/alternates` a
/// directory (relative to `objects`), blank lines and `#` comments
/// skipped, alternates of alternates followed up to git's depth of five.
fn borrows_from(objects: &Path, ours: &Path) -> bool {
    let Ok(ours) = ours.canonicalize() else { return false };
    let mut frontier = vec![objects.to_path_buf()];
    for _ in 0..=5 {
        let mut next = Vec::new();
        for dir in &frontier {
            let Ok(Some(bytes)) = crate::file::read_optional(&dir.join("info").join("alternates")) else { continue };
            for line in String::from_utf8_lossy(&bytes).lines() {
                let line = line.trim_end_matches('\r');
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                let Ok(alt) = dir.join(line).canonicalize() else { continue };
                if alt == ours {
                    return true;
                }
                next.push(alt);
            }
        }
        if next.is_empty() {
            return false;
        }
        frontier = next;
    }
    false
}

/// The grafts file, when it holds a graft: `info/grafts` in the common
/// git directory (or the worktree's own).
fn grafts(repo: &Repo) -> Reading<Option<PathBuf>> {
    grafts_in(&[repo.common_dir(), repo.git_dir()])
}

/// The first of `dirs`' grafts files (`DIR/info/grafts`) holding a graft.
pub(crate) fn grafts_in(dirs: &[&Path]) -> Reading<Option<PathBuf>> {
    for dir in dirs {
        let path = dir.join("info").join("grafts");
        match crate::file::read_optional(&path) {
            Ok(Some(bytes)) => {
                let text = String::from_utf8_lossy(&bytes);
                if text.lines().any(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#')) {
                    return Ok(Some(path));
                }
            }
            Ok(None) => {}
            Err(e) => return Err(Unread::io(e.to_string())),
        }
    }
    Ok(None)
}

/// The remote of the start that `name`, added since, is under another
/// name: the one whose URLs (fetch and push, as git rewrites them) are
/// `now`'s, where it is gone now or points elsewhere; `None` where no
/// remote or more than one is.
fn renamed_from(
    name: &str,
    now: &Configured,
    configured: &BTreeMap<String, Configured>,
    start_remotes: Option<&BTreeMap<String, RemoteAtStart>>,
    rewrites: &Rewrites,
) -> Option<Renamed> {
    let urls = all_urls(now, rewrites);
    let mut found = start_remotes?.iter().filter(|(then, t)| {
        then.as_str() != name
            && all_urls_then(t) == urls
            && configured.get(then.as_str()).map_or(true, |c| all_urls(c, rewrites) != urls)
    });
    let (then, _) = found.next()?;
    if found.next().is_some() {
        return None;
    }
    Some(Renamed { then: then.clone(), now: name.to_string(), then_taken: configured.contains_key(then.as_str()) })
}

/// The commands that give a renamed remote its start's name again: the
/// remote now under that name renamed out of the way first.
pub fn rename_back(r: &Renamed) -> String {
    let back = format!("git remote rename {} {}", crate::shell_word(&r.now), crate::shell_word(&r.then));
    match r.then_taken {
        true => format!("git remote rename {} NAME && {back}", crate::shell_word(&r.then)),
        false => back,
    }
}

/// A remote's fetch refspecs at the start: as the record kept them, or
/// git's default where a record written before they were kept holds none.
fn start_fetch(name: &str, then: &RemoteAtStart) -> Vec<String> {
    then.fetch.clone().unwrap_or_else(|| refspec::default_for(name))
}

/// `origin/main` for `refs/remotes/origin/main`.
fn short(refname: &str) -> &str {
    refname.strip_prefix("refs/remotes/").or_else(|| refname.strip_prefix("refs/heads/")).unwrap_or(refname)
}

mod fetch_head;
mod on_disk;
pub(crate) use on_disk::unreadable_at;
mod refspec;
mod rewritten;

use rewritten::rewritten;
pub use rewritten::{newest_lines, KnownLogs, UpstreamsRewritten};

#[cfg(test)]
mod tests;
