//! A remote on this machine, read itself.
//!
//! A remote-tracking ref is this repository's word for what a remote
//! holds, and git writes it on its own say-so. A push under a push URL
//! given for one command (`git -c remote.origin.pushurl=ELSEWHERE push`,
//! or one set in a configuration file git reads and majordomus cannot, or
//! set and unset around the push) updates `origin/main` though origin
//! never saw the commit, and the reflog says `update by push`; a remote
//! re-pointed at this repository for one fetch (`git -c
//! url.HERE.insteadOf=ORIGIN fetch origin`) fills `origin/main` from
//! here, and the reflog says `fetch origin`. Nothing of either is left in
//! this repository to read.
//!
//! Where the remote is a repository on this machine (a path or a
//! `file://` URL), its word need not be taken: the remote's own branch is
//! read, and a remote-tracking ref counts only at a commit that branch
//! holds: its tip, or one its tip descends from (a ref behind its remote,
//! which someone else pushed to since the last fetch, is behind, not
//! wrong). A ref at a commit its remote's branch does not hold is read at
//! the branch's tip, named, where this repository has that commit, and is
//! set aside, named, where it has not; one whose branch the remote no
//! longer has is gone.
//! A remote across a network is left to its refs' word. One whose URL
//! names a path on this machine where there is no repository (removed
//! since the push, or never one) holds nothing: its refs moved since the
//! start are set aside, named (a ref at its start value holds no work of
//! the task's, and is left as it is).

use std::collections::BTreeMap;
use std::path::PathBuf;

use git2::Oid;
use majordomus_records::names::Names;

use super::{local_path, path_of, refspec, short, RemoteEvidence, SetAside, Tracking};
use crate::Repo;

/// A remote's fetch URL (as git rewrites it) and the refspecs that say
/// which of its refs each remote-tracking ref stands for.
pub(super) struct Remote {
    pub url: String,
    pub mapping: Vec<String>,
}

/// Reads every counted ref of a remote on this machine against the
/// remote's own branch (see the module's essay). A ref at its value at the
/// start (`start_refs`, where there is a task) is left to its word: it
/// can hold no commit made since, so it can make no work of the task's
/// look pushed, and reading each of a thousand upstreams in their remote
/// at every check would cost four system calls apiece.
pub(super) fn confirm(
    repo: &Repo,
    out: &mut RemoteEvidence,
    remotes: &BTreeMap<String, Remote>,
    start_refs: Option<&Names<String>>,
    now: &BTreeMap<String, String>,
) {
    let mut opened: BTreeMap<String, Place> = BTreeMap::new();
    let mut kept = Vec::with_capacity(out.refs.len());
    for t in std::mem::take(&mut out.refs) {
        // Moved since the start with no reflog line to say how (its reflogs
        // expired: `git reflog expire --expire=now --all`), and so read at
        // its start value: where its remote is on this machine and the
        // remote's own branch holds the ref's commit now, what the ref says
        // is what the remote holds, and it counts at its value now (a ref
        // written by hand to a commit the remote lacks still does not).
        let moved_unlogged = t.at_start.is_some() && now.get(&t.refname).is_some_and(|c| *c != t.commit);
        if let (true, Some(remote), Some(commit)) = (moved_unlogged, remotes.get(&t.remote), now.get(&t.refname)) {
            if let Place::Here(_, theirs) = opened.entry(t.remote.clone()).or_insert_with(|| open(repo, &remote.url)) {
                let source = refspec::sources(&remote.mapping, &t.refname).into_iter().next();
                if source.is_some_and(|s| holds(theirs, theirs.refname_to_id(&s).ok(), commit)) {
                    kept.push(Tracking { commit: commit.clone(), at_start: None, ..t });
                    continue;
                }
            }
        }
        let at_start = start_refs.is_some_and(|r| r.get(&t.refname) == Some(&t.commit));
        let Some(remote) = remotes.get(&t.remote).filter(|_| !at_start) else {
            kept.push(t);
            continue;
        };
        let (path, theirs) = match opened.entry(t.remote.clone()).or_insert_with(|| open(repo, &remote.url)) {
            Place::Network => {
                kept.push(t);
                continue;
            }
            Place::Nothing(path, reason) => {
                let why = format!(
                    "{} says {} is there, but {}'s URL names {} on this machine, {reason}",
                    short(&t.refname),
                    abbrev(&t.commit),
                    t.remote,
                    path.display()
                );
                out.set_aside.push(SetAside { subject: t.refname, why, appeared: true });
                continue;
            }
            Place::Here(path, theirs) => (path, theirs),
        };
        let Some(source) = refspec::sources(&remote.mapping, &t.refname).into_iter().next() else {
            kept.push(t);
            continue;
        };
        let tip = theirs.refname_to_id(&source).ok();
        if holds(theirs, tip, &t.commit) {
            kept.push(t);
            continue;
        }
        let (name, branch) = (short(&t.refname).to_string(), short(&source).to_string());
        let why = match tip {
            None => format!(
                "{name} says {} is there, but {}'s own repository on this machine, {}, has no branch {branch}",
                abbrev(&t.commit),
                t.remote,
                path.display()
            ),
            Some(tip) => format!(
                "{name} says {}, but {}'s own repository on this machine, {}, holds {branch} at {}, which does not hold it",
                abbrev(&t.commit),
                t.remote,
                path.display(),
                abbrev(&tip.to_string())
            ),
        };
        match tip {
            // Read at what the remote holds, where this repository has it to
            // walk; named all the same.
            Some(tip) if repo.git.find_commit(tip).is_ok() => {
                let why = format!("{why}, so it is read at {}", abbrev(&tip.to_string()));
                out.set_aside.push(SetAside { subject: t.refname.clone(), why, appeared: false });
                kept.push(Tracking { commit: tip.to_string(), at_start: None, ..t });
            }
            Some(_) => {
                let why = format!("{why} (and holds commits this repository has not fetched)");
                out.set_aside.push(SetAside { subject: t.refname, why, appeared: false });
            }
            None => out.set_aside.push(SetAside { subject: t.refname, why, appeared: true }),
        }
    }
    out.refs = kept;
}

/// The branches of each remote on this machine in `narrowed` (remotes
/// whose fetch refspecs leave some branch unmapped) that no refspec maps
/// to a remote-tracking ref, with their commits: what a fetch never
/// shows, and a push there (`git push origin HEAD:backup/x` from a
/// `--single-branch` clone) leaves no ref here to say. A remote across a
/// network cannot be asked without the network, and is not.
pub(super) fn beyond_refspecs(repo: &Repo, narrowed: &BTreeMap<String, Remote>) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for (name, remote) in narrowed {
        let Place::Here(_, theirs) = open(repo, &remote.url) else { continue };
        let Ok(refs) = theirs.references_glob("refs/heads/*") else { continue };
        for r in refs.flatten() {
            let (Some(full), Some(id)) = (r.name(), r.target()) else { continue };
            if refspec::maps_onto(&remote.mapping, full).is_empty() {
                out.push((name.clone(), short(full).to_string(), id.to_string()));
            }
        }
    }
    out
}

/// Where a remote's URL leads.
enum Place {
    /// Across a network: the refs' word is all there is.
    Network,
    /// A repository on this machine, opened, and the path it was found at.
    Here(PathBuf, git2::Repository),
    /// A path on this machine where no repository can be opened, and why.
    Nothing(PathBuf, String),
}

/// The repository `url` names on this machine, found as git finds it
/// ([`local_path`]), and opened.
fn open(repo: &Repo, url: &str) -> Place {
    let Some(named) = path_of(repo.root(), url) else { return Place::Network };
    let Some(path) = local_path(repo.root(), url) else {
        return Place::Nothing(named, "where there is no repository".into());
    };
    let flags = git2::RepositoryOpenFlags::NO_SEARCH;
    match git2::Repository::open_ext(&path, flags, std::iter::empty::<&std::ffi::OsStr>()) {
        Ok(theirs) => Place::Here(path, theirs),
        Err(e) => Place::Nothing(path, format!("which cannot be read as a repository ({})", e.message())),
    }
}

/// Whether a remote's branch at `tip` holds `commit`: its tip, or one its
/// tip descends from.
fn holds(theirs: &git2::Repository, tip: Option<Oid>, commit: &str) -> bool {
    match (tip, Oid::from_str(commit)) {
        (Some(tip), Ok(c)) => tip == c || theirs.graph_descendant_of(tip, c).unwrap_or(false),
        _ => false,
    }
}

fn abbrev(id: &str) -> &str {
    &id[..id.len().min(12)]
}
