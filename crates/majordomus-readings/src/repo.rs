//! Opening the repository a command runs in.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use git2::Repository;

use crate::config::Config;
use crate::index_file::{Index, Unsupported};
use crate::Reading;

/// An open repository with a working tree.
pub struct Repo {
    pub git: Repository,
    root: PathBuf,
    /// The index file as last read, keyed by its identity on disk: see
    /// [`Repo::index_file`]. Shared with the handles [`Repo::reopen`] makes,
    /// so that two threads reading the index parse it once.
    index: Arc<Mutex<HeldIndex>>,
    /// The configuration as last read ([`Repo::config`]), shared as `index`.
    config: Arc<Mutex<HeldConfig>>,
    /// The second handle, being opened beside this one ([`open_with_spare`]),
    /// until [`Repo::reopener`] takes it.
    spare: Mutex<Option<Spare>>,
    /// Whether `.ai/local/` at this root is majordomus's own state: true
    /// for the repository a command runs in, false for one read inside
    /// it ([`Repo::inside_another`]).
    own_state: bool,
}

/// A second handle opened on a thread of its own.
type Spare = std::thread::JoinHandle<Result<Repository, git2::Error>>;

/// The configuration's last reading and the identity of the repository's
/// own configuration files (`config`, `config.worktree`) then.
type HeldConfig = Option<([Option<FileIdentity>; 2], Reading<Arc<Config>>)>;

/// A handle on a repository yet to be opened again ([`Repo::reopener`]).
#[derive(Debug)]
pub struct Reopener {
    git_dir: PathBuf,
    root: PathBuf,
    index: Arc<Mutex<HeldIndex>>,
    config: Arc<Mutex<HeldConfig>>,
    spare: Option<Spare>,
    own_state: bool,
}

impl Reopener {
    /// The second handle, sharing the first's index parse and configuration:
    /// the spare opened beside the first where there is one (of the same
    /// git directory), else opened now.
    pub fn open(self) -> Result<Repo, git2::Error> {
        let git = match self.spare.map(Spare::join) {
            Some(Ok(Ok(git))) if git.path() == self.git_dir => git,
            _ => Repository::open(&self.git_dir)?,
        };
        crate::config::as_git_reads(&git);
        if git.workdir().map(|w| w.canonicalize().unwrap_or_else(|_| w.to_path_buf())).as_deref() != Some(&self.root) {
            // As `open` decided it (a separate git directory, say).
            git.set_workdir(&self.root, false)?;
        }
        Ok(Repo {
            git,
            root: self.root,
            index: self.index,
            config: self.config,
            spare: Mutex::default(),
            own_state: self.own_state,
        })
    }
}

/// The index's last parse and the identity of the file it was read from.
type HeldIndex = Option<(FileIdentity, Arc<Index>)>;

/// What tells one version of a file git rewrites (the index, a
/// configuration file) from another without reading it: git replaces the
/// file (a lock file renamed over it) on every write, so a new version has a
/// new inode, times or size; a write in place has a new change time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FileIdentity {
    dev: u64,
    ino: u64,
    size: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

impl FileIdentity {
    fn of(meta: &std::fs::Metadata) -> Self {
        use std::os::unix::fs::MetadataExt;
        FileIdentity {
            dev: meta.dev(),
            ino: meta.ino(),
            size: meta.size(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
        }
    }
}

impl std::fmt::Debug for Repo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Repo").field("root", &self.root).finish()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error("{} is not inside a git repository", path.display())]
    NotARepository {
        path: PathBuf,
        #[source]
        source: git2::Error,
    },
    #[error("{} is a bare repository: majordomus needs a working tree", path.display())]
    Bare { path: PathBuf },
    /// A repository git knows, in a format the git library majordomus reads
    /// with (libgit2) cannot read: every reading of it is unread, with this
    /// reason, rather than a guess.
    #[error("the repository at {} cannot be read: {reason}", root.display())]
    Unreadable { root: PathBuf, reason: String },
}

/// Finds the repository containing `dir`, as git would, without reading
/// `GIT_DIR` or other environment overrides.
pub fn open(dir: &Path) -> Result<Repo, OpenError> {
    open_inner(dir, false)
}

/// [`open`], opening beside it, on a thread of its own, the second handle
/// a `check` reads the working tree through ([`Repo::reopener`]). An open
/// reads the whole configuration (libgit2 checks the repository's format
/// from it), two entries per branch that tracks a remote: at a thousand
/// such branches, a third of a `check`. Made beside the first, the second
/// open no longer waits for it.
pub fn open_with_spare(dir: &Path) -> Result<Repo, OpenError> {
    open_inner(dir, true)
}

fn open_inner(dir: &Path, with_spare: bool) -> Result<Repo, OpenError> {
    read_objects_as_git_does();
    // `Repository::discover` is this search and then the open: made in two
    // steps, a search that finds nothing is made once (a hook walks up from
    // each repository to the root looking for one around it, and mostly
    // finds none), and one that found a repository libgit2 cannot open says
    // why from what it found.
    if let Some(waits) = waits_in_the_search(dir) {
        return Err(waits);
    }
    let none = std::iter::empty::<&std::ffi::OsStr>();
    let found = match Repository::discover_path(dir, none) {
        Ok(found) => found,
        Err(source) => {
            let unparsed = unparsed(&source).and_then(|_| git_dir_above(dir)).and_then(|g| unreadable_at(&g));
            return Err(unparsed.unwrap_or(OpenError::NotARepository { path: dir.into(), source }));
        }
    };
    if let Some(reason) = crate::git_files::not_a_file_in(&found) {
        let root = worktree_of(dir);
        return Err(OpenError::Unreadable { root, reason });
    }
    let spare = with_spare
        .then(|| {
            let found = found.clone();
            std::thread::Builder::new()
                .name("spare-open".into())
                .spawn(move || {
                    let git = Repository::open(found)?;
                    crate::config::as_git_reads(&git);
                    Ok(git)
                })
                .ok()
        })
        .flatten();
    let git = match Repository::open(&found) {
        Ok(git) => {
            crate::config::as_git_reads(&git);
            git
        }
        Err(source) => {
            return Err(unreadable_at(&found).unwrap_or(OpenError::NotARepository { path: dir.into(), source }))
        }
    };
    let root = match git.workdir() {
        Some(w) => w.to_path_buf(),
        None => return Err(made_bare(&git).unwrap_or_else(|| OpenError::Bare { path: git.path().to_path_buf() })),
    };
    let root = root.canonicalize().unwrap_or(root);
    let root = match gitlink_dir(dir, &git) {
        Some(linked) if linked != root => {
            // libgit2 takes a git directory reached through a `.git` file
            // (`git init --separate-git-dir`) to sit inside its working
            // tree; git takes the directory holding the `.git` file.
            git.set_workdir(&linked, false).map_err(|source| OpenError::NotARepository { path: dir.into(), source })?;
            linked
        }
        _ => root,
    };
    Ok(Repo { git, root, index: Arc::default(), config: Arc::default(), spare: Mutex::new(spare), own_state: true })
}

/// A file libgit2's search for the repository around `dir` would wait on:
/// at each directory up from `dir` holding a `.git` (a directory, or a
/// file naming one), the search reads the git directory's `commondir` and
/// `gitdir` (a linked worktree's) with a blocking open. One that is not a regular file makes the
/// repository there unreadable, naming it (`crate::git_files`). The
/// search stops, as libgit2's does, at the first git directory with a
/// `HEAD`.
fn waits_in_the_search(dir: &Path) -> Option<OpenError> {
    for holder in dir.ancestors() {
        let dotgit = holder.join(".git");
        let Ok(meta) = std::fs::metadata(&dotgit) else { continue };
        let git_dir = if meta.is_dir() {
            dotgit
        } else if meta.is_file() {
            let named = String::from_utf8(crate::file::read(&dotgit).ok()?).ok()?;
            holder.join(named.lines().next()?.strip_prefix("gitdir:")?.trim())
        } else {
            // Neither git nor libgit2 takes it for a repository: the search goes on up.
            continue;
        };
        for name in ["commondir", "gitdir"] {
            let file = git_dir.join(name);
            if std::fs::symlink_metadata(&file).is_ok() && !std::fs::metadata(&file).is_ok_and(|m| m.is_file()) {
                let reason = crate::git_files::not_a_file_in(&git_dir)
                    .unwrap_or_else(|| format!("{} is not a regular file", file.display()));
                let root = holder.canonicalize().unwrap_or_else(|_| holder.to_path_buf());
                return Some(OpenError::Unreadable { root, reason });
            }
        }
        if git_dir.join("HEAD").symlink_metadata().is_ok() {
            return None;
        }
    }
    None
}

/// The working tree of the repository found from `dir`, read without
/// opening it: the nearest directory up from `dir` holding a `.git` (a
/// command run inside the git directory reaches the one holding it), else
/// `dir`.
fn worktree_of(dir: &Path) -> PathBuf {
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let holder = dir.ancestors().find(|a| a.join(".git").symlink_metadata().is_ok()).map(Path::to_path_buf);
    holder.unwrap_or(dir)
}

/// A working tree's own git directory (a `.git` directory) that
/// `core.bare = true` makes look bare: git and libgit2 then see no working
/// tree, and a task started there would go unmeasured in silence (the stop
/// hook found no repository and let the stop through, test/cases/282). It
/// is that working tree's, unreadable while the setting stands, where a
/// task was started in it.
fn made_bare(git: &Repository) -> Option<OpenError> {
    let git_dir = git.path().canonicalize().ok()?;
    if git_dir.file_name()? != ".git" {
        return None;
    }
    let root = git_dir.parent()?.to_path_buf();
    // Only where a task was started: a bare repository that merely lives
    // in a directory named `.git` stays one.
    let paths = majordomus_records::StatePaths::new(&root).with_git_dir(&git_dir);
    if !paths.task().exists() && !paths.task_copy().is_some_and(|c| c.exists()) {
        return None;
    }
    let reason = format!(
        "core.bare is true in {}, the git directory of the working tree {}, so git sees no working tree there; set it back (git --git-dir={} config core.bare false)",
        git_dir.display(),
        root.display(),
        git_dir.display()
    );
    Some(OpenError::Unreadable { root, reason })
}

/// Objects are read as git reads them: without hashing each one again to
/// compare it with its id. libgit2 does that on every object it reads by
/// default (a SHA-1 with collision detection, a seventh of `check`'s time
/// where the squash search reads trees); git leaves it to `git fsck`, and
/// zlib's checksum of each object's compressed bytes still catches a
/// damaged file. Set once, for the process.
fn read_objects_as_git_does() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| git2::opts::strict_hash_verification(false));
}

/// The directory holding the `.git` file that led to `git`, as git finds it
/// (the nearest `.git` above `dir`), when that is a file naming `git`'s
/// directory and the configuration sets no `core.worktree` of its own.
fn gitlink_dir(dir: &Path, git: &Repository) -> Option<PathBuf> {
    let dir = dir.canonicalize().ok()?;
    let holder = dir.ancestors().find(|a| a.join(".git").symlink_metadata().is_ok())?;
    let dotgit = holder.join(".git");
    if !dotgit.symlink_metadata().ok()?.is_file() {
        return None;
    }
    let named = String::from_utf8(crate::file::read(&dotgit).ok()?).ok()?;
    let named = named.lines().next()?.strip_prefix("gitdir:")?.trim();
    let named = holder.join(named).canonicalize().ok()?;
    if named != git.path().canonicalize().ok()? {
        return None;
    }
    let own_worktree = git.config().ok()?.open_level(git2::ConfigLevel::Local).ok()?.get_path("core.worktree").is_ok();
    (!own_worktree).then(|| holder.to_path_buf())
}

/// The repository whose git directory the search found at `git_dir`, where
/// libgit2 refuses to open it: its working tree and the reason, read from
/// its config file alone.
fn unreadable_at(git_dir: &Path) -> Option<OpenError> {
    let git_dir = git_dir.to_path_buf();
    // A linked worktree's git directory names its common directory and its
    // working tree; the main one lives in the working tree's `.git`.
    let read = |name: &str| {
        let bytes = crate::file::read(&git_dir.join(name)).ok()?;
        Some(String::from_utf8_lossy(&bytes).trim().to_string())
    };
    let common = match read("commondir") {
        Some(c) => git_dir.join(c),
        None => git_dir.clone(),
    };
    let root = match read("gitdir") {
        Some(dotgit) => Path::new(&dotgit).parent()?.to_path_buf(),
        None if git_dir.file_name()? == ".git" => git_dir.parent()?.to_path_buf(),
        None => return None,
    };
    // A configuration file that cannot be parsed (its own, one it
    // includes, the user's) is named with the file and line libgit2 gives:
    // git refuses it too, and the repository is still there, its task
    // unmeasured (test/cases/532).
    let config = match git2::Config::open(&common.join("config")) {
        Ok(config) => config,
        Err(e) => {
            let reason = unparsed(&e)?;
            return Some(OpenError::Unreadable { root: root.canonicalize().unwrap_or(root), reason });
        }
    };
    let refs = config.get_string("extensions.refstorage").ok();
    let reason = match refs.as_deref() {
        Some(format) if format.eq_ignore_ascii_case("reftable") => {
            "its refs are stored in the reftable format (extensions.refStorage = reftable), which libgit2, the git library majordomus reads with, cannot read".to_string()
        }
        _ => match Repository::open(&git_dir) {
            Err(e) => unparsed(&e).unwrap_or_else(|| {
                format!("libgit2, the git library majordomus reads with, cannot open it: {}", e.message())
            }),
            Ok(_) => return None,
        },
    };
    let root = root.canonicalize().unwrap_or(root);
    Some(OpenError::Unreadable { root, reason })
}

/// The reason a repository cannot be opened, where `e` is a configuration
/// file libgit2 could not parse (a section header left open, a line git
/// cannot read, in the repository's file, one it includes, or the user's).
/// An ownership refusal (`safe.directory`) is another matter, left as it is.
fn unparsed(e: &git2::Error) -> Option<String> {
    if e.class() != git2::ErrorClass::Config || e.code() == git2::ErrorCode::Owner {
        return None;
    }
    Some(format!(
        "its configuration cannot be parsed: {}; git refuses it too, so mend or remove the line named",
        e.message()
    ))
}

/// The git directory of the nearest working tree holding `dir`, found as
/// git finds one without opening it: a `.git` directory holding `HEAD`, or
/// a `.git` file naming one. Looked for only where the search for the
/// repository failed on its configuration, so a command run outside any
/// repository costs nothing more.
fn git_dir_above(dir: &Path) -> Option<PathBuf> {
    let dir = dir.canonicalize().ok()?;
    for holder in dir.ancestors() {
        let dotgit = holder.join(".git");
        let Ok(meta) = dotgit.metadata() else { continue };
        let git_dir = if meta.is_dir() {
            dotgit
        } else {
            let named = String::from_utf8(crate::file::read(&dotgit).ok()?).ok()?;
            holder.join(named.lines().next()?.strip_prefix("gitdir:")?.trim())
        };
        if git_dir.join("HEAD").is_file() {
            return Some(git_dir);
        }
    }
    None
}

impl Repo {
    /// The root of the working tree.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The repository's own git directory (`.git/worktrees/NAME` in a linked worktree).
    pub fn git_dir(&self) -> &Path {
        self.git.path()
    }

    /// The git directory shared by every worktree.
    pub fn common_dir(&self) -> &Path {
        self.git.commondir()
    }

    /// A second handle on the same repository, for another thread (a
    /// libgit2 handle is not shared between threads).
    pub fn reopen(&self) -> Result<Repo, git2::Error> {
        self.reopener().open()
    }

    /// What [`Repo::reopen`] needs, to open the second handle on the thread
    /// that uses it: an open reads the whole configuration again (libgit2
    /// checks the repository's format from it), which on a repository whose
    /// branches track remotes is most of an open.
    pub fn reopener(&self) -> Reopener {
        Reopener {
            git_dir: self.git_dir().to_path_buf(),
            root: self.root.clone(),
            index: Arc::clone(&self.index),
            config: Arc::clone(&self.config),
            spare: self.spare.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take(),
            own_state: self.own_state,
        }
    }

    /// This handle, for a repository read inside another (a submodule, a
    /// repository of its own under the working tree): majordomus's state
    /// is only ever at the root of the repository it runs in, so a
    /// `.ai/local/` here is this repository's content, read as git reads
    /// it (test/cases/533).
    pub fn inside_another(mut self) -> Repo {
        self.own_state = false;
        self
    }

    /// Whether a path under `.ai/local/` of this working tree, untracked,
    /// is majordomus's own state rather than content: only at the root of
    /// the repository majordomus runs in ([`Repo::inside_another`]).
    pub fn holds_own_state(&self) -> bool {
        self.own_state
    }

    /// The repository's configuration ([`Config`]), read on first use and
    /// then kept for this handle and the handles [`Repo::reopen`] made while
    /// the repository's own configuration files stay the same (as libgit2
    /// reads its files again when they change).
    pub fn config(&self) -> Reading<Arc<Config>> {
        let files = [self.common_dir().join("config"), self.git_dir().join("config.worktree")];
        let identity = files.map(|f| std::fs::metadata(f).ok().map(|m| FileIdentity::of(&m)));
        let mut held = self.config.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((was, config)) = held.as_ref() {
            if *was == identity {
                return config.clone();
            }
        }
        let config = Config::read(&self.git).map(Arc::new);
        *held = Some((identity, config.clone()));
        config
    }

    /// The index file, read directly ([`Index`]: a split index joined with
    /// its shared file, a sparse one expanded) and parsed once for as long
    /// as the file on disk stays the same version: the fingerprint and the
    /// status reading of one `check` share one parse of a file that is
    /// megabytes on a large repository. A rewritten index (a new inode, size
    /// or time) is read again. The parse is shared with the handles
    /// [`Repo::reopen`] made (one thread waits for the other's parse rather
    /// than holding a second copy of the entries: at 300,000 files each is
    /// 28 MB).
    pub fn index_file(&self) -> Result<Arc<Index>, Unsupported> {
        use std::os::unix::fs::MetadataExt;
        let path = self.git_dir().join("index");
        let (mut file, _) = crate::file::open(&path).map_err(|e| Unsupported(format!("cannot read the index: {e}")))?;
        let meta = file.metadata().map_err(|e| Unsupported(format!("cannot read the index: {e}")))?;
        let identity = FileIdentity::of(&meta);
        let mut held = self.index.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((was, index)) = held.as_ref() {
            if *was == identity {
                return Ok(Arc::clone(index));
            }
        }
        // Parsed as it is read: the file's bytes are never all held beside
        // the entries made of them (`index_file/parse.rs`).
        let mut index = Index::read_from(&mut file, meta.size(), Some(self.git_dir()))?;
        if index.sparse {
            index.expand_sparse(&self.git)?;
        }
        let index = Arc::new(index);
        *held = Some((identity, Arc::clone(&index)));
        Ok(index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use majordomus_testkit::TestRepo;

    #[test]
    fn a_reftable_repository_is_unreadable_with_that_reason_and_its_root() {
        let t = TestRepo::new();
        let dir = t.path().join("reftable");
        let made = t
            .git_command(t.path())
            .args(["init", "-q", "--ref-format=reftable", "reftable"])
            .output()
            .expect("run git");
        if !made.status.success() {
            // This git cannot make one; nothing to read.
            assert!(String::from_utf8_lossy(&made.stderr).contains("ref"), "{}", String::from_utf8_lossy(&made.stderr));
            return;
        }
        std::fs::create_dir_all(dir.join("src")).expect("mkdir");
        match open(&dir.join("src")) {
            Err(OpenError::Unreadable { root, reason }) => {
                assert_eq!(root, dir.canonicalize().expect("canonical"));
                assert!(reason.contains("reftable"), "{reason}");
            }
            other => panic!("expected an unreadable repository, got {other:?}"),
        }
    }

    #[test]
    fn the_index_is_parsed_once_until_git_writes_it_again() {
        let t = TestRepo::with_commit();
        let repo = open(t.path()).expect("open");
        let first = repo.index_file().expect("read");
        assert!(Arc::ptr_eq(&first, &repo.index_file().expect("read")), "an unchanged index is parsed again");
        t.write("added.txt", "a\n");
        t.git(&["add", "added.txt"]);
        let second = repo.index_file().expect("read");
        assert!(!Arc::ptr_eq(&first, &second), "a rewritten index is not read again");
        let other = repo.reopen().expect("reopen");
        assert!(Arc::ptr_eq(&second, &other.index_file().expect("read")), "a reopened handle shares the parse");
        assert!(second.entries.iter().any(|e| e.path(&second.paths) == b"added.txt"));
        assert!(!first.entries.iter().any(|e| e.path(&first.paths) == b"added.txt"));
    }

    type Open = fn(&Path) -> Result<Repo, OpenError>;

    /// Both ways to open: alone, and with a spare second handle.
    const OPENS: [Open; 2] = [open, open_with_spare];

    #[test]
    fn a_second_handle_opens_the_same_working_tree_in_a_linked_worktree_too() {
        let t = TestRepo::with_commit();
        let wt = t
            .path()
            .parent()
            .expect("parent")
            .join(format!("{}-linked", t.path().file_name().expect("name").to_string_lossy()));
        t.git(&["worktree", "add", "-q", "-b", "linked", wt.to_str().expect("utf8")]);
        for (dir, open) in [t.path().to_path_buf(), wt.clone()].into_iter().flat_map(|d| OPENS.map(|o| (d.clone(), o)))
        {
            let repo = open(&dir).expect("open");
            let again = repo.reopen().expect("reopen");
            assert_eq!(again.root(), repo.root());
            assert_eq!(again.git_dir(), repo.git_dir());
            assert!(repo.spare.lock().expect("lock").is_none(), "the spare is taken by the first reopen");
            let third = repo.reopen().expect("reopen again");
            assert_eq!((third.root(), third.git_dir()), (repo.root(), repo.git_dir()));
        }
        std::fs::remove_dir_all(wt).expect("cleanup");
    }

    #[test]
    fn a_separate_git_dir_has_the_working_tree_that_holds_its_git_file() {
        let base = tempfile::tempdir().expect("tempdir");
        let (gd, wt) = (base.path().join("gd"), base.path().join("wt"));
        let init = std::process::Command::new("git")
            .args(["init", "-q", "--separate-git-dir"])
            .args([&gd, &wt])
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .status()
            .expect("git init");
        assert!(init.success());
        std::fs::create_dir_all(wt.join("src")).expect("mkdir");
        for (from, open) in [wt.clone(), wt.join("src")].into_iter().flat_map(|d| OPENS.map(|o| (d.clone(), o))) {
            let repo = open(&from).expect("open");
            assert_eq!(repo.root(), wt.canonicalize().expect("canonical"), "from {}", from.display());
            let again = repo.reopen().expect("reopen");
            for r in [&repo, &again] {
                let workdir = r.git.workdir().expect("workdir").canonicalize().expect("canonical");
                assert_eq!(workdir, repo.root());
            }
        }
        // A linked worktree's `.git` file and a plain `.git` directory are read as before.
        let t = TestRepo::with_commit();
        assert_eq!(open(t.path()).expect("open").root(), t.path().canonicalize().expect("canonical"));
    }

    #[test]
    fn a_directory_outside_any_repository_is_not_one() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert!(matches!(open(dir.path()), Err(OpenError::NotARepository { .. })));
    }
}
