//! `no-new-debt` over real repositories where a baseline is reached through
//! a link, holds bytes that are not UTF-8, or leaves the naming pattern.

use std::os::unix::fs::symlink;

use majordomus_records::task::{TaskRecord, TASK_SCHEMA};
use majordomus_testkit::TestRepo;

use super::*;
use crate::answer::{Answer, Status};

const LINT: &str = ".ai/repo/lint-baseline.txt";

fn start(t: &TestRepo) -> TaskRecord {
    let repo = majordomus_readings::open(t.path()).expect("open");
    let head = refs::head(&repo).expect("head");
    TaskRecord {
        schema: TASK_SCHEMA.into(),
        id: "t".into(),
        task: "work".into(),
        scope: vec![],
        scope_added: vec![],
        issues: vec![],
        started_at: Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        head: head.commit,
        branch: head.branch,
        snapshot: crate::snapshot::snapshot(&repo, &Policy::default()).snapshot,
        owner: None,
    }
}

fn debt_answer(t: &TestRepo, task: &TaskRecord) -> Answer {
    let repo = majordomus_readings::open(t.path()).expect("open");
    let paths = StatePaths::new(repo.root());
    let policy = Policy::load(&paths.policy(), &crate::question::builtin_ids()).expect("policy");
    let readings = crate::measure::measure(&repo, &paths, &policy, TaskState::Active(Box::new(task.clone())));
    crate::done::answer_all(&readings, &policy).into_iter().find(|a| a.id == "no-new-debt").expect("answered")
}

fn write_bytes(t: &TestRepo, rel: &str, bytes: &[u8]) {
    std::fs::write(t.path().join(rel), bytes).expect("write");
}

#[test]
fn a_baseline_replaced_by_a_link_to_a_longer_list_is_read_through_it_and_refused() {
    let t = TestRepo::with_commit();
    t.write(LINT, "a\nb\n");
    t.commit_all("baseline");
    let task = start(&t);
    t.write(".ai/repo/lint-list.txt", "a\nb\nc\n");
    t.remove(LINT);
    symlink("lint-list.txt", t.path().join(LINT)).expect("symlink");
    let a = debt_answer(&t, &task);
    assert_eq!(a.status, Status::Refused, "{}", a.evidence);
    assert!(a.evidence.contains(".ai/repo/lint-baseline.txt (2 entries then, 3 now; added `c`)"), "{}", a.evidence);
    assert!(
        a.evidence.contains("Read through symbolic links: .ai/repo/lint-baseline.txt to .ai/repo/lint-list.txt"),
        "{}",
        a.evidence
    );
    // The same list without the added entry: read through, nothing added.
    t.write(".ai/repo/lint-list.txt", "a\nb\n");
    assert_eq!(debt_answer(&t, &task).status, Status::Pass);
    // A link leading outside the working tree is refused by name, never passed over.
    let outside = tempfile::tempdir().expect("tempdir");
    std::fs::write(outside.path().join("list.txt"), "a\n").expect("write");
    t.remove(LINT);
    symlink(outside.path().join("list.txt"), t.path().join(LINT)).expect("symlink");
    let a = debt_answer(&t, &task);
    assert_eq!(a.status, Status::Unknown, "{}", a.evidence);
    assert!(
        a.evidence.contains(".ai/repo/lint-baseline.txt is a symbolic link to a file outside the working tree"),
        "{}",
        a.evidence
    );
}

#[test]
fn entries_that_differ_only_in_bytes_that_are_not_utf8_are_two_entries() {
    let t = TestRepo::with_commit();
    std::fs::create_dir_all(t.path().join(".ai/repo")).expect("mkdir");
    write_bytes(&t, LINT, b"src/a.rs: \xff\n");
    t.commit_all("baseline");
    let task = start(&t);
    assert_eq!(debt_answer(&t, &task).status, Status::Pass, "the same bytes");
    write_bytes(&t, LINT, b"src/a.rs: \xff\nsrc/a.rs: \xfe\n");
    let a = debt_answer(&t, &task);
    assert_eq!(a.status, Status::Refused, "{}", a.evidence);
    assert!(a.evidence.contains("added `src/a.rs: \\xfe`"), "{}", a.evidence);
    assert_eq!(a.details["baselines"][0]["added"], serde_json::json!(["src/a.rs: \\xfe"]));
}

#[test]
fn a_record_whose_snapshot_kept_entries_as_text_never_lets_a_lossy_entry_match() {
    let t = TestRepo::with_commit();
    std::fs::create_dir_all(t.path().join(".ai/repo")).expect("mkdir");
    write_bytes(&t, LINT, b"plain\nsrc/a.rs: \xff\n");
    t.commit_all("baseline");
    let mut task = start(&t);
    // As an older majordomus wrote it: the entries decoded lossily.
    task.snapshot.baseline_bytes = None;
    task.snapshot.baselines = Some([(LINT.to_string(), vec!["plain".into(), "src/a.rs: \u{fffd}".into()])].into());
    let a = debt_answer(&t, &task);
    assert_eq!(a.status, Status::Refused, "{}", a.evidence);
    assert!(a.evidence.contains("kept as text by an older majordomus"), "{}", a.evidence);
    write_bytes(&t, LINT, b"plain\n");
    assert_eq!(debt_answer(&t, &task).status, Status::Pass, "entries that are UTF-8 compare as they did");
}

#[test]
fn a_baseline_renamed_out_of_the_naming_pattern_is_followed_committed_or_not() {
    let t = TestRepo::with_commit();
    t.write(LINT, "src/a.rs: unused\nsrc/b.rs: unused\n");
    t.commit_all("baseline");
    let task = start(&t);
    t.git(&["mv", LINT, ".ai/repo/lint-allowlist.txt"]);
    let a = debt_answer(&t, &task);
    assert_eq!(a.status, Status::Pass, "a rename alone adds nothing: {}", a.evidence);
    assert!(
        a.evidence.contains("to .ai/repo/lint-allowlist.txt (by git rename detection, out of the naming pattern)"),
        "{}",
        a.evidence
    );
    t.write(".ai/repo/lint-allowlist.txt", "src/a.rs: unused\nsrc/b.rs: unused\nsrc/c.rs: unused\n");
    let a = debt_answer(&t, &task);
    assert_eq!(a.status, Status::Refused, "staged, then edited: {}", a.evidence);
    assert!(
        a.evidence.contains(
            ".ai/repo/lint-allowlist.txt (moved from .ai/repo/lint-baseline.txt and out of the naming pattern"
        ),
        "{}",
        a.evidence
    );
    t.commit_all("an allow list");
    assert_eq!(debt_answer(&t, &task).status, Status::Refused, "committed");
}

#[test]
fn a_baseline_deleted_while_a_file_elsewhere_takes_its_entries_is_followed_there() {
    let t = TestRepo::with_commit();
    t.write(LINT, "src/a.rs: unused\nsrc/b.rs: unused\n");
    t.write("src/lib.rs", "fn a() {}\n");
    t.commit_all("baseline");
    let task = start(&t);
    t.remove(LINT);
    t.write("config/lint-allow.txt", "src/a.rs: unused\nsrc/b.rs: unused\nsrc/c.rs: unused\n");
    let a = debt_answer(&t, &task);
    assert_eq!(a.status, Status::Refused, "untracked: {}", a.evidence);
    assert!(a.evidence.contains("config/lint-allow.txt (moved from .ai/repo/lint-baseline.txt"), "{}", a.evidence);
    // Deleted with nothing taking its place: paid off, not followed.
    t.remove("config/lint-allow.txt");
    t.write("src/lib.rs", "fn a() { /* fixed */ }\n");
    let a = debt_answer(&t, &task);
    assert_eq!(a.status, Status::Pass, "{}", a.evidence);
    assert!(a.evidence.contains("No longer there: .ai/repo/lint-baseline.txt"), "{}", a.evidence);
}

#[test]
fn an_entry_uncommitted_at_the_start_is_inherited_until_the_task_commits_it() {
    let t = TestRepo::with_commit();
    t.write(LINT, "a\n");
    t.commit_all("baseline");
    // Someone's entry, uncommitted at the start, and another baseline's.
    t.write(LINT, "a\nb\n");
    t.write(".ai/repo/style-baseline.txt", "s\n");
    t.commit_all("style");
    t.git(&["reset", "-q", "--soft", "HEAD~1"]);
    t.git(&["reset", "-q"]);
    let task = start(&t);
    // The task commits other work: the entry stays inherited.
    t.write("src/lib.rs", "fn a() {}\n");
    t.git(&["add", "src/lib.rs"]);
    t.git(&["commit", "-qm", "work"]);
    let a = debt_answer(&t, &task);
    assert_eq!(a.status, Status::Pass, "{}", a.evidence);
    // The task's commit takes the baselines in with it: their entries are the task's.
    t.git(&["add", "-A"]);
    t.git(&["commit", "-qm", "everything"]);
    let a = debt_answer(&t, &task);
    assert_eq!(a.status, Status::Refused, "{}", a.evidence);
    assert!(a.evidence.contains(".ai/repo/lint-baseline.txt (1 entry then, 2 now; added `b`)"), "{}", a.evidence);
    assert!(a.evidence.contains("1 entry uncommitted at the start, then committed by the task"), "{}", a.evidence);
    // A baseline untracked at the start and committed holds the debt it
    // held then: compared with it, nothing added (test/cases/536).
    assert!(!a.evidence.contains("style-baseline.txt ("), "{}", a.evidence);
    assert!(!a.evidence.contains("not growth"), "{}", a.evidence);
    // Moved as it is committed: still the task's.
    t.git(&["reset", "-q", "--soft", "HEAD~1"]);
    t.git(&["rm", "-q", "--cached", ".ai/repo/style-baseline.txt"]);
    t.git(&["mv", LINT, ".ai/repo/lint2-baseline.txt"]);
    t.git(&["commit", "-qm", "moved"]);
    let a = debt_answer(&t, &task);
    assert_eq!(a.status, Status::Refused, "{}", a.evidence);
    assert!(a.evidence.contains("added `b`"), "{}", a.evidence);
}

#[test]
fn a_baseline_folded_into_a_file_the_start_held_is_followed_by_what_it_gained() {
    let t = TestRepo::with_commit();
    t.write(LINT, "src/a.rs: unused\nsrc/b.rs: unused\n");
    t.write("config/lint-allow.txt", "# read by ci\nvendor/x.rs: unused\n");
    t.commit_all("baseline");
    let task = start(&t);
    t.remove(LINT);
    t.write("config/lint-allow.txt", "# read by ci\nvendor/x.rs: unused\nsrc/a.rs: unused\nsrc/b.rs: unused\n");
    let a = debt_answer(&t, &task);
    assert_eq!(a.status, Status::Pass, "folded in, nothing added: {}", a.evidence);
    assert!(a.evidence.contains("by the entries it gained since the start"), "{}", a.evidence);
    t.write(
        "config/lint-allow.txt",
        "# read by ci\nvendor/x.rs: unused\nsrc/a.rs: unused\nsrc/b.rs: unused\nsrc/c.rs: unused\n",
    );
    let a = debt_answer(&t, &task);
    assert_eq!(a.status, Status::Refused, "{}", a.evidence);
    assert!(a.evidence.contains("added `src/c.rs: unused`"), "{}", a.evidence);
    // Gaining one of its two entries is half of them: followed all the same.
    t.write("config/lint-allow.txt", "# read by ci\nvendor/x.rs: unused\nsrc/a.rs: unused\nsrc/c.rs: unused\n");
    assert_eq!(debt_answer(&t, &task).status, Status::Refused);
}

/// A file of `rows` lines past one read piece, with a byte-order mark at
/// the start of a line after the first piece and an entry that is.
fn large(rows: usize, line: &str) -> Vec<u8> {
    let mut out = "\u{feff}first\n".as_bytes().to_vec();
    for _ in 0..rows {
        out.extend_from_slice(line.as_bytes());
    }
    out.extend_from_slice("\u{feff}marked\nlast".as_bytes());
    out
}

#[test]
fn a_large_file_is_read_a_piece_at_a_time_as_it_would_be_whole() {
    let t = TestRepo::with_commit();
    let repo = majordomus_readings::open(t.path()).expect("open");
    let gone: Baselines = [(LINT.to_string(), vec![b"first".to_vec(), b"last".to_vec()])].into();
    let content = large(40_000, "# a comment line of some length, no entry at all\n");
    write_bytes(&t, "big.txt", &content);
    let read = follow_read::entries(&repo, "big.txt", 1024, &gone).expect("read");
    assert_eq!(read, Some(baselines::entries(&content)));
    assert_eq!(read.expect("entries").len(), 3, "the mark mid-file stays on its line");
    // Entries past what is kept: none of a gone baseline's, not followed.
    let content = large(40_000, "row,1,2,3,4,5,6,7,8,9\n");
    write_bytes(&t, "rows.csv", &content);
    let other: Baselines = [(LINT.to_string(), vec![b"src/a.rs: unused".to_vec()])].into();
    assert_eq!(follow_read::entries(&repo, "rows.csv", 1024, &other).expect("read"), None);
    // Half of one's: it may be that baseline, and is not read.
    let e = follow_read::entries(&repo, "rows.csv", 1024, &gone).expect_err("unread");
    assert!(e.reason.contains("rows.csv holds more than 1024 bytes of entries"), "{}", e.reason);
    assert!(e.reason.contains("keep the baseline, emptied"), "{}", e.reason);
}
