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
//! counts as tracked when it matches an entry with ASCII case aside, as
//! git takes it; such a file is kept apart ([`Walked::case_folded`]), for
//! a task's reading to count where its start did not find it so
//! (test/cases/514).
//!
//! Names are bytes, as git's are: a name that is not UTF-8 is listed like
//! any other ([`RepoPath`] shows it quoted).
//!
//! Given the ignore files that held when a task started ([`Held::AtStart`]),
//! a `.gitignore` that is not as it was at the start (uncommitted then, or
//! as the start commit holds it) hides nothing, committed since or not: the
//! walk lists by the rules that held, and names, for each file it lists
//! that git's own rules hide, the file of the rule that does. A rule
//! `echo src/helper.rs >> .gitignore` committed with the work is the
//! task's, and leaves the helper out of the repository as surely as one in
//! `info/exclude` (test/cases/401). On an unborn start, the ignore files
//! HEAD holds are the repository's setting up, and hide what they hide.

use std::collections::{BTreeMap, HashSet};
use std::ffi::OsStr;
use std::os::unix::ffi::{OsStrExt, OsStringExt};

use majordomus_records::RepoPath;

use super::nested;
use super::stat::{MODE_GITLINK, MODE_MASK};
use crate::ignore::{rules_of, Kind, Matcher, Rules, Seen};
use crate::index_file::{Entry, Paths};
use crate::{Reading, Repo, Unread};

/// The tracked paths and directories with ASCII case folded, for `core.ignoreCase`.
#[derive(Debug, Default)]
pub(super) struct Folded {
    files: HashSet<Vec<u8>>,
    dirs: HashSet<Vec<u8>>,
}

impl Folded {
    pub(super) fn new(entries: &[Entry], paths: &Paths) -> Folded {
        let mut f = Folded::default();
        for e in entries {
            let lower = e.path(paths).to_ascii_lowercase();
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

/// What the walk found.
#[derive(Debug, Default)]
pub(super) struct Walked {
    /// Untracked, non-ignored files (by the rules that held at the start,
    /// when a start is given), in the order met.
    pub untracked: Vec<RepoPath>,
    /// Of those, the ones git ignores now, each with the file of the rule
    /// that hides it (only with a start given).
    pub hidden_since: Vec<(RepoPath, String)>,
    /// The ignore files read whose content HEAD does not hold at their
    /// path (untracked, or changed and not committed), with that content.
    pub uncommitted_ignores: Vec<(RepoPath, Vec<u8>)>,
    /// Untracked, non-ignored files that git hides under `core.ignoreCase`
    /// only because their name is a tracked path's with case aside, each
    /// with the file of a rule by which git ignores it now (as
    /// `hidden_since`): not in `untracked`, which is git's list.
    pub case_folded: Vec<(RepoPath, Option<String>)>,
}

impl Walked {
    /// Counts the case-folded files `counts` says the task's reading must
    /// (`since::folded_since`), as untracked (and, ignored by a rule set
    /// since, as such), and returns them with the others, which stay
    /// hidden as git hides them: `(counted, hidden)`.
    pub(super) fn count_folded(&mut self, counts: impl Fn(&RepoPath) -> bool) -> (Vec<RepoPath>, Vec<RepoPath>) {
        let (mut counted, mut hidden) = (Vec::new(), Vec::new());
        for (path, origin) in std::mem::take(&mut self.case_folded) {
            if counts(&path) {
                self.found(path.clone(), origin);
                counted.push(path);
            } else {
                hidden.push(path);
            }
        }
        hidden.sort();
        (counted, hidden)
    }

    fn found(&mut self, path: RepoPath, hidden_by: Option<String>) {
        if let Some(origin) = hidden_by {
            self.hidden_since.push((path.clone(), origin));
        }
        self.untracked.push(path);
    }
}

/// Which `.gitignore` files hide files, beyond those HEAD holds as they are.
#[derive(Debug, Clone, Copy)]
pub(super) enum Held<'a> {
    /// Every one git reads: git's own view.
    All,
    /// Those as they were at the start: `files`, the content of those
    /// uncommitted then, by path, and otherwise as the start commit held
    /// them (`commit`, `None` for an unborn start, which held none). A file
    /// added or changed since, committed or not, is read as it was at the
    /// start, else not at all (git's reading of it only names what it hides).
    AtStart { files: &'a BTreeMap<RepoPath, Vec<u8>>, commit: Option<git2::Oid> },
}

impl Held<'_> {
    /// The tree of the start commit, for the walk's [`Context::start`].
    pub(super) fn start_tree<'r>(&self, repo: &'r Repo) -> Option<git2::Tree<'r>> {
        match self {
            Held::AtStart { commit: Some(id), .. } => repo.git.find_commit(*id).ok()?.tree().ok(),
            _ => None,
        }
    }
}

/// What the walk needs of the repository beside the index.
pub(super) struct Context<'a> {
    pub repo: &'a Repo,
    pub head: Option<&'a git2::Tree<'a>>,
    /// Paths whose index entry differs from HEAD.
    pub staged: &'a HashSet<RepoPath>,
    pub held: Held<'a>,
    /// The start commit's tree ([`Held::start_tree`]).
    pub start: Option<&'a git2::Tree<'a>>,
    /// The paths of the index's entries ([`Entry::path`]).
    pub paths: &'a Paths,
}

/// A directory to list, the run of entries under it, the rules of its
/// ancestors, and the file of a rule by which git ignores it now when the
/// rules held at the start do not.
type Pending<'e> = (Vec<u8>, &'e [Entry], Rules, Option<String>);

/// The untracked files of the working tree, under `matcher`'s rules.
pub(super) fn untracked(
    cx: &Context<'_>,
    entries: &[Entry],
    matcher: &Matcher,
    folded: Option<&Folded>,
) -> Reading<Walked> {
    let mut out = Walked::default();
    // Only the root of the repository majordomus runs in holds its state:
    // a submodule's or a nested repository's `.ai/local/` is its content.
    let own_state = cx.repo.holds_own_state();
    let mut stack: Vec<Pending<'_>> = vec![(Vec::new(), entries, Rules::default(), None)];
    let mut rel: Vec<u8> = Vec::new();
    while let Some((dir, under, inherited, hidden_by)) = stack.pop() {
        let full = cx.repo.root().join(OsStr::from_bytes(&dir));
        let listing =
            std::fs::read_dir(&full).map_err(|e| Unread::io(format!("could not list {}: {e}", full.display())))?;
        let mut names = Vec::new();
        for entry in listing {
            let entry = entry.map_err(|e| Unread::io(format!("could not list {}: {e}", full.display())))?;
            let name = entry.file_name().into_vec();
            let kind = entry
                .file_type()
                .map_err(|e| Unread::io(format!("could not read {}: {e}", RepoPath::from_bytes(join(&dir, &name)))))?;
            names.push((name, kind));
        }
        // This directory's own `.gitignore` is read the first time a rule
        // is asked for here: a directory that holds only tracked files
        // never needs it.
        let mut here: Option<Rules> = None;
        let mut own = |uncommitted: &mut Vec<(RepoPath, Vec<u8>)>| {
            here.get_or_insert_with(|| own_rules(cx, &dir, under, &names, inherited.clone(), uncommitted)).clone()
        };
        for (name, kind) in &names {
            let (name, kind) = (name.as_slice(), *kind);
            // git passes over `.GIT` too where it ignores case; read for a
            // task, only where both the start and git now do, else a value
            // changed since would pass over what git lists.
            let is_dotgit = if matcher.folds_case() { name.eq_ignore_ascii_case(b".git") } else { name == b".git" };
            if is_dotgit {
                continue;
            }
            rel.clear();
            if !dir.is_empty() {
                rel.extend_from_slice(&dir);
                rel.push(b'/');
            }
            rel.extend_from_slice(name);
            if own_state && is_own_state(&rel) {
                continue;
            }
            let exact = under.binary_search_by(|e| e.path(cx.paths).cmp(&rel)).ok().map(|i| &under[i]);
            if kind.is_dir() {
                if exact.is_some_and(|e| e.mode & MODE_MASK == MODE_GITLINK) {
                    // A submodule: a tracked entry of its own, compared by the stat pass.
                    continue;
                }
                let rules = own(&mut out.uncommitted_ignores);
                if matcher.is_ignored(&rules, &rel, Kind::Dir) {
                    continue;
                }
                let hidden =
                    hidden_by.clone().or_else(|| matcher.hidden_since(&rules, &rel, Kind::Dir).map(String::from));
                rel.push(b'/');
                let inside = run_under(under, cx.paths, &rel);
                rel.pop();
                let tracked_inside =
                    !inside.is_empty() || folded.is_some_and(|f| f.dirs.contains(&rel.to_ascii_lowercase()));
                if !tracked_inside && nested::is_repository(&full.join(OsStr::from_bytes(name))) {
                    // A repository of its own inside this one: listed as the
                    // directory, unless its name is a tracked file's (git
                    // lists nothing the index holds).
                    if exact.is_none() {
                        let mut listed = rel.clone();
                        listed.push(b'/');
                        out.found(RepoPath::from_bytes(listed), hidden);
                    }
                } else {
                    stack.push((rel.clone(), inside, rules, hidden));
                }
            } else if !kind.is_file() && !kind.is_symlink() {
                // A FIFO, socket or device: `git status -uall` lists none,
                // and `git add` would refuse it. A tracked one is the stat
                // pass's to compare.
                continue;
            } else if exact.is_some() {
                continue;
            } else if folded.is_some_and(|f| f.files.contains(&rel.to_ascii_lowercase())) {
                // Hidden by the case fold alone (a tracked path's name with
                // case aside): kept apart, for a task's reading to count
                // unless its start found it so. The ignore rules are asked
                // only here, where such a collision exists.
                let rules = own(&mut out.uncommitted_ignores);
                if !one_file_under_two_cases(&full, name) && !matcher.is_ignored(&rules, &rel, Kind::NotDir) {
                    let hidden = hidden_by
                        .clone()
                        .or_else(|| matcher.hidden_since(&rules, &rel, Kind::NotDir).map(String::from));
                    out.case_folded.push((RepoPath::from_bytes(rel.clone()), hidden));
                }
            } else if let Some(rules) =
                Some(own(&mut out.uncommitted_ignores)).filter(|rules| !matcher.is_ignored(rules, &rel, Kind::NotDir))
            {
                let hidden =
                    hidden_by.clone().or_else(|| matcher.hidden_since(&rules, &rel, Kind::NotDir).map(String::from));
                out.found(RepoPath::from_bytes(rel.clone()), hidden);
            }
        }
    }
    Ok(out)
}

/// Whether `name` in `dir` and the same name with its ASCII letters'
/// case swapped are one file: a file system that ignores case (macOS's,
/// Windows') shows a tracked file under another case than the index's
/// (`mv Foo.rs foo.rs` there renames nothing git sees), and that is the
/// tracked file itself, not a second one the fold hides.
fn one_file_under_two_cases(dir: &std::path::Path, name: &[u8]) -> bool {
    use std::os::unix::fs::MetadataExt;
    let swapped: Vec<u8> = name
        .iter()
        .map(|c| if c.is_ascii_lowercase() { c.to_ascii_uppercase() } else { c.to_ascii_lowercase() })
        .collect();
    if swapped == name {
        // No letter to swap: nothing tells, and the file is counted.
        return false;
    }
    let meta = |n: &[u8]| std::fs::symlink_metadata(dir.join(OsStr::from_bytes(n))).ok();
    match (meta(name), meta(&swapped)) {
        (Some(a), Some(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

fn join(dir: &[u8], name: &[u8]) -> Vec<u8> {
    let mut p = dir.to_vec();
    if !p.is_empty() {
        p.push(b'/');
    }
    p.extend_from_slice(name);
    p
}

fn is_own_state(rel: &[u8]) -> bool {
    let local = majordomus_records::paths::LOCAL_DIR.as_bytes();
    rel.starts_with(local) && (rel.len() == local.len() || rel[local.len()] == b'/')
}

/// `rules` and, deeper, the `.gitignore` of `dir` if it has one git reads;
/// one whose content HEAD does not hold is put in `uncommitted`.
fn own_rules(
    cx: &Context<'_>,
    dir: &[u8],
    under: &[Entry],
    names: &[(Vec<u8>, std::fs::FileType)],
    rules: Rules,
    uncommitted: &mut Vec<(RepoPath, Vec<u8>)>,
) -> Rules {
    let path = join(dir, b".gitignore");
    let on_disk = names.iter().find(|(n, _)| n == b".gitignore").map(|(_, k)| *k);
    let entry = under.binary_search_by(|e| e.path(cx.paths).cmp(&path)).ok().map(|i| &under[i]);
    if on_disk.is_some_and(|k| k.is_file()) {
        let Ok(bytes) = crate::file::read(&cx.repo.root().join(OsStr::from_bytes(&path))) else { return rules };
        let path = RepoPath::from_bytes(path);
        let committed = committed_id(cx, entry, &path);
        let as_committed =
            committed.is_some() && committed == git2::Oid::hash_object(git2::ObjectType::Blob, &bytes).ok();
        let rules = match cx.held {
            // A task started on an unborn HEAD: the ignore files its first
            // commits hold set the repository up, as its policy file does.
            Held::AtStart { commit: None, .. } if as_committed => rules.with(dir, &bytes),
            Held::AtStart { files, .. } => {
                // Uncommitted at the start: as it was then; else as the start
                // commit held it, or not at all.
                let at_start = || {
                    let id = cx.start?.get_path(&path.under(std::path::Path::new(""))).ok()?.id();
                    if as_committed && Some(id) == committed {
                        return Some(None);
                    }
                    Some(Some(rules_of(cx.repo.git.find_blob(id).ok()?.content())))
                };
                let held = match files.get(&path) {
                    Some(then) => Some(Some(then.clone())),
                    None => at_start(),
                };
                match held {
                    // The start commit's, unchanged since.
                    Some(None) => rules.with(dir, &bytes),
                    Some(Some(then)) if then == rules_of(&bytes) => rules.with(dir, &bytes),
                    // Git's reading of it now only names what it hides.
                    Some(Some(then)) => {
                        rules.with_seen(dir, &then, Seen::HeldOnly).with_seen(dir, &bytes, Seen::GitOnly)
                    }
                    None => rules.with_seen(dir, &bytes, Seen::GitOnly),
                }
            }
            Held::All => rules.with(dir, &bytes),
        };
        if !as_committed {
            uncommitted.push((path, bytes));
        }
        return rules;
    }
    // Absent (or a link, which git does not open): the index's copy when
    // its entry is skip-worktree, as git reads it.
    match entry.filter(|e| e.skip_worktree && e.stage == 0).and_then(|e| cx.repo.git.find_blob(e.id).ok()) {
        Some(blob) => rules.with(dir, blob.content()),
        None => rules,
    }
}

/// The blob HEAD holds at `path`, a `.gitignore` whose index entry is
/// `entry`: the entry's own when it is HEAD's (its path not staged).
fn committed_id(cx: &Context<'_>, entry: Option<&Entry>, path: &RepoPath) -> Option<git2::Oid> {
    match entry.filter(|e| e.stage == 0) {
        Some(e) if !cx.staged.contains(path) => Some(e.id),
        _ => cx.head?.get_path(&path.under(std::path::Path::new(""))).ok().map(|t| t.id()),
    }
}

/// The run of `entries` (sorted by path) whose paths begin with `prefix`.
fn run_under<'a>(entries: &'a [Entry], paths: &Paths, prefix: &[u8]) -> &'a [Entry] {
    let start = entries.partition_point(|e| e.path(paths) < prefix);
    let len = entries[start..].partition_point(|e| e.path(paths).starts_with(prefix));
    &entries[start..start + len]
}

#[cfg(test)]
mod tests {
    use super::one_file_under_two_cases;

    /// A file system that ignores case shows one file under two names; a
    /// hard link stands in for it here. Two files are two, and a name with
    /// no letter tells nothing.
    #[test]
    fn one_file_seen_under_two_cases_is_told_from_two_files() {
        let dir = tempfile::tempdir().expect("dir");
        std::fs::write(dir.path().join("lib.rs"), "a").expect("write");
        std::fs::hard_link(dir.path().join("lib.rs"), dir.path().join("LIB.RS")).expect("link");
        assert!(one_file_under_two_cases(dir.path(), b"LIB.RS"));
        std::fs::write(dir.path().join("Main.rs"), "a").expect("write");
        std::fs::write(dir.path().join("mAIN.RS"), "b").expect("write");
        assert!(!one_file_under_two_cases(dir.path(), b"mAIN.RS"), "two files");
        std::fs::write(dir.path().join("NEW.RS"), "c").expect("write");
        assert!(!one_file_under_two_cases(dir.path(), b"NEW.RS"), "no other name");
        std::fs::write(dir.path().join("123"), "d").expect("write");
        assert!(!one_file_under_two_cases(dir.path(), b"123"), "no letter");
    }
}
