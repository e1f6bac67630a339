//! Every untracked, non-ignored file, as `git status -uall` lists them.
//!
//! The walk follows git's `treat_path`: it never enters `.git`, never
//! follows a symbolic link (a link is listed as the file it is, even one to
//! a directory), asks the ignore rules about a directory before entering it
//! (an ignored directory is not entered, even one holding tracked files:
//! nothing under it is listed), lists a directory that is a repository of
//! its own as `dir/` rather than entering it, and lists no FIFO, socket or
//! device (`git add` refuses them). Each directory's `.gitignore` is read
//! when the walk enters it, from the working tree (or, when the file is
//! absent and its index entry is skip-worktree, from the index, as git
//! does); a `.gitignore` that is a link is not read.
//!
//! `entries` is the index, sorted by path as the index file keeps it: the
//! entries under a directory are one run of it, so each name the walk
//! meets is looked up by a binary search in its directory's run rather than
//! hashed into a set of every path. Under `core.ignoreCase` a name also
//! counts as tracked when it matches an entry with ASCII case aside.

use std::collections::HashSet;

use majordomus_records::paths::is_own_state;

use super::nested;
use super::stat::{MODE_GITLINK, MODE_MASK};
use crate::ignore::{Kind, Matcher, Rules};
use crate::index_file::Entry;
use crate::{Reading, Repo, Unread};

/// The tracked paths and directories with ASCII case folded, for `core.ignoreCase`.
#[derive(Debug, Default)]
pub(super) struct Folded {
    files: HashSet<Vec<u8>>,
    dirs: HashSet<Vec<u8>>,
}

impl Folded {
    pub(super) fn new(entries: &[Entry]) -> Folded {
        let mut f = Folded::default();
        for e in entries {
            let lower = e.path.to_ascii_lowercase();
            for (i, c) in lower.iter().enumerate() {
                if *c == b'/' {
                    f.dirs.insert(lower[..i].to_vec());
                }
            }
            f.files.insert(lower);
        }
        f
    }
}

/// The untracked files of `repo`'s working tree, under `matcher`'s rules.
pub(super) fn untracked(
    repo: &Repo,
    entries: &[Entry],
    matcher: &Matcher,
    folded: Option<&Folded>,
) -> Reading<Vec<String>> {
    let mut out = Vec::new();
    // A directory to list, the run of entries under it, and the rules of its ancestors.
    let mut stack: Vec<(String, &[Entry], Rules)> = vec![(String::new(), entries, Rules::default())];
    let mut rel = String::new();
    let lower = |s: &str| s.as_bytes().to_ascii_lowercase();
    while let Some((dir, under, inherited)) = stack.pop() {
        let full = repo.root().join(&dir);
        let listing =
            std::fs::read_dir(&full).map_err(|e| Unread::io(format!("could not list {}: {e}", full.display())))?;
        let mut names = Vec::new();
        for entry in listing {
            let entry = entry.map_err(|e| Unread::io(format!("could not list {}: {e}", full.display())))?;
            let name = entry.file_name();
            let Some(text) = name.to_str() else {
                // Named with its bytes escaped, so that the user can find it.
                let escaped = escape_non_utf8(name.as_encoded_bytes());
                let rel = if dir.is_empty() { escaped } else { format!("{dir}/{escaped}") };
                return Err(Unread::repository(format!(
                    "a path under {} is not UTF-8: {rel} (its bytes escaped)",
                    full.display()
                )));
            };
            let kind = entry.file_type().map_err(|e| Unread::io(format!("could not read {dir}/{text}: {e}")))?;
            names.push((text.to_string(), kind));
        }
        // This directory's own `.gitignore` is read the first time a rule
        // is asked for here: a directory that holds only tracked files
        // never needs it.
        let mut here: Option<Rules> = None;
        for (name, kind) in &names {
            let (name, kind) = (name.as_str(), *kind);
            let is_dotgit = if folded.is_some() { name.eq_ignore_ascii_case(".git") } else { name == ".git" };
            if is_dotgit {
                continue;
            }
            rel.clear();
            if !dir.is_empty() {
                rel.push_str(&dir);
                rel.push('/');
            }
            rel.push_str(name);
            if is_own_state(&rel) {
                continue;
            }
            let exact = under.binary_search_by(|e| e.path.as_slice().cmp(rel.as_bytes())).ok().map(|i| &under[i]);
            if kind.is_dir() {
                if exact.is_some_and(|e| e.mode & MODE_MASK == MODE_GITLINK) {
                    // A submodule: a tracked entry of its own, compared by the stat pass.
                    continue;
                }
                let rules = here.get_or_insert_with(|| own_rules(repo, &dir, under, &names, inherited.clone()));
                if matcher.is_ignored(rules, &rel, Kind::Dir) {
                    continue;
                }
                rel.push('/');
                let inside = run_under(under, rel.as_bytes());
                rel.pop();
                let tracked_inside = !inside.is_empty() || folded.is_some_and(|f| f.dirs.contains(&lower(&rel)));
                if !tracked_inside && nested::is_repository(&full.join(name)) {
                    // A repository of its own inside this one: listed as the
                    // directory, unless its name is a tracked file's (git
                    // lists nothing the index holds).
                    if exact.is_none() {
                        out.push(format!("{rel}/"));
                    }
                } else {
                    stack.push((rel.clone(), inside, rules.clone()));
                }
            } else if !kind.is_file() && !kind.is_symlink() {
                // A FIFO, socket or device: `git status -uall` lists none,
                // and `git add` would refuse it. A tracked one is the stat
                // pass's to compare.
                continue;
            } else if exact.is_some() || folded.is_some_and(|f| f.files.contains(&lower(&rel))) {
                continue;
            } else if !matcher.is_ignored(
                here.get_or_insert_with(|| own_rules(repo, &dir, under, &names, inherited.clone())),
                &rel,
                Kind::NotDir,
            ) {
                out.push(rel.clone());
            }
        }
    }
    Ok(out)
}

/// `rules` and, deeper, the `.gitignore` of `dir` if it has one git reads.
fn own_rules(repo: &Repo, dir: &str, under: &[Entry], names: &[(String, std::fs::FileType)], rules: Rules) -> Rules {
    let path = if dir.is_empty() { ".gitignore".to_string() } else { format!("{dir}/.gitignore") };
    let on_disk = names.iter().find(|(n, _)| n == ".gitignore").map(|(_, k)| *k);
    if on_disk.is_some_and(|k| k.is_file()) {
        return match crate::file::read(&repo.root().join(&path)) {
            Ok(bytes) => rules.with(dir, &bytes),
            Err(_) => rules,
        };
    }
    // Absent (or a link, which git does not open): the index's copy when
    // its entry is skip-worktree, as git reads it.
    let entry = under.binary_search_by(|e| e.path.as_slice().cmp(path.as_bytes())).ok().map(|i| &under[i]);
    match entry.filter(|e| e.skip_worktree && e.stage == 0).and_then(|e| repo.git.find_blob(e.id).ok()) {
        Some(blob) => rules.with(dir, blob.content()),
        None => rules,
    }
}

/// A name as text: its UTF-8 as it is, every byte that is not UTF-8 as `\xNN`.
fn escape_non_utf8(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// The run of `entries` (sorted by path) whose paths begin with `prefix`.
fn run_under<'a>(entries: &'a [Entry], prefix: &[u8]) -> &'a [Entry] {
    let start = entries.partition_point(|e| e.path.as_slice() < prefix);
    let len = entries[start..].partition_point(|e| e.path.starts_with(prefix));
    &entries[start..start + len]
}
