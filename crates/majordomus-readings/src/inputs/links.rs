//! A gate's inputs through symbolic links: what a link stands for is part
//! of what the gate ran over.
//!
//! git records a link as its text, so a verdict hashed over that text alone
//! stays current while the file the link leads to is edited. Where the
//! target lies inside the working tree (not in `.git`), the hash covers it
//! too: a link to a file adds the target's mode and content to the link's
//! line; a link to a directory adds every file beneath it that the gate's
//! globs match under the link's path (`src/vendor/data.txt` for
//! `src/vendor -> ../fixtures`), ignored ones aside, as git would list
//! them at their own path. A link leading outside the working tree, or
//! nowhere, is hashed as its text only: what lies outside is not the
//! repository's.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

use majordomus_records::paths::is_own_state;

use super::{InputFile, Matcher, MODE_EXECUTABLE, MODE_FILE};
use crate::{Reading, Repo, Unread};

/// How many directories deep a walk beneath a link goes.
const MAX_DEPTH: usize = 64;

/// Every tracked path, with what the index says of it where the status pass
/// found it unchanged (its blob id and mode, read from there, not from
/// disk); `None` for a tracked path that changed.
pub(super) type Known<'a> = HashMap<&'a str, Option<(git2::Oid, u32)>>;

/// Follows each link in `links` (repository-relative paths of links among
/// the inputs, or with globs reaching beneath them): sets the `through` of
/// the input that is a link to a file, and adds the matching files beneath
/// a link to a directory.
pub(super) fn follow(
    repo: &Repo,
    matcher: &Matcher,
    links: &[String],
    known: &Known<'_>,
    files: &mut Vec<InputFile>,
) -> Reading<()> {
    let root = repo.root();
    for link in links {
        let Ok(target) = std::fs::canonicalize(root.join(link)) else { continue };
        let Some(real) = inside(root, &target) else { continue };
        if target.is_dir() {
            let mut walk = Walk { repo, matcher, known, chain: Vec::new(), found: Vec::new() };
            walk.dir(link, &target)?;
            files.extend(walk.found);
        } else if let Some(input) = files.iter_mut().find(|f| f.path == *link) {
            input.through = content(known, &real, &target)?;
        }
    }
    Ok(())
}

/// The repository-relative path of `target` (canonical), when it lies in
/// the working tree at `root` (canonical) and not in its `.git`.
fn inside(root: &Path, target: &Path) -> Option<String> {
    let rel = target.strip_prefix(root).ok()?;
    if rel.components().next() == Some(Component::Normal(".git".as_ref())) {
        return None;
    }
    rel.to_str().map(str::to_string)
}

/// The mode and blob id of the regular file at `path` (repository path
/// `rel`): the index's where the status pass found it unchanged, else read
/// from disk; `None` for what holds no content (a FIFO, a device).
fn content(known: &Known<'_>, rel: &str, path: &Path) -> Reading<Option<(u32, String)>> {
    if let Some(Some((id, mode))) = known.get(rel) {
        return Ok(Some((*mode, crate::hex(*id))));
    }
    use std::os::unix::fs::PermissionsExt;
    let Ok(meta) = std::fs::metadata(path) else { return Ok(None) };
    if !meta.is_file() {
        return Ok(None);
    }
    let mode = if meta.permissions().mode() & 0o100 != 0 { MODE_EXECUTABLE } else { MODE_FILE };
    match crate::file::blob_id(path) {
        Ok(id) => Ok(Some((mode, id.to_string()))),
        Err(e) if e.is_not_found() => Ok(None),
        Err(crate::file::FileError::NotRegular { .. }) => Ok(None),
        Err(e) => Err(Unread::io(format!("the input {rel}: {e}"))),
    }
}

struct Walk<'a> {
    repo: &'a Repo,
    matcher: &'a Matcher,
    known: &'a Known<'a>,
    /// The real directories being read, outermost first (a link back to
    /// one of them is a loop, not read again).
    chain: Vec<PathBuf>,
    found: Vec<InputFile>,
}

impl Walk<'_> {
    /// Reads the directory at the real (canonical) path `real`, which the
    /// inputs name `virt`.
    fn dir(&mut self, virt: &str, real: &Path) -> Reading<()> {
        if self.chain.iter().any(|c| c == real) || self.chain.len() >= MAX_DEPTH {
            return Ok(());
        }
        let listing =
            std::fs::read_dir(real).map_err(|e| Unread::io(format!("could not list the input {virt}: {e}")))?;
        let mut names = Vec::new();
        for entry in listing {
            let entry = entry.map_err(|e| Unread::io(format!("could not list the input {virt}: {e}")))?;
            names.push(entry.file_name());
        }
        names.sort();
        self.chain.push(real.to_path_buf());
        for name in names {
            let Some(name) = name.to_str() else { continue };
            if name == ".git" {
                continue;
            }
            let child = format!("{virt}/{name}");
            let Ok(target) = std::fs::canonicalize(real.join(name)) else { continue };
            let Some(rel) = inside(self.repo.root(), &target) else { continue };
            let tracked = self.known.contains_key(rel.as_str());
            if is_own_state(&rel) || (!tracked && self.ignored(&rel, target.is_dir())?) {
                continue;
            }
            if target.is_dir() {
                self.dir(&child, &target)?;
            } else if self.matcher.is_match(&child) {
                if let Some((mode, id)) = content(self.known, &rel, &target)? {
                    self.found.push(InputFile { path: child, mode, id, through: None });
                }
            }
        }
        self.chain.pop();
        Ok(())
    }

    /// Whether git ignores the untracked path at its own place in the
    /// working tree (a directory: whether it ignores it whole).
    fn ignored(&self, rel: &str, dir: bool) -> Reading<bool> {
        let asked = if dir { format!("{rel}/") } else { rel.to_string() };
        self.repo
            .git
            .status_should_ignore(Path::new(&asked))
            .map_err(|e| Unread::git(&format!("the ignore rules for {rel}"), &e))
    }
}
