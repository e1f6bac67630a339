use std::time::{Duration, SystemTime};

use majordomus_testkit::TestRepo;

use super::*;

/// The refs under `under` as git lists them (`git for-each-ref refs/heads`),
/// symbolic refs left out.
fn as_git_lists(t: &TestRepo, under: &str) -> Vec<(String, Oid)> {
    let out = t.git(&["for-each-ref", "--format=%(refname) %(objectname) %(symref)", under]);
    out.lines()
        .filter_map(|l| {
            let mut words = l.split(' ');
            let (name, id, symref) = (words.next()?, words.next()?, words.next().unwrap_or(""));
            symref.is_empty().then(|| (name.to_string(), Oid::from_str(id).expect("id")))
        })
        .collect()
}

/// The tips read through `known`, and what is kept after.
fn read(t: &TestRepo, known: &Known, now: SystemTime) -> (Vec<(String, Oid)>, Known) {
    let mut kept = known.clone();
    let read = branch_tips_at(&t.path().join(".git"), &mut kept, now).expect("read");
    assert_eq!(read.changed, kept != *known, "changed says whether what is kept changed");
    (read.tips, kept)
}

/// A time at which every file of the test is settled.
fn later() -> SystemTime {
    SystemTime::now() + Duration::from_secs(60)
}

#[test]
fn the_branches_read_from_their_files_are_the_ones_git_lists() {
    let t = TestRepo::with_commit();
    let first = t.head();
    let second = t.commit_all("second");
    for b in ["packed-only", "both", "nested/deep/name", "z-last", "a-first"] {
        t.git(&["branch", b, &first]);
    }
    t.git(&["pack-refs", "--all"]);
    // Loose over packed, with another value; a loose one beside them.
    t.git(&["update-ref", "refs/heads/both", &second]);
    t.git(&["branch", "loose-only", &second]);
    t.git(&["symbolic-ref", "refs/heads/sym", "refs/heads/main"]);
    let heads = t.path().join(".git/refs/heads");
    // What git does not take for a branch: a lock file, a broken ref.
    std::fs::write(heads.join("locked.lock"), format!("{second}\n")).expect("lock");
    std::fs::write(heads.join("broken"), "not an id\n").expect("broken");
    std::fs::write(heads.join("trailing-junk"), format!("{second}junk\n")).expect("junk");
    std::fs::create_dir_all(heads.join("empty/dir")).expect("dir");
    let git = as_git_lists(&t, "refs/heads");
    assert!(git.iter().any(|(n, _)| n == "refs/heads/both"), "{git:?}");
    let (ours, _) = read(&t, &Known::default(), later());
    assert_eq!(ours, git);
    let (ours, _) = read(&t, &Known::default(), SystemTime::now());
    assert_eq!(ours, git, "the same when nothing is settled");
}

#[test]
fn a_ref_file_whose_stamp_is_unchanged_is_not_read_again() {
    let t = TestRepo::with_commit();
    let first = t.head();
    t.git(&["branch", "side"]);
    let (_, known) = read(&t, &Known::default(), later());
    assert!(known.contains("refs/heads/side"), "{known:?}");
    // What was kept for `side` is taken as it is while its file's stamp is
    // unchanged: a kept id that is not the file's is what is answered (the
    // file was not opened).
    let mut forged = known.clone();
    let zeros = "0".repeat(39) + "1";
    forged.get_mut("refs/heads/side").expect("kept").id = Some(Oid::from_str(&zeros).expect("id"));
    let (tips, _) = read(&t, &forged, later());
    let side = tips.iter().find(|(n, _)| n == "refs/heads/side").expect("side");
    assert_eq!(side.1.to_string(), zeros);
    // Once git moves the branch, the file is a new one: read again.
    let second = t.commit_all("second");
    t.git(&["branch", "-f", "side", &second]);
    let (tips, _) = read(&t, &forged, later());
    assert_eq!(tips.iter().find(|(n, _)| n == "refs/heads/side").expect("side").1.to_string(), second);
    assert_ne!(first, second);
}

#[test]
fn a_second_read_with_nothing_changed_keeps_nothing_new() {
    let t = TestRepo::with_commit();
    t.git(&["branch", "side"]);
    t.git(&["symbolic-ref", "refs/heads/sym", "refs/heads/main"]);
    let mut known = Known::default();
    let first = branch_tips_at(&t.path().join(".git"), &mut known, later()).expect("read");
    assert!(first.changed && known.len() == 3, "{known:?}");
    let second = branch_tips_at(&t.path().join(".git"), &mut known, later()).expect("read");
    assert!(!second.changed, "nothing moved, nothing to keep again");
    assert_eq!(first.tips, second.tips);
    t.git(&["branch", "-D", "side"]);
    let third = branch_tips_at(&t.path().join(".git"), &mut known, later()).expect("read");
    assert!(third.changed && !known.contains("refs/heads/side"), "a deleted branch is no longer kept");
}

#[test]
fn what_is_kept_is_found_in_any_order_and_kept_in_the_order_of_the_walk() {
    let t = TestRepo::with_commit();
    for b in ["a", "b", "c/d", "c/e", "f"] {
        t.git(&["branch", b]);
    }
    let (tips, walked) = read(&t, &Known::default(), later());
    let mut reversed = Known::default();
    for (name, file) in walked.iter().rev() {
        reversed.push(name, *file);
    }
    assert_ne!(reversed, walked);
    // `read` asserts that `changed` says the order kept changed.
    let (again, kept) = read(&t, &reversed, later());
    assert_eq!((&again, &kept), (&tips, &walked), "the same tips; kept as the walk met them");
    assert!(!branch_tips_at(&t.path().join(".git"), &mut kept.clone(), later()).expect("read").changed);
    // A file added and one removed move the listing: every tip is still the file's.
    t.git(&["branch", "-D", "b"]);
    t.git(&["branch", "c/g"]);
    let (moved, _) = read(&t, &kept, later());
    assert_eq!(moved, as_git_lists(&t, "refs/heads"));
}

/// The order of the names kept is used while the walk meets the same
/// names, and made again where it does not: the tips are git's, sorted,
/// through every kind of change.
#[test]
fn the_names_order_kept_hands_the_tips_on_sorted_through_every_change() {
    let t = TestRepo::with_commit();
    for b in ["m", "b", "x/y", "a", "z"] {
        t.git(&["branch", b]);
    }
    let (_, mut kept) = read(&t, &Known::default(), later());
    let first = kept.order().to_vec();
    assert_eq!(first.len(), kept.len(), "{kept:?}");
    let again = branch_tips_at(&t.path().join(".git"), &mut kept, later()).expect("read");
    assert!(!again.changed && kept.order() == first, "nothing new to keep");
    // A branch moved (a new file under the same name), one added, one
    // removed, one packed: each time git's list, and the order the names'.
    let steps: [&[&str]; 4] =
        [&["branch", "-f", "b", "HEAD"], &["branch", "c"], &["branch", "-D", "m"], &["pack-refs", "--all"]];
    for step in steps {
        t.write("more.txt", step.join(" ").as_str());
        t.commit_all("more");
        t.git(step);
        let (tips, next) = read(&t, &kept, later());
        assert_eq!(tips, as_git_lists(&t, "refs/heads"), "{step:?}");
        let names: Vec<&str> = next.order().iter().map(|&i| next.iter().nth(i as usize).expect("file").0).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        assert_eq!((names.len(), &names), (next.len(), &sorted), "{step:?}");
        kept = next;
    }
}

#[test]
fn the_tags_read_from_their_files_are_the_ones_git_lists_and_packed_ones_peel() {
    let t = TestRepo::with_commit();
    let first = t.head();
    let second = t.commit_all("second");
    t.git(&["tag", "light", &first]);
    t.git(&["tag", "-a", "-m", "annotated", "annotated", &first]);
    t.git(&["tag", "-a", "-m", "both", "both", &first]);
    t.git(&["pack-refs", "--all"]);
    t.git(&["tag", "-f", "both", &second]);
    t.git(&["tag", "-a", "-m", "loose", "loose-annotated", &second]);
    let git = as_git_lists(&t, "refs/tags");
    let ours = tags(&t.path().join(".git")).expect("tags");
    assert_eq!(ours.iter().map(|r| (r.name.clone(), r.id)).collect::<Vec<_>>(), git);
    let peeled = |n: &str| ours.iter().find(|r| r.name == format!("refs/tags/{n}")).expect("tag").peeled;
    assert_eq!(peeled("annotated").map(|o| o.to_string()), Some(first.clone()), "packed with its peeled line");
    assert_eq!(peeled("light"), None, "a lightweight tag peels to nothing");
    assert_eq!(peeled("both"), None, "the loose file overrides the packed line and its peel");
    assert_eq!(peeled("loose-annotated"), None, "a loose tag's peel is its object's to say");
}

#[test]
fn a_fifo_among_the_ref_files_is_a_reading_that_fails_not_a_wait() {
    let t = TestRepo::with_commit();
    let fifo = t.path().join(".git/refs/heads/pipe");
    rustix::fs::mknodat(rustix::fs::CWD, &fifo, rustix::fs::FileType::Fifo, rustix::fs::Mode::from_raw_mode(0o600), 0)
        .expect("mkfifo");
    let err = branch_tips(&t.path().join(".git"), &mut Known::default()).expect_err("a FIFO is no ref file");
    assert!(err.reason.contains("FIFO"), "{}", err.reason);
    std::fs::remove_file(&fifo).expect("rm");
    rustix::fs::mknodat(
        rustix::fs::CWD,
        t.path().join(".git/packed-refs"),
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o600),
        0,
    )
    .expect("mkfifo");
    let err = branch_tips(&t.path().join(".git"), &mut Known::default()).expect_err("nor is packed-refs one");
    assert!(err.reason.contains("FIFO"), "{}", err.reason);
}

#[test]
fn a_ref_file_rewritten_in_place_is_read_again() {
    let t = TestRepo::with_commit();
    let first = t.head();
    let second = t.commit_all("second");
    t.git(&["branch", "side", &first]);
    let (_, known) = read(&t, &Known::default(), later());
    // The same inode and size, a new change time.
    std::thread::sleep(Duration::from_millis(20));
    let path = t.path().join(".git/refs/heads/side");
    std::fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(&path)
        .and_then(|mut f| std::io::Write::write_all(&mut f, format!("{second}\n").as_bytes()))
        .expect("rewrite");
    let (tips, _) = read(&t, &known, later());
    assert_eq!(tips.iter().find(|(n, _)| n == "refs/heads/side").expect("side").1.to_string(), second);
}

#[test]
fn a_ref_file_changed_just_before_it_is_read_is_not_kept() {
    let t = TestRepo::with_commit();
    t.git(&["branch", "side"]);
    let (tips, known) = read(&t, &Known::default(), SystemTime::now());
    assert!(tips.iter().any(|(n, _)| n == "refs/heads/side"));
    assert!(!known.contains("refs/heads/side"), "changed within {SETTLED:?}: {known:?}");
}

#[test]
fn a_branch_deleted_is_gone_though_it_was_kept() {
    let t = TestRepo::with_commit();
    t.git(&["branch", "side"]);
    let (_, known) = read(&t, &Known::default(), later());
    t.git(&["branch", "-D", "side"]);
    let (tips, known) = read(&t, &known, later());
    assert!(!tips.iter().any(|(n, _)| n == "refs/heads/side"), "{tips:?}");
    assert!(!known.contains("refs/heads/side"));
}

#[test]
fn the_newest_times_under_refs_heads_and_remotes_complete_the_fingerprint_as_a_full_walk_reads_it() {
    let t = TestRepo::with_commit();
    t.git(&["branch", "nested/deep/side"]);
    t.git(&["tag", "v1"]);
    t.git(&["update-ref", "refs/remotes/origin/main", "HEAD"]);
    t.git(&["update-ref", "refs/remotes/origin/team/deep/topic", "HEAD"]);
    let heads = t.path().join(".git/refs/heads");
    let remotes = t.path().join(".git/refs/remotes");
    std::fs::write(heads.join("locked.lock"), "x").expect("lock");
    std::os::unix::fs::symlink("main", heads.join("link")).expect("link");
    std::fs::create_dir_all(heads.join("empty")).expect("dir");
    std::fs::write(remotes.join("origin/stray.lock"), "x").expect("lock");
    let repo = crate::open(t.path()).expect("open");
    let walked = || {
        let heads = branch_tips(repo.common_dir(), &mut Known::default()).expect("read");
        let remotes = remote_tips(repo.common_dir(), &mut Known::default()).expect("read");
        [heads.newest_mtime_ns, remotes.newest_mtime_ns]
    };
    let full = crate::fingerprint::read_cheap(&repo);
    let parts = crate::fingerprint::read_cheap_but_walked(&repo);
    assert_eq!(parts.clone().with_walked(&repo, walked()), full);
    assert_eq!(parts.with_walked(&repo, [None, None]), full, "walked again where the readings did not take them");
    // Each newest in turn: a lock file's, a subdirectory's, a
    // remote-tracking ref's, one of the remotes' subdirectories.
    for touched in [
        heads.join("locked.lock"),
        heads.join("nested/deep"),
        remotes.join("origin/main"),
        remotes.join("origin/team/deep"),
        remotes.join("origin/stray.lock"),
    ] {
        std::thread::sleep(Duration::from_millis(20));
        let now = filetime_now();
        set_mtime(&touched, now);
        let full = crate::fingerprint::read_cheap(&repo);
        assert_eq!(full.refs_mtime_ns, Some(now), "{touched:?} is the newest");
        let parts = crate::fingerprint::read_cheap_but_walked(&repo);
        assert_ne!(parts.refs_mtime_ns, Some(now), "{touched:?} is left to the walks");
        assert_eq!(parts.clone().with_walked(&repo, walked()), full, "{touched:?}");
        assert_eq!(parts.with_walked(&repo, [None, None]), full, "{touched:?}");
    }
}

fn filetime_now() -> u64 {
    SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("after the epoch").as_nanos() as u64 / 1000 * 1000
}

/// Sets a path's modification time (ns since the epoch, whole µs).
fn set_mtime(path: &std::path::Path, ns: u64) {
    let t = rustix::fs::Timestamps {
        last_access: rustix::fs::Timespec { tv_sec: (ns / 1_000_000_000) as i64, tv_nsec: (ns % 1_000_000_000) as _ },
        last_modification: rustix::fs::Timespec {
            tv_sec: (ns / 1_000_000_000) as i64,
            tv_nsec: (ns % 1_000_000_000) as _,
        },
    };
    rustix::fs::utimensat(rustix::fs::CWD, path, &t, rustix::fs::AtFlags::SYMLINK_NOFOLLOW).expect("utimensat");
}

#[test]
fn the_remote_tracking_refs_read_from_their_files_are_the_ones_git_lists() {
    let t = TestRepo::with_commit();
    let first = t.head();
    let second = t.commit_all("second");
    let _origin = t.with_origin();
    t.git(&["remote", "set-head", "origin", "main"]);
    t.git(&["update-ref", "refs/remotes/origin/packed", &first]);
    t.git(&["update-ref", "refs/remotes/other/deep/name", &first]);
    t.git(&["pack-refs", "--all"]);
    t.git(&["update-ref", "refs/remotes/other/deep/name", &second]);
    t.git(&["update-ref", "refs/remotes/origin/loose", &second]);
    t.git(&["branch", "not-a-remote", &second]);
    let git = as_git_lists(&t, "refs/remotes");
    assert!(git.len() >= 4, "{git:?}");
    assert_eq!(direct_refs(&t.path().join(".git"), "refs/remotes").expect("read"), git);
}

#[test]
fn an_id_is_read_as_libgit2_reads_one() {
    let id = "0123456789abcdefABCDEF0123456789abcdef01";
    assert_eq!(parse_id(id.as_bytes()), Oid::from_str(id).ok());
    for bad in ["0123456789abcdefABCDEF0123456789abcdef0", "g123456789abcdefABCDEF0123456789abcdef01", ""] {
        assert_eq!(parse_id(bad.as_bytes()), None, "{bad:?}");
    }
}

#[test]
fn a_ref_name_is_valid_where_libgit2_says_it_is() {
    let names = [
        "refs/heads/main",
        "refs/heads/a/b/c",
        "refs/heads/with-dash_and.dot",
        "refs/heads/ünïcode",
        "refs/heads/x.lock",
        "refs/heads/x.lock/y",
        "refs/heads/.hidden",
        "refs/heads/a/.b",
        "refs/heads/a..b",
        "refs/heads/a.",
        "refs/heads/a/",
        "refs/heads//a",
        "/refs/heads/a",
        "refs/heads/a b",
        "refs/heads/a~1",
        "refs/heads/a^",
        "refs/heads/a:b",
        "refs/heads/a?",
        "refs/heads/a*",
        "refs/heads/a[",
        "refs/heads/a\\b",
        "refs/heads/a@{1}",
        "refs/heads/@",
        "refs/heads/a@b",
        "refs/heads/tab\there",
        "refs/heads/del\u{7f}",
        "refs/tags/v1.0",
        "refs/remotes/origin/HEAD",
        "refs/heads/a.lockx",
        "refs/heads/.lock",
        "refs/heads/a/b.",
        "refs/heads/a/@{",
        "refs/heads/a@",
        "refs/heads/{@",
        "refs/heads/a/.",
        "refs/heads/a.lock.b",
        "refs/heads/..",
        ".",
        "refs/heads/@{x}/y",
    ];
    for name in names {
        assert_eq!(valid_refname(name), git2::Reference::is_valid_name(name), "{name:?}");
    }
}

#[test]
fn packed_refs_written_by_hand_read_as_git_reads_them_and_again_once_changed() {
    let t = TestRepo::with_commit();
    let id = t.head();
    let common = t.path().join(".git");
    t.write("other.txt", "other");
    let other = t.commit_all("other");
    // Out of order, a name twice (the first line is the one read), a line
    // ending in CRLF, a peel on a tag, a name git refuses, a broken line.
    let text = format!(
        "# pack-refs with: peeled fully-peeled sorted\n{id} refs/tags/v1\r\n^{other}\n{id} refs/heads/z\n{id} refs/heads/a\n{other} refs/heads/a\n{id} refs/heads/bad..name\nnot-an-id refs/heads/broken\n"
    );
    std::fs::write(common.join("packed-refs"), &text).expect("write");
    let heads = packed(&common, "refs/heads/").expect("read");
    let names: Vec<(&str, String)> = heads.iter().map(|(n, id, _)| (n.as_str(), id.to_string())).collect();
    assert_eq!(names, vec![("refs/heads/a", id.clone()), ("refs/heads/z", id.clone())]);
    let tags = packed(&common, "refs/tags/").expect("read");
    assert_eq!(tags.len(), 1);
    assert_eq!((tags[0].0.as_str(), tags[0].2.map(|p| p.to_string())), ("refs/tags/v1", Some(other.clone())));
    let every = packed_where(&common, |_| true).expect("read");
    assert_eq!(
        every.iter().map(|(n, _, _)| n.as_str()).collect::<Vec<_>>(),
        ["refs/heads/a", "refs/heads/z", "refs/tags/v1"]
    );
    // Written again in place, the same size: read again, not kept.
    let moved = text.replacen(&format!("{id} refs/heads/z"), &format!("{other} refs/heads/z"), 1);
    assert_eq!(moved.len(), text.len());
    std::fs::OpenOptions::new()
        .write(true)
        .open(common.join("packed-refs"))
        .and_then(|mut f| std::io::Write::write_all(&mut f, moved.as_bytes()))
        .expect("write in place");
    let heads = packed(&common, "refs/heads/z").expect("read");
    assert_eq!(heads[0].1.to_string(), other, "the new line is read");
    std::fs::remove_file(common.join("packed-refs")).expect("remove");
    assert!(packed(&common, "refs/").expect("read").is_empty(), "no file, no packed ref");
}
