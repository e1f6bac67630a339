//! Work left inside a submodule's own repository: its branches, its other
//! refs, its stash and its linked worktrees.
//!
//! A submodule is a repository of its own. A commit made there on a new
//! branch, the submodule then put back on the commit the superproject
//! records (`git -C lib switch -c helper`, a commit, `git -C lib switch
//! main`), leaves nothing the superproject's own refs, stash or status
//! show: the submodule's HEAD is again the recorded commit. So every
//! submodule checked out in the working tree (and theirs, as deep as
//! [`super::submodules`] follows them) is read as the superproject is:
//! the commits on its branches and refs made or moved since the start that
//! no counted remote-tracking ref of the remote the superproject names for
//! it holds (the same rules as [`super::submodules`]: a ref whose reflog's
//! newest line is a clone, fetch or push of its remote, of the remote
//! whose URLs are the one `.gitmodules` names), the stash entries made
//! since the start, and the branches and linked worktrees made since.
//!
//! "Since the start" is the task record's snapshot of each submodule
//! checked out then ([`at_start`], by its path from the root): its
//! branches' and other refs' tips, its stash, its linked worktrees, its git
//! directory and the URL the superproject named. What it held then stays
//! inherited. A submodule checked out since the start (added by the task,
//! or initialised since) holds nothing inherited: every commit on its
//! branches no counted remote ref holds is the task's to push, but what
//! its clone brought (the commit a branch's reflog says its clone made it
//! at, from a mirror the configuration names where `.gitmodules` names
//! another URL); its tags, which its clone brought by the hundred and no
//! remote-tracking ref shows, are not read; and its branches and worktrees are dated by
//! their reflogs, the branch its clone made (`clone: from`) aside. A record written before the snapshot kept the submodules says
//! nothing of what they held: what is found there is [`Basis::NoSnapshot`],
//! for the judges to answer as they do for such records.
//!
//! A submodule the snapshot holds that is no longer checked out here
//! (`git submodule deinit`, `git rm`) keeps its repository in its git
//! directory (`.git/modules/lib`), which is read from there.
//!
//! Not read, as in the superproject: a commit on no ref at all (made on a
//! detached HEAD and left), and refs under the names git's own tools write
//! (`refs/notes`, `refs/bisect`, `refs/rewritten`, `refs/replace`,
//! `refs/prefetch`). A repository with no gitlink in its index and no
//! submodule in the snapshot costs one pass over the index already read.

use std::collections::{BTreeMap, HashSet};
use std::path::{Component, Path, PathBuf};

use git2::{ObjectType, Oid, Repository, RepositoryOpenFlags};
use majordomus_records::names::Names;
use majordomus_records::task::{SubmoduleAtStart, TaskRecord};

use super::kept::Written;
use super::submodules::{counted_refs, entries, named_remotes, resolve, DEPTH, GITLINK};
use crate::reflog::{self, Dating};
use crate::stash::{self, StashEntry};
use crate::{Reading, Repo, Unread};

/// What the start snapshot says of a submodule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Basis {
    /// The snapshot holds it: what it held then is inherited.
    Recorded,
    /// The snapshot holds the submodules, and not this one: it was not
    /// checked out at the start, and holds nothing inherited.
    NotThen,
    /// The task record holds no snapshot of the submodules.
    NoSnapshot,
}

/// What one submodule holds that the task may have left there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Left {
    /// Its path from the root (`lib`, `lib/inner`).
    pub path: String,
    pub basis: Basis,
    /// Whether it is checked out here now (else read from its git
    /// directory, which the snapshot named).
    pub checked_out: bool,
    /// The URL the superproject names for it; `None`: it names none.
    pub named: Option<String>,
    /// A remote of the submodule that is the one named, by name.
    pub remote: Option<String>,
    /// The branch checked out in it, where one is.
    pub head_branch: Option<String>,
    /// Its branches and refs made or moved since the start (every one,
    /// without a snapshot of it) holding commits no counted remote ref of
    /// the remote named holds.
    pub unpushed: Vec<Unpushed>,
    /// The walk stopped at [`WALKED`] commits: more may be unpushed.
    pub truncated: bool,
    /// Its stash entries the snapshot does not hold (every one, without a
    /// snapshot of it).
    pub stashes: Vec<StashEntry>,
    /// Its local branches not at the commit the snapshot holds for them
    /// (every one, without a snapshot of it), the branch its clone made
    /// aside, each dated by its reflog.
    pub branches: Vec<Dated>,
    /// Its linked worktrees, each dated by its HEAD's reflog.
    pub worktrees: Vec<Dated>,
    /// A merge, rebase, am session, cherry-pick, revert or bisect in
    /// progress in it, as `git -C PATH status` reports one (`settled`
    /// reads each submodule as it reads the repository around it). Read
    /// from its git directory's files, as git reads them, also where
    /// libgit2 cannot open the repository (its refs in the reftable
    /// format, a grafts file): `Err` says why even they could not be read.
    pub operations: Result<Vec<crate::state::InProgress>, String>,
    /// Its conflicted paths (entries of its index at a stage other than
    /// 0), as `git -C PATH status` lists them "Unmerged" whatever left them
    /// there, an operation in progress or none (a `git stash pop` or
    /// `git merge --squash` that conflicted): read from the index in the
    /// same git directory as [`Left::operations`], an index that cannot be
    /// read making `operations` the `Err` that says so.
    pub conflicted: Vec<String>,
    /// Why it cannot be read, if it cannot: nothing else is then read
    /// (but [`Left::operations`]).
    pub unread: Option<String>,
}

/// A branch or ref of a submodule holding commits its remote does not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unpushed {
    /// The branch's short name, or the ref's full name.
    pub name: String,
    pub branch: bool,
    /// Whether the snapshot holds it (it moved since), or not (made since).
    pub moved: bool,
    /// The commit it names.
    pub tip: String,
    /// At most [`super::LISTED`] of its commits, newest first.
    pub commits: Vec<String>,
    pub count: usize,
}

/// A submodule's branch or linked worktree, with its reflog's date.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dated {
    pub name: String,
    /// A branch's commit, a worktree's path.
    pub at: String,
    pub dating: Dating,
    /// A worktree whose directory is gone while git still lists it.
    pub missing: bool,
    /// A worktree whose HEAD is detached (or cannot be read).
    pub detached: bool,
    /// A branch whose commit a counted remote-tracking ref of the remote
    /// named reaches: its work is held there, so deleting the branch loses
    /// nothing (the commit the superproject records is no such proof).
    pub on_remote: bool,
}

/// How many commits the walks of one submodule take at most.
pub const WALKED: usize = 20_000;

/// Every submodule checked out in the working tree, as the start snapshot
/// records it; `base` is the superproject's remote URL a relative
/// `.gitmodules` URL is resolved against. A submodule that cannot be read
/// makes the whole reading unread: the snapshot then holds none, never a
/// part taken for the whole.
pub fn at_start(repo: &Repo, base: Option<&str>) -> Reading<BTreeMap<String, SubmoduleAtStart>> {
    let head = super::head(repo)?.commit;
    let mut out = BTreeMap::new();
    for place in places(repo, head.as_deref(), base, None)? {
        let unread = |why: &str| Unread::repository(format!("the submodule {} cannot be read: {why}", place.path));
        let git = place.git.as_ref().map_err(|why| unread(why))?;
        let refs = refs_now(git).map_err(|e| unread(e.message()))?;
        let stashes = stash::read_git(git).map_err(|e| unread(&e.reason))?;
        let worktrees = worktrees_of(git).map_err(|e| unread(e.message()))?;
        let (branches, others): (Vec<Ref>, Vec<Ref>) = refs.into_iter().partition(|r| r.branch);
        let tips = |list: Vec<Ref>| -> Names { list.into_iter().map(|r| (r.name, crate::hex(r.target))).collect() };
        out.insert(
            place.path.clone(),
            SubmoduleAtStart {
                git_dir: git.commondir().to_string_lossy().into_owned(),
                url: place.url.clone(),
                branches: tips(branches),
                refs: tips(others),
                stashes: stashes.into_iter().map(|s| s.commit).collect(),
                worktrees,
                head: git.head().ok().and_then(|h| h.target()).map(crate::hex),
                reading: reading_at_start(&place.dir),
            },
        );
    }
    Ok(out)
}

/// What governs the reading of a submodule's working tree at `dir` now,
/// for the start snapshot (`status::record`); `None` where it cannot be
/// read (then `check` reads the submodule as git does).
fn reading_at_start(dir: &Path) -> Option<majordomus_records::task::ReadingAtStart> {
    let inner = crate::open(dir).ok()?.inside_another();
    let tree = crate::status::read(&inner).ok()?;
    crate::status::record(&inner, &tree).ok()
}

/// What every submodule checked out here now (and every one the snapshot
/// holds whose git directory is still there) holds that the task may have
/// left, measured from `record`'s snapshot; `base` as for [`at_start`].
pub fn left(repo: &Repo, record: &TaskRecord, base: Option<&str>) -> Reading<Vec<Left>> {
    let recorded = record.snapshot.submodules.as_ref();
    let found = places(repo, record.head.as_deref(), base, recorded)?;
    Ok(found.into_iter().map(|p| left_in(p, recorded)).collect())
}

/// With no task: every submodule checked out here with only what is in
/// progress in it read (`settled` needs no start, and reads each
/// submodule as the repository around it); nothing else is read, so no
/// other question finds anything in them.
pub fn in_progress(repo: &Repo) -> Reading<Vec<Left>> {
    let found = places(repo, None, None, None)?;
    Ok(found
        .into_iter()
        .map(|place| {
            let (operations, conflicted) = split(operations_of(&place, None));
            let mut left = unread_left(place.path, place.url, place.checked_out, Basis::NoSnapshot, operations);
            left.conflicted = conflicted;
            left
        })
        .collect())
}

/// The submodule at `path` with nothing read in it but `operations`.
fn unread_left(
    path: String,
    named: Option<String>,
    checked_out: bool,
    basis: Basis,
    operations: Result<Vec<crate::state::InProgress>, String>,
) -> Left {
    Left {
        path,
        basis,
        checked_out,
        named,
        remote: None,
        head_branch: None,
        unpushed: Vec::new(),
        truncated: false,
        stashes: Vec::new(),
        branches: Vec::new(),
        worktrees: Vec::new(),
        operations,
        conflicted: Vec::new(),
        unread: None,
    }
}

/// [`operations_of`]'s reading as [`Left`] keeps it: what is in progress,
/// and the conflicted paths.
fn split(read: InProgressHere) -> (Result<Vec<crate::state::InProgress>, String>, Vec<String>) {
    match read {
        Ok((operations, conflicted)) => (Ok(operations), conflicted),
        Err(why) => (Err(why), Vec::new()),
    }
}

type InProgressHere = Result<(Vec<crate::state::InProgress>, Vec<String>), String>;

/// A submodule's repository to read.
struct Place {
    /// Its path from the root.
    path: String,
    /// Where it is (or was) checked out.
    dir: PathBuf,
    url: Option<String>,
    git: Result<Repository, String>,
    checked_out: bool,
    /// The commits the repository around it records for it (at the start
    /// and now): `pushed` asks of them through [`super::submodules`].
    recorded_as: Vec<Oid>,
}

/// The submodules to read: the index's gitlinks checked out here, theirs
/// as their HEAD's `.gitmodules` names them, [`DEPTH`] levels down, then
/// those `recorded` holds that are not checked out now and whose git
/// directory is still there. Sorted by path.
fn places(
    repo: &Repo,
    start: Option<&str>,
    base: Option<&str>,
    recorded: Option<&BTreeMap<String, SubmoduleAtStart>>,
) -> Reading<Vec<Place>> {
    let top = gitlinks(repo)?;
    let mut out = Vec::new();
    if top.is_empty() && recorded.map_or(true, BTreeMap::is_empty) {
        return Ok(out);
    }
    let head = repo.git.head().ok().and_then(|h| h.target());
    let start = start.and_then(|s| Oid::from_str(s).ok());
    let trees: Vec<git2::Tree<'_>> = [start, head]
        .into_iter()
        .flatten()
        .filter_map(|c| repo.git.find_commit(c).and_then(|c| c.tree()).ok())
        .collect();
    if !top.is_empty() {
        // The URL `.gitmodules` names, as the start commit held it, else HEAD's.
        let then = gitmodules(&repo.git, start);
        let now = gitmodules(&repo.git, head);
        let listed = top
            .into_iter()
            .map(|path| {
                let find = |list: &[(String, Option<String>)]| {
                    list.iter().find(|(p, _)| *p == path).and_then(|(_, u)| u.clone())
                };
                let url = find(&then).or_else(|| find(&now));
                (path, url)
            })
            .collect();
        let at = Level { root: repo.root(), prefix: String::new(), base, depth: 0, trees: &trees };
        visit(&at, listed, recorded, &mut out);
    }
    for (path, then) in recorded.into_iter().flatten() {
        if out.iter().any(|p| &p.path == path) || !Path::new(&then.git_dir).is_dir() {
            continue;
        }
        // `git rm` of a submodule takes its working tree away and leaves
        // its repository, whose `core.worktree` then names a path gone:
        // read bare, its refs and stash are all there is (test/cases/619).
        let git = super::submodules::place::open(Path::new(&then.git_dir))
            .map_err(|e| e.message().to_string())
            .and_then(ungrafted);
        let dir = repo.root().join(path);
        let recorded_as = recorded_in(&trees, path);
        out.push(Place { path: path.clone(), dir, url: then.url.clone(), git, checked_out: false, recorded_as });
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

/// A submodule's repository, unread where a grafts file rewrites its
/// history (its walks would follow the grafts: [`super::submodules::place::grafted`]).
fn ungrafted(git: Repository) -> Result<Repository, String> {
    match super::submodules::place::grafted(&git) {
        Some(why) => Err(why),
        None => Ok(git),
    }
}

/// One repository whose submodules are listed: its working tree, their
/// paths' prefix from the top, the URL relative ones resolve against.
struct Level<'a> {
    root: &'a Path,
    prefix: String,
    base: Option<&'a str>,
    depth: usize,
    /// Its trees (at the start and now) whose gitlinks record commits of
    /// its submodules.
    trees: &'a [git2::Tree<'a>],
}

/// The commits `trees` record for the submodule at `path`.
fn recorded_in(trees: &[git2::Tree<'_>], path: &str) -> Vec<Oid> {
    trees
        .iter()
        .filter_map(|t| t.get_path(Path::new(path)).ok())
        .filter(|e| e.kind() == Some(ObjectType::Commit))
        .map(|e| e.id())
        .collect()
}

/// The submodules `listed` (paths and `.gitmodules` URLs) of one level
/// that are checked out, and theirs, into `out`.
fn visit(
    at: &Level<'_>,
    listed: Vec<(String, Option<String>)>,
    recorded: Option<&BTreeMap<String, SubmoduleAtStart>>,
    out: &mut Vec<Place>,
) {
    for (path, url) in listed {
        // A path that leaves the working tree is no submodule of it.
        if Path::new(&path).components().any(|c| !matches!(c, Component::Normal(_))) {
            continue;
        }
        let dir = at.root.join(&path);
        if !dir.join(".git").exists() {
            continue;
        }
        let full = format!("{}{path}", at.prefix);
        let url = match recorded.and_then(|r| r.get(&full)) {
            Some(then) => then.url.clone(),
            None => url.map(|u| resolve(&u, at.base, at.root)),
        };
        let flags = RepositoryOpenFlags::NO_SEARCH;
        let git = Repository::open_ext(&dir, flags, std::iter::empty::<&std::ffi::OsStr>())
            .map_err(|e| format!("it cannot be opened ({})", e.message()))
            .and_then(ungrafted);
        let recorded_as = recorded_in(at.trees, &path);
        let (inner, trees) = match (&git, at.depth + 1 < DEPTH) {
            (Ok(g), true) => {
                let head = g.head().ok().and_then(|h| h.target());
                let trees: Vec<git2::Tree<'_>> =
                    head.and_then(|c| g.find_commit(c).and_then(|c| c.tree()).ok()).into_iter().collect();
                (gitmodules(g, head), trees)
            }
            _ => (Vec::new(), Vec::new()),
        };
        if !inner.is_empty() {
            let next = Level {
                root: &dir,
                prefix: format!("{full}/"),
                base: url.as_deref(),
                depth: at.depth + 1,
                trees: &trees,
            };
            visit(&next, inner, recorded, out);
        }
        drop(trees);
        out.push(Place { path: full, dir, url, git, checked_out: true, recorded_as });
    }
}

/// The gitlinks of the index (its paths), each once. An index neither
/// reader reads (the status is then unread, and says why) leaves the
/// submodules HEAD's `.gitmodules` names.
fn gitlinks(repo: &Repo) -> Reading<Vec<String>> {
    let mut out: Vec<String> = match repo.index_file() {
        Ok(index) => index
            .entries
            .iter()
            .filter(|e| e.mode == GITLINK)
            .map(|e| String::from_utf8_lossy(e.path(&index.paths)).into_owned())
            .collect(),
        // An index the direct reader does not read: libgit2's.
        Err(_) => match repo.git.index() {
            Ok(index) => index
                .iter()
                .filter(|e| e.mode == GITLINK)
                .map(|e| String::from_utf8_lossy(&e.path).into_owned())
                .collect(),
            Err(_) => {
                let head = repo.git.head().ok().and_then(|h| h.target());
                gitmodules(&repo.git, head).into_iter().map(|(path, _)| path).collect()
            }
        },
    };
    out.dedup();
    Ok(out)
}

/// The submodules a commit's `.gitmodules` names: paths and URLs as
/// written (none where it holds none or cannot be read).
fn gitmodules(git: &Repository, commit: Option<Oid>) -> Vec<(String, Option<String>)> {
    let Some(commit) = commit else { return Vec::new() };
    let blob = git
        .find_commit(commit)
        .and_then(|c| c.tree())
        .and_then(|t| t.get_path(Path::new(".gitmodules")))
        .and_then(|e| git.find_blob(e.id()));
    match blob {
        Ok(blob) => entries(&String::from_utf8_lossy(blob.content())),
        Err(_) => Vec::new(),
    }
}

/// A ref of a submodule: a branch (its short name) or another ref (its
/// full name), and the object it names.
struct Ref {
    name: String,
    branch: bool,
    target: Oid,
}

/// The branches and other refs a submodule holds now: not remote-tracking
/// refs, the stash, or refs under the names git's tools write.
fn refs_now(git: &Repository) -> Result<Vec<Ref>, git2::Error> {
    let mut out = Vec::new();
    for reference in git.references()? {
        let reference = reference?;
        let Some(name) = reference.name() else { continue };
        if !name.starts_with("refs/")
            || name.starts_with("refs/remotes/")
            || name == "refs/stash"
            || Written::made_here_only(name)
        {
            continue;
        }
        let target = match reference.target() {
            Some(t) => t,
            // A symbolic ref: the ref it names is read on its own.
            None => continue,
        };
        match name.strip_prefix("refs/heads/") {
            Some(short) => out.push(Ref { name: short.to_string(), branch: true, target }),
            None => out.push(Ref { name: name.to_string(), branch: false, target }),
        }
    }
    Ok(out)
}

/// A submodule's linked worktrees by name, with their paths.
fn worktrees_of(git: &Repository) -> Result<Names, git2::Error> {
    let names = git.worktrees()?;
    Ok(names
        .iter()
        .flatten()
        .map(|name| {
            let path = git.find_worktree(name).map(|w| w.path().display().to_string()).unwrap_or_default();
            (name.to_string(), path)
        })
        .collect())
}

fn left_in(place: Place, recorded: Option<&BTreeMap<String, SubmoduleAtStart>>) -> Left {
    let then = recorded.and_then(|r| r.get(&place.path));
    let (operations, conflicted) = split(operations_of(&place, then));
    let basis = match (recorded, then) {
        (None, _) => Basis::NoSnapshot,
        (Some(_), Some(_)) => Basis::Recorded,
        (Some(_), None) => Basis::NotThen,
    };
    let Place { path, dir, url, git, checked_out, recorded_as } = place;
    let mut left = unread_left(path, url, checked_out, basis, operations);
    left.conflicted = conflicted;
    match git {
        Ok(git) => {
            if let Err(why) = read_into(&git, &dir, then, &recorded_as, &mut left) {
                left.unread = Some(why);
            }
        }
        Err(why) => left.unread = Some(why),
    }
    left
}

/// What is in progress in the submodule at `place`: read in its own git
/// directory (a linked worktree's, where it is one), which is found
/// without libgit2 where libgit2 cannot open the repository: the `.git`
/// directory, or the one a `.git` file names (`gitdir: PATH`), or, for a
/// submodule no longer checked out, the one `then` recorded; and its
/// conflicted paths, read from the index there.
fn operations_of(place: &Place, then: Option<&SubmoduleAtStart>) -> InProgressHere {
    let dir = match &place.git {
        Ok(git) => git.path().to_path_buf(),
        Err(why) if !place.checked_out => match then {
            Some(t) => PathBuf::from(&t.git_dir),
            None => return Err(why.clone()),
        },
        Err(_) => git_dir_of(&place.dir)?,
    };
    if !dir.is_dir() {
        return Err(format!("its git directory {} is not there", dir.display()));
    }
    let operations = crate::state::operations_in(&dir).map_err(|e| e.reason)?;
    Ok((operations, conflicted_in(&dir)?))
}

/// The paths the index in the git directory `dir` holds at a stage other
/// than 0 (conflicted), each once; none where there is no index.
fn conflicted_in(dir: &Path) -> Result<Vec<String>, String> {
    let path = dir.join("index");
    match std::fs::symlink_metadata(&path) {
        Err(e) if crate::state::absent(&e) => return Ok(Vec::new()),
        Err(e) => return Err(format!("its index {} cannot be read: {e}", path.display())),
        Ok(_) => {}
    }
    let index = crate::index_file::Index::read(&path)
        .map_err(|e| format!("its index {} cannot be read: {}", path.display(), e.0))?;
    let mut out: Vec<String> = Vec::new();
    for e in index.entries.iter().filter(|e| e.stage != 0) {
        let p = String::from_utf8_lossy(e.path(&index.paths)).into_owned();
        if out.last() != Some(&p) {
            out.push(p);
        }
    }
    Ok(out)
}

/// The git directory of the working tree at `dir`, as git finds it: `.git`
/// itself where it is a directory, else the path its `gitdir:` line names
/// (relative to `dir` where it is relative).
fn git_dir_of(dir: &Path) -> Result<PathBuf, String> {
    let dot_git = dir.join(".git");
    if dot_git.is_dir() {
        return Ok(dot_git);
    }
    // Read without blocking: a FIFO there is a file that cannot be read,
    // not a wait (a check stops at every turn of an agent).
    let bytes = crate::file::read(&dot_git).map_err(|e| format!("{} cannot be read: {e}", dot_git.display()))?;
    let text = String::from_utf8_lossy(&bytes);
    let named = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("gitdir:"))
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .ok_or_else(|| format!("{} names no git directory (no gitdir: line)", dot_git.display()))?;
    Ok(dir.join(named))
}

/// Reads into `left` what the submodule `git` (checked out at `dir`) holds
/// that `then` (its start snapshot, if any) did not; `recorded_as`: the
/// commits the repository around it records for it.
fn read_into(
    git: &Repository,
    dir: &Path,
    then: Option<&SubmoduleAtStart>,
    recorded_as: &[Oid],
    left: &mut Left,
) -> Result<(), String> {
    let message = |e: git2::Error| e.message().to_string();
    let refs = refs_now(git).map_err(message)?;
    left.head_branch = git
        .find_reference("HEAD")
        .ok()
        .and_then(|h| h.symbolic_target().and_then(|t| t.strip_prefix("refs/heads/")).map(str::to_string));
    let start_tip = |r: &Ref| {
        let list = match (then, r.branch) {
            (Some(t), true) => &t.branches,
            (Some(t), false) => &t.refs,
            (None, _) => return None,
        };
        list.get(&r.name)
    };
    // The branches and refs not at their start tip. Refs other than
    // branches only where the snapshot holds the submodule: a clone since
    // the start brings every tag of its remote, which no remote-tracking
    // ref shows.
    let moved: Vec<&Ref> = refs
        .iter()
        .filter(|r| (r.branch || then.is_some()) && start_tip(r) != Some(crate::hex(r.target).as_str()))
        .collect();
    // The moved branches' reflogs and their first lines, read once: the
    // line a clone wrote says what the clone brought.
    let mut logs = Vec::new();
    for r in moved.iter().filter(|r| r.branch) {
        let log = reflog::log_of(git.commondir(), &format!("refs/heads/{}", r.name));
        let first = reflog::first_line(&log).map_err(|e| e.reason)?;
        logs.push((*r, log, first));
    }
    let cloned = |first: &Option<reflog::Line>| first.as_ref().is_some_and(|l| l.message.starts_with("clone: "));
    let mut remote_tips: Vec<Oid> = Vec::new();
    if !moved.is_empty() {
        let counted = counted_refs(git, dir).map_err(message)?;
        // Read against the remote itself where it is on this machine.
        let (counted, _) = super::evidence::submodule_refs_on_disk(git, dir, counted).map_err(|e| e.reason)?;
        let named = named_remotes(git, dir, left.named.as_deref())?;
        left.remote = named.iter().next().cloned();
        // What the remote named holds: its counted remote-tracking refs.
        // What the repository around records for it is `pushed`'s through
        // `submodules.rs` (owed there where its remote lacks it, and
        // inherited where the start recorded it), and what the start held
        // is inherited.
        let mut hidden: Vec<Oid> = counted
            .iter()
            .filter(|(name, _)| named.contains(super::submodules::remote_of(name)))
            .map(|(_, tip)| *tip)
            .collect();
        remote_tips.clone_from(&hidden);
        hidden.extend(recorded_as);
        if let Some(t) = then {
            hidden.extend(t.branches.values().chain(t.refs.values()).filter_map(|id| Oid::from_str(id).ok()));
        }
        // What a clone brought was not made here: the commit a branch's
        // reflog says its clone made it at (`git submodule update --init`
        // from a URL the configuration sets, `submodule.NAME.url`, where
        // `.gitmodules` names another: a mirror) came from that remote,
        // whatever the remote named holds. A commit made on it since is
        // still the task's.
        for (_, _, first) in logs.iter().filter(|(_, _, first)| cloned(first)) {
            hidden.extend(first.as_ref().and_then(|l| Oid::from_str(&l.new).ok()));
        }
        let (unpushed, truncated) = unpushed(git, &moved, &hidden, |r| start_tip(r).is_some()).map_err(message)?;
        left.unpushed = unpushed;
        left.truncated = truncated;
    }
    let stashes = stash::read_git(git).map_err(|e| e.reason)?;
    left.stashes = match then {
        Some(t) => stashes.into_iter().filter(|s| !t.stashes.contains(&s.commit)).collect(),
        None => stashes,
    };
    // Branches not at their start commit, each dated; the one a clone made
    // is the clone's, not work left.
    for (r, log, first) in logs {
        if cloned(&first) {
            continue;
        }
        let dating = match first {
            Some(line) => match chrono::DateTime::from_timestamp(line.time, 0) {
                Some(t) => Dating::FirstLogged(t),
                None => Dating::Undated("the first line of its reflog holds no time"),
            },
            None => reflog::date(&log).map_err(|e| e.reason)?,
        };
        left.branches.push(Dated {
            name: r.name.clone(),
            at: crate::hex(r.target),
            dating,
            missing: false,
            detached: false,
            on_remote: reached_by(git, r.target, &remote_tips),
        });
    }
    for (name, path) in worktrees_of(git).map_err(message)?.iter() {
        if then.is_some_and(|t| t.worktrees.get(name) == Some(path)) {
            continue;
        }
        let admin = git.commondir().join("worktrees").join(name);
        let dating = reflog::date(&admin.join("logs").join("HEAD")).map_err(|e| e.reason)?;
        let head = crate::file::read(&admin.join("HEAD"));
        left.worktrees.push(Dated {
            name: name.to_string(),
            at: path.to_string(),
            dating,
            missing: !Path::new(path).exists(),
            detached: !head.is_ok_and(|h| h.starts_with(b"ref:")),
            on_remote: false,
        });
    }
    Ok(())
}

/// Whether the commits `tips` reach `target`'s commit: a walk from it that
/// hides them yields nothing. Run only for a submodule's branch made or
/// moved since the start, and it stops at the first commit it yields; what
/// cannot be walked is not reached.
fn reached_by(git: &Repository, target: Oid, tips: &[Oid]) -> bool {
    let Ok(commit) = git.find_object(target, None).and_then(|o| o.peel(ObjectType::Commit)) else { return false };
    let Ok(mut walk) = git.revwalk() else { return false };
    for id in tips {
        // A tip that cannot be found hides nothing.
        let _ = walk.hide(*id);
    }
    walk.push(commit.id()).is_ok() && walk.next().is_none()
}

/// Of the refs `moved`, those holding commits none of `hidden` reaches,
/// each with its commits; and whether a walk stopped at [`WALKED`].
/// `recorded`: whether the snapshot holds the ref (it moved, not made).
fn unpushed(
    git: &Repository,
    moved: &[&Ref],
    hidden: &[Oid],
    recorded: impl Fn(&Ref) -> bool,
) -> Result<(Vec<Unpushed>, bool), git2::Error> {
    let walk_from = |tips: &[Oid]| -> Result<git2::Revwalk<'_>, git2::Error> {
        let mut walk = git.revwalk()?;
        for id in hidden {
            // A start tip gone since (collected) hides nothing.
            let _ = walk.hide(*id);
        }
        for tip in tips {
            walk.push(*tip)?;
        }
        Ok(walk)
    };
    // Each ref's commit (a tag peeled); one naming no commit holds none.
    let tips: Vec<(&Ref, Oid)> = moved
        .iter()
        .filter_map(|r| {
            let object = git.find_object(r.target, None).ok()?;
            let commit = object.peel(ObjectType::Commit).ok()?;
            Some((*r, commit.id()))
        })
        .collect();
    // One walk from them all first: a ref whose commit it does not meet
    // holds nothing unpushed, and is not walked on its own (a fetch since
    // the start brings tags by the hundred).
    let mut met = HashSet::new();
    let mut truncated = false;
    for id in walk_from(&tips.iter().map(|(_, t)| *t).collect::<Vec<_>>())? {
        if met.len() >= WALKED {
            truncated = true;
            break;
        }
        met.insert(id?);
    }
    let mut out = Vec::new();
    for (r, tip) in tips.iter().filter(|(_, tip)| met.contains(tip)) {
        let mut commits = Vec::new();
        let mut count = 0;
        for id in walk_from(&[*tip])? {
            let id = id?;
            if commits.len() < super::LISTED {
                commits.push(id.to_string());
            }
            count += 1;
            if count >= WALKED {
                truncated = true;
                break;
            }
        }
        out.push(Unpushed {
            name: r.name.clone(),
            branch: r.branch,
            moved: recorded(r),
            tip: tip.to_string(),
            commits,
            count,
        });
    }
    Ok((out, truncated))
}

#[cfg(test)]
mod tests;
