//! The reading itself (see the module essay in `status/mod.rs`): the index
//! against HEAD, every entry against its file on all cores, the walk for
//! untracked files meanwhile, and the answers put together.
//!
//! Entries git looks away from are settled as git settles them, and still
//! looked at, so that a judge can see what they hide ([`Hidden`]):
//! - assume-unchanged: clean, whatever the file is;
//! - skip-worktree without a sparse checkout: clean, whatever the file is;
//! - skip-worktree in a sparse checkout: clean while the file is absent
//!   (the cone leaves it out); present, git clears the bit and compares it,
//!   unless `sparse.expectFilesOutsideOfPatterns` says files outside the
//!   cone are expected (then clean). Absent where the checkout's definition
//!   includes it (`sparse.rs`), it is deleted, and the bit hides that, as
//!   without a sparse checkout (test/cases/580).
//!
//! Read for a task (`since.rs`), the settings are the start's, and a bit
//! the start's reading did not meet on a path hides nothing: the path is
//! dirty and [`Overruled`].

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;

use majordomus_records::RepoPath;

use super::since::{self, Since};
use super::stat::{self, Found, Settings, Stamp, Stater, MODE_FILE, MODE_GITLINK, MODE_MASK};
use super::tree::{Dirty, Hidden, HiddenBy, Overruled, Why, WorkingTree};
use super::walk::{self, Folded};
use crate::ignore::Matcher;
use crate::index_file::{self, Entry, Paths};
use crate::{Reading, Repo, Unread};

/// One entry's answer: what git shows, and what a bit hides if one does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Outcome {
    found: Found,
    hidden: Option<HiddenBy>,
    /// What the comparison had to say of the file's stamp (`verified.rs`).
    stamp: Stamp,
}

/// How the skip-worktree bit reads in this repository.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sparse {
    /// No sparse checkout: the bit hides the file.
    Off,
    /// Absent is clean; present is compared (git clears the bit).
    On,
    /// Absent is clean; present is hidden too.
    ExpectOutside,
}

/// Where the repository read lies among a task's submodules (`""`: the
/// superproject, or no task).
fn since_prefix<'a>(since: Since<'a>) -> &'a str {
    match since {
        Since::Start(start) => start.prefix,
        Since::Now => "",
    }
}

pub(super) fn read(repo: &Repo, since: Since<'_>) -> Reading<WorkingTree> {
    super::as_git_configures(repo)?;
    // Not a snapshot: the few keys read are looked up in place, where a
    // snapshot copies the whole configuration (two entries per branch that
    // tracks a remote).
    let config = repo.git.config().map_err(|e| Unread::git("the configuration", &e))?;
    let sha256 = config.get_string("extensions.objectformat").is_ok_and(|f| f != "sha1");
    let ignore_files = since::ignore_files(since);
    let cond = since::conditions(repo, &config, since, &ignore_files);
    if let Some(why) = &cond.unreadable {
        return Err(Unread::repository(why.clone()));
    }
    if sha256 || !cond.symlinks {
        return super::libgit2::read_since(repo, since, cond);
    }
    let icase = cond.icase;
    let sparse = match (cond.sparse_checkout, cond.expect_outside) {
        (false, _) => Sparse::Off,
        (true, false) => Sparse::On,
        (true, true) => Sparse::ExpectOutside,
    };
    // Read only in a sparse checkout: which absent skip-worktree files it
    // leaves out, and which a bit hides the deletion of.
    let definition = match sparse {
        Sparse::Off => None,
        _ => super::sparse::Definition::read(repo.git_dir(), icase),
    };
    let definition = definition.as_ref();
    let head_tree = head_tree(repo)?;
    // The index, and the paths where it differs from HEAD: read directly
    // where this reader knows the index, else through libgit2.
    let read_directly = repo.index_file();
    let from_libgit2;
    let (entries, paths, staged, removed_from_index): (&[Entry], &Paths, _, _) = match &read_directly {
        Ok(index) => {
            let (staged, removed) = index_file::staged(&repo.git, head_tree.as_ref(), index)
                .map_err(|e| Unread::git("the index against HEAD", &e))?;
            (&index.entries, &index.paths, staged, removed)
        }
        Err(_) => {
            let (entries, paths, staged, removed) = super::libgit2::index(repo, head_tree.as_ref())?;
            from_libgit2 = (entries, paths);
            (&from_libgit2.0, &from_libgit2.1, staged, removed)
        }
    };
    let settings = Settings {
        verified: cond.verified.as_deref(),
        read_from_ns: read_from_ns(),
        filemode: cond.filemode,
        // Unknown: every entry is racy, its content read.
        index_mtime: std::fs::metadata(repo.git_dir().join("index"))
            .map_or((i64::MIN, 0), |m| (m.mtime(), m.mtime_nsec())),
        refreshed_since: cond.refreshed_since.unwrap_or(i64::MAX),
        encodings: false,
    };
    let matcher = Matcher::since(&cond.sources_now, &cond.sources_held, (cond.icase_now, icase), repo.root());
    let folded = icase.then(|| Folded::new(entries, paths));
    let staged_set: HashSet<RepoPath> = staged.iter().cloned().collect();
    let start_tree = cond.held.start_tree(repo);
    let cx = walk::Context {
        repo,
        head: head_tree.as_ref(),
        staged: &staged_set,
        held: cond.held,
        start: start_tree.as_ref(),
        paths,
    };
    let mut dirty: BTreeSet<RepoPath> = staged.into_iter().collect();

    let mut conflicted: BTreeSet<RepoPath> = BTreeSet::new();
    let mut stage0: Vec<&Entry> = Vec::with_capacity(entries.len());
    for e in entries {
        if e.stage != 0 {
            conflicted.insert(RepoPath::from_bytes(e.path(paths)));
        } else {
            stage0.push(e);
        }
    }

    let root = repo.root();
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, 8);
    let chunk = stage0.len().div_ceil(workers).max(1);
    let (outcomes, walked) = std::thread::scope(|scope| {
        let handles: Vec<_> = stage0
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let (mut stater, mut memo) = (Stater::new(root), super::sparse::Memo::default());
                    part.iter()
                        .map(|e| outcome(&mut stater, e, e.path(paths), &settings, (sparse, definition, &mut memo)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        // While the workers stat, this thread walks for untracked files.
        let walked = walk::untracked(&cx, entries, &matcher, folded.as_ref());
        let outcomes: Vec<Outcome> = handles.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect();
        (outcomes, walked)
    });
    if outcomes.len() != stage0.len() {
        return Err(Unread::io("the comparison of the index with the working tree stopped early"));
    }
    let walked = walked?;

    // Settle what the workers could not: submodules here, converted content by libgit2.
    let mut outcomes = outcomes;
    let mut inside: BTreeSet<RepoPath> = BTreeSet::new();
    for (e, o) in stage0.iter().zip(outcomes.iter_mut()) {
        if o.found == Found::Ask && e.mode & MODE_MASK == MODE_GITLINK {
            // A submodule the start read is read as its start read it.
            let path = format!("{}{}/", since_prefix(since), String::from_utf8_lossy(e.path(paths)));
            let inner_since = match since {
                Since::Start(start) => start.of_submodule(&path).map_or(Since::Now, Since::Start),
                Since::Now => Since::Now,
            };
            let compared =
                super::gitlink::compare(repo, e, e.path(paths), &config, cond.submodules.as_ref(), |inner| {
                    read(inner, inner_since)
                });
            o.found = compared.found;
            if compared.inside {
                inside.insert(RepoPath::from_bytes(e.path(paths)));
            }
        }
    }
    // A file whose content differs from its blob as it is on disk may be
    // kept in another encoding, which git converts on its way in: where an
    // attributes file could say so, it is compared again through the
    // conversions (`encoding.rs`). Only then are the attributes files read.
    // A file left to libgit2 (its content holds a CR: UTF-16 text with CRLF
    // ends does) is one too, or libgit2 would compare it raw.
    let modified = |o: &Outcome| o.found == Found::Modified && o.hidden.is_none();
    let asks = |o: &Outcome| o.found == Found::Ask && o.hidden.is_none();
    let encodings = outcomes.iter().any(|o| modified(o) || asks(o))
        && super::encoding::possible(repo, &config, (entries, paths), &walked.untracked);
    if encodings {
        let again = Settings { encodings: true, ..settings };
        let (mut stater, mut memo) = (Stater::new(root), super::sparse::Memo::default());
        for (e, o) in stage0.iter().zip(outcomes.iter_mut()) {
            if modified(o) && e.mode & MODE_MASK != MODE_GITLINK {
                *o = outcome(&mut stater, e, e.path(paths), &again, (sparse, definition, &mut memo));
            }
        }
    }
    // A file libgit2 found clean at the start and unchanged since is clean
    // while the attributes files are what they were then (`verified.rs`).
    let attributes = attributes_digest(repo, (entries, paths), &walked.untracked);
    let attributes_held = cond.verified_attributes == Some(attributes);
    for o in outcomes.iter_mut() {
        if o.found == Found::Ask && o.stamp == Stamp::ConvertedAtStart && attributes_held {
            o.found = Found::Clean;
        }
    }
    let asked: Vec<&Entry> =
        stage0.iter().zip(&outcomes).filter(|(_, o)| o.found == Found::Ask).map(|(e, _)| *e).collect();
    let answers: BTreeMap<&[u8], Found> = if asked.is_empty() {
        BTreeMap::new()
    } else {
        let filters = filters_possible(repo, &config, (entries, paths), &walked.untracked);
        super::libgit2::ask(repo, &asked, paths, entries, filters, encodings)?.into_iter().collect()
    };

    // A Git LFS file holds its object on disk and a pointer in its blob:
    // git, running LFS's clean filter, finds it clean where the pointer
    // names the file's SHA-256 and size; this reading runs no driver and
    // compared the raw bytes. The pointer is checked without the driver,
    // only for a regular file found modified whose blob is a pointer and
    // whose attributes say `filter=lfs` (test/cases/647).
    let found_now = |e: &Entry, o: &Outcome| match o.found {
        Found::Ask => answers.get(e.path(paths)).copied().unwrap_or(Found::Modified),
        f => f,
    };
    let candidates: Vec<&Entry> = stage0
        .iter()
        .zip(&outcomes)
        .filter(|(e, o)| e.mode & MODE_MASK == MODE_FILE && found_now(e, o) == Found::Modified)
        .map(|(e, _)| *e)
        .collect();
    let lfs_held: HashSet<&[u8]> = if !candidates.is_empty()
        && lfs_driver(&config)
        && filters_possible(repo, &config, (entries, paths), &walked.untracked)
    {
        candidates.into_iter().filter(|e| lfs_object(repo, e.id, e.path(paths))).map(|e| e.path(paths)).collect()
    } else {
        HashSet::new()
    };

    // The stamps of the files read by content and found clean, by this
    // reading or through the conversions by libgit2.
    let verified = stage0
        .iter()
        .zip(&outcomes)
        .filter_map(|(e, o)| match (o.found, o.stamp) {
            (Found::Clean, Stamp::Keep(stamp)) => Some(stamp),
            (Found::Ask, Stamp::Keep(stamp)) => (answers.get(e.path(paths)) == Some(&Found::Clean)).then_some(stamp),
            _ => None,
        })
        .collect();
    let mut tree = WorkingTree { verified, attributes, ..WorkingTree::default() };
    let mut deleted: BTreeSet<RepoPath> = BTreeSet::new();
    for (e, o) in stage0.iter().zip(outcomes) {
        let found = match found_now(e, &o) {
            Found::Modified if lfs_held.contains(e.path(paths)) => Found::Clean,
            f => f,
        };
        if found == Found::Clean && o.hidden.is_none() {
            continue;
        }
        // A path the index holds is the user's content wherever it lies,
        // under `.ai/local/` too (`git add -f`): only untracked files there
        // are majordomus's own state, left out by the walk.
        let path = RepoPath::from_bytes(e.path(paths));
        if let Some(by) = o.hidden {
            let changed = found != Found::Clean;
            // A bit the start did not have hides nothing from the task.
            if changed && cond.bits.is_some_and(|bits| !since::bit_held(bits, &path, by)) {
                tree.overruled.push(Overruled { path: path.clone(), why: Why::Bit(by) });
            } else if since::changed_under_bit(repo, cond.hidden_changed, &path, changed) {
                tree.overruled.push(Overruled { path: path.clone(), why: Why::ChangedUnderBit(by) });
            } else {
                let index = e.id.to_string();
                tree.hidden.push(Hidden { path, by, changed, deleted: found == Found::Deleted, index });
                continue;
            }
        }
        if found == Found::Deleted {
            deleted.insert(path.clone());
        }
        dirty.insert(path);
    }
    for path in dirty {
        if conflicted.contains(&path) {
            continue;
        }
        // stage0 is sorted by path, as the index is: a binary search, not a
        // map of every entry for the few that are dirty.
        let index =
            stage0.binary_search_by(|e| e.path(paths).cmp(path.as_bytes())).ok().map(|i| stage0[i].id.to_string());
        // Changed inside only, with the recorded commit not staged anew either.
        if inside.contains(&path) && !staged_set.contains(&path) {
            tree.dirty_inside.push(path.clone());
        }
        tree.dirty.push(Dirty { deleted: deleted.contains(&path), index, path });
    }
    tree.intent_gone = intent_gone(&tree, (stage0.iter().copied(), paths));
    let mut walked = walked;
    let (folded_counted, case_folded) = walked.count_folded(|p| since::folded_since(repo, cond.case_folded, p));
    let walk::Walked { mut untracked, hidden_since, uncommitted_ignores, .. } = walked;
    untracked.retain(|p| !removed_from_index.contains(p) && !conflicted.contains(p));
    untracked.sort();
    tree.untracked = untracked;
    tree.overruled.extend(
        hidden_since
            .into_iter()
            .filter(|(p, _)| tree.untracked.binary_search(p).is_ok())
            .map(|(path, origin)| Overruled { path, why: Why::IgnoredSince(origin) }),
    );
    tree.overruled.extend(
        folded_counted
            .into_iter()
            .filter(|p| tree.untracked.binary_search(p).is_ok())
            .map(|path| Overruled { path, why: Why::CaseFolded }),
    );
    tree.case_folded = case_folded;
    tree.conflicted = conflicted.into_iter().collect();
    tree.governed = cond.governed;
    tree.uncommitted_ignores = uncommitted_ignores;
    tree.modes_ignored = !cond.filemode;
    Ok(tree)
}

/// The paths of `tree.dirty` deleted whose index entry (of `entries`,
/// sorted by path) is an intent to add ([`WorkingTree::intent_gone`]).
pub(super) fn intent_gone<'a>(
    tree: &WorkingTree,
    (entries, paths): (impl Iterator<Item = &'a Entry>, &Paths),
) -> Vec<RepoPath> {
    let gone: HashSet<&[u8]> = tree.dirty.iter().filter(|d| d.deleted).map(|d| d.path.as_bytes()).collect();
    if gone.is_empty() {
        return Vec::new();
    }
    entries
        .filter(|e| e.stage == 0 && e.intent_to_add && gone.contains(e.path(paths)))
        .map(|e| RepoPath::from_bytes(e.path(paths)))
        .collect()
}

/// HEAD's tree, `None` while HEAD is unborn.
pub(super) fn head_tree(repo: &Repo) -> Reading<Option<git2::Tree<'_>>> {
    match repo.git.head() {
        Ok(h) => Ok(Some(h.peel_to_tree().map_err(|e| Unread::git("HEAD's tree", &e))?)),
        Err(e) if e.code() == git2::ErrorCode::UnbornBranch || e.code() == git2::ErrorCode::NotFound => Ok(None),
        Err(e) => Err(Unread::git("HEAD", &e)),
    }
}

/// One entry against its file, the bits git honours applied (in a sparse
/// checkout, `definition` the patterns it is read by, if any).
fn outcome(
    stater: &mut Stater<'_>,
    e: &Entry,
    path: &[u8],
    settings: &Settings<'_>,
    (sparse, definition, memo): (Sparse, Option<&super::sparse::Definition>, &mut super::sparse::Memo),
) -> Outcome {
    let plain = |found| Outcome { found, hidden: None, stamp: Stamp::None };
    if e.mode & MODE_MASK == MODE_GITLINK && !e.assume_valid && !e.skip_worktree {
        return plain(Found::Ask);
    }
    let look = |stater: &mut Stater<'_>| {
        if e.mode & MODE_MASK == MODE_GITLINK {
            // What a bit hides in a submodule is not looked into.
            return (if stater.lstat(path).is_ok() { Found::Clean } else { Found::Deleted }, Stamp::None);
        }
        stat::compare(stater, e, path, settings)
    };
    let hidden = |(found, _): (Found, Stamp), by| Outcome { found, hidden: Some(by), stamp: Stamp::None };
    if e.assume_valid {
        return hidden(look(stater), HiddenBy::AssumeUnchanged);
    }
    if !e.skip_worktree {
        let (found, stamp) = look(stater);
        return Outcome { found, hidden: None, stamp };
    }
    match sparse {
        Sparse::Off => hidden(look(stater), HiddenBy::SkipWorktree),
        // Absent where the definition includes it: deleted, the bit hiding it.
        _ if stater.lstat(path).is_err() => {
            if definition.is_some_and(|d| d.includes_with(path, memo)) {
                hidden((Found::Deleted, Stamp::None), HiddenBy::SkipWorktree)
            } else {
                plain(Found::Clean)
            }
        }
        Sparse::On => {
            let (found, stamp) = look(stater);
            Outcome { found, hidden: None, stamp }
        }
        Sparse::ExpectOutside => hidden(look(stater), HiddenBy::ExpectedOutsideSparse),
    }
}

/// Now, in nanoseconds since the epoch: when a reading begins.
fn read_from_ns() -> i128 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as i128)
}

/// The digest of the working tree's attributes files (`.gitattributes`
/// anywhere, tracked or untracked: `verified.rs`).
fn attributes_digest(repo: &Repo, (entries, paths): (&[Entry], &Paths), untracked: &[RepoPath]) -> u64 {
    let attributes = |p: &[u8]| p == b".gitattributes" || p.ends_with(b"/.gitattributes");
    let mut files: Vec<(&[u8], Option<git2::Oid>)> = entries
        .iter()
        .filter(|e| e.stage == 0 && attributes(e.path(paths)))
        .map(|e| (e.path(paths), Some(e.id)))
        .chain(untracked.iter().filter(|p| attributes(p.as_bytes())).map(|p| (p.as_bytes(), None)))
        .collect();
    files.sort();
    super::verified::attributes(repo.root(), &files)
}

/// Whether git would run LFS's filter at all: `filter.lfs.clean` or
/// `filter.lfs.process` is configured (`git lfs install` sets both; with
/// neither, git compares a `filter=lfs` file raw, as this reading does).
pub(super) fn lfs_driver(config: &git2::Config) -> bool {
    ["filter.lfs.clean", "filter.lfs.process"]
        .iter()
        .any(|key| crate::config::setting(config, key).is_some_and(|v| !v.trim().is_empty()))
}

/// Whether the regular file at `path` is the Git LFS object its staged
/// blob `id`, a pointer, names, under `filter=lfs` (`inputs::recorded`):
/// the blob's size is read first, so a blob too small or too large for a
/// pointer is never inflated, then whether it is one, and only then the
/// attributes.
pub(super) fn lfs_object(repo: &Repo, id: git2::Oid, path: &[u8]) -> bool {
    let small = repo
        .git
        .odb()
        .ok()
        .and_then(|odb| odb.read_header(id).ok())
        .is_some_and(|(size, _)| (100..=1024).contains(&size));
    let rel = RepoPath::from_bytes(path);
    let filter = || {
        let at = std::path::Path::new(std::ffi::OsStr::from_bytes(path));
        repo.git.get_attr(at, "filter", git2::AttrCheckFlags::FILE_THEN_INDEX).ok().flatten() == Some("lfs")
    };
    let pointer =
        || repo.git.find_blob(id).ok().is_some_and(|b| crate::inputs::recorded::lfs_pointer(b.content()).is_some());
    small && pointer() && filter() && crate::inputs::recorded::holds_lfs_object(repo, &rel, id)
}

/// Whether git could convert content on its way in (eol, ident): an
/// attributes file anywhere git reads one, or `core.autocrlf`/`core.eol`.
fn filters_possible(
    repo: &Repo,
    config: &git2::Config,
    (entries, paths): (&[Entry], &Paths),
    untracked: &[RepoPath],
) -> bool {
    let attributes = |p: &[u8]| p == b".gitattributes" || p.ends_with(b"/.gitattributes");
    crate::config::setting(config, "core.autocrlf").is_some_and(|v| v != "false")
        || crate::config::setting(config, "core.eol").is_some()
        || repo.common_dir().join("info/attributes").exists()
        || config.get_string("core.attributesfile").is_ok()
        || global_attributes_exist()
        || entries.iter().any(|e| attributes(e.path(paths)))
        || untracked.iter().any(|p| attributes(p.as_bytes()))
}

/// Whether the user-wide attributes file git reads by default exists.
fn global_attributes_exist() -> bool {
    global_attributes().is_some_and(|p| p.exists())
}

/// The user-wide attributes file git reads by default:
/// `$XDG_CONFIG_HOME/git/attributes`, else `~/.config/git/attributes`.
pub(super) fn global_attributes() -> Option<std::path::PathBuf> {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".config")))?;
    Some(base.join("git/attributes"))
}
