//! A gate's inputs: which paths select it, and the one hash that says what
//! content its verdict covers.
//!
//! A gate's verdict is only worth what it was run over. `gate run` hashes the
//! inputs before the command starts; `check` hashes them again and compares:
//! a verdict whose hash differs from the inputs now is stale, whatever its
//! age, and one whose hash is equal is current, whoever ran it and however
//! long ago (a change made and then reverted makes it current again).
//!
//! The inputs are every tracked or untracked, non-ignored file matching the
//! gate's globs: tracked paths from the index, untracked ones from the status
//! pass the caller already took. The hash covers each matching path with
//! the blob id of its content in the working tree, sorted by path, plus the
//! gate's command (a verdict of another command is not this gate's). The
//! blob id of a tracked file the status pass found unchanged is the index's
//! (the status pass already compared it with the working tree); every other
//! file is hashed from disk with `Oid::hash_file`. No git command runs.

use std::collections::BTreeSet;

use git2::{ObjectType, Oid};
use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use majordomus_records::paths::is_own_state;

use crate::status::{content_id, WorkingTree};
use crate::{Reading, Repo, Unread};

/// The globs of a gate's inputs, compiled. `*` and `?` stay within one path
/// component and `**` crosses them; every glob also matches everything
/// beneath what it names, so `docs` means the directory and its files.
#[derive(Debug, Clone)]
pub struct Matcher {
    set: GlobSet,
}

impl Matcher {
    pub fn new(globs: &[String]) -> Result<Self, globset::Error> {
        let mut builder = GlobSetBuilder::new();
        for glob in globs {
            let glob = glob.trim_end_matches('/');
            for pattern in [glob.to_string(), format!("{glob}/**")] {
                builder.add(GlobBuilder::new(&pattern).literal_separator(true).build()?);
            }
        }
        Ok(Self { set: builder.build()? })
    }

    /// Whether a repository-relative path (with `/` separators) is an input.
    pub fn is_match(&self, path: &str) -> bool {
        self.set.is_match(path)
    }
}

/// What a gate's inputs hold now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inputs {
    /// The hash of the gate's command and every matching path with its blob id.
    pub hash: String,
    /// How many files matched.
    pub files: usize,
}

/// Hashes the inputs matching `matcher` as the working tree holds them now.
/// `tree` is a status pass taken just before; `command` is the gate's.
pub fn hash(repo: &Repo, tree: &WorkingTree, matcher: &Matcher, command: &str) -> Reading<Inputs> {
    let index = repo.git.index().map_err(|e| Unread::git("the index", &e))?;
    let changed: BTreeSet<&str> =
        tree.dirty.iter().map(|d| d.path.as_str()).chain(tree.conflicted.iter().map(String::as_str)).collect();
    let mut files: Vec<(String, String)> = Vec::new();
    let mut seen: BTreeSet<String> = BTreeSet::new();
    for entry in index.iter() {
        let path = String::from_utf8_lossy(&entry.path).into_owned();
        if is_own_state(&path) || !matcher.is_match(&path) || !seen.insert(path.clone()) {
            continue;
        }
        let id = if changed.contains(path.as_str()) { content_id(repo, &path) } else { Some(entry.id.to_string()) };
        // A tracked file deleted from the working tree is not among the inputs.
        if let Some(id) = id {
            files.push((path, id));
        }
    }
    for path in &tree.untracked {
        if matcher.is_match(path) && seen.insert(path.clone()) {
            if let Some(id) = content_id(repo, path) {
                files.push((path.clone(), id));
            }
        }
    }
    files.sort();
    Ok(Inputs { hash: manifest_hash(command, &files)?, files: files.len() })
}

/// The hash of a command and its input files (path, blob id), sorted.
pub fn manifest_hash(command: &str, files: &[(String, String)]) -> Reading<String> {
    let mut manifest = format!("majordomus gate inputs v1\nrun {command}\n");
    for (path, id) in files {
        manifest.push_str(id);
        manifest.push(' ');
        manifest.push_str(path);
        manifest.push('\n');
    }
    // The hash of the manifest as git would name it: no other hash function needed.
    Oid::hash_object(ObjectType::Blob, manifest.as_bytes())
        .map(|o| o.to_string())
        .map_err(|e| Unread::git("the hash of the inputs", &e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use majordomus_testkit::TestRepo;

    fn inputs(t: &TestRepo, globs: &[&str]) -> Inputs {
        let repo = crate::open(t.path()).expect("open");
        let tree = crate::status::read(&repo).expect("status");
        let globs: Vec<String> = globs.iter().map(|g| g.to_string()).collect();
        hash(&repo, &tree, &Matcher::new(&globs).expect("globs"), "cargo test").expect("hash")
    }

    fn repo() -> TestRepo {
        let t = TestRepo::with_commit();
        t.write("src/lib.rs", "pub fn a() {}\n");
        t.write("src/deep/mod.rs", "// deep\n");
        t.write("docs/guide.md", "# guide\n");
        t.commit_all("files");
        t
    }

    #[test]
    fn globs_keep_star_within_a_component_and_match_beneath_a_directory() {
        let m = Matcher::new(&["src/*.rs".to_string(), "docs".to_string()]).expect("globs");
        assert!(m.is_match("src/lib.rs"));
        assert!(!m.is_match("src/deep/mod.rs"));
        assert!(m.is_match("docs/guide.md"));
        assert!(!m.is_match("docsx/guide.md"));
        let all = Matcher::new(&["src/**".to_string()]).expect("globs");
        assert!(all.is_match("src/deep/mod.rs"));
    }

    #[test]
    fn a_change_to_an_input_changes_the_hash_and_a_change_elsewhere_does_not() {
        let t = repo();
        let before = inputs(&t, &["src/**"]);
        assert_eq!(before.files, 2);
        t.write("docs/guide.md", "# guide, edited\n");
        t.write("notes.txt", "untracked, not an input\n");
        assert_eq!(inputs(&t, &["src/**"]), before);
        t.write("src/deep/mod.rs", "// deep, edited\n");
        assert_ne!(inputs(&t, &["src/**"]).hash, before.hash);
    }

    #[test]
    fn reverting_a_change_restores_the_hash() {
        let t = repo();
        let before = inputs(&t, &["src/**"]);
        t.write("src/lib.rs", "pub fn b() {}\n");
        assert_ne!(inputs(&t, &["src/**"]).hash, before.hash);
        t.write("src/lib.rs", "pub fn a() {}\n");
        assert_eq!(inputs(&t, &["src/**"]), before);
    }

    #[test]
    fn committing_a_change_does_not_change_the_hash_of_the_same_content() {
        let t = repo();
        t.write("src/lib.rs", "pub fn b() {}\n");
        let dirty = inputs(&t, &["src/**"]);
        t.commit_all("b");
        assert_eq!(inputs(&t, &["src/**"]), dirty);
    }

    #[test]
    fn untracked_inputs_count_deleted_ones_do_not_and_ignored_ones_never() {
        let t = repo();
        let before = inputs(&t, &["src/**"]);
        t.write(".gitignore", "src/*.log\n");
        t.write("src/build.log", "ignored\n");
        assert_eq!(inputs(&t, &["src/**"]), before, "an ignored file is not an input");
        t.write("src/new.rs", "// new\n");
        let with_new = inputs(&t, &["src/**"]);
        assert_eq!(with_new.files, 3);
        t.remove("src/new.rs");
        t.remove("src/lib.rs");
        let without = inputs(&t, &["src/**"]);
        assert_eq!(without.files, 1);
        assert_ne!(without.hash, before.hash);
    }

    #[test]
    fn the_hash_covers_the_command_and_equals_the_manifest_of_git_blob_ids() {
        let t = repo();
        let blob = |p: &str| t.git(&["hash-object", p]).trim().to_string();
        let expected = manifest_hash(
            "cargo test",
            &[("src/deep/mod.rs".into(), blob("src/deep/mod.rs")), ("src/lib.rs".into(), blob("src/lib.rs"))],
        )
        .expect("hash");
        assert_eq!(inputs(&t, &["src/**"]).hash, expected);
        assert_ne!(
            manifest_hash("cargo test --release", &[]).expect("hash"),
            manifest_hash("cargo test", &[]).expect("hash")
        );
    }

    #[test]
    fn the_tools_own_state_is_never_an_input() {
        let t = repo();
        let before = inputs(&t, &["**"]);
        t.write(".ai/local/state/ledger.jsonl", "{}\n");
        assert_eq!(inputs(&t, &["**"]), before);
    }
}
