//! The register of limitation markers: which files it scans, the markers
//! they hold, and the markers a change added.
//!
//! A marker is a comment such as `LIMITATION` followed by `(#12)` naming the
//! open issue that tracks a known gap. The register is the policy's
//! `[markers]` table: the pattern of a well-formed marker, the directories
//! and extensions scanned, and the trees never scanned (tests, benches,
//! examples, generated code: a gap in test coverage is marked on the
//! production item the tests leave uncovered, not on the test). Each key
//! left out takes its default, and [`Register::decided`] says which did.
//!
//! A marker the pattern cannot read an issue out of (the marker word and its
//! parenthesis, with no number) is still a marker: it is found by the word
//! the pattern opens with, and read with no issue, so it can be refused
//! rather than overlooked.
//!
//! Only what the task added counts against it: the lines present now in a
//! changed file that were not in that file at the start commit, committed
//! or not. A checkout that is merely behind is neither credited with nor
//! blamed for a line it has not merged.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::sync::OnceLock;

use globset::{Glob, GlobSet, GlobSetBuilder};
use majordomus_records::issue::{is_repository, IssueRef};
use majordomus_records::paths::is_own_state;
use majordomus_records::policy::{marker_defaults, Markers};
use majordomus_records::RepoPath;
use regex::Regex;

use crate::{Reading, Repo, Unread};

/// The register, resolved from the policy and the defaults.
#[derive(Debug, Clone)]
pub struct Register {
    /// The pattern, compiled. The default one is compiled only when a line
    /// holds its marker word (see [`Register::find`]): compiling it is most
    /// of the register's cost, and most changes hold no marker at all.
    pattern: OnceLock<Regex>,
    /// The marker word and its parenthesis (`LIMITATION(`), when the
    /// pattern opens with one.
    word: Option<String>,
    /// Whether every match of the pattern holds [`Register::word`]: true of
    /// the default pattern; a pattern from the policy may have alternatives
    /// that do not open with it.
    word_in_every_match: bool,
    pub pattern_text: String,
    pub scan: Vec<String>,
    pub extensions: Vec<String>,
    pub exclude: Vec<String>,
    excluded: Excluded,
    /// How each part was decided, for `markers scope`.
    pub decided: Decided,
}

/// Where each part of the register came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decided {
    pub pattern: &'static str,
    pub scan: &'static str,
    pub extensions: &'static str,
    pub exclude: &'static str,
}

/// The paths the register never scans.
#[derive(Debug, Clone)]
enum Excluded {
    /// The default globs ([`marker_defaults::EXCLUDE`]), matched without
    /// compiling them: at every check, compiling their set (a regular
    /// expression each) was a twelfth of a `check` of a thousand files.
    /// `**/NAME/**` matches a path of which a directory is named NAME, and
    /// `**/*.generated.*` (a `*` crossing `/`, as `Glob::new` reads it) one
    /// holding `.generated.`; a test holds this to the compiled set.
    Default,
    /// The policy's own globs, compiled.
    Globs(GlobSet),
}

/// The directory names of the default `**/NAME/**` exclusions.
const EXCLUDED_DIRS: [&str; 9] =
    ["test", "tests", "testdata", "bench", "benches", "example", "examples", "generated", "fixtures"];

impl Excluded {
    fn is_match(&self, path: &str) -> bool {
        match self {
            Excluded::Globs(set) => set.is_match(path),
            Excluded::Default => {
                let dirs = path.rsplit_once('/').map_or("", |(dirs, _)| dirs);
                dirs.split('/').any(|d| EXCLUDED_DIRS.contains(&d)) || path.contains(".generated.")
            }
        }
    }
}

const FROM_POLICY: &str = "the policy's [markers]";
const FROM_DEFAULT: &str = "the default";

/// One marker found: where, its text, and the issue it names (`None`: it
/// names no issue number).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marker {
    pub path: String,
    /// 1-based.
    pub line: usize,
    pub text: String,
    pub issue: Option<IssueRef>,
    /// On a line HEAD's commit holds at this path past the working tree's
    /// file (stored through a clean filter): `line` is HEAD's blob's.
    pub in_head_only: bool,
    /// On the trunk only, landed there around HEAD by this commit (made
    /// here since the start, HEAD not reaching it: [`Register::landed`]):
    /// `line` is the trunk's tip's blob's.
    pub landed: Option<String>,
}

impl Register {
    /// The register the policy's `[markers]` table describes.
    pub fn from_policy(markers: Option<&Markers>) -> Reading<Self> {
        let m = markers.cloned().unwrap_or_default();
        let pick = |v: Option<Vec<String>>, default: &[&str]| match v {
            Some(v) => (v, FROM_POLICY),
            None => (default.iter().map(|s| s.to_string()).collect(), FROM_DEFAULT),
        };
        let (pattern_text, pattern_from) = match m.pattern {
            Some(p) => (p, FROM_POLICY),
            None => (marker_defaults::PATTERN.to_string(), FROM_DEFAULT),
        };
        let (scan, scan_from) = pick(m.scan, &marker_defaults::SCAN);
        let (extensions, ext_from) = pick(m.extensions, &marker_defaults::EXTENSIONS);
        let (exclude, exclude_from) = pick(m.exclude, &marker_defaults::EXCLUDE);
        // The policy's pattern is compiled now, so that one that is not a
        // regular expression makes the reading unread whatever the files hold.
        let word_in_every_match = pattern_text == marker_defaults::PATTERN;
        let pattern = OnceLock::new();
        if !word_in_every_match {
            let compiled = Regex::new(&pattern_text).map_err(|e| {
                Unread::policy(format!("the marker pattern {pattern_text:?} is not a regular expression: {e}"))
            })?;
            let _ = pattern.set(compiled);
        }
        let excluded = if exclude.iter().map(String::as_str).eq(marker_defaults::EXCLUDE) {
            Excluded::Default
        } else {
            let mut builder = GlobSetBuilder::new();
            for g in &exclude {
                let glob = Glob::new(g)
                    .map_err(|e| Unread::policy(format!("the marker exclusion {g:?} is not a glob: {e}")))?;
                builder.add(glob);
            }
            Excluded::Globs(
                builder.build().map_err(|e| Unread::policy(format!("the marker exclusions cannot be used: {e}")))?,
            )
        };
        Ok(Self {
            word: marker_word(&pattern_text),
            word_in_every_match,
            pattern,
            pattern_text,
            scan: scan.iter().map(|s| s.trim_matches('/').to_string()).collect(),
            extensions: extensions.iter().map(|e| e.trim_start_matches('.').to_string()).collect(),
            exclude,
            excluded,
            decided: Decided { pattern: pattern_from, scan: scan_from, extensions: ext_from, exclude: exclude_from },
        })
    }

    /// Whether the register scans this repository-relative path.
    pub fn scans(&self, path: &str) -> bool {
        if is_own_state(path) {
            return false;
        }
        let in_dir = self.scan.iter().any(|d| {
            d.is_empty() || d == "." || path.strip_prefix(d.as_str()).is_some_and(|rest| rest.starts_with('/'))
        });
        let ext = Path::new(path).extension().and_then(|e| e.to_str());
        in_dir && ext.is_some_and(|e| self.extensions.iter().any(|x| x == e)) && !self.excluded.is_match(path)
    }

    /// The markers in one text, in order, each with its 1-based line.
    pub fn find(&self, text: &str) -> Vec<(usize, String, Option<IssueRef>)> {
        let mut out = Vec::new();
        for (i, line) in text.lines().enumerate() {
            out.extend(self.find_in_line(line).into_iter().map(|(t, issue)| (i + 1, t, issue)));
        }
        out
    }

    /// The compiled pattern (the default one compiled at its first use).
    fn pattern(&self) -> &Regex {
        self.pattern.get_or_init(|| Regex::new(&self.pattern_text).expect("the default marker pattern compiles"))
    }

    fn find_in_line(&self, line: &str) -> Vec<(String, Option<IssueRef>)> {
        if self.word_in_every_match && self.word.as_ref().is_some_and(|w| !line.contains(w.as_str())) {
            return Vec::new();
        }
        let mut found = Vec::new();
        let mut covered = Vec::new();
        for caps in self.pattern().captures_iter(line) {
            let Some(whole) = caps.get(0) else { continue };
            covered.push(whole.range());
            found.push((whole.start(), whole.as_str().to_string(), self.issue_of(&caps)));
        }
        if let Some(word) = &self.word {
            for (start, w) in line.match_indices(word.as_str()) {
                if covered.iter().any(|r| r.contains(&start)) {
                    continue;
                }
                let rest = &line[start + w.len()..];
                // Up to its parenthesis, else its first 40 characters: a
                // byte count can fall inside a character (the word, then
                // `à corriger` and no parenthesis), which panicked every
                // check (test/cases/560).
                let close = rest
                    .find(')')
                    .map_or_else(|| rest.char_indices().nth(40).map_or(rest.len(), |(i, _)| i), |i| i + 1);
                found.push((start, format!("{w}{}", &rest[..close]), None));
            }
        }
        found.sort_by_key(|(at, _, _)| *at);
        found.into_iter().map(|(_, t, i)| (t, i)).collect()
    }

    fn issue_of(&self, caps: &regex::Captures<'_>) -> Option<IssueRef> {
        let groups = self.pattern().captures_len() - 1;
        let has_name = |n: &str| self.pattern().capture_names().any(|c| c == Some(n));
        let number = if has_name("number") {
            caps.name("number")
        } else if groups >= 2 {
            caps.get(2)
        } else {
            caps.get(1)
        };
        let repo = if has_name("repo") {
            caps.name("repo")
        } else if groups >= 2 {
            caps.get(1)
        } else {
            None
        };
        let number: u64 = number?.as_str().parse().ok().filter(|n| *n > 0)?;
        // A repository written `owner/name` is that repository; a bare word
        // (the register's own name) is this one.
        let repo = repo.map(|r| r.as_str()).filter(|r| is_repository(r)).map(str::to_string);
        Some(IssueRef { repo, number })
    }

    /// Every file the register scans now: tracked files (from the index)
    /// and untracked, non-ignored ones, that exist in the working tree.
    pub fn files(&self, repo: &Repo, untracked: &[RepoPath]) -> Reading<Vec<RepoPath>> {
        let index = repo.git.index().map_err(|e| Unread::git("the index", &e))?;
        let mut out = BTreeSet::new();
        for entry in index.iter() {
            let path = RepoPath::from_bytes(entry.path);
            let regular = |p: std::path::PathBuf| std::fs::symlink_metadata(p).is_ok_and(|m| m.is_file());
            if self.scans_path(&path) && crate::file::in_tree(repo.root(), &path).is_some_and(regular) {
                out.insert(path);
            }
        }
        out.extend(untracked.iter().filter(|p| self.scans_path(p)).cloned());
        Ok(out.into_iter().collect())
    }

    /// [`Register::scans`] for a path as bytes (one that is not UTF-8 is
    /// judged by its name with those bytes replaced).
    pub fn scans_path(&self, path: &RepoPath) -> bool {
        self.scans(&String::from_utf8_lossy(path.as_bytes()))
    }

    /// The markers in these files as they are in the working tree now.
    pub fn markers_in(&self, repo: &Repo, files: &[RepoPath]) -> Reading<Vec<Marker>> {
        let mut out = Vec::new();
        for path in files {
            let Some(full) = crate::file::in_tree(repo.root(), path) else { continue };
            let Some(text) = read_text(&full)? else { continue };
            out.extend(self.find(&text).into_iter().map(|(line, text, issue)| Marker {
                path: path.to_string(),
                line,
                text,
                issue,
                in_head_only: false,
                landed: None,
            }));
        }
        Ok(out)
    }

    /// Of `markers` (found in the working tree), those HEAD's commit (`head`;
    /// `None`: unborn, so none) holds too: the same marker in its blob at
    /// the same path, as many times over. A file no commit holds (left
    /// untracked), or a line a clean filter kept out of the blob `git add`
    /// stored (`git status` clean), is in no clone: it registers no
    /// limitation (test/cases/566). Each path's blob is read once, and only
    /// where a marker was found.
    pub fn held_by_head(&self, repo: &Repo, head: Option<&str>, markers: Vec<Marker>) -> Reading<Vec<Marker>> {
        let Some(head) = head else { return Ok(Vec::new()) };
        if markers.is_empty() {
            return Ok(markers);
        }
        let oid = git2::Oid::from_str(head).map_err(|e| Unread::git(&format!("commit id {head}"), &e))?;
        let tree = repo
            .git
            .find_commit(oid)
            .and_then(|c| c.tree())
            .map_err(|e| Unread::git(&format!("the tree of HEAD's {head}"), &e))?;
        let mut held: HashMap<String, HashMap<String, usize>> = HashMap::new();
        let mut out = Vec::new();
        for m in markers {
            if !held.contains_key(&m.path) {
                let mut found: HashMap<String, usize> = HashMap::new();
                let entry = tree.get_path(Path::new(&m.path)).ok();
                if let Some(e) = entry.filter(|e| e.kind() == Some(git2::ObjectType::Blob) && e.filemode() != 0o120000)
                {
                    let blob = repo
                        .git
                        .find_blob(e.id())
                        .map_err(|err| Unread::git(&format!("{} in HEAD's commit", m.path), &err))?;
                    for (_, text, _) in self.find(&decode(blob.content())) {
                        *found.entry(text).or_default() += 1;
                    }
                }
                held.insert(m.path.clone(), found);
            }
            if let Some(n) = held.get_mut(&m.path).and_then(|f| f.get_mut(&m.text)).filter(|n| **n > 0) {
                *n -= 1;
                out.push(m);
            }
        }
        Ok(out)
    }

    /// The markers on lines added since `start` (`None`: HEAD was unborn, so
    /// every line is added) in the changed files the register scans, as the
    /// working tree holds them and as HEAD's commit (`head`) holds them.
    ///
    /// A clean filter given to one `git add` stores a blob other than the
    /// file, and the index keeps the file's stat data, so `git status` is
    /// clean while the commit holds a marker the file does not
    /// (test/cases/461). So where HEAD's blob at a changed path is not the
    /// file's content (told by ids: nothing more is read where it is), the
    /// lines HEAD's blob adds past the start's and past the file's added
    /// lines are read for markers too, each `in_head_only`.
    pub fn added_since(
        &self,
        repo: &Repo,
        start: Option<&str>,
        head: Option<&str>,
        changed: &[RepoPath],
    ) -> Reading<Vec<Marker>> {
        let tree_of = |id: &str| -> Reading<git2::Tree<'_>> {
            let oid = git2::Oid::from_str(id).map_err(|e| Unread::git(&format!("commit id {id}"), &e))?;
            let commit = repo.git.find_commit(oid).map_err(|_| Unread::start_commit_missing(id))?;
            commit.tree().map_err(|e| Unread::git(&format!("the tree of {id}"), &e))
        };
        let start_tree = start.map(tree_of).transpose()?;
        // Read only once a scanned path changed, and only where it is not the start.
        let head_tree = match head.filter(|h| Some(*h) != start) {
            Some(h) if changed.iter().any(|p| self.scans_path(p)) => Some(tree_of(h)?),
            _ => None,
        };
        let blob_at = |tree: Option<&git2::Tree<'_>>, path: &RepoPath, what: &str| -> Reading<Option<Vec<u8>>> {
            let Some(entry) = tree.and_then(|t| t.get_path(&path.under(Path::new(""))).ok()) else { return Ok(None) };
            // A link's blob is its target's name, which holds no marker.
            if entry.kind() != Some(git2::ObjectType::Blob) || entry.filemode() == 0o120000 {
                return Ok(None);
            }
            let blob = repo.git.find_blob(entry.id()).map_err(|e| Unread::git(&format!("{path} {what}"), &e))?;
            Ok(Some(blob.content().to_vec()))
        };
        // Each marker found on an added line, with that line.
        let mut out: Vec<(Marker, String)> = Vec::new();
        // The marker lines the change took out of a path (the space around
        // them aside): a line moved, not written (below).
        let mut taken_out: HashMap<String, usize> = HashMap::new();
        for path in changed.iter().filter(|p| self.scans_path(p)) {
            let raw = match crate::file::in_tree(repo.root(), path) {
                Some(full) => read_raw(&full)?,
                None => None,
            };
            // The start's lines, each as many times as the file held it: a
            // second copy of a marker line is a marker added (test/cases/438).
            // Decoded as the file and HEAD's blob are: a file saved as UTF-16
            // read as UTF-8 at the start only made every line of it added,
            // its markers from before the task too (test/cases/561).
            let mut then: HashMap<String, usize> = HashMap::new();
            if let Some(bytes) = blob_at(start_tree.as_ref(), path, "at the start commit")? {
                for line in decode(&bytes).lines() {
                    *then.entry(line.to_string()).or_default() += 1;
                }
            }
            let file_id = raw.as_deref().map(crate::baselines::blob_id);
            let added_in = |text: &str, then: &mut HashMap<String, usize>| -> Vec<(usize, String)> {
                let mut added = Vec::new();
                for (i, line) in text.lines().enumerate() {
                    match then.get_mut(line).filter(|n| **n > 0) {
                        Some(n) => *n -= 1,
                        None => added.push((i + 1, line.to_string())),
                    }
                }
                added
            };
            let mut added_now: HashMap<String, usize> = HashMap::new();
            let text_now = raw.as_deref().map(decode);
            if let Some(text_now) = &text_now {
                for (line, text) in added_in(text_now, &mut then.clone()) {
                    for (found, issue) in self.find_in_line(&text) {
                        let marker = Marker {
                            path: path.to_string(),
                            line,
                            text: found,
                            issue,
                            in_head_only: false,
                            landed: None,
                        };
                        out.push((marker, text.clone()));
                    }
                    *added_now.entry(text).or_default() += 1;
                }
            }
            let in_head = match head_tree.as_ref().and_then(|t| t.get_path(&path.under(Path::new(""))).ok()) {
                Some(entry) if Some(entry.id()) != file_id => blob_at(head_tree.as_ref(), path, "in HEAD's commit")?,
                _ => None,
            };
            let text_in_head = in_head.as_deref().map(decode);
            // The start's marker lines this path holds fewer copies of, in
            // the working tree and in HEAD's commit alike (a line taken out
            // of the file alone, or of the commit alone, is still there).
            let markers_then: Vec<&String> = then.keys().filter(|l| !self.find_in_line(l).is_empty()).collect();
            if !markers_then.is_empty() {
                let (in_file, in_commit) = (copies(text_now.as_deref()), copies(text_in_head.as_deref()));
                for line in markers_then {
                    let kept = in_file.get(line.as_str()).copied().unwrap_or(0);
                    // HEAD's commit is read only where its blob is not the file's.
                    let kept = match &text_in_head {
                        Some(_) => kept.max(in_commit.get(line.as_str()).copied().unwrap_or(0)),
                        None => kept,
                    };
                    let gone = then[line].saturating_sub(kept);
                    if gone > 0 {
                        *taken_out.entry(line.trim().to_string()).or_default() += gone;
                    }
                }
            }
            let Some(text_in_head) = text_in_head else { continue };
            for (line, text) in added_in(&text_in_head, &mut then) {
                // A line the file added as well is read there already.
                if let Some(n) = added_now.get_mut(&text).filter(|n| **n > 0) {
                    *n -= 1;
                    continue;
                }
                for (found, issue) in self.find_in_line(&text) {
                    let marker =
                        Marker { path: path.to_string(), line, text: found, issue, in_head_only: true, landed: None };
                    out.push((marker, text.clone()));
                }
            }
        }
        // A marker line the change took out of one path and added to
        // another, the space around it aside, was moved, not written (`git
        // mv` of a file holding an old marker, a function carried with its
        // marker into another file: test/cases/643): each copy taken out
        // stands for one copy added, as a test moved is no test written.
        // A line's markers go together; a copy added past those taken out
        // is added.
        let mut moved: HashMap<(String, usize, bool), bool> = HashMap::new();
        let mut kept = Vec::with_capacity(out.len());
        for (marker, line) in out {
            let key = (marker.path.clone(), marker.line, marker.in_head_only);
            let is_moved =
                *moved.entry(key).or_insert_with(|| match taken_out.get_mut(line.trim()).filter(|n| **n > 0) {
                    Some(n) => {
                        *n -= 1;
                        true
                    }
                    None => false,
                });
            if !is_moved {
                kept.push(marker);
            }
        }
        Ok(kept)
    }
}

impl Register {
    /// Whether `commit` changed anything under a directory the register
    /// scans, against its first parent: a tree lookup per directory, the
    /// cheap test that spares [`Register::landed`] the rest (a commit that
    /// cannot be read is asked further, never passed over).
    pub fn touches(&self, commit: &git2::Commit<'_>) -> bool {
        let (Ok(now), Ok(then)) = (commit.tree(), commit.parent(0).and_then(|p| p.tree())) else { return true };
        now.id() != then.id()
            && self.scan.iter().any(|d| {
                let at = |t: &git2::Tree<'_>| t.get_path(Path::new(d)).ok().map(|e| e.id());
                d.is_empty() || d == "." || at(&now) != at(&then)
            })
    }

    /// The markers the task landed on the trunk around HEAD: a line holding
    /// a marker that one of `made` (commits made here since the start that
    /// HEAD does not reach; a merge past what each side held) added to a path the
    /// register scans, which the trunk's tip (`trunk`) holds at that path
    /// more often than the start commit (`start`) held it there and than
    /// the working tree's file holds it now (where the working tree holds
    /// it, [`Register::added_since`] reads it). Pushed to the trunk from a
    /// branch since deleted, HEAD left at the start, no file here ever
    /// shows it (test/cases/565). Each is named once, at its first line in
    /// the trunk's blob, with the commit that added it.
    pub fn landed(
        &self,
        repo: &Repo,
        start: Option<&str>,
        trunk: &str,
        made: &[git2::Commit<'_>],
    ) -> Reading<Vec<Marker>> {
        let git = &repo.git;
        let tree_of = |id: &str| -> Reading<git2::Tree<'_>> {
            let oid = git2::Oid::from_str(id).map_err(|e| Unread::git(&format!("commit id {id}"), &e))?;
            let commit = git.find_commit(oid).map_err(|e| Unread::git(&format!("the commit {id}"), &e))?;
            commit.tree().map_err(|e| Unread::git(&format!("the tree of {id}"), &e))
        };
        let trunk_tree = tree_of(trunk)?;
        let start_tree = start.map(tree_of).transpose()?;
        let text_at = |tree: Option<&git2::Tree<'_>>, path: &RepoPath| -> Reading<Option<String>> {
            let Some(entry) = tree.and_then(|t| t.get_path(&path.under(Path::new(""))).ok()) else { return Ok(None) };
            if entry.kind() != Some(git2::ObjectType::Blob) || entry.filemode() == 0o120000 {
                return Ok(None);
            }
            let blob = git.find_blob(entry.id()).map_err(|e| Unread::git(&format!("{path}"), &e))?;
            Ok(Some(decode(blob.content())))
        };
        let count = |text: Option<&str>, line: &str| text.map_or(0, |t| t.lines().filter(|l| *l == line).count());
        let mut out: Vec<Marker> = Vec::new();
        let mut named: BTreeSet<(String, String)> = BTreeSet::new();
        for commit in made {
            let id = commit.id().to_string();
            let read = |e: git2::Error| Unread::git(&format!("the commit {id}"), &e);
            let tree = commit.tree().map_err(read)?;
            let parents: Vec<git2::Tree<'_>> = commit.parents().filter_map(|p| p.tree().ok()).collect();
            for path in crate::trees::own_change(git, commit).map_err(read)? {
                if !self.scans_path(&path) {
                    continue;
                }
                let Some(after) = text_at(Some(&tree), &path)? else { continue };
                // A merge added a line only past the copies each side held
                // (a marker written into its resolution, test/cases/616).
                let mut sides = Vec::with_capacity(parents.len());
                for parent in &parents {
                    sides.push(text_at(Some(parent), &path)?);
                }
                let mut before: HashMap<&str, usize> = HashMap::new();
                for side in &sides {
                    let mut here: HashMap<&str, usize> = HashMap::new();
                    for line in side.as_deref().unwrap_or("").lines() {
                        *here.entry(line).or_default() += 1;
                    }
                    for (line, n) in here {
                        let held = before.entry(line).or_default();
                        *held = (*held).max(n);
                    }
                }
                let added: Vec<&str> = after
                    .lines()
                    .filter(|line| match before.get_mut(line).filter(|n| **n > 0) {
                        Some(n) => {
                            *n -= 1;
                            false
                        }
                        None => true,
                    })
                    .filter(|line| !self.find_in_line(line).is_empty())
                    .collect();
                if added.is_empty() {
                    continue;
                }
                let Some(on_trunk) = text_at(Some(&trunk_tree), &path)? else { continue };
                let then = text_at(start_tree.as_ref(), &path)?;
                let now = match crate::file::in_tree(repo.root(), &path) {
                    Some(full) => read_raw(&full)?.map(|b| decode(&b)),
                    None => None,
                };
                for line in added {
                    let held = count(then.as_deref(), line).max(count(now.as_deref(), line));
                    if count(Some(&on_trunk), line) <= held || !named.insert((path.to_string(), line.to_string())) {
                        continue;
                    }
                    let at = on_trunk.lines().position(|l| l == line).map_or(0, |i| i + 1);
                    for (found, issue) in self.find_in_line(line) {
                        out.push(Marker {
                            path: path.to_string(),
                            line: at,
                            text: found,
                            issue,
                            in_head_only: false,
                            landed: Some(id.clone()),
                        });
                    }
                }
            }
        }
        Ok(out)
    }
}

/// The marker word and its parenthesis (`LIMITATION(`) when the pattern
/// opens with a literal word followed by an escaped parenthesis.
fn marker_word(pattern: &str) -> Option<String> {
    let end = pattern.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
    let (word, rest) = pattern.split_at(end);
    if word.is_empty() || !rest.starts_with("\\(") {
        return None;
    }
    Some(format!("{word}("))
}

/// A file's text; `None` when it is gone, or not a regular file: a FIFO
/// is never waited on, and a symbolic link is what git stores it as, the
/// name of its target, which holds no marker (read through, one leading
/// outside the tree would name a limitation no clone holds: the file it
/// leads to inside the tree is read at its own path). Every regular file
/// is read: UTF-16 with its byte order mark decoded (as editors write it
/// and compilers read it), anything else as UTF-8, bytes that are not
/// replaced, NUL bytes and all (a NUL near the start no longer hides a
/// marker below it: test/cases/457).
fn read_text(path: &Path) -> Reading<Option<String>> {
    Ok(read_raw(path)?.map(|b| decode(&b)))
}

/// A file's bytes, as [`read_text`] reads them (`None`: gone, a link, or
/// not a regular file).
fn read_raw(path: &Path) -> Reading<Option<Vec<u8>>> {
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Ok(None);
    }
    match crate::file::read(path) {
        Ok(b) => Ok(Some(b)),
        Err(e) if e.is_not_found() => Ok(None),
        Err(crate::file::FileError::NotRegular { .. }) => Ok(None),
        Err(e) => Err(Unread::io(e.to_string())),
    }
}

/// A file's bytes as text: UTF-16 with its byte order mark decoded,
/// anything else as UTF-8, bytes that are not replaced.
/// How many copies of each line `text` holds (none where there is none).
fn copies(text: Option<&str>) -> HashMap<&str, usize> {
    let mut n: HashMap<&str, usize> = HashMap::new();
    for line in text.map(str::lines).into_iter().flatten() {
        *n.entry(line).or_default() += 1;
    }
    n
}

fn decode(bytes: &[u8]) -> String {
    let utf16 = |rest: &[u8], unit: fn([u8; 2]) -> u16| {
        let units: Vec<u16> = rest.chunks_exact(2).map(|c| unit([c[0], c[1]])).collect();
        String::from_utf16_lossy(&units)
    };
    match bytes {
        [0xFF, 0xFE, rest @ ..] => utf16(rest, u16::from_le_bytes),
        [0xFE, 0xFF, rest @ ..] => utf16(rest, u16::from_be_bytes),
        _ => String::from_utf8_lossy(bytes).into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use majordomus_testkit::TestRepo;

    #[test]
    fn the_default_exclusions_match_as_their_compiled_globs_do() {
        let mut builder = GlobSetBuilder::new();
        for g in marker_defaults::EXCLUDE {
            builder.add(Glob::new(g).expect("glob"));
        }
        let set = builder.build().expect("set");
        let words = [
            "",
            "src",
            "a",
            "test",
            "tests",
            "Test",
            "testdata",
            "bench",
            "benches",
            "example",
            "examples",
            "generated",
            "fixtures",
            "xtest",
            "test.rs",
            "tests.d",
            "x.generated.y",
            ".generated.",
            "generated.rs",
            "a.generated",
            ".generated",
            "lib.rs",
            "fixture",
            "a b",
            "é",
        ];
        let mut paths = vec![String::new()];
        for _ in 0..3 {
            let longer: Vec<String> = paths
                .iter()
                .flat_map(|p| words.iter().map(move |w| if p.is_empty() { w.to_string() } else { format!("{p}/{w}") }))
                .collect();
            paths.extend(longer);
        }
        paths.extend(["/test/x", "test/", "a//test/b", "a/test", "tests/", "x.generated./y"].map(String::from));
        let register = Register::from_policy(None).expect("register");
        for path in &paths {
            assert_eq!(register.excluded.is_match(path), set.is_match(path), "{path:?}");
        }
        assert!(matches!(register.excluded, Excluded::Default));
    }

    /// The marker word, spelled so this file never holds a marker itself.
    fn word() -> String {
        ["LIMIT", "ATION"].concat()
    }

    fn marker(rest: &str) -> String {
        format!("{}({rest})", word())
    }

    fn default_register() -> Register {
        Register::from_policy(None).expect("the defaults are a register")
    }

    #[test]
    fn the_default_register_scans_source_trees_and_not_tests_benches_or_examples() {
        let r = default_register();
        for p in ["src/lib.rs", "crates/a/src/x.rs", "apps/cli/run.sh", "src/tool.py"] {
            assert!(r.scans(p), "{p}");
        }
        for p in [
            "tests/it.rs",
            "crates/a/tests/x.rs",
            "crates/a/benches/b.rs",
            "src/examples/e.rs",
            "README.md",
            "docs/x.rs",
            "src/notes.md",
            ".ai/local/x.rs",
        ] {
            assert!(!r.scans(p), "{p}");
        }
        assert_eq!(r.decided.scan, "the default");
    }

    #[test]
    fn the_policy_decides_each_part_it_names_and_the_defaults_the_rest() {
        let m = Markers { scan: Some(vec![".".into()]), extensions: Some(vec!["md".into()]), ..Markers::default() };
        let r = Register::from_policy(Some(&m)).expect("register");
        assert!(r.scans("docs/x.md"));
        assert!(!r.scans("src/lib.rs"));
        assert!(!r.scans("tests/x.md"), "the default exclusions still hold");
        assert_eq!(r.decided.scan, "the policy's [markers]");
        assert_eq!(r.decided.exclude, "the default");
    }

    #[test]
    fn the_default_pattern_is_compiled_only_for_a_line_holding_the_marker_word() {
        let r = default_register();
        assert!(r.find("fn main() {}\n// a limitation, in words\n").is_empty());
        assert!(r.pattern.get().is_none(), "no line held the word: nothing compiled");
        assert_eq!(r.find(&format!("x\n// {}\n", marker("#7"))).len(), 1);
        assert!(r.pattern.get().is_some());
        // A pattern from the policy may match without the word: always compiled.
        let m = Markers { pattern: Some(format!("{}\\(#(\\d+)\\)|TODO", word())), ..Markers::default() };
        let r = Register::from_policy(Some(&m)).expect("register");
        assert!(r.pattern.get().is_some());
        assert_eq!(r.find("// TODO\n").len(), 1);
    }

    #[test]
    fn a_marker_word_without_its_parenthesis_is_quoted_by_characters_not_bytes() {
        let r = default_register();
        let line = format!("// {}(x{}", word(), "é".repeat(40));
        let found = r.find(&line);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].1, format!("{}(x{}", word(), "é".repeat(39)));
        assert!(found[0].2.is_none());
        let short = format!("// {}(à corriger", word());
        assert_eq!(r.find(&short)[0].1, format!("{}(à corriger", word()));
    }

    #[test]
    fn a_marker_names_this_repositorys_issue_or_another_repositorys() {
        let r = default_register();
        let text = format!(
            "fn a() {{}} // {}\n// {} and {}\nlet x = 1;\n// {}\n",
            marker("#12"),
            marker("acme/tools#7"),
            marker("registre#3"),
            marker("see the parser")
        );
        let found = r.find(&text);
        let issues: Vec<_> = found.iter().map(|(l, _, i)| (*l, i.as_ref().map(ToString::to_string))).collect();
        assert_eq!(
            issues,
            [(1, Some("#12".into())), (2, Some("acme/tools#7".into())), (2, Some("#3".into())), (4, None)]
        );
        assert_eq!(found[3].1, marker("see the parser"));
    }

    #[test]
    fn only_markers_on_lines_added_since_the_start_are_read_committed_or_not() {
        let t = TestRepo::with_commit();
        t.write("src/lib.rs", &format!("// {}\nfn old() {{}}\n", marker("#1")));
        let start = t.commit_all("old marker");
        t.write("src/lib.rs", &format!("// {}\nfn old() {{}}\n// {}\n", marker("#1"), marker("#2")));
        t.commit_all("committed marker");
        t.write("src/new.rs", &format!("// {}\n", marker("no number")));
        t.write("tests/it.rs", &format!("// {}\n", marker("#9")));
        let repo = crate::open(t.path()).expect("open");
        let changed: Vec<RepoPath> = ["src/lib.rs", "src/new.rs", "tests/it.rs"].map(RepoPath::from).to_vec();
        let added = default_register().added_since(&repo, Some(&start), None, &changed).expect("read");
        let seen: Vec<_> =
            added.iter().map(|m| (m.path.as_str(), m.line, m.issue.as_ref().map(|i| i.number))).collect();
        assert_eq!(seen, [("src/lib.rs", 3, Some(2)), ("src/new.rs", 1, None)]);
    }

    #[test]
    fn a_marker_heads_commit_holds_and_the_file_does_not_is_added_as_heads() {
        let t = TestRepo::with_commit();
        t.write("src/lib.rs", "fn old() {}\n");
        let start = t.commit_all("no marker");
        t.write("src/lib.rs", &format!("fn old() {{}}\n// {}\n// {}\n", marker("#2"), marker("#3")));
        let head = t.commit_all("two markers");
        // The file keeps one of them: the other is HEAD's alone.
        t.write("src/lib.rs", &format!("fn old() {{}}\n// {}\n", marker("#3")));
        let repo = crate::open(t.path()).expect("open");
        let changed = [RepoPath::from("src/lib.rs")];
        let added = default_register().added_since(&repo, Some(&start), Some(&head), &changed).expect("read");
        let seen: Vec<_> = added.iter().map(|m| (m.line, m.issue.as_ref().map(|i| i.number), m.in_head_only)).collect();
        assert_eq!(seen, [(2, Some(3), false), (2, Some(2), true)]);
        // The file as HEAD holds it: read once, from the file.
        t.write("src/lib.rs", &format!("fn old() {{}}\n// {}\n// {}\n", marker("#2"), marker("#3")));
        let added = default_register().added_since(&repo, Some(&start), Some(&head), &changed).expect("read");
        assert!(added.iter().all(|m| !m.in_head_only) && added.len() == 2, "{added:?}");
    }

    #[test]
    fn a_utf16_files_lines_at_the_start_are_decoded_as_its_lines_now() {
        let utf16 = |text: &str| -> Vec<u8> {
            let mut out = vec![0xFF, 0xFE];
            out.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
            out
        };
        let t = TestRepo::with_commit();
        let before = format!("export const a = 1;\n// {}\n", marker("see the notes"));
        std::fs::create_dir_all(t.path().join("src")).expect("src");
        std::fs::write(t.path().join("src/a.ts"), utf16(&before)).expect("write");
        let start = t.commit_all("a marker from before");
        let grown = format!("{before}// {}\nexport const b = 2;\n", marker("#4"));
        std::fs::write(t.path().join("src/a.ts"), utf16(&grown)).expect("write");
        let head = t.commit_all("grown");
        let repo = crate::open(t.path()).expect("open");
        let changed = [RepoPath::from("src/a.ts")];
        let added = default_register().added_since(&repo, Some(&start), Some(&head), &changed).expect("read");
        let seen: Vec<_> = added.iter().map(|m| (m.line, m.issue.as_ref().map(|i| i.number))).collect();
        assert_eq!(seen, [(3, Some(4))], "{added:?}");
    }

    #[test]
    fn a_marker_landed_is_one_a_commit_added_that_the_trunk_holds_past_the_start_and_the_file() {
        let t = TestRepo::with_commit();
        t.write("src/lib.rs", &format!("fn old() {{}}\n// {}\n", marker("#1")));
        let start = t.commit_all("start");
        t.git(&["checkout", "-q", "-b", "fix"]);
        t.write(
            "src/lib.rs",
            &format!("fn old() {{}}\n// {}\n// {}\n// {}\n", marker("#1"), marker("#1"), marker("#2")),
        );
        t.write("docs/x.rs", &format!("// {}\n", marker("#3")));
        let fix = t.commit_all("markers");
        t.write("src/lib.rs", &format!("fn old() {{}}\n// {}\n// {}\n", marker("#1"), marker("#1")));
        let trunk = t.commit_all("#2 taken out on the trunk");
        t.git(&["checkout", "-q", "main"]);
        let repo = crate::open(t.path()).expect("open");
        let made = [repo.git.find_commit(git2::Oid::from_str(&fix).expect("id")).expect("commit")];
        let register = default_register();
        assert!(register.touches(&made[0]));
        let landed = register.landed(&repo, Some(&start), &trunk, &made).expect("read");
        // The second copy of #1 the trunk holds; #2 it no longer does; docs/ is not scanned.
        let seen: Vec<_> =
            landed.iter().map(|m| (m.path.as_str(), m.line, m.issue.as_ref().map(|i| i.number))).collect();
        assert_eq!(seen, [("src/lib.rs", 2, Some(1))]);
        assert_eq!(landed[0].landed.as_deref(), Some(fix.as_str()));
        // The working tree holding both copies now: read there, not here.
        t.write("src/lib.rs", &format!("fn old() {{}}\n// {}\n// {}\n", marker("#1"), marker("#1")));
        assert!(register.landed(&repo, Some(&start), &trunk, &made).expect("read").is_empty());
    }

    #[test]
    fn a_marker_registers_only_as_many_times_as_heads_commit_holds_it() {
        let t = TestRepo::with_commit();
        t.write("src/lib.rs", &format!("// {}\n", marker("#1")));
        let head = t.commit_all("one marker");
        t.write("src/lib.rs", &format!("// {}\n// {}\n// {}\n", marker("#1"), marker("#1"), marker("#2")));
        t.write("src/new.rs", &format!("// {}\n", marker("#3")));
        let repo = crate::open(t.path()).expect("open");
        let r = default_register();
        let files = [RepoPath::from("src/lib.rs"), RepoPath::from("src/new.rs")];
        let now = r.markers_in(&repo, &files).expect("read");
        assert_eq!(now.len(), 4);
        let held = r.held_by_head(&repo, Some(&head), now.clone()).expect("read");
        let seen: Vec<_> = held.iter().map(|m| (m.path.as_str(), m.line)).collect();
        assert_eq!(seen, [("src/lib.rs", 1)]);
        assert!(r.held_by_head(&repo, None, now).expect("read").is_empty(), "an unborn HEAD holds none");
    }

    #[test]
    fn a_changed_path_that_is_now_a_fifo_has_no_markers_and_is_never_waited_on() {
        let t = TestRepo::with_commit();
        t.write("src/lib.rs", &format!("// {}\n", marker("#1")));
        let start = t.commit_all("a marker");
        t.remove("src/lib.rs");
        let pipe = t.path().join("src/lib.rs");
        rustix::fs::mknodat(rustix::fs::CWD, &pipe, rustix::fs::FileType::Fifo, rustix::fs::Mode::RUSR, 0)
            .expect("mkfifo");
        let root = t.path().to_path_buf();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let repo = crate::open(&root).expect("open");
            tx.send(
                default_register()
                    .added_since(&repo, Some(&start), None, &[RepoPath::from("src/lib.rs")])
                    .expect("read"),
            )
        });
        let added = rx.recv_timeout(std::time::Duration::from_secs(10)).expect("the reading blocked on the FIFO");
        assert!(added.is_empty(), "{added:?}");
    }

    #[test]
    fn the_files_scanned_are_tracked_or_untracked_and_never_ignored() {
        let t = TestRepo::with_commit();
        t.write(".gitignore", "src/ignored.rs\n");
        t.write("src/a.rs", "a\n");
        t.commit_all("a");
        t.write("src/ignored.rs", "x\n");
        t.write("src/b.rs", "b\n");
        let repo = crate::open(t.path()).expect("open");
        let tree = crate::status::read(&repo).expect("status");
        let files = default_register().files(&repo, &tree.untracked).expect("files");
        assert_eq!(files, ["src/a.rs", "src/b.rs"]);
    }

    #[test]
    fn a_pattern_with_named_groups_reads_its_issue_from_them() {
        let m =
            Markers { pattern: Some(r"GAP\[(?P<number>\d+)@(?P<repo>[\w-]+/[\w-]+)\]".into()), ..Markers::default() };
        let r = Register::from_policy(Some(&m)).expect("register");
        let found = r.find("// GAP[5@acme/tools] and GAP(x)\n");
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].2, Some(IssueRef { repo: Some("acme/tools".into()), number: 5 }));
    }
}
