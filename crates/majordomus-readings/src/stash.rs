//! Stash entries, read from the stash reflog (no mutable repository needed),
//! and from `refs/stash` itself: `git reflog expire --expire=now
//! refs/stash` empties `git stash list` while the ref still holds the
//! newest stash and `git stash pop` brings it back (test/cases/284), so a
//! ref whose commit the reflog does not name is an entry too.

use crate::{Reading, Repo, Unread};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StashEntry {
    /// `stash@{N}`.
    pub index: usize,
    pub commit: String,
    pub message: String,
}

pub fn read(repo: &Repo) -> Reading<Vec<StashEntry>> {
    read_git(&repo.git)
}

/// [`read`] of any repository (a submodule's, say).
pub fn read_git(git: &git2::Repository) -> Reading<Vec<StashEntry>> {
    let target = match git.find_reference("refs/stash") {
        Ok(r) => r.target(),
        Err(e) if e.code() == git2::ErrorCode::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Unread::git("refs/stash", &e)),
    };
    let log = git.reflog("refs/stash").map_err(|e| Unread::git("the stash reflog", &e))?;
    let mut entries: Vec<StashEntry> = log
        .iter()
        .enumerate()
        .map(|(index, entry)| StashEntry {
            index,
            commit: entry.id_new().to_string(),
            message: entry.message().unwrap_or("").to_string(),
        })
        .collect();
    if let Some(target) = target.filter(|t| entries.first().map_or(true, |e| e.commit != t.to_string())) {
        for e in &mut entries {
            e.index += 1;
        }
        let message = "refs/stash, which no line of its reflog names (the reflog expired or deleted)".to_string();
        entries.insert(0, StashEntry { index: 0, commit: target.to_string(), message });
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use majordomus_testkit::TestRepo;

    #[test]
    fn stashes_are_listed_newest_first() {
        let t = TestRepo::with_commit();
        let repo = crate::open(t.path()).expect("open");
        assert!(super::read(&repo).expect("read").is_empty());
        t.write("README", "one\n");
        t.git(&["stash", "push", "-q", "-m", "first"]);
        t.write("README", "two\n");
        t.git(&["stash", "push", "-q", "-m", "second"]);
        let stashes = super::read(&repo).expect("read");
        assert_eq!(stashes.len(), 2);
        assert!(stashes[0].message.contains("second"), "{:?}", stashes);
        assert_eq!(stashes[0].index, 0);
    }

    #[test]
    fn a_stash_whose_reflog_expired_is_still_listed_from_its_ref() {
        let t = TestRepo::with_commit();
        let repo = crate::open(t.path()).expect("open");
        t.write("README", "one\n");
        t.git(&["stash", "push", "-q", "-m", "first"]);
        t.git(&["reflog", "expire", "--expire=now", "refs/stash"]);
        let stashes = super::read(&repo).expect("read");
        let kept = t.git(&["rev-parse", "refs/stash"]);
        assert_eq!(stashes.len(), 1, "{stashes:?}");
        assert_eq!(stashes[0].commit, kept.trim());
        assert!(stashes[0].message.contains("reflog"), "{stashes:?}");
    }
}
