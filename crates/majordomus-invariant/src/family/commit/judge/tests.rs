//! The commit family judged over readings handed in directly.

use majordomus_readings::refs::submodules::{OnRemote, Submodule, There};
use majordomus_readings::refs::{BranchWork, Elsewhere, Made, Push, RemoteEvidence, SetAside, Tracking};
use majordomus_readings::stash::StashEntry;
use majordomus_readings::state::{InProgress, Operation};
use majordomus_readings::status::{Dirty, WorkingTree};
use majordomus_readings::{changes::ChangeSet, Unread};
use majordomus_records::task::{TaskState, UntrackedPath};

use crate::answer::Status;
use crate::fixtures::{all_well, answer, record};

#[test]
fn inherited_dirty_files_are_named_not_counted() {
    let mut r = all_well();
    r.tree = Ok(WorkingTree {
        dirty: vec![
            Dirty { path: "old.txt".into(), index: None, deleted: false },
            Dirty { path: "new.txt".into(), index: None, deleted: false },
        ],
        ..WorkingTree::default()
    });
    r.commit.inherited_dirty = Ok(["old.txt".into()].into());
    let a = answer(&r, "committed");
    assert_eq!(a.status, Status::Owed);
    assert_eq!(a.details["uncommitted"], serde_json::json!(["new.txt"]));
    assert!(a.evidence.contains("not counted: old.txt"), "{}", a.evidence);
    r.commit.inherited_dirty = Ok(["old.txt".into(), "new.txt".into()].into());
    assert_eq!(answer(&r, "committed").status, Status::Pass);
}

/// An intent to add whose file is gone is named as such; alone, its
/// remedy drops the intent (`git commit -- PATH` refuses it); beside
/// another path the commit naming both drops it (test/cases/590).
#[test]
fn an_intent_to_add_whose_file_is_gone_is_dropped_not_committed() {
    let mut r = all_well();
    r.changes = Ok(ChangeSet { changed: vec!["a.txt".into()], ..ChangeSet::default() });
    r.tree = Ok(WorkingTree {
        dirty: vec![Dirty { path: "notes.rs".into(), index: Some("e".repeat(40)), deleted: true }],
        intent_gone: vec!["notes.rs".into()],
        ..WorkingTree::default()
    });
    let a = answer(&r, "committed");
    assert_eq!(a.status, Status::Owed);
    assert_eq!(a.evidence, "1 intent to add (git add -N) whose file is gone remains in the index: notes.rs.");
    assert_eq!(a.remedy, "git rm --cached -q -- notes.rs");
    if let Ok(tree) = &mut r.tree {
        tree.dirty.insert(0, Dirty { path: "a.txt".into(), index: None, deleted: false });
    }
    let a = answer(&r, "committed");
    assert!(
        a.evidence.starts_with("1 tracked file changed since the start is not committed: a.txt; 1 intent"),
        "{}",
        a.evidence
    );
    assert_eq!(a.remedy, "git commit -- a.txt notes.rs");
}

#[test]
fn an_uncommitted_file_whose_content_is_as_at_the_start_is_not_counted_as_changed_since_the_start() {
    // a.txt edited; b.txt dirty at the start and only staged since: both
    // uncommitted, but only a.txt is in the change set.
    let mut r = all_well();
    r.changes =
        Ok(ChangeSet { changed: vec!["a.txt".into()], inherited: vec!["b.txt".into()], ..ChangeSet::default() });
    r.tree = Ok(WorkingTree {
        dirty: vec![
            Dirty { path: "a.txt".into(), index: None, deleted: false },
            Dirty { path: "b.txt".into(), index: Some("c".repeat(40)), deleted: false },
        ],
        ..WorkingTree::default()
    });
    let a = answer(&r, "committed");
    assert_eq!(a.status, Status::Owed);
    assert_eq!(
        a.evidence,
        "1 tracked file changed since the start is not committed: a.txt; \
         1 tracked file whose content is what it was at the start differs from HEAD, not committed: b.txt."
    );
    assert_eq!(a.details["content_as_at_start"], serde_json::json!(["b.txt"]));
    assert_eq!(
        answer(&r, "regression-tested").evidence,
        "None of the 1 path changed since the start is a test path or holds an added or edited test item \
         (majordomus explain regression-tested lists what counts here)."
    );
    // The change set unread: every uncommitted file is said as before.
    r.changes = Err(Unread::io("the test took no reading"));
    let a = answer(&r, "committed");
    assert!(
        a.evidence.starts_with("2 tracked files changed since the start are not committed: a.txt, b.txt"),
        "{}",
        a.evidence
    );
}

#[test]
fn untracked_files_present_at_the_start_are_inherited() {
    let mut r = all_well();
    let mut t = record();
    t.snapshot.untracked = Some(vec![UntrackedPath { path: "scratch.txt".into(), worktree: None, mode: None }]);
    r.task = TaskState::Active(Box::new(t));
    r.commit.inherited_untracked = Ok(Some(["scratch.txt".into()].into()));
    r.tree = Ok(WorkingTree { untracked: vec!["scratch.txt".into()], ..WorkingTree::default() });
    assert_eq!(answer(&r, "no-untracked").status, Status::Pass);
    r.tree = Ok(WorkingTree { untracked: vec!["scratch.txt".into(), "new.log".into()], ..WorkingTree::default() });
    let a = answer(&r, "no-untracked");
    assert_eq!(a.status, Status::Owed);
    assert_eq!(a.details["untracked"], serde_json::json!(["new.log"]));
}

#[test]
fn an_untracked_file_of_the_start_whose_content_changed_is_the_tasks_work() {
    let mut r = all_well();
    let mut t = record();
    t.snapshot.untracked = Some(vec![UntrackedPath { path: "notes.rs".into(), worktree: None, mode: None }]);
    r.task = TaskState::Active(Box::new(t));
    // The reading found it, but not with the start's content: not inherited.
    r.commit.inherited_untracked = Ok(Some(Default::default()));
    r.tree = Ok(WorkingTree { untracked: vec!["notes.rs".into()], ..WorkingTree::default() });
    let a = answer(&r, "no-untracked");
    assert_eq!(a.status, Status::Owed);
    assert!(a.evidence.contains("notes.rs (untracked at the start, its content changed since)"), "{}", a.evidence);
    assert_eq!(a.details["changed_since_the_start"], serde_json::json!(["notes.rs"]));
}

#[test]
fn a_record_without_an_untracked_snapshot_leaves_no_untracked_unknown() {
    let mut r = all_well();
    r.commit.inherited_untracked = Ok(None);
    r.tree = Ok(WorkingTree { untracked: vec!["new.log".into()], ..WorkingTree::default() });
    assert_eq!(answer(&r, "no-untracked").status, Status::Unknown);
}

#[test]
fn a_path_git_hides_by_a_bit_or_rule_set_since_the_start_is_counted_and_says_why() {
    use majordomus_readings::status::{Dirty, Governed, HiddenBy, Overruled, Why};
    let mut r = all_well();
    r.tree = Ok(WorkingTree {
        dirty: vec![Dirty { path: "src/lib.rs".into(), index: Some("a".repeat(40)), deleted: false }],
        untracked: vec!["src/work.rs".into()],
        overruled: vec![
            Overruled { path: "src/lib.rs".into(), why: Why::Bit(HiddenBy::SkipWorktree) },
            Overruled { path: "src/work.rs".into(), why: Why::IgnoredSince(".git/info/exclude".into()) },
        ],
        governed: vec![Governed {
            what: "core.fileMode".into(),
            how: "was set to \"false\" since the start".into(),
            of: majordomus_readings::status::Of::Tracked,
        }],
        ..WorkingTree::default()
    });
    r.changes = Ok(majordomus_readings::changes::ChangeSet {
        changed: vec!["src/lib.rs".into(), "src/work.rs".into()],
        ..majordomus_readings::changes::ChangeSet::default()
    });
    let a = answer(&r, "committed");
    assert_eq!(a.status, Status::Owed);
    assert!(a.evidence.contains("src/lib.rs (its skip-worktree bit was not set at the start)"), "{}", a.evidence);
    assert!(a.evidence.contains("core.fileMode was set to \"false\" since the start"), "{}", a.evidence);
    let a = answer(&r, "no-untracked");
    assert_eq!(a.status, Status::Owed);
    assert!(a.evidence.contains("src/work.rs (ignored by a rule in .git/info/exclude"), "{}", a.evidence);
    assert_eq!(a.details["shown_though_git_hides"][0]["path"], "src/work.rs");
}

#[test]
fn a_stash_made_during_the_task_is_owed_with_its_exact_ref() {
    let mut r = all_well();
    r.commit.stashes = Ok(vec![StashEntry { index: 0, commit: "c".repeat(40), message: "On main: wip".into() }]);
    let a = answer(&r, "no-stash");
    assert_eq!(a.status, Status::Owed);
    assert!(a.remedy.contains("stash@{0}"), "{}", a.remedy);
    let mut t = record();
    t.snapshot.stashes = Some(vec!["c".repeat(40)]);
    r.task = TaskState::Active(Box::new(t));
    assert_eq!(answer(&r, "no-stash").status, Status::Pass);
}

#[test]
fn a_snapshot_without_the_untracked_files_is_unknown_not_an_empty_set() {
    let mut r = all_well();
    let mut t = record();
    t.snapshot.untracked = None;
    r.task = TaskState::Active(Box::new(t));
    assert_eq!(answer(&r, "no-untracked").status, Status::Unknown);
}

#[test]
fn an_operation_in_progress_or_a_conflict_is_owed() {
    let mut r = all_well();
    let rebase = InProgress { operation: Operation::Rebase, shown_by: "rebase-merge" };
    r.commit.operations = Ok(vec![rebase]);
    let a = answer(&r, "settled");
    assert_eq!(a.status, Status::Owed);
    assert!(a.remedy.contains("git rebase --continue"), "{}", a.remedy);
    r.commit.operations = Ok(vec![]);
    r.tree = Ok(WorkingTree { conflicted: vec!["a.txt".into()], ..WorkingTree::default() });
    assert_eq!(answer(&r, "settled").status, Status::Owed);
}

#[test]
fn a_sequence_left_in_the_sequencer_is_owed_and_says_so() {
    let mut r = all_well();
    let pick = InProgress { operation: Operation::CherryPick, shown_by: "sequencer/todo" };
    let bisect = InProgress { operation: Operation::Bisect, shown_by: "BISECT_LOG" };
    r.commit.operations = Ok(vec![pick, bisect]);
    let a = answer(&r, "settled");
    assert_eq!(a.status, Status::Owed);
    assert!(a.evidence.contains("cherry-pick sequence") && a.evidence.contains("sequencer/todo"), "{}", a.evidence);
    assert!(a.evidence.contains("a bisect is in progress"), "{}", a.evidence);
    assert!(a.remedy.contains("git cherry-pick --continue") && a.remedy.contains("git bisect reset"), "{}", a.remedy);
}

#[test]
fn commits_unpushed_at_the_start_are_inherited_and_new_ones_owed() {
    let mut r = all_well();
    r.commit.push = Ok(Push::Measured {
        against: "refs/remotes/origin/main".into(),
        how: "its upstream".into(),
        commits: vec!["d".repeat(40), "e".repeat(40)],
        count: 2,
        since_start: Some((vec!["d".repeat(40)], 1)),
    });
    let a = answer(&r, "pushed");
    assert_eq!(a.status, Status::Owed);
    assert!(a.evidence.starts_with("1 commit on HEAD is not on origin/main"), "{}", a.evidence);
    assert!(
        a.evidence.contains("1 commit already unpushed at the start, not counted: eeeeeeeeeeee)"),
        "{}",
        a.evidence
    );
    r.commit.push = Ok(Push::NoRemote);
    assert_eq!(answer(&r, "pushed").status, Status::Exempt);
}

#[test]
fn commits_unpushed_at_the_start_are_named_the_first_few_and_the_rest_counted() {
    let mut r = all_well();
    let old: Vec<String> = (0..7).map(|n| format!("{n}").repeat(40)).collect();
    r.commit.push = Ok(Push::Measured {
        against: "refs/remotes/origin/main".into(),
        how: "its upstream".into(),
        commits: old.clone(),
        count: 7,
        since_start: Some((vec![], 0)),
    });
    let a = answer(&r, "pushed");
    assert_eq!(a.status, Status::Pass);
    assert!(
        a.evidence.contains(
            "(7 commits already unpushed at the start, not counted: 000000000000, 111111111111, 222222222222, 333333333333, 444444444444 and 2 more)"
        ),
        "{}",
        a.evidence
    );
}

#[test]
fn work_left_on_another_branch_or_in_a_submodule_is_owed_and_named() {
    let mut r = all_well();
    let topic = BranchWork { branch: "topic".into(), commits: vec!["d".repeat(40)], count: 1, made: Made::BranchMoved };
    r.commit.elsewhere = Ok(Elsewhere { branches: vec![topic], ..Elsewhere::default() });
    let a = answer(&r, "pushed");
    assert_eq!(a.status, Status::Owed);
    assert!(
        a.evidence.contains("The branch topic holds 1 commit this worktree made since the start"),
        "{}",
        a.evidence
    );
    assert!(a.evidence.contains("dddddddddddd"), "{}", a.evidence);
    r.commit.elsewhere = Ok(Elsewhere::default());
    let lib = |on_remote| Submodule { path: "lib".into(), commit: "e".repeat(40), on_remote, at: None };
    r.commit.submodules = Ok(vec![lib(OnRemote::Missing)]);
    let a = answer(&r, "pushed");
    assert_eq!(a.status, Status::Owed);
    assert!(a.evidence.contains("ubmodule lib points at eeeeeeeeeeee, which none of lib's"), "{}", a.evidence);
    r.commit.submodules = Ok(vec![lib(OnRemote::Held("refs/remotes/origin/main".into()))]);
    let a = answer(&r, "pushed");
    assert_eq!(a.status, Status::Pass);
    assert!(a.evidence.contains("which its origin/main holds"), "{}", a.evidence);
    r.commit.submodules = Ok(vec![lib(OnRemote::NotNamed {
        refname: "refs/remotes/mine/main".into(),
        named: Some("https://example.com/lib.git".into()),
    })]);
    let a = answer(&r, "pushed");
    assert_eq!(a.status, Status::Owed);
    assert!(a.evidence.contains("only lib's mine/main holds, not the remote .gitmodules names"), "{}", a.evidence);
    r.commit.submodules = Ok(vec![lib(OnRemote::Unheld {
        refname: "refs/remotes/origin/main".into(),
        why:
            "origin's own repository on this machine, /srv/lib.git, holds main at aaaaaaaaaaaa, which does not hold it"
                .into(),
    })]);
    let a = answer(&r, "pushed");
    assert_eq!(a.status, Status::Owed);
    assert!(
        a.evidence.contains("lib's origin/main says its remote holds, but origin's own repository"),
        "{}",
        a.evidence
    );
    assert!(a.evidence.contains("git -C lib push origin HEAD:BRANCH"), "{}", a.evidence);
    r.commit.submodules = Ok(vec![lib(OnRemote::Unread("it is not checked out here".into()))]);
    assert_eq!(answer(&r, "pushed").status, Status::Unknown);
    // Re-pointed in .gitmodules: asked where a clone now fetches it from.
    let repointed = |there| OnRemote::Repointed {
        was: "/srv/lib.git".into(),
        url: Some("https://example.com/lib.git".into()),
        there,
    };
    r.commit.submodules = Ok(vec![lib(repointed(There::Lacks("it lacks it".into())))]);
    let a = answer(&r, "pushed");
    assert_eq!(a.status, Status::Owed);
    assert!(a.evidence.contains("names https://example.com/lib.git for it now, not /srv/lib.git"), "{}", a.evidence);
    assert!(a.remedy.contains("git submodule sync -- lib && git -C lib push origin"), "{}", a.remedy);
    r.commit.submodules = Ok(vec![lib(repointed(There::Unread("across a network".into())))]);
    let a = answer(&r, "pushed");
    assert_eq!(a.status, Status::Unknown);
    assert!(
        a.evidence.contains("https://example.com/lib.git") && a.evidence.contains("/srv/lib.git"),
        "{}",
        a.evidence
    );
    assert!(a.remedy.contains("git submodule sync -- lib"), "{}", a.remedy);
    r.commit.submodules = Ok(vec![lib(repointed(There::Held("its origin/main".into())))]);
    let a = answer(&r, "pushed");
    assert_eq!(a.status, Status::Pass);
    assert!(a.evidence.contains("its origin/main holds it"), "{}", a.evidence);
    // Unread work elsewhere does not hide what is owed on HEAD, nor pass.
    r.commit.submodules = Ok(vec![]);
    r.commit.elsewhere = Err(Unread::record("the task record holds no snapshot of the branches"));
    assert_eq!(answer(&r, "pushed").status, Status::Unknown);
}

#[test]
fn work_kept_by_a_ref_written_since_the_start_is_owed_and_the_remedy_is_advice() {
    let mut r = all_well();
    let wip =
        BranchWork { branch: "refs/wip/c".into(), commits: vec!["c".repeat(40)], count: 1, made: Made::RefWritten };
    r.commit.elsewhere = Ok(Elsewhere { kept: vec![wip], ..Elsewhere::default() });
    let a = answer(&r, "pushed");
    assert_eq!(a.status, Status::Owed);
    assert!(a.evidence.contains("ref refs/wip/c was written since the start, and holds 1 commit"), "{}", a.evidence);
    assert_eq!(a.remedy_kind, crate::answer::RemedyKind::Advice, "{:?}", a.remedy);
}

#[test]
fn refs_not_counted_as_evidence_are_named_even_in_a_pass() {
    let mut r = all_well();
    r.commit.evidence = Ok(RemoteEvidence {
        refs: vec![Tracking {
            refname: "refs/remotes/origin/main".into(),
            remote: "origin".into(),
            commit: "b".repeat(40),
            at_start: Some("origin/main moved since the start by \"fetch . HEAD\"".into()),
        }],
        set_aside: vec![SetAside {
            subject: "self".into(),
            why: "self was added since the start".into(),
            appeared: false,
        }],
        ..RemoteEvidence::default()
    });
    let a = answer(&r, "pushed");
    assert_eq!(a.status, Status::Pass);
    assert!(
        a.evidence.contains("Not counted as evidence of a remote: self was added since the start; origin/main moved"),
        "{}",
        a.evidence
    );
    assert!(a.evidence.contains("so it is read at its start value"), "{}", a.evidence);
    assert_eq!(a.details["not_evidence"].as_array().map(Vec::len), Some(2));
}

/// A submodule `lib` whose own repository holds what the task may have
/// left, read against a snapshot that holds it (`basis`).
fn lib_left(basis: majordomus_readings::refs::in_submodules::Basis) -> majordomus_readings::refs::in_submodules::Left {
    majordomus_readings::refs::in_submodules::Left {
        path: "lib".into(),
        basis,
        checked_out: true,
        named: Some("/srv/lib.git".into()),
        remote: Some("origin".into()),
        head_branch: Some("main".into()),
        unpushed: vec![],
        truncated: false,
        stashes: vec![],
        branches: vec![],
        worktrees: vec![],
        operations: Ok(vec![]),
        conflicted: vec![],
        unread: None,
    }
}

fn helper_branch() -> majordomus_readings::refs::in_submodules::Unpushed {
    majordomus_readings::refs::in_submodules::Unpushed {
        name: "helper".into(),
        branch: true,
        moved: false,
        tip: "d".repeat(40),
        commits: vec!["d".repeat(40)],
        count: 1,
    }
}

#[test]
fn a_path_conflicted_in_a_submodule_with_nothing_in_progress_is_owed() {
    use majordomus_readings::refs::in_submodules::Basis;
    let mut r = all_well();
    let mut lib = lib_left(Basis::Recorded);
    r.commit.in_submodules = Ok(vec![lib.clone()]);
    assert_eq!(answer(&r, "settled").status, Status::Pass);
    lib.conflicted = vec!["l.txt".into()];
    r.commit.in_submodules = Ok(vec![lib.clone()]);
    let a = answer(&r, "settled");
    assert_eq!(a.status, Status::Owed);
    assert_eq!(a.evidence, "Left in a submodule checked out here: 1 path conflicted in lib: l.txt.");
    assert_eq!(a.remedy, "resolve the conflicted paths in lib and git -C lib add them");
    // Beside an operation in progress there, both are named.
    lib.operations = Ok(vec![InProgress { operation: Operation::Rebase, shown_by: "rebase-merge" }]);
    r.commit.in_submodules = Ok(vec![lib]);
    let a = answer(&r, "settled");
    assert!(a.evidence.contains("rebase in lib") && a.evidence.contains("conflicted in lib: l.txt"), "{}", a.evidence);
    assert!(a.remedy.contains("git -C lib rebase --continue"), "{}", a.remedy);
}

#[test]
fn a_branch_left_in_a_submodule_with_commits_its_remote_lacks_is_owed_naming_the_submodule() {
    use majordomus_readings::refs::in_submodules::Basis;
    let mut r = all_well();
    let mut lib = lib_left(Basis::Recorded);
    r.commit.in_submodules = Ok(vec![lib.clone()]);
    assert_eq!(answer(&r, "pushed").status, Status::Pass);
    lib.unpushed = vec![helper_branch()];
    r.commit.in_submodules = Ok(vec![lib.clone()]);
    let a = answer(&r, "pushed");
    assert_eq!(a.status, Status::Owed);
    assert!(
        a.evidence
            .contains("The submodule lib: branch helper holds 1 commit no remote of lib holds (made since the start)"),
        "{}",
        a.evidence
    );
    assert_eq!(a.remedy, "git -C lib push -u origin helper");
    assert_eq!(a.details["in_submodules"][0]["submodule"], "lib");
    // Without a remote .gitmodules names, the remedy is advice.
    lib.remote = None;
    lib.named = None;
    r.commit.in_submodules = Ok(vec![lib.clone()]);
    let a = answer(&r, "pushed");
    assert_eq!(a.status, Status::Owed);
    assert!(a.evidence.contains(".gitmodules names no remote for lib"), "{}", a.evidence);
    assert!(a.remedy.contains("git -C lib push -u REMOTE BRANCH"), "{}", a.remedy);
    // A record without the submodules' snapshot cannot tell: unknown, never a pass.
    let mut lib = lib_left(Basis::NoSnapshot);
    lib.unpushed = vec![helper_branch()];
    r.commit.in_submodules = Ok(vec![lib]);
    let a = answer(&r, "pushed");
    assert_eq!(a.status, Status::Unknown);
    assert!(a.evidence.contains("no snapshot of lib's branches at the start"), "{}", a.evidence);
    // A submodule that cannot be read: unknown.
    let mut lib = lib_left(Basis::Recorded);
    lib.unread = Some("it cannot be opened".into());
    r.commit.in_submodules = Ok(vec![lib]);
    assert_eq!(answer(&r, "pushed").status, Status::Unknown);
}

#[test]
fn a_stash_left_in_a_submodule_is_owed_naming_the_submodule_and_unknown_without_its_snapshot() {
    use majordomus_readings::refs::in_submodules::Basis;
    let mut r = all_well();
    let mut lib = lib_left(Basis::Recorded);
    lib.stashes = vec![StashEntry { index: 0, commit: "e".repeat(40), message: "WIP on main: lib".into() }];
    r.commit.in_submodules = Ok(vec![lib.clone()]);
    let a = answer(&r, "no-stash");
    assert_eq!(a.status, Status::Owed);
    assert!(
        a.evidence.contains("The submodule lib: 1 stash entry made since the start remains: stash@{0}"),
        "{}",
        a.evidence
    );
    assert!(a.remedy.contains("git -C lib stash pop stash@{0}"), "{}", a.remedy);
    lib.basis = Basis::NoSnapshot;
    r.commit.in_submodules = Ok(vec![lib]);
    let a = answer(&r, "no-stash");
    assert_eq!(a.status, Status::Unknown);
    assert!(a.evidence.contains("no snapshot of its stash"), "{}", a.evidence);
}

#[test]
fn commits_whose_changes_the_remote_trunk_holds_are_pushed_as_content_and_others_stay_owed() {
    use crate::family::integration::Integrated;
    use majordomus_readings::refs::Integration;
    let mut r = all_well();
    r.commit.push = Ok(Push::Measured {
        against: "refs/remotes/origin/main".into(),
        how: "its upstream origin/fix is gone, so the trunk".into(),
        commits: vec!["d".repeat(40)],
        count: 1,
        since_start: Some((vec!["d".repeat(40)], 1)),
    });
    let trunk = crate::fixtures::trunk_at("refs/remotes/origin/main", 'b');
    let held = Integration::Holds { paths: 2, commit: "b".repeat(40), behind_tip: 0 };
    r.integration.integrated = Ok(Integrated::Measured { trunk: trunk.clone(), integration: held.clone() });
    let a = answer(&r, "pushed");
    assert_eq!(a.status, Status::Pass, "{}", a.evidence);
    assert!(a.evidence.contains("holds all 2 paths HEAD changed"), "{}", a.evidence);
    // Not held: owed, with the push.
    let missing = Integration::Missing {
        paths: vec!["src/a.rs".into()],
        mode_only: vec![],
        reverted: None,
        ahead: vec![],
        ahead_count: 1,
        searched_only: None,
    };
    r.integration.integrated = Ok(Integrated::Measured { trunk: trunk.clone(), integration: missing });
    assert_eq!(answer(&r, "pushed").status, Status::Owed);
    // Nothing changed on the whole holds no work, and a local trunk is no remote.
    let empty = Integration::Holds { paths: 0, commit: "b".repeat(40), behind_tip: 0 };
    r.integration.integrated = Ok(Integrated::Measured { trunk: trunk.clone(), integration: empty });
    assert_eq!(answer(&r, "pushed").status, Status::Owed);
    let local = crate::fixtures::trunk_at("refs/heads/main", 'b');
    r.integration.integrated = Ok(Integrated::Measured { trunk: local, integration: held });
    assert_eq!(answer(&r, "pushed").status, Status::Owed);
}

#[test]
fn the_remedy_of_committed_during_a_merge_finishes_it_and_is_advice_while_a_path_is_conflicted() {
    let mut r = all_well();
    r.tree = Ok(WorkingTree {
        dirty: vec![Dirty { path: "NEWS.md".into(), index: None, deleted: false }],
        conflicted: vec!["tests/t.txt".into()],
        ..WorkingTree::default()
    });
    r.changes = Ok(ChangeSet { changed: vec!["NEWS.md".into()], ..ChangeSet::default() });
    r.commit.operations = Ok(vec![InProgress { operation: Operation::Merge, shown_by: "MERGE_HEAD" }]);
    let a = answer(&r, "committed");
    assert_eq!(a.status, Status::Owed);
    assert_eq!(a.remedy_kind, crate::answer::RemedyKind::Advice, "{}", a.remedy);
    assert!(!a.remedy.contains("git commit -- "), "{}", a.remedy);
    r.tree = Ok(WorkingTree {
        dirty: vec![Dirty { path: "NEWS.md".into(), index: None, deleted: false }],
        ..WorkingTree::default()
    });
    let a = answer(&r, "committed");
    assert_eq!(a.remedy, "git add -- NEWS.md && git commit --no-edit");
    r.commit.operations = Ok(vec![InProgress { operation: Operation::CherryPick, shown_by: "CHERRY_PICK_HEAD" }]);
    assert_eq!(answer(&r, "committed").remedy, "git add -- NEWS.md && GIT_EDITOR=true git cherry-pick --continue");
    // A sequence whose current commit was committed: a commit of the paths works.
    r.commit.operations = Ok(vec![InProgress { operation: Operation::CherryPick, shown_by: "sequencer/todo" }]);
    assert_eq!(answer(&r, "committed").remedy, "git commit -- NEWS.md");
}
