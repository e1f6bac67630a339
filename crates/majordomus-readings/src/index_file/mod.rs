//! The index file read directly, as git reads it: entries and the cache
//! tree, without verifying the trailing checksum (git does not either,
//! outside `fsck`), and the index compared with HEAD's tree with the cache
//! tree's help, so that a subtree the cache tree vouches for is not walked
//! (`staged.rs`).
//!
//! libgit2 verifies the checksum on every read (a SHA-1 over the whole file,
//! a fifth of `check`'s time on a 100,000-file repository) and walks every
//! tree of HEAD to diff it with the index. It reads neither a split index
//! (`git update-index --split-index`: the `link` extension, most entries in
//! a shared file beside it) nor a sparse index (`sdir`: a directory outside
//! a sparse checkout's cone as one entry naming its tree); this reader
//! reads both (`split.rs`). An index it does not understand (a version or
//! a required extension it does not know, a SHA-256 repository) is
//! [`Unsupported`], and the caller reads it through libgit2.
//!
//! The file is parsed as it is read, through a window (`parse.rs`): at
//! 300,000 tracked files it is 28.9 MB, and holding it whole beside the
//! entries parsed from it was most of `check`'s peak memory.

mod parse;
mod sparse;
mod split;
mod staged;

pub use parse::{Entry, PathAt, Paths, Unsupported};

use std::collections::HashSet;
use std::path::Path;

use git2::Repository;
use majordomus_records::RepoPath;

use parse::{parts, read_parts, CacheTree, Parts};

#[derive(Debug)]
pub struct Index {
    /// Sorted by path, then stage, as git keeps them.
    pub entries: Vec<Entry>,
    /// The entries' paths ([`Entry::path`]).
    pub paths: Paths,
    cache: Option<CacheTree>,
    /// Some entries are directories a sparse index keeps whole (`sdir`):
    /// see [`Index::expand_sparse`].
    pub sparse: bool,
}

impl Index {
    /// The index file at `path`; a split index is joined with the shared
    /// file it names, in the same directory.
    pub fn read(path: &Path) -> Result<Self, Unsupported> {
        let (file, size) = crate::file::open(path).map_err(|e| Unsupported(format!("cannot read the index: {e}")))?;
        Self::read_from(file, size, path.parent())
    }

    /// An index file's bytes that need no other file.
    pub fn parse(b: &[u8]) -> Result<Self, Unsupported> {
        Self::from_parts(parts(b)?, None)
    }

    /// The index file `file` reads, parsed as it is read (`size`: its
    /// length, a bound on what a corrupted entry count may reserve); the
    /// shared file of a split index is read from `dir` (the git directory),
    /// as `sharedindex.<its id>`.
    pub fn read_from(file: impl std::io::Read, size: u64, dir: Option<&Path>) -> Result<Self, Unsupported> {
        Self::from_parts(read_parts(file, size)?, dir)
    }

    fn from_parts(parts: Parts, dir: Option<&Path>) -> Result<Self, Unsupported> {
        let link = parts.link.as_deref().map(split::Link::parse).transpose()?.flatten();
        let (entries, paths) = match link {
            None => (parts.entries, parts.paths),
            Some(link) => {
                let dir = dir.ok_or_else(|| Unsupported("a split index read without its directory".into()))?;
                split::join(link, parts.entries, &parts.paths, dir)?
            }
        };
        // Readers of `entries` search it by path: git keeps it sorted, and
        // an index that is not is one this reader does not read.
        if entries.windows(2).any(|w| w[0].path(&paths) > w[1].path(&paths)) {
            return Err(Unsupported("the index's entries are out of order".into()));
        }
        Ok(Index { entries, paths, cache: parts.cache, sparse: parts.sparse })
    }

    /// Replaces each sparse directory entry with the entries of its tree,
    /// flagged skip-worktree and with no stat data, as a full index holds
    /// them.
    pub fn expand_sparse(&mut self, repo: &Repository) -> Result<(), Unsupported> {
        (self.entries, self.paths) =
            sparse::expand(repo, std::mem::take(&mut self.entries), std::mem::take(&mut self.paths))?;
        self.sparse = false;
        Ok(())
    }
}

/// The index against HEAD's tree (`None`: unborn): the paths that differ,
/// and those of them that are not in the index at all.
pub fn staged(
    repo: &Repository,
    head: Option<&git2::Tree<'_>>,
    index: &Index,
) -> Result<(Vec<RepoPath>, HashSet<RepoPath>), git2::Error> {
    staged::staged(repo, head, &index.entries, &index.paths, index.cache.as_ref())
}

#[cfg(test)]
mod tests;
