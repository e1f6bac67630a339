//! The gitlinks the task's own commits moved, wherever those commits are
//! now.
//!
//! [`super::changed`] compares HEAD's tree with the start commit's. A bump
//! the task pushed and then took back from HEAD is not there any more: a
//! commit inside `lib`, the bump committed and pushed onto the trunk, then
//! `git reset --hard HEAD~1` and `git -C lib reset --hard origin/main`;
//! or the same made in a linked worktree, pushed with `git push origin
//! feat:main`, the worktree removed and its branch deleted. The trunk
//! everyone fetches then records a commit of lib nobody can fetch, and
//! HEAD's tree says nothing of it (test/cases/496).
//!
//! So every commit this repository made since the start (HEAD's reflog
//! since shows it made, or it is a loose commit written since under this
//! repository's own address, [`crate::refs::arrival::made_here`]: the
//! readings of what was made here, not a walk of their own) is asked which
//! gitlinks it moved: where its tree records a commit of a submodule that
//! none of its parents records at that path (a merge's is what it took
//! from a side, never its own; a colleague's bump it merged is theirs).
//! Where such a commit is on a ref that could publish it (HEAD, a branch
//! or a remote-tracking ref that moved since the start: a ref that did not
//! move cannot reach a commit made since), the commit of the submodule it
//! records must be on that submodule's remote, read as HEAD's is
//! ([`super::named_on_remote`]), by the URL that commit's own
//! `.gitmodules` names (a clone of it fetches from there) against the
//! start's. A commit on no ref at all (a bump amended away)
//! is not read, as nowhere else.
//!
//! Read only where this repository has a submodule at all (a gitlink in
//! the index, a `.gitmodules` in HEAD's tree, or a submodule's repository
//! kept under the git directory, as `git rm` of the last one leaves it):
//! the common check of a repository without one pays a lookup in the
//! index and HEAD's tree and a `stat` of `modules/`. With one, it costs HEAD's reflog
//! lines since the start, the loose-object listing `made_here` bounds, and
//! a tree diff per commit made since; the refs and the submodule are read
//! only for a commit that moved a gitlink.

use std::collections::{BTreeMap, HashSet};

use git2::{ObjectType, Oid, Tree};

use majordomus_records::task::TaskRecord;

use super::place::names;
use super::{entries, gitmodules_text, read_where, resolve, OnRemote, Place, Submodule, GITLINK};
use crate::{Reading, Repo, Unread};

/// The submodules whose commit one of the task's own commits on `tips`
/// recorded (see the module's essay), each with whether its remote holds
/// that commit; none already in `asked` (HEAD's, [`super::changed`]).
/// `base` resolves a relative `.gitmodules` URL, as there. `tips` is
/// called only where the repository has a submodule: at ten thousand
/// branches, finding those that moved since the start is a tenth of a
/// check, in a repository that most often has none.
pub fn moved_by_own(
    repo: &Repo,
    record: &TaskRecord,
    head: Option<&str>,
    tips: impl FnOnce() -> Reading<Vec<Oid>>,
    base: Option<&str>,
    asked: &[Submodule],
) -> Reading<Vec<Submodule>> {
    let head_tree = match head {
        Some(id) => Some(tree_of(repo, oid(id)?)?),
        None => None,
    };
    if !has_submodule(repo, head_tree.as_ref()) {
        return Ok(Vec::new());
    }
    let start = record.head.as_deref().and_then(|h| Oid::from_str(h).ok()).filter(|o| repo.git.find_commit(*o).is_ok());
    let mut made = crate::refs::attribution::made_by_head_since(repo, record)?;
    let mut tips = Tips::Unread(Some(tips));
    // The loose commits written here since (a linked worktree's, since
    // removed) are looked for only where a tip HEAD does not reach could
    // hold them: what HEAD reaches, its reflog names (a scan of the object
    // directories at every check of a repository with a submodule was a
    // twentieth of one).
    let head_id = head.map(oid).transpose()?;
    let beyond_head = tips
        .read()?
        .iter()
        .any(|t| Some(*t) != head_id && !head_id.is_some_and(|h| repo.git.graph_descendant_of(h, *t).unwrap_or(false)));
    if beyond_head {
        if let Ok(started) = record.started_at() {
            made.extend(crate::refs::arrival::made_here::since(repo, record, started.into(), start)?);
        }
    }
    let mut made: Vec<Oid> = made.into_iter().collect();
    made.sort();
    let start_tree = match start {
        Some(id) => Some(tree_of(repo, id)?),
        None => None,
    };
    let mut out: Vec<Submodule> = Vec::new();
    // The start's `.gitmodules` URLs, read at the first bump asked.
    let mut then: Option<BTreeMap<String, String>> = None;
    for c in made {
        let Ok(commit) = repo.git.find_commit(c) else { continue };
        let moved = moved_in(repo, &commit)?;
        let new: Vec<(String, Oid)> = moved
            .into_iter()
            .filter(|(path, now)| start_tree.as_ref().and_then(|t| gitlink(t, path)) != Some(*now))
            .filter(|(path, now)| !asked.iter().chain(&out).any(|s| s.path == *path && s.commit == now.to_string()))
            .collect();
        if new.is_empty() || !on_a_tip(repo, tips.read()?, c) {
            continue;
        }
        // The start's URL, and the one a clone of this commit fetches it
        // from: its own `.gitmodules`'s.
        if then.is_none() {
            then = Some(urls(repo, [start_tree.as_ref()])?);
        }
        let Some(then) = then.as_ref() else { continue };
        let tree = commit.tree().ok();
        let here = urls(repo, [tree.as_ref()])?;
        for (path, now) in new {
            let resolved = |map: &BTreeMap<String, String>| map.get(&path).map(|u| resolve(u, base, repo.root()));
            let (then_url, now_url) = (resolved(then), resolved(&here));
            // Where it is no longer checked out at `path` (moved, removed
            // since), read where its repository is (test/cases/577).
            let name = tree
                .as_ref()
                .and_then(|t| gitmodules_text(&repo.git, t))
                .and_then(|t| names(&t).into_iter().find(|(_, p)| *p == path).map(|(n, _)| n));
            let checked = || checked_out(repo, head_tree.as_ref(), base);
            let (then_url, now_url) = (then_url.as_deref(), now_url.as_deref());
            let (on_remote, at) =
                read_where(&repo.git, repo.root(), &path, now, then_url, now_url, name.as_deref(), checked);
            let found = Submodule { path, commit: now.to_string(), on_remote, at };
            // The same commit of the same repository, read there already
            // (moved: recorded at both paths), is named once, by the path
            // it is checked out at where one is.
            // A gitlink no `.gitmodules` names has no URL to tell its
            // repository by: a clone cannot fetch it wherever it is, said
            // once of the commit.
            let unnamed = matches!(found.on_remote, OnRemote::Gone { url: None, .. });
            let same = |s: &Submodule| s.commit == found.commit && (unnamed || whence(s) == whence(&found));
            if asked.iter().any(same) {
                continue;
            }
            match out.iter_mut().find(|s| same(s)) {
                Some(s) if s.at.is_some() && found.at.is_none() && !unnamed => *s = found,
                Some(_) => {}
                None => out.push(found),
            }
        }
    }
    Ok(out)
}

/// The tips [`moved_by_own`] asks of, read at the first need.
enum Tips<F> {
    Unread(Option<F>),
    Read(Vec<Oid>),
}

impl<F: FnOnce() -> Reading<Vec<Oid>>> Tips<F> {
    fn read(&mut self) -> Reading<&[Oid]> {
        if let Tips::Unread(f) = self {
            let read = f.take().map_or_else(|| Ok(Vec::new()), |f| f())?;
            *self = Tips::Read(read);
        }
        match self {
            Tips::Read(tips) => Ok(tips),
            Tips::Unread(_) => Ok(&[]),
        }
    }
}

/// Whether this repository has a submodule now, or had one: a gitlink in
/// the index, a `.gitmodules` in HEAD's tree, or a submodule's repository
/// git keeps under its git directory (`modules/`, which `git rm` of the
/// last submodule leaves: the commits that recorded it are pushed all the
/// same, test/cases/577).
fn has_submodule(repo: &Repo, head_tree: Option<&Tree<'_>>) -> bool {
    let in_index = repo.index_file().is_ok_and(|index| index.entries.iter().any(|e| e.mode == GITLINK));
    in_index
        || head_tree.is_some_and(|t| t.get_path(std::path::Path::new(".gitmodules")).is_ok())
        || [repo.git.path(), repo.git.commondir()].iter().any(|d| d.join("modules").is_dir())
}

/// Where a submodule was read: the place, or the URL read for one nothing
/// of which is left here.
fn whence(s: &Submodule) -> String {
    match (&s.at, &s.on_remote) {
        (Some(Place::Checkout(p) | Place::GitDir(p)), _) => p.clone(),
        (None, OnRemote::Gone { url, .. }) => format!("{url:?}"),
        (None, _) => s.path.clone(),
    }
}

/// Each submodule checked out in the working tree by the paths HEAD's
/// `.gitmodules` and the index name, with the URL HEAD names for it.
fn checked_out(repo: &Repo, head_tree: Option<&Tree<'_>>, base: Option<&str>) -> Vec<(String, Option<String>)> {
    let named = urls(repo, [head_tree]).unwrap_or_default();
    let mut out: Vec<(String, Option<String>)> =
        named.iter().map(|(p, u)| (p.clone(), Some(resolve(u, base, repo.root())))).collect();
    if let Ok(index) = repo.index_file() {
        for e in index.entries.iter().filter(|e| e.mode == GITLINK && e.stage == 0) {
            let path = String::from_utf8_lossy(e.path(&index.paths)).into_owned();
            if !out.iter().any(|(p, _)| *p == path) {
                out.push((path, None));
            }
        }
    }
    out
}

/// The gitlinks `commit` moved: each path where its tree records a commit
/// of a submodule that none of its parents records there (every gitlink
/// of a root commit).
fn moved_in(repo: &Repo, commit: &git2::Commit<'_>) -> Reading<Vec<(String, Oid)>> {
    let id = commit.id();
    let tree = commit.tree().map_err(|e| Unread::git(&format!("the tree of {id}"), &e))?;
    let parents: Vec<Tree<'_>> = commit.parents().filter_map(|p| p.tree().ok()).collect();
    // The paths where the tree differs from the first parent's, reading
    // only the subtrees whose ids differ (libgit2's diff expands every
    // subtree of both: 26 M instructions for a commit of two files on
    // git's own repository), then what the tree holds at each.
    let changed = crate::trees::changed_paths(&repo.git, parents.first(), Some(&tree))
        .map_err(|e| Unread::git(&format!("the change of {id}"), &e))?;
    let lookup = crate::trees::Lookup::new(&repo.git, tree);
    let mut out = Vec::new();
    for path in &changed {
        let Some((now, mode)) = lookup.entry(path.as_bytes()) else { continue };
        if mode != i32::from(git2::FileMode::Commit) || now.is_zero() {
            continue;
        }
        let Some(path) = path.to_str() else { continue };
        if parents.iter().skip(1).any(|p| gitlink(p, path) == Some(now)) {
            continue;
        }
        out.push((path.to_string(), now));
    }
    Ok(out)
}

/// Whether one of `tips` is `commit` or reaches it.
fn on_a_tip(repo: &Repo, tips: &[Oid], commit: Oid) -> bool {
    tips.iter().any(|t| *t == commit || repo.git.graph_descendant_of(*t, commit).unwrap_or(false))
}

/// The URL each submodule is named with, from the first of `trees` whose
/// `.gitmodules` names it.
fn urls<const N: usize>(repo: &Repo, trees: [Option<&Tree<'_>>; N]) -> Reading<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    let mut seen = HashSet::new();
    for tree in trees.into_iter().flatten() {
        let Ok(entry) = tree.get_path(std::path::Path::new(".gitmodules")) else { continue };
        if !seen.insert(entry.id()) {
            continue;
        }
        let blob = repo.git.find_blob(entry.id()).map_err(|e| Unread::git(".gitmodules", &e))?;
        for (path, url) in entries(&String::from_utf8_lossy(blob.content())) {
            if let Some(url) = url {
                out.entry(path).or_insert(url);
            }
        }
    }
    Ok(out)
}

/// The commit a tree records at `path`, where it records a submodule.
fn gitlink(tree: &Tree<'_>, path: &str) -> Option<Oid> {
    tree.get_path(std::path::Path::new(path)).ok().filter(|e| e.kind() == Some(ObjectType::Commit)).map(|e| e.id())
}

/// A commit's tree.
fn tree_of(repo: &Repo, id: Oid) -> Reading<Tree<'_>> {
    repo.git.find_commit(id).and_then(|c| c.tree()).map_err(|e| Unread::git(&format!("the tree of {id}"), &e))
}

/// A commit id.
fn oid(id: &str) -> Reading<Oid> {
    Oid::from_str(id).map_err(|e| Unread::git(&format!("commit id {id}"), &e))
}
