//! The reading of the operations in progress, held to what `git status`
//! prints: every state git can be left in is driven with real git, and the
//! operations the reading names must be exactly those git's own report
//! names.

use std::path::Path;

use majordomus_testkit::TestRepo;

use super::{operations, Operation};

/// The operations `git status` (in English) reports in `dir`.
fn git_reports(t: &TestRepo, dir: &Path) -> Vec<Operation> {
    let out = t.git_command(dir).env("LC_ALL", "C").args(["status"]).output().expect("git status");
    let text = String::from_utf8_lossy(&out.stdout);
    let has = |phrases: &[&str]| phrases.iter().any(|p| text.contains(p));
    let mut found = Vec::new();
    if has(&["interactive rebase in progress; onto"]) {
        found.push(Operation::RebaseInteractive);
    } else if has(&["rebase in progress; onto"]) {
        found.push(Operation::Rebase);
    }
    let body = [
        (Operation::Merge, &["You have unmerged paths.", "All conflicts fixed but you are still merging."][..]),
        (Operation::Am, &["You are in the middle of an am session."][..]),
        (Operation::CherryPick, &["You are currently cherry-picking commit", "Cherry-pick currently in progress."][..]),
        (Operation::Revert, &["You are currently reverting commit", "Revert currently in progress."][..]),
        (Operation::Bisect, &["You are currently bisecting"][..]),
    ];
    for (op, phrases) in body {
        if has(phrases) {
            found.push(op);
        }
    }
    found
}

fn reading(dir: &Path) -> Vec<Operation> {
    let repo = crate::open(dir).expect("open");
    operations(&repo).expect("read").into_iter().map(|p| p.operation).collect()
}

/// Runs git, whatever its exit (a conflict stops it, as intended).
fn try_git(t: &TestRepo, dir: &Path, args: &[&str]) {
    t.git_command(dir).args(args).output().expect("run git");
}

/// `f` at `base`; `side` sets `f` and `g` in two commits; `main` sets `f`:
/// picking or reverting `side`'s two commits stops on the first.
fn forked(t: &TestRepo) {
    t.write("f", "base\n");
    t.write("g", "base\n");
    t.commit_all("base");
    t.git(&["checkout", "-q", "-b", "side"]);
    t.write("f", "side\n");
    t.commit_all("side: f");
    t.write("g", "side\n");
    t.commit_all("side: g");
    t.git(&["checkout", "-q", "main"]);
    t.write("f", "main\n");
    t.commit_all("main: f");
}

/// Each state, made in `dir` of `t` (already `forked`), and its name.
type State = (&'static str, fn(&TestRepo, &Path));

const STATES: &[State] = &[
    ("nothing in progress", |_, _| {}),
    ("a merge stopped on a conflict", |t, d| try_git(t, d, &["merge", "side"])),
    ("a merge whose conflicts are resolved", |t, d| {
        try_git(t, d, &["merge", "side"]);
        std::fs::write(d.join("f"), "resolved\n").expect("write");
        t.git_in(d, &["add", "f"]);
    }),
    ("a rebase (apply) stopped on a conflict", |t, d| try_git(t, d, &["rebase", "--apply", "side"])),
    ("a rebase (merge) stopped on a conflict", |t, d| try_git(t, d, &["rebase", "--merge", "side"])),
    ("an interactive rebase stopped to edit", |t, d| {
        t.git_in(d, &["-c", "sequence.editor=sed -i 1s/^pick/edit/", "rebase", "-q", "-i", "HEAD~1"]);
    }),
    ("a merge stopped inside an interactive rebase", |t, d| {
        t.git_in(d, &["-c", "sequence.editor=sed -i 1s/^pick/edit/", "rebase", "-q", "-i", "HEAD~1"]);
        try_git(t, d, &["merge", "side"]);
    }),
    ("an am session stopped on a conflict", |t, d| {
        let patch = t.git_in(d, &["format-patch", "--stdout", "main..side"]);
        let file = d.join("..").join(format!("{}.patch", d.file_name().expect("name").to_string_lossy()));
        std::fs::write(&file, patch).expect("write");
        try_git(t, d, &["am", file.to_str().expect("utf-8")]);
        std::fs::remove_file(file).expect("cleanup");
    }),
    ("a cherry-pick stopped on a conflict", |t, d| try_git(t, d, &["cherry-pick", "side~1"])),
    ("a cherry-pick sequence resolved with git commit", |t, d| {
        try_git(t, d, &["cherry-pick", "side~1", "side"]);
        std::fs::write(d.join("f"), "resolved\n").expect("write");
        t.git_in(d, &["add", "f"]);
        t.git_in(d, &["-c", "core.editor=true", "commit", "-q", "--no-edit"]);
    }),
    ("a revert stopped on a conflict", |t, d| {
        std::fs::write(d.join("f"), "later\n").expect("write");
        t.git_in(d, &["commit", "-q", "-am", "f: later"]);
        try_git(t, d, &["revert", "--no-edit", "HEAD~1"]);
    }),
    ("a revert sequence resolved with git commit", |t, d| {
        std::fs::write(d.join("f"), "later\n").expect("write");
        t.git_in(d, &["commit", "-q", "-am", "f: later"]);
        try_git(t, d, &["revert", "--no-edit", "HEAD~1", "HEAD"]);
        std::fs::write(d.join("f"), "resolved\n").expect("write");
        t.git_in(d, &["add", "f"]);
        t.git_in(d, &["-c", "core.editor=true", "commit", "-q", "--no-edit"]);
    }),
    ("a bisect", |t, d| {
        t.git_in(d, &["bisect", "start", "HEAD", "HEAD~1"]);
    }),
    ("a bisect with a merge stopped on a conflict", |t, d| {
        t.git_in(d, &["bisect", "start"]);
        try_git(t, d, &["merge", "side"]);
    }),
];

#[test]
fn every_state_git_status_reports_is_read_as_git_status_reports_it() {
    for (name, make) in STATES {
        let t = TestRepo::new();
        forked(&t);
        make(&t, t.path());
        let want = git_reports(&t, t.path());
        assert_eq!(reading(t.path()), want, "{name}: the reading differs from git status");
        if *name != "nothing in progress" {
            assert!(!want.is_empty(), "{name}: git status reports nothing, so the state was not made");
        }
    }
}

#[test]
fn a_state_in_a_linked_worktree_is_read_there_and_not_in_the_main_worktree() {
    // Each kind of file git keeps per worktree: MERGE_HEAD, rebase-merge/,
    // the sequencer, BISECT_LOG.
    let kinds = ["merge stopped", "rebase (merge)", "cherry-pick sequence", "a bisect"];
    for (name, make) in STATES.iter().filter(|(n, _)| kinds.iter().any(|k| n.contains(k))) {
        let t = TestRepo::new();
        forked(&t);
        let wt = t.path().with_file_name(format!("{}-wt", t.path().file_name().expect("name").to_string_lossy()));
        t.git(&["worktree", "add", "-q", "-b", "work", wt.to_str().expect("utf-8"), "main"]);
        make(&t, &wt);
        let want = git_reports(&t, &wt);
        assert_eq!(reading(&wt), want, "{name} in a linked worktree: the reading differs from git status");
        assert_eq!(reading(t.path()), git_reports(&t, t.path()), "{name}: the main worktree's reading differs");
        std::fs::remove_dir_all(&wt).expect("cleanup");
    }
}

#[test]
fn a_sequencer_left_behind_is_said_to_be_the_sequencers() {
    let t = TestRepo::new();
    forked(&t);
    STATES.iter().find(|(n, _)| n.contains("cherry-pick sequence")).expect("the state").1(&t, t.path());
    let repo = crate::open(t.path()).expect("open");
    let found = operations(&repo).expect("read");
    assert_eq!(found.len(), 1);
    assert!(found[0].sequencer_only() && found[0].operation == Operation::CherryPick, "{found:?}");
}

#[test]
fn a_todo_whose_first_word_is_not_a_pick_or_revert_is_no_operation() {
    let t = TestRepo::with_commit();
    let seq = t.path().join(".git/sequencer");
    std::fs::create_dir_all(&seq).expect("mkdir");
    for (todo, want) in [
        ("  p 1234 x\n", Some(Operation::CherryPick)),
        ("revert\t1234 x\n", Some(Operation::Revert)),
        ("picked 1234\n", None),
        ("pick\n", None),
        ("", None),
    ] {
        std::fs::write(seq.join("todo"), todo).expect("write");
        assert_eq!(reading(t.path()).first().copied(), want, "{todo:?}");
        assert_eq!(reading(t.path()), git_reports(&t, t.path()), "{todo:?}: differs from git status");
    }
}
