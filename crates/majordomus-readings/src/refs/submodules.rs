//! Submodules whose recorded commit changed since the start, and whether
//! the commit they now point at is on the submodule's remote.
//!
//! A superproject records a commit of each submodule. When the task moves
//! that record to a commit made in the submodule and pushes only the
//! superproject, everyone else fetches a superproject that points at a
//! commit they cannot fetch. So each submodule whose commit in HEAD's tree
//! differs from the start commit's must point at a commit one of the
//! submodule's remote-tracking refs holds.
//!
//! The submodule has no start snapshot of its own, so its refs are
//! evidence only when their reflog's newest line is a clone, fetch or push
//! of their remote (the same reading as the superproject's,
//! [`super::evidence`]), and never when the remote's URL is the submodule
//! itself. HEAD's `.gitmodules` names the submodules, and the index's
//! gitlink entries name the rest: a repository committed into the
//! superproject with `git add sub` and no `.gitmodules` (git's "embedded
//! repository") points at commits only this disk holds just the same
//! (test/cases/286). A repository with neither costs one tree lookup and a
//! pass over the index already read.
//!
//! Only the remote the superproject names is the one everyone else fetches
//! the submodule from: `.gitmodules`'s `url` (a relative one resolved
//! against the superproject's remote, as `git submodule` resolves it), as
//! HEAD's commit names it, which a `git clone --recurse-submodules` of the
//! pushed work reads. Where that is the start's (the common flow: one
//! comparison of two strings, the `.gitmodules` of both commits read
//! already), it is read as below. Where the task re-pointed it (committed
//! `.gitmodules` naming another repository, or none), the start's remote
//! holding the commit says nothing of a clone: the URL named now is read
//! itself where it is on this machine (a branch or tag there holding the
//! commit), else only a counted ref of a remote of the submodule's whose
//! URLs are that one counts, and with none the answer is unread, naming
//! both URLs ([`named_on_remote`], test/cases/548). A remote added
//! in the submodule or re-pointed there (`git -C lib remote add mine
//! /tmp/mine.git && git -C lib push mine HEAD:main`), or one whose push
//! goes elsewhere (`remote.origin.pushurl`, `url.*.insteadOf`: the URLs
//! compared are those git fetches from and pushes to), holds the commit
//! on this disk only, and is named, never evidence (test/cases/321, 323). A
//! gitlink `.gitmodules` does not name has no such remote: nothing of it
//! is evidence. A remote on this machine is read itself, as the
//! superproject's is ([`super::evidence::submodule_refs_on_disk`]): a
//! push under a push URL given for one command leaves a ref that says
//! `update by push` over a commit the remote never received
//! ([`OnRemote::Unheld`], test/cases/555).
//!
//! A submodule's own submodules are asked the same, between the commits
//! the submodule recorded then and now, down to [`DEPTH`] levels: a
//! commit made in `lib/inner`, recorded in lib and lib pushed, is still
//! on this disk only (test/cases/325). One not checked out here holds
//! nothing this worktree made, and is not read.
//!
//! HEAD's tree is not the only place a bump is published from: what the
//! task's own commits moved elsewhere (pushed onto the trunk, then taken
//! back from HEAD) is [`moved_by_own`]'s reading, asked the same.
//!
//! A submodule no longer checked out at the path a commit records it at
//! (moved, removed, deinitialized) is read where its repository is
//! ([`place`], test/cases/577).

use std::path::Path;

use git2::{ObjectType, Oid, Repository, RepositoryOpenFlags};

mod own;
pub(crate) mod place;
pub use own::moved_by_own;
pub use place::Place;

use super::evidence::{
    from_remote, local_path, outer_urls, path_of, points_at, remote_urls, same_location, unreadable_at,
};
use crate::reflog;
use crate::{Reading, Repo, Unread};

/// A submodule whose recorded commit changed since the start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submodule {
    pub path: String,
    /// The commit HEAD's tree records.
    pub commit: String,
    pub on_remote: OnRemote,
    /// Where it was read, where not at `path`: it is no longer checked out
    /// there ([`place`], test/cases/577).
    pub at: Option<Place>,
}

/// Whether the submodule's remote holds its recorded commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OnRemote {
    /// This remote-tracking ref of the submodule holds it.
    Held(String),
    /// None of its counted remote-tracking refs does.
    Missing,
    /// Only this ref of a remote other than the one `.gitmodules` names
    /// (the URL it names, or `None` where it names none) holds it.
    NotNamed { refname: String, named: Option<String> },
    /// This ref of the remote named says it holds the commit, but the
    /// remote, a repository on this machine read itself, does not, and
    /// why (test/cases/555).
    Unheld { refname: String, why: String },
    /// The submodule cannot be read here, and why.
    Unread(String),
    /// The `.gitmodules` of the commit that records it names another URL
    /// for it than the start's (`was`): `url`, the one a clone of that
    /// commit fetches it from (`None`: it names none, so a clone cannot
    /// fetch it), and what was found there.
    Repointed { was: String, url: Option<String>, there: There },
    /// Nothing of the submodule is left on this machine (checked out
    /// nowhere, its repository gone): what `url`, the one a clone fetches
    /// it from (`None`: none named), holds, read there where it can be,
    /// and the name `.gitmodules` gives it.
    Gone { url: Option<String>, name: Option<String>, there: There },
}

/// What the URL a re-pointed submodule is fetched from holds of its
/// recorded commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum There {
    /// Held, by this: a branch or tag of the repository the URL names on
    /// this machine, or a counted remote-tracking ref of the submodule's
    /// remote of that URL.
    Held(String),
    /// Not held, and why.
    Lacks(String),
    /// Cannot be read from here, and why: a URL across a network that no
    /// remote of the submodule fetches from and pushes to.
    Unread(String),
}

/// The submodules whose commit in `head`'s tree differs from `start`'s
/// (a submodule new since the start included), each with whether its
/// remote holds that commit, and theirs in turn (`lib/inner`: a commit
/// made in a submodule of a submodule is pushed from there just the
/// same). `base` is the superproject's remote URL at the start, which a
/// relative `.gitmodules` URL is resolved against (the working tree's root
/// where there is none). With no start commit (a task started on an
/// unborn HEAD), every submodule HEAD records is new since.
pub fn changed(repo: &Repo, head: &str, start: Option<&str>, base: Option<&str>) -> Reading<Vec<Submodule>> {
    let oid = |id: &str| Oid::from_str(id).map_err(|e| Unread::git(&format!("commit id {id}"), &e));
    let head = oid(head)?;
    let start = start.map(oid).transpose()?;
    if let Some(start) = start {
        repo.git.find_commit(start).map_err(|e| Unread::git(&format!("the tree of {start}"), &e))?;
    }
    let mut embedded = Vec::new();
    if let Ok(index) = repo.index_file() {
        for e in index.entries.iter().filter(|e| e.mode == GITLINK && e.stage == 0) {
            embedded.push(String::from_utf8_lossy(e.path(&index.paths)).into_owned());
        }
    }
    let mut out = Vec::new();
    let at = Level { root: repo.root(), head, start, base, prefix: String::new(), depth: 0 };
    changed_in(&repo.git, &at, &embedded, &mut out)?;
    Ok(out)
}

/// How deep submodules of submodules are followed.
pub(crate) const DEPTH: usize = 8;

/// One repository whose submodules are read: its working tree, the commit
/// it records now and at the start (`None`: new since, or not here), the
/// URL relative ones are resolved against, and its path from the top.
struct Level<'a> {
    root: &'a Path,
    head: Oid,
    start: Option<Oid>,
    base: Option<&'a str>,
    prefix: String,
    depth: usize,
}

/// [`changed`] of one repository, `listed` naming gitlinks beside those
/// its `.gitmodules` names, into `out`.
fn changed_in(git: &Repository, at: &Level<'_>, listed: &[String], out: &mut Vec<Submodule>) -> Reading<()> {
    let tree_of = |id: Oid| -> Reading<git2::Tree<'_>> {
        git.find_commit(id).and_then(|c| c.tree()).map_err(|e| Unread::git(&format!("the tree of {id}"), &e))
    };
    let head_tree = tree_of(at.head)?;
    let gitmodules = |tree: &git2::Tree<'_>| -> Reading<Vec<(String, Option<String>)>> {
        match tree.get_path(Path::new(".gitmodules")) {
            Ok(entry) => {
                let blob = git.find_blob(entry.id()).map_err(|e| Unread::git(".gitmodules", &e))?;
                Ok(entries(&String::from_utf8_lossy(blob.content())))
            }
            Err(_) => Ok(Vec::new()),
        }
    };
    let named_now = gitmodules(&head_tree)?;
    let mut paths: Vec<String> = named_now.iter().map(|(p, _)| p.clone()).collect();
    for path in listed {
        if !paths.contains(path) {
            paths.push(path.clone());
        }
    }
    if paths.is_empty() {
        return Ok(());
    }
    let start_tree = match at.start {
        Some(id) => Some(tree_of(id)?),
        None => None,
    };
    let named_then = match &start_tree {
        Some(tree) => gitmodules(tree)?,
        None => Vec::new(),
    };
    let url_in = |list: &[(String, Option<String>)], path: &str| {
        list.iter().find(|(p, _)| p == path).and_then(|(_, u)| u.as_deref()).map(|u| resolve(u, at.base, at.root))
    };
    let gitlink = |tree: &git2::Tree<'_>, path: &str| {
        tree.get_path(Path::new(path)).ok().filter(|e| e.kind() == Some(ObjectType::Commit)).map(|e| e.id())
    };
    for path in paths {
        let Some(now) = gitlink(&head_tree, &path) else { continue };
        let then = start_tree.as_ref().and_then(|t| gitlink(t, &path));
        if then == Some(now) {
            continue;
        }
        let dir = at.root.join(&path);
        // A submodule of a submodule not checked out here holds no commit
        // this worktree made.
        if at.depth > 0 && !dir.join(".git").exists() {
            continue;
        }
        let (then_url, now_url) = (url_in(&named_then, &path), url_in(&named_now, &path));
        let (on_remote, place) = if at.depth > 0 || dir.join(".git").exists() {
            (named_on_remote(at.root, &dir, now, then_url.as_deref(), now_url.as_deref()), None)
        } else {
            // Not checked out here (`git submodule deinit`): read where
            // its repository is kept.
            let name = gitmodules_text(git, &head_tree)
                .and_then(|t| place::names(&t).into_iter().find(|(_, p)| *p == path).map(|(n, _)| n));
            let checked = || named_now.iter().map(|(p, _)| (p.clone(), url_in(&named_now, p))).collect();
            read_where(git, at.root, &path, now, then_url.as_deref(), now_url.as_deref(), name.as_deref(), checked)
        };
        // A clone fetches it from the URL HEAD names: its own relative
        // URLs are resolved against that one.
        let url = now_url.or(then_url);
        let unread = matches!(on_remote, OnRemote::Unread(_) | OnRemote::Gone { .. });
        // Its own submodules are read where it is checked out, if at all.
        let checkout = match &place {
            None => Some(dir),
            Some(Place::Checkout(p)) => Some(at.root.join(p)),
            Some(Place::GitDir(_)) => None,
        };
        out.push(Submodule { path: format!("{}{path}", at.prefix), commit: now.to_string(), on_remote, at: place });
        let Some(dir) = checkout.filter(|_| !unread && at.depth + 1 < DEPTH) else { continue };
        // Its own submodules that moved between the two commits.
        let flags = RepositoryOpenFlags::NO_SEARCH;
        let Ok(sub) = Repository::open_ext(&dir, flags, std::iter::empty::<&std::ffi::OsStr>()) else { continue };
        crate::config::as_git_reads(&sub);
        let inner = Level {
            root: &dir,
            head: now,
            start: then.filter(|t| sub.find_commit(*t).is_ok()),
            base: url.as_deref(),
            prefix: format!("{}{path}/", at.prefix),
            depth: at.depth + 1,
        };
        if let Err(e) = changed_in(&sub, &inner, &[], out) {
            let on_remote = OnRemote::Unread(format!("its submodules cannot be read ({})", e.reason));
            out.push(Submodule { path: format!("{}{path}", at.prefix), commit: now.to_string(), on_remote, at: None });
        }
    }
    Ok(())
}

/// The text of a tree's `.gitmodules`, where it has one.
pub(crate) fn gitmodules_text(git: &Repository, tree: &git2::Tree<'_>) -> Option<String> {
    let entry = tree.get_path(Path::new(".gitmodules")).ok()?;
    git.find_blob(entry.id()).ok().map(|b| String::from_utf8_lossy(b.content()).into_owned())
}

/// An index entry's mode for a gitlink (a submodule's commit).
pub(crate) const GITLINK: u32 = 0o160000;

/// Each submodule of a `.gitmodules` file: its `path`, with its `url`
/// where its section gives one.
pub(crate) fn entries(text: &str) -> Vec<(String, Option<String>)> {
    declared(text).into_iter().map(|d| (d.path, d.url)).collect()
}

/// One section of a `.gitmodules` file that gives a path.
pub(crate) struct Declared {
    /// The submodule's name, where the section is `[submodule "NAME"]`.
    pub name: Option<String>,
    pub path: String,
    pub url: Option<String>,
}

/// Each section of a `.gitmodules` file that gives a path, with its name
/// and URL (of a key given twice in a section, the last, as git reads it).
pub(crate) fn declared(text: &str) -> Vec<Declared> {
    let mut out: Vec<Declared> = Vec::new();
    let (mut name, mut path, mut url): (Option<String>, Option<String>, Option<String>) = (None, None, None);
    let flush =
        |out: &mut Vec<Declared>, name: &Option<String>, path: &mut Option<String>, url: &mut Option<String>| {
            if let Some(path) = path.take() {
                out.push(Declared { name: name.clone(), path, url: url.take() });
            }
            *url = None;
        };
    for line in text.lines() {
        let line = line.trim();
        if let Some(head) = line.strip_prefix('[') {
            flush(&mut out, &name, &mut path, &mut url);
            name = head
                .trim_end_matches(']')
                .trim()
                .strip_prefix("submodule")
                .map(|r| r.trim().trim_matches('"').to_string())
                .filter(|n| !n.is_empty());
            continue;
        }
        let Some((key, value)) = line.split_once('=') else { continue };
        let value = value.trim().trim_matches('"').to_string();
        match key.trim() {
            "path" => path = Some(value),
            "url" => url = Some(value),
            _ => {}
        }
    }
    flush(&mut out, &name, &mut path, &mut url);
    out
}

/// A `.gitmodules` URL as `git submodule` resolves it: one starting with
/// `./` or `../` is relative to the superproject's remote URL `base` (each
/// `../` takes off one component), or to the working tree's root without
/// one.
pub(crate) fn resolve(url: &str, base: Option<&str>, root: &Path) -> String {
    if !(url.starts_with("./") || url.starts_with("../")) {
        return url.to_string();
    }
    let mut base = base.map_or_else(|| root.to_string_lossy().into_owned(), |b| b.trim_end_matches('/').to_string());
    let mut rest = url;
    loop {
        if let Some(r) = rest.strip_prefix("./") {
            rest = r;
        } else if let Some(r) = rest.strip_prefix("../") {
            rest = r;
            match base.rfind(['/', ':']) {
                Some(cut) => base.truncate(cut),
                None => base.clear(),
            }
        } else {
            break;
        }
    }
    format!("{base}/{rest}")
}

/// Whether the URL a clone fetches the submodule checked out at `dir`
/// from holds `commit`: `now`, the URL the `.gitmodules` of the commit
/// recording it names (a relative one resolved), against `then`, the
/// start's. Where they name the same repository, or the start named none
/// (a submodule new since), [`on_remote`] of that URL, as ever: the
/// common flow pays one comparison of two strings. Where the task
/// re-pointed it (`git config -f .gitmodules submodule.lib.url B`,
/// committed), the start's URL is no longer where anyone fetches it from:
/// the bump must be held where `now` points, read there
/// ([`held_where_named`]).
pub(crate) fn named_on_remote(root: &Path, dir: &Path, commit: Oid, then: Option<&str>, now: Option<&str>) -> OnRemote {
    match (then, now) {
        (None, _) => on_remote(dir, commit, now),
        (Some(a), Some(b)) if a == b || same_repository(root, a, b) => on_remote(dir, commit, now),
        (Some(was), url) => OnRemote::Repointed {
            was: was.to_string(),
            url: url.map(str::to_string),
            there: match url {
                None => There::Lacks(
                    "it names no URL for it there, so a clone cannot fetch it (git submodule update: no url found)"
                        .to_string(),
                ),
                Some(url) => held_where_named(root, dir, commit, url),
            },
        },
    }
}

/// [`named_on_remote`] of the submodule a commit records at `path`, read
/// where it is ([`place::locate`]: `name` the name that commit's
/// `.gitmodules` gives it, `checked` each submodule checked out now with
/// the URL HEAD names, read only where `path` is not checked out), with
/// the place read where not `path`. With nothing of it left here, the URL
/// a clone fetches it from is read itself where it is on this machine,
/// and is unread across a network ([`OnRemote::Gone`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn read_where(
    git: &Repository,
    root: &Path,
    path: &str,
    commit: Oid,
    then: Option<&str>,
    now: Option<&str>,
    name: Option<&str>,
    checked: impl FnOnce() -> Vec<(String, Option<String>)>,
) -> (OnRemote, Option<Place>) {
    match place::locate(git, root, path, name, now.or(then), checked) {
        Ok(None) => (named_on_remote(root, &root.join(path), commit, then, now), None),
        Ok(Some(at)) => (named_on_remote(root, &place::dir_of(root, &at), commit, then, now), Some(at)),
        // Re-pointed to no URL: a clone cannot fetch it, read or not.
        Err(()) if now.is_none() && then.is_some() => {
            (named_on_remote(root, &root.join(path), commit, then, now), None)
        }
        Err(()) => {
            let there = match now.or(then) {
                None => There::Lacks(
                    ".gitmodules names no URL for it, so a clone cannot fetch it (git submodule update: no url found)"
                        .to_string(),
                ),
                Some(url) if path_of(root, url).is_some() => held_where_named(root, &root.join(path), commit, url),
                Some(url) => There::Unread(format!(
                    "{url} is across a network, and no clone of it is left on this machine to read its remote-tracking refs (not checked out at {path}, nor anywhere else, and no repository of it kept under the git directory)"
                )),
            };
            let gone = OnRemote::Gone { url: now.or(then).map(str::to_string), name: name.map(str::to_string), there };
            (gone, None)
        }
    }
}

/// Whether the repository `url` names holds `commit`, for the submodule
/// checked out at `dir` (`root` the superproject's working tree, which a
/// relative path is resolved from, as `git submodule` clones from there).
/// On this machine (a path, a `file://` URL: `path_of`, as the evidence
/// reads a remote here, test/cases/540) the repository is opened and read
/// itself: a branch or tag of it (what a clone fetches) whose tip is the
/// commit or descends from it. The submodule's own repository is no such
/// place. Across a network, only a counted remote-tracking ref of a
/// remote of the submodule's that fetches from and pushes to that URL
/// ([`named_remotes`]) says what it holds; with none, it cannot be read.
fn held_where_named(root: &Path, dir: &Path, commit: Oid, url: &str) -> There {
    let flags = RepositoryOpenFlags::NO_SEARCH;
    let none = std::iter::empty::<&std::ffi::OsStr>;
    if let Some(named) = path_of(root, url) {
        let Some(path) = local_path(root, url) else {
            return There::Lacks(format!(
                "{url} names {} on this machine, where there is no repository",
                named.display()
            ));
        };
        let theirs = match Repository::open_ext(&path, flags, none()) {
            Ok(r) => r,
            // A repository there that cannot be read holds what it holds,
            // unknown, not nothing (test/cases/613).
            Err(e) => {
                return match unreadable_at(&path, &e) {
                    Some(why) => There::Unread(format!("{url} names {} on this machine, {why}", path.display())),
                    None => There::Lacks(format!(
                        "{url} names {} on this machine, which cannot be read as a repository ({})",
                        path.display(),
                        e.message()
                    )),
                }
            }
        };
        if let Some(why) = place::grafted(&theirs) {
            return There::Unread(format!("{url} names {} on this machine, where {why}", path.display()));
        }
        let own = place::open(dir).ok().and_then(|s| s.commondir().canonicalize().ok());
        if own.is_some() && theirs.commondir().canonicalize().ok() == own {
            return There::Lacks(format!("{url} is the submodule's own repository here, which nobody else can fetch"));
        }
        return match holder(&theirs, commit) {
            Some(name) => There::Held(format!("the {name} of the repository at {}", path.display())),
            None => There::Lacks(format!(
                "the repository it names on this machine, {}, holds no branch or tag that holds {}",
                path.display(),
                &commit.to_string()[..12]
            )),
        };
    }
    let sub = match place::open(dir) {
        Ok(r) => r,
        Err(e) => return There::Unread(format!("it is not checked out here ({})", e.message())),
    };
    if let Some(why) = place::grafted(&sub) {
        return There::Unread(why);
    }
    crate::config::as_git_reads(&sub);
    let named = match named_remotes(&sub, dir, Some(url)) {
        Ok(remotes) => remotes,
        Err(why) => return There::Unread(why),
    };
    if named.is_empty() {
        return There::Unread(format!(
            "{url} is across a network, and no remote of the submodule's fetches from and pushes to it, so what it holds cannot be read from here"
        ));
    }
    let counted = match counted_refs(&sub, dir) {
        Ok(counted) => counted,
        Err(e) => return There::Unread(e.message().to_string()),
    };
    let held = counted
        .iter()
        .filter(|(name, _)| named.contains(remote_of(name)))
        .find(|(_, tip)| *tip == commit || sub.graph_descendant_of(*tip, commit).unwrap_or(false));
    match held {
        Some((name, _)) => There::Held(format!("its {}", name.strip_prefix("refs/remotes/").unwrap_or(name))),
        None => There::Lacks(format!(
            "none of the remote-tracking refs of the submodule's remote of that URL that count holds {}",
            &commit.to_string()[..12]
        )),
    }
}

/// The branch or tag of `theirs` (what a clone of it fetches) whose tip is
/// `commit` or descends from it, by name (`branch main`, `tag v1`).
fn holder(theirs: &Repository, commit: Oid) -> Option<String> {
    // Not there at all: no ref of it can hold it, and nothing is walked.
    theirs.find_commit(commit).ok()?;
    let refs = theirs.references().ok()?;
    for reference in refs.flatten() {
        let Some(name) = reference.name() else { continue };
        let (kind, short) = match (name.strip_prefix("refs/heads/"), name.strip_prefix("refs/tags/")) {
            (Some(b), _) => ("branch", b),
            (_, Some(t)) => ("tag", t),
            _ => continue,
        };
        let Ok(tip) = reference.peel_to_commit().map(|c| c.id()) else { continue };
        if tip == commit || theirs.graph_descendant_of(tip, commit).unwrap_or(false) {
            return Some(format!("{kind} {short}"));
        }
    }
    None
}

/// Whether two remote URLs name the same repository: the same place
/// (see [`same_location`]), or the same network URL but for a trailing
/// `/` or `.git`.
fn same_repository(root: &Path, a: &str, b: &str) -> bool {
    let bare = |u: &str| u.trim_end_matches('/').trim_end_matches(".git").to_string();
    same_location(root, a, b) || (a.contains(':') && bare(a) == bare(b))
}

/// Whether a counted remote-tracking ref of the submodule checked out at
/// `dir` holds `commit`, and is of the remote `named` (the URL the
/// superproject names for it).
fn on_remote(dir: &Path, commit: Oid, named: Option<&str>) -> OnRemote {
    let sub = match place::open(dir) {
        Ok(r) => r,
        Err(e) => return OnRemote::Unread(format!("it is not checked out here ({})", e.message())),
    };
    if let Some(why) = place::grafted(&sub) {
        return OnRemote::Unread(why);
    }
    crate::config::as_git_reads(&sub);
    let counted = counted_refs(&sub, dir)
        .map_err(|e| e.message().to_string())
        .and_then(|counted| super::evidence::submodule_refs_on_disk(&sub, dir, counted).map_err(|e| e.reason));
    match counted {
        Ok((counted, aside)) => {
            let held: Vec<&String> = counted
                .iter()
                .filter(|(_, tip)| *tip == commit || sub.graph_descendant_of(*tip, commit).unwrap_or(false))
                .map(|(name, _)| name)
                .collect();
            let named_here = match named_remotes(&sub, dir, named) {
                Ok(remotes) => remotes,
                Err(why) => return OnRemote::Unread(why),
            };
            // The refs that said they held the commit and were read not
            // to, by the remote itself: of the remote named first.
            let mut unheld: Vec<_> = aside
                .into_iter()
                .filter(|a| a.commit == commit || sub.graph_descendant_of(a.commit, commit).unwrap_or(false))
                .collect();
            unheld.sort_by_key(|a| !named_here.contains(remote_of(&a.refname)));
            let not_named =
                |refname: &str| OnRemote::NotNamed { refname: refname.to_string(), named: named.map(str::to_string) };
            match (held.iter().find(|r| named_here.contains(remote_of(r))), held.first(), unheld.into_iter().next()) {
                (Some(refname), _, _) => OnRemote::Held((*refname).clone()),
                (None, _, Some(a)) if named_here.contains(remote_of(&a.refname)) && a.unreadable => {
                    OnRemote::Unread(a.why)
                }
                (None, _, Some(a)) if named_here.contains(remote_of(&a.refname)) => {
                    OnRemote::Unheld { refname: a.refname, why: a.why }
                }
                (None, Some(other), _) => not_named(other),
                (None, None, Some(a)) => not_named(&a.refname),
                (None, None, None) => OnRemote::Missing,
            }
        }
        Err(why) => OnRemote::Unread(why),
    }
}

/// The remote a remote-tracking ref's name gives (`origin` of
/// `refs/remotes/origin/main`).
pub(crate) fn remote_of(refname: &str) -> &str {
    refname.strip_prefix("refs/remotes/").and_then(|r| r.split('/').next()).unwrap_or("")
}

/// The remotes of the submodule `sub` checked out at `dir` that are the
/// one the superproject names for it (`named`): the URLs each fetches
/// from and pushes to, as git rewrites them (`pushurl`, `url.*.insteadOf`),
/// are both the one named, as the user's own rewrites make it (a mirror's
/// `insteadOf` in the global configuration applies to both). None where
/// it names none.
pub(crate) fn named_remotes(
    sub: &Repository,
    dir: &Path,
    named: Option<&str>,
) -> Result<std::collections::BTreeSet<String>, String> {
    let Some(named) = named else { return Ok(Default::default()) };
    let urls = remote_urls(sub).map_err(|e| e.reason)?;
    let (f, p) = outer_urls(sub, named).map_err(|e| e.reason)?;
    Ok(urls
        .into_iter()
        .filter(|(_, (fetch, push))| same_repository(dir, fetch, &f) && same_repository(dir, push, &p))
        .map(|(name, _)| name)
        .collect())
}

/// Every counted remote-tracking ref of the submodule `sub` checked out at
/// `dir`, with its commit: one whose remote's URL is not the submodule
/// itself and whose reflog's newest line is a clone, fetch or push of its
/// remote that left it where it is.
///
/// A clone writes its remote-tracking refs with no reflog (git logs only
/// `REMOTE/HEAD`'s, `clone: from URL`): a ref with no reflog at all, at
/// the very commit that line names, is the clone's, and counts (a
/// submodule added since the start and pushed nowhere since is its
/// remote's). One written since by anything else has a line of its own,
/// or another commit.
pub(crate) fn counted_refs(sub: &Repository, dir: &Path) -> Result<Vec<(String, Oid)>, git2::Error> {
    let config = sub.config()?.snapshot()?;
    let mut counted: Vec<(String, Oid)> = Vec::new();
    for reference in sub.references_glob("refs/remotes/*")? {
        let reference = reference?;
        let (Some(name), Some(target)) = (reference.name(), reference.target()) else { continue };
        let Some(remote) = name.strip_prefix("refs/remotes/").and_then(|r| r.split('/').next()) else { continue };
        let url = config.get_string(&format!("remote.{remote}.url")).ok();
        if url.as_deref().is_some_and(|u| points_at(dir, sub.commondir(), u).is_some()) {
            continue;
        }
        let log = reflog::log_of(sub.commondir(), name);
        let last = match reflog::last_line(&log) {
            Ok(Some(line)) => Some(line),
            // No reflog: the clone's, where its line names this commit.
            Ok(None) if reflog::mark(&log).is_ok_and(|(len, _)| len == 0) => {
                let head = reflog::log_of(sub.commondir(), &format!("refs/remotes/{remote}/HEAD"));
                reflog::last_line(&head).ok().flatten().filter(|l| l.message.starts_with("clone: from "))
            }
            _ => None,
        };
        if last.is_some_and(|l| l.new == target.to_string() && from_remote(dir, &l, remote, url.as_deref())) {
            counted.push((name.to_string(), target));
        }
    }
    Ok(counted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use majordomus_testkit::TestRepo;

    #[test]
    fn a_submodule_pointing_at_an_unpushed_commit_is_missing_and_a_pushed_one_held() {
        let t = TestRepo::with_commit();
        let _bare = t.with_submodule();
        let start = t.head();
        let repo = crate::open(t.path()).expect("open");
        assert_eq!(changed(&repo, &start, Some(&start), None).expect("read"), vec![]);
        let lib = t.path().join("lib");
        t.git_in(&lib, &["commit", "-q", "--allow-empty", "-m", "lib: new"]);
        t.git(&["add", "lib"]);
        let head = t.commit_all("use lib's new commit");
        let found = changed(&repo, &head, Some(&start), None).expect("read");
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].path.as_str(), &found[0].on_remote), ("lib", &OnRemote::Missing));
        t.git_in(&lib, &["push", "-q", "origin", "HEAD:main"]);
        let found = changed(&repo, &head, Some(&start), None).expect("read");
        assert_eq!(found[0].on_remote, OnRemote::Held("refs/remotes/origin/main".into()));
        // A remote-tracking ref moved by hand is not the submodule's remote.
        t.git_in(&lib, &["commit", "-q", "--allow-empty", "-m", "lib: newer"]);
        t.git_in(&lib, &["update-ref", "refs/remotes/origin/main", "HEAD"]);
        t.git(&["add", "lib"]);
        let head = t.commit_all("use lib's newer commit");
        assert_eq!(changed(&repo, &head, Some(&start), None).expect("read")[0].on_remote, OnRemote::Missing);
    }

    #[test]
    fn a_submodule_added_since_the_start_at_its_clones_commit_is_held_by_its_remote() {
        let t = TestRepo::with_commit();
        let start = t.head();
        let _bare = t.with_submodule();
        let repo = crate::open(t.path()).expect("open");
        // The clone logs only origin/HEAD: origin/main, at the commit that
        // line names, is the clone's.
        let found = changed(&repo, &t.head(), Some(&start), None).expect("read");
        assert_eq!(found[0].on_remote, OnRemote::Held("refs/remotes/origin/main".into()), "{found:?}");
        // Moved by hand since (reflogs off: no line of its own), it is not.
        let lib = t.path().join("lib");
        t.git_in(&lib, &["commit", "-q", "--allow-empty", "-m", "lib: new"]);
        t.git_in(&lib, &["-c", "core.logAllRefUpdates=false", "update-ref", "refs/remotes/origin/main", "HEAD"]);
        t.git(&["add", "lib"]);
        let head = t.commit_all("use lib's new commit");
        assert_eq!(changed(&repo, &head, Some(&start), None).expect("read")[0].on_remote, OnRemote::Missing);
    }

    #[test]
    fn a_submodule_repointed_in_gitmodules_is_asked_where_the_new_url_leads() {
        let t = TestRepo::with_commit();
        let bare = t.with_submodule();
        let start = t.head();
        let repo = crate::open(t.path()).expect("open");
        let lib = t.path().join("lib");
        let other = tempfile::Builder::new().prefix("majordomus-other-").tempdir().expect("tempdir");
        t.git_in(other.path(), &["clone", "-q", "--bare", bare.path().to_str().expect("utf-8"), "."]);
        t.git_in(&lib, &["commit", "-q", "--allow-empty", "-m", "lib: new"]);
        t.git_in(&lib, &["push", "-q", "origin", "HEAD:main"]);
        let repoint = |url: &str| {
            t.git(&["config", "-f", ".gitmodules", "submodule.lib.url", url]);
            t.git(&["add", "lib", ".gitmodules"]);
            t.commit_all("lib re-pointed")
        };
        let there = |head: &str| match changed(&repo, head, Some(&start), None).expect("read").remove(0).on_remote {
            OnRemote::Repointed { there, .. } => there,
            other => panic!("not read as re-pointed: {other:?}"),
        };
        // Held by the start's remote only, not where a clone now looks.
        let head = repoint(other.path().to_str().expect("utf-8"));
        assert!(matches!(there(&head), There::Lacks(why) if why.contains("holds no branch or tag")));
        // Pushed there, it is held by that repository's branch.
        t.git_in(&lib, &["push", "-q", other.path().to_str().expect("utf-8"), "HEAD:main"]);
        assert!(matches!(there(&head), There::Held(by) if by.starts_with("the branch main of the repository")));
        // Across a network, with no remote of lib's there: unread.
        let head = repoint("https://example.invalid/lib.git");
        assert!(matches!(there(&head), There::Unread(why) if why.contains("across a network")));
        // No URL named: a clone cannot fetch it.
        t.git(&["config", "-f", ".gitmodules", "--unset", "submodule.lib.url"]);
        let head = t.commit_all("lib unnamed");
        assert!(matches!(there(&head), There::Lacks(why) if why.contains("names no URL")));
        // The submodule's own repository is no place anyone fetches from.
        let head = repoint(lib.to_str().expect("utf-8"));
        assert!(matches!(there(&head), There::Lacks(why) if why.contains("own repository")));
        // Named as at the start again: the ordinary reading.
        let head = repoint(bare.path().to_str().expect("utf-8"));
        let found = changed(&repo, &head, Some(&start), None).expect("read");
        assert_eq!(found[0].on_remote, OnRemote::Held("refs/remotes/origin/main".into()));
    }

    #[test]
    fn the_paths_and_urls_of_a_gitmodules_file_are_read() {
        let text = "[submodule \"a\"]\n\tpath = vendor/a\n\turl = ../a.git\n[submodule \"b\"]\n  path=b\n";
        assert_eq!(entries(text), [("vendor/a".to_string(), Some("../a.git".to_string())), ("b".to_string(), None)]);
    }

    #[test]
    fn a_relative_url_is_resolved_against_the_superprojects_remote() {
        let root = Path::new("/w/repo");
        assert_eq!(resolve("../lib.git", Some("https://h/o/app.git"), root), "https://h/o/lib.git");
        assert_eq!(resolve("./lib", Some("/srv/app.git/"), root), "/srv/app.git/lib");
        assert_eq!(resolve("../lib.git", Some("git@h:o/app.git"), root), "git@h:o/lib.git");
        assert_eq!(resolve("../lib.git", None, root), "/w/lib.git");
        assert_eq!(resolve("https://h/o/lib.git", Some("/srv/app.git"), root), "https://h/o/lib.git");
    }

    /// A superproject with a submodule lib (its origin a bare repository),
    /// a new commit in lib not pushed anywhere yet, and a bare repository
    /// `mine` beside, no remote of lib's.
    struct LibAhead {
        t: TestRepo,
        _origin: tempfile::TempDir,
        start: String,
        repo: Repo,
        lib: std::path::PathBuf,
        mine: tempfile::TempDir,
    }

    impl LibAhead {
        fn new() -> Self {
            let t = TestRepo::with_commit();
            let _origin = t.with_submodule();
            let start = t.head();
            let repo = crate::open(t.path()).expect("open");
            let lib = t.path().join("lib");
            let mine = tempfile::Builder::new().prefix("majordomus-mine-").tempdir().expect("tempdir");
            t.git_in(mine.path(), &["init", "-q", "--bare"]);
            t.git_in(&lib, &["commit", "-q", "--allow-empty", "-m", "lib: new"]);
            LibAhead { t, _origin, start, repo, lib, mine }
        }

        /// The bump committed in the superproject: its commit.
        fn bump(&self) -> String {
            self.t.git(&["add", "lib"]);
            self.t.commit_all("use lib's new commit")
        }

        /// What the submodule's change from the start to `head` reads.
        fn on_remote(&self, head: &str) -> OnRemote {
            changed(&self.repo, head, Some(&self.start), None).expect("read").remove(0).on_remote
        }
    }

    #[test]
    fn a_commit_held_only_by_a_remote_the_superproject_does_not_name_is_not_held() {
        let w = LibAhead::new();
        w.t.git_in(&w.lib, &["remote", "add", "mine", w.mine.path().to_str().expect("utf-8")]);
        w.t.git_in(&w.lib, &["push", "-q", "mine", "HEAD:main"]);
        let found = w.on_remote(&w.bump());
        assert!(
            matches!(&found, OnRemote::NotNamed { refname, named: Some(_) } if refname == "refs/remotes/mine/main"),
            "{found:?}"
        );
    }

    #[test]
    fn a_push_its_remote_on_this_machine_never_received_is_read_there_not_held() {
        let w = LibAhead::new();
        let pushurl = format!("remote.origin.pushurl={}", w.mine.path().display());
        w.t.git_in(&w.lib, &["-c", &pushurl, "push", "-q", "origin", "HEAD:main"]);
        let head = w.bump();
        let found = w.on_remote(&head);
        assert!(
            matches!(&found, OnRemote::Unheld { refname, why } if refname == "refs/remotes/origin/main" && why.contains("does not hold it")),
            "{found:?}"
        );
        // Pushed to the remote itself, it is held.
        w.t.git_in(&w.lib, &["push", "-q", "origin", "HEAD:main"]);
        assert_eq!(w.on_remote(&head), OnRemote::Held("refs/remotes/origin/main".into()));
    }
}
