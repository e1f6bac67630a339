use std::os::unix::fs::{symlink, PermissionsExt};

use super::*;

/// A base directory and, beside it, an outside directory a link points to.
struct Planted {
    base: tempfile::TempDir,
    outside: tempfile::TempDir,
}

impl Planted {
    fn new() -> Self {
        Self { base: tempfile::tempdir().expect("tempdir"), outside: tempfile::tempdir().expect("tempdir") }
    }

    fn base(&self) -> &Path {
        self.base.path()
    }

    fn outside_is_untouched(&self) {
        let names: Vec<_> =
            std::fs::read_dir(self.outside.path()).expect("list").map(|e| e.expect("entry").file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from("victim")], "something was written outside");
        assert_eq!(std::fs::read(self.outside.path().join("victim")).expect("victim"), b"keep\n");
    }
}

fn expect_link(result: Result<impl std::fmt::Debug, PlaceError>, named: &str) {
    match result {
        Err(e @ PlaceError::Link { .. }) => {
            let said = e.to_string();
            assert!(said.contains(named) && said.contains("is a symbolic link (to "), "{said}");
            assert!(e.is_refusal());
        }
        other => panic!("expected a refused link at {named}, got {other:?}"),
    }
}

#[test]
fn a_link_at_any_directory_below_the_base_is_refused_and_nothing_is_written_through_it() {
    for depth in 0..3 {
        let p = Planted::new();
        std::fs::write(p.outside.path().join("victim"), "keep\n").expect("victim");
        let dirs = ["a", "a/b", "a/b/c"];
        if depth > 0 {
            std::fs::create_dir_all(p.base().join(dirs[depth - 1])).expect("mkdir");
        }
        symlink(p.outside.path(), p.base().join(dirs[depth])).expect("plant");
        let got = open_dir(p.base(), Path::new("a/b/c"), true);
        expect_link(got, dirs[depth]);
        p.outside_is_untouched();
    }
}

#[test]
fn a_link_at_the_file_itself_is_refused_by_every_kind_of_write() {
    let p = Planted::new();
    let victim = p.outside.path().join("victim");
    std::fs::write(&victim, "keep\n").expect("victim");
    let dir = open_dir(p.base(), Path::new("state"), true).expect("dir");
    symlink(&victim, p.base().join("state/ledger.jsonl")).expect("plant");
    symlink(p.outside.path().join("new"), p.base().join("state/dangling")).expect("plant");
    expect_link(dir.append("ledger.jsonl"), "ledger.jsonl");
    expect_link(dir.open_rw("ledger.jsonl"), "ledger.jsonl");
    expect_link(dir.read("ledger.jsonl"), "ledger.jsonl");
    expect_link(dir.mode("ledger.jsonl"), "ledger.jsonl");
    expect_link(dir.append("dangling"), "dangling");
    expect_link(dir.open_rw("dangling"), "dangling");
    p.outside_is_untouched();
    // Replacing renames over the link itself: the link goes, its target stays.
    dir.replace("ledger.jsonl", b"new\n", Perm::Private).expect("replace");
    assert!(!std::fs::symlink_metadata(p.base().join("state/ledger.jsonl")).expect("meta").file_type().is_symlink());
    assert!(!dir.create("dangling", b"x", Perm::Private).expect("create"), "a link there is something there");
    p.outside_is_untouched();
}

#[test]
fn a_file_where_a_directory_goes_and_a_fifo_where_a_file_goes_are_refused_not_waited_on() {
    let p = Planted::new();
    std::fs::write(p.base().join("a"), "a file").expect("file");
    assert!(matches!(open_dir(p.base(), Path::new("a/b"), true), Err(PlaceError::NotA { kind: Kind::Directory, .. })));
    let dir = open_dir(p.base(), Path::new("s"), true).expect("dir");
    let fifo = p.base().join("s/ledger.jsonl");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
    assert!(matches!(dir.append("ledger.jsonl"), Err(PlaceError::NotA { kind: Kind::File, .. })));
    assert!(matches!(dir.read("ledger.jsonl"), Err(PlaceError::NotA { kind: Kind::File, .. })));
    std::fs::create_dir(p.base().join("s/sub")).expect("mkdir");
    assert!(matches!(dir.append("sub"), Err(PlaceError::NotA { kind: Kind::File, .. })));
}

#[test]
fn a_path_that_climbs_out_of_its_base_is_refused() {
    let p = Planted::new();
    for rel in ["../x", "/etc", "a/../../x"] {
        assert!(matches!(open_dir(p.base(), Path::new(rel), true), Err(PlaceError::Outside { .. })), "{rel}");
    }
    let outside = p.outside.path().join("f");
    assert!(matches!(open_parent(p.base(), &outside, true), Err(PlaceError::Outside { .. })));
    assert!(!outside.exists());
}

#[test]
fn a_create_never_replaces_and_of_many_racing_exactly_one_wins() {
    let p = Planted::new();
    let wins: Vec<bool> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..8)
            .map(|i| {
                let base = p.base();
                s.spawn(move || {
                    let dir = open_dir(base, Path::new("state"), true).expect("dir");
                    dir.create("task.json", format!("writer {i}").as_bytes(), Perm::Private).expect("create")
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("thread")).collect()
    });
    assert_eq!(wins.iter().filter(|w| **w).count(), 1, "{wins:?}");
    let target = p.base().join("state/task.json");
    let kept = std::fs::read_to_string(&target).expect("read");
    assert!(kept.starts_with("writer "), "{kept}");
    let dir = open_dir(p.base(), Path::new("state"), false).expect("dir");
    assert!(!dir.create("task.json", b"late", Perm::Private).expect("create"));
    assert_eq!(std::fs::read_to_string(&target).expect("read"), kept, "a refused create changed the file");
    let names: Vec<_> =
        std::fs::read_dir(p.base().join("state")).expect("list").map(|e| e.expect("entry").file_name()).collect();
    assert_eq!(names, vec![std::ffi::OsString::from("task.json")], "a temporary was left behind");
}

#[test]
fn a_replace_writes_the_whole_file_with_the_mode_asked_and_leaves_no_temporary() {
    let p = Planted::new();
    let dir = open_dir(p.base(), Path::new("a/b"), true).expect("dir");
    dir.replace("state.json", b"first, longer content", Perm::Private).expect("write");
    dir.replace("state.json", b"second", Perm::Exactly(0o640)).expect("write");
    let target = p.base().join("a/b/state.json");
    assert_eq!(std::fs::read(&target).expect("read"), b"second");
    assert_eq!(std::fs::metadata(&target).expect("meta").permissions().mode() & 0o777, 0o640);
    assert_eq!(dir.mode("state.json").expect("mode"), Some(0o640));
    assert_eq!(dir.mode("absent").expect("mode"), None);
    dir.replace("state.json", b"third", Perm::Private).expect("write");
    assert_eq!(std::fs::metadata(&target).expect("meta").permissions().mode() & 0o777, 0o600);
    let names: Vec<_> =
        std::fs::read_dir(p.base().join("a/b")).expect("list").map(|e| e.expect("entry").file_name()).collect();
    assert_eq!(names, vec![std::ffi::OsString::from("state.json")]);
    assert!(dir.remove("state.json").expect("remove"));
    assert!(!dir.remove("state.json").expect("remove"));
}

#[test]
fn a_derived_replace_is_atomic_like_any_replace_and_never_writes_through_a_link() {
    let p = Planted::new();
    let dir = open_dir(p.base(), Path::new("state"), true).expect("dir");
    dir.replace_derived("doc.json", b"first, longer content", Perm::Private).expect("write");
    dir.replace_derived("doc.json", b"second", Perm::Private).expect("write");
    let target = p.base().join("state/doc.json");
    assert_eq!(std::fs::read(&target).expect("read"), b"second");
    assert_eq!(std::fs::metadata(&target).expect("meta").permissions().mode() & 0o777, 0o600);
    let outside = p.base().join("outside.txt");
    std::fs::write(&outside, b"untouched").expect("write");
    std::fs::remove_file(&target).expect("remove");
    std::os::unix::fs::symlink(&outside, &target).expect("link");
    dir.replace_derived("doc.json", b"third", Perm::Private).expect("write");
    assert_eq!(std::fs::read(&outside).expect("read"), b"untouched", "written through the link");
    assert_eq!(std::fs::read(&target).expect("read"), b"third");
    assert!(!std::fs::symlink_metadata(&target).expect("meta").file_type().is_symlink());
    let names: Vec<_> =
        std::fs::read_dir(p.base().join("state")).expect("list").map(|e| e.expect("entry").file_name()).collect();
    assert_eq!(names, vec![std::ffi::OsString::from("doc.json")], "a temporary was left behind");
}
