use majordomus_readings::refs::{self, NoneKept, Push, Start};
use majordomus_readings::{Reading, Repo};
use majordomus_records::json;
use majordomus_testkit::TestRepo;

use super::*;

/// A repository with an origin and one commit on `main` the origin lacks:
/// (repository, the unpushed commit, the origin).
fn unpushed() -> (TestRepo, String, impl Sized) {
    let t = TestRepo::with_commit();
    let origin = t.with_origin();
    t.git(&["checkout", "-q", "-b", "task"]);
    t.write("a.txt", "a\n");
    let made = t.commit_all("unpushed");
    (t, made, origin)
}

fn with_state(t: &TestRepo) -> (Repo, StatePaths) {
    let repo = majordomus_readings::open(t.path()).expect("open");
    let paths = StatePaths::new(repo.root());
    paths.open_state(true).expect("state directory");
    (repo, paths)
}

fn push_with(repo: &Repo, walks: &mut dyn Walks) -> Reading<Push> {
    let evidence = refs::evidence(repo, Start::NoTask);
    let trunk = refs::in_force(repo, refs::trunk(repo, None, None), None, &evidence);
    refs::push(repo, &refs::head(repo), &refs::branches(repo), &trunk, &evidence, None, walks)
}

/// `push` through the walks kept under `paths`, keeping what it walked.
fn push(repo: &Repo, paths: &StatePaths) -> Reading<Push> {
    let mut walks = KeptWalks::load(repo, paths);
    let push = push_with(repo, &mut walks);
    walks.store(paths);
    push
}

fn count(push: &Reading<Push>) -> usize {
    match push {
        Ok(Push::Measured { count, .. }) => *count,
        other => panic!("not measured: {other:?}"),
    }
}

fn kept(paths: &StatePaths) -> Vec<Walked> {
    let file: id_cache::File<Walked> = json::load(&paths.state_dir().join(FILE)).expect("readable").expect("written");
    file.entries
}

/// The file `claim` with more walks than are ever kept.
fn too_many(claim: &str) -> String {
    let mut file: serde_json::Value = serde_json::from_str(claim).expect("json");
    let entries = file["entries"].as_array_mut().expect("entries");
    let first = entries[0].clone();
    entries.resize(KEPT + 1, first);
    file.to_string()
}

fn delete_object(t: &TestRepo, id: &str) {
    std::fs::remove_file(t.path().join(".git/objects").join(&id[..2]).join(&id[2..])).expect("a loose object");
}

#[test]
fn a_second_check_with_the_same_ids_reads_no_commit_for_the_walks() {
    let (t, made, _origin) = unpushed();
    let (repo, paths) = with_state(&t);
    let first = push(&repo, &paths);
    assert_eq!(count(&first), 1);
    // The walk under the trunk and the one under every tip: one walk, where
    // the trunk's is the only tip.
    assert_eq!(kept(&paths).len(), 1);
    // Every walk starts at HEAD's commit: without it, a walk fails...
    delete_object(&t, &made);
    let repo = majordomus_readings::open(t.path()).expect("open");
    assert!(push_with(&repo, &mut NoneKept).is_err(), "the walk reads the deleted commit");
    // ...so an answer given now was not walked for.
    assert_eq!(push(&repo, &paths), first);
}

#[test]
fn a_walk_is_worked_out_again_when_a_tip_moves() {
    let (t, _, _origin) = unpushed();
    let (repo, paths) = with_state(&t);
    assert_eq!(count(&push(&repo, &paths)), 1);
    // A push to a review branch adds a tip that holds HEAD.
    t.git(&["push", "-q", "origin", "HEAD:review/x"]);
    let repo = majordomus_readings::open(t.path()).expect("open");
    assert_eq!(count(&push(&repo, &paths)), 0);
    // HEAD moves: one more commit, not pushed.
    t.write("b.txt", "b\n");
    t.commit_all("more");
    assert_eq!(count(&push(&repo, &paths)), 1);
}

#[test]
fn a_damaged_cache_file_is_ignored_as_a_whole() {
    let (t, made, _origin) = unpushed();
    let (repo, paths) = with_state(&t);
    let truth = push_with(&repo, &mut NoneKept);
    let file = paths.state_dir().join(FILE);
    assert_eq!(count(&push(&repo, &paths)), 1);
    let written = std::fs::read_to_string(&file).expect("written");
    // Every walk kept claims nothing unpushed: read, it would be believed
    // (a record written by hand can claim anything), so each damage below
    // must set the whole file aside.
    let claim = written.replace(&format!(r#""listed":["{made}"],"count":1"#), r#""listed":[],"count":0"#);
    assert_ne!(claim, written);
    std::fs::write(&file, &claim).expect("write");
    assert_eq!(count(&push(&repo, &paths)), 0, "the claim is well formed");
    let damaged = [
        "{ not json".to_string(),
        String::new(),
        claim.replace("push-cache/1", "push-cache/0"),
        claim.replacen(r#""count""#, r#""extra":1,"count""#, 1),
        claim.replacen(r#""listed":[]"#, r#""listed":["not an id"]"#, 1),
        claim.replacen(r#""listed":[]"#, &format!(r#""listed":["{made}"]"#), 1),
        claim.replacen(r#""also":null"#, r#""also":"main""#, 1),
        too_many(&claim),
    ];
    for bytes in damaged {
        std::fs::write(&file, &bytes).expect("write");
        assert_eq!(push(&repo, &paths), truth, "after {bytes:?}");
    }
}

#[test]
fn nothing_is_kept_in_a_shallow_repository_nor_where_the_state_directory_does_not_exist() {
    let (t, _, _origin) = unpushed();
    let repo = majordomus_readings::open(t.path()).expect("open");
    let paths = StatePaths::new(repo.root());
    assert_eq!(count(&push(&repo, &paths)), 1);
    assert!(!paths.state_dir().exists());
    let (_, paths) = with_state(&t);
    let root = t.git(&["rev-list", "--max-parents=0", "HEAD"]).trim().to_string();
    std::fs::write(t.path().join(".git/shallow"), format!("{root}\n")).expect("shallow");
    let repo = majordomus_readings::open(t.path()).expect("open");
    assert_eq!(count(&push(&repo, &paths)), 1);
    assert!(!paths.state_dir().join(FILE).exists());
}

#[test]
fn a_walk_under_a_commit_missing_from_the_object_database_is_not_kept() {
    let (t, _, _origin) = unpushed();
    let (repo, paths) = with_state(&t);
    // A remote-tracking ref at a commit the object database lacks, of a
    // remote across a network (one on this machine is read itself, and
    // holds no such branch).
    t.git(&["config", "remote.origin.url", "https://forge.invalid/project.git"]);
    let missing = "0123456789abcdef0123456789abcdef01234567";
    std::fs::write(t.path().join(".git/refs/remotes/origin/gone"), format!("{missing}\n")).expect("ref");
    let tips = refs::evidence(&repo, Start::NoTask).expect("evidence").tips();
    assert!(tips.iter().any(|o| o.to_string() == missing));
    assert_eq!(count(&push(&repo, &paths)), 1);
    let hidden = refs::hidden_key(&tips);
    assert!(kept(&paths).iter().all(|w| w.hidden != hidden));
}
