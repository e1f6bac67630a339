//! Stash entries, read from the stash reflog (no mutable repository needed).

use crate::{Reading, Repo, Unread};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StashEntry {
    /// `stash@{N}`.
    pub index: usize,
    pub commit: String,
    pub message: String,
}

pub fn read(repo: &Repo) -> Reading<Vec<StashEntry>> {
    match repo.git.find_reference("refs/stash") {
        Ok(_) => {}
        Err(e) if e.code() == git2::ErrorCode::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Unread::git("refs/stash", &e)),
    }
    let log = repo.git.reflog("refs/stash").map_err(|e| Unread::git("the stash reflog", &e))?;
    Ok(log
        .iter()
        .enumerate()
        .map(|(index, entry)| StashEntry {
            index,
            commit: entry.id_new().to_string(),
            message: entry.message().unwrap_or("").to_string(),
        })
        .collect())
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
}
