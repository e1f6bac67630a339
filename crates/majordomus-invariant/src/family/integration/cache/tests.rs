use std::cell::Cell;

use majordomus_testkit::TestRepo;

use majordomus_records::json;

use super::*;

/// A trunk of twelve commits a minute apart and a `feature` branch off its
/// sixth, changing `feature.txt`: (repository, feature, trunk tip, the
/// trunk commit three below its tip, which the squash search reads).
fn branched() -> (TestRepo, String, String, String) {
    let t = TestRepo::with_commit();
    let commit_at = |minute: u32| t.commit_all_at_minute(minute);
    for n in 0..6 {
        t.write("trunk.txt", &format!("{n}\n"));
        commit_at(n);
    }
    t.git(&["checkout", "-q", "-b", "feature"]);
    t.write("feature.txt", "work\n");
    let feature = commit_at(6);
    t.git(&["checkout", "-q", "main"]);
    for n in 7..13 {
        t.write("trunk.txt", &format!("{n}\n"));
        commit_at(n);
    }
    let below = t.git(&["rev-parse", "HEAD~3"]).trim().to_string();
    let tip = t.head();
    (t, feature, tip, below)
}

fn delete_object(t: &TestRepo, id: &str) {
    std::fs::remove_file(t.path().join(".git/objects").join(&id[..2]).join(&id[2..])).expect("a loose object");
}

fn with_state(t: &TestRepo) -> (Repo, StatePaths) {
    let repo = majordomus_readings::open(t.path()).expect("open");
    let paths = StatePaths::new(repo.root());
    paths.open_state(true).expect("state directory");
    (repo, paths)
}

#[test]
fn a_second_check_with_the_same_ids_reads_no_trunk_commit() {
    let (t, feature, tip, below) = branched();
    let (repo, paths) = with_state(&t);
    let first = integration(&repo, &paths, &feature, &tip).expect("read");
    assert!(matches!(&first, Integration::Missing { paths, .. } if paths == &["feature.txt"]), "{first:?}");
    // The squash search walks the trunk from its tip to the merge base:
    // without the commit below the tip, the walk fails...
    delete_object(&t, &below);
    let repo = majordomus_readings::open(t.path()).expect("open");
    assert!(refs::integration(&repo, &feature, &tip).is_err(), "the search reads the deleted commit");
    // ...so an answer given now was not walked for.
    assert_eq!(integration(&repo, &paths, &feature, &tip).expect("kept"), first);
}

#[test]
fn an_answer_is_worked_out_again_when_either_id_moves() {
    let (t, feature, tip, _) = branched();
    let (repo, paths) = with_state(&t);
    let calls = Cell::new(0);
    let counted = |head: &str, trunk: &str| {
        integration_with(&repo, &paths, head, trunk, None, || {
            calls.set(calls.get() + 1);
            refs::integration(&repo, head, trunk)
        })
    };
    assert!(matches!(counted(&feature, &tip).expect("read"), Integration::Missing { .. }));
    assert!(matches!(counted(&feature, &tip).expect("read"), Integration::Missing { .. }));
    assert_eq!(calls.get(), 1, "the same ids: worked out once");
    // The trunk moves: the feature squash-merged onto it.
    t.git(&["merge", "-q", "--squash", "feature"]);
    t.git(&["commit", "-q", "-m", "feature, squashed"]);
    let squashed = t.head();
    assert!(matches!(counted(&feature, &squashed).expect("read"), Integration::Holds { behind_tip: 0, .. }));
    assert_eq!(calls.get(), 2);
    // HEAD moves: more work on the feature.
    t.git(&["checkout", "-q", "feature"]);
    t.write("feature.txt", "more work\n");
    let more = t.commit_all("more work");
    assert!(matches!(counted(&more, &squashed).expect("read"), Integration::Missing { .. }));
    assert_eq!(calls.get(), 3);
    // The first pair is still kept.
    assert!(matches!(counted(&feature, &tip).expect("read"), Integration::Missing { .. }));
    assert_eq!(calls.get(), 3);
}

#[test]
fn a_damaged_cache_file_is_ignored_and_the_answer_worked_out_again() {
    let (t, feature, tip, _) = branched();
    let (repo, paths) = with_state(&t);
    let file = paths.state_dir().join(FILE);
    let truth = refs::integration(&repo, &feature, &tip).expect("read");
    let claim_held = |head: &str| {
        format!(
            r#"{{"schema":"majordomus.integration-cache/2","entries":[{{"head":"{head}","trunk":"{tip}","bound":{SQUASH_SEARCH},"answer":{{"kind":"reached"}}}}]}}"#
        )
    };
    let damaged = [
        "{ not json".to_string(),
        String::new(),
        claim_held(&feature).replace("integration-cache/2", "integration-cache/1"),
        claim_held(&feature).replace(r#""kind":"reached""#, r#""kind":"landed""#),
        claim_held(&feature[..39]),
        claim_held(&feature).replace(r#""bound""#, r#""extra":1,"bound""#),
    ];
    for bytes in damaged {
        std::fs::write(&file, &bytes).expect("write");
        assert_eq!(integration(&repo, &paths, &feature, &tip).expect("read"), truth, "after {bytes:?}");
        let rewritten: id_cache::File<Kept> = json::load(&file).expect("readable").expect("written");
        assert_eq!(rewritten.entries.len(), 1, "after {bytes:?}");
    }
    // An entry kept under another bound of the search is not this answer.
    std::fs::write(&file, claim_held(&feature).replace(&format!(r#""bound":{SQUASH_SEARCH}"#), r#""bound":3"#))
        .expect("write");
    assert_eq!(integration(&repo, &paths, &feature, &tip).expect("read"), truth);
}

#[test]
fn nothing_is_written_where_the_state_directory_does_not_exist() {
    let (t, feature, tip, _) = branched();
    let repo = majordomus_readings::open(t.path()).expect("open");
    let paths = StatePaths::new(repo.root());
    assert!(matches!(integration(&repo, &paths, &feature, &tip).expect("read"), Integration::Missing { .. }));
    assert!(!paths.state_dir().exists());
}

#[test]
fn a_shallow_repository_is_read_anew_every_time() {
    let (t, feature, tip, _) = branched();
    let (repo, paths) = with_state(&t);
    let root = t.git(&["rev-list", "--max-parents=0", "HEAD"]).trim().to_string();
    std::fs::write(t.path().join(".git/shallow"), format!("{root}\n")).expect("shallow");
    let repo = {
        drop(repo);
        majordomus_readings::open(t.path()).expect("open")
    };
    let calls = Cell::new(0);
    for _ in 0..2 {
        integration_with(&repo, &paths, &feature, &tip, None, || {
            calls.set(calls.get() + 1);
            refs::integration(&repo, &feature, &tip)
        })
        .expect("read");
    }
    assert_eq!(calls.get(), 2);
    assert!(!paths.state_dir().join(FILE).exists());
}

#[test]
fn a_reading_that_failed_is_not_kept() {
    let (t, feature, tip, below) = branched();
    let (repo, paths) = with_state(&t);
    delete_object(&t, &below);
    assert!(integration(&repo, &paths, &feature, &tip).is_err());
    assert!(!paths.state_dir().join(FILE).exists());
}

#[test]
fn an_answer_is_kept_by_the_start_it_was_worked_out_for() {
    let (t, feature, tip, _) = branched();
    let (repo, paths) = with_state(&t);
    let calls = Cell::new(0);
    let counted = |start: Option<&str>| {
        integration_with(&repo, &paths, &feature, &tip, start, || {
            calls.set(calls.get() + 1);
            refs::integration_since(&repo, &feature, &tip, start)
        })
    };
    counted(None).expect("read");
    counted(Some(&tip)).expect("read");
    assert_eq!(calls.get(), 2, "another start: worked out again");
    counted(Some(&tip)).expect("read");
    counted(None).expect("read");
    assert_eq!(calls.get(), 2, "each kept under its own start");
}
