//! A fingerprint of HEAD and the index: what the stop hook compares to tell
//! whether an agent that was blocked changed anything before asking again.
//!
//! It is the commit HEAD names and a hash of the index's entries (path, blob,
//! mode, stage). It leaves out the index's stat data, so a `git status` that
//! merely refreshes the index file does not read as a change. Edits not yet
//! staged are not in it: the hook pairs it with the done line, which sees them.

use git2::{ErrorCode, ObjectType, Oid};

use crate::{Reading, Repo, Unread};

/// `head=<commit or unborn> index=<hash of the entries>`.
pub fn head_and_index(repo: &Repo) -> Reading<String> {
    let head = match repo.git.head() {
        Ok(h) => h.target().map_or_else(|| "unborn".to_string(), |o| o.to_string()),
        Err(e) if e.code() == ErrorCode::UnbornBranch || e.code() == ErrorCode::NotFound => "unborn".to_string(),
        Err(e) => return Err(Unread::git("HEAD", &e)),
    };
    let mut index = repo.git.index().map_err(|e| Unread::git("the index", &e))?;
    // The repository keeps its index loaded; read it again if the file changed.
    index.read(false).map_err(|e| Unread::git("the index", &e))?;
    let mut listing = Vec::new();
    for entry in index.iter() {
        let stage = (entry.flags >> 12) & 0x3;
        listing.extend_from_slice(&entry.path);
        listing.extend_from_slice(format!("\0{} {:o} {stage}\n", entry.id, entry.mode).as_bytes());
    }
    let hash = Oid::hash_object(ObjectType::Blob, &listing).map_err(|e| Unread::git("the index entries", &e))?;
    Ok(format!("head={head} index={hash}"))
}

#[cfg(test)]
mod tests {
    use majordomus_testkit::TestRepo;

    use super::head_and_index;

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
}
