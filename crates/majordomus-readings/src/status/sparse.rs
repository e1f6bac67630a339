//! A sparse checkout's definition (`info/sparse-checkout` in the git
//! directory, per worktree), read as git reads it to decide whether a path
//! belongs in the working tree (`path_in_sparse_checkout`).
//!
//! In a sparse checkout git's status takes a skip-worktree entry whose file
//! is absent for clean, whatever put the bit there: the checkout leaving
//! it out, or `git update-index --skip-worktree` over a file the task
//! deleted. The definition tells them apart: a path it leaves out is not
//! checked out; one it includes is a file `git sparse-checkout reapply`
//! would write back, whose absence only the bit hides (test/cases/580).
//!
//! The patterns are gitignore's, matched as git matches them here: the path
//! as a file, then each of its leading directories from the deepest up,
//! the last pattern matching the first of them to match deciding (a
//! negated one leaving it out), none leaving it out. Cone mode's patterns
//! (`/*`, `!/*/`, `/src/`, `!/src/*/`) read this way give the cone.

use std::path::Path;

use crate::ignore::{parse, Kind, Pattern};

/// The patterns of a sparse checkout's definition.
#[derive(Debug, Clone)]
pub(super) struct Definition {
    patterns: Vec<Pattern>,
    /// Each pattern's [`Pattern::file_depth`]: most cannot match a file
    /// at all, or only at one depth, and are passed over without matching.
    depths: Vec<Option<usize>>,
    icase: bool,
}

impl Definition {
    /// The definition in `git_dir`, names matched with their case aside
    /// where `icase`; `None` where there is none or it cannot be read (a
    /// path is then taken for one the checkout leaves out, as before).
    pub(super) fn read(git_dir: &Path, icase: bool) -> Option<Definition> {
        let bytes = crate::file::read(&git_dir.join("info").join("sparse-checkout")).ok()?;
        Some(Definition::of(&bytes, icase))
    }

    pub(super) fn of(bytes: &[u8], icase: bool) -> Definition {
        let patterns = parse(bytes);
        let depths = patterns.iter().map(Pattern::file_depth).collect();
        Definition { patterns, depths, icase }
    }

    /// Whether the definition includes the file at `path` (from the root).
    #[cfg(test)]
    fn includes(&self, path: &[u8]) -> bool {
        self.includes_with(path, &mut Memo::default())
    }

    /// [`Definition::includes`], what its directory decides kept in `memo`
    /// for the next path in the same directory (the index is sorted by
    /// path: a directory the checkout leaves out is asked once, not once
    /// per file).
    pub(super) fn includes_with(&self, path: &[u8], memo: &mut Memo) -> bool {
        let Some(slash) = path.iter().rposition(|c| *c == b'/') else {
            return self.file_match(path, 0).is_some_and(|p| !p.negative);
        };
        let dir = &path[..slash];
        let seen = match memo.0.take() {
            Some(seen) if seen.dir.as_slice() == dir => seen,
            _ => Seen {
                dir: dir.to_vec(),
                slashes: dir.iter().filter(|c| **c == b'/').count() + 1,
                decided: self.directory_includes(dir),
            },
        };
        let included = match self.file_match(path, seen.slashes) {
            Some(last) => !last.negative,
            None => seen.decided,
        };
        memo.0 = Some(seen);
        included
    }

    /// The last pattern matching the file at `path`, which holds `slashes`
    /// slashes.
    fn file_match(&self, path: &[u8], slashes: usize) -> Option<&Pattern> {
        self.patterns
            .iter()
            .zip(&self.depths)
            .rev()
            .find(|(p, depth)| depth.map_or(true, |d| d == slashes) && p.matches(b"", path, Kind::NotDir, self.icase))
            .map(|(p, _)| p)
    }

    /// What directory `dir` and its leading directories decide for a file
    /// in it, the deepest matched first.
    fn directory_includes(&self, dir: &[u8]) -> bool {
        let mut end = dir.len();
        loop {
            let at = &dir[..end];
            if let Some(last) = self.last_match(at, Kind::Dir) {
                return !last.negative;
            }
            match at.iter().rposition(|c| *c == b'/') {
                Some(slash) => end = slash,
                None => return false,
            }
        }
    }

    fn last_match(&self, path: &[u8], kind: Kind) -> Option<&Pattern> {
        self.patterns.iter().rev().find(|p| p.matches(b"", path, kind, self.icase))
    }
}

/// The last directory [`Definition::includes_with`] asked: how many
/// slashes a file in it holds, and what it decided.
#[derive(Debug, Default)]
pub(super) struct Memo(Option<Seen>);

#[derive(Debug)]
struct Seen {
    dir: Vec<u8>,
    slashes: usize,
    decided: bool,
}

#[cfg(test)]
mod tests {
    use super::Definition;

    #[test]
    fn a_cone_includes_root_files_its_directories_and_their_parents_files_only() {
        let cone = Definition::of(b"/*\n!/*/\n/src/\n/lib/\n!/lib/*/\n/lib/sub/\n", false);
        for inside in ["README.md", "src/a.rs", "src/deep/er/b.rs", "lib/l.rs", "lib/sub/x/y.rs"] {
            assert!(cone.includes(inside.as_bytes()), "{inside}");
        }
        for outside in ["other/o.txt", "lib/other/o.rs", "source/a.rs", "SRC/a.rs"] {
            assert!(!cone.includes(outside.as_bytes()), "{outside}");
        }
        assert!(Definition::of(b"/*\n!/*/\n/src/\n", true).includes(b"SRC/a.rs"), "case aside");
    }

    #[test]
    fn patterns_outside_cone_mode_decide_by_the_last_match_of_the_deepest_path_matched() {
        let def = Definition::of(b"/*\n!/docs/\n/docs/keep.md\n*.rs\n!gen/\n", false);
        assert!(def.includes(b"docs/keep.md"), "the file itself matched last");
        assert!(!def.includes(b"docs/other.md"), "its directory left out");
        assert!(def.includes(b"x/y/z.rs"));
        assert!(def.includes(b"gen/a.rs"), "the file matched before its directory is asked");
        assert!(!def.includes(b"gen/a.txt"));
        assert!(!Definition::of(b"", false).includes(b"a"), "no pattern includes nothing");
        assert!(!Definition::of(b"# only a comment\n", false).includes(b"src/a"));
    }

    #[test]
    fn a_directory_kept_between_paths_decides_as_asking_afresh() {
        let def = Definition::of(b"/*\n!/*/\n/src/\n!/src/*/\n/src/keep/\nnotes.md\n", false);
        let mut memo = super::Memo::default();
        for path in ["src/a.rs", "src/gen/x.rs", "src/gen/notes.md", "src/gen/y.rs", "src/keep/z.rs", "top.md", "x/y/z"]
        {
            let p = path.as_bytes();
            assert_eq!(def.includes_with(p, &mut memo), def.includes(p), "{path}");
        }
        assert!(!def.includes(b"src/gen/x.rs"));
        assert!(def.includes(b"src/gen/notes.md"));
    }
}
