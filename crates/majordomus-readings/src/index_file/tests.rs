use super::*;
use git2::Oid;
use majordomus_testkit::TestRepo;

/// Path, id, mode and stage of each entry.
type Listing = Vec<(Vec<u8>, Oid, u32, u8)>;

fn ours_and_libgit2(t: &TestRepo) -> (Listing, Listing) {
    let repo = t.open();
    let ours = Index::read(&t.path().join(".git/index")).expect("parse");
    let theirs = repo.index().expect("index");
    (
        ours.entries.iter().map(|e| (e.path(&ours.paths).to_vec(), e.id, e.mode, e.stage)).collect(),
        theirs.iter().map(|e| (e.path.clone(), e.id, e.mode, ((e.flags >> 12) & 3) as u8)).collect(),
    )
}

fn fill(t: &TestRepo) {
    for i in 0..30 {
        t.write(&format!("dir{}/sub/file-{i}.txt", i % 3), &format!("{i}\n"));
    }
    t.write("top.txt", "top\n");
    t.commit_all("files");
}

#[test]
fn every_index_version_reads_as_libgit2_reads_it() {
    for version in ["2", "3", "4"] {
        let t = TestRepo::with_commit();
        fill(&t);
        t.git(&["update-index", "--index-version", version]);
        t.write("new.txt", "n\n");
        t.git(&["add", "-N", "new.txt"]);
        let (ours, theirs) = ours_and_libgit2(&t);
        assert_eq!(ours, theirs, "index version {version}");
        let index = Index::read(&t.path().join(".git/index")).expect("parse");
        assert!(index.entries.iter().any(|e| e.intent_to_add), "version {version}");
    }
}

#[test]
fn a_truncated_or_corrupted_index_is_unsupported_never_a_panic() {
    let t = TestRepo::with_commit();
    fill(&t);
    t.git(&["read-tree", "HEAD"]);
    for version in ["4", "2"] {
        t.git(&["update-index", "--index-version", version]);
        let bytes = std::fs::read(t.path().join(".git/index")).expect("read");
        for cut in 0..bytes.len() {
            let _ = Index::parse(&bytes[..cut]);
        }
        let mut huge = bytes.clone();
        huge[8] = 0xff;
        assert!(Index::parse(&huge).is_err(), "a count past the file's end");
        for at in (0..bytes.len()).step_by(7) {
            let mut bad = bytes.clone();
            bad[at] ^= 0xff;
            let _ = Index::parse(&bad);
        }
    }
}

#[test]
fn entries_out_of_order_are_unsupported_for_readers_search_by_path() {
    let t = TestRepo::new();
    t.write("a.txt", "a\n");
    t.write("b.txt", "b\n");
    t.git(&["update-index", "--index-version", "2"]);
    t.git(&["add", "a.txt", "b.txt"]);
    let bytes = std::fs::read(t.path().join(".git/index")).expect("read");
    let index = Index::parse(&bytes).expect("in order");
    assert_eq!(index.entries.iter().map(|e| e.path(&index.paths)).collect::<Vec<_>>(), [b"a.txt", b"b.txt"]);
    // Two entries of one size (62 bytes and a 5-byte name, padded to 72): swapped.
    let mut swapped = bytes.clone();
    swapped[12..84].copy_from_slice(&bytes[84..156]);
    swapped[84..156].copy_from_slice(&bytes[12..84]);
    let err = Index::parse(&swapped).expect_err("out of order");
    assert!(err.0.contains("out of order"), "{err:?}");
}

#[test]
fn the_cache_tree_is_read_and_a_required_extension_is_unsupported() {
    let t = TestRepo::with_commit();
    fill(&t);
    t.git(&["read-tree", "HEAD"]);
    let index = Index::read(&t.path().join(".git/index")).expect("parse");
    let cache = index.cache.expect("a cache tree after read-tree");
    let head_tree = t.git(&["rev-parse", "HEAD^{tree}"]);
    assert_eq!(cache.id.expect("valid").to_string(), head_tree.trim());
    let mut bytes = std::fs::read(t.path().join(".git/index")).expect("read");
    let end = bytes.len() - 20;
    bytes.splice(end..end, b"link\0\0\0\0".iter().copied());
    assert!(Index::parse(&bytes).is_err());
}

#[test]
fn staged_changes_agree_with_libgit2s_diff() {
    let t = TestRepo::with_commit();
    fill(&t);
    t.git(&["read-tree", "HEAD"]);
    let check = |t: &TestRepo| {
        let repo = t.open();
        let head = repo.head().ok().map(|h| h.peel_to_tree().expect("tree"));
        let index = Index::read(&t.path().join(".git/index")).expect("parse");
        let (mut ours, _) = staged(&repo, head.as_ref(), &index).expect("staged");
        ours.sort();
        let git_index = repo.index().expect("index");
        let diff = repo.diff_tree_to_index(head.as_ref(), Some(&git_index), None).expect("diff");
        let mut theirs: Vec<majordomus_records::RepoPath> = diff
            .deltas()
            .map(|d| {
                let f = if d.new_file().exists() { d.new_file() } else { d.old_file() };
                majordomus_records::RepoPath::from_bytes(f.path_bytes().expect("path"))
            })
            .collect();
        theirs.sort();
        assert_eq!(ours, theirs);
    };
    check(&t);
    t.write("dir1/sub/file-1.txt", "changed\n");
    t.write("dir2/added.txt", "a\n");
    t.write("brand/new/dir.txt", "d\n");
    t.git(&["add", "-A"]);
    t.git(&["rm", "-q", "--cached", "-r", "dir0"]);
    t.git(&["rm", "-q", "--cached", "top.txt"]);
    t.remove("top.txt");
    t.write("top.txt/now-a-dir.txt", "x\n");
    t.git(&["add", "top.txt/now-a-dir.txt"]);
    check(&t);
    t.git(&["update-index", "--chmod=+x", "dir1/sub/file-4.txt"]);
    check(&t);
}

/// `git ls-files -s`: mode, id, stage and path of each entry, as text.
fn listed_by_git(t: &TestRepo) -> Vec<String> {
    t.git(&["ls-files", "-s"]).lines().map(String::from).collect()
}

fn listed_by_us(index: &Index) -> Vec<String> {
    let shown = |e: &Entry| String::from_utf8_lossy(e.path(&index.paths)).into_owned();
    index.entries.iter().map(|e| format!("{:o} {} {}\t{}", e.mode, e.id, e.stage, shown(e))).collect()
}

#[test]
fn a_split_index_is_its_shared_file_with_the_replacements_deletions_and_additions_of_its_own() {
    for version in ["2", "4"] {
        let t = TestRepo::with_commit();
        fill(&t);
        t.git(&["update-index", "--index-version", version]);
        t.git(&["update-index", "--split-index"]);
        t.write("dir0/sub/file-0.txt", "replaced\n");
        t.write("aaa-first.txt", "added before every shared entry\n");
        t.write("zzz-last.txt", "added after\n");
        t.git(&["add", "dir0/sub/file-0.txt", "aaa-first.txt", "zzz-last.txt"]);
        t.git(&["rm", "-q", "--cached", "dir1/sub/file-1.txt", "top.txt"]);
        let bytes = std::fs::read(t.path().join(".git/index")).expect("read");
        assert!(bytes.windows(4).any(|w| w == b"link"), "a split index");
        assert!(Index::parse(&bytes).is_err(), "the shared file is needed");
        let index = Index::read(&t.path().join(".git/index")).expect("read with its shared file");
        assert_eq!(listed_by_us(&index), listed_by_git(&t), "index version {version}");
    }
}

#[test]
fn a_sparse_index_expands_into_the_entries_of_its_trees() {
    let t = TestRepo::with_commit();
    fill(&t);
    t.git(&["sparse-checkout", "set", "--sparse-index", "dir1"]);
    let bytes = std::fs::read(t.path().join(".git/index")).expect("read");
    assert!(bytes.windows(4).any(|w| w == b"sdir"), "a sparse index");
    let mut index = Index::read(&t.path().join(".git/index")).expect("read");
    assert!(index.sparse && index.entries.iter().any(|e| e.mode == 0o040000));
    index.expand_sparse(&t.open()).expect("expand");
    assert_eq!(listed_by_us(&index), listed_by_git(&t));
    assert!(index.entries.iter().filter(|e| e.path(&index.paths).starts_with(b"dir0/")).all(|e| e.skip_worktree));
}

/// Each entry as the parse reads it through a window of `window` bytes.
fn through(bytes: &[u8], window: usize) -> Result<(Vec<Entry>, Paths), Unsupported> {
    super::parse::read_parts_through(bytes, bytes.len() as u64, window).map(|p| (p.entries, p.paths))
}

/// Paths that make version 4's prefix compression work: a first entry and
/// ones extending the path before them (a prefix of 0 to strip, a NUL byte),
/// a long one and a short one after it (more than 127 bytes to strip, a
/// varint of two bytes), a path longer than the smallest windows.
fn fill_for_windows(t: &TestRepo) {
    let long = format!("long/{}/{}/{}/end.txt", "x".repeat(100), "y".repeat(100), "z".repeat(100));
    for path in ["a", "ab/c", "ab/cd", "ab/cde.txt", long.as_str(), "m.txt", "z/z/z/z.txt"] {
        t.write(path, "content\n");
    }
    t.commit_all("paths");
}

#[test]
fn an_index_parsed_through_a_window_smaller_than_its_entries_reads_as_libgit2_reads_it() {
    for version in ["2", "3", "4"] {
        let t = TestRepo::with_commit();
        fill(&t);
        fill_for_windows(&t);
        t.git(&["update-index", "--index-version", version]);
        t.write("new.txt", "n\n");
        t.git(&["add", "-N", "new.txt"]);
        let bytes = std::fs::read(t.path().join(".git/index")).expect("read");
        let (_, theirs) = ours_and_libgit2(&t);
        let whole = through(&bytes, bytes.len()).expect("parse whole");
        let listed: Listing = whole.0.iter().map(|e| (e.path(&whole.1).to_vec(), e.id, e.mode, e.stage)).collect();
        assert_eq!(listed, theirs, "index version {version}");
        // Every window from 1 byte up, so that every field, varint and path
        // of some entry lies across a refill.
        for window in (1..=130).chain([500, 4096]) {
            let entries =
                through(&bytes, window).unwrap_or_else(|e| panic!("version {version}, window {window}: {e:?}"));
            assert_eq!(entries, whole, "index version {version}, window {window}");
        }
    }
}

#[test]
fn an_index_cut_short_anywhere_before_its_checksum_is_unsupported_through_any_window() {
    let t = TestRepo::with_commit();
    fill(&t);
    fill_for_windows(&t);
    for version in ["2", "4"] {
        t.git(&["update-index", "--index-version", version]);
        let bytes = std::fs::read(t.path().join(".git/index")).expect("read");
        // Where the entries end: the extensions follow (a cache tree, after a commit).
        let entries_end = bytes.windows(4).position(|w| w == b"TREE").expect("a cache tree");
        for cut in 0..entries_end + 20 {
            for window in [7, 64, 128 << 10] {
                assert!(
                    through(&bytes[..cut], window).is_err(),
                    "version {version}: cut at {cut} of {}, window {window}",
                    bytes.len()
                );
            }
        }
    }
}
