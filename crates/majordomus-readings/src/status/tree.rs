//! What the working-tree reading finds: the types every reader of it
//! shares (`fast.rs` and `libgit2.rs` fill them, the invariant judges them).

use majordomus_records::RepoPath;

/// A tracked path that differs from HEAD, in the index or the working tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dirty {
    pub path: RepoPath,
    /// The blob staged in the index (`None`: removed from the index).
    pub index: Option<String>,
    /// `true` when the working-tree file is gone.
    pub deleted: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WorkingTree {
    pub dirty: Vec<Dirty>,
    pub untracked: Vec<RepoPath>,
    pub conflicted: Vec<RepoPath>,
    /// Tracked paths whose changes git does not look at because of a bit or
    /// a setting (see [`Hidden`]), sorted by path. Not counted in `dirty`:
    /// git shows none of them, and neither does this reading, unless it is
    /// read for a task whose start did not hide them (then they are in
    /// `dirty` and in `overruled`).
    pub hidden: Vec<Hidden>,
    /// Paths this reading counts (in `dirty` or `untracked`) that git's
    /// status does not show, each with why: only a reading for a task
    /// (`status::read_since`) departs from git, never to hide a change.
    pub overruled: Vec<Overruled>,
    /// Settings changed since the task's start that this reading did not
    /// obey as they are now, each with how it was read instead.
    pub governed: Vec<Governed>,
    /// Untracked files `core.ignoreCase` hides, as git does, because their
    /// name differs from a tracked path's only by case (a file system that
    /// tells them apart), sorted: what a start records, so that a task's
    /// reading lets the setting hide these, as they were, and no other.
    pub case_folded: Vec<RepoPath>,
    /// The ignore files the walk read whose content HEAD does not hold at
    /// their path (untracked, or changed and not committed), with that
    /// content: what a start snapshot records as the rules held then.
    pub uncommitted_ignores: Vec<(RepoPath, Vec<u8>)>,
    /// The reading did not compare file modes (`core.fileMode` off, as the
    /// reading obeyed it): a mode on disk is not what git would record.
    pub modes_ignored: bool,
    /// Submodules in `dirty` only because their own working tree has
    /// changes or untracked files (their HEAD is the commit the index and
    /// HEAD record), sorted: `git commit -- PATH` in the superproject
    /// commits nothing of them; the submodule's own commit comes first.
    pub dirty_inside: Vec<RepoPath>,
    /// Paths in `dirty` whose index entry is an intent to add (`git add
    /// -N`) and whose file is gone, sorted: git's status lists them
    /// deleted, `git commit -- PATH` takes nothing of them (and refuses
    /// when they are all there is to commit), `git rm --cached` drops the
    /// intent (test/cases/590).
    pub intent_gone: Vec<RepoPath>,
    /// The stamps of the files this reading read by content and found
    /// to be their index entry's blob, whose change time was old enough
    /// to keep (`verified.rs`): what a start records so that a task's
    /// reading does not read them again.
    pub verified: Vec<u64>,
    /// The digest of the working tree's attributes files, under which the
    /// stamps of files libgit2 found clean through the conversions vouch.
    pub attributes: u64,
}

/// A tracked path git takes for unchanged without looking at it, and what
/// a look finds: the seam through which a judge can refuse to let a bit
/// set since a task began hide that task's change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hidden {
    pub path: RepoPath,
    pub by: HiddenBy,
    /// The working-tree file differs from the index (looked at for these
    /// paths only), or is gone.
    pub changed: bool,
    pub deleted: bool,
    /// The blob its index entry holds.
    pub index: String,
}

/// What makes git look away from a tracked path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HiddenBy {
    /// `git update-index --assume-unchanged` (or `core.ignoreStat`).
    AssumeUnchanged,
    /// `git update-index --skip-worktree` without a sparse checkout.
    SkipWorktree,
    /// A file present outside a sparse checkout's cone while
    /// `sparse.expectFilesOutsideOfPatterns` is on.
    ExpectedOutsideSparse,
}

impl HiddenBy {
    /// The bit's name as git's documentation names it.
    pub fn name(self) -> &'static str {
        match self {
            HiddenBy::AssumeUnchanged => "assume-unchanged",
            HiddenBy::SkipWorktree | HiddenBy::ExpectedOutsideSparse => "skip-worktree",
        }
    }
}

/// A path counted though git's status does not show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overruled {
    pub path: RepoPath,
    pub why: Why,
}

/// Why a reading for a task counts what git hides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Why {
    /// A bit set on its index entry since the start (or one the start's
    /// record does not say was there).
    Bit(HiddenBy),
    /// Ignored now by a rule that did not hold at the start, in this file
    /// (its path in the repository, or on disk).
    IgnoredSince(String),
    /// Changed since the start under a bit set before it: what the start
    /// found under the bit is the user's, a change since the task's.
    ChangedUnderBit(HiddenBy),
    /// Untracked, though `core.ignoreCase` (held since the start) takes
    /// its name for a tracked path's with case aside: the start found no
    /// such file there, or found other content in it.
    CaseFolded,
}

impl std::fmt::Display for Overruled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.why {
            Why::Bit(by) => write!(f, "{} (its {} bit was not set at the start)", self.path, by.name()),
            Why::IgnoredSince(origin) => {
                write!(f, "{} (ignored by a rule in {origin} that did not hold at the start)", self.path)
            }
            Why::ChangedUnderBit(by) => {
                write!(f, "{} (changed since the start under its {} bit, set before the start)", self.path, by.name())
            }
            Why::CaseFolded => write!(
                f,
                "{} (untracked: its name differs from a tracked path's only by case, which core.ignoreCase folds, and the start did not find it so)",
                self.path
            ),
        }
    }
}

/// A setting changed since the task's start that the reading did not
/// obey as it is now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Governed {
    /// The configuration key or the file, as git's documentation names it.
    pub what: String,
    /// What changed and how the reading read it instead, as a clause
    /// (`set to "false" since the start ("true" then): read as at the start`).
    pub how: String,
    /// What it changes the reading of: tracked paths, untracked ones, or both.
    pub of: Of,
}

/// The part of a reading a setting decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Of {
    Tracked,
    Untracked,
    Both,
}

impl Of {
    pub fn tracked(self) -> bool {
        self != Of::Untracked
    }

    pub fn untracked(self) -> bool {
        self != Of::Tracked
    }
}

impl std::fmt::Display for Governed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.what, self.how)
    }
}
