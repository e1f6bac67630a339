//! Debt baselines: every `*-baseline.txt` under `.ai/repo/`, at any depth,
//! found by suffix. An entry is a trimmed line that is neither blank nor a
//! `#` comment.

use std::collections::BTreeMap;
use std::path::Path;

use majordomus_records::paths::REPO_DIR;

use crate::{Reading, Repo, Unread};

/// The suffix that makes a file a debt baseline.
pub const SUFFIX: &str = "-baseline.txt";

/// Baselines by repository-relative path, each with its entries in order.
pub type Baselines = BTreeMap<String, Vec<String>>;

/// The entries of one baseline's text. A byte-order mark some editors put
/// at the start is no part of the first entry: kept, it would make that
/// entry differ invisibly from the same entry saved without one.
pub fn entries(text: &str) -> Vec<String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).map(str::to_string).collect()
}

/// The baselines in the working tree now.
pub fn read_worktree(repo: &Repo) -> Reading<Baselines> {
    let mut out = Baselines::new();
    let dir = repo.root().join(REPO_DIR);
    if !dir.is_dir() {
        return Ok(out);
    }
    walk(repo.root(), &dir, &mut out)?;
    Ok(out)
}

fn walk(root: &Path, dir: &Path, out: &mut Baselines) -> Reading<()> {
    let listing = std::fs::read_dir(dir).map_err(|e| Unread::io(format!("could not list {}: {e}", dir.display())))?;
    for entry in listing {
        let entry = entry.map_err(|e| Unread::io(format!("could not list {}: {e}", dir.display())))?;
        let path = entry.path();
        let kind = entry.file_type().map_err(|e| Unread::io(format!("could not read {}: {e}", path.display())))?;
        if kind.is_dir() {
            walk(root, &path, out)?;
        } else if !kind.is_symlink() && entry.file_name().to_string_lossy().ends_with(SUFFIX) {
            // Named as a baseline but a FIFO, a socket or a device: not read
            // (a FIFO would wait for a writer), and the reading says why
            // rather than pass over a baseline it could not see.
            let rel = path.strip_prefix(root).unwrap_or(&path).to_string_lossy().replace('\\', "/");
            let text = crate::file::read(&path).map_err(|e| match e {
                crate::file::FileError::NotRegular { kind, .. } => {
                    Unread::repository(format!("the baseline {rel} is {kind}, not a regular file, and was not read"))
                }
                e => Unread::io(e.to_string()),
            })?;
            out.insert(rel, entries(&String::from_utf8_lossy(&text)));
        }
    }
    Ok(())
}

/// The baselines in a commit's tree, all read in one walk of that tree.
pub fn read_commit(repo: &Repo, commit: &str) -> Reading<Baselines> {
    let oid = git2::Oid::from_str(commit).map_err(|e| Unread::git(&format!("commit id {commit}"), &e))?;
    let commit_obj = repo.git.find_commit(oid).map_err(|_| Unread::start_commit_missing(commit))?;
    let tree = commit_obj.tree().map_err(|e| Unread::git("the start commit's tree", &e))?;
    let mut out = Baselines::new();
    let sub = match tree.get_path(Path::new(REPO_DIR)) {
        Ok(entry) => entry.to_object(&repo.git).map_err(|e| Unread::git(REPO_DIR, &e))?,
        Err(_) => return Ok(out),
    };
    let Some(sub) = sub.as_tree() else { return Ok(out) };
    let mut failed = None;
    sub.walk(git2::TreeWalkMode::PreOrder, |parent, entry| {
        let name = entry.name().unwrap_or("");
        if entry.kind() == Some(git2::ObjectType::Blob) && name.ends_with(SUFFIX) {
            match repo.git.find_blob(entry.id()) {
                Ok(blob) => {
                    out.insert(format!("{REPO_DIR}/{parent}{name}"), entries(&String::from_utf8_lossy(blob.content())));
                }
                Err(e) => {
                    failed = Some(Unread::git(&format!("{parent}{name}"), &e));
                    return git2::TreeWalkResult::Abort;
                }
            }
        }
        git2::TreeWalkResult::Ok
    })
    .ok();
    match failed {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// Pairs baselines that are gone with baselines that appeared, by the
/// entries they share. A gone baseline is taken to live on in the appeared
/// one holding most of its entries, when that is at least half of them;
/// then, among those left, in the one appeared baseline it shares any entry
/// with, when that one shares entries with no other gone baseline left (a
/// move rewritten so that fewer than half of its entries remain is still a
/// move, where nothing else could be its former self). Where sharing is
/// ambiguous nothing is paired, and the caller judges what is left.
/// This finds a move git's rename detection cannot see (a file rewritten in
/// the same move, a baseline that was never committed); a gone baseline
/// with no entries cannot be paired this way.
pub fn pair_by_entries(gone: &Baselines, appeared: &Baselines) -> Vec<(String, String)> {
    use std::collections::BTreeSet;
    let mut shares: Vec<(usize, usize, &String, &String)> = Vec::new();
    for (from, old) in gone {
        let old: BTreeSet<&String> = old.iter().collect();
        for (to, new) in appeared {
            let shared = new.iter().collect::<BTreeSet<_>>().intersection(&old).count();
            if shared > 0 {
                shares.push((shared, old.len(), from, to));
            }
        }
    }
    let mut candidates: Vec<_> = shares.iter().filter(|(shared, of, _, _)| shared * 2 >= *of).collect();
    // The largest share of the former entries first; each path paired once.
    candidates.sort_by(|a, b| (b.0 * a.1).cmp(&(a.0 * b.1)).then(b.0.cmp(&a.0)).then(a.2.cmp(b.2)).then(a.3.cmp(b.3)));
    let mut pairs = Vec::new();
    let mut used_from = BTreeSet::new();
    let mut used_to = BTreeSet::new();
    for (_, _, from, to) in candidates {
        if used_from.contains(from) || used_to.contains(to) {
            continue;
        }
        used_from.insert(*from);
        used_to.insert(*to);
        pairs.push(((*from).clone(), (*to).clone()));
    }
    // Any share at all, where it is the only one on both sides.
    let left: Vec<_> = shares.iter().filter(|(_, _, f, t)| !used_from.contains(f) && !used_to.contains(t)).collect();
    for (_, _, from, to) in &left {
        let of_from = left.iter().filter(|(_, _, f, _)| f == from).count();
        let of_to = left.iter().filter(|(_, _, _, t)| t == to).count();
        if of_from == 1 && of_to == 1 {
            pairs.push(((*from).clone(), (*to).clone()));
        }
    }
    pairs.sort();
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use majordomus_testkit::TestRepo;

    #[test]
    fn blank_lines_and_comments_are_not_entries() {
        assert_eq!(entries("# header\n\n  a  \n#b\nc\n   \n"), ["a", "c"]);
    }

    #[test]
    fn a_byte_order_mark_is_no_part_of_the_first_entry() {
        assert_eq!(entries("\u{feff}first\nsecond\n"), entries("first\nsecond\n"));
        assert_eq!(entries("\u{feff}# a comment\nfirst\n"), ["first"], "nor does it hide a comment");
        assert_eq!(entries("first\n\u{feff}second\n")[1], "\u{feff}second", "only a leading mark is one");
    }

    #[test]
    fn baselines_are_found_by_suffix_at_any_depth_in_the_tree_and_the_commit() {
        let t = TestRepo::with_commit();
        t.write(".ai/repo/clippy-baseline.txt", "one\ntwo\n");
        t.write(".ai/repo/deep/er/todo-baseline.txt", "# c\nthree\n");
        t.write(".ai/repo/not-a-baseline.md", "x\n");
        let commit = t.commit_all("baselines");
        let repo = crate::open(t.path()).expect("open");
        let now = read_worktree(&repo).expect("worktree");
        assert_eq!(
            now.keys().collect::<Vec<_>>(),
            [".ai/repo/clippy-baseline.txt", ".ai/repo/deep/er/todo-baseline.txt"]
        );
        assert_eq!(now[".ai/repo/deep/er/todo-baseline.txt"], ["three"]);
        assert_eq!(read_commit(&repo, &commit).expect("commit"), now);
    }

    fn set(items: &[(&str, &[&str])]) -> Baselines {
        items.iter().map(|(k, v)| (k.to_string(), v.iter().map(|s| s.to_string()).collect())).collect()
    }

    #[test]
    fn a_gone_baseline_is_paired_with_the_one_holding_most_of_its_entries() {
        let gone = set(&[(".ai/repo/old-baseline.txt", &["a", "b", "c", "d"]), (".ai/repo/empty-baseline.txt", &[])]);
        let appeared = set(&[
            (".ai/repo/x/new-baseline.txt", &["a", "b", "c", "z", "y", "x", "w"]),
            (".ai/repo/other-baseline.txt", &["a", "q"]),
        ]);
        assert_eq!(
            pair_by_entries(&gone, &appeared),
            [(".ai/repo/old-baseline.txt".to_string(), ".ai/repo/x/new-baseline.txt".to_string())]
        );
        let unrelated = set(&[(".ai/repo/n-baseline.txt", &["q", "r"])]);
        assert!(pair_by_entries(&gone, &unrelated).is_empty(), "no shared entry is no move");
    }

    #[test]
    fn a_move_keeping_fewer_than_half_its_entries_is_paired_when_nothing_else_could_be_its_former_self() {
        let gone = set(&[(".ai/repo/lint-baseline.txt", &["a", "b", "c", "d"])]);
        let appeared = set(&[(".ai/repo/clippy-baseline.txt", &["a", "x", "y", "z", "w"])]);
        assert_eq!(
            pair_by_entries(&gone, &appeared),
            [(".ai/repo/lint-baseline.txt".to_string(), ".ai/repo/clippy-baseline.txt".to_string())]
        );
        // Two appeared baselines each holding one of its entries: either
        // could be its former self, so neither is paired here.
        let two = set(&[(".ai/repo/one-baseline.txt", &["a", "q"]), (".ai/repo/two-baseline.txt", &["b", "r"])]);
        assert!(pair_by_entries(&gone, &two).is_empty());
        // A strong pair taken first leaves the weak one unambiguous.
        let gone2 = set(&[
            (".ai/repo/lint-baseline.txt", &["a", "b", "c", "d"]),
            (".ai/repo/todo-baseline.txt", &["t1", "t2", "t3"]),
        ]);
        let appeared2 = set(&[
            (".ai/repo/clippy-baseline.txt", &["a", "x", "t1"]),
            (".ai/repo/later-baseline.txt", &["t1", "t2", "t3", "n"]),
        ]);
        assert_eq!(
            pair_by_entries(&gone2, &appeared2),
            [
                (".ai/repo/lint-baseline.txt".to_string(), ".ai/repo/clippy-baseline.txt".to_string()),
                (".ai/repo/todo-baseline.txt".to_string(), ".ai/repo/later-baseline.txt".to_string()),
            ]
        );
    }
}
