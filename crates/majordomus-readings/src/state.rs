//! The operation in progress, if any: merge, rebase, cherry-pick, revert,
//! bisect or am.

use git2::RepositoryState as S;

use crate::{Reading, Repo};

/// The name of the operation in progress, `None` when there is none.
pub fn operation(repo: &Repo) -> Reading<Option<String>> {
    let name = match repo.git.state() {
        S::Clean => return Ok(None),
        S::Merge => "merge",
        S::Revert | S::RevertSequence => "revert",
        S::CherryPick | S::CherryPickSequence => "cherry-pick",
        S::Bisect => "bisect",
        S::Rebase | S::RebaseInteractive | S::RebaseMerge => "rebase",
        S::ApplyMailbox | S::ApplyMailboxOrRebase => "am",
    };
    Ok(Some(name.to_string()))
}

#[cfg(test)]
mod tests {
    use majordomus_testkit::TestRepo;

    #[test]
    fn a_conflicted_merge_is_a_merge_in_progress() {
        let clean = TestRepo::with_commit();
        assert_eq!(super::operation(&crate::open(clean.path()).expect("open")).expect("read"), None);
        let t = TestRepo::with_conflicted_merge("README");
        let repo = crate::open(t.path()).expect("open");
        assert_eq!(super::operation(&repo).expect("read").as_deref(), Some("merge"));
        let tree = crate::status::read(&repo).expect("status");
        assert_eq!(tree.conflicted, ["README"]);
    }
}
