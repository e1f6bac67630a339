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
        let t = TestRepo::with_commit();
        let repo = crate::open(t.path()).expect("open");
        assert_eq!(super::operation(&repo).expect("read"), None);
        t.git(&["checkout", "-q", "-b", "side"]);
        t.write("README", "side\n");
        t.commit_all("side");
        t.git(&["checkout", "-q", "main"]);
        t.write("README", "main\n");
        t.commit_all("main");
        let out = t.git_command(t.path()).args(["merge", "side"]).output().expect("run");
        assert!(!out.status.success());
        assert_eq!(super::operation(&repo).expect("read").as_deref(), Some("merge"));
        let tree = crate::status::read(&repo).expect("status");
        assert_eq!(tree.conflicted, ["README"]);
    }
}
