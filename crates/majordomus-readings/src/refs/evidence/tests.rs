//! The evidence of the remotes, read over real repositories: each ordinary
//! command that moves a remote-tracking ref without the remote, against a
//! fetch and a push that do go through it.

use majordomus_records::task::{Leads, Snapshot};
use majordomus_testkit::{TempDir, TestRepo};

use super::*;

/// A repository with `origin` (main pushed and tracked) and the snapshot
/// `start` would record now.
fn started() -> (TestRepo, TempDir, Snapshot) {
    let t = TestRepo::with_commit();
    let origin = t.with_origin();
    let snapshot = snapshot_of(&t);
    (t, origin, snapshot)
}

fn snapshot_of(t: &TestRepo) -> Snapshot {
    let repo = crate::open(t.path()).expect("open");
    let (remotes, refs) = at_start_now(&repo).expect("read");
    Snapshot { remotes: Some(remotes), remote_refs: Some(refs.into()), ..Snapshot::default() }
}

fn read(t: &TestRepo, snapshot: &Snapshot) -> RemoteEvidence {
    let repo = crate::open(t.path()).expect("open");
    evidence(&repo, Start::Snapshot(snapshot)).expect("read")
}

/// A commit on `main` made since the start, not pushed.
fn commit(t: &TestRepo, name: &str) -> String {
    t.write(name, "work\n");
    t.commit_all(name)
}

#[test]
fn a_ref_moved_by_a_fetch_or_a_push_of_its_remote_counts_as_it_is() {
    let (t, origin, start) = started();
    let pushed = commit(&t, "a");
    t.git(&["push", "-q", "origin", "HEAD:review/x"]);
    let e = read(&t, &start);
    let x = e.get("refs/remotes/origin/review/x").expect("counted");
    assert_eq!((x.commit.as_str(), &x.at_start), (pushed.as_str(), &None));
    // Another clone moves origin's main; a fetch brings it here.
    let other = t.path().with_file_name(format!("{}-other", t.path().file_name().expect("name").to_string_lossy()));
    t.git(&["clone", "-q", origin.path().to_str().expect("utf-8"), other.to_str().expect("utf-8")]);
    t.git_in(&other, &["commit", "-q", "--allow-empty", "-m", "elsewhere"]);
    t.git_in(&other, &["push", "-q", "origin", "HEAD:main"]);
    let fetched = t.git_in(&other, &["rev-parse", "HEAD"]).trim().to_string();
    for fetch in
        [&["fetch", "-q"][..], &["fetch", "-q", "origin"], &["fetch", "-q", origin.path().to_str().expect("utf-8")]]
    {
        t.git(&[
            "update-ref",
            "refs/remotes/origin/main",
            &start.remote_refs.as_ref().expect("refs")["refs/remotes/origin/main"],
        ]);
        let mut args = fetch.to_vec();
        if args.len() == 3 {
            args.push("main:refs/remotes/origin/main");
        }
        t.git(&args);
        let main = read(&t, &start).get("refs/remotes/origin/main").cloned().expect("counted");
        assert_eq!((main.commit, main.at_start), (fetched.clone(), None), "{fetch:?}");
    }
    std::fs::remove_dir_all(other).expect("cleanup");
}

#[test]
fn a_ref_moved_without_its_remote_is_read_at_its_start_value_and_says_how() {
    let (t, _origin, start) = started();
    let at_start = start.remote_refs.as_ref().expect("refs")["refs/remotes/origin/main"].to_string();
    let here = commit(&t, "a");
    let moves: [(&[&str], &str); 3] = [
        (&["update-ref", "refs/remotes/origin/main", "HEAD"], "git update-ref"),
        (&["fetch", "-q", ".", "HEAD:refs/remotes/origin/main"], "fetch -q . HEAD"),
        (&["push", "-q", ".", "HEAD:refs/remotes/origin/main"], "\"push\""),
    ];
    for (args, how) in moves {
        t.git(&["update-ref", "refs/remotes/origin/main", &at_start]);
        t.git(args);
        assert_eq!(t.git(&["rev-parse", "origin/main"]).trim(), here, "{args:?} did not move the ref");
        let main = read(&t, &start).get("refs/remotes/origin/main").cloned().expect("read at its start value");
        assert_eq!(main.commit, at_start, "{args:?}");
        let why = main.at_start.expect("says why");
        assert!(why.contains(how) && why.contains("not by a fetch or push of origin"), "{args:?}: {why}");
    }
    // Written as a file, no reflog line at all; then the reflog expired.
    t.git(&["update-ref", "refs/remotes/origin/main", &at_start]);
    t.git(&["pack-refs", "--all"]);
    std::fs::write(t.path().join(".git/refs/remotes/origin/main"), format!("{here}\n")).expect("write");
    let main = read(&t, &start).get("refs/remotes/origin/main").cloned().expect("read at its start value");
    assert!(main.commit == at_start && main.at_start.is_some_and(|w| w.contains("by hand")));
    t.git(&["update-ref", "refs/remotes/origin/main", "HEAD"]);
    t.git(&["reflog", "expire", "--expire=now", "--all"]);
    assert_eq!(read(&t, &start).get("refs/remotes/origin/main").expect("read").commit, at_start);
}

#[test]
fn a_ref_that_appeared_without_its_remote_is_set_aside_as_appeared() {
    let (t, _origin, start) = started();
    commit(&t, "a");
    t.git(&["update-ref", "refs/remotes/origin/forged", "HEAD"]);
    let e = read(&t, &start);
    assert!(e.get("refs/remotes/origin/forged").is_none());
    let aside = e.set_aside_for("refs/remotes/origin/forged").expect("set aside");
    assert!(aside.appeared && aside.why.contains("appeared since the start"), "{aside:?}");
}

#[test]
fn a_remote_added_re_pointed_or_removed_since_the_start_is_not_evidence() {
    let (t, origin, start) = started();
    let at_start = start.remote_refs.as_ref().expect("refs")["refs/remotes/origin/main"].to_string();
    commit(&t, "a");
    // Added since the start, even a real bare repository.
    let backup = tempfile::Builder::new().prefix("majordomus-backup-").tempdir().expect("tempdir");
    t.git_in(backup.path(), &["init", "-q", "--bare"]);
    t.git(&["remote", "add", "backup", backup.path().to_str().expect("utf-8")]);
    t.git(&["push", "-q", "backup", "HEAD:main"]);
    let e = read(&t, &start);
    assert!(e.get("refs/remotes/backup/main").is_none());
    assert!(e.set_aside_for("backup").is_some_and(|s| s.why.contains("added since the start")));
    // Re-pointed at this repository itself, then fetched: read at the start value.
    t.git(&["remote", "set-url", "origin", t.path().to_str().expect("utf-8")]);
    t.git(&["fetch", "-q", "origin"]);
    let e = read(&t, &start);
    let main = e.get("refs/remotes/origin/main").expect("read at its start value");
    assert_eq!(main.commit, at_start);
    assert!(main.at_start.as_ref().is_some_and(|w| w.contains("this repository itself")), "{main:?}");
    // Removed: its refs went with it, and are read at their start values.
    t.git(&["remote", "remove", "origin"]);
    let e = read(&t, &start);
    assert_eq!(e.get("refs/remotes/origin/main").expect("kept").commit, at_start);
    assert!(!e.no_remote(), "a remote removed since the start still had one at the start");
    drop(origin);
}

#[test]
fn a_remote_whose_url_leads_elsewhere_than_at_the_start_is_not_evidence() {
    let (t, origin, _) = started();
    let dir = origin.path().to_path_buf();
    let link = dir.with_file_name(format!("{}-link", dir.file_name().expect("name").to_string_lossy()));
    std::os::unix::fs::symlink(&dir, &link).expect("link");
    t.git(&["remote", "set-url", "origin", link.to_str().expect("utf-8")]);
    t.git(&["remote", "add", "net", "https://example.invalid/x.git"]);
    let start = snapshot_of(&t);
    let remotes = start.remotes.as_ref().expect("remotes");
    assert_eq!(remotes["net"].url_leads, Some(Leads::Network));
    assert!(
        matches!(&remotes["origin"].url_leads, Some(Leads::Repository(r)) if r.path.0 == dir.canonicalize().expect("canonical").into_os_string().into_vec())
    );
    // Unchanged, the link and the network URL count.
    commit(&t, "a");
    t.git(&["push", "-q", "origin", "main"]);
    let e = read(&t, &start);
    assert!(e.set_aside.is_empty(), "{:?}", e.set_aside);
    assert!(e.get("refs/remotes/origin/main").is_some_and(|m| m.at_start.is_none()));
    // The directory the link leads to replaced by a copy: the same path,
    // another inode.
    let at_start = start.remote_refs.as_ref().expect("refs")["refs/remotes/origin/main"].to_string();
    let aside = dir.with_file_name(format!("{}-aside", dir.file_name().expect("name").to_string_lossy()));
    std::fs::rename(&dir, &aside).expect("move aside");
    t.git(&["clone", "-q", "--bare", aside.to_str().expect("utf-8"), dir.to_str().expect("utf-8")]);
    let e = read(&t, &start);
    let main = e.get("refs/remotes/origin/main").expect("read at its start value");
    assert_eq!(main.commit, at_start);
    let why = main.at_start.as_deref().unwrap_or_default();
    assert!(why.contains("is the start's") && why.contains("inode"), "{why}");
    assert!(e.set_aside_for("net").is_none(), "a network URL unchanged counts");
    // An older record, which kept no place, compares the URL's text only.
    let mut older = start.clone();
    for r in older.remotes.as_mut().expect("remotes").values_mut() {
        r.url_leads = None;
    }
    assert!(read(&t, &older).set_aside_for("origin").is_none());
    // The link re-pointed: another path.
    std::fs::remove_dir_all(&dir).expect("remove the copy");
    std::fs::rename(&aside, &dir).expect("put back");
    assert!(read(&t, &start).set_aside_for("origin").is_none(), "put back, it is the start's again");
    let copy = dir.with_file_name(format!("{}-copy", dir.file_name().expect("name").to_string_lossy()));
    t.git(&["clone", "-q", "--bare", dir.to_str().expect("utf-8"), copy.to_str().expect("utf-8")]);
    std::fs::remove_file(&link).expect("unlink");
    std::os::unix::fs::symlink(&copy, &link).expect("re-point");
    let why = read(&t, &start).set_aside_for("origin").map(|s| s.why.clone()).unwrap_or_default();
    assert!(why.contains(&dir.canonicalize().expect("c").display().to_string()), "{why}");
    assert!(why.contains(&copy.canonicalize().expect("c").display().to_string()), "{why}");
    // None there now.
    std::fs::remove_file(&link).expect("unlink");
    let why = read(&t, &start).set_aside_for("origin").map(|s| s.why.clone()).unwrap_or_default();
    assert!(why.contains("leads now to no repository"), "{why}");
    std::fs::remove_dir_all(&copy).expect("cleanup");
}

#[test]
fn a_branch_of_a_remote_here_that_no_ref_here_stands_for_is_beyond_the_refspecs() {
    let (t, origin, start) = started();
    let url = origin.path().to_str().expect("utf-8").to_string();
    let made = commit(&t, "a");
    t.git(&["push", "-q", &url, "HEAD:refs/heads/backup/x"]);
    t.git(&["push", "-q", "origin", "HEAD:refs/heads/tracked"]);
    // A commit this repository does not have, on a branch of the remote's.
    let other = t.path().with_file_name(format!("{}-other", t.path().file_name().expect("name").to_string_lossy()));
    t.git(&["clone", "-q", &url, other.to_str().expect("utf-8")]);
    t.git_in(&other, &["commit", "-q", "--allow-empty", "-m", "theirs"]);
    t.git_in(&other, &["push", "-q", "origin", "HEAD:theirs"]);
    let e = read(&t, &start);
    assert_eq!(e.beyond_refspecs, vec![("origin".to_string(), "backup/x".to_string(), made.clone())]);
    // Its ref deleted here: the remote still has the branch.
    t.git(&["branch", "-q", "-dr", "origin/tracked"]);
    let e = read(&t, &start);
    assert!(
        e.beyond_refspecs.contains(&("origin".to_string(), "tracked".to_string(), made)),
        "{:?}",
        e.beyond_refspecs
    );
    // With no task, nothing is asked of it.
    let repo = crate::open(t.path()).expect("open");
    assert!(evidence(&repo, Start::NoTask).expect("read").beyond_refspecs.is_empty());
    std::fs::remove_dir_all(other).expect("cleanup");
}

#[test]
fn a_remote_whose_url_is_this_repository_is_never_evidence_even_with_no_task() {
    let t = TestRepo::with_commit();
    t.git(&["checkout", "-q", "-b", "feature"]);
    t.git(&["remote", "add", "self", t.path().to_str().expect("utf-8")]);
    t.git(&["push", "-q", "-u", "self", "feature"]);
    let repo = crate::open(t.path()).expect("open");
    let e = evidence(&repo, Start::NoTask).expect("read");
    assert!(e.refs.is_empty(), "{e:?}");
    assert!(e.set_aside_for("refs/remotes/self/feature").is_some_and(|s| s.why.contains("this repository itself")));
    // Through a relative path or a file:// URL, and through insteadOf.
    for url in [".", "file://{}", "local:x"] {
        let url = url.replace("{}", t.path().to_str().expect("utf-8"));
        t.git(&["remote", "set-url", "self", &url]);
        if url == "local:x" {
            t.git(&["config", &format!("url.{}.insteadOf", t.path().display()), "local:x"]);
        }
        assert!(evidence(&repo, Start::NoTask).expect("read").refs.is_empty(), "{url}");
    }
}

#[test]
fn a_fetch_refspec_of_a_remote_not_counted_poisons_the_refs_it_writes() {
    let (t, _origin, start) = started();
    t.git(&["remote", "add", "sneaky", t.path().to_str().expect("utf-8")]);
    t.git(&["config", "remote.sneaky.fetch", "+refs/heads/*:refs/remotes/origin/*"]);
    commit(&t, "a");
    t.git(&["fetch", "-q", "sneaky"]);
    let e = read(&t, &start);
    let main = e.get("refs/remotes/origin/main").expect("read at its start value");
    assert_eq!(&main.commit, &start.remote_refs.as_ref().expect("refs")["refs/remotes/origin/main"]);
    assert!(main.at_start.as_ref().is_some_and(|w| w.contains("sneaky")), "{main:?}");
}

#[test]
fn a_record_without_the_remotes_is_unread_and_says_what_it_lacks() {
    let (t, _origin, _) = started();
    let repo = crate::open(t.path()).expect("open");
    let e = evidence(&repo, Start::Snapshot(&Snapshot::default())).expect_err("no remotes recorded");
    assert_eq!(e.kind, crate::UnreadKind::Record);
    assert!(e.reason.contains("older majordomus"), "{e}");
}

#[test]
fn a_grafts_file_with_a_graft_is_found_and_an_empty_one_is_not() {
    let (t, _origin, start) = started();
    let path = t.path().join(".git/info/grafts");
    std::fs::create_dir_all(path.parent().expect("dir")).expect("mkdir");
    std::fs::write(&path, "").expect("write");
    assert_eq!(read(&t, &start).grafts, None);
    std::fs::write(&path, format!("{}\n", t.head())).expect("write");
    assert!(read(&t, &start).grafts_reason().is_some_and(|r| r.contains("grafts")));
}

#[test]
fn reflog_lines_are_told_from_their_remote_by_name_url_or_all() {
    let t = TestRepo::with_commit();
    let root = t.path();
    let line = |message: &str| Line { old: "0".repeat(40), new: "1".repeat(40), time: 0, message: message.into() };
    let url = Some("git@example.com:acme/tools.git");
    for (message, counted) in [
        ("update by push", true),
        ("push", false),
        ("", false),
        ("fetch: fast-forward", true),
        ("fetch -q origin: fast-forward", true),
        ("fetch --depth 1 origin main: storing head", true),
        ("fetch -j 4 --all: fast-forward", true),
        ("fetch --multiple upstream origin: fast-forward", true),
        ("fetch --multiple upstream: fast-forward", false),
        ("fetch git@example.com:acme/tools.git main:refs/remotes/origin/main: fast-forward", true),
        ("fetch . HEAD:refs/remotes/origin/main: fast-forward", false),
        ("fetch upstream: fast-forward", false),
        ("pull --rebase: fast-forward", true),
        ("clone: from git@example.com:acme/tools.git", true),
        ("clone: from /elsewhere", false),
        ("reset: moving to HEAD", false),
    ] {
        assert_eq!(from_remote(root, &line(message), "origin", url), counted, "{message:?}");
    }
}

#[test]
fn by_name_finds_what_the_searches_find_the_first_of_a_name_included() {
    let tracking = |refname: &str, commit: &str| Tracking {
        refname: refname.into(),
        remote: "origin".into(),
        commit: commit.into(),
        at_start: None,
    };
    let aside = |subject: &str, why: &str| SetAside { subject: subject.into(), why: why.into(), appeared: false };
    let e = RemoteEvidence {
        refs: vec![
            tracking("refs/remotes/origin/a", "1"),
            tracking("refs/remotes/origin/b", "2"),
            tracking("refs/remotes/origin/a", "3"),
        ],
        set_aside: vec![
            aside("refs/remotes/origin/c", "first"),
            aside("refs/remotes/origin/c", "second"),
            aside("up", "gone"),
        ],
        ..RemoteEvidence::default()
    };
    let by_name = e.by_name();
    for name in
        ["refs/remotes/origin/a", "refs/remotes/origin/b", "refs/remotes/origin/c", "up", "refs/remotes/origin/z"]
    {
        assert_eq!(by_name.get(name), e.get(name), "{name}");
        assert_eq!(by_name.set_aside_for(name), e.set_aside_for(name), "{name}");
    }
    assert_eq!(by_name.get("refs/remotes/origin/a").map(|t| t.commit.as_str()), Some("1"));
    assert_eq!(by_name.set_aside_for("refs/remotes/origin/c").map(|s| s.why.as_str()), Some("first"));
}

#[test]
fn a_push_to_a_remote_with_two_urls_counts_only_where_each_holds_it() {
    let (t, origin, _) = started();
    let backup = TempDir::with_prefix("majordomus-backup-").expect("tempdir");
    t.git_in(backup.path(), &["init", "-q", "--bare", "-b", "main"]);
    let backup_url = backup.path().to_str().expect("utf-8").to_string();
    t.git(&["config", "--add", "remote.origin.url", &backup_url]);
    t.git(&["push", "-q", "origin", "main"]);
    let start = snapshot_of(&t);
    let then = &start.remotes.as_ref().expect("remotes")["origin"];
    assert_eq!(then.urls.as_ref().map(Vec::len), Some(2), "both URLs kept");
    // Both on this machine, both accept: each read to hold it.
    let made = commit(&t, "a");
    t.git(&["push", "-q", "origin", "main"]);
    let e = read(&t, &start);
    assert_eq!(
        e.get("refs/remotes/origin/main").map(|r| (r.commit.as_str(), r.at_start.is_none())),
        Some((made.as_str(), true))
    );
    // The first, the one fetched from, refuses (moved elsewhere
    // meanwhile), the second accepts: the line says pushed, and origin's
    // own branch does not hold it.
    let other = t.path().with_file_name(format!("{}-other2", t.path().file_name().expect("name").to_string_lossy()));
    t.git(&["clone", "-q", origin.path().to_str().expect("utf-8"), other.to_str().expect("utf-8")]);
    t.git_in(&other, &["commit", "-q", "--allow-empty", "-m", "theirs"]);
    t.git_in(&other, &["push", "-q", "origin", "HEAD:main"]);
    let second = commit(&t, "b");
    let refused = t.git_command(t.path()).args(["push", "-q", "origin", "main"]).output().expect("git");
    assert!(!refused.status.success(), "setup: the first refused");
    assert_eq!(t.git_in(backup.path(), &["rev-parse", "main"]).trim(), second, "setup: the second accepted");
    assert_eq!(t.git(&["rev-parse", "origin/main"]).trim(), second, "setup: update by push");
    let e = read(&t, &start);
    let main = e.get("refs/remotes/origin/main").expect("read at its start value");
    assert_eq!(main.commit, start.remote_refs.as_ref().expect("refs")["refs/remotes/origin/main"]);
    assert!(main.at_start.as_deref().is_some_and(|w| w.contains("pushes to 2 places")), "{e:?}");
    // A third URL added since: re-pointed.
    t.git(&["config", "--add", "remote.origin.url", "/nowhere"]);
    let e = read(&t, &start);
    let why = e.set_aside_for("origin").map(|s| s.why.clone()).unwrap_or_default();
    assert!(why.contains("URLs of origin changed since the start"), "{why}");
    std::fs::remove_dir_all(other).expect("cleanup");
}

#[test]
fn a_branch_the_remote_had_at_the_start_beyond_the_refspecs_is_not_named() {
    let (t, origin, _) = started();
    let url = origin.path().to_str().expect("utf-8").to_string();
    t.git(&["push", "-q", &url, "HEAD:refs/heads/release"]);
    let start = snapshot_of(&t);
    let then = &start.remotes.as_ref().expect("remotes")["origin"];
    assert!(then.beyond_refspecs.as_ref().is_some_and(|b| b.get("release").is_some()), "{then:?}");
    let made = commit(&t, "a");
    t.git(&["push", "-q", &url, "HEAD:refs/heads/release"]);
    t.git(&["push", "-q", &url, "HEAD:refs/heads/hotfix"]);
    let e = read(&t, &start);
    assert_eq!(e.beyond_refspecs, vec![("origin".to_string(), "hotfix".to_string(), made)]);
}

/// A push URL or `pushInsteadOf` naming a fork sends every push elsewhere
/// than the fetch URL across a network (test/cases/515); the fetch URL
/// among the places a push goes, written with or without `.git`, or a
/// fetch URL on this machine (read itself), is none.
#[test]
fn a_push_to_a_fork_goes_elsewhere_than_the_fetch_url() {
    let root = Path::new("/nonexistent/repo");
    let remote = |url: &str, push: &[&str]| Configured {
        url: Some(url.to_string()),
        push_url: push.first().map(|p| p.to_string()),
        all_urls: vec![url.to_string()],
        all_push_urls: push.iter().map(|p| p.to_string()).collect(),
        ..Configured::default()
    };
    let none = Rewrites::default();
    let project = "https://example.com/o/r";
    let forked = pushes_elsewhere(root, &remote(project, &["/srv/fork.git"]), &none);
    assert_eq!(forked, Some((project.to_string(), vec!["/srv/fork.git".to_string()])));
    assert_eq!(pushes_elsewhere(root, &remote(project, &[]), &none), None, "no push URL");
    assert_eq!(pushes_elsewhere(root, &remote(project, &["https://example.com/o/r.git/"]), &none), None);
    assert_eq!(pushes_elsewhere(root, &remote(project, &["/srv/fork.git", project]), &none), None, "one is it");
    assert_eq!(pushes_elsewhere(root, &remote("/srv/origin.git", &["/srv/fork.git"]), &none), None, "read itself");
    let rewrites =
        Rewrites { push: vec![("https://example.com/".to_string(), "git@example.com:".to_string())], ..none };
    let ssh = pushes_elsewhere(root, &remote(project, &[]), &rewrites);
    assert_eq!(ssh, Some((project.to_string(), vec!["git@example.com:o/r".to_string()])), "two texts wait for a fetch");
}

#[test]
fn a_local_url_names_the_path_git_reaches() {
    let root = Path::new("/work/repo");
    let home = std::env::var_os("HOME").map(PathBuf::from).expect("HOME");
    assert_eq!(path_of(root, "~/origin.git"), Some(home.join("origin.git")));
    assert_eq!(path_of(root, "file://localhost/srv/o.git"), Some(PathBuf::from("/srv/o.git")));
    assert_eq!(path_of(root, "file:///srv/o%2egit"), Some(PathBuf::from("/srv/o.git")));
    assert_eq!(path_of(root, "file:///srv/o%zz"), Some(PathBuf::from("/srv/o%zz")));
    assert_eq!(path_of(root, "../origin"), Some(PathBuf::from("/work/repo/../origin")));
    assert_eq!(path_of(root, "~root/o.git").map(|p| p.starts_with("/work/repo")), Some(false));
    assert_eq!(path_of(root, "git@host:o.git"), None);
    assert_eq!(path_of(root, "git://host/o.git"), None);
    assert!(on_this_machine("~/origin.git") && on_this_machine("file://localhost/srv/o.git"));
}

#[test]
fn a_remote_renamed_since_is_named_with_the_way_back_and_counts_again_once_renamed_back() {
    let (t, _origin, start) = started();
    let pushed = commit(&t, "a");
    t.git(&["push", "-q", "origin", "HEAD:main"]);
    t.git(&["remote", "rename", "origin", "up"]);
    let e = read(&t, &start);
    assert_eq!(e.renamed, [Renamed { then: "origin".into(), now: "up".into(), then_taken: false }]);
    assert!(e.get("refs/remotes/up/main").is_none(), "not evidence under the new name");
    let why = &e.set_aside_for("up").expect("named").why;
    assert!(why.contains("with the URLs origin had then") && why.contains("git remote rename up origin"), "{why}");
    // Another remote under the start's name: that one is renamed away first.
    t.git(&["remote", "add", "origin", "/nowhere/fork.git"]);
    let e = read(&t, &start);
    assert_eq!(e.renamed, [Renamed { then: "origin".into(), now: "up".into(), then_taken: true }]);
    assert_eq!(rename_back(&e.renamed[0]), "git remote rename origin NAME && git remote rename up origin");
    t.git(&["remote", "remove", "origin"]);
    // Back under its name: the rename's lines are read through to the push.
    t.git(&["remote", "rename", "up", "origin"]);
    let e = read(&t, &start);
    assert!(e.renamed.is_empty());
    let main = e.get("refs/remotes/origin/main").expect("counted");
    assert_eq!((main.commit.as_str(), &main.at_start), (pushed.as_str(), &None));
}

#[test]
fn an_upstream_a_fetch_found_gone_is_set_aside_as_appeared_and_keeps_its_commits() {
    let a = "a".repeat(40);
    let mut e = RemoteEvidence {
        refs: vec![
            Tracking {
                refname: "refs/remotes/origin/feat".into(),
                remote: "origin".into(),
                commit: a.clone(),
                at_start: None,
            },
            Tracking {
                refname: "refs/remotes/origin/main".into(),
                remote: "origin".into(),
                commit: a.clone(),
                at_start: None,
            },
        ],
        ..RemoteEvidence::default()
    };
    let gone = vec![
        ("refs/remotes/origin/feat".to_string(), "gone".to_string()),
        ("refs/remotes/origin/other".to_string(), "not counted".to_string()),
    ];
    e.gone_from_remote(&gone);
    assert!(e.get("refs/remotes/origin/feat").is_none());
    assert!(e.get("refs/remotes/origin/main").is_some());
    let aside = e.set_aside_for("refs/remotes/origin/feat").expect("set aside");
    assert!(aside.appeared && aside.why == "gone");
    assert!(e.set_aside_for("refs/remotes/origin/other").is_none(), "a ref not counted is left alone");
    assert_eq!(e.uncounted, vec![("refs/remotes/origin/feat".to_string(), a)]);
    assert_eq!(e.gone_by_fetch, vec!["refs/remotes/origin/feat".to_string()]);
}

#[test]
fn a_remotes_file_gives_its_urls_and_pull_lines_as_git_reads_them() {
    let text = "URL:  /srv/fork.git  \r\nPush: refs/heads/main:refs/heads/main\nPull:refs/heads/main:refs/remotes/origin/main\n# Pull: no\nurl: /no\n";
    let (urls, pulls) = remotes_file(text);
    assert_eq!(urls, vec!["/srv/fork.git".to_string()]);
    assert_eq!(pulls, vec!["refs/heads/main:refs/remotes/origin/main".to_string()]);
}

#[test]
fn a_remote_defined_by_a_remotes_file_is_a_remote_where_the_configuration_gives_it_no_url() {
    let (t, _origin, _) = started();
    let dir = t.path().join(".git/remotes");
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(dir.join("up"), "URL: /srv/fork.git\nPull: refs/heads/main:refs/remotes/origin/main\n").expect("up");
    std::fs::write(dir.join("origin"), "URL: /elsewhere.git\nPull: refs/heads/*:refs/remotes/x/*\n").expect("origin");
    std::fs::write(dir.join("empty"), "Pull: refs/heads/*:refs/remotes/empty/*\n").expect("empty");
    let repo = crate::open(t.path()).expect("open");
    let (remotes, _) = configuration(&repo).expect("configuration");
    let up = &remotes["up"];
    assert_eq!(up.url.as_deref(), Some("/srv/fork.git"));
    assert_eq!(up.destinations, vec!["refs/remotes/origin/main".to_string()]);
    assert!(up.file.is_some());
    assert!(remotes["origin"].file.is_none(), "the configuration's URL wins, as git reads it");
    assert!(!remotes["origin"].destinations.iter().any(|d| d.starts_with("refs/remotes/x/")));
    assert!(!remotes.contains_key("empty"), "no URL: no remote");
}

#[test]
fn a_branch_is_mapped_only_where_the_remotes_fetch_refspecs_map_it() {
    let mut e = RemoteEvidence::default();
    e.fetch_refspecs.insert("origin".into(), vec!["+refs/heads/main:refs/remotes/origin/main".into()]);
    e.fetch_refspecs.insert("all".into(), vec!["+refs/heads/*:refs/remotes/all/*".into()]);
    e.fetch_refspecs.insert("none".into(), vec![]);
    assert!(e.maps_branch("origin", "main"));
    assert!(!e.maps_branch("origin", "feat"), "a single-branch clone's refspec maps its one branch");
    assert!(e.maps_branch("all", "feat"));
    assert!(!e.maps_branch("none", "main"));
    assert!(e.maps_branch("gone", "main"), "a remote not configured says nothing");
}

#[test]
fn of_two_rewrites_equally_long_the_base_named_first_wins_as_in_git() {
    let rule = |p: &str, b: &str| (p.to_string(), b.to_string());
    // The order the entries come in: a base's first appearance orders it.
    let rules = vec![rule("x:", "/a/"), rule("up:", "/real/"), rule("up:", "/mirror/"), rule("up:p", "/long/")];
    assert_eq!(effective("up:proj.git", &rules).as_deref(), Some("/long/roj.git"));
    assert_eq!(effective("up:other.git", &rules).as_deref(), Some("/real/other.git"));
    let rules = vec![rule("u", "/a/"), rule("up:", "/b/"), rule("up:", "/a/")];
    assert_eq!(effective("up:r", &rules).as_deref(), Some("/a/r"), "the base /a/ was named first");
    assert_eq!(effective("none:r", &rules), None);
}

#[test]
fn an_object_store_borrows_from_ours_through_its_alternates_as_git_follows_them() {
    let dir = TempDir::new().expect("tempdir");
    let ours = dir.path().join("ours/objects");
    let mid = dir.path().join("mid/objects");
    let theirs = dir.path().join("theirs/objects");
    let other = dir.path().join("other/objects");
    for d in [&ours, &mid, &theirs, &other] {
        std::fs::create_dir_all(d.join("info")).expect("mkdir");
    }
    // None: no alternates file.
    assert!(!borrows_from(&theirs, &ours));
    // A comment, a blank line and another store: not ours.
    std::fs::write(theirs.join("info/alternates"), format!("# {}\n\n{}\n", ours.display(), other.display()))
        .expect("write");
    assert!(!borrows_from(&theirs, &ours));
    // Relative to the objects directory, through another store's alternates.
    std::fs::write(theirs.join("info/alternates"), "../../mid/objects\n").expect("write");
    std::fs::write(mid.join("info/alternates"), format!("{}\n", ours.display())).expect("write");
    assert!(borrows_from(&theirs, &ours));
    // A loop ends.
    std::fs::write(mid.join("info/alternates"), "../../theirs/objects\n").expect("write");
    assert!(!borrows_from(&theirs, &ours));
}

#[test]
fn a_fetch_or_pull_line_naming_no_remote_is_told_from_one_naming_its_remote() {
    for message in [
        "fetch: fast-forward",
        "fetch -q: fast-forward",
        "pull --rebase: fast-forward",
        "pull -j 4 --prune: fast-forward",
    ] {
        assert!(names_no_remote(message), "{message}");
    }
    for message in [
        "fetch origin: fast-forward",
        "pull -q origin main: fast-forward",
        "fetch --all: fast-forward",
        "fetch --multiple origin fork: fast-forward",
        "update by push",
        "clone: from /srv/origin.git",
    ] {
        assert!(!names_no_remote(message), "{message}");
    }
}
