//! Taking the verification readings: which declared gates the change selects, what
//! their inputs hold now, and the runs the ledger recorded of them.
//!
//! A gate's verdict is a fact majordomus made itself (`majordomus gate run`
//! runs the command and appends the run to the ledger); there is no way to
//! record one by typing an exit code. These readings only gather: which gate
//! the change since the start selects and why, the hash of its inputs now,
//! its latest run and its latest run over exactly these inputs. Whether that
//! is green is `judge.rs`'s to say.
//!
//! Only the selected gates are hashed, and a gate the change does not
//! select only where the task recorded a failing run of it: a failure over
//! exactly the inputs as they are now is a fact about the tree the task
//! hands over, selected or not (`GateReading::known_failing`). `check`
//! stays fast when the change touches nothing a gate covers and the task
//! saw no gate fail.

use std::collections::{BTreeMap, BTreeSet};

use majordomus_readings::changes::ChangeSet;
use majordomus_readings::inputs::{self, Matcher};
use majordomus_readings::status::WorkingTree;
use majordomus_readings::{Reading, Repo, Unread};
use majordomus_records::ledger::{self, Entry, Environment, Event};
use majordomus_records::policy::{Gate, Policy};
use majordomus_records::task::{error_chain, TaskState};
use majordomus_records::{RepoPath, StatePaths};

use super::copied::{Copies, Copy};
use super::moved::TakenOut;
use super::test_code::changed::{self as test_code, TestCode};
use super::test_code::disabled::Dialect;
use super::test_path::TestRules;
use super::NotNew;
use super::VerificationReadings;
use crate::readings::task_reading;

/// The declared gates, in the policy's order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GateSet {
    /// How many paths changed since the start.
    pub changed: usize,
    pub gates: Vec<GateReading>,
}

impl GateSet {
    pub fn get(&self, id: &str) -> Option<&GateReading> {
        self.gates.iter().find(|g| g.id == id)
    }
}

/// One declared gate, as the change and the ledger see it.
#[derive(Debug, Clone, PartialEq)]
pub struct GateReading {
    pub id: String,
    /// Its command, as declared.
    pub run: String,
    pub required: bool,
    pub always: bool,
    /// Its input globs, as declared.
    pub inputs: Vec<String>,
    /// The paths changed since the start that match its inputs.
    pub matched: Vec<String>,
    /// For a selected gate: its inputs now and its recorded runs. For a
    /// gate the change does not select, the same only where its latest run
    /// over exactly the inputs now failed and the task recorded a failing
    /// run of it; else `None` (it was not hashed, or it holds no failure).
    pub runs: Option<Reading<GateRuns>>,
}

impl GateReading {
    /// Selected: marked always, or a changed path matches its inputs.
    pub fn selected(&self) -> bool {
        self.always || !self.matched.is_empty()
    }

    /// Not selected, but its latest run over exactly the inputs as they
    /// are now failed (or timed out), a run the task recorded: the tree it
    /// hands over is known to fail it, whatever the change selects.
    pub fn known_failing(&self) -> bool {
        !self.selected() && matches!(&self.runs, Some(Ok(GateRuns { current: Some(run), .. })) if !run.passed())
    }
}

/// A selected gate's inputs now and what the ledger holds of it.
#[derive(Debug, Clone, PartialEq)]
pub struct GateRuns {
    /// The hash of its inputs now.
    pub inputs_now: String,
    /// How many files its inputs hold now.
    pub files: usize,
    /// Its latest run, over whatever inputs.
    pub latest: Option<RecordedRun>,
    /// Its latest run whose inputs hash equals the inputs now, whoever ran it.
    pub current: Option<RecordedRun>,
    /// Its inputs changed since the start that a sparse checkout leaves out
    /// of the working tree: no run here saw them (test/cases/300).
    pub unseen: Vec<String>,
    /// Its inputs whose executable bit on disk is not the mode git records,
    /// where `core.fileMode` is false: a run here is not a run of the
    /// committed files (test/cases/471).
    pub off_record: Vec<inputs::OffRecord>,
    /// Where no run is over the inputs now: its inputs changed since the
    /// start that git reads clean though their content on disk is not the
    /// blob it records (a clean filter given to one `git add`): a run here
    /// is over content the commit does not hold (test/cases/522).
    pub off_index: Vec<inputs::OffIndex>,
    /// Its inputs the start commit tracked that the index no longer holds
    /// but the disk does, ignored now: a run here read them, the commit
    /// does not hold them (test/cases/523).
    pub left: Vec<String>,
}

/// One gate run, as the ledger recorded it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RecordedRun {
    /// RFC 3339.
    pub at: String,
    /// The task that ran it, if one was active.
    pub task: Option<String>,
    pub exit: i32,
    pub timed_out: bool,
    pub duration_ms: u64,
    pub commit: Option<String>,
    pub inputs_hash: String,
    /// The environment that chose its programs; `None` for a run an older
    /// majordomus recorded without it.
    pub environment: Option<Environment>,
}

impl RecordedRun {
    pub fn passed(&self) -> bool {
        self.exit == 0 && !self.timed_out
    }
}

/// The runs of every gate in the ledger, oldest first.
pub fn recorded_runs(entries: &[Entry]) -> Vec<(String, RecordedRun)> {
    entries
        .iter()
        .filter_map(|e| match &e.event {
            Event::GateRun { gate, exit, duration_ms, commit, inputs_hash, timed_out, environment } => Some((
                gate.clone(),
                RecordedRun {
                    at: e.at.clone(),
                    task: e.task.clone(),
                    exit: *exit,
                    timed_out: *timed_out,
                    duration_ms: *duration_ms,
                    commit: commit.clone(),
                    inputs_hash: inputs_hash.clone(),
                    environment: environment.clone(),
                },
            )),
            _ => None,
        })
        .collect()
}

/// A gate's latest run and its latest run over `inputs_now`, from every run recorded.
pub fn runs_of(runs: &[(String, RecordedRun)], gate: &str, inputs_now: &str, files: usize) -> GateRuns {
    let mine: Vec<&RecordedRun> = runs.iter().filter(|(g, _)| g == gate).map(|(_, r)| r).collect();
    GateRuns {
        inputs_now: inputs_now.to_string(),
        files,
        latest: mine.last().map(|r| (*r).clone()),
        current: mine.iter().rev().find(|r| r.inputs_hash == inputs_now).map(|r| (*r).clone()),
        unseen: Vec::new(),
        off_record: Vec::new(),
        off_index: Vec::new(),
        left: Vec::new(),
    }
}

/// The changed paths that match a gate's inputs. A submodule's path
/// (one of `gitlinks`) matches where the inputs reach beneath it
/// (`lib/**`): its commit stands for the files there (test/cases/287).
pub fn matched(gate: &Gate, changes: &ChangeSet, gitlinks: &BTreeSet<String>) -> Reading<Vec<String>> {
    let m = matcher(gate)?;
    Ok(changes
        .changed
        .iter()
        .map(ToString::to_string)
        .filter(|p| m.is_match(p) || (gitlinks.contains(p) && m.may_match_beneath(p)))
        .collect())
}

/// The index's gitlink paths (its submodules), as [`RepoPath`] shows them.
pub fn gitlinks(repo: &Repo) -> BTreeSet<String> {
    match repo.index_file() {
        Ok(index) => index
            .entries
            .iter()
            .filter(|e| e.mode == 0o160000)
            .map(|e| RepoPath::from_bytes(e.path(&index.paths).to_vec()).to_string())
            .collect(),
        Err(_) => BTreeSet::new(),
    }
}

pub fn matcher(gate: &Gate) -> Reading<Matcher> {
    Matcher::new(&gate.inputs).map_err(|e| Unread::policy(format!("the gate's inputs are not globs: {e}")))
}

/// The hash of a gate's inputs now, over a status pass just taken;
/// `reach` says how far beyond the index and that pass it reads.
pub fn inputs_now(repo: &Repo, tree: &WorkingTree, gate: &Gate, reach: inputs::Reach<'_>) -> Reading<inputs::Inputs> {
    inputs::hash(repo, tree, &matcher(gate)?, &gate.run, reach)
}

/// Reads every gate run the ledger holds.
pub fn read_runs(paths: &StatePaths) -> Reading<Vec<(String, RecordedRun)>> {
    ledger::read_here(paths).map(|e| recorded_runs(&e)).map_err(|e| Unread::record(error_chain(&e)))
}

/// A fresh status pass and the change set since the task's start, for the
/// commands that select gates outside `check` (`gate run --all`, `gate list`).
pub fn change_set(repo: &Repo, task: &TaskState) -> (Reading<WorkingTree>, Reading<ChangeSet>) {
    let tree = crate::measure::working_tree(repo, task);
    let changes = match (task_reading(task), &tree) {
        (Err(e), _) => Err(e),
        (_, Err(e)) => Err(e.clone()),
        (Ok(record), Ok(t)) => majordomus_readings::refs::head(repo).and_then(|h| {
            use majordomus_readings::refs;
            // What a fetch brought is set apart as `check` sets it apart.
            let arrival = match refs::evidence(repo, refs::Start::Snapshot(&record.snapshot)) {
                Ok(e) => refs::arrived(repo, record, h.commit.as_deref(), &e)?,
                Err(_) => None,
            };
            majordomus_readings::changes::since(
                repo,
                record.head.as_deref(),
                h.commit.as_deref(),
                t,
                &record.snapshot,
                arrival.as_ref(),
            )
        }),
    };
    (tree, changes)
}

/// Takes the verification readings over the change set and status pass
/// `check` already took.
pub fn measure(
    repo: &Repo,
    paths: &StatePaths,
    policy: &Policy,
    task: &TaskState,
    tree: &Reading<WorkingTree>,
    changes: &Reading<ChangeSet>,
) -> VerificationReadings {
    let rules = TestRules::of(policy.tests.as_ref());
    let gone = changes.as_ref().map_err(Clone::clone).map(|changes| gone(repo, changes, &rules));
    // The lines the change took out, read only on the first line a test
    // would count by, and shared: a copy a test path drew is not drawn
    // again by a test item.
    let start = task.record().and_then(|r| r.head.as_deref());
    let mut taken_out = changes.as_ref().ok().map(|c| TakenOut::new(repo, start, &c.changed));
    let not_new = match (changes, &gone, taken_out.as_mut()) {
        (Err(e), _, _) | (_, Err(e), _) => Err(e.clone()),
        (Ok(changes), Ok(gone), Some(out)) => not_new(repo, task, changes, gone, &rules, out),
        (Ok(_), Ok(_), None) => Ok(BTreeMap::new()),
    };
    let test_code = match (changes, &gone, &not_new, taken_out.as_mut()) {
        (Err(e), _, _, _) | (_, Err(e), _, _) | (_, _, Err(e), _) => Err(e.clone()),
        (Ok(changes), Ok(gone), Ok(not_new), Some(out)) => {
            test_code_read(repo, task, changes, gone, not_new, &rules, out)
        }
        (Ok(_), Ok(_), Ok(_), None) => Ok(None),
    };
    let (gone, test_rules) = (gone, rules);
    if policy.gates.is_empty() {
        return VerificationReadings { gates: Ok(GateSet::default()), gone, test_rules, test_code, not_new };
    }
    let gates = changes.as_ref().map_err(Clone::clone).and_then(|changes| {
        let mut set = GateSet { changed: changes.changed.len(), gates: Vec::new() };
        let gitlinks = gitlinks(repo);
        let mut runs: Option<Reading<Vec<(String, RecordedRun)>>> = None;
        let mut read = InputsRead::default();
        for (id, gate) in &policy.gates {
            let mut reading = GateReading {
                id: id.clone(),
                run: gate.run.clone(),
                required: gate.required,
                always: gate.always,
                inputs: gate.inputs.clone(),
                matched: matched(gate, changes, &gitlinks)?,
                runs: None,
            };
            if reading.selected() {
                let all = runs.get_or_insert_with(|| read_runs(paths));
                reading.runs = Some(measure_runs(repo, tree, gate, id, &reading.matched, all, &mut read));
            } else if task.record().is_some() {
                let all = runs.get_or_insert_with(|| read_runs(paths));
                reading.runs = failing_unselected(repo, task, tree, gate, id, all).map(Ok);
            }
            set.gates.push(reading);
        }
        Ok(set)
    });
    VerificationReadings { gates, gone, test_rules, test_code, not_new }
}

/// A gate the change does not select, known to fail: its runs, where the
/// task recorded a failing run of it and its latest run over exactly the
/// inputs as they are now failed. Hashed only where the task saw it fail
/// (else `None` at once); an unread ledger or inputs tell nothing here, as
/// the gate is not selected. `check` and `gate run --all` both ask this.
pub fn failing_unselected(
    repo: &Repo,
    task: &TaskState,
    tree: &Reading<WorkingTree>,
    gate: &Gate,
    id: &str,
    runs: &Reading<Vec<(String, RecordedRun)>>,
) -> Option<GateRuns> {
    let own = task.record().map(|r| r.id.as_str())?;
    let all = runs.as_ref().ok()?;
    if !all.iter().any(|(g, r)| g == id && !r.passed() && r.task.as_deref() == Some(own)) {
        return None;
    }
    let measured = measure_runs(repo, tree, gate, id, &[], runs, &mut InputsRead::default()).ok()?;
    measured.current.as_ref().is_some_and(|run| !run.passed()).then_some(measured)
}

/// The test paths changed since the start and still there that add or
/// edit no test, so are not counted: those whose content now is what a
/// test path held in the start commit, their own (`chmod +x` of a test, or
/// an edit undone) or one the change deleted (`git mv tests/a.rs
/// tests/b.rs`), given with that path (test/cases/350); and those, text,
/// holding no line (blank ones aside, each taken without the space around
/// it) that the start commit's content at their path did not
/// (`touch tests/.gitkeep`, a blank line, lines only taken out:
/// test/cases/405), or none but those the change took out of it or of
/// another path (`taken_out`: a test moved, re-indented or merged from
/// others, test/cases/524). Each such file is read once, only when a test
/// path changed. A test path that would count but is a copy of a file
/// outside a test path, or of a test the change did not touch, is named
/// with what it copies ([`Copies`]: test/cases/620, 623).
///
/// Where a fetch brought commits onto HEAD since the start, the newest of
/// them (`changes.arrived_tips`) stand beside the start: a test path
/// holding what one of them holds there is theirs, and a line one of them
/// holds there is no line the task added (a colleague's test pulled into
/// a file where the task added a blank line, or took its own test back
/// out: test/cases/519, 520). Their trees are read only then.
fn not_new(
    repo: &Repo,
    task: &TaskState,
    changes: &ChangeSet,
    gone: &[RepoPath],
    rules: &TestRules,
    taken_out: &mut TakenOut<'_>,
) -> Reading<BTreeMap<RepoPath, NotNew>> {
    use std::os::unix::ffi::OsStrExt;
    let mut out = BTreeMap::new();
    let tests: Vec<&RepoPath> = changes.changed.iter().filter(|p| rules.is_test(p) && !gone.contains(p)).collect();
    let Some(start) = task.record().and_then(|r| r.head.as_deref()).filter(|_| !tests.is_empty()) else {
        return Ok(out);
    };
    let Ok(tree) = git2::Oid::from_str(start).and_then(|o| repo.git.find_commit(o)).and_then(|c| c.tree()) else {
        return Ok(out);
    };
    let mut arrived = Vec::with_capacity(changes.arrived_tips.len());
    for id in &changes.arrived_tips {
        let tip = git2::Oid::from_str(id).and_then(|o| repo.git.find_commit(o)).and_then(|c| c.tree());
        arrived.push(tip.map_err(|e| Unread::git(&format!("the tree of {id}, which a fetch brought"), &e))?);
    }
    let blob_in = |tree: &git2::Tree<'_>, p: &RepoPath| {
        let entry = tree.get_path(std::path::Path::new(std::ffi::OsStr::from_bytes(p.as_bytes()))).ok()?;
        (entry.kind() == Some(git2::ObjectType::Blob)).then(|| entry.id())
    };
    let blob_at = |p: &RepoPath| blob_in(&tree, p);
    let content = |id: Option<git2::Oid>| match id.and_then(|id| repo.git.find_blob(id).ok()) {
        Some(blob) => blob.content().to_vec(),
        None => Vec::new(),
    };
    let mut copies = Copies::new(repo, Some(start), &changes.changed, rules);
    let was: Vec<(&RepoPath, git2::Oid)> =
        tests.iter().copied().chain(gone.iter()).filter_map(|p| Some((p, blob_at(p)?))).collect();
    for path in tests {
        let Some(full) = majordomus_readings::file::in_tree(repo.root(), path) else { continue };
        let (now, text) = match std::fs::symlink_metadata(&full) {
            // A link holds no test of its own: its blob is a path. It
            // stands for the file it leads to inside the working tree,
            // named as holding the content a path held at the start where
            // it does; one leading outside it, or nowhere, or to what is
            // no file, holds none a clone runs (test/cases/570). And it
            // writes no line: what the start did not hold there is the
            // target's, counted at the target's own path where that is a
            // test path, so a link to the fix's source, or to any file
            // that is no test path, adds none (test/cases/576).
            Ok(m) if m.file_type().is_symlink() => {
                let why = match linked_file(repo.root(), &full) {
                    Some((target, bytes)) => {
                        let id = git2::Oid::hash_object(git2::ObjectType::Blob, &bytes).ok();
                        match id.is_some() && id == blob_at(&target) {
                            true => NotNew::Holds(target),
                            false => NotNew::LinkTo(target),
                        }
                    }
                    None => NotNew::Link,
                };
                out.insert(path.clone(), why);
                continue;
            }
            // A directory: a submodule's gitlink (added, moved or bumped
            // under a test path) or a repository of its own. Its files
            // are that repository's, none a test file the task wrote here
            // (test/cases/575).
            Ok(m) if m.is_dir() => {
                out.insert(path.clone(), NotNew::NoFile);
                continue;
            }
            Ok(m) if m.is_file() => match majordomus_readings::file::read(&full) {
                Ok(bytes) => (git2::Oid::hash_object(git2::ObjectType::Blob, &bytes).ok(), Some(bytes)),
                // Too large to read whole: its id, hashed as it is read.
                Err(majordomus_readings::file::FileError::TooLarge { .. }) => {
                    (majordomus_readings::file::blob_id(&full).ok(), None)
                }
                Err(_) => (None, None),
            },
            _ => (None, None),
        };
        if let Some((from, _)) = now.and_then(|now| was.iter().find(|(_, b)| *b == now)) {
            out.insert(path.clone(), NotNew::Holds((*from).clone()));
            continue;
        }
        let theirs: Vec<Option<git2::Oid>> = arrived.iter().map(|t| blob_in(t, path)).collect();
        if now.is_some() && theirs.contains(&now) {
            out.insert(path.clone(), NotNew::Arrived);
            continue;
        }
        if let Some(now) = &text {
            // Compared as text: a byte order mark put before a test, or the
            // test saved as UTF-16, writes no line (test/cases/571).
            let now = as_text(now);
            let then: Vec<Vec<u8>> =
                std::iter::once(blob_at(path)).chain(theirs).map(|id| as_text(&content(id)).into_owned()).collect();
            let dialect = Dialect::of(path.to_str().unwrap_or_default());
            if let Some(why) = adds_no_line(&now, &then, dialect, &mut |line| taken_out.draw(line)) {
                out.insert(path.clone(), why);
                continue;
            }
        }
        // A test path that would count: a copy of a file outside a test
        // path, or of a test the change did not touch, writes no test
        // (test/cases/620, 623). Read only here.
        match copies.of(path, now, text.as_deref()) {
            Some(Copy::Source(from)) => drop(out.insert(path.clone(), NotNew::Copies(from))),
            Some(Copy::Test(from)) => drop(out.insert(path.clone(), NotNew::Holds(from))),
            None => {}
        }
    }
    Ok(out)
}

/// A file's bytes as the lines a test is read in: UTF-16 with its byte
/// order mark decoded to UTF-8 (as editors save it and compilers and
/// interpreters read it), a UTF-8 byte order mark taken off, anything else
/// as it is. Re-encoding a test, or an editor's mark put before it, writes
/// no line of test (test/cases/571).
pub(super) fn as_text(bytes: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    use std::borrow::Cow;
    let utf16 = |rest: &[u8], unit: fn([u8; 2]) -> u16| {
        let units: Vec<u16> = rest.chunks_exact(2).map(|c| unit([c[0], c[1]])).collect();
        Cow::Owned(String::from_utf16_lossy(&units).into_bytes())
    };
    match bytes {
        [0xFF, 0xFE, rest @ ..] => utf16(rest, u16::from_le_bytes),
        [0xFE, 0xFF, rest @ ..] => utf16(rest, u16::from_be_bytes),
        [0xEF, 0xBB, 0xBF, rest @ ..] => Cow::Borrowed(rest),
        _ => Cow::Borrowed(bytes),
    }
}

/// The file a symbolic link at `link` leads to, where it lies inside the
/// working tree at `root` and outside its `.git`: its repository path and
/// its content (up to the size a file is read whole). `None` for a link
/// leading outside, nowhere, or to what is no regular file.
fn linked_file(root: &std::path::Path, link: &std::path::Path) -> Option<(RepoPath, Vec<u8>)> {
    let target = std::fs::canonicalize(link).ok()?;
    let root = std::fs::canonicalize(root).ok()?;
    let rel = target.strip_prefix(&root).ok()?;
    if rel.components().next() == Some(std::path::Component::Normal(".git".as_ref())) {
        return None;
    }
    if !std::fs::metadata(&target).ok()?.is_file() {
        return None;
    }
    let bytes = majordomus_readings::file::read(&target).ok()?;
    Some((RepoPath::parse(rel.to_str()?), bytes))
}

/// Whether text `now` holds no line, blank ones and those that only turn
/// a test off in `dialect`, through its runners' own names or those its
/// imports bind to them, aside ([`super::test_code::disables_a_test`])
/// and those under a switch that turns off what it encloses
/// ([`super::test_code::scope`]: a `pytestmark`, a `#![cfg(any())]`, a
/// `//go:build ignore`; test/cases/509), each taken without the space
/// around it, that no content of `then` holds (the start's, and each
/// newest commit a fetch brought's) and that is not one the change took
/// out (`moved` draws it: test/cases/524): `Some` with why (the first
/// line read as turning a test off, its own or the switch over it, where
/// one was, so the answer names it); `None` for content that is not text
/// (a NUL in either), whose change counts. A comment counts here: in a
/// test path it can be the assertion itself (`//~ ERROR`, `// CHECK:`),
/// or expected output.
fn adds_no_line(
    now: &[u8],
    then: &[Vec<u8>],
    dialect: Dialect,
    moved: &mut dyn FnMut(&[u8]) -> bool,
) -> Option<NotNew> {
    let binary = |b: &[u8]| b.iter().take(8000).any(|c| *c == 0);
    if binary(now) || then.iter().any(|t| binary(t)) {
        return None;
    }
    let held: BTreeSet<&[u8]> = then.iter().flat_map(|t| t.split(|c| *c == b'\n')).map(<[u8]>::trim_ascii).collect();
    let imports = super::test_code::Imports::of(now, dialect);
    let text = String::from_utf8_lossy(now);
    let enclosed = super::test_code::scope::switched_off(&text, dialect, &imports);
    let mut off = None;
    let mut any_moved = false;
    for (n, line) in now.split(|c| *c == b'\n').map(<[u8]>::trim_ascii).enumerate() {
        if line.is_empty() || held.contains(line) {
            continue;
        }
        // The line that turns it off: its own, or a switch enclosing it;
        // else a line moved from elsewhere, or one that counts.
        let switch = if super::test_code::disables_a_test(line, dialect, &imports) {
            n + 1
        } else if let Some(switch) = super::test_code::scope::switch_of(&enclosed, n + 1) {
            switch
        } else if moved(line) {
            any_moved = true;
            continue;
        } else {
            return None;
        };
        if off.is_none() {
            off = Some(NotNew::TurnedOff { line: switch, words: test_code::words_of(&text, switch) });
        }
    }
    Some(off.unwrap_or(if any_moved { NotNew::Moved } else { NotNew::NoLineAdded }))
}

/// The test paths changed since the start that the working tree no longer
/// holds (deleted, whether committed, staged or not): only tests are asked
/// about, one `lstat` each, as only `regression-tested` needs the answer.
fn gone(repo: &Repo, changes: &ChangeSet, rules: &TestRules) -> Vec<RepoPath> {
    changes
        .changed
        .iter()
        .filter(|p| rules.is_test(p))
        .filter(|p| {
            // A leading directory git does not look through (a link) holds
            // no test: gone, as it is to git.
            match majordomus_readings::file::in_tree(repo.root(), p) {
                None => true,
                Some(full) => std::fs::symlink_metadata(full).is_err_and(|e| {
                    matches!(e.kind(), std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory)
                }),
            }
        })
        .cloned()
        .collect()
}

/// Test code inside the changed files that are not test paths
/// (`test_code/`), read only when no test path still there was changed:
/// `Ok(None)` when one was, so the path rule already answers.
fn test_code_read(
    repo: &Repo,
    task: &TaskState,
    changes: &ChangeSet,
    gone: &[RepoPath],
    not_new: &BTreeMap<RepoPath, NotNew>,
    rules: &TestRules,
    taken_out: &mut TakenOut<'_>,
) -> Reading<Option<TestCode>> {
    let (tests, others): (Vec<&RepoPath>, Vec<&RepoPath>) = changes.changed.iter().partition(|p| rules.is_test(p));
    if tests.iter().any(|t| !gone.contains(t) && !not_new.contains_key(*t)) {
        return Ok(None);
    }
    // Source files are read by name as text: a name that is not UTF-8 is
    // no source file test code is looked for in (it then counts for nothing).
    let others: Vec<&str> = others.iter().filter_map(|p| p.to_str()).collect();
    let record = task_reading(task)?;
    test_code::read(repo, record.head.as_deref(), &changes.arrived_tips, &record.snapshot, &others, rules, taken_out)
        .map(Some)
}

/// The inputs read for the gates measured so far in one check, by their
/// globs and the changed paths they matched: a gate over the same globs
/// as another hashes the files read for that one with its own command.
#[derive(Default)]
struct InputsRead(Vec<(Vec<String>, Vec<String>, inputs::Collected)>);

impl InputsRead {
    fn collected(
        &mut self,
        repo: &Repo,
        tree: &WorkingTree,
        gate: &Gate,
        matched: &[String],
    ) -> Reading<&inputs::Collected> {
        let at = match self.0.iter().position(|(globs, m, _)| *globs == gate.inputs && m == matched) {
            Some(at) => at,
            None => {
                let reach = inputs::Reach { changed: matched, as_on_disk: false };
                let collected = inputs::collect(repo, tree, &matcher(gate)?, reach)?;
                self.0.push((gate.inputs.clone(), matched.to_vec(), collected));
                self.0.len() - 1
            }
        };
        Ok(&self.0[at].2)
    }
}

fn measure_runs(
    repo: &Repo,
    tree: &Reading<WorkingTree>,
    gate: &Gate,
    id: &str,
    matched: &[String],
    runs: &Reading<Vec<(String, RecordedRun)>>,
    read: &mut InputsRead,
) -> Reading<GateRuns> {
    let runs = runs.as_ref().map_err(Clone::clone)?;
    let tree = tree.as_ref().map_err(Clone::clone)?;
    let now = read.collected(repo, tree, gate, matched)?.hashed(&gate.run)?;
    let mut found = runs_of(runs, id, &now.hash, now.files);
    found.unseen = now.absent.into_iter().filter(|p| matched.contains(p)).collect();
    found.off_record = now.off_record;
    found.left = now.left;
    // No run over the inputs as the index holds them: the changed ones git
    // reads clean are read from disk, to say why where a run was over
    // other content (only here, only those: a pass costs nothing more).
    if found.current.is_none() {
        found.off_index = inputs::recorded::off_index(repo, tree, matched);
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_test_adds_a_line_only_where_it_holds_one_not_blank_it_did_not_hold() {
        let then = b"fn t() {\n    assert!(a());\n}\n";
        let one = |t: &[u8]| vec![t.to_vec()];
        let none = |now: &[u8], then: &[u8]| {
            adds_no_line(now, &one(then), Dialect::Rust, &mut |_| false) == Some(NotNew::NoLineAdded)
        };
        assert!(none(b"", b""), "an empty placeholder");
        assert!(none(b"\n  \n", then), "blank lines");
        assert!(none(b"fn t() {\n\n        assert!(a());\n}\n", then), "indentation");
        assert!(none(b"fn t() {\n}\n", then), "a line taken out");
        let added = b"fn t() {\n    assert!(a());\n    assert!(b());\n}\n";
        assert_eq!(adds_no_line(added, &one(then), Dialect::Rust, &mut |_| false), None, "a line added");
        assert_eq!(
            adds_no_line(b"\0\x01", &one(b""), Dialect::Rust, &mut |_| false),
            None,
            "content that is not text counts by any change"
        );
        // A line only turning the test off is named.
        let ignored = b"#[ignore]\nfn t() {\n    assert!(a());\n}\n";
        assert_eq!(
            adds_no_line(ignored, &one(then), Dialect::Rust, &mut |_| false),
            Some(NotNew::TurnedOff { line: 1, words: "#[ignore]".into() })
        );
        // The same words in Python are a comment, which counts in a test path.
        assert_eq!(adds_no_line(b"#[ignore]\n", &one(b""), Dialect::Python, &mut |_| false), None);
        // A line the change took out elsewhere is moved, not added; one
        // it did not take out still counts.
        let mut moved = |l: &[u8]| l == b"assert!(b());";
        assert_eq!(adds_no_line(added, &one(then), Dialect::Rust, &mut moved), Some(NotNew::Moved));
        let edited = b"fn t() {\n    assert!(b());\n    assert!(c());\n}\n";
        assert_eq!(adds_no_line(edited, &one(then), Dialect::Rust, &mut moved), None, "moved and edited");
    }

    #[test]
    fn a_line_a_commit_a_fetch_brought_holds_is_no_line_the_task_added() {
        let start = b"fn old() {}\n".to_vec();
        let theirs = b"fn theirs() { assert!(b()); }\nfn old() {}\n".to_vec();
        // A colleague's test pulled in, and a blank line of the task's.
        let now = b"fn theirs() { assert!(b()); }\nfn old() {}\n\n";
        let both = [start.clone(), theirs];
        let never = &mut |_: &[u8]| false;
        assert_eq!(adds_no_line(now, &both, Dialect::Rust, never), Some(NotNew::NoLineAdded));
        assert_eq!(
            adds_no_line(now, &[start], Dialect::Rust, never),
            None,
            "against the start alone, their line is added"
        );
        // The task's own test beside theirs is the task's.
        let mine = b"fn theirs() { assert!(b()); }\nfn old() {}\nfn mine() { assert!(a()); }\n";
        assert_eq!(adds_no_line(mine, &both, Dialect::Rust, never), None);
    }
    use majordomus_records::ledger::append;
    use majordomus_testkit::TestRepo;

    fn run_entry(gate: &str, exit: i32, hash: &str) -> Entry {
        Entry {
            at: "2026-11-30T10:00:00Z".into(),
            task: Some("t".into()),
            event: Event::GateRun {
                gate: gate.into(),
                exit,
                duration_ms: 1,
                commit: None,
                inputs_hash: hash.into(),
                timed_out: false,
                environment: Some(ledger::gate_environment()),
            },
        }
    }

    fn policy() -> Policy {
        let mut p = Policy::default();
        p.gates.insert("unit".into(), Gate::new("cargo test", &["src/**"]));
        p.gates.insert("docs".into(), Gate::new("mdbook test", &["docs/**"]));
        let mut lint = Gate::new("cargo clippy", &[]);
        lint.always = true;
        lint.required = false;
        p.gates.insert("lint".into(), lint);
        p
    }

    fn take(t: &TestRepo, policy: &Policy, changed: &[&str]) -> GateSet {
        let repo = majordomus_readings::open(t.path()).expect("open");
        let tree = majordomus_readings::status::read(&repo);
        let changes = Ok(ChangeSet { changed: changed.iter().map(|s| (*s).into()).collect(), ..ChangeSet::default() });
        let paths = StatePaths::new(repo.root());
        measure(&repo, &paths, policy, &TaskState::None, &tree, &changes).gates.expect("read")
    }

    #[test]
    fn a_test_reencoded_or_given_a_byte_order_mark_reads_as_the_same_lines() {
        let utf16le = |t: &str| -> Vec<u8> {
            [0xFF, 0xFE].into_iter().chain(t.encode_utf16().flat_map(u16::to_le_bytes)).collect()
        };
        let utf16be = |t: &str| -> Vec<u8> {
            [0xFE, 0xFF].into_iter().chain(t.encode_utf16().flat_map(u16::to_be_bytes)).collect()
        };
        let text = "def test_a():\n    assert a() == 2\n";
        assert_eq!(as_text(&utf16le(text)).as_ref(), text.as_bytes());
        assert_eq!(as_text(&utf16be(text)).as_ref(), text.as_bytes());
        assert_eq!(as_text(&[b"\xEF\xBB\xBF".as_slice(), text.as_bytes()].concat()).as_ref(), text.as_bytes());
        assert_eq!(as_text(b"\xFF\x00 not text").as_ref(), b"\xFF\x00 not text", "no mark: as it is");
    }

    #[test]
    fn a_link_stands_for_the_file_it_leads_to_inside_the_working_tree_and_for_none_elsewhere() {
        let t = TestRepo::with_commit();
        t.write("tests/a_test.sh", "true\n");
        let link = |name: &str, to: &str| {
            let at = t.path().join("tests").join(name);
            std::os::unix::fs::symlink(to, &at).expect("link");
            at
        };
        let (target, bytes) = linked_file(t.path(), &link("b_test.sh", "a_test.sh")).expect("inside");
        assert_eq!((target.to_string(), bytes), ("tests/a_test.sh".to_string(), b"true\n".to_vec()));
        assert_eq!(linked_file(t.path(), &link("c_test.sh", "/etc/hostname")), None, "outside");
        assert_eq!(linked_file(t.path(), &link("d_test.sh", "missing.sh")), None, "nowhere");
        assert_eq!(linked_file(t.path(), &link("e_test.sh", "..")), None, "a directory");
        assert_eq!(linked_file(t.path(), &link("f_test.sh", "../.git/HEAD")), None, "git's own");
    }

    #[test]
    fn a_link_writes_no_line_of_its_own_and_a_directory_under_a_test_path_is_no_test_file() {
        let t = TestRepo::with_commit();
        t.write("src/fix.sh", "a=1\n");
        let start = t.commit_all("src");
        t.write("src/fix.sh", "a=2\n");
        t.write("tests/fix_test.sh", "[ \"$a\" = 2 ]\n");
        std::os::unix::fs::symlink("../src/fix.sh", t.path().join("tests/src_test.sh")).expect("link");
        std::os::unix::fs::symlink("fix_test.sh", t.path().join("tests/alias_test.sh")).expect("link");
        t.git(&["init", "-q", "tests/vendor"]);
        let repo = majordomus_readings::open(t.path()).expect("open");
        let tree = majordomus_readings::status::read(&repo);
        let mut record = majordomus_testkit::task_record();
        record.head = Some(start);
        let task = TaskState::Active(Box::new(record));
        let changes = Ok(ChangeSet {
            changed: ["src/fix.sh", "tests/alias_test.sh", "tests/fix_test.sh", "tests/src_test.sh", "tests/vendor/"]
                .map(RepoPath::from)
                .to_vec(),
            ..ChangeSet::default()
        });
        let read = measure(&repo, &StatePaths::new(repo.root()), &Policy::default(), &task, &tree, &changes);
        let not_new: Vec<(String, NotNew)> =
            read.not_new.expect("read").into_iter().map(|(p, why)| (p.to_string(), why)).collect();
        assert_eq!(
            not_new,
            [
                ("tests/alias_test.sh".to_string(), NotNew::LinkTo("tests/fix_test.sh".into())),
                ("tests/src_test.sh".to_string(), NotNew::LinkTo("src/fix.sh".into())),
                ("tests/vendor/".to_string(), NotNew::NoFile),
            ],
            "the test written counts at its own path, and only it"
        );
    }

    #[test]
    fn a_changed_path_deleted_from_the_working_tree_is_read_as_gone_with_or_without_gates() {
        let t = TestRepo::with_commit();
        t.write("tests/p_test.rs", "#[test] fn p() {}\n");
        t.write("tests/q_test.rs", "#[test] fn q() {}\n");
        t.commit_all("tests");
        t.git(&["rm", "-q", "tests/p_test.rs"]);
        let repo = majordomus_readings::open(t.path()).expect("open");
        let tree = majordomus_readings::status::read(&repo);
        let changes = Ok(ChangeSet {
            changed: vec!["README".into(), "tests/p_test.rs".into(), "tests/q_test.rs".into()],
            ..ChangeSet::default()
        });
        let paths = StatePaths::new(repo.root());
        for policy in [Policy::default(), policy()] {
            let read = measure(&repo, &paths, &policy, &TaskState::None, &tree, &changes);
            assert_eq!(read.gone.expect("read"), ["tests/p_test.rs"]);
        }
    }

    #[test]
    fn a_gate_is_selected_by_a_change_to_its_inputs_or_by_always() {
        let t = TestRepo::with_commit();
        let set = take(&t, &policy(), &["src/lib.rs", "README"]);
        let sel: Vec<(&str, bool)> = set.gates.iter().map(|g| (g.id.as_str(), g.selected())).collect();
        assert_eq!(sel, [("unit", true), ("docs", false), ("lint", true)]);
        assert_eq!(set.get("unit").expect("unit").matched, ["src/lib.rs"]);
        assert!(set.get("docs").expect("docs").runs.is_none(), "an unselected gate is not hashed");
    }

    #[test]
    fn the_latest_run_over_the_inputs_now_counts_whoever_ran_it() {
        let runs = recorded_runs(&[run_entry("unit", 0, "h1"), run_entry("unit", 1, "h2"), run_entry("docs", 0, "h1")]);
        let r = runs_of(&runs, "unit", "h1", 3);
        assert_eq!(r.latest.as_ref().map(|r| r.inputs_hash.as_str()), Some("h2"));
        assert_eq!(r.current.as_ref().map(|r| r.exit), Some(0));
        assert!(runs_of(&runs, "unit", "h3", 3).current.is_none());
        assert!(runs_of(&runs, "lint", "h1", 0).latest.is_none());
    }

    #[test]
    fn a_ledger_that_cannot_be_read_leaves_the_selected_gates_unread() {
        let t = TestRepo::with_commit();
        t.write(".ai/local/state/ledger.jsonl", "{not json\n");
        let set = take(&t, &policy(), &["src/lib.rs"]);
        let unit = set.get("unit").expect("unit");
        let err = unit.runs.clone().expect("selected").expect_err("unread");
        assert!(err.reason.contains("not a ledger entry"), "{err}");
    }

    #[test]
    fn a_recorded_run_is_found_by_the_hash_of_the_inputs_now() {
        let t = TestRepo::with_commit();
        t.write("src/lib.rs", "fn a() {}\n");
        let repo = majordomus_readings::open(t.path()).expect("open");
        let tree = majordomus_readings::status::read(&repo).expect("status");
        let p = policy();
        let now = inputs_now(&repo, &tree, &p.gates["unit"], Default::default()).expect("hash");
        append(&StatePaths::new(repo.root()), &run_entry("unit", 0, &now.hash)).expect("append");
        let set = take(&t, &p, &["src/lib.rs"]);
        let runs = set.get("unit").expect("unit").runs.clone().expect("selected").expect("read");
        assert!(runs.current.expect("current").passed());
        t.write("src/lib.rs", "fn b() {}\n");
        let set = take(&t, &p, &["src/lib.rs"]);
        let runs = set.get("unit").expect("unit").runs.clone().expect("selected").expect("read");
        assert!(runs.current.is_none() && runs.latest.is_some(), "stale after an input changed");
    }

    #[test]
    fn gates_over_the_same_globs_share_a_reading_of_their_files_and_each_hashes_its_own_command() {
        let t = TestRepo::with_commit();
        t.write("src/lib.rs", "fn a() {}\n");
        let mut p = policy();
        p.gates.insert("unit-again".into(), Gate::new("make test", &["src/**"]));
        let repo = majordomus_readings::open(t.path()).expect("open");
        let tree = majordomus_readings::status::read(&repo).expect("status");
        let set = take(&t, &p, &["src/lib.rs"]);
        for id in ["unit", "unit-again"] {
            let alone = inputs_now(&repo, &tree, &p.gates[id], Default::default()).expect("hash");
            let runs = set.get(id).expect("gate").runs.clone().expect("selected").expect("read");
            assert_eq!((runs.inputs_now.as_str(), runs.files), (alone.hash.as_str(), alone.files), "{id}");
        }
        let hash = |id: &str| set.get(id).expect("gate").runs.clone().expect("selected").expect("read").inputs_now;
        let hashes = [hash("unit"), hash("unit-again")];
        assert_ne!(hashes[0], hashes[1], "each gate's command is its own");
    }

    #[test]
    fn an_unselected_gate_is_read_only_where_the_task_saw_it_fail_over_the_inputs_now() {
        let t = TestRepo::with_commit();
        t.write("src/lib.rs", "fn a() {}\n");
        let repo = majordomus_readings::open(t.path()).expect("open");
        let status = majordomus_readings::status::read(&repo).expect("status");
        let p = policy();
        let now = inputs_now(&repo, &status, &p.gates["unit"], Default::default()).expect("hash").hash;
        let paths = StatePaths::new(repo.root());
        let task = TaskState::Active(Box::new(majordomus_testkit::task_record()));
        let changes = Ok(ChangeSet { changed: vec!["README".into()], ..ChangeSet::default() });
        let unit = |task: &TaskState| {
            let tree = majordomus_readings::status::read(&repo);
            let set = measure(&repo, &paths, &p, task, &tree, &changes).gates.expect("read");
            set.get("unit").expect("unit").clone()
        };
        // Another task's failure over these inputs is not this task's to answer for.
        let mut other = run_entry("unit", 1, &now);
        other.task = Some("another".into());
        append(&paths, &other).expect("append");
        assert!(unit(&task).runs.is_none(), "not hashed");
        // This task's failure over the inputs now: known to fail, unselected.
        append(&paths, &run_entry("unit", 1, &now)).expect("append");
        let g = unit(&task);
        assert!(!g.selected() && g.known_failing(), "{g:?}");
        assert!(!unit(&TaskState::None).known_failing(), "no task, nothing read");
        // A pass over the same inputs since: no longer known to fail.
        append(&paths, &run_entry("unit", 0, &now)).expect("append");
        assert!(!unit(&task).known_failing());
        // A failure over other inputs than now's is not over this tree.
        append(&paths, &run_entry("unit", 1, "elsewhere")).expect("append");
        assert!(unit(&task).runs.is_none());
    }

    #[test]
    fn no_gate_declared_reads_nothing_else() {
        let t = TestRepo::with_commit();
        let repo = majordomus_readings::open(t.path()).expect("open");
        let r = measure(
            &repo,
            &StatePaths::new(repo.root()),
            &Policy::default(),
            &TaskState::None,
            &Err(Unread::io("x")),
            &Err(Unread::io("y")),
        );
        assert_eq!(r.gates, Ok(GateSet::default()));
    }

    fn test_code_of(t: &TestRepo, start: &str, policy: &Policy) -> Reading<Option<TestCode>> {
        let repo = majordomus_readings::open(t.path()).expect("open");
        let tree = majordomus_readings::status::read(&repo);
        let mut record = majordomus_testkit::task_record();
        record.head = Some(start.to_string());
        let task = TaskState::Active(Box::new(record));
        let changes = change_set(&repo, &task).1;
        measure(&repo, &StatePaths::new(repo.root()), policy, &task, &tree, &changes).test_code
    }

    #[test]
    fn a_test_added_inside_a_rust_files_test_module_is_read_as_test_code_and_a_plain_edit_is_not() {
        let t = TestRepo::with_commit();
        let lib = "pub fn a() -> u8 {\n    1\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn a_is_one() {\n        assert_eq!(super::a(), 1);\n    }\n}\n";
        t.write("src/lib.rs", lib);
        let start = t.commit_all("lib");
        t.write("src/lib.rs", &lib.replace("    1\n", "    2\n"));
        let code = test_code_of(&t, &start, &Policy::default()).expect("read").expect("asked");
        assert_eq!((code.read, code.touched.len()), (1, 0), "{code:?}");
        t.write("src/lib.rs", &lib.replace("        assert_eq!(super::a(), 1);", "        assert_eq!(super::a(), 2);"));
        let code = test_code_of(&t, &start, &Policy::default()).expect("read").expect("asked");
        assert_eq!(code.touched, [("src/lib.rs".to_string(), vec!["fn a_is_one (#[test])".to_string()])]);
    }

    #[test]
    fn a_test_path_still_there_answers_first_and_the_policys_globs_are_test_paths() {
        let t = TestRepo::with_commit();
        let start = t.head();
        t.write("tests/it.rs", "#[test] fn it() {}\n");
        t.write("src/lib.rs", "#[cfg(test)]\nmod t {}\n");
        assert_eq!(test_code_of(&t, &start, &Policy::default()), Ok(None), "the path rule answered");
        t.remove("tests/it.rs");
        t.write("checks/run.sh", "true\n");
        let mut policy = Policy::default();
        policy.tests = Some(majordomus_records::policy::Tests { paths: vec!["checks".into()], items: Vec::new() });
        assert_eq!(test_code_of(&t, &start, &policy), Ok(None), "checks/ is a test path by the policy");
        let code = test_code_of(&t, &start, &Policy::default()).expect("read").expect("asked");
        assert_eq!(code.touched.len(), 1, "{code:?}");
    }
}
