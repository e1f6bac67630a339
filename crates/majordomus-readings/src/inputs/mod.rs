//! A gate's inputs: which paths select it, and the one hash that says what
//! content its verdict covers.
//!
//! A gate's verdict is only worth what it was run over. `gate run` hashes the
//! inputs before the command starts; `check` hashes them again and compares:
//! a verdict whose hash differs from the inputs now is stale, whatever its
//! age, and one whose hash is equal is current, whoever ran it and however
//! long ago (a change made and then reverted makes it current again).
//!
//! The inputs are every tracked or untracked, non-ignored file matching the
//! gate's globs: tracked paths from the index, untracked ones from the status
//! pass the caller already took (a tracked file the pass found changed
//! behind an assume-unchanged or skip-worktree bit is read from disk). The
//! hash covers each matching path with
//! the blob id of its content in the working tree, sorted by path, plus the
//! gate's command (a verdict of another command is not this gate's), and
//! each path's mode as git records it (100644, 100755 or 120000): a script
//! that lost its executable bit runs differently, or not at all, with the
//! same content. The blob id and mode of a tracked file the status pass
//! found unchanged are the index's (the status pass already compared it
//! with the working tree); every other file is hashed from disk (never
//! waiting on a FIFO, see [`crate::file`]) and its mode taken from the
//! working tree as git would stage it. No git command runs.
//!
//! Three things beyond the files' own content are part of what a verdict
//! covers: what a symbolic link among the inputs leads to, where that is
//! inside the working tree (`links.rs`), the ignore rules the inputs
//! were taken under where the repository does not hold them (`ignore.rs`),
//! and which tracked inputs a sparse checkout left out of the working tree
//! (the index holds their content, but a command run here never saw it).
//! Each adds lines to the hash only where there is something to cover (a
//! link, a rule, an absent file), so a gate with none hashes as it always did.

mod ignore;
mod links;
pub mod recorded;
pub mod stamps;

pub use recorded::OffIndex;

use std::collections::BTreeSet;

use git2::Oid;
use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use majordomus_records::paths::is_own_state;
use majordomus_records::RepoPath;

use crate::status::{self, content_id, WorkingTree};
use crate::{Reading, Repo, Unread};

/// The globs of a gate's inputs, compiled. `*` and `?` stay within one path
/// component and `**` crosses them; every glob also matches everything
/// beneath what it names, so `docs` means the directory and its files.
#[derive(Debug, Clone)]
pub struct Matcher {
    set: GlobSet,
    /// Each glob's literal start (up to its first wildcard), for
    /// [`Matcher::may_match_beneath`].
    prefixes: Vec<String>,
    /// A glob is `**`, which matches every path (the starter policy's
    /// inputs): asked of the set for each of thousands of paths, at every
    /// check, for the same answer.
    every: bool,
}

impl Matcher {
    pub fn new(globs: &[String]) -> Result<Self, globset::Error> {
        let (builder, prefixes) = Self::parsed(globs)?;
        let every = globs.iter().any(|g| g.trim_end_matches('/') == "**");
        // Where one glob matches every path the set is never asked, and
        // compiling it (a regular expression per glob) was a tenth of a
        // check's gate reading at a thousand files. Every glob is still
        // parsed, so a malformed one is refused all the same.
        let set = if every { GlobSet::empty() } else { builder.build()? };
        Ok(Self { set, prefixes, every })
    }

    /// Each glob parsed, and as itself and everything beneath it, into a
    /// set not yet compiled; with each glob's literal start.
    fn parsed(globs: &[String]) -> Result<(GlobSetBuilder, Vec<String>), globset::Error> {
        let mut builder = GlobSetBuilder::new();
        let mut prefixes = Vec::new();
        for glob in globs {
            let glob = glob.trim_end_matches('/');
            for pattern in [glob.to_string(), format!("{glob}/**")] {
                builder.add(GlobBuilder::new(&pattern).literal_separator(true).build()?);
            }
            prefixes.push(glob.split(['*', '?', '[', '{']).next().unwrap_or_default().to_string());
        }
        Ok((builder, prefixes))
    }

    /// Whether some glob could match a path beneath the directory `dir`
    /// (`src/vendor` for `src/vendor/*.txt` or `**/*.txt`): a link there
    /// to a directory may hold inputs.
    pub fn may_match_beneath(&self, dir: &str) -> bool {
        let dir = format!("{dir}/");
        self.prefixes.iter().any(|p| p.starts_with(&dir) || dir.starts_with(p.as_str()))
    }

    /// Whether a repository-relative path (with `/` separators, as
    /// [`RepoPath`] shows it) is an input.
    pub fn is_match(&self, path: &str) -> bool {
        if self.every {
            return true;
        }
        if path.starts_with('"') {
            return self.is_match_path(&RepoPath::parse(path));
        }
        self.set.is_match(path)
    }

    /// [`Matcher::is_match`] for a path as bytes.
    pub fn is_match_path(&self, path: &RepoPath) -> bool {
        self.every || self.set.is_match(path.under(std::path::Path::new("")))
    }
}

/// What a gate's inputs hold now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inputs {
    /// The hash of the gate's command and every matching path with its blob id.
    pub hash: String,
    /// How many files matched.
    pub files: usize,
    /// Tracked inputs the working tree does not hold because a sparse
    /// checkout leaves them out (skip-worktree, absent), and submodules
    /// with nothing checked out: a command run here cannot see them,
    /// whatever the index holds for them.
    pub absent: Vec<String>,
    /// The files hashed, by path (submodules aside: their commit is not a
    /// file of this working tree), for [`stamps::Stamps::take`].
    pub paths: Vec<String>,
    /// Where `core.fileMode` is false (git then looks away from the
    /// executable bit): the tracked inputs whose bit on disk differs from
    /// the mode git records, each with its mode on disk and the recorded
    /// one. The command runs them as the disk has them, which the commit
    /// does not hold, so the hash covers the disk's mode.
    pub off_record: Vec<OffRecord>,
    /// The untracked input files as they were hashed (links aside), sorted
    /// by path: [`Inputs::holds_as_hashed`] asks a file rewritten while a
    /// gate ran whether it still holds what the verdict covers.
    pub untracked: Vec<InputFile>,
    /// Read only as a gate runs ([`Reach::as_on_disk`]): the tracked inputs
    /// git reads clean whose content on disk is not the blob it records
    /// (test/cases/522). Each is hashed as it is on disk, which is what the
    /// command runs over, so the verdict is not found again over the
    /// index's content.
    pub off_index: Vec<OffIndex>,
    /// Paths the start commit tracked that the index no longer holds but
    /// the working tree does (ignored now, so neither tracked nor
    /// untracked), among the inputs: the command reads them, the commit
    /// does not hold them (test/cases/523). Hashed as they are on disk.
    pub left: Vec<String>,
}

/// How far [`hash`] reaches beyond the index and the status pass.
#[derive(Debug, Clone, Copy, Default)]
pub struct Reach<'a> {
    /// The paths changed since the start that match the gate's inputs:
    /// those the index no longer holds but the disk does are inputs too
    /// ([`Inputs::left`]), one `lstat` each.
    pub changed: &'a [String],
    /// Read every tracked input the status pass found clean from disk and
    /// compare it with the blob git records ([`Inputs::off_index`]): what
    /// `gate run` does, once, before the command starts. `check` takes the
    /// index's ids, free, and so finds a verdict over content on disk that
    /// is not the index's stale.
    pub as_on_disk: bool,
}

impl Inputs {
    /// Whether the untracked input at `path` holds now, on disk, the content
    /// and mode it was hashed with. A file that is no untracked input, or a
    /// link (whose hash covers what it leads to as well), is never said to.
    pub fn holds_as_hashed(&self, repo: &Repo, path: &str) -> bool {
        let Ok(i) = self.untracked.binary_search_by(|f| f.path.as_str().cmp(path)) else { return false };
        let hashed = &self.untracked[i];
        let rel = RepoPath::parse(path);
        worktree_mode_of(repo, &rel, None) == Some(hashed.mode)
            && content_id(repo, &rel).is_some_and(|id| id == hashed.id)
    }
}

impl Inputs {
    /// Whether every one of `paths` holds now, on disk, what it was hashed
    /// with: an untracked input its content and mode
    /// ([`Inputs::holds_as_hashed`]), a tracked one the blob and mode the
    /// index records, where it was hashed as that blob (not among
    /// [`Inputs::off_index`] or [`Inputs::off_record`]). A command that
    /// writes its own inputs again byte for byte (golden files regenerated
    /// at every run) leaves them so. Read only to say so when their stamps
    /// void a run: a file swapped and put back while the command ran looks
    /// the same, so the verdict is not left standing over them. One index
    /// read and one hash of each path.
    pub fn rewritten_as_hashed(&self, repo: &Repo, paths: &[String]) -> bool {
        let Ok(index) = repo.index_file() else { return false };
        let shown = RepoPath::show;
        paths.iter().all(|path| {
            if self.holds_as_hashed(repo, path) {
                return true;
            }
            let hashed_off =
                self.off_index.iter().any(|o| &o.path == path) || self.off_record.iter().any(|o| &o.path == path);
            let rel = RepoPath::parse(path);
            !hashed_off
                && index.entries.iter().any(|e| {
                    shown(e.path(&index.paths)) == *path
                        && worktree_mode_of(repo, &rel, Some(e.mode)) == Some(e.mode)
                        && content_id(repo, &rel).is_some_and(|id| id == e.id.to_string())
                })
        })
    }
}

/// A tracked input whose executable bit on disk is not the one git records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OffRecord {
    pub path: String,
    /// 0o100755 or 0o100644, as the file system has it.
    pub on_disk: u32,
    /// As the index records it.
    pub recorded: u32,
}

/// Hashes the inputs matching `matcher` as the working tree holds them now.
/// `tree` is a status pass taken just before; `command` is the gate's.
pub fn hash(repo: &Repo, tree: &WorkingTree, matcher: &Matcher, command: &str, reach: Reach<'_>) -> Reading<Inputs> {
    collect(repo, tree, matcher, reach)?.hashed(command)
}

/// The files and context [`hash`] hashes with a gate's command: the same
/// for every gate whose globs and changed paths are the same (a project
/// with a `Cargo.toml` and a `Makefile` has two gates over `**`), so read
/// once for them.
#[derive(Debug, Clone)]
pub struct Collected {
    files: Vec<InputFile>,
    context: Vec<String>,
    absent: Vec<String>,
    paths: Vec<String>,
    off_record: Vec<OffRecord>,
    untracked: Vec<InputFile>,
    off_index: Vec<OffIndex>,
    left: Vec<String>,
}

impl Collected {
    /// The inputs of the gate running `command` over these files.
    pub fn hashed(&self, command: &str) -> Reading<Inputs> {
        Ok(Inputs {
            hash: manifest_hash_under(command, &self.files, &self.context)?,
            files: self.files.len(),
            absent: self.absent.clone(),
            paths: self.paths.clone(),
            off_record: self.off_record.clone(),
            untracked: self.untracked.clone(),
            off_index: self.off_index.clone(),
            left: self.left.clone(),
        })
    }
}

/// What [`hash`] reads before the command is added: see there.
pub fn collect(repo: &Repo, tree: &WorkingTree, matcher: &Matcher, reach: Reach<'_>) -> Reading<Collected> {
    // The index as `check` already parsed it (no second parse, no checksum
    // pass); through libgit2 only where that reader does not read it.
    // Paths as RepoPath shows them: text, and lossless.
    let shown = RepoPath::show;
    let entries: Vec<(String, git2::Oid, u32, bool)> = match repo.index_file() {
        Ok(index) => {
            index.entries.iter().map(|e| (shown(e.path(&index.paths)), e.id, e.mode, e.skip_worktree)).collect()
        }
        Err(_) => {
            let index = repo.git.index().map_err(|e| Unread::git("the index", &e))?;
            index.iter().map(|e| (shown(&e.path), e.id, e.mode, e.flags_extended & SKIP_WORKTREE != 0)).collect()
        }
    };
    let filemode = repo.git.config().and_then(|c| c.get_bool("core.filemode")).unwrap_or(true);
    // Under `core.fileMode = false` the executable bit on disk is still
    // what a command runs with, where the file system keeps one.
    let disk_bits = !filemode && keeps_executable_bits(repo);
    let mut off_record: Vec<OffRecord> = Vec::new();
    // A path git looks away from (an assume-unchanged or skip-worktree bit)
    // whose file a look found changed or gone is hashed as it is on disk:
    // the bit says nothing of what the gate would run over.
    let hidden = tree.hidden.iter().filter(|h| h.changed || h.deleted).map(|h| h.path.to_string());
    let changed: BTreeSet<String> = tree
        .dirty
        .iter()
        .map(|d| d.path.to_string())
        .chain(tree.conflicted.iter().map(ToString::to_string))
        .chain(hidden)
        .collect();
    let mut files: Vec<InputFile> = Vec::new();
    let mut seen: BTreeSet<String> = BTreeSet::new();
    // Links among the inputs, or with a glob reaching beneath them.
    let mut links: BTreeSet<String> = BTreeSet::new();
    let mut untracked: Vec<InputFile> = Vec::new();
    // Inputs a sparse checkout leaves out of the working tree, and
    // submodules not checked out: hashed as the index holds them, and
    // named, each with a line of its own in the hash (a run made without
    // the file is not a run made with it, though the blob is the same:
    // test/cases/300, 508).
    let mut absent: Vec<String> = Vec::new();
    let mut off_index: Vec<OffIndex> = Vec::new();
    for (path, id, mode, skip) in &entries {
        if is_own_state(path) {
            continue;
        }
        // A submodule stands for the files beneath its path, which the
        // inputs reach (`lib/**`, `**`): a verdict covers what it holds
        // (test/cases/287, 450).
        if *mode == MODE_GITLINK && (matcher.is_match(path) || matcher.may_match_beneath(path)) {
            if let Some((id, not_checked_out)) = submodule_id(repo, path, *id, changed.contains(path.as_str())) {
                if seen.insert(path.clone()) {
                    if not_checked_out {
                        absent.push(path.clone());
                    }
                    files.push(InputFile { path: path.clone(), mode: *mode, id, through: None });
                }
            }
            continue;
        }
        if !matcher.is_match(path) {
            if *mode == MODE_LINK && matcher.may_match_beneath(path) {
                links.insert(path.clone());
            }
            continue;
        }
        if !seen.insert(path.clone()) {
            continue;
        }
        let (path, id, mode) = (path.clone(), *id, *mode);
        if *skip && !changed.contains(path.as_str()) && !on_disk(repo, &path) {
            absent.push(path.clone());
        }
        let found = if changed.contains(path.as_str()) {
            let kept = if filemode || disk_bits { None } else { Some(mode) };
            content_id(repo, &RepoPath::parse(&path)).zip(worktree_mode(repo, &path, kept))
        } else if disk_bits && is_regular(mode) {
            // The status pass found the content unchanged, and looked away
            // from the bit: the disk's is asked of here (test/cases/471).
            Some((crate::hex(id), worktree_mode(repo, &path, None).filter(|m| is_regular(*m)).unwrap_or(mode)))
        } else {
            Some((crate::hex(id), mode))
        };
        // Read clean, but what the disk holds is what the command runs
        // over: where that is not the recorded blob, it is hashed.
        let found = match found {
            Some((_, m)) if reach.as_on_disk && !*skip && !changed.contains(path.as_str()) && m != MODE_GITLINK => {
                match recorded::against(repo, &RepoPath::parse(&path), id) {
                    recorded::OnDisk::Differs { id: read, filter } => {
                        off_index.push(OffIndex { path: path.clone(), filter });
                        Some((read, m))
                    }
                    _ => found,
                }
            }
            found => found,
        };
        if let Some((_, on_disk)) = &found {
            if disk_bits && is_regular(mode) && is_regular(*on_disk) && *on_disk != mode {
                off_record.push(OffRecord { path: path.clone(), on_disk: *on_disk, recorded: mode });
            }
        }
        // A tracked file deleted from the working tree is not among the inputs.
        if let Some((id, mode)) = found {
            if mode == MODE_LINK {
                links.insert(path.clone());
            }
            files.push(InputFile { path, mode, id, through: None });
        }
    }
    for path in &tree.untracked {
        let (bytes, path) = (path, &path.to_string());
        let Some(mode) = worktree_mode_of(repo, bytes, None) else { continue };
        if !matcher.is_match(path) {
            if mode == MODE_LINK && matcher.may_match_beneath(path) {
                links.insert(path.clone());
            }
            continue;
        }
        if seen.insert(path.clone()) {
            if let Some(id) = content_id(repo, bytes) {
                if mode == MODE_LINK {
                    links.insert(path.clone());
                } else {
                    untracked.push(InputFile { path: path.clone(), mode, id: id.clone(), through: None });
                }
                files.push(InputFile { path: path.clone(), mode, id, through: None });
            }
        }
    }
    // Tracked at the start, untracked since, still on disk: read by the
    // command, held by no commit of the task's.
    let mut left: Vec<String> = Vec::new();
    for path in reach.changed {
        if is_own_state(path) || !matcher.is_match(path) || seen.contains(path.as_str()) {
            continue;
        }
        let rel = RepoPath::parse(path);
        let Some(mode) = worktree_mode_of(repo, &rel, None).filter(|m| is_regular(*m) || *m == MODE_LINK) else {
            continue;
        };
        if let Some(id) = content_id(repo, &rel) {
            seen.insert(path.clone());
            left.push(path.clone());
            files.push(InputFile { path: path.clone(), mode, id, through: None });
        }
    }
    if !links.is_empty() {
        let known: links::Known<'_> = entries
            .iter()
            .map(|(p, id, mode, _)| (p.as_str(), (!changed.contains(p.as_str())).then_some((*id, *mode))))
            .collect();
        links::follow(repo, matcher, &links.into_iter().collect::<Vec<_>>(), &known, &mut files)?;
    }
    files.sort();
    files.dedup();
    let mut context = ignore::context(repo, tree, matcher)?;
    context.extend(absent.iter().map(|p| format!("absent from the working tree: {p}")));
    let paths = files.iter().filter(|f| f.mode != MODE_GITLINK).map(|f| f.path.clone()).collect();
    untracked.sort();
    Ok(Collected { files, context, absent, paths, off_record, untracked, off_index, left })
}

/// A regular file's mode, executable or not.
fn is_regular(mode: u32) -> bool {
    mode == MODE_FILE || mode == MODE_EXECUTABLE
}

/// Whether the file system here keeps an executable bit of its own: git
/// writes its index without one, so an index file that shows one is on a
/// file system that shows every file so (a vfat or DrvFs mount), where the
/// bit on disk says nothing and git's recorded mode is read as before.
fn keeps_executable_bits(repo: &Repo) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(repo.git.path().join("index")).map_or(true, |m| m.permissions().mode() & 0o111 == 0)
}

/// What a submodule among the inputs contributes to the hash: the commit
/// the index records while the one checked out there is that commit with
/// nothing of its own changed (the line a verdict always had), else the
/// id of what it holds ([`status::submodule`]: its HEAD's commit and each
/// path its own status lists, with its content, whatever its `ignore`
/// setting hides from the superproject's status), so that a verdict
/// recorded over one content inside it is not found again over another.
/// Where no repository is checked out there: the index's commit, with
/// `true` (absent from the working tree, a line of its own in the hash
/// like a file a sparse checkout leaves out), since the command saw an
/// empty directory, not that commit's files: a run made with the
/// submodule deinitialised does not vouch for a checkout of its commit
/// (test/cases/508). Where the superproject's status found it changed
/// (gone, or a file in its place): that path's content as any other
/// input's.
fn submodule_id(repo: &Repo, path: &str, recorded: Oid, changed: bool) -> Option<(String, bool)> {
    let rel = RepoPath::parse(path);
    match status::submodule(repo, &rel) {
        Some(inside) if inside.head == Some(recorded) && !inside.changed => Some((recorded.to_string(), false)),
        Some(inside) => Some((inside.id, false)),
        None if changed => content_id(repo, &rel).map(|id| (id, false)),
        None => Some((recorded.to_string(), true)),
    }
}

/// libgit2's extended flag for the skip-worktree bit (`GIT_INDEX_ENTRY_SKIP_WORKTREE`).
const SKIP_WORKTREE: u16 = 1 << 14;

/// Whether the working tree holds something at `rel`, reached as git
/// reaches it (never through a link among its leading directories).
fn on_disk(repo: &Repo, rel: &str) -> bool {
    crate::file::in_tree(repo.root(), &RepoPath::parse(rel)).is_some_and(|full| std::fs::symlink_metadata(full).is_ok())
}

/// One input file as the hash covers it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct InputFile {
    /// Repository-relative, `/`-separated: the sort key.
    pub path: String,
    /// The mode git gives it: 0o100644, 0o100755 or 0o120000.
    pub mode: u32,
    /// The blob id of its content.
    pub id: String,
    /// For a link to a file inside the working tree: that file's mode and
    /// blob id.
    pub through: Option<(u32, String)>,
}

pub(crate) const MODE_FILE: u32 = 0o100644;
pub(crate) const MODE_EXECUTABLE: u32 = 0o100755;
const MODE_LINK: u32 = 0o120000;
/// A gitlink's mode: a submodule's recorded commit.
const MODE_GITLINK: u32 = 0o160000;

/// The mode git would stage for a working-tree path, normalised as git
/// does: a symlink is 120000, a file 100755 when its owner may execute it,
/// else 100644. `kept` is the index's mode of a tracked file where
/// `core.fileMode` is false: git then keeps the recorded executable bit,
/// whatever the file system says.
fn worktree_mode(repo: &Repo, rel: &str, kept: Option<u32>) -> Option<u32> {
    worktree_mode_of(repo, &RepoPath::parse(rel), kept)
}

/// [`worktree_mode`] for a path as bytes.
pub(crate) fn worktree_mode_of(repo: &Repo, rel: &RepoPath, kept: Option<u32>) -> Option<u32> {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::symlink_metadata(crate::file::in_tree(repo.root(), rel)?).ok()?;
    if meta.file_type().is_symlink() {
        return Some(MODE_LINK);
    }
    if let Some(mode) = kept.filter(|m| *m == MODE_FILE || *m == MODE_EXECUTABLE) {
        return Some(mode);
    }
    Some(if meta.permissions().mode() & 0o100 != 0 { MODE_EXECUTABLE } else { MODE_FILE })
}

/// The hash of a command and its input files, sorted by path.
pub fn manifest_hash(command: &str, files: &[InputFile]) -> Reading<String> {
    manifest_hash_under(command, files, &[])
}

/// The manifest [`manifest_hash_under`] hashes, its lines written by hand
/// rather than through the formatter (`{:06o} {} {}` per file was 3,000
/// instructions a line: a gate over git's own 4,800 files spent 16 M on
/// it), byte for byte what `writeln!` wrote (a unit test holds them to
/// it), so every hash a ledger holds stays current.
fn manifest(command: &str, files: &[InputFile], context: &[String]) -> String {
    /// `mode` in octal, at least six digits, as `{:06o}` writes it.
    fn octal(out: &mut String, mode: u32) {
        let mut digits = [b'0'; 11];
        let (mut n, mut at) = (mode, digits.len());
        while n > 0 {
            at -= 1;
            digits[at] = b'0' + (n & 7) as u8;
            n >>= 3;
        }
        let from = at.min(digits.len() - 6);
        out.extend(digits[from..].iter().map(|d| char::from(*d)));
    }
    let lines: usize = files.iter().map(|f| f.path.len() + f.id.len() + 9).sum();
    let mut out = String::with_capacity(lines + 64);
    out.push_str("majordomus gate inputs v2\nrun ");
    out.push_str(command);
    out.push('\n');
    for f in files {
        octal(&mut out, f.mode);
        out.push(' ');
        out.push_str(&f.id);
        out.push(' ');
        out.push_str(&f.path);
        out.push('\n');
        if let Some((mode, id)) = &f.through {
            out.push_str("  -> ");
            octal(&mut out, *mode);
            out.push(' ');
            out.push_str(id);
            out.push('\n');
        }
    }
    for line in context {
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The hash of a command and its input files, sorted by path, taken under
/// the context `context` names: the ignore rules (see `ignore.rs`) and the
/// inputs absent from the working tree.
pub fn manifest_hash_under(command: &str, files: &[InputFile], context: &[String]) -> Reading<String> {
    // v2: each line carries the mode (v1 had none: a verdict recorded under
    // v1 is stale once, never current over a mode it did not see). A link's
    // target, the ignore rules and absent inputs add lines of their own,
    // only where there are some: a manifest without them is the v2 it
    // always was.
    let manifest = manifest(command, files, context);
    // The hash of the manifest as git would name it: no other hash function needed.
    Ok(crate::hex(crate::blob_oid(manifest.as_bytes())))
}

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use super::*;
    use majordomus_testkit::TestRepo;

    #[test]
    fn every_path_matches_a_glob_of_every_file_as_the_set_says() {
        let globs = ["src".to_string(), "**".to_string()];
        let every = Matcher::new(&globs).expect("globs");
        assert!(every.every);
        // The set it does not compile, compiled here, says the same.
        let set = Matcher::parsed(&globs).expect("globs").0.build().expect("set");
        let paths = ["a", ".hidden", "a/b/c.rs", "a/.git/x", "\"q\\tx\"", "sp ace/é", "**", "a/**/b"];
        for path in paths {
            assert!(set.is_match(path) && every.is_match(path), "{path}");
            let bytes = RepoPath::from_bytes(b"d/\xff\xfe".to_vec());
            assert!(set.is_match(bytes.under(std::path::Path::new(""))) && every.is_match_path(&bytes));
        }
        assert!(!Matcher::new(&["src/**".to_string()]).expect("globs").every);
        // A malformed glob beside `**` is refused as it was.
        assert!(Matcher::new(&["**".to_string(), "src/[a-".to_string()]).is_err());
    }

    #[test]
    fn the_manifest_is_the_one_the_formatter_wrote() {
        let file = |path: &str, mode: u32, through: Option<(u32, &str)>| InputFile {
            path: path.into(),
            mode,
            id: "0123456789abcdef0123456789abcdef01234567".into(),
            through: through.map(|(m, id)| (m, id.to_string())),
        };
        let files = [
            file("\"quoted\\npath\"", MODE_FILE, None),
            file("bin/run", MODE_EXECUTABLE, None),
            file("lib", MODE_GITLINK, None),
            file("link", MODE_LINK, Some((MODE_FILE, "ffff"))),
            file("odd", 0, None),
            file("wide", u32::MAX, Some((7, "00"))),
        ];
        let context = ["ignore rules: x".to_string(), "absent from the working tree: y".to_string()];
        let mut written = "majordomus gate inputs v2\nrun cargo test --all\n".to_string();
        for f in &files {
            writeln!(written, "{:06o} {} {}", f.mode, f.id, f.path).expect("write");
            if let Some((mode, id)) = &f.through {
                writeln!(written, "  -> {mode:06o} {id}").expect("write");
            }
        }
        for line in &context {
            writeln!(written, "{line}").expect("write");
        }
        assert_eq!(manifest("cargo test --all", &files, &context), written);
        assert_eq!(manifest("", &[], &[]), "majordomus gate inputs v2\nrun \n");
    }

    fn inputs(t: &TestRepo, globs: &[&str]) -> Inputs {
        let repo = crate::open(t.path()).expect("open");
        let tree = crate::status::read(&repo).expect("status");
        let globs: Vec<String> = globs.iter().map(|g| g.to_string()).collect();
        hash(&repo, &tree, &Matcher::new(&globs).expect("globs"), "cargo test", Reach::default()).expect("hash")
    }

    /// [`inputs`] as `gate run` reads them, with the paths changed since a start.
    fn as_run(t: &TestRepo, globs: &[&str], changed: &[&str]) -> Inputs {
        let repo = crate::open(t.path()).expect("open");
        let tree = crate::status::read(&repo).expect("status");
        let globs: Vec<String> = globs.iter().map(|g| g.to_string()).collect();
        let changed: Vec<String> = changed.iter().map(|g| g.to_string()).collect();
        let reach = Reach { changed: &changed, as_on_disk: true };
        hash(&repo, &tree, &Matcher::new(&globs).expect("globs"), "cargo test", reach).expect("hash")
    }

    /// A clean filter given to one `git add` stores other content than the
    /// file holds, and git reads the file clean: as a gate runs, it is
    /// hashed as it is on disk and named; `check`'s hash is the index's,
    /// so the two differ (test/cases/522). A file git converts by its own
    /// `eol` attribute holds the same content as its blob.
    #[test]
    fn a_file_whose_blob_a_one_command_filter_wrote_is_hashed_as_on_disk_as_a_gate_runs() {
        let t = repo();
        let honest = as_run(&t, &["src/**"], &[]);
        assert!(honest.off_index.is_empty(), "{:?}", honest.off_index);
        assert_eq!(honest.hash, inputs(&t, &["src/**"]).hash, "nothing off: the same hash either way");
        t.write("src/lib.rs", "pub fn fixed() {}\n");
        // Old enough that no reader takes it for racily clean.
        let touched = std::process::Command::new("touch")
            .args(["-d", "-30 seconds"])
            .arg(t.path().join("src/lib.rs"))
            .status()
            .expect("touch");
        assert!(touched.success());
        let outside = tempfile::tempdir().expect("tempdir");
        let attrs = outside.path().join("attrs");
        std::fs::write(&attrs, "src/lib.rs filter=brk\n").expect("attrs");
        let attrs_file = format!("core.attributesFile={}", attrs.display());
        t.git(&["-c", &attrs_file, "-c", "filter.brk.clean=sed s/fixed/broken/", "add", "src/lib.rs"]);
        t.git(&["commit", "-q", "-m", "through a filter"]);
        assert!(t.git(&["status", "--porcelain"]).trim().is_empty(), "setup: git reads it clean");
        let run = as_run(&t, &["src/**"], &[]);
        assert_eq!(run.off_index, [OffIndex { path: "src/lib.rs".into(), filter: None }]);
        assert_ne!(run.hash, inputs(&t, &["src/**"]).hash, "a run over the disk is not the commit's");
        t.git(&["add", "--renormalize", "src/lib.rs"]);
        t.git(&["commit", "-q", "-m", "what is on disk"]);
        let renormalized = as_run(&t, &["src/**"], &[]);
        assert!(renormalized.off_index.is_empty());
        assert_eq!(renormalized.hash, run.hash, "committed, the run's content is the commit's");
        assert_eq!(renormalized.hash, inputs(&t, &["src/**"]).hash);
    }

    #[test]
    fn a_file_git_converts_by_its_eol_attribute_is_its_blob() {
        let t = repo();
        t.write(".gitattributes", "*.txt text eol=crlf\n");
        t.write("src/data.txt", "a\nb\n");
        t.commit_all("crlf");
        t.remove("src/data.txt");
        t.git(&["checkout", "--", "src/data.txt"]);
        let on_disk = std::fs::read(t.path().join("src/data.txt")).expect("read");
        assert_eq!(on_disk, b"a\r\nb\r\n", "setup: checked out with CRLF");
        let run = as_run(&t, &["src/**"], &[]);
        assert!(run.off_index.is_empty(), "{:?}", run.off_index);
        assert_eq!(run.hash, inputs(&t, &["src/**"]).hash);
    }

    /// A path tracked at the start, untracked since and ignored, still on
    /// disk: an input, named (test/cases/523); gone from disk, nothing.
    #[test]
    fn a_path_untracked_since_the_start_and_ignored_on_disk_is_an_input_named_left() {
        let t = repo();
        t.write(".gitignore", "src/table.txt\n");
        t.write("src/table.txt", "ok\n");
        t.git(&["add", "-f", "src/table.txt"]);
        t.commit_all("a table");
        let tracked = inputs(&t, &["src/**"]);
        t.git(&["rm", "-q", "--cached", "src/table.txt"]);
        t.git(&["commit", "-q", "-m", "untrack"]);
        let left = as_run(&t, &["src/**"], &["src/table.txt"]);
        assert_eq!(left.left, ["src/table.txt"]);
        assert_eq!(left.files, tracked.files);
        assert_eq!(inputs(&t, &["src/**"]).files, tracked.files - 1, "unreached, an ignored file is no input");
        t.remove("src/table.txt");
        let gone = as_run(&t, &["src/**"], &["src/table.txt"]);
        assert!(gone.left.is_empty());
        assert_ne!(gone.hash, left.hash, "a run without it is not a run with it");
    }

    fn repo() -> TestRepo {
        let t = TestRepo::with_commit();
        t.write("src/lib.rs", "pub fn a() {}\n");
        t.write("src/deep/mod.rs", "// deep\n");
        t.write("docs/guide.md", "# guide\n");
        t.commit_all("files");
        t
    }

    #[test]
    fn globs_keep_star_within_a_component_and_match_beneath_a_directory() {
        let m = Matcher::new(&["src/*.rs".to_string(), "docs".to_string()]).expect("globs");
        assert!(m.is_match("src/lib.rs"));
        assert!(!m.is_match("src/deep/mod.rs"));
        assert!(m.is_match("docs/guide.md"));
        assert!(!m.is_match("docsx/guide.md"));
        let all = Matcher::new(&["src/**".to_string()]).expect("globs");
        assert!(all.is_match("src/deep/mod.rs"));
    }

    #[test]
    fn a_change_to_an_input_changes_the_hash_and_a_change_elsewhere_does_not() {
        let t = repo();
        let before = inputs(&t, &["src/**"]);
        assert_eq!(before.files, 2);
        t.write("docs/guide.md", "# guide, edited\n");
        t.write("notes.txt", "untracked, not an input\n");
        assert_eq!(inputs(&t, &["src/**"]), before);
        t.write("src/deep/mod.rs", "// deep, edited\n");
        assert_ne!(inputs(&t, &["src/**"]).hash, before.hash);
    }

    #[test]
    fn an_untracked_input_holds_as_hashed_only_with_its_content_and_mode_and_a_tracked_one_never() {
        let t = repo();
        t.write("cache/nodeids", "[\"t::a\"]\n");
        let repo = crate::open(t.path()).expect("open");
        let before = inputs(&t, &["**"]);
        // Written again as it was: its stamp moves, its content does not.
        t.write("cache/nodeids", "[\"t::a\"]\n");
        assert!(before.holds_as_hashed(&repo, "cache/nodeids"));
        // A tracked input is never read again, whatever it holds.
        assert!(!before.holds_as_hashed(&repo, "src/lib.rs"));
        t.write("cache/nodeids", "[]\n");
        assert!(!before.holds_as_hashed(&repo, "cache/nodeids"));
        t.write("cache/nodeids", "[\"t::a\"]\n");
        use std::os::unix::fs::PermissionsExt;
        let file = t.path().join("cache/nodeids");
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        assert!(!before.holds_as_hashed(&repo, "cache/nodeids"));
    }

    /// What `gate run` says of a run its inputs' stamps voided: whether
    /// each moved file holds again what it was hashed with, a tracked one
    /// its index blob (test/cases/546).
    #[test]
    fn tracked_and_untracked_inputs_written_again_as_they_were_are_told_from_changed_ones() {
        let t = repo();
        t.write("cache/nodeids", "[\"t::a\"]\n");
        let repo = crate::open(t.path()).expect("open");
        let before = as_run(&t, &["**"], &[]);
        let moved = vec!["cache/nodeids".to_string(), "src/lib.rs".to_string()];
        t.write("src/lib.rs", "pub fn a() {}\n");
        t.write("cache/nodeids", "[\"t::a\"]\n");
        assert!(before.rewritten_as_hashed(&repo, &moved));
        t.write("src/lib.rs", "pub fn b() {}\n");
        assert!(!before.rewritten_as_hashed(&repo, &moved));
        assert!(before.rewritten_as_hashed(&repo, &moved[..1]));
    }

    #[test]
    fn reverting_a_change_restores_the_hash() {
        let t = repo();
        let before = inputs(&t, &["src/**"]);
        t.write("src/lib.rs", "pub fn b() {}\n");
        assert_ne!(inputs(&t, &["src/**"]).hash, before.hash);
        t.write("src/lib.rs", "pub fn a() {}\n");
        assert_eq!(inputs(&t, &["src/**"]), before);
    }

    #[test]
    fn committing_a_change_does_not_change_the_hash_of_the_same_content() {
        let t = repo();
        t.write("src/lib.rs", "pub fn b() {}\n");
        let dirty = inputs(&t, &["src/**"]);
        t.commit_all("b");
        assert_eq!(inputs(&t, &["src/**"]), dirty);
    }

    #[test]
    fn untracked_inputs_count_deleted_ones_do_not_and_ignored_ones_never() {
        let t = repo();
        t.write(".gitignore", "src/*.log\n");
        t.commit_all("ignore logs");
        let before = inputs(&t, &["src/**"]);
        t.write("src/build.log", "ignored\n");
        assert_eq!(inputs(&t, &["src/**"]), before, "an ignored file is not an input");
        t.write("src/new.rs", "// new\n");
        let with_new = inputs(&t, &["src/**"]);
        assert_eq!(with_new.files, 3);
        t.remove("src/new.rs");
        t.remove("src/lib.rs");
        let without = inputs(&t, &["src/**"]);
        assert_eq!(without.files, 1);
        assert_ne!(without.hash, before.hash);
    }

    #[test]
    fn the_hash_covers_the_command_and_equals_the_manifest_of_git_blob_ids() {
        let t = repo();
        let blob = |p: &str| t.git(&["hash-object", p]).trim().to_string();
        let file = |p: &str| InputFile { path: p.into(), mode: 0o100644, id: blob(p), through: None };
        let expected = manifest_hash("cargo test", &[file("src/deep/mod.rs"), file("src/lib.rs")]).expect("hash");
        assert_eq!(inputs(&t, &["src/**"]).hash, expected);
        assert_ne!(
            manifest_hash("cargo test --release", &[]).expect("hash"),
            manifest_hash("cargo test", &[]).expect("hash")
        );
    }

    fn chmod(t: &TestRepo, rel: &str, mode: u32) {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(t.path().join(rel), std::fs::Permissions::from_mode(mode)).expect("chmod");
    }

    #[test]
    fn a_committed_chmod_of_an_input_changes_the_hash_though_the_content_is_the_same() {
        let t = repo();
        t.write("src/check.sh", "#!/bin/sh\nexit 0\n");
        chmod(&t, "src/check.sh", 0o755);
        t.commit_all("an executable check");
        let executable = inputs(&t, &["src/**"]);
        chmod(&t, "src/check.sh", 0o644);
        let unstaged = inputs(&t, &["src/**"]);
        assert_ne!(unstaged.hash, executable.hash, "a chmod not yet committed");
        t.commit_all("chmod -x");
        let committed = inputs(&t, &["src/**"]);
        assert_ne!(committed.hash, executable.hash, "a committed chmod -x");
        assert_eq!(committed, unstaged, "the mode is git's, committed or not");
        chmod(&t, "src/check.sh", 0o755);
        t.commit_all("chmod +x again");
        assert_eq!(inputs(&t, &["src/**"]), executable);
    }

    #[test]
    fn under_filemode_false_the_disks_executable_bit_is_hashed_and_named_where_git_records_another() {
        let t = repo();
        t.git(&["config", "core.fileMode", "false"]);
        t.write("src/check.sh", "#!/bin/sh\nexit 0\n");
        t.commit_all("a check");
        let agreeing = inputs(&t, &["src/**"]);
        assert!(agreeing.off_record.is_empty(), "{:?}", agreeing.off_record);
        chmod(&t, "src/check.sh", 0o755);
        t.commit_all("chmod +x: git sees nothing");
        let off = inputs(&t, &["src/**"]);
        assert_eq!(
            off.off_record,
            [OffRecord { path: "src/check.sh".into(), on_disk: MODE_EXECUTABLE, recorded: MODE_FILE }]
        );
        assert_ne!(off.hash, agreeing.hash, "the run over the disk's bit is not the committed file's");
        t.git(&["update-index", "--chmod=+x", "src/check.sh"]);
        t.commit_all("recorded");
        let recorded = inputs(&t, &["src/**"]);
        assert!(recorded.off_record.is_empty());
        assert_eq!(recorded.hash, off.hash, "the bit now recorded is the one the run had");
    }

    #[test]
    fn an_untracked_input_is_hashed_with_its_mode_and_a_symlink_as_a_link() {
        let t = repo();
        let before = inputs(&t, &["src/**"]);
        t.write("src/new.sh", "#!/bin/sh\n");
        let plain = inputs(&t, &["src/**"]);
        assert_ne!(plain.hash, before.hash);
        chmod(&t, "src/new.sh", 0o755);
        assert_ne!(inputs(&t, &["src/**"]).hash, plain.hash);
        std::os::unix::fs::symlink("lib.rs", t.path().join("src/link")).expect("symlink");
        let with_link = inputs(&t, &["src/**"]);
        assert_eq!(with_link.files, 4);
        t.commit_all("all");
        let committed = inputs(&t, &["src/**"]);
        assert_eq!(committed.hash, with_link.hash, "committed, the index's modes are the working tree's");
        assert!(committed.untracked.is_empty());
    }

    #[test]
    fn the_tools_own_state_is_never_an_input() {
        let t = repo();
        let before = inputs(&t, &["**"]);
        t.write(".ai/local/state/ledger.jsonl", "{}\n");
        assert_eq!(inputs(&t, &["**"]), before);
    }

    #[test]
    fn a_link_among_the_inputs_is_hashed_through_to_its_target_inside_the_tree_only() {
        let t = repo();
        t.write("fixtures/data.txt", "good\n");
        std::os::unix::fs::symlink("../fixtures/data.txt", t.path().join("src/data.txt")).expect("symlink");
        let outside = tempfile::tempdir().expect("tempdir");
        std::fs::write(outside.path().join("far.txt"), "far\n").expect("write");
        std::os::unix::fs::symlink(outside.path().join("far.txt"), t.path().join("src/far.txt")).expect("symlink");
        t.commit_all("links");
        let before = inputs(&t, &["src/**"]);
        assert_eq!(before.files, 4);
        t.write("fixtures/data.txt", "bad\n");
        let edited = inputs(&t, &["src/**"]);
        assert_ne!(edited.hash, before.hash, "the target inside the tree is what the link stands for");
        t.commit_all("bad");
        assert_eq!(inputs(&t, &["src/**"]), edited, "committed or not, the same content");
        t.write("fixtures/data.txt", "good\n");
        assert_eq!(inputs(&t, &["src/**"]), before);
        std::fs::write(outside.path().join("far.txt"), "nearer\n").expect("write");
        assert_eq!(inputs(&t, &["src/**"]), before, "outside the tree, the link's text only");
    }

    #[test]
    fn files_beneath_a_linked_directory_are_inputs_under_the_links_path() {
        let t = repo();
        t.write("fixtures/data.txt", "good\n");
        t.write("fixtures/notes.md", "notes\n");
        std::os::unix::fs::symlink("../fixtures", t.path().join("src/vendor")).expect("symlink");
        t.commit_all("a linked directory");
        let all = inputs(&t, &["src/**"]);
        assert_eq!(all.files, 5, "src/lib.rs, src/deep/mod.rs, the link, and the two files beneath it");
        let txt = inputs(&t, &["src/vendor/*.txt"]);
        assert_eq!(txt.files, 1, "a glob beneath the link reaches through it");
        t.write("fixtures/notes.md", "more notes\n");
        assert_eq!(inputs(&t, &["src/vendor/*.txt"]), txt, "a file beneath it the glob does not match");
        assert_ne!(inputs(&t, &["src/**"]).hash, all.hash);
        t.write("fixtures/data.txt", "bad\n");
        assert_ne!(inputs(&t, &["src/vendor/*.txt"]).hash, txt.hash);
        std::os::unix::fs::symlink(".", t.path().join("fixtures/again")).expect("a loop");
        assert_eq!(inputs(&t, &["src/vendor/*.txt"]).files, 1, "a loop is read once");
    }

    #[test]
    fn an_ignore_rule_the_repository_does_not_hold_is_part_of_the_hash() {
        let t = repo();
        let before = inputs(&t, &["src/**"]);
        let exclude = t.path().join(".git/info/exclude");
        let mut rules = std::fs::read_to_string(&exclude).unwrap_or_default();
        rules.push_str("/.ai/local/\n# a comment\n");
        std::fs::write(&exclude, &rules).expect("write");
        assert_eq!(inputs(&t, &["src/**"]), before, "majordomus's own rule and comments are no rules");
        rules.push_str("src/extra.rs\n");
        std::fs::write(&exclude, &rules).expect("write");
        assert_ne!(inputs(&t, &["src/**"]).hash, before.hash, "a rule in info/exclude");
        std::fs::write(&exclude, "").expect("write");
        assert_eq!(inputs(&t, &["src/**"]), before);
        t.write("docs/.gitignore", "*.tmp\n");
        let untracked = inputs(&t, &["src/**"]);
        assert_ne!(untracked.hash, before.hash, "an untracked .gitignore outside the inputs");
        t.commit_all("docs ignore");
        assert_eq!(inputs(&t, &["src/**"]), before, "committed, the repository holds it");
        t.write("docs/.gitignore", "*.tmp\nsrc\n");
        assert_ne!(inputs(&t, &["src/**"]).hash, before.hash, "a committed .gitignore changed");
    }

    #[test]
    fn an_input_edited_behind_an_assume_unchanged_or_skip_worktree_bit_is_hashed_as_it_is_on_disk() {
        for bit in ["--assume-unchanged", "--skip-worktree"] {
            let t = repo();
            let before = inputs(&t, &["src/**"]);
            t.git(&["update-index", bit, "src/lib.rs"]);
            assert_eq!(inputs(&t, &["src/**"]), before, "{bit}: the bit alone changes nothing");
            t.write("src/lib.rs", "pub fn broken() {}\n");
            assert_ne!(inputs(&t, &["src/**"]).hash, before.hash, "{bit}: the edit is seen");
            t.write("src/lib.rs", "pub fn a() {}\n");
            assert_eq!(inputs(&t, &["src/**"]), before, "{bit}: reverted");
        }
    }

    #[test]
    fn an_input_a_sparse_checkout_leaves_out_is_named_absent_and_a_run_without_it_is_not_a_run_with_it() {
        let t = repo();
        let whole = inputs(&t, &["src/**"]);
        assert!(whole.absent.is_empty());
        t.git(&["sparse-checkout", "set", "--no-cone", "/src/lib.rs", "/docs/"]);
        assert!(!t.path().join("src/deep/mod.rs").exists(), "setup: the checkout left src/deep out");
        let sparse = inputs(&t, &["src/**"]);
        assert_eq!(sparse.absent, ["src/deep/mod.rs"]);
        assert_eq!(sparse.files, 2, "still an input, as the index holds it");
        assert_ne!(sparse.hash, whole.hash, "a run without the file is not a run with it");
        t.git(&["sparse-checkout", "disable"]);
        assert_eq!(inputs(&t, &["src/**"]), whole);
    }

    /// A submodule among the inputs: clean at its recorded commit, the
    /// line it always had; a file, a staged change, an edit inside (under
    /// `ignore = dirty` too) or a commit there, another hash each; the
    /// edit put back, the same hash again.
    #[test]
    fn a_submodule_among_the_inputs_is_hashed_by_what_it_holds() {
        let t = repo();
        let _bare = t.with_submodule();
        let lib = t.path().join("lib");
        let recorded = Oid::from_str(t.git(&["rev-parse", "HEAD:lib"]).trim()).expect("id");
        let repo = crate::open(t.path()).expect("open");
        let always = Some((recorded.to_string(), false));
        assert_eq!(submodule_id(&repo, "lib", recorded, false), always, "the line it always had");
        let clean = inputs(&t, &["**"]).hash;
        t.write("lib/fix.txt", "fixed\n");
        let untracked = inputs(&t, &["**"]).hash;
        t.git_in(&lib, &["add", "fix.txt"]);
        let staged = inputs(&t, &["**"]).hash;
        t.write("lib/fix.txt", "broken\n");
        let edited = inputs(&t, &["**"]).hash;
        let all = [&clean, &untracked, &staged, &edited];
        assert_eq!(all.iter().collect::<BTreeSet<_>>().len(), all.len(), "{all:?}");
        t.git(&["config", "-f", ".gitmodules", "submodule.lib.ignore", "dirty"]);
        t.git(&["commit", "-q", "-m", "ignore dirty", ".gitmodules"]);
        let ignored = inputs(&t, &["lib/**"]).hash;
        t.write("lib/fix.txt", "fixed\n");
        let fixed = inputs(&t, &["lib/**"]).hash;
        assert_ne!(fixed, ignored, "whatever ignore says");
        t.git_in(&lib, &["commit", "-q", "-m", "fix"]);
        assert_ne!(inputs(&t, &["lib/**"]).hash, fixed, "committed there: HEAD moved");
        t.git_in(&lib, &["reset", "-q", "--soft", "HEAD~1"]);
        assert_eq!(inputs(&t, &["lib/**"]).hash, fixed, "put back as it was");
    }

    /// A submodule with nothing checked out is named absent, with a line
    /// of its own in the hash: a run over the empty directory is not a run
    /// over its commit (test/cases/508).
    #[test]
    fn a_submodule_not_checked_out_is_absent_from_the_working_tree() {
        let t = repo();
        let _bare = t.with_submodule();
        let clean = inputs(&t, &["**"]);
        assert!(clean.absent.is_empty(), "{clean:?}");
        t.git(&["submodule", "deinit", "-q", "-f", "lib"]);
        let deinit = inputs(&t, &["**"]);
        assert_eq!(deinit.absent, ["lib"]);
        assert_ne!(deinit.hash, clean.hash, "a run without its files is not a run with them");
    }
}
