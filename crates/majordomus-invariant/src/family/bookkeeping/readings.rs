//! Taking the bookkeeping readings: the current task's ledger entries
//! folded into a [`TaskBook`], the forge observation, the markers added
//! since the start (and the register, when a filing needs it), the
//! background processes, and the commits since the start.

use std::collections::BTreeMap;

use majordomus_readings::changes::ChangeSet;
use majordomus_readings::markers::{Marker, Register};
use majordomus_readings::status::WorkingTree;
use majordomus_readings::{refs, Reading, Repo, Unread};
use majordomus_records::issue::IssueRef;
use majordomus_records::ledger::{self, AgentTask, Entry, Event};
use majordomus_records::policy::Policy;
use majordomus_records::task::{error_chain, TaskState};
use majordomus_records::StatePaths;

use super::BookkeepingReadings;
use crate::readings::task_reading;

/// A todo declared for the task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Todo {
    pub n: u32,
    pub text: String,
    pub done: bool,
}

/// An issue the task claimed, and whether it released it since.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claimed {
    pub issue: IssueRef,
    /// When it was (last) claimed, RFC 3339.
    pub at: String,
    pub released: bool,
}

/// An issue the task filed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filed {
    pub issue: IssueRef,
    pub at: String,
}

/// Background work the task registered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registered {
    pub pid: u32,
    pub start_time: Option<u64>,
    pub what: Option<String>,
    pub at: String,
    /// `bg forget --why`: forgotten while it still ran, with the reason and
    /// when; it is shown, and exempt while it runs, never silently dropped.
    pub forgotten: Option<(String, String)>,
    /// `bg run`'s marker: `MAJORDOMUS_BG=` this value is in the
    /// environment of every process the work started.
    pub marker: Option<String>,
    /// The processes seen running below it (`BackgroundChild`), in order.
    pub children: Vec<Child>,
}

/// A process seen running below registered background work.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Child {
    pub pid: u32,
    pub start_time: u64,
    pub name: String,
}

/// An acknowledgement: the evidence a question held, declared not this task's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Acked {
    pub question: String,
    pub why: String,
    pub evidence: Vec<String>,
    /// The content of each path acknowledged, as it was then (empty in an
    /// acknowledgement recorded before content was kept).
    pub content: BTreeMap<String, String>,
    pub at: String,
}

/// The current task's ledger, folded.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TaskBook {
    pub todos: Vec<Todo>,
    pub claims: Vec<Claimed>,
    pub filed: Vec<Filed>,
    pub background: Vec<Registered>,
    /// The background tasks the agent reported in its latest report, and when.
    pub agent_tasks: Option<(String, Vec<AgentTask>)>,
    pub acks: Vec<Acked>,
}

impl TaskBook {
    /// Folds the ledger entries of task `task_id`, in order; every other
    /// task's entries are ignored.
    pub fn fold(task_id: &str, entries: &[Entry]) -> Result<Self, Unread> {
        let mut book = TaskBook::default();
        let mut claims: BTreeMap<IssueRef, Claimed> = BTreeMap::new();
        let issue = |text: &str, at: &str| {
            IssueRef::parse(text).map_err(|e| Unread::record(format!("the ledger entry of {at} names no issue: {e}")))
        };
        for entry in entries.iter().filter(|e| e.task.as_deref() == Some(task_id)) {
            match &entry.event {
                Event::TodoAdd { n, text } => {
                    book.todos.retain(|t| t.n != *n);
                    book.todos.push(Todo { n: *n, text: text.clone(), done: false });
                }
                Event::TodoDone { n } => {
                    if let Some(t) = book.todos.iter_mut().find(|t| t.n == *n) {
                        t.done = true;
                    }
                }
                Event::Claim { issue: text } => {
                    let i = issue(text, &entry.at)?;
                    claims.insert(i.clone(), Claimed { issue: i, at: entry.at.clone(), released: false });
                }
                Event::Release { issue: text } => {
                    if let Some(c) = claims.get_mut(&issue(text, &entry.at)?) {
                        c.released = true;
                    }
                }
                Event::File { issue: text } => {
                    let i = issue(text, &entry.at)?;
                    if !book.filed.iter().any(|f| f.issue == i) {
                        book.filed.push(Filed { issue: i, at: entry.at.clone() });
                    }
                }
                Event::Background { pid, start_time, what, marker }
                    if !book.background.iter().any(|b| b.pid == *pid && b.start_time == *start_time) =>
                {
                    book.background.push(Registered {
                        pid: *pid,
                        start_time: *start_time,
                        what: what.clone(),
                        at: entry.at.clone(),
                        forgotten: None,
                        marker: marker.clone(),
                        children: Vec::new(),
                    });
                }
                Event::BackgroundChild { of, pid, start_time, name } => {
                    if let Some(b) = book.background.iter_mut().rev().find(|b| b.pid == *of) {
                        if !b.children.iter().any(|c| c.pid == *pid && c.start_time == *start_time) {
                            b.children.push(Child { pid: *pid, start_time: *start_time, name: name.clone() });
                        }
                    }
                }
                Event::BackgroundForget { pid, why: None } => book.background.retain(|b| b.pid != *pid),
                Event::BackgroundForget { pid, why: Some(why) } => {
                    for b in book.background.iter_mut().filter(|b| b.pid == *pid) {
                        b.forgotten = Some((why.clone(), entry.at.clone()));
                    }
                }
                Event::AgentBackground { tasks } => book.agent_tasks = Some((entry.at.clone(), tasks.clone())),
                Event::Ack { question, why, evidence, content } => book.acks.push(Acked {
                    question: question.clone(),
                    why: why.clone(),
                    evidence: evidence.clone(),
                    content: content.clone(),
                    at: entry.at.clone(),
                }),
                _ => {}
            }
        }
        book.todos.sort_by_key(|t| t.n);
        book.claims = claims.into_values().collect();
        Ok(book)
    }
}

/// A registered background process, and whether it still runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProcessSeen {
    pub registered: Registered,
    /// Whether the registered process itself still runs.
    pub running: Reading<bool>,
    /// The processes it started that still run: below it, recorded below
    /// it at an earlier look, or carrying its `bg run` marker
    /// ([`super::background::look`]).
    pub lasting: Vec<Child>,
}

impl ProcessSeen {
    /// Whether the work still runs: the process, or anything it started.
    pub fn runs(&self) -> Reading<bool> {
        match (&self.running, self.lasting.is_empty()) {
            (_, false) => Ok(true),
            (r, true) => r.clone(),
        }
    }
}

/// Takes the bookkeeping readings. `changes`, `tree` and `head` (HEAD's
/// commit) are the ones `measure` already took: the markers are read from
/// the same change set, in the working tree and in HEAD's commit; the
/// commits since the start and whether they changed HEAD's tree were taken
/// beside the status ([`commits_since_start`], [`tree_changed`]).
pub fn measure(
    repo: &Repo,
    paths: &StatePaths,
    policy: &Policy,
    task: &TaskState,
    (changes, tree, head): Taken<'_>,
    (commits_since_start, tree_changed, arrived): Commits,
    landed: Reading<Vec<Marker>>,
) -> BookkeepingReadings {
    let record = task_reading(task);
    let book = record.clone().and_then(|r| {
        let entries = ledger::read_here(paths).map_err(|e| Unread::record(error_chain(&e)))?;
        TaskBook::fold(&r.id, &entries)
    });
    let forge = crate::family::closing::readings::observation(repo, paths, policy.provider(), task.record());
    let register = Register::from_policy(policy.markers.as_ref());
    let markers_added = match (&register, &record, changes) {
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => Err(e.clone()),
        (Ok(reg), Ok(r), Ok(c)) => reg.added_since(repo, r.head.as_deref(), head, &c.changed),
    };
    // And those landed on the trunk around HEAD, taken beside the status.
    let markers_added = markers_added.and_then(|mut m| {
        m.extend(landed?);
        Ok(m)
    });
    // A filing is settled by the register in force for `filings-closed`,
    // which a widening since the start does not reach (`Policy::filing_markers`).
    let register = match &book {
        Ok(b) if !b.filed.is_empty() => {
            Some(register_markers(repo, &Register::from_policy(policy.filing_register()), tree, head))
        }
        _ => None,
    };
    let processes = book.as_ref().map_err(Clone::clone).map(|b| {
        let (seen, new) = super::background::look(&b.background);
        // Recorded so that a process seen here still counts once what
        // started it has ended; one that cannot be recorded is still
        // named by this check.
        if let (Ok(r), false) = (&record, new.is_empty()) {
            let at = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
            let entries: Vec<Entry> =
                new.into_iter().map(|event| Entry { at: at.clone(), task: Some(r.id.clone()), event }).collect();
            let _ = ledger::append_all(paths, &entries);
        }
        seen
    });
    let made = match (&book, &record) {
        (Ok(b), Ok(r)) if !b.acks.is_empty() => Some(super::made::read(repo, r).map(|mut m| {
            let paths = b.acks.iter().flat_map(|a| a.content.keys());
            m.content = paths.map(|p| (p.clone(), super::ack::content_of(repo.root(), p))).collect();
            m
        })),
        _ => None,
    };
    BookkeepingReadings {
        book,
        forge,
        markers_added,
        register,
        processes,
        commits_since_start,
        tree_changed,
        arrived,
        made,
    }
}

/// The markers the task landed on the trunk around HEAD
/// ([`Register::landed`]): read from the commits this repository made since
/// the start that HEAD does not reach, each with one parent, that changed
/// a directory the register scans ([`refs::attribution::made_around_head`]:
/// HEAD's reflog, and the loose commits of a linked worktree made for the
/// work and removed, or every own commit on the trunk where HEAD's reflog
/// was rewritten: test/cases/592), as `no-new-debt` reads the debt landed
/// so (test/cases/445, 565). Only
/// where HEAD does not reach the trunk's tip: where it does, whatever the
/// trunk holds HEAD's history holds, and what HEAD took out since is
/// `pushed`'s to land. So the common path, HEAD pushed, costs one
/// comparison of ids, and a HEAD ahead of the trunk one short walk.
pub fn markers_landed(
    repo: &Repo,
    policy: &Policy,
    task: &TaskState,
    head: Option<&str>,
    trunk: Option<&refs::Trunk>,
    around: &refs::attribution::Around,
) -> Reading<Vec<Marker>> {
    let (Some(record), Some(trunk)) = (task.record(), trunk) else { return Ok(Vec::new()) };
    let oid = |s: &str| git2::Oid::from_str(s).map_err(|e| Unread::git(s, &e));
    let (head, tip) = (head.map(oid).transpose()?, oid(&trunk.commit)?);
    if head.is_some_and(|h| h == tip || repo.git.graph_descendant_of(h, tip).unwrap_or(false)) {
        return Ok(Vec::new());
    }
    let register = Register::from_policy(policy.markers.as_ref())?;
    // A merge's change is its own where it differs from every side (a
    // marker written into its resolution, test/cases/616).
    let at_start = refs::attribution::trunk_at_start(record, &trunk.refname);
    let touches = |c: &git2::Commit<'_>| c.parent_count() >= 1 && register.touches(c);
    let made = refs::attribution::made_around_head(repo, record, head, tip, at_start, around, touches)?;
    if made.is_empty() {
        return Ok(Vec::new());
    }
    register.landed(repo, record.head.as_deref(), &trunk.commit, &made)
}

/// What the rest of `check` already read that the bookkeeping readings
/// take as read: the change set, the working tree, HEAD's commit.
pub type Taken<'a> = (&'a Reading<ChangeSet>, &'a Reading<majordomus_readings::status::WorkingTree>, Option<&'a str>);

/// The readings of the commits since the start `measure` took beside the
/// status: [`commits_since_start`], [`tree_changed`], and what arrived.
pub type Commits = (Reading<(Vec<String>, usize)>, Reading<bool>, Option<Arrived>);

/// What a fetch brought onto HEAD since the start, for `measurable`: the
/// commits it does not count ([`majordomus_readings::refs::arrived`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arrived {
    /// The arrived commits HEAD reaches: at most `LISTED` ids, and the count.
    pub commits: Vec<String>,
    pub count: usize,
    /// Commits this worktree made since the start that HEAD does not
    /// reach, whose changes count (fetched back merged or squash-merged).
    pub made_elsewhere: usize,
}

/// The commits on HEAD since the task's start commit: listed ids and the
/// count. Needs no working tree, so it is taken beside the status. Where a
/// fetch brought commits onto HEAD since the start, `measure` counts the
/// task's own instead ([`majordomus_readings::refs::arrived`]).
pub fn commits_since_start(repo: &Repo, task: &TaskState, head_commit: Option<&str>) -> Reading<(Vec<String>, usize)> {
    match (task.record(), head_commit) {
        (None, _) => Err(Unread::no_task()),
        (Some(_), None) => Ok((Vec::new(), 0)),
        (Some(r), Some(h)) => match r.head.as_deref() {
            Some(start) if !refs::has_commit(repo, start) => Err(Unread::start_commit_missing(start)),
            start => refs::commits_not_on(repo, h, start),
        },
    }
}

/// Whether HEAD's tree differs from the start commit's at a path, as `git
/// diff --name-only START HEAD` would list one: two tree ids compared, and
/// where they differ, the trees walked down their differing entries only,
/// stopping at the first changed path. A tree that differs only by an
/// empty directory (`git mktree` with an empty subtree, then `git
/// commit-tree`) changes no path, as `--allow-empty` does not
/// (test/cases/127, 495). With no start commit (HEAD was unborn), whether
/// HEAD's tree holds a path. The policy file is not one: a change to it is
/// the task's rules, reported apart (`scoped` leaves it out too), not its
/// work, so a commit of a comment in it measures nothing (test/cases/656).
pub fn tree_changed(repo: &Repo, task: &TaskState, head_commit: Option<&str>) -> Reading<bool> {
    let Some(record) = task.record() else { return Err(Unread::no_task()) };
    let Some(head) = head_commit else { return Ok(false) };
    let tree_of = |id: &str| -> Reading<git2::Tree<'_>> {
        let oid = git2::Oid::from_str(id).map_err(|e| Unread::git(&format!("commit id {id}"), &e))?;
        repo.git.find_commit(oid).and_then(|c| c.tree()).map_err(|e| Unread::git(&format!("the commit {id}"), &e))
    };
    let now = tree_of(head)?;
    let changed = match record.head.as_deref() {
        Some(start) if !refs::has_commit(repo, start) => return Err(Unread::start_commit_missing(start)),
        Some(start) => paths_differ(repo, &tree_of(start)?, &now, &policy_components()),
        None => holds_path_but(repo, &now, &policy_components()),
    };
    changed.map_err(|e| Unread::git("the trees of the start and HEAD", &e))
}

/// The policy file's path, by its components, as [`paths_differ`] skips it.
fn policy_components() -> Vec<&'static [u8]> {
    majordomus_records::paths::POLICY_FILE.split('/').map(str::as_bytes).collect()
}

/// Whether the trees `a` and `b` differ at a path (a file, a link or a
/// submodule added, removed, or changed in content or mode) but `skip` (a
/// path by its components, from these trees' root; empty: none); subtrees
/// with one id are not entered.
fn paths_differ(repo: &Repo, a: &git2::Tree<'_>, b: &git2::Tree<'_>, skip: &[&[u8]]) -> Result<bool, git2::Error> {
    if a.id() == b.id() {
        return Ok(false);
    }
    // What `skip` asks of an entry named `name`: skipped (the path itself),
    // entered with the rest of it, or compared whole.
    let below = |name: &[u8]| match skip {
        [first, rest @ ..] if *first == name => Some(rest),
        _ => None,
    };
    let holds = |entry: &git2::TreeEntry<'_>| entry_holds_path_but(repo, entry, skip);
    for entry in a.iter() {
        let Some(other) = b.get_name_bytes(entry.name_bytes()) else {
            if holds(&entry)? {
                return Ok(true);
            }
            continue;
        };
        if entry.id() == other.id() && entry.filemode() == other.filemode() {
            continue;
        }
        let rest = below(entry.name_bytes());
        if rest == Some(&[]) {
            continue;
        }
        let changed = match (subtree(repo, &entry)?, subtree(repo, &other)?) {
            (Some(x), Some(y)) => paths_differ(repo, &x, &y, rest.unwrap_or_default())?,
            // A file, a link or a submodule on either side is a path there.
            _ => true,
        };
        if changed {
            return Ok(true);
        }
    }
    for entry in b.iter() {
        if a.get_name_bytes(entry.name_bytes()).is_none() && holds(&entry)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The subtree an entry names, if it names one.
fn subtree<'r>(repo: &'r Repo, entry: &git2::TreeEntry<'_>) -> Result<Option<git2::Tree<'r>>, git2::Error> {
    if entry.kind() != Some(git2::ObjectType::Tree) {
        return Ok(None);
    }
    repo.git.find_tree(entry.id()).map(Some)
}

/// Whether an entry is a path or a subtree holding one.
fn entry_holds_path(repo: &Repo, entry: &git2::TreeEntry<'_>) -> Result<bool, git2::Error> {
    match subtree(repo, entry)? {
        Some(tree) => holds_path_but(repo, &tree, &[]),
        None => Ok(true),
    }
}

/// Whether a tree holds a path at any depth (empty subtrees hold none) but
/// `skip` (as [`paths_differ`] takes it).
fn holds_path_but(repo: &Repo, tree: &git2::Tree<'_>, skip: &[&[u8]]) -> Result<bool, git2::Error> {
    for entry in tree.iter() {
        if entry_holds_path_but(repo, &entry, skip)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Whether an entry is a path or a subtree holding one, but `skip`.
fn entry_holds_path_but(repo: &Repo, entry: &git2::TreeEntry<'_>, skip: &[&[u8]]) -> Result<bool, git2::Error> {
    match skip {
        [first, rest @ ..] if *first == entry.name_bytes() => match (rest, subtree(repo, entry)?) {
            ([], _) => Ok(false),
            (rest, Some(tree)) => holds_path_but(repo, &tree, rest),
            (_, None) => Ok(true),
        },
        _ => entry_holds_path(repo, entry),
    }
}

/// The markers that register a limitation: in a file the register scans,
/// as the working tree holds it and as HEAD's commit does
/// ([`Register::held_by_head`]: a marker no commit holds is in no clone).
fn register_markers(
    repo: &Repo,
    register: &Reading<Register>,
    tree: &Reading<WorkingTree>,
    head: Option<&str>,
) -> Reading<Vec<Marker>> {
    let register = register.as_ref().map_err(Clone::clone)?;
    let tree = tree.as_ref().map_err(Clone::clone)?;
    let files = register.files(repo, &tree.untracked)?;
    register.held_by_head(repo, head, register.markers_in(repo, &files)?)
}

/// The issues a forge observation must answer for the bookkeeping
/// questions: those the task claimed and still holds, those it filed, and
/// those the markers name. `repo: None` is this repository. Sorted, each once.
///
/// `forge refresh` calls this (through `crate::measure::issues_to_observe`)
/// to know what to ask.
pub fn issues_to_observe(book: &TaskBook, markers: &[Marker]) -> Vec<IssueRef> {
    let mut out: Vec<IssueRef> = book
        .claims
        .iter()
        .filter(|c| !c.released)
        .map(|c| c.issue.clone())
        .chain(book.filed.iter().map(|f| f.issue.clone()))
        .chain(markers.iter().filter_map(|m| m.issue.clone()))
        .collect();
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(task: &str, at: &str, event: Event) -> Entry {
        Entry { at: at.into(), task: Some(task.into()), event }
    }

    #[test]
    fn only_the_current_tasks_entries_are_folded() {
        let entries = vec![
            entry("old", "2026-11-29T10:00:00Z", Event::TodoAdd { n: 1, text: "an old task's todo".into() }),
            entry("t", "2026-11-30T10:00:00Z", Event::TodoAdd { n: 1, text: "write it".into() }),
            entry("t", "2026-11-30T10:01:00Z", Event::TodoAdd { n: 2, text: "test it".into() }),
            entry("t", "2026-11-30T10:02:00Z", Event::TodoDone { n: 1 }),
            entry("old", "2026-11-30T10:03:00Z", Event::TodoDone { n: 2 }),
        ];
        let book = TaskBook::fold("t", &entries).expect("fold");
        assert_eq!(
            book.todos,
            [Todo { n: 1, text: "write it".into(), done: true }, Todo { n: 2, text: "test it".into(), done: false }]
        );
    }

    #[test]
    fn a_release_settles_the_claim_before_it_and_a_new_claim_reopens_it() {
        let claim = |at: &str| entry("t", at, Event::Claim { issue: "4".into() });
        let release = |at: &str| entry("t", at, Event::Release { issue: "#4".into() });
        let book =
            TaskBook::fold("t", &[claim("2026-11-30T10:00:00Z"), release("2026-11-30T10:01:00Z")]).expect("fold");
        assert!(book.claims[0].released);
        let book = TaskBook::fold(
            "t",
            &[claim("2026-11-30T10:00:00Z"), release("2026-11-30T10:01:00Z"), claim("2026-11-30T10:02:00Z")],
        )
        .expect("fold");
        assert_eq!(book.claims.len(), 1);
        assert!(!book.claims[0].released);
        assert_eq!(book.claims[0].at, "2026-11-30T10:02:00Z");
    }

    #[test]
    fn a_forgotten_registration_no_longer_counts_and_a_later_one_does() {
        let add = |at: &str, start: u64| {
            entry("t", at, Event::Background { pid: 77, start_time: Some(start), what: None, marker: None })
        };
        let forget = |at: &str| entry("t", at, Event::BackgroundForget { pid: 77, why: None });
        let other = entry(
            "t",
            "2026-11-30T10:00:00Z",
            Event::Background { pid: 78, start_time: None, what: None, marker: None },
        );
        let book =
            TaskBook::fold("t", &[other.clone(), add("2026-11-30T10:00:00Z", 1), forget("2026-11-30T10:01:00Z")])
                .expect("fold");
        assert_eq!(book.background.iter().map(|b| b.pid).collect::<Vec<_>>(), [78]);
        let book = TaskBook::fold(
            "t",
            &[add("2026-11-30T10:00:00Z", 1), forget("2026-11-30T10:01:00Z"), add("2026-11-30T10:02:00Z", 2)],
        )
        .expect("fold");
        assert_eq!(book.background.len(), 1);
        assert_eq!(book.background[0].start_time, Some(2));
    }

    #[test]
    fn a_registration_forgotten_with_a_reason_is_kept_with_it() {
        let add = entry(
            "t",
            "2026-11-30T10:00:00Z",
            Event::Background { pid: 77, start_time: Some(1), what: None, marker: None },
        );
        let why = "it serves the docs, the user's".to_string();
        let forget = entry("t", "2026-11-30T10:01:00Z", Event::BackgroundForget { pid: 77, why: Some(why.clone()) });
        let book = TaskBook::fold("t", &[add, forget]).expect("fold");
        assert_eq!(book.background.len(), 1);
        assert_eq!(book.background[0].forgotten, Some((why, "2026-11-30T10:01:00Z".to_string())));
    }

    #[test]
    fn the_latest_agent_report_replaces_the_earlier_ones() {
        let report = |at: &str, ids: &[&str]| {
            entry(
                "t",
                at,
                Event::AgentBackground {
                    tasks: ids.iter().map(|i| AgentTask { id: i.to_string(), description: None }).collect(),
                },
            )
        };
        let book =
            TaskBook::fold("t", &[report("2026-11-30T10:00:00Z", &["a", "b"]), report("2026-11-30T10:05:00Z", &[])])
                .expect("fold");
        assert_eq!(book.agent_tasks, Some(("2026-11-30T10:05:00Z".to_string(), vec![])));
    }

    #[test]
    fn a_ledger_line_naming_no_issue_makes_the_book_unreadable() {
        let err = TaskBook::fold("t", &[entry("t", "2026-11-30T10:00:00Z", Event::File { issue: "soon".into() })])
            .expect_err("bad issue");
        assert!(err.reason.contains("names no issue"), "{err}");
    }

    #[test]
    fn the_issues_to_observe_are_those_held_filed_or_named_each_once() {
        let entries = vec![
            entry("t", "2026-11-30T10:00:00Z", Event::Claim { issue: "3".into() }),
            entry("t", "2026-11-30T10:00:00Z", Event::Claim { issue: "5".into() }),
            entry("t", "2026-11-30T10:01:00Z", Event::Release { issue: "5".into() }),
            entry("t", "2026-11-30T10:02:00Z", Event::File { issue: "acme/tools#9".into() }),
        ];
        let book = TaskBook::fold("t", &entries).expect("fold");
        let markers = vec![
            Marker {
                path: "src/a.rs".into(),
                line: 1,
                text: "m".into(),
                issue: Some(IssueRef::here(3)),
                in_head_only: false,
                landed: None,
            },
            Marker {
                path: "src/a.rs".into(),
                line: 2,
                text: "m".into(),
                issue: Some(IssueRef::here(8)),
                in_head_only: false,
                landed: None,
            },
            Marker {
                path: "src/a.rs".into(),
                line: 3,
                text: "m".into(),
                issue: None,
                in_head_only: false,
                landed: None,
            },
        ];
        let names: Vec<String> = issues_to_observe(&book, &markers).iter().map(ToString::to_string).collect();
        assert_eq!(names, ["#3", "#8", "acme/tools#9"]);
    }
}
