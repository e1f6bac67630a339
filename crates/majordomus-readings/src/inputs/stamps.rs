//! What the file system says of a gate's input files, to tell whether any
//! of them changed while the gate ran.
//!
//! `gate run` hashes the inputs before the command starts, and the verdict
//! is recorded against that hash. A file changed while the command runs and
//! put back before `check` looks (the fix copied in for the run, the broken
//! file restored after it; `git stash` and `git stash pop` around it) would
//! leave a verdict over content the command never saw, and a hash that
//! matches. Hashing again after the run does not close it: the content can
//! be put back before the command ends. The inode's change time can not be:
//! every write, rename, `chmod` or `touch` sets it to now, and no call sets
//! it back. So each input file's stamp (device, inode, size, modification
//! and change times, mode; of the path itself, and through every link on
//! the way, as `links.rs` hashes an input under a linked directory) is taken
//! between two readings of the inputs, the second the one the verdict
//! covers (the first tells which paths to stamp; a write before the stamps
//! makes the two differ, and `gate run` reads again), and again after the
//! command ends; any stamp that moved is an input that changed while the
//! gate ran, and no verdict is recorded. A file made and removed again
//! during the run leaves no stamp to compare (a limit the README states).

use std::os::unix::fs::MetadataExt;

use majordomus_records::RepoPath;

use crate::Repo;

/// One file's stamp: device, inode, size, modification and change times
/// (seconds and nanoseconds), mode.
type Stamp = (u64, u64, u64, i64, i64, i64, i64, u32);

/// The stamps of a gate's input files, by path (`None`: nothing there).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Stamps(Vec<(String, Option<Stamp>, Option<Stamp>)>);

fn stamp(meta: &std::fs::Metadata) -> Stamp {
    (meta.dev(), meta.ino(), meta.size(), meta.mtime(), meta.mtime_nsec(), meta.ctime(), meta.ctime_nsec(), meta.mode())
}

impl Stamps {
    /// The stamps of `paths` (repository-relative), as the working tree
    /// holds them now: of each path itself, and of what a link there leads to.
    pub fn take(repo: &Repo, paths: &[String]) -> Self {
        Self(
            paths
                .iter()
                .map(|p| {
                    let rel = RepoPath::parse(p);
                    let full = crate::file::in_tree(repo.root(), &rel);
                    let own = full.as_ref().and_then(|f| std::fs::symlink_metadata(f).ok()).map(|m| stamp(&m));
                    // Through every link on the way: an input reached under a
                    // linked directory is hashed through it (`links.rs`).
                    let through = std::fs::metadata(rel.under(repo.root())).ok().map(|m| stamp(&m));
                    (p.clone(), own, through)
                })
                .collect(),
        )
    }

    /// The paths whose stamp differs in `later`, taken of the same paths.
    pub fn moved_in(&self, later: &Stamps) -> Vec<String> {
        self.0.iter().zip(&later.0).filter(|(a, b)| a != b).map(|(a, _)| a.0.clone()).collect()
    }

    /// The paths stamped.
    pub fn paths(&self) -> Vec<String> {
        self.0.iter().map(|(p, _, _)| p.clone()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use majordomus_testkit::TestRepo;

    #[test]
    fn a_file_written_and_put_back_moves_its_stamp_and_one_left_alone_does_not() {
        let t = TestRepo::with_commit();
        t.write("src/a.rs", "broken\n");
        t.write("src/b.rs", "kept\n");
        let repo = crate::open(t.path()).expect("open");
        let paths = vec!["src/a.rs".to_string(), "src/b.rs".to_string(), "src/gone.rs".to_string()];
        let before = Stamps::take(&repo, &paths);
        assert!(before.moved_in(&Stamps::take(&repo, &paths)).is_empty());
        // A file's times move by the kernel's clock tick (1-10 ms): past one,
        // the writes below are stamped apart from the one before.
        std::thread::sleep(std::time::Duration::from_millis(30));
        t.write("src/a.rs", "fixed\n");
        t.write("src/a.rs", "broken\n");
        assert_eq!(before.moved_in(&Stamps::take(&repo, &paths)), ["src/a.rs"]);

        // Under a linked directory: stamped through the link.
        t.write("vendor/lib.rs", "broken\n");
        std::os::unix::fs::symlink("../vendor", t.path().join("src/vendor")).expect("link");
        let linked = vec!["src/vendor/lib.rs".to_string()];
        let before = Stamps::take(&repo, &linked);
        std::thread::sleep(std::time::Duration::from_millis(30));
        t.write("vendor/lib.rs", "fixed\n");
        t.write("vendor/lib.rs", "broken\n");
        assert_eq!(before.moved_in(&Stamps::take(&repo, &linked)), ["src/vendor/lib.rs"]);
    }
}
