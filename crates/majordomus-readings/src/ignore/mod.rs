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
//!
//! Read for a task, the rules are held in two views ([`Seen`]): git's own
//! now, and those that held when the task started (a rule added since in
//! `info/exclude`, `core.excludesFile` or an ignore file HEAD does not
//! hold hides nothing from the task: README.md, "What a pass is worth").
//! The walk lists every file either view does not ignore (a rule taken
//! away since hides nothing either: git lists what it no longer ignores),
//! and asks git's view to name the rule by which git hides what it lists
//! ([`Matcher::hidden_since`]). Each view matches names by its own
//! `core.ignoreCase`: git's by the value now, the held one by the start's,
//! so a setting changed since hides nothing git's own reading lists
//! (`*.log` then `!keep.log` re-includes `KEEP.log` once case is ignored,
//! `/Build/` stops ignoring `build/` once it is not: test/cases/541).

mod pattern;
pub(crate) mod wildmatch;

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

/// The lines of an ignore file that are patterns, each as it is (its line
/// end, trailing spaces and carriage return kept): what decides as much as
/// the whole file does, without its comments and blank lines. A record of
/// the rules keeps this, so that comments (git's own template's among
/// them) neither fill it nor make two files that say the same differ.
pub fn rules_of(bytes: &[u8]) -> Vec<u8> {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let mut out = Vec::new();
    for line in bytes.split_inclusive(|c| *c == b'\n') {
        if line.first().is_some_and(|c| *c != b'#' && *c != b'\n') {
            out.extend_from_slice(line);
        }
    }
    out
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

/// Which reading of the rules a list belongs to. A reading given the
/// rules that held when a task started (`status::read_since`) keeps two
/// views of them: what git applies now, and what held at the start (the
/// rules it lists untracked files by); a rule added since is in git's view
/// only, so it hides nothing, and the reading can still say which rule git
/// would have hidden a file by. With no start given, every list is in both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seen {
    Both,
    /// Applied by git now, but not held at the start.
    GitOnly,
    /// Held at the start, but not what git reads now (the start's content
    /// of a file changed since).
    HeldOnly,
}

impl Seen {
    fn by(self, view: View) -> bool {
        !matches!((self, view), (Seen::GitOnly, View::Held) | (Seen::HeldOnly, View::Git))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum View {
    Git,
    Held,
}

/// The patterns of one ignore file, the directory it sits in and where it
/// was read from.
#[derive(Debug)]
struct List {
    /// `""` at the root, else the directory without a trailing slash.
    base: Vec<u8>,
    patterns: Vec<Pattern>,
    seen: Seen,
    /// The file's name for a reader: its path in the repository, or on disk.
    origin: String,
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
    /// Some list here is in one view only: the views can differ.
    split: bool,
}

impl Rules {
    /// These rules and, deeper, those of `bytes`, the `.gitignore` of
    /// directory `dir` (`""` at the root, no trailing slash).
    pub fn with(&self, dir: impl AsRef<[u8]>, bytes: &[u8]) -> Rules {
        self.with_seen(dir, bytes, Seen::Both)
    }

    /// [`Rules::with`], for one view or both.
    pub fn with_seen(&self, dir: impl AsRef<[u8]>, bytes: &[u8], seen: Seen) -> Rules {
        let dir = dir.as_ref();
        let patterns = parse(bytes);
        if patterns.is_empty() {
            return self.clone();
        }
        let origin = if dir.is_empty() {
            ".gitignore".to_string()
        } else {
            let mut p = dir.to_vec();
            p.extend_from_slice(b"/.gitignore");
            majordomus_records::RepoPath::from_bytes(p).to_string()
        };
        let list = List { base: dir.to_vec(), patterns, seen, origin };
        Rules {
            head: Some(Arc::new(Node { list, parent: self.head.clone() })),
            split: self.split || seen != Seen::Both,
        }
    }
}

/// The repository-wide rules parsed once, and how names compare.
#[derive(Debug)]
pub struct Matcher {
    /// `info/exclude`, then `core.excludesFile`: the order they are asked in.
    globals: Vec<List>,
    /// `core.ignoreCase` as git reads it now, and as it held at the start:
    /// each view's patterns match by its own.
    icase_now: bool,
    icase_held: bool,
    /// Some global list is in one view only, or the views compare names
    /// differently.
    split: bool,
}

impl Matcher {
    /// `icase`: `core.ignoreCase`, under which patterns match regardless of ASCII case.
    pub fn new(sources: &Sources, icase: bool) -> Matcher {
        Matcher::since(sources, sources, (icase, icase), Path::new(""))
    }

    /// git's rules `now`, and the repository-wide ones that held at the
    /// start: a source whose content (or whose file) changed since is in
    /// one view each. `(icase_now, icase_held)`: `core.ignoreCase` now, by
    /// which git's view matches, and at the start, by which the held one
    /// does (one value for both would hide in git's view what git lists).
    pub fn since(now: &Sources, start: &Sources, (icase_now, icase_held): (bool, bool), root: &Path) -> Matcher {
        let mut globals = Vec::new();
        let mut add = |source: &Option<Source>, seen: Seen| {
            if let Some(s) = source {
                let patterns = parse(&s.bytes);
                if !patterns.is_empty() {
                    let origin = s.origin.strip_prefix(root).unwrap_or(&s.origin).display().to_string();
                    globals.push(List { base: Vec::new(), patterns, seen, origin });
                }
            }
        };
        let rules = |s: &Option<Source>| s.as_ref().map(|s| rules_of(&s.bytes));
        for (n, s) in [(&now.info_exclude, &start.info_exclude), (&now.excludes_file, &start.excludes_file)] {
            if rules(n) == rules(s) {
                add(n, Seen::Both);
            } else {
                add(n, Seen::GitOnly);
                add(s, Seen::HeldOnly);
            }
        }
        let split = icase_now != icase_held || globals.iter().any(|l| l.seen != Seen::Both);
        Matcher { globals, icase_now, icase_held, split }
    }

    /// Whether both views ignore case: only then is a name told from
    /// another by case alone (`.GIT` from `.git`) the same name to both.
    pub fn folds_case(&self) -> bool {
        self.icase_now && self.icase_held
    }

    fn icase(&self, view: View) -> bool {
        match view {
            View::Git => self.icase_now,
            View::Held => self.icase_held,
        }
    }

    /// Whether `path` (from the root, no trailing slash), a `kind`, in a
    /// directory whose rules are `rules`, is ignored: by the rules that
    /// held at the start and by git's own now (git's alone, when no start
    /// was given). A rule added since hides nothing, and a rule taken away
    /// since hides nothing either: git lists what it no longer ignores, and
    /// so does a task's reading (test/cases/401).
    pub fn is_ignored(&self, rules: &Rules, path: impl AsRef<[u8]>, kind: Kind) -> bool {
        let path = path.as_ref();
        let ignored = |view| self.decide(view, rules, path, kind).is_some_and(|(ignored, _)| ignored);
        ignored(View::Held) && (!self.split && !rules.split || ignored(View::Git))
    }

    /// The file whose rule makes git ignore `path` when the rules that held
    /// at the start do not: `None` when both agree, or no start was given.
    pub fn hidden_since<'a>(&'a self, rules: &'a Rules, path: impl AsRef<[u8]>, kind: Kind) -> Option<&'a str> {
        let path = path.as_ref();
        if !self.split && !rules.split {
            return None;
        }
        match self.decide(View::Git, rules, path, kind) {
            Some((true, origin)) if !self.decide(View::Held, rules, path, kind).is_some_and(|(ignored, _)| ignored) => {
                Some(origin)
            }
            _ => None,
        }
    }

    /// The first list in `view` that decides, and its decision.
    fn decide<'a>(&'a self, view: View, rules: &'a Rules, path: &[u8], kind: Kind) -> Option<(bool, &'a str)> {
        let icase = self.icase(view);
        let mut node = rules.head.as_deref();
        while let Some(n) = node {
            if n.list.seen.by(view) {
                if let Some(decided) = n.list.decides(path, kind, icase) {
                    return Some((decided, &n.list.origin));
                }
            }
            node = n.parent.as_deref();
        }
        self.globals
            .iter()
            .filter(|l| l.seen.by(view))
            .find_map(|l| l.decides(path, kind, icase).map(|d| (d, l.origin.as_str())))
    }
}

#[cfg(test)]
mod tests;
