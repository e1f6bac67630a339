use majordomus_testkit::TestRepo;

use crate::status::{read, read_with_libgit2};

/// HEAD's commit: the start commit of a task started now.
fn head_id(repo: &crate::Repo) -> Option<git2::Oid> {
    repo.git.head().ok().and_then(|h| h.target())
}

/// The fast path and libgit2's status give the same answer.
fn same(t: &TestRepo) {
    let repo = crate::open(t.path()).expect("open");
    // The stamps of files read by content are the fast path's alone.
    let fast = crate::status::WorkingTree { verified: Vec::new(), attributes: 0, ..read(&repo).expect("fast") };
    let slow = read_with_libgit2(&repo).expect("libgit2");
    assert_eq!(fast, slow, "fast path and libgit2 disagree");
}

#[test]
fn the_fast_path_agrees_with_libgit2_on_every_kind_of_change() {
    let t = TestRepo::with_commit();
    t.write("src/a.rs", "a\n");
    t.write("src/b.rs", "b\n");
    t.write("src/deep/c.rs", "c\n");
    t.write("run.sh", "#!/bin/sh\n");
    t.write(".gitignore", "*.log\nbuild/\n");
    std::os::unix::fs::symlink("src/a.rs", t.path().join("link")).expect("symlink");
    t.commit_all("files");
    same(&t);
    t.write("src/a.rs", "a, modified\n");
    t.remove("src/b.rs");
    t.write("src/new.rs", "new\n");
    t.write("untracked/dir/deep.txt", "u\n");
    t.write("debug.log", "ignored\n");
    t.write("build/out.o", "ignored\n");
    t.write("src/deep/c.rs", "c, staged\n");
    t.git(&["add", "src/deep/c.rs"]);
    t.write("staged-new.txt", "s\n");
    t.git(&["add", "staged-new.txt"]);
    t.git(&["rm", "-q", "--cached", "run.sh"]);
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(t.path().join("README"), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    std::fs::remove_file(t.path().join("link")).expect("unlink");
    t.write("link", "now a file\n");
    t.write(".ai/local/state/task.json", "{}");
    std::os::unix::fs::symlink("src", t.path().join("untracked-link-to-dir")).expect("symlink");
    t.write("empty-ish/.keep-nothing/x.log", "ignored\n");
    same(&t);
    let repo = crate::open(t.path()).expect("open");
    let tree = read(&repo).expect("read");
    let dirty: Vec<_> = tree.dirty.iter().map(|d| d.path.to_string()).collect();
    assert_eq!(dirty, ["README", "link", "run.sh", "src/a.rs", "src/b.rs", "src/deep/c.rs", "staged-new.txt"]);
    // run.sh left the index but not the disk: it is dirty (removed), not untracked.
    assert_eq!(tree.untracked, ["src/new.rs", "untracked-link-to-dir", "untracked/dir/deep.txt"]);
}

#[test]
fn same_size_same_second_edits_are_seen_through_the_racy_check() {
    let t = TestRepo::with_commit();
    t.write("a.txt", "aaaa\n");
    t.commit_all("a");
    // Rewritten at once, same size: the stat data may match to the second.
    t.write("a.txt", "bbbb\n");
    same(&t);
    let repo = crate::open(t.path()).expect("open");
    assert_eq!(read(&repo).expect("read").dirty.len(), 1);
}

#[test]
fn conflicts_and_an_unborn_head_agree_with_libgit2() {
    let t = TestRepo::new();
    t.write("first.txt", "1\n");
    same(&t);
    t.git(&["add", "first.txt"]);
    same(&t);
    let t = TestRepo::with_conflicted_merge("first.txt");
    same(&t);
    let repo = crate::open(t.path()).expect("open");
    assert_eq!(read(&repo).expect("read").conflicted, ["first.txt"]);
}

#[test]
fn a_split_index_is_read_with_its_shared_file_and_agrees_with_git() {
    let t = TestRepo::with_commit();
    t.write("src/a.rs", "a\n");
    t.write("src/c.rs", "c\n");
    t.commit_all("a");
    t.git(&["update-index", "--split-index"]);
    t.write("src/a.rs", "a, changed\n");
    t.write("src/b.rs", "b\n");
    t.git(&["add", "src/b.rs"]);
    t.git(&["rm", "-q", "--cached", "src/c.rs"]);
    t.remove("src/c.rs");
    let index = crate::index_file::Index::read(&t.path().join(".git/index")).expect("the split index is read");
    let paths: Vec<_> =
        index.entries.iter().map(|e| String::from_utf8_lossy(e.path(&index.paths)).into_owned()).collect();
    assert_eq!(paths, ["README", "src/a.rs", "src/b.rs"]);
    assert_eq!(fast_says(&t), git_says(&t));
    assert_eq!(fast_says(&t).0, ["src/a.rs", "src/b.rs", "src/c.rs"]);
}

#[test]
fn a_submodule_is_neither_untracked_nor_dirty_and_agrees_with_libgit2() {
    let inner = TestRepo::with_commit();
    let t = TestRepo::with_commit();
    t.git(&["-c", "protocol.file.allow=always", "submodule", "add", "-q", inner.path().to_str().expect("utf8"), "sub"]);
    t.commit_all("submodule");
    same(&t);
    let repo = crate::open(t.path()).expect("open");
    let tree = read(&repo).expect("read");
    assert!(tree.untracked.is_empty() && tree.dirty.is_empty(), "{tree:?}");
    t.write("sub/new-inside.txt", "x\n");
    same(&t);
}

/// The index made as old as the oldest file of the test (README, written
/// first), as a fresh clone or a checkout leaves it: every entry racily
/// clean, whichever second each later file was written in. Then a wait
/// until the files' change times are well before the reading that follows.
fn index_as_old_as_the_files(t: &TestRepo) {
    let oldest = std::fs::metadata(t.path().join("README")).expect("README").modified().expect("mtime");
    std::fs::File::options()
        .write(true)
        .open(t.path().join(".git/index"))
        .expect("index")
        .set_modified(oldest)
        .expect("set");
    std::thread::sleep(std::time::Duration::from_millis(150));
}

/// A task started where the files and the index were written in the same
/// second (a fresh clone, a checkout): the start reads each file by
/// content, and a check takes the ones whose stamp still holds without
/// reading them (it stamps none anew); a file rewritten since, its size
/// and modification time put back, has a new change time and is read, and
/// counted.
#[test]
fn a_file_the_start_read_is_not_read_again_until_it_changes() {
    let t = TestRepo::with_commit();
    t.write("a.txt", "aaaa\n");
    t.write("b.txt", "bbbb\n");
    t.commit_all("files");
    let a = t.path().join("a.txt");
    let mtime = std::fs::metadata(&a).expect("a").modified().expect("mtime");
    index_as_old_as_the_files(&t);
    let repo = crate::open(t.path()).expect("open");
    let at_start = read(&repo).expect("start");
    assert_eq!(at_start.verified.len(), 3, "README, a.txt and b.txt read by content and stamped");
    let start = crate::status::record(&repo, &at_start).expect("record");
    assert!(start.verified.is_some());

    let now = crate::status::read_since(&repo, crate::status::Start::of_task(Some(&start), head_id(&repo), None))
        .expect("check");
    assert!(now.dirty.is_empty(), "{now:?}");
    assert!(now.verified.is_empty(), "every file taken by its stamp, none read: {now:?}");

    // Rewritten in place with as many bytes, its modification time put back.
    std::fs::write(&a, "cccc\n").expect("rewrite");
    std::fs::File::options().write(true).open(&a).expect("a").set_modified(mtime).expect("set");
    let now = crate::status::read_since(&repo, crate::status::Start::of_task(Some(&start), head_id(&repo), None))
        .expect("check");
    assert_eq!(now.dirty.iter().map(|d| d.path.to_string()).collect::<Vec<_>>(), ["a.txt"]);
}

/// The same for a file libgit2 judges through a conversion (CRLF text
/// under `text eol=crlf`): stamped at the start once libgit2 found it
/// clean, taken by its stamp while the attributes files are the start's,
/// and judged by libgit2 again once one changed (here to say it is not
/// text: then git, and the reading, count it).
#[test]
fn a_converted_file_the_start_found_clean_is_taken_by_its_stamp_while_the_attributes_hold() {
    let t = TestRepo::with_commit();
    t.write(".gitattributes", "*.txt text eol=crlf\n");
    t.write("a.txt", "a\r\nb\r\n");
    t.commit_all("crlf");
    index_as_old_as_the_files(&t);
    let repo = crate::open(t.path()).expect("open");
    let at_start = read(&repo).expect("start");
    assert!(at_start.dirty.is_empty(), "{at_start:?}");
    assert_eq!(at_start.verified.len(), 3, "README and .gitattributes raw, a.txt through libgit2: {at_start:?}");
    let start = crate::status::record(&repo, &at_start).expect("record");
    assert!(start.verified_attributes.is_some());

    let now = crate::status::read_since(&repo, crate::status::Start::of_task(Some(&start), head_id(&repo), None))
        .expect("check");
    assert!(now.dirty.is_empty() && now.verified.is_empty(), "taken by the stamps, none read: {now:?}");

    // a.txt no longer text: its CRLF content is not the blob's, as git says.
    t.write(".gitattributes", "*.txt -text\n");
    let now = crate::status::read_since(&repo, crate::status::Start::of_task(Some(&start), head_id(&repo), None))
        .expect("check");
    let dirty: Vec<String> = now.dirty.iter().map(|d| d.path.to_string()).collect();
    assert_eq!(dirty, [".gitattributes", "a.txt"]);
    assert!(t.git(&["status", "--porcelain"]).contains(" M a.txt"), "git counts it too");
}

/// git's ` m` (changed inside, HEAD the recorded commit) against its ` M`
/// (the submodule's HEAD moved): only the first is `dirty_inside`, which
/// `committed`'s remedy cannot commit from the superproject.
#[test]
fn a_submodule_changed_only_inside_is_said_apart_from_one_whose_head_moved() {
    let inner = TestRepo::with_commit();
    let t = TestRepo::with_commit();
    t.git(&["-c", "protocol.file.allow=always", "submodule", "add", "-q", inner.path().to_str().expect("utf8"), "sub"]);
    t.commit_all("submodule");
    std::fs::write(t.path().join("sub/README"), "edited inside\n").expect("write");
    let repo = crate::open(t.path()).expect("open");
    let tree = read(&repo).expect("read");
    assert_eq!(tree.dirty.iter().map(|d| d.path.to_string()).collect::<Vec<_>>(), ["sub"]);
    assert_eq!(tree.dirty_inside, ["sub"]);
    t.git_in(&t.path().join("sub"), &["commit", "-qam", "inside"]);
    let tree = read(&repo).expect("read");
    assert_eq!(tree.dirty.iter().map(|d| d.path.to_string()).collect::<Vec<_>>(), ["sub"]);
    assert!(tree.dirty_inside.is_empty(), "{tree:?}");
}

#[test]
fn a_tracked_file_replaced_by_a_directory_agrees_with_libgit2() {
    let t = TestRepo::with_commit();
    t.write("thing", "a file\n");
    t.commit_all("thing");
    t.remove("thing");
    t.write("thing/inside.txt", "now a directory\n");
    same(&t);
    let repo = crate::open(t.path()).expect("open");
    assert_eq!(read(&repo).expect("read").untracked, ["thing/inside.txt"]);
}

/// What git's own `status --porcelain=v2 -uall` says: the tracked paths
/// that differ and the untracked ones. `--no-optional-locks`: git does
/// not refresh the index (and so clear skip-worktree bits) as it looks.
fn git_says(t: &TestRepo) -> (Vec<String>, Vec<String>) {
    let out = t.git(&["--no-optional-locks", "status", "--porcelain=v2", "-uall"]);
    let (mut dirty, mut untracked) = (Vec::new(), Vec::new());
    for line in out.lines() {
        match line.split_once(' ') {
            Some(("1", rest)) => dirty.push(rest.splitn(8, ' ').nth(7).expect("a path").to_string()),
            Some(("?", path)) => untracked.push(path.to_string()),
            _ => panic!("unexpected status line {line:?}"),
        }
    }
    (dirty, untracked)
}

/// The fast path's answer as `git_says` gives git's.
fn fast_says(t: &TestRepo) -> (Vec<String>, Vec<String>) {
    let repo = crate::open(t.path()).expect("open");
    let tree = read(&repo).expect("read");
    let shown = |p: &majordomus_records::RepoPath| p.to_string();
    (tree.dirty.iter().map(|d| shown(&d.path)).collect(), tree.untracked.iter().map(shown).collect())
}

/// Runs `f` on a thread of its own and fails if it does not end within
/// ten seconds: a reading that blocks fails the test rather than hang it.
fn within_a_timeout<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(f()));
    rx.recv_timeout(std::time::Duration::from_secs(10)).expect("the reading blocked")
}

fn mkfifo(path: &std::path::Path) {
    use rustix::fs::{FileType, Mode};
    rustix::fs::mknodat(rustix::fs::CWD, path, FileType::Fifo, Mode::from_raw_mode(0o644), 0).expect("mkfifo");
}

#[test]
fn a_fifo_is_never_opened_untracked_it_is_not_listed_tracked_it_is_modified_as_git_says() {
    let t = TestRepo::with_commit();
    t.write("src/pipe-was-here.txt", "a file\n");
    t.write(".ai/repo/debt/old-baseline.txt", "entry\n");
    t.commit_all("files");
    mkfifo(&t.path().join("untracked-pipe"));
    t.remove("src/pipe-was-here.txt");
    mkfifo(&t.path().join("src/pipe-was-here.txt"));
    mkfifo(&t.path().join(".ai/repo/debt/pipe-baseline.txt"));
    let root = t.path().to_path_buf();
    let (fast, tree, id, fingerprint, baselines) = within_a_timeout(move || {
        let repo = crate::open(&root).expect("open");
        let tree = read(&repo).expect("read");
        let fast = (
            tree.dirty.iter().map(|d| d.path.to_string()).collect::<Vec<_>>(),
            tree.untracked.iter().map(ToString::to_string).collect::<Vec<_>>(),
        );
        let id = crate::status::content_id(&repo, &"src/pipe-was-here.txt".into());
        let fingerprint = crate::fingerprint::worktree(&root, &["src/pipe-was-here.txt", "untracked-pipe"]);
        (fast, tree, id, fingerprint, crate::baselines::read_worktree(&repo))
    });
    assert_eq!(fast, git_says(&t));
    assert_eq!(fast.0, ["src/pipe-was-here.txt"]);
    assert!(fast.1.is_empty(), "{fast:?}");
    assert!(!tree.dirty[0].deleted, "git calls it modified, not deleted");
    assert_eq!(id, None, "a FIFO has no content git could take");
    assert!(!fingerprint.is_empty());
    let unread = baselines.expect_err("a baseline that is a FIFO cannot be read");
    assert!(
        unread
            .reason
            .contains("the baseline .ai/repo/debt/pipe-baseline.txt is a FIFO (named pipe), not a regular file"),
        "{unread}"
    );
}

#[test]
fn files_outside_a_sparse_checkouts_cone_are_clean_absent_and_compared_present_as_git_says() {
    let t = TestRepo::with_commit();
    t.write("src/in.rs", "in\n");
    t.write("other/out.txt", "out\n");
    t.write("other/kept.txt", "kept\n");
    t.commit_all("files");
    t.git(&["sparse-checkout", "set", "src"]);
    assert!(!t.path().join("other").exists(), "the cone left other/ out");
    assert_eq!(fast_says(&t), (vec![], vec![]), "absent outside the cone is clean");
    assert_eq!(fast_says(&t), git_says(&t));
    // A file outside the cone put back edited, one put back as it was.
    t.write("other/out.txt", "out, edited\n");
    t.write("other/kept.txt", "kept\n");
    assert_eq!(fast_says(&t).0, ["other/out.txt"]);
    assert_eq!(fast_says(&t), git_says(&t));
}

#[test]
fn a_skip_worktree_file_without_a_sparse_checkout_is_clean_edited_or_gone_as_git_says() {
    let t = TestRepo::with_commit();
    t.write("local.conf", "committed\n");
    t.commit_all("conf");
    t.git(&["update-index", "--skip-worktree", "local.conf"]);
    t.write("local.conf", "my local edit\n");
    assert_eq!(fast_says(&t), (vec![], vec![]), "git ignores a skip-worktree file's changes");
    assert_eq!(fast_says(&t), git_says(&t));
    t.remove("local.conf");
    assert_eq!(fast_says(&t), (vec![], vec![]));
    assert_eq!(fast_says(&t), git_says(&t));
}

#[test]
fn a_file_name_that_is_not_utf8_is_read_as_its_bytes_tracked_or_not() {
    use std::os::unix::ffi::OsStrExt;
    let t = TestRepo::with_commit();
    std::fs::create_dir(t.path().join("dir")).expect("mkdir");
    let tracked = std::ffi::OsStr::from_bytes(b"tracked-\xfe.txt");
    std::fs::write(t.path().join("dir").join(tracked), "x\n").expect("write");
    t.commit_all("a name that is not UTF-8");
    let name = std::ffi::OsStr::from_bytes(b"caf\xc3\xa9-\xff.txt");
    std::fs::write(t.path().join("dir").join(name), "x\n").expect("write");
    std::fs::write(t.path().join("dir").join(tracked), "edited\n").expect("write");
    let repo = crate::open(t.path()).expect("open");
    let tree = read(&repo).expect("a name that is not UTF-8 is read like any other");
    let untracked: Vec<&[u8]> = tree.untracked.iter().map(|p| p.as_bytes()).collect();
    assert_eq!(untracked, [b"dir/caf\xc3\xa9-\xff.txt".as_slice()]);
    let dirty: Vec<&[u8]> = tree.dirty.iter().map(|d| d.path.as_bytes()).collect();
    assert_eq!(dirty, [b"dir/tracked-\xfe.txt".as_slice()]);
    assert_eq!(tree.untracked[0].to_string(), "\"dir/caf\u{e9}-\\377.txt\"");
}

#[test]
fn a_nested_repository_and_gitattributes_filters_agree_with_libgit2() {
    let t = TestRepo::with_commit();
    t.write(".gitattributes", "*.txt text eol=crlf\n");
    t.write("a.txt", "line\n");
    t.commit_all("attributes");
    t.write("a.txt", "line\r\n");
    t.git_in(t.path(), &["init", "-q", "nested"]);
    t.write("nested/file", "x\n");
    same(&t);
}

#[test]
fn a_bit_hides_a_change_from_the_count_as_git_does_and_names_it_as_hidden() {
    use crate::status::HiddenBy;
    let t = TestRepo::with_commit();
    t.write("assumed.txt", "a\n");
    t.write("assumed-untouched.txt", "u\n");
    t.write("skipped.txt", "s\n");
    t.commit_all("files");
    t.git(&["update-index", "--assume-unchanged", "assumed.txt", "assumed-untouched.txt"]);
    t.git(&["update-index", "--skip-worktree", "skipped.txt"]);
    t.write("assumed.txt", "edited under the bit\n");
    t.remove("skipped.txt");
    assert_eq!(fast_says(&t), git_says(&t));
    assert_eq!(fast_says(&t), (vec![], vec![]), "git shows none of them");
    let repo = crate::open(t.path()).expect("open");
    let hidden: Vec<_> = read(&repo)
        .expect("read")
        .hidden
        .into_iter()
        .map(|h| (h.path.to_string(), h.by, h.changed, h.deleted))
        .collect();
    let hidden_as = |path: &str, by, changed, deleted| (path.to_string(), by, changed, deleted);
    assert_eq!(
        hidden,
        [
            hidden_as("assumed-untouched.txt", HiddenBy::AssumeUnchanged, false, false),
            hidden_as("assumed.txt", HiddenBy::AssumeUnchanged, true, false),
            hidden_as("skipped.txt", HiddenBy::SkipWorktree, true, true),
        ]
    );
}

#[test]
fn a_file_expected_outside_a_sparse_cone_is_hidden_and_its_change_named() {
    use crate::status::HiddenBy;
    let t = TestRepo::with_commit();
    t.write("src/in.rs", "in\n");
    t.write("other/out.txt", "out\n");
    t.write("other/absent.txt", "absent\n");
    t.commit_all("files");
    t.git(&["sparse-checkout", "set", "src"]);
    t.git(&["config", "sparse.expectFilesOutsideOfPatterns", "true"]);
    t.write("other/out.txt", "out, edited\n");
    assert_eq!(fast_says(&t), git_says(&t));
    assert_eq!(fast_says(&t), (vec![], vec![]));
    let repo = crate::open(t.path()).expect("open");
    let hidden = read(&repo).expect("read").hidden;
    assert_eq!(hidden.len(), 1, "an absent file outside the cone hides nothing: {hidden:?}");
    assert_eq!(
        (hidden[0].path.to_string().as_str(), hidden[0].by, hidden[0].changed),
        ("other/out.txt", HiddenBy::ExpectedOutsideSparse, true)
    );
}

/// A rule hides a file from a task only where both the start's rules and
/// git's own now hide it: one added since hides nothing, and one taken
/// away since hides nothing either (git lists the file).
#[test]
fn ignore_sources_given_by_the_caller_hide_only_what_the_current_ones_hide_too() {
    use majordomus_records::task::{Bytes, ReadingAtStart};
    let t = TestRepo::with_commit();
    t.write(".git/info/exclude", "*.log\n*.bak\n");
    t.write("new.log", "hidden by a rule added now\n");
    t.write("old.tmp", "hidden by a rule of the start, taken away\n");
    t.write("kept.bak", "hidden by a rule both hold\n");
    let repo = crate::open(t.path()).expect("open");
    assert_eq!(read(&repo).expect("read").untracked, ["old.tmp"], "the current rules hide new.log");
    let start = ReadingAtStart { info_exclude: Some(Bytes(b"*.tmp\n*.bak\n".to_vec())), ..ReadingAtStart::default() };
    let since = crate::status::read_since(&repo, crate::status::Start::of_task(Some(&start), head_id(&repo), None))
        .expect("read");
    assert_eq!(since.untracked, ["new.log", "old.tmp"]);
}

/// A `.gitignore` rule committed since the start is the task's change like
/// any other: it hides nothing from the task (test/cases/401), while one the
/// start commit held still hides what it hid.
#[test]
fn a_gitignore_rule_committed_since_the_start_hides_nothing() {
    let t = TestRepo::with_commit();
    t.write(".gitignore", "target/\n");
    t.commit_all("ignore target");
    let repo = crate::open(t.path()).expect("open");
    let start_commit = head_id(&repo);
    let start = crate::status::record(&repo, &read(&repo).expect("start")).expect("record");
    t.write("src/helper.rs", "pub fn h() {}\n");
    t.write("target/out", "built\n");
    t.write("pkg/p.rs", "p\n");
    t.write("pkg/.gitignore", "p.rs\n");
    t.write(".gitignore", "target/\nsrc/helper.rs\n");
    t.commit_all("the task's rules");
    let repo = crate::open(t.path()).expect("open");
    assert!(read(&repo).expect("read").untracked.is_empty(), "git lists nothing");
    let since = crate::status::read_since(&repo, crate::status::Start::of_task(Some(&start), start_commit, None))
        .expect("read");
    assert_eq!(since.untracked, ["pkg/p.rs", "src/helper.rs"]);
    let by: Vec<String> = since.overruled.iter().map(|o| o.to_string()).collect();
    assert_eq!(
        by,
        [
            "pkg/p.rs (ignored by a rule in pkg/.gitignore that did not hold at the start)",
            "src/helper.rs (ignored by a rule in .gitignore that did not hold at the start)"
        ]
    );
}

/// The autocrlf trick, read by the fast path (`core.symlinks` true) and by
/// libgit2's (false): a file rewritten with CRLF ends and refreshed in the
/// index under `core.autocrlf = true`, the setting then put back, is clean
/// to git (its stat data vouches) and still the change it is to the task.
fn an_entry_refreshed_since_the_start_is_read_by_its_content(symlinks: bool) {
    let t = TestRepo::with_commit();
    t.git(&["config", "core.symlinks", if symlinks { "true" } else { "false" }]);
    t.write("notes.txt", "one\ntwo\n");
    t.commit_all("notes");
    // Times set back so that no entry is racily clean to git: the index of
    // the start 20 seconds ago, the file rewritten 10 seconds ago.
    let ago = |secs| std::time::SystemTime::now() - std::time::Duration::from_secs(secs);
    let set_mtime = |rel: &str, secs| {
        let file = std::fs::File::options().write(true).open(t.path().join(rel)).expect("open");
        file.set_modified(ago(secs)).expect("set the time");
    };
    set_mtime(".git/index", 20);
    let repo = crate::open(t.path()).expect("open");
    let start = crate::status::record(&repo, &read(&repo).expect("read")).expect("record");
    assert!(start.index_mtime.is_some(), "the start records the index's time");
    t.write("notes.txt", "one\r\ntwo\r\n");
    set_mtime("notes.txt", 10);
    t.git(&["config", "core.autocrlf", "true"]);
    t.git(&["add", "notes.txt"]);
    t.git(&["config", "--unset", "core.autocrlf"]);
    assert_eq!(t.git(&["status", "--porcelain"]), "", "git's stat data vouches for the file");
    let repo = crate::open(t.path()).expect("open");
    assert!(read(&repo).expect("read").dirty.is_empty(), "read as git, the file is clean");
    let since = crate::status::read_since(&repo, crate::status::Start::of_task(Some(&start), head_id(&repo), None))
        .expect("read");
    assert_eq!(since.dirty.iter().map(|d| d.path.to_string()).collect::<Vec<_>>(), ["notes.txt"]);
}

#[test]
fn an_entry_refreshed_since_the_start_is_read_by_its_content_on_the_fast_path() {
    an_entry_refreshed_since_the_start_is_read_by_its_content(true);
}

#[test]
fn an_entry_refreshed_since_the_start_is_read_by_its_content_through_libgit2() {
    an_entry_refreshed_since_the_start_is_read_by_its_content(false);
}

#[test]
fn a_bit_set_since_the_start_hides_nothing_through_libgit2_and_one_set_before_is_the_users() {
    let t = TestRepo::with_commit();
    t.git(&["config", "core.symlinks", "false"]);
    t.write("mine.txt", "mine\n");
    t.write("task.txt", "task\n");
    t.commit_all("files");
    // The user's bit, set before the start, over an edit of the user's.
    t.write("mine.txt", "mine, edited\n");
    t.git(&["update-index", "--assume-unchanged", "mine.txt"]);
    let repo = crate::open(t.path()).expect("open");
    let start = crate::status::record(&repo, &read(&repo).expect("read")).expect("record");
    assert_eq!(start.bits.keys().map(|p| p.to_string()).collect::<Vec<_>>(), ["mine.txt"], "the start records it");
    // The task's edit, hidden by a bit set since.
    t.write("task.txt", "task, edited\n");
    t.git(&["update-index", "--assume-unchanged", "task.txt"]);
    let repo = crate::open(t.path()).expect("open");
    assert!(read(&repo).expect("read").dirty.is_empty(), "read as git, both bits hide their edits");
    let since = crate::status::read_since(&repo, crate::status::Start::of_task(Some(&start), head_id(&repo), None))
        .expect("read");
    assert_eq!(since.dirty.iter().map(|d| d.path.to_string()).collect::<Vec<_>>(), ["task.txt"]);
    assert_eq!(since.overruled.iter().map(|o| o.path.to_string()).collect::<Vec<_>>(), ["task.txt"]);
}

#[test]
fn an_index_cut_short_is_an_unread_reading_never_a_clean_tree() {
    let t = TestRepo::with_commit();
    for i in 0..40 {
        t.write(&format!("dir/file-{i}.txt"), &format!("{i}\n"));
    }
    t.commit_all("files");
    let index = t.path().join(".git/index");
    let bytes = std::fs::read(&index).expect("read");
    assert!(read(&crate::open(t.path()).expect("open")).expect("whole").dirty.is_empty(), "clean before the cut");
    for cut in [0, 11, 12, 100, bytes.len() / 2, bytes.len() - 21] {
        std::fs::write(&index, &bytes[..cut]).expect("cut");
        let repo = crate::open(t.path()).expect("open");
        let reading = read(&repo);
        assert!(reading.is_err(), "cut at {cut} of {}: {reading:?}", bytes.len());
    }
}

/// `core.ignoreCase` held since before the start, read by the fast path
/// (`core.symlinks` true) and by libgit2's (false): a file whose name
/// differs from a tracked path's only by case is hidden, as git hides it,
/// only where the start found it so with the same content.
fn a_case_fold_held_since_the_start_hides_only_what_it_hid_then(symlinks: bool) {
    let t = TestRepo::with_commit();
    t.git(&["config", "core.symlinks", if symlinks { "true" } else { "false" }]);
    t.git(&["config", "core.ignorecase", "true"]);
    t.write("src/lib.rs", "fn a() {}\n");
    t.write("docs/notes.md", "notes\n");
    t.commit_all("files");
    t.write("docs/NOTES.md", "the user's\n");
    let repo = crate::open(t.path()).expect("open");
    let now = read(&repo).expect("read");
    // libgit2's own status does not fold an untracked name (it lists the
    // file, stricter than git); the fast path reads as git.
    if symlinks {
        assert!(now.untracked.is_empty(), "read as git, the fold hides the file");
    }
    assert_eq!(now.case_folded.iter().map(|p| p.to_string()).collect::<Vec<_>>(), ["docs/NOTES.md"]);
    let start = crate::status::record(&repo, &now).expect("record");
    assert_eq!(start.case_folded.as_ref().map(|m| m.len()), Some(1), "the start records it with its content");
    t.write("src/LIB.RS", "the task's\n");
    t.write("SRC/lib.rs", "the task's too\n");
    assert_eq!(t.git(&["status", "--porcelain", "-uall"]), "", "git lists none of them");
    let repo = crate::open(t.path()).expect("open");
    let since = |repo: &crate::Repo| {
        crate::status::read_since(repo, crate::status::Start::of_task(Some(&start), head_id(repo), None)).expect("read")
    };
    let read = since(&repo);
    assert_eq!(read.untracked.iter().map(|p| p.to_string()).collect::<Vec<_>>(), ["SRC/lib.rs", "src/LIB.RS"]);
    assert!(read.overruled.iter().all(|o| o.why == crate::status::Why::CaseFolded));
    t.write("docs/NOTES.md", "the user's, then the task's\n");
    let read = since(&repo);
    assert_eq!(
        read.untracked.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
        ["SRC/lib.rs", "docs/NOTES.md", "src/LIB.RS"],
        "changed since the start, the user's file is the task's change"
    );
}

#[test]
fn a_case_fold_held_since_the_start_hides_only_what_it_hid_then_on_the_fast_path() {
    a_case_fold_held_since_the_start_hides_only_what_it_hid_then(true);
}

#[test]
fn a_case_fold_held_since_the_start_hides_only_what_it_hid_then_through_libgit2() {
    a_case_fold_held_since_the_start_hides_only_what_it_hid_then(false);
}

/// In a sparse checkout a skip-worktree file whose definition includes it
/// and that is absent is a deletion the bit hides: clean read as git, and
/// counted for a task whose start did not have the bit; narrowed out of the
/// definition since (`git sparse-checkout set`) it is not checked out, and
/// counts for nothing (test/cases/580); so too through libgit2, under
/// `core.symlinks = false` (589).
fn a_deletion_a_bit_hides_inside_a_sparse_checkout_counts_for_a_task(symlinks: bool) {
    use crate::status::{HiddenBy, Why};
    let t = TestRepo::with_commit();
    t.git(&["config", "core.symlinks", if symlinks { "true" } else { "false" }]);
    t.write("src/old.rs", "old\n");
    t.write("src/kept.rs", "kept\n");
    t.write("other/out.txt", "out\n");
    t.commit_all("files");
    t.git(&["sparse-checkout", "set", "src"]);
    let repo = crate::open(t.path()).expect("open");
    let start = crate::status::record(&repo, &read(&repo).expect("read")).expect("record");
    let since = |t: &TestRepo| {
        let repo = crate::open(t.path()).expect("open");
        crate::status::read_since(&repo, crate::status::Start::of_task(Some(&start), head_id(&repo), None))
            .expect("read")
    };
    assert!(since(&t).dirty.is_empty(), "other/ left out at the start counts for nothing");
    t.remove("src/old.rs");
    t.git(&["update-index", "--skip-worktree", "src/old.rs"]);
    assert_eq!(fast_says(&t), git_says(&t));
    assert_eq!(fast_says(&t), (vec![], vec![]), "git's view: the bit hides it");
    let tree = since(&t);
    assert_eq!(
        tree.dirty.iter().map(|d| (d.path.to_string(), d.deleted)).collect::<Vec<_>>(),
        [("src/old.rs".to_string(), true)]
    );
    assert_eq!(
        tree.overruled.iter().map(|o| (o.path.to_string(), o.why.clone())).collect::<Vec<_>>(),
        [("src/old.rs".to_string(), Why::Bit(HiddenBy::SkipWorktree))]
    );
    // Narrowed: src/ is no longer checked out, the bit is the checkout's.
    t.git(&["sparse-checkout", "set", "other"]);
    assert!(!t.path().join("src/kept.rs").exists(), "the checkout left src/ out");
    assert_eq!(fast_says(&t), git_says(&t));
    assert!(since(&t).dirty.is_empty(), "{:?}", since(&t));
}

#[test]
fn a_deletion_a_bit_hides_inside_a_sparse_checkout_counts_for_a_task_read_directly() {
    a_deletion_a_bit_hides_inside_a_sparse_checkout_counts_for_a_task(true);
}

#[test]
fn a_deletion_a_bit_hides_inside_a_sparse_checkout_counts_for_a_task_through_libgit2() {
    a_deletion_a_bit_hides_inside_a_sparse_checkout_counts_for_a_task(false);
}

/// An intent to add whose file is gone is dirty and deleted, as git's
/// status lists it, and named as an intent ([`WorkingTree::intent_gone`]),
/// read directly and through libgit2 alike (test/cases/590).
#[test]
fn an_intent_to_add_whose_file_is_gone_is_named_so() {
    for symlinks in ["true", "false"] {
        let t = TestRepo::with_commit();
        t.git(&["config", "core.symlinks", symlinks]);
        t.write("notes.rs", "draft\n");
        t.write("kept.rs", "kept\n");
        t.git(&["add", "-N", "notes.rs", "kept.rs"]);
        t.remove("notes.rs");
        assert_eq!(fast_says(&t), git_says(&t), "symlinks {symlinks}");
        let repo = crate::open(t.path()).expect("open");
        let tree = read(&repo).expect("read");
        assert!(tree.dirty.iter().any(|d| d.path == "notes.rs" && d.deleted), "{tree:?}");
        assert_eq!(
            tree.intent_gone.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
            ["notes.rs"],
            "symlinks {symlinks}"
        );
    }
}
