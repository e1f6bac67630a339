use super::*;
use majordomus_testkit::{task_record, TestRepo};

/// A task record whose snapshot holds the submodules as they are now.
fn started(t: &TestRepo) -> TaskRecord {
    let repo = crate::open(t.path()).expect("open");
    let mut record = TaskRecord { head: Some(t.head()), ..task_record() };
    record.snapshot.submodules = Some(at_start(&repo, None).expect("snapshot"));
    record
}

#[test]
fn a_repository_without_submodules_has_none_to_read() {
    let t = TestRepo::with_commit();
    let repo = crate::open(t.path()).expect("open");
    assert!(at_start(&repo, None).expect("read").is_empty());
    assert_eq!(left(&repo, &started(&t), None).expect("read"), vec![]);
}

#[test]
fn a_branch_made_in_a_submodule_with_a_commit_its_remote_lacks_is_found_and_what_the_start_held_is_not() {
    let t = TestRepo::with_commit();
    let _bare = t.with_submodule();
    let lib = t.path().join("lib");
    // Held at the start: a branch with a commit of its own, and a stash.
    t.git_in(&lib, &["switch", "-q", "-c", "old"]);
    t.git_in(&lib, &["commit", "-q", "--allow-empty", "-m", "old work"]);
    t.git_in(&lib, &["switch", "-q", "main"]);
    std::fs::write(lib.join("a.txt"), "a\n").expect("write");
    t.git_in(&lib, &["add", "a.txt"]);
    t.git_in(&lib, &["stash", "-q"]);
    let record = started(&t);
    let at = &record.snapshot.submodules.as_ref().expect("snapshot")["lib"];
    assert!(at.branches.contains_key("old") && at.stashes.len() == 1, "{at:?}");
    let repo = crate::open(t.path()).expect("open");
    let found = left(&repo, &record, None).expect("read");
    assert_eq!(found.len(), 1);
    let l = &found[0];
    assert_eq!((l.path.as_str(), l.basis, l.unread.as_deref()), ("lib", Basis::Recorded, None));
    assert!(l.unpushed.is_empty() && l.stashes.is_empty() && l.branches.is_empty(), "{l:?}");

    // Since: a branch made from old with a commit, put back; a stash.
    t.git_in(&lib, &["switch", "-q", "-c", "helper", "old"]);
    t.git_in(&lib, &["commit", "-q", "--allow-empty", "-m", "helper"]);
    t.git_in(&lib, &["switch", "-q", "main"]);
    std::fs::write(lib.join("b.txt"), "b\n").expect("write");
    t.git_in(&lib, &["add", "b.txt"]);
    t.git_in(&lib, &["stash", "-q"]);
    let found = left(&repo, &record, None).expect("read");
    let l = &found[0];
    assert_eq!(l.unpushed.len(), 1, "{l:?}");
    let u = &l.unpushed[0];
    // The old branch's commit is inherited: only the new one counts.
    assert_eq!((u.name.as_str(), u.branch, u.moved, u.count), ("helper", true, false, 1));
    assert_eq!(l.stashes.len(), 1, "{l:?}");
    assert_eq!(l.branches.iter().map(|b| b.name.as_str()).collect::<Vec<_>>(), ["helper"]);
    assert_eq!(l.remote.as_deref(), Some("origin"));

    // Pushed to the remote .gitmodules names: no longer unpushed.
    t.git_in(&lib, &["push", "-q", "origin", "helper"]);
    let found = left(&repo, &record, None).expect("read");
    assert!(found[0].unpushed.is_empty(), "{:?}", found[0]);
}

#[test]
fn a_tag_written_in_a_submodule_since_the_start_is_read() {
    let t = TestRepo::with_commit();
    let _bare = t.with_submodule();
    let lib = t.path().join("lib");
    let record = started(&t);
    t.git_in(&lib, &["switch", "-q", "--detach"]);
    t.git_in(&lib, &["commit", "-q", "--allow-empty", "-m", "tagged"]);
    t.git_in(&lib, &["tag", "-a", "-m", "wip", "wip"]);
    t.git_in(&lib, &["switch", "-q", "main"]);
    let repo = crate::open(t.path()).expect("open");
    let found = left(&repo, &record, None).expect("read");
    let names: Vec<(&str, bool)> = found[0].unpushed.iter().map(|u| (u.name.as_str(), u.branch)).collect();
    assert_eq!(names, [("refs/tags/wip", false)]);
}

#[test]
fn a_record_without_the_submodules_is_no_snapshot_and_a_submodule_new_since_is_not_then() {
    let t = TestRepo::with_commit();
    let record = started(&t);
    let _bare = t.with_submodule();
    let lib = t.path().join("lib");
    let repo = crate::open(t.path()).expect("open");
    // Added since the start: the branch its clone made is not listed.
    let found = left(&repo, &record, None).expect("read");
    assert_eq!(found[0].basis, Basis::NotThen);
    assert!(found[0].branches.is_empty() && found[0].unpushed.is_empty(), "{:?}", found[0]);
    t.git_in(&lib, &["commit", "-q", "--allow-empty", "-m", "on main"]);
    let found = left(&repo, &record, None).expect("read");
    assert_eq!(found[0].unpushed.iter().map(|u| u.name.as_str()).collect::<Vec<_>>(), ["main"]);
    let old = TaskRecord { head: Some(t.head()), ..task_record() };
    let found = left(&repo, &old, None).expect("read");
    assert_eq!(found[0].basis, Basis::NoSnapshot);
}

#[test]
fn what_a_submodules_clone_brought_from_a_url_the_configuration_sets_is_not_the_tasks() {
    let t = TestRepo::with_commit();
    let bare = t.with_submodule();
    // The remote moves on past the commit recorded here.
    let other = tempfile::tempdir().expect("dir");
    t.git_in(other.path(), &["clone", "-q", bare.path().to_str().expect("utf-8"), "."]);
    t.git_in(other.path(), &["commit", "-q", "--allow-empty", "-m", "upstream moved on"]);
    t.git_in(other.path(), &["push", "-q", "origin", "HEAD:main"]);
    // `.gitmodules` names another URL (the project's host); this clone's
    // configuration points the submodule at a mirror, the bare one.
    t.git(&["config", "-f", ".gitmodules", "submodule.lib.url", "https://example.invalid/lib.git"]);
    t.commit_all("lib's url");
    t.git(&["submodule", "--quiet", "deinit", "-f", "lib"]);
    std::fs::remove_dir_all(t.path().join(".git/modules/lib")).expect("remove");
    let record = started(&t);
    t.git(&["config", "submodule.lib.url", bare.path().to_str().expect("utf-8")]);
    t.git(&["-c", "protocol.file.allow=always", "submodule", "--quiet", "update", "--init", "lib"]);
    let lib = t.path().join("lib");
    let repo = crate::open(t.path()).expect("open");
    let found = left(&repo, &record, None).expect("read");
    assert_eq!(found[0].basis, Basis::NotThen);
    // Its main, where the clone made it, came from the mirror.
    assert!(found[0].unpushed.is_empty() && found[0].branches.is_empty(), "{:?}", found[0]);
    // A commit made on it since is the task's.
    t.git_in(&lib, &["switch", "-q", "main"]);
    t.git_in(&lib, &["commit", "-q", "--allow-empty", "-m", "mine"]);
    let found = left(&repo, &record, None).expect("read");
    let counts: Vec<(&str, usize)> = found[0].unpushed.iter().map(|u| (u.name.as_str(), u.count)).collect();
    assert_eq!(counts, [("main", 1)]);
}

#[test]
fn a_submodule_deinitialised_since_the_start_is_read_from_its_git_directory() {
    let t = TestRepo::with_commit();
    let _bare = t.with_submodule();
    let lib = t.path().join("lib");
    let record = started(&t);
    t.git_in(&lib, &["switch", "-q", "-c", "helper"]);
    t.git_in(&lib, &["commit", "-q", "--allow-empty", "-m", "helper"]);
    t.git(&["submodule", "deinit", "-q", "-f", "lib"]);
    let repo = crate::open(t.path()).expect("open");
    let found = left(&repo, &record, None).expect("read");
    assert_eq!(found.len(), 1);
    assert!(!found[0].checked_out);
    assert_eq!(found[0].unpushed.iter().map(|u| u.name.as_str()).collect::<Vec<_>>(), ["helper"]);
}

/// The start keeps each submodule's reading and HEAD: the superproject's
/// working tree read for the task counts an edit inside lib hidden by a bit
/// set since, or a file there hidden by a rule added since, as git's own
/// reading does not (test/cases/402).
#[test]
fn a_submodule_is_read_as_its_start_read_it() {
    let t = TestRepo::with_commit();
    let _bare = t.with_submodule();
    let lib = t.path().join("lib");
    let record = started(&t);
    let at = &record.snapshot.submodules.as_ref().expect("snapshot")["lib"];
    assert!(at.reading.is_some() && at.head.is_some(), "{at:?}");
    let start = crate::status::Start::of_task(None, None, record.snapshot.submodules.as_ref());
    let repo = crate::open(t.path()).expect("open");
    let changed = |repo: &Repo| crate::status::read_since(repo, start).expect("read").dirty_inside;
    assert!(changed(&repo).is_empty());
    std::fs::write(lib.join("new.rs"), "new\n").expect("write");
    std::fs::write(t.path().join(".git/modules/lib/info/exclude"), "new.rs\n").expect("exclude");
    assert!(crate::status::read(&repo).expect("read").dirty_inside.is_empty(), "git's reading hides it");
    assert_eq!(changed(&repo), ["lib"]);
}
