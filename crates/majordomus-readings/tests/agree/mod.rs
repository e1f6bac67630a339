//! The harness of `agree_with_git.rs`: a repository in a temporary
//! directory, git run beside majordomus's reading of it, and the two
//! answers compared after the deliberate differences (listed in
//! [`DELIBERATE`]) are taken out.

#![allow(clippy::unwrap_used, dead_code)]

pub mod random;
pub mod real;
pub mod states;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use majordomus_readings::status::WorkingTree;
use majordomus_records::RepoPath;

/// What majordomus's reading departs from `git status` in, on purpose;
/// the comparison takes these out (and only these), and the README's
/// "Agreement with git status" says why.
pub const DELIBERATE: &[&str] = &[
    "a path removed from the index but still on disk is listed by git twice (a staged deletion, and untracked); majordomus lists it once, as changed",
    "an intent-to-add entry's staged blob is the empty blob's id, which git's porcelain shows as zeros",
];

/// The empty blob's id.
const EMPTY_BLOB: &str = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391";

/// A home shared by every world of this test binary, set once before any
/// git or libgit2 runs: no user configuration, ignore or attributes file
/// of the machine's reaches either reader.
pub fn home() -> &'static Path {
    static HOME: OnceLock<PathBuf> = OnceLock::new();
    HOME.get_or_init(|| {
        let dir = tempfile::Builder::new().prefix("majordomus-agree-home-").tempdir().unwrap().keep();
        std::env::set_var("HOME", &dir);
        std::env::set_var("XDG_CONFIG_HOME", dir.join(".config"));
        std::env::remove_var("GIT_DIR");
        std::env::remove_var("GIT_WORK_TREE");
        dir
    })
}

/// One repository and the means to shape it.
#[derive(Debug)]
pub struct World {
    dir: tempfile::TempDir,
    pub name: String,
}

impl World {
    pub fn new(name: &str) -> World {
        home();
        let dir = tempfile::Builder::new().prefix("majordomus-agree-").tempdir().unwrap();
        let w = World { dir, name: name.to_string() };
        w.git(&["init", "-q", "-b", "main"]);
        w
    }

    /// A clone of the repository at `source` (its objects shared, not copied).
    pub fn clone_of(source: &str, name: &str) -> World {
        home();
        let dir = tempfile::Builder::new().prefix("majordomus-agree-").tempdir().unwrap();
        let w = World { dir, name: name.to_string() };
        w.git(&["clone", "-q", "--shared", source, "."]);
        w
    }

    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    pub fn command(&self, dir: &Path) -> Command {
        let mut cmd = Command::new("git");
        cmd.current_dir(dir);
        for (key, _) in std::env::vars_os() {
            if key.to_string_lossy().starts_with("GIT_") {
                cmd.env_remove(key);
            }
        }
        cmd.env("HOME", home())
            .env("XDG_CONFIG_HOME", home().join(".config"))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "A")
            .env("GIT_AUTHOR_EMAIL", "a@example.com")
            .env("GIT_COMMITTER_NAME", "A")
            .env("GIT_COMMITTER_EMAIL", "a@example.com");
        cmd
    }

    /// Runs git in the root; panics with its error when it fails.
    pub fn git(&self, args: &[&str]) -> String {
        self.git_in(self.root(), args)
    }

    pub fn git_in(&self, dir: &Path, args: &[&str]) -> String {
        let out = self.command(dir).args(args).output().unwrap();
        assert!(out.status.success(), "{}: git {args:?}: {}", self.name, String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Runs git in the root, whatever it answers (a change drawn at random
    /// may not apply).
    pub fn git_may_fail(&self, args: &[&str]) {
        let _ = self.command(self.root()).args(args).output().unwrap();
    }

    pub fn write(&self, rel: &str, content: impl AsRef<[u8]>) {
        let path = self.root().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        if path.symlink_metadata().is_ok_and(|m| m.is_dir() && !m.file_type().is_symlink()) {
            std::fs::remove_dir_all(&path).unwrap();
        } else if path.symlink_metadata().is_ok() {
            std::fs::remove_file(&path).unwrap();
        }
        std::fs::write(&path, content).unwrap();
    }

    pub fn remove(&self, rel: &str) {
        let path = self.root().join(rel);
        match path.symlink_metadata() {
            Ok(m) if m.is_dir() => std::fs::remove_dir_all(&path).unwrap(),
            Ok(_) => std::fs::remove_file(&path).unwrap(),
            Err(_) => {}
        }
    }

    pub fn symlink(&self, target: &str, rel: &str) {
        self.remove(rel);
        let path = self.root().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(target, path).unwrap();
    }

    pub fn chmod(&self, rel: &str, mode: u32) {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(self.root().join(rel), std::fs::Permissions::from_mode(mode)).unwrap();
    }

    /// Appends lines to the repository's own configuration file.
    pub fn config(&self, section: &str, key: &str, value: &str) {
        self.git(&["config", &format!("{section}.{key}"), value]);
    }

    pub fn commit_all(&self, message: &str) {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "--allow-empty", "--no-verify", "-m", message]);
    }

    /// Both readings, compared; `Err` describes every difference.
    pub fn compare(&self) -> Result<(), String> {
        let git = self.git_reading();
        let ours = self.our_reading()?;
        let read_anyway = self.content_of_the_deleted(&git)?;
        if git == ours && read_anyway.is_empty() {
            return Ok(());
        }
        Err(format!(
            "{}: git and majordomus disagree\n git:        {git:?}\n majordomus: {ours:?}\n content read of paths git reports deleted: {read_anyway:?}\n in {}",
            self.name,
            self.root().display()
        ))
    }

    /// The paths git reports gone from the working tree whose content
    /// majordomus's content reader (`status::content_id`, which the start
    /// snapshot, the inherited paths, the change set and gate inputs read
    /// through) still finds: it must reach a path as git does, never
    /// through a link in its leading directories.
    fn content_of_the_deleted(&self, git: &Answer) -> Result<Vec<RepoPath>, String> {
        let repo = majordomus_readings::open(self.root()).map_err(|e| e.to_string())?;
        Ok(git
            .changed
            .iter()
            .filter(|(path, (_, deleted))| *deleted && majordomus_readings::status::content_id(&repo, path).is_some())
            .map(|(path, _)| path.clone())
            .collect())
    }

    /// The disagreement, if any, as a sentence; a repository that
    /// disagrees is kept on disk for a look.
    pub fn disagreement(self) -> Option<String> {
        let e = self.compare().err()?;
        let kept = self.dir.keep();
        Some(format!("{e}\n(kept at {})", kept.display()))
    }

    /// majordomus's reading, in the comparison's terms.
    pub fn our_reading(&self) -> Result<Answer, String> {
        let repo = majordomus_readings::open(self.root()).map_err(|e| e.to_string())?;
        let tree = majordomus_readings::status::read(&repo).map_err(|e| format!("{}: unread: {e}", self.name))?;
        Ok(Answer::from_tree(&tree))
    }

    pub fn tree(&self) -> WorkingTree {
        let repo = majordomus_readings::open(self.root()).unwrap();
        majordomus_readings::status::read(&repo).unwrap()
    }

    /// `git status --porcelain=v2 -uall -z`, no fsmonitor, no renames, no
    /// index write, in the comparison's terms.
    pub fn git_reading(&self) -> Answer {
        let out = self
            .command(self.root())
            .args(["-c", "core.fsmonitor=false", "-c", "status.renames=false", "--no-optional-locks"])
            .args(["status", "--porcelain=v2", "-uall", "-z"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}: git status: {}", self.name, String::from_utf8_lossy(&out.stderr));
        Answer::from_porcelain(&out.stdout)
    }
}

/// One answer: each changed path with its staged blob and whether its file
/// is gone, the untracked paths, the conflicted paths.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Answer {
    pub changed: BTreeMap<RepoPath, (Option<String>, bool)>,
    pub untracked: BTreeSet<RepoPath>,
    pub conflicted: BTreeSet<RepoPath>,
}

impl Answer {
    pub fn from_tree(tree: &WorkingTree) -> Answer {
        Answer {
            changed: tree.dirty.iter().map(|d| (d.path.clone(), (d.index.clone(), d.deleted))).collect(),
            untracked: tree.untracked.iter().cloned().collect(),
            conflicted: tree.conflicted.iter().cloned().collect(),
        }
    }

    /// Paths are bytes: the porcelain's `-z` form names them unquoted, as
    /// they are, and so are they compared.
    fn from_porcelain(bytes: &[u8]) -> Answer {
        let mut a = Answer::default();
        let mut removed = BTreeSet::new();
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        let mut records = bytes.split(|c| *c == 0);
        while let Some(r) = records.next() {
            let fields: Vec<&[u8]> = r.splitn(2, |c| *c == b' ').collect();
            match text(fields[0]).as_str() {
                kind @ ("1" | "2") => {
                    let n = if kind == "1" { 8 } else { 9 };
                    let parts: Vec<&[u8]> = fields[1].splitn(n, |c| *c == b' ').collect();
                    let (xy, hi, path) = (text(parts[0]), text(parts[6]), RepoPath::from_bytes(parts[n - 1]));
                    let (xy, hi) = (xy.as_str(), hi.as_str());
                    if kind == "2" {
                        records.next();
                    }
                    let index = if xy == ".A" {
                        Some(EMPTY_BLOB.to_string())
                    } else {
                        Some(hi.to_string()).filter(|h| h.bytes().any(|c| c != b'0'))
                    };
                    if xy.starts_with('D') {
                        removed.insert(path.clone());
                    }
                    a.changed.insert(path, (index, xy.ends_with('D')));
                }
                "u" => {
                    let path = RepoPath::from_bytes(fields[1].splitn(10, |c| *c == b' ').nth(9).unwrap());
                    a.conflicted.insert(path);
                }
                "?" => {
                    a.untracked.insert(RepoPath::from_bytes(fields[1]));
                }
                "" | "#" | "!" => {}
                other => panic!("an unexpected porcelain record {other:?} in {:?}", text(r)),
            }
        }
        // The first deliberate difference.
        a.untracked.retain(|p| !removed.contains(p));
        a
    }
}

/// splitmix64: a small generator whose sequence a seed fixes.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// How many random worlds to build: `default`, or `MAJORDOMUS_AGREE_SEEDS`.
pub fn seeds(default: u64) -> u64 {
    std::env::var("MAJORDOMUS_AGREE_SEEDS").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}
