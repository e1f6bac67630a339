use majordomus_testkit::TestRepo;

use super::*;

/// The paths libgit2's tree-to-tree diff gives deltas for.
fn libgit2s(git: &Repository, old: Option<&Tree<'_>>, new: Option<&Tree<'_>>) -> Vec<String> {
    let diff = git.diff_tree_to_tree(old, new, None).expect("diff");
    diff.deltas()
        .map(|d| d.new_file().path().or(d.old_file().path()).expect("a path").to_string_lossy().into_owned())
        .collect()
}

fn strings(paths: Vec<RepoPath>) -> Vec<String> {
    paths.iter().map(|p| p.to_str().expect("utf-8").to_string()).collect()
}

fn tree_of<'r>(git: &'r Repository, commit: &str) -> Tree<'r> {
    git.find_commit(Oid::from_str(commit).expect("id")).expect("commit").tree().expect("tree")
}

#[test]
fn the_paths_are_those_libgit2s_diff_gives_in_its_order() {
    use std::os::unix::fs::PermissionsExt;
    let t = TestRepo::with_commit();
    for (path, text) in [
        ("a.txt", "1"),
        ("a/one.rs", "1"),
        ("a/deep/two.rs", "2"),
        ("a-b/x", "x"),
        ("b", "a file"),
        ("c/d/e/f.txt", "deep"),
        ("same/s.txt", "same"),
        ("run.sh", "echo"),
        ("gone/g.txt", "g"),
        ("z", "last"),
    ] {
        t.write(path, text);
    }
    let first = t.commit_all("first");
    t.write("a.txt", "2");
    t.write("a/deep/two.rs", "two");
    t.write("a/deep/three.rs", "3");
    t.remove("b");
    t.write("b/now/a/dir.txt", "dir");
    t.write("b/also.txt", "also");
    std::fs::remove_dir_all(t.path().join("c/d/e")).expect("rm");
    t.write("c/d/e", "now a file");
    std::fs::set_permissions(t.path().join("run.sh"), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    std::fs::remove_dir_all(t.path().join("gone")).expect("rm");
    t.write("new/n.txt", "n");
    t.write("a.", "dot");
    t.write("a0", "zero");
    let second = t.commit_all("second");
    let git = t.open();
    let (a, b) = (tree_of(&git, &first), tree_of(&git, &second));
    for (old, new) in
        [(Some(&a), Some(&b)), (Some(&b), Some(&a)), (None, Some(&b)), (Some(&a), None), (Some(&a), Some(&a))]
    {
        let ours = strings(changed_paths(&git, old, new).expect("read"));
        assert_eq!(ours, libgit2s(&git, old, new), "{:?} -> {:?}", old.map(Tree::id), new.map(Tree::id));
    }
    let ours = strings(changed_paths(&git, Some(&a), Some(&b)).expect("read"));
    assert!(ours.contains(&"run.sh".to_string()), "a mode change is a change");
    assert!(!ours.iter().any(|p| p.starts_with("same/")));
}

#[test]
fn only_the_subtrees_whose_ids_differ_are_read() {
    let t = TestRepo::with_commit();
    t.write("kept/deep/file.txt", "kept");
    t.write("work/file.txt", "1");
    let first = t.commit_all("first");
    t.write("work/file.txt", "2");
    let second = t.commit_all("second");
    let kept = t.git(&["rev-parse", "HEAD:kept"]).trim().to_string();
    std::fs::remove_file(t.path().join(".git/objects").join(&kept[..2]).join(&kept[2..])).expect("a loose tree");
    let git = t.open();
    let (a, b) = (tree_of(&git, &first), tree_of(&git, &second));
    assert_eq!(
        strings(changed_paths(&git, Some(&a), Some(&b)).expect("the deleted tree is never read")),
        ["work/file.txt"]
    );
    assert!(git.diff_tree_to_tree(Some(&a), Some(&b), None).is_err(), "libgit2's diff reads it");
}

#[test]
fn a_lookup_finds_what_get_path_finds_at_every_path_asked() {
    let t = TestRepo::with_commit();
    for (path, text) in
        [("a.txt", "1"), ("a/one.rs", "1"), ("a/deep/two.rs", "2"), ("a-b/x", "x"), ("sub/sub/sub", "s")]
    {
        t.write(path, text);
    }
    let commit = t.commit_all("files");
    let git = Repository::open(t.path()).expect("open");
    let tree = tree_of(&git, &commit);
    let lookup = Lookup::new(&git, tree.clone());
    let asked = [
        "a.txt",
        "a",
        "a/one.rs",
        "a/deep",
        "a/deep/two.rs",
        "a/deep/none.rs",
        "a-b/x",
        "a.txt/under",
        "none/x",
        "sub/sub/sub",
        "sub/sub",
        "a/one.rs/x",
        "a/",
        "a/deep/",
        "a.txt/",
        "none/",
        "a//",
    ];
    // Twice each, the second from the directories kept.
    for path in asked.iter().chain(asked.iter()) {
        let want = tree.get_path(std::path::Path::new(path)).ok().map(|e| (e.id(), e.filemode()));
        assert_eq!(lookup.entry(path.as_bytes()), want, "{path}");
        assert_eq!(lookup.entry_at(std::path::Path::new(path)), want, "{path}");
    }
}
