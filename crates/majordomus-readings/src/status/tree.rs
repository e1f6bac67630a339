//! What the working-tree reading finds: the types every reader of it
//! shares (`fast.rs` and `libgit2.rs` fill them, the invariant judges them).

/// A tracked path that differs from HEAD, in the index or the working tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dirty {
    pub path: String,
    /// The blob staged in the index (`None`: removed from the index).
    pub index: Option<String>,
    /// `true` when the working-tree file is gone.
    pub deleted: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WorkingTree {
    pub dirty: Vec<Dirty>,
    pub untracked: Vec<String>,
    pub conflicted: Vec<String>,
    /// Tracked paths whose changes git does not look at because of a bit or
    /// a setting (see [`Hidden`]), sorted by path. Not counted in `dirty`:
    /// git shows none of them, and neither does this reading.
    pub hidden: Vec<Hidden>,
}

/// A tracked path git takes for unchanged without looking at it, and what
/// a look finds: the seam through which a judge can refuse to let a bit
/// set since a task began hide that task's change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hidden {
    pub path: String,
    pub by: HiddenBy,
    /// The working-tree file differs from the index (looked at for these
    /// paths only), or is gone.
    pub changed: bool,
    pub deleted: bool,
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
