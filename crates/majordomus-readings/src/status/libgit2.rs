//! libgit2's reading of the working tree, and of the index where this
//! crate's own reader (`index_file`) cannot read it.
//!
//! It also settles, path by path, what the fast path leaves to it: content
//! an eol or ident conversion could change ([`ask`]).
//!
//! The whole reading is the fallback for a repository the fast path does
//! not model (`core.symlinks = false`, a SHA-256 repository, which libgit2
//! cannot open either), and the reference the fast path's unit tests hold
//! it to where libgit2 agrees with git.

use std::collections::{HashMap, HashSet};
use std::os::unix::ffi::OsStrExt;

use git2::{Status, StatusOptions};
use majordomus_records::RepoPath;

use super::since::{Conditions, Since};
use super::stat::Found;
use super::tree::{Dirty, Hidden, HiddenBy, Overruled, Why, WorkingTree};
use crate::ignore::Matcher;
use crate::index_file::{Entry, Paths};
use crate::{Reading, Repo, Unread};

/// Reads the working tree's state in one libgit2 status pass: the reference
/// the fast path is held to, and its fallback.
pub fn read(repo: &Repo) -> Reading<WorkingTree> {
    super::as_git_configures(repo)?;
    let mut opts = StatusOptions::new();
    opts.include_untracked(true)
        .recurse_untracked_dirs(true)
        .include_ignored(false)
        .renames_head_to_index(false)
        .renames_index_to_workdir(false);
    let statuses = repo.git.statuses(Some(&mut opts)).map_err(|e| Unread::git("the working tree's status", &e))?;
    let mut tree = WorkingTree::default();
    let lfs = repo.git.config().is_ok_and(|c| super::fast::lfs_driver(&c));
    for entry in statuses.iter() {
        let path = RepoPath::from_bytes(entry.path_bytes());
        let s = entry.status();
        // Only an untracked file under `.ai/local/` is majordomus's own
        // state; one the index holds is the user's (`git add -f`), and in
        // a repository read inside another every one is content.
        if repo.holds_own_state() && path.is_own_state() && s == Status::WT_NEW {
            continue;
        }
        if s.contains(Status::CONFLICTED) {
            tree.conflicted.push(path);
            continue;
        }
        if s == Status::WT_NEW {
            tree.untracked.push(path);
            continue;
        }
        // A Git LFS object under its pointer is its blob, as git finds it
        // through LFS's clean filter (`fast::lfs_object`, test/cases/647).
        if lfs
            && s == Status::WT_MODIFIED
            && entry.index_to_workdir().is_some_and(|d| {
                let old = d.old_file();
                u32::from(old.mode()) & super::stat::MODE_MASK == super::stat::MODE_FILE
                    && super::fast::lfs_object(repo, old.id(), path.as_bytes())
            })
        {
            continue;
        }
        if s.intersects(
            Status::INDEX_NEW
                | Status::INDEX_MODIFIED
                | Status::INDEX_DELETED
                | Status::INDEX_TYPECHANGE
                | Status::INDEX_RENAMED
                | Status::WT_MODIFIED
                | Status::WT_DELETED
                | Status::WT_TYPECHANGE
                | Status::WT_RENAMED,
        ) {
            let index =
                entry.head_to_index().map(|d| d.new_file()).filter(|f| f.exists()).map(|f| f.id().to_string()).or_else(
                    || {
                        // Unchanged in the index: the staged blob is HEAD's.
                        if s.intersects(Status::INDEX_NEW | Status::INDEX_MODIFIED | Status::INDEX_DELETED) {
                            None
                        } else {
                            entry.index_to_workdir().map(|d| d.old_file().id().to_string())
                        }
                    },
                );
            // A submodule changed only inside: its HEAD is the recorded commit.
            let staged = s.intersects(Status::INDEX_NEW | Status::INDEX_MODIFIED | Status::INDEX_DELETED);
            if !staged
                && index.as_deref().is_some_and(|id| {
                    super::nested::head_of(&path.under(repo.root())).is_some_and(|h| h.to_string() == id)
                })
            {
                tree.dirty_inside.push(path.clone());
            }
            tree.dirty.push(Dirty { path, index, deleted: s.contains(Status::WT_DELETED) });
        }
    }
    tree.dirty_inside.sort();
    Ok(tree)
}

/// The whole reading through libgit2 (the fast path's fallback) for a
/// reading that obeys `cond`. libgit2 reads the configuration as it is now,
/// so a setting changed since a task's start cannot be read as it was: the
/// reading is then unread, naming it. The untracked files are the walk's,
/// by the ignore rules that held at the start; what a bit hides is looked
/// at as the fast path looks ([`bits`]), and an entry refreshed since the
/// start is compared by content ([`refreshed`]).
pub(super) fn read_since(repo: &Repo, since: Since<'_>, cond: Conditions<'_>) -> Reading<WorkingTree> {
    let mut tree = read(repo)?;
    tree.modes_ignored = !cond.filemode;
    let head = super::fast::head_tree(repo)?;
    let (entries, paths, staged, removed) = index(repo, head.as_ref())?;
    let included = if cond.sparse_checkout {
        sparse_absent(repo, &mut tree, (&entries, &paths), &staged, cond.icase)
    } else {
        HashSet::new()
    };
    bits(repo, &mut tree, (&entries, &paths), &cond, &included)?;
    tree.intent_gone = super::fast::intent_gone(&tree, (entries.iter(), &paths));
    if matches!(since, Since::Now) {
        // What the case fold hides, for a start to record: a walk of its
        // own only under `core.ignoreCase`, where a collision can exist.
        if cond.icase {
            tree.case_folded = case_folded(repo, head.as_ref(), (&entries, &paths), &staged, &cond)?;
        }
        return Ok(tree);
    }
    if let Some(g) = cond.governed.first() {
        return Err(Unread::repository(format!(
            "this repository is read through libgit2 (core.symlinks = false, or SHA-256 objects), which cannot read it as at the task's start: {g}"
        )));
    }
    let staged: HashSet<RepoPath> = staged.into_iter().collect();
    let start_tree = cond.held.start_tree(repo);
    let cx = super::walk::Context {
        repo,
        head: head.as_ref(),
        staged: &staged,
        held: cond.held,
        start: start_tree.as_ref(),
        paths: &paths,
    };
    let matcher = Matcher::since(&cond.sources_now, &cond.sources_held, (cond.icase_now, cond.icase), repo.root());
    let folded = cond.icase.then(|| super::walk::Folded::new(&entries, &paths));
    let mut walked = super::walk::untracked(&cx, &entries, &matcher, folded.as_ref())?;
    let (folded_counted, case_folded) = walked.count_folded(|p| super::since::folded_since(repo, cond.case_folded, p));
    tree.case_folded = case_folded;
    if let Some(since) = cond.refreshed_since {
        refreshed(repo, &mut tree, (&entries, &paths), since)?;
    }
    let conflicted: HashSet<&RepoPath> = tree.conflicted.iter().collect();
    let mut untracked: Vec<RepoPath> =
        walked.untracked.into_iter().filter(|p| !removed.contains(p) && !conflicted.contains(p)).collect();
    untracked.sort();
    tree.overruled.extend(
        walked
            .hidden_since
            .into_iter()
            .filter(|(p, _)| untracked.binary_search(p).is_ok())
            .map(|(path, origin)| Overruled { path, why: Why::IgnoredSince(origin) }),
    );
    tree.overruled.extend(
        folded_counted
            .into_iter()
            .filter(|p| untracked.binary_search(p).is_ok())
            .map(|path| Overruled { path, why: Why::CaseFolded }),
    );
    tree.untracked = untracked;
    tree.uncommitted_ignores = walked.uncommitted_ignores;
    tree.modes_ignored = !cond.filemode;
    Ok(tree)
}

/// The untracked files git hides under `core.ignoreCase` because their
/// name is a tracked path's with case aside (the walk's
/// [`super::walk::Walked::case_folded`]), sorted: libgit2's status hides
/// them as git does and does not say which.
fn case_folded(
    repo: &Repo,
    head: Option<&git2::Tree<'_>>,
    (entries, paths): (&[Entry], &Paths),
    staged: &[RepoPath],
    cond: &Conditions<'_>,
) -> Reading<Vec<RepoPath>> {
    let staged: HashSet<RepoPath> = staged.iter().cloned().collect();
    let cx = super::walk::Context { repo, head, staged: &staged, held: cond.held, start: None, paths };
    let matcher = Matcher::since(&cond.sources_now, &cond.sources_held, (cond.icase_now, cond.icase), repo.root());
    let folded = super::walk::Folded::new(entries, paths);
    let mut walked = super::walk::untracked(&cx, entries, &matcher, Some(&folded))?;
    Ok(walked.count_folded(|_| false).1)
}

/// The index (its entries and their paths), the paths where it differs
/// from HEAD, and those of them it does not hold.
pub(super) type Staged = (Vec<Entry>, Paths, Vec<RepoPath>, HashSet<RepoPath>);

/// In a sparse checkout, the skip-worktree entries whose file is absent,
/// read as git reads them (`fast.rs`): libgit2's status lists each as
/// deleted, where git takes it for clean, so it is taken off `tree.dirty`
/// (kept, not deleted, where the index differs from HEAD there). Those the
/// checkout's definition includes (`sparse.rs`) are returned: a deletion
/// the bit hides, for [`bits`] to look at (test/cases/580, 589). A
/// submodule's entry the definition includes is left as libgit2 lists it.
fn sparse_absent(
    repo: &Repo,
    tree: &mut WorkingTree,
    (entries, paths): (&[Entry], &Paths),
    staged: &[RepoPath],
    icase: bool,
) -> HashSet<Vec<u8>> {
    let gitlink = |e: &Entry| e.mode & super::stat::MODE_MASK == super::stat::MODE_GITLINK;
    let absent = |e: &&Entry| {
        e.stage == 0
            && e.skip_worktree
            && crate::file::in_tree(repo.root(), &RepoPath::from_bytes(e.path(paths)))
                .map_or(true, |p| std::fs::symlink_metadata(p).is_err())
    };
    let mut absent: Vec<&Entry> = entries.iter().filter(|e| e.skip_worktree).filter(absent).collect();
    if absent.is_empty() {
        return HashSet::new();
    }
    let definition = super::sparse::Definition::read(repo.git_dir(), icase);
    let mut memo = super::sparse::Memo::default();
    let mut included = HashSet::new();
    absent.retain(|e| {
        let inside = definition.as_ref().is_some_and(|d| d.includes_with(e.path(paths), &mut memo));
        if inside {
            included.insert(e.path(paths).to_vec());
        }
        !(inside && gitlink(e))
    });
    let staged: HashSet<&[u8]> = staged.iter().map(RepoPath::as_bytes).collect();
    let absent: HashSet<&[u8]> = absent.iter().map(|e| e.path(paths)).collect();
    tree.dirty.retain_mut(|d| {
        let p = d.path.as_bytes();
        if !absent.contains(p) {
            return true;
        }
        d.deleted = false;
        staged.contains(p)
    });
    tree.dirty_inside.retain(|p| !absent.contains(p.as_bytes()) || staged.contains(p.as_bytes()));
    included.retain(|p| !staged.contains(p.as_slice()));
    included
}

/// The entries libgit2's status looked away from because of a bit, looked
/// at (as the fast path lists them, `fast.rs`: without a sparse checkout,
/// and in one an absent file the checkout's definition includes,
/// `included`), in `tree.hidden`; read for a task, one that changed under
/// a bit that did not hide it at the start is counted, and overruled.
fn bits(
    repo: &Repo,
    tree: &mut WorkingTree,
    (entries, paths): (&[Entry], &Paths),
    cond: &Conditions<'_>,
    included: &HashSet<Vec<u8>>,
) -> Reading<()> {
    let gitlink = |e: &Entry| e.mode & super::stat::MODE_MASK == super::stat::MODE_GITLINK;
    let skipped = |e: &Entry| e.skip_worktree && (!cond.sparse_checkout || included.contains(e.path(paths)));
    let by = |e: &Entry| match (e.assume_valid, skipped(e)) {
        (true, _) => Some(HiddenBy::AssumeUnchanged),
        (false, true) => Some(HiddenBy::SkipWorktree),
        _ => None,
    };
    let marked: Vec<(&Entry, HiddenBy)> =
        entries.iter().filter(|e| e.stage == 0 && !gitlink(e)).filter_map(|e| by(e).map(|b| (e, b))).collect();
    if marked.is_empty() {
        return Ok(());
    }
    let asked: Vec<&Entry> = marked.iter().map(|(e, _)| *e).collect();
    let found: HashMap<&[u8], Found> = ask(repo, &asked, paths, entries, true, false)?.into_iter().collect();
    let listed: HashSet<RepoPath> = tree.dirty.iter().map(|d| d.path.clone()).collect();
    for (e, by) in marked {
        let path = RepoPath::from_bytes(e.path(paths));
        if listed.contains(&path) {
            continue;
        }
        let found = found.get(e.path(paths)).copied().unwrap_or(Found::Modified);
        let (changed, deleted) = (found != Found::Clean, found == Found::Deleted);
        // A bit the start did not have hides nothing from the task.
        if changed && cond.bits.is_some_and(|bits| !super::since::bit_held(bits, &path, by)) {
            tree.overruled.push(Overruled { path: path.clone(), why: Why::Bit(by) });
            tree.dirty.push(Dirty { path, index: Some(e.id.to_string()), deleted });
        } else if super::since::changed_under_bit(repo, cond.hidden_changed, &path, changed) {
            tree.overruled.push(Overruled { path: path.clone(), why: Why::ChangedUnderBit(by) });
            tree.dirty.push(Dirty { path, index: Some(e.id.to_string()), deleted });
        } else {
            tree.hidden.push(Hidden { path, by, changed, deleted, index: e.id.to_string() });
        }
    }
    tree.dirty.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(())
}

/// Adds to `tree` the entries refreshed since a task's start (file time
/// not older than `since`, whole seconds) whose content is not their
/// staged blob's: libgit2's status let their stat data vouch for them
/// (`since.rs`). Entries under a bit, and submodules, are left as read.
fn refreshed(repo: &Repo, tree: &mut WorkingTree, (entries, paths): (&[Entry], &Paths), since: i64) -> Reading<()> {
    let listed: HashSet<&[u8]> = tree.dirty.iter().map(|d| d.path.as_bytes()).collect();
    let gitlink = |e: &Entry| e.mode & super::stat::MODE_MASK == super::stat::MODE_GITLINK;
    let suspect: Vec<&Entry> = entries
        .iter()
        .filter(|e| e.stage == 0 && !e.assume_valid && !e.skip_worktree && !gitlink(e))
        .filter(|e| i64::from(e.mtime.0) >= since && !listed.contains(e.path(paths)))
        .collect();
    if suspect.is_empty() {
        return Ok(());
    }
    let ids: HashMap<&[u8], String> = suspect.iter().map(|e| (e.path(paths), e.id.to_string())).collect();
    let lfs = repo.git.config().is_ok_and(|c| super::fast::lfs_driver(&c));
    let regular: HashMap<&[u8], git2::Oid> = suspect
        .iter()
        .filter(|e| lfs && e.mode & super::stat::MODE_MASK == super::stat::MODE_FILE)
        .map(|e| (e.path(paths), e.id))
        .collect();
    for (path, found) in ask(repo, &suspect, paths, entries, true, false)? {
        let lfs =
            || found == Found::Modified && regular.get(path).is_some_and(|id| super::fast::lfs_object(repo, *id, path));
        if found != Found::Clean && !lfs() {
            let index = ids.get(path).cloned();
            tree.dirty.push(Dirty {
                path: RepoPath::from_bytes(path.to_vec()),
                index,
                deleted: found == Found::Deleted,
            });
        }
    }
    tree.dirty.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(())
}

/// The index and its differences from HEAD, read through libgit2.
pub(super) fn index(repo: &Repo, head_tree: Option<&git2::Tree<'_>>) -> Reading<Staged> {
    let index = repo.git.index().map_err(|e| Unread::git("the index", &e))?;
    let mut paths = Paths::default();
    let entries = index
        .iter()
        .map(|e| {
            Ok(Entry {
                ctime: (e.ctime.seconds() as u32, e.ctime.nanoseconds()),
                mtime: (e.mtime.seconds() as u32, e.mtime.nanoseconds()),
                ino: e.ino,
                mode: e.mode,
                size: e.file_size,
                id: e.id,
                stage: ((e.flags >> 12) & 0x3) as u8,
                skip_worktree: e.flags_extended & (1 << 14) != 0,
                intent_to_add: e.flags_extended & (1 << 13) != 0,
                assume_valid: e.flags & 0x8000 != 0,
                at: paths.push(&e.path).map_err(|u| Unread::repository(u.0))?,
            })
        })
        .collect::<Reading<Vec<Entry>>>()?;
    // By path as bytes, as the index file keeps them and the walk's binary
    // searches need: libgit2 keeps its entries in case-folded order under
    // `core.ignoreCase`. Stable, so a path's stages stay in order.
    let mut entries = entries;
    entries.sort_by(|a, b| a.path(&paths).cmp(b.path(&paths)));
    let mut opts = git2::DiffOptions::new();
    opts.include_typechange(true);
    let diff = repo
        .git
        .diff_tree_to_index(head_tree, Some(&index), Some(&mut opts))
        .map_err(|e| Unread::git("the index against HEAD", &e))?;
    let mut staged = Vec::new();
    let mut removed = HashSet::new();
    for delta in diff.deltas() {
        let file = if delta.new_file().exists() { delta.new_file() } else { delta.old_file() };
        let Some(path) = file.path_bytes().map(RepoPath::from_bytes) else { continue };
        if delta.status() == git2::Delta::Deleted {
            removed.insert(path.clone());
        }
        staged.push(path);
    }
    Ok((entries, paths, staged, removed))
}

/// The entries the stat pass could not settle, each against its file.
/// Where no conversion could apply (`filters` false) the raw content
/// decides; else libgit2 compares them through its built-in filters (eol,
/// ident; never a configured filter driver), given an index of these
/// entries alone, their times cleared so that it reads every one (their
/// sizes kept: a size that differs is a change, as it is to git). Where
/// `encodings` (an attributes file could set `working-tree-encoding`), a
/// path the attributes give an encoding is converted here as git converts
/// it (`encoding.rs`), libgit2 having no such conversion.
pub(super) fn ask<'a>(
    repo: &Repo,
    asked: &[&Entry],
    paths: &'a Paths,
    all: &[Entry],
    filters: bool,
    encodings: bool,
) -> Reading<Vec<(&'a [u8], Found)>> {
    let mut out = Vec::with_capacity(asked.len());
    let mut for_libgit2 = Vec::new();
    for e in asked {
        let raw = (!filters)
            .then(|| crate::file::read(&repo.root().join(std::ffi::OsStr::from_bytes(e.path(paths)))).ok())
            .flatten()
            .and_then(|bytes| git2::Oid::hash_object(git2::ObjectType::Blob, &bytes).ok());
        match raw {
            Some(id) => out.push((e.path(paths), if id == e.id { Found::Clean } else { Found::Modified })),
            None => for_libgit2.push(*e),
        }
    }
    if for_libgit2.is_empty() {
        return Ok(out);
    }
    let mut index = git2::Index::new().map_err(|e| Unread::git("an index of the paths to compare", &e))?;
    let mut opts = git2::DiffOptions::new();
    opts.include_typechange(true).disable_pathspec_match(true).include_untracked(false);
    let zero = git2::IndexTime::new(0, 0);
    // The attributes files' entries too: libgit2 reads one from the index
    // where the working tree has none.
    let attributes = all.iter().filter(|e| e.stage == 0 && e.path(paths).ends_with(b".gitattributes"));
    for e in for_libgit2.iter().copied().chain(attributes) {
        let entry = git2::IndexEntry {
            ctime: zero,
            mtime: zero,
            dev: 0,
            ino: 0,
            mode: e.mode,
            uid: 0,
            gid: 0,
            file_size: e.size,
            id: e.id,
            flags: 0,
            flags_extended: 0,
            path: e.path(paths).to_vec(),
        };
        index.add(&entry).map_err(|err| {
            Unread::git(&format!("the index entry of {}", String::from_utf8_lossy(e.path(paths))), &err)
        })?;
    }
    // A handle of its own whose index is this one: libgit2 never reads the
    // index file (which it cannot read when split or sparse) to look up an
    // attribute or whether the staged blob holds a CR.
    let handle = repo.reopen().map_err(|e| Unread::git("the repository", &e))?;
    handle.git.set_index(&mut index).map_err(|e| Unread::git("an index of the paths to compare", &e))?;
    if encodings {
        let config = handle.git.config().ok();
        let setting = |name: &str| config.as_ref().and_then(|c| crate::config::setting(c, name));
        let (autocrlf, core_eol) = (setting("core.autocrlf"), setting("core.eol"));
        let mut rest = Vec::with_capacity(for_libgit2.len());
        for e in for_libgit2 {
            let conversion =
                super::encoding::conversion(&handle.git, e.path(paths), autocrlf.as_deref(), core_eol.as_deref());
            match &conversion.encoding {
                Some(encoding) => out.push((
                    e.path(paths),
                    super::encoding::compare(repo, &handle.git, e, e.path(paths), &conversion, encoding)?,
                )),
                None => rest.push(e),
            }
        }
        for_libgit2 = rest;
        if for_libgit2.is_empty() {
            return Ok(out);
        }
    }
    for e in &for_libgit2 {
        opts.pathspec(e.path(paths));
    }
    let diff = handle
        .git
        .diff_index_to_workdir(Some(&index), Some(&mut opts))
        .map_err(|e| Unread::git("the working tree against the index", &e))?;
    let mut changed: HashMap<Vec<u8>, Found> = HashMap::new();
    for delta in diff.deltas() {
        let found = match delta.status() {
            git2::Delta::Deleted => Found::Deleted,
            git2::Delta::Unmodified => continue,
            _ => Found::Modified,
        };
        if let Some(p) = delta.old_file().path_bytes() {
            changed.insert(p.to_vec(), found);
        }
    }
    out.extend(
        for_libgit2.iter().map(|e| (e.path(paths), changed.get(e.path(paths)).copied().unwrap_or(Found::Clean))),
    );
    Ok(out)
}
