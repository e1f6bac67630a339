//! Which untracked paths git ignores: its own rules, exactly, read from
//! the same files, and never through a program the repository names.
//!
//! git consults three sources, and the first pattern that matches a path
//! decides (a `!` pattern deciding "not ignored"), in this order:
//!
//! 1. the `.gitignore` files of the path's directories, the deepest first,
//!    each file's patterns from its last line up;
//! 2. `info/exclude` of the repository's (common) git directory;
//! 3. the file `core.excludesFile` names (by default
//!    `$XDG_CONFIG_HOME/git/ignore`, else `~/.config/git/ignore`).
//!
//! So a committed `sub/.gitignore` that says `!keep.log` re-includes what
//! the root's `*.log` or `info/exclude` ignored, even though no earlier
//! line of its own file ignored it. A directory git ignores is never
//! entered for untracked files: nothing under it can be re-included, and
//! the ignore files under it are not read. A `.gitignore` that is a
//! symbolic link is not read (git refuses one inside the working tree).
//!
//! The repository-wide sources (2 and 3) are [`Sources`]: read as they are
//! now by [`Sources::current`], or given explicitly by a caller that knows
//! better which rules may apply (the rules as they stood when a task
//! started, say) through [`Sources::given`]. The per-directory files are
//! the working tree's, read by the walk that meets them
//! (`status/walk.rs`) and stacked with [`Rules::with`].

mod pattern;
mod wildmatch;

use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use pattern::{parse, Kind, Pattern};

/// One source of repository-wide rules: where it was read from (for a
/// reader to name) and its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    pub origin: PathBuf,
    pub bytes: Vec<u8>,
}

/// The repository-wide ignore rules: `core.excludesFile` and `info/exclude`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sources {
    pub excludes_file: Option<Source>,
    pub info_exclude: Option<Source>,
}

impl Sources {
    /// The sources as git would read them now for the repository whose
    /// common git directory is `common_dir` and working tree `root`: a file
    /// that is missing or unreadable is no source, as it is to git.
    pub fn current(config: &git2::Config, common_dir: &Path, root: &Path) -> Sources {
        let excludes = match config.get_path("core.excludesfile") {
            Ok(p) if p.is_relative() => Some(root.join(p)),
            Ok(p) => Some(p),
            Err(_) => default_excludes_file(),
        };
        let read = |origin: PathBuf| crate::file::read(&origin).ok().map(|bytes| Source { origin, bytes });
        Sources { excludes_file: excludes.and_then(read), info_exclude: read(common_dir.join("info").join("exclude")) }
    }

    /// Sources given by the caller instead of read now.
    pub fn given(excludes_file: Option<Source>, info_exclude: Option<Source>) -> Sources {
        Sources { excludes_file, info_exclude }
    }
}

/// `$XDG_CONFIG_HOME/git/ignore`, else `$HOME/.config/git/ignore`.
fn default_excludes_file() -> Option<PathBuf> {
    let xdg = std::env::var_os("XDG_CONFIG_HOME").filter(|v| !v.is_empty());
    let base = match xdg {
        Some(x) => PathBuf::from(x),
        None => PathBuf::from(std::env::var_os("HOME").filter(|v| !v.is_empty())?).join(".config"),
    };
    Some(base.join("git").join("ignore"))
}

/// The patterns of one ignore file and the directory it sits in.
#[derive(Debug)]
struct List {
    /// `""` at the root, else the directory without a trailing slash.
    base: Vec<u8>,
    patterns: Vec<Pattern>,
}

impl List {
    /// The last pattern of this file that matches: `Some(true)` ignored,
    /// `Some(false)` re-included, `None` no pattern here says.
    fn decides(&self, path: &[u8], kind: Kind, icase: bool) -> Option<bool> {
        self.patterns.iter().rev().find(|p| p.matches(&self.base, path, kind, icase)).map(|p| !p.negative)
    }
}

#[derive(Debug)]
struct Node {
    list: List,
    parent: Option<Arc<Node>>,
}

/// The `.gitignore` rules in force in one directory: its own file's and
/// its ancestors'. Cheap to clone; a child's adds one node to its parent's.
#[derive(Debug, Clone, Default)]
pub struct Rules {
    head: Option<Arc<Node>>,
}

impl Rules {
    /// These rules and, deeper, those of `bytes`, the `.gitignore` of
    /// directory `dir` (`""` at the root, no trailing slash).
    pub fn with(&self, dir: &str, bytes: &[u8]) -> Rules {
        let patterns = parse(bytes);
        if patterns.is_empty() {
            return self.clone();
        }
        let list = List { base: dir.as_bytes().to_vec(), patterns };
        Rules { head: Some(Arc::new(Node { list, parent: self.head.clone() })) }
    }
}

/// The repository-wide rules parsed once, and how names compare.
#[derive(Debug)]
pub struct Matcher {
    /// `info/exclude`, then `core.excludesFile`: the order they are asked in.
    globals: Vec<List>,
    icase: bool,
}

impl Matcher {
    /// `icase`: `core.ignoreCase`, under which patterns match regardless of ASCII case.
    pub fn new(sources: &Sources, icase: bool) -> Matcher {
        let globals = [&sources.info_exclude, &sources.excludes_file]
            .into_iter()
            .flatten()
            .map(|s| List { base: Vec::new(), patterns: parse(&s.bytes) })
            .filter(|l| !l.patterns.is_empty())
            .collect();
        Matcher { globals, icase }
    }

    /// Whether git ignores `path` (from the root, no trailing slash), a
    /// `kind`, in a directory whose rules are `rules`.
    pub fn is_ignored(&self, rules: &Rules, path: &str, kind: Kind) -> bool {
        let path = path.as_bytes();
        let mut node = rules.head.as_deref();
        while let Some(n) = node {
            if let Some(decided) = n.list.decides(path, kind, self.icase) {
                return decided;
            }
            node = n.parent.as_deref();
        }
        self.globals.iter().find_map(|l| l.decides(path, kind, self.icase)).unwrap_or(false)
    }
}

#[cfg(test)]
mod tests;
