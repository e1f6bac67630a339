//! Fingerprints of the repository's state, cheap to take, for telling
//! whether anything moved since an earlier look.
//!
//! [`head_and_index`] is the commit HEAD names and a hash of the index's
//! entries (path, blob, mode, stage): what the stop hook compares to tell
//! whether an agent that was blocked changed anything before asking again.
//! It leaves out the index's stat data, so a `git status` that merely
//! refreshes the index file does not read as a change. Edits not yet staged
//! are not in it: the hook pairs it with [`worktree`], a hash of what the
//! working tree holds at the paths the invariant found dirty or untracked,
//! so that an unstaged edit to a file already dirty reads as a change too.
//!
//! [`Fingerprint`] (from [`read`]) is kept with a completion document so
//! that a reader of the cached document (`score --cached`, a status line)
//! can tell, without measuring anything, whether HEAD, the index or the refs
//! moved since: if they did, the cached number is stale and says so. It is
//! HEAD, the index file's modification time and size, and the newest
//! modification under the refs; a tripwire, not a measurement.

use std::path::Path;
use std::time::UNIX_EPOCH;

use serde::{Deserialize, Serialize};

use std::hash::{Hash, Hasher};

use git2::ErrorCode;

use crate::{Reading, Repo, Unread};

/// `head=<commit or unborn> index=<hash of the entries>`.
pub fn head_and_index(repo: &Repo) -> Reading<String> {
    let head = match repo.git.head() {
        Ok(h) => h.target().map_or_else(|| "unborn".to_string(), |o| o.to_string()),
        Err(e) if e.code() == ErrorCode::UnbornBranch || e.code() == ErrorCode::NotFound => "unborn".to_string(),
        Err(e) => return Err(Unread::git("HEAD", &e)),
    };
    // The index file read directly (no checksum pass; the parse the status
    // reading shares), else through libgit2; hashed with a fast hasher: a
    // tripwire, not a content address.
    let mut hasher = std::hash::BuildHasher::build_hasher(&foldhash::fast::FixedState::with_seed(0));
    match repo.index_file() {
        Ok(index) => {
            for e in &index.entries {
                (e.path(&index.paths), e.id.as_bytes(), e.mode, e.stage).hash(&mut hasher);
            }
        }
        Err(_) => {
            let mut index = repo.git.index().map_err(|e| Unread::git("the index", &e))?;
            // The repository keeps its index loaded; read it again if the file changed.
            index.read(false).map_err(|e| Unread::git("the index", &e))?;
            for e in index.iter() {
                (&e.path, e.id.as_bytes(), e.mode, ((e.flags >> 12) & 0x3) as u8).hash(&mut hasher);
            }
        }
    }
    let hash = format!("{:016x}", hasher.finish());
    Ok(format!("head={head} index={hash}"))
}

/// Files larger than this are hashed by size and modification time, not content.
const CONTENT_LIMIT: u64 = 4 << 20;

/// Past this many bytes read in one [`worktree`], the rest is hashed by size
/// and modification time: a tripwire must stay cheap.
const CONTENT_BUDGET: u64 = 64 << 20;

/// A hash of what the working tree holds at `paths` (relative to `root`,
/// `/`-separated; order and repeats do not matter): for each, whether it is
/// there and what kind it is, a file's size and content (size and
/// modification time past 4 MiB, or once 64 MiB were read), a symlink's
/// target, a FIFO's, socket's or device's kind alone (a FIFO is never
/// opened: that would wait for a writer). Nothing fails: what cannot be read is hashed as the error's
/// kind, so it reads as a change only if that changes. Reading a file runs
/// nothing the repository controls.
pub fn worktree<S: AsRef<str>>(root: &Path, paths: &[S]) -> String {
    let mut sorted: Vec<&str> = paths.iter().map(AsRef::as_ref).collect();
    sorted.sort_unstable();
    sorted.dedup();
    let mut hasher = std::hash::BuildHasher::build_hasher(&foldhash::fast::FixedState::with_seed(0));
    let mut read = 0u64;
    for rel in sorted {
        rel.hash(&mut hasher);
        let path = root.join(rel);
        let meta = match std::fs::symlink_metadata(&path) {
            Ok(m) => m,
            Err(e) => {
                ("missing", e.kind().to_string()).hash(&mut hasher);
                continue;
            }
        };
        if meta.file_type().is_symlink() {
            ("symlink", std::fs::read_link(&path).ok()).hash(&mut hasher);
        } else if meta.is_dir() {
            // A dirty submodule or a nested repository: its stamp only.
            ("dir", mtime_ns(&meta)).hash(&mut hasher);
        } else if !meta.is_file() {
            // A FIFO, socket or device: its kind only (a FIFO is never opened).
            let kind = rustix::fs::FileType::from_raw_mode(std::os::unix::fs::MetadataExt::mode(&meta));
            ("special", crate::file::kind_name(kind)).hash(&mut hasher);
        } else if meta.len() <= CONTENT_LIMIT && read + meta.len() <= CONTENT_BUDGET {
            read += meta.len();
            match crate::file::read(&path) {
                Ok(bytes) => ("file", bytes).hash(&mut hasher),
                Err(crate::file::FileError::Io { source, .. }) => {
                    ("unreadable", source.kind().to_string()).hash(&mut hasher)
                }
                // Swapped for something else since the look above.
                Err(crate::file::FileError::NotRegular { kind, .. }) => ("special", kind).hash(&mut hasher),
                // Grown past what is read whole since the look above.
                Err(crate::file::FileError::TooLarge { size, .. }) => {
                    ("stamped", size, mtime_ns(&meta)).hash(&mut hasher)
                }
            }
        } else {
            ("stamped", meta.len(), mtime_ns(&meta)).hash(&mut hasher);
        }
    }
    format!("{:016x}", hasher.finish())
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprint {
    /// HEAD's commit (`None`: unborn or unreadable).
    pub head: Option<String>,
    /// What HEAD names: a branch's ref, or `None` when detached.
    pub head_ref: Option<String>,
    pub index: Option<Stamp>,
    /// [`head_and_index`] when it was taken: a changed index stamp whose
    /// entries are the same (a `git status` refreshing stat data) is no move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index_entries: Option<String>,
    pub packed_refs: Option<Stamp>,
    /// The newest modification time (ns since the epoch) of anything under
    /// the common `refs/` directory, directories included.
    pub refs_mtime_ns: Option<u64>,
}

/// A file's modification time (ns since the epoch) and size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stamp {
    pub mtime_ns: u64,
    pub size: u64,
}

fn stamp(path: &Path) -> Option<Stamp> {
    let meta = std::fs::metadata(path).ok()?;
    Some(Stamp { mtime_ns: mtime_ns(&meta)?, size: meta.len() })
}

fn mtime_ns(meta: &std::fs::Metadata) -> Option<u64> {
    let d = meta.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
    u64::try_from(d.as_nanos()).ok()
}

fn newest_under(dir: &Path) -> Option<u64> {
    newest_under_but(dir, &[])
}

/// [`newest_under`], leaving out the directories `skip` names in `dir`
/// where they are ones.
fn newest_under_but(dir: &Path, skip: &[&str]) -> Option<u64> {
    let mut newest = mtime_ns(&std::fs::metadata(dir).ok()?)?;
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let Ok(kind) = entry.file_type() else { continue };
        if kind.is_dir() && skip.iter().any(|s| entry.file_name() == *s) {
            continue;
        }
        let t =
            if kind.is_dir() { newest_under(&entry.path()) } else { entry.metadata().ok().as_ref().and_then(mtime_ns) };
        newest = newest.max(t.unwrap_or(0));
    }
    Some(newest)
}

/// Takes the fingerprint, the index's entries included. Nothing here fails:
/// a part that cannot be read is `None`, and a `None` that later reads
/// otherwise counts as moved.
pub fn read(repo: &Repo) -> Fingerprint {
    Fingerprint { index_entries: head_and_index(repo).ok(), ..read_cheap(repo) }
}

/// The fingerprint without the index's entries: stats and HEAD only.
pub fn read_cheap(repo: &Repo) -> Fingerprint {
    Fingerprint { refs_mtime_ns: newest_under(&repo.common_dir().join("refs")), ..read_cheap_refless(repo) }
}

/// [`read_cheap`] but for the files under `refs/heads` and
/// `refs/remotes`, which the readings of the branches and of the
/// remote-tracking refs stat one by one anyway ([`crate::refs::local`]):
/// their newest times are added with [`Fingerprint::with_walked`], and the
/// two together are what [`read_cheap`] reads.
pub fn read_cheap_but_walked(repo: &Repo) -> Fingerprint {
    Fingerprint {
        refs_mtime_ns: newest_under_but(&repo.common_dir().join("refs"), &WALKED),
        ..read_cheap_refless(repo)
    }
}

/// The directories under `refs/` whose newest times the ref readings take.
const WALKED: [&str; 2] = ["heads", "remotes"];

fn read_cheap_refless(repo: &Repo) -> Fingerprint {
    let head = repo.git.find_reference("HEAD").ok();
    Fingerprint {
        head: repo.git.head().ok().and_then(|h| h.target()).map(|o| o.to_string()),
        head_ref: head.and_then(|h| h.symbolic_target().map(str::to_string)),
        index: stamp(&repo.git_dir().join("index")),
        index_entries: None,
        packed_refs: stamp(&repo.common_dir().join("packed-refs")),
        refs_mtime_ns: None,
    }
}

impl Fingerprint {
    /// A fingerprint from [`read_cheap_but_walked`] completed with the
    /// newest times under `refs/heads` and `refs/remotes` (`walked`, in
    /// [`WALKED`]'s order: from the readings of the branches and of the
    /// remote-tracking refs), each, where that was not read, with its
    /// directory walked here.
    pub fn with_walked(self, repo: &Repo, walked: [Option<u64>; 2]) -> Fingerprint {
        let mut newest = self.refs_mtime_ns;
        for (name, read) in WALKED.iter().zip(walked) {
            let read = read.or_else(|| {
                let dir = repo.common_dir().join("refs").join(name);
                std::fs::symlink_metadata(&dir).ok().filter(std::fs::Metadata::is_dir).and_then(|_| newest_under(&dir))
            });
            newest = newest.map(|n| n.max(read.unwrap_or(0)));
        }
        Fingerprint { refs_mtime_ns: newest, ..self }
    }

    /// What moved between `self` (then) and `now`, named.
    pub fn moved(&self, now: &Fingerprint) -> Vec<&'static str> {
        let mut out = Vec::new();
        if self.head != now.head || self.head_ref != now.head_ref {
            out.push("HEAD");
        }
        let same_entries = matches!((&self.index_entries, &now.index_entries), (Some(a), Some(b)) if a == b);
        if self.index != now.index && !same_entries {
            out.push("the index");
        }
        if self.packed_refs != now.packed_refs || self.refs_mtime_ns != now.refs_mtime_ns {
            out.push("the refs");
        }
        out
    }

    /// What moved since `self` was taken, read from the repository now: the
    /// cheap parts first, the index's entries only if its file changed.
    pub fn moved_in(&self, repo: &Repo) -> Vec<&'static str> {
        let mut now = read_cheap(repo);
        if self.index != now.index && self.index_entries.is_some() {
            now.index_entries = head_and_index(repo).ok();
        }
        self.moved(&now)
    }
}

#[cfg(test)]
mod tests {
    use majordomus_testkit::TestRepo;

    use super::*;

    #[test]
    fn staging_and_committing_change_the_fingerprint_and_a_status_does_not() {
        let t = TestRepo::with_commit();
        let repo = crate::open(t.path()).expect("open");
        let start = head_and_index(&repo).expect("read");
        t.git(&["status", "--porcelain"]);
        assert_eq!(head_and_index(&repo).expect("read"), start);

        t.write("README", "changed\n");
        assert_eq!(head_and_index(&repo).expect("read"), start, "an unstaged edit is the done line's to see");
        t.git(&["add", "README"]);
        let staged = head_and_index(&repo).expect("read");
        assert_ne!(staged, start);

        t.git(&["commit", "-q", "-m", "change"]);
        let committed = head_and_index(&repo).expect("read");
        assert_ne!(committed, staged);
        assert!(committed.starts_with(&format!("head={}", t.head())), "{committed}");
    }

    #[test]
    fn an_unborn_head_has_a_fingerprint_too() {
        let t = TestRepo::new();
        let repo = crate::open(t.path()).expect("open");
        assert!(head_and_index(&repo).expect("read").starts_with("head=unborn index="));
    }

    #[test]
    fn a_commit_a_staged_file_and_a_new_branch_each_move_the_fingerprint() {
        let t = TestRepo::with_commit();
        let repo = crate::open(t.path()).expect("open");
        let first = read(&repo);
        assert!(first.moved(&read(&repo)).is_empty(), "nothing happened, yet it moved");
        // Modification times can be coarse: step past them.
        std::thread::sleep(std::time::Duration::from_millis(20));
        t.write("a.txt", "a\n");
        t.git(&["add", "a.txt"]);
        let staged = read(&repo);
        assert_eq!(first.moved(&staged), ["the index"]);
        t.git(&["commit", "-q", "-m", "a"]);
        assert!(staged.moved(&read(&repo)).contains(&"HEAD"));
        let committed = read(&repo);
        std::thread::sleep(std::time::Duration::from_millis(20));
        t.git(&["branch", "side"]);
        assert_eq!(committed.moved(&read(&repo)), ["the refs"]);
    }

    #[test]
    fn an_index_file_rewritten_with_the_same_entries_does_not_move_it() {
        let t = TestRepo::with_commit();
        let repo = crate::open(t.path()).expect("open");
        let first = read(&repo);
        std::thread::sleep(std::time::Duration::from_millis(20));
        // What a stat refresh does: the same entries, a new file.
        let index = t.path().join(".git/index");
        let bytes = std::fs::read(&index).expect("read the index");
        std::fs::write(&index, bytes).expect("rewrite the index");
        assert!(first.moved_in(&repo).is_empty(), "{:?}", first.moved_in(&repo));
        t.write("b.txt", "b\n");
        t.git(&["add", "b.txt"]);
        assert_eq!(first.moved_in(&repo), ["the index"]);
    }

    #[test]
    fn an_edit_an_addition_or_a_removal_at_the_named_paths_changes_the_worktree_hash_and_a_touch_does_not() {
        let t = TestRepo::with_commit();
        t.write("README", "dirty\n");
        t.write("notes.txt", "one\n");
        let named = ["README", "notes.txt", "gone.txt"];
        let start = worktree(t.path(), &named);
        assert_eq!(worktree(t.path(), &["gone.txt", "notes.txt", "README", "README"]), start, "order and repeats");
        let bytes = std::fs::read(t.path().join("README")).expect("read");
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(t.path().join("README"), bytes).expect("rewrite");
        assert_eq!(worktree(t.path(), &named), start, "the same content rewritten");

        t.write("README", "dirty\nand more\n");
        let appended = worktree(t.path(), &named);
        assert_ne!(appended, start, "an unstaged edit to a file already dirty");
        t.write("notes.txt", "two\n");
        let edited = worktree(t.path(), &named);
        assert_ne!(edited, appended, "an edit of the same size to an untracked file");
        t.write("gone.txt", "");
        assert_ne!(worktree(t.path(), &named), edited, "a file appearing where none was");
        assert_ne!(worktree(t.path(), &["README"]), worktree(t.path(), &["README", "notes.txt"]), "another path named");
    }

    #[test]
    fn an_unstaged_edit_does_not_move_it() {
        let t = TestRepo::with_commit();
        let repo = crate::open(t.path()).expect("open");
        let first = read(&repo);
        t.write("README", "edited\n");
        assert!(first.moved(&read(&repo)).is_empty());
    }
}
