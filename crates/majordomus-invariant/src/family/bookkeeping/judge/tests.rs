//! The bookkeeping questions and acknowledgements, judged over readings
//! handed in directly.

use majordomus_readings::markers::Marker;
use majordomus_readings::status::{Dirty, WorkingTree};
use majordomus_readings::Unread;
use majordomus_records::forge::{Issue, Observation, FORGE_SCHEMA};
use majordomus_records::issue::IssueRef;
use majordomus_records::ledger::AgentTask;

use crate::answer::Status;
use crate::family::bookkeeping::ack::ack_evidence;
use crate::family::bookkeeping::made::Made;
use crate::family::bookkeeping::readings::{Acked, Claimed, Filed, ProcessSeen, Registered, TaskBook, Todo};
use crate::fixtures::{all_well, answer};
use crate::question::QuestionId;
use crate::readings::Readings;

const CLAIMED_AT: &str = "2026-11-30T10:00:00Z";
const LATER: &str = "2026-11-30T11:00:00Z";
const EARLIER: &str = "2026-11-30T09:00:00Z";

/// Readings where every bookkeeping reading was taken and found nothing.
fn books(book: TaskBook) -> Readings {
    let mut r = all_well();
    r.bookkeeping.book = Ok(book);
    r.bookkeeping.forge = Ok(None);
    r.bookkeeping.markers_added = Ok(vec![]);
    r.bookkeeping.register = None;
    r.bookkeeping.processes = Ok(vec![]);
    r.bookkeeping.made = Some(Ok(Made::default()));
    r
}

fn issue(repository: &str, number: u64, state: &str, labels: &[&str]) -> Issue {
    Issue {
        repository: repository.into(),
        number,
        state: state.into(),
        labels: labels.iter().map(|l| l.to_string()).collect(),
        is_pull_request: false,
        title: String::new(),
        became: None,
    }
}

fn observed(at: &str, issues: Vec<Issue>) -> Result<Option<Observation>, Unread> {
    Ok(Some(Observation {
        schema: FORGE_SCHEMA.into(),
        observed_at: at.into(),
        repository: "me/here".into(),
        pull_requests: vec![],
        issues,
        provenance: None,
    }))
}

fn claim(n: u64) -> Claimed {
    Claimed { issue: IssueRef::here(n), at: CLAIMED_AT.into(), released: false }
}

fn filed(n: u64) -> Filed {
    Filed { issue: IssueRef::here(n), at: CLAIMED_AT.into() }
}

/// The marker word, spelled so this file never holds a marker itself.
fn marker(path: &str, line: usize, number: Option<u64>) -> Marker {
    let text = match number {
        Some(n) => format!("{}(#{n})", ["LIMIT", "ATION"].concat()),
        None => format!("{}(later)", ["LIMIT", "ATION"].concat()),
    };
    Marker { path: path.into(), line, text, issue: number.map(IssueRef::here), in_head_only: false, landed: None }
}

// todos-done

#[test]
fn a_todo_not_done_is_owed_and_named_and_done_todos_pass() {
    let todo = |n, done| Todo { n, text: format!("step {n}"), done };
    let r = books(TaskBook { todos: vec![todo(1, true), todo(2, false)], ..TaskBook::default() });
    let a = answer(&r, "todos-done");
    assert_eq!(a.status, Status::Owed);
    assert!(a.evidence.contains("2 \"step 2\""), "{}", a.evidence);
    assert!(a.remedy.contains("majordomus todo done 2"), "{}", a.remedy);
    let r = books(TaskBook { todos: vec![todo(1, true), todo(2, true)], ..TaskBook::default() });
    assert_eq!(answer(&r, "todos-done").status, Status::Pass);
    assert_eq!(answer(&books(TaskBook::default()), "todos-done").status, Status::Pass);
}

#[test]
fn an_unreadable_ledger_leaves_every_bookkeeping_question_unknown() {
    let mut r = books(TaskBook::default());
    r.bookkeeping.book = Err(Unread::io("the ledger ledger.jsonl:3: not a ledger entry"));
    r.bookkeeping.processes = Err(Unread::io("the ledger ledger.jsonl:3: not a ledger entry"));
    for id in ["todos-done", "claims-released", "filings-closed", "no-background-work"] {
        let a = answer(&r, id);
        assert_eq!(a.status, Status::Unknown, "{id}");
        assert!(a.evidence.contains("ledger.jsonl:3"), "{id}: {}", a.evidence);
    }
}

// claims-released

#[test]
fn a_claim_is_settled_by_a_release_or_an_observed_close_and_owed_while_open() {
    let mut released = claim(3);
    released.released = true;
    let mut r = books(TaskBook { claims: vec![released, claim(4), claim(5)], ..TaskBook::default() });
    r.bookkeeping.forge = observed(LATER, vec![issue("me/here", 4, "closed", &[]), issue("me/here", 5, "open", &[])]);
    let a = answer(&r, "claims-released");
    assert_eq!(a.status, Status::Owed);
    assert!(a.evidence.contains("#5 is still open"), "{}", a.evidence);
    assert!(!a.evidence.contains("#4 is"), "{}", a.evidence);
    assert!(a.remedy.contains("majordomus issue release 5"), "{}", a.remedy);
    r.bookkeeping.forge = observed(LATER, vec![issue("me/here", 4, "closed", &[]), issue("me/here", 5, "closed", &[])]);
    assert_eq!(answer(&r, "claims-released").status, Status::Pass);
}

#[test]
fn a_claim_not_observed_since_it_was_made_is_unknown_and_says_so() {
    let mut r = books(TaskBook { claims: vec![claim(4)], ..TaskBook::default() });
    r.bookkeeping.forge = observed(EARLIER, vec![issue("me/here", 4, "closed", &[])]);
    let a = answer(&r, "claims-released");
    assert_eq!(a.status, Status::Unknown);
    assert!(a.evidence.contains("not observed since it was claimed"), "{}", a.evidence);
    assert!(a.remedy.contains("forge refresh"), "{}", a.remedy);
    r.bookkeeping.forge = Ok(None);
    let a = answer(&r, "claims-released");
    assert_eq!(a.status, Status::Unknown);
    assert!(a.evidence.contains("never observed"), "{}", a.evidence);
    r.bookkeeping.forge = observed(LATER, vec![]);
    assert_eq!(answer(&r, "claims-released").status, Status::Unknown);
}

#[test]
fn another_repositorys_issue_is_named_in_full_and_asked_of_that_repository() {
    let theirs = Claimed {
        issue: IssueRef { repo: Some("acme/tools".into()), number: 4 },
        at: CLAIMED_AT.into(),
        released: false,
    };
    let mut r = books(TaskBook { claims: vec![theirs], ..TaskBook::default() });
    // This repository's #4 is closed; acme/tools#4 is open.
    r.bookkeeping.forge =
        observed(LATER, vec![issue("me/here", 4, "closed", &[]), issue("acme/tools", 4, "open", &[])]);
    let a = answer(&r, "claims-released");
    assert_eq!(a.status, Status::Owed);
    assert!(a.evidence.contains("acme/tools#4 is still open"), "{}", a.evidence);
}

// filings-closed

#[test]
fn a_filed_issue_is_settled_when_closed_and_owed_while_open() {
    let mut r = books(TaskBook { filed: vec![filed(7)], ..TaskBook::default() });
    r.bookkeeping.register = Some(Ok(vec![]));
    r.bookkeeping.forge = observed(LATER, vec![issue("me/here", 7, "open", &[])]);
    assert_eq!(answer(&r, "filings-closed").status, Status::Owed);
    r.bookkeeping.forge = observed(LATER, vec![issue("me/here", 7, "closed", &[])]);
    assert_eq!(answer(&r, "filings-closed").status, Status::Pass);
    r.bookkeeping.forge = observed(EARLIER, vec![issue("me/here", 7, "closed", &[])]);
    let a = answer(&r, "filings-closed");
    assert_eq!(a.status, Status::Unknown);
    assert!(a.evidence.contains("not observed since it was filed"), "{}", a.evidence);
}

#[test]
fn a_registered_limitation_needs_both_the_label_and_a_marker_in_the_register() {
    let mut r = books(TaskBook { filed: vec![filed(7)], ..TaskBook::default() });
    r.bookkeeping.forge = observed(LATER, vec![issue("me/here", 7, "open", &["limitation"])]);
    // The label alone does not settle it.
    r.bookkeeping.register = Some(Ok(vec![marker("src/a.rs", 3, Some(8))]));
    let a = answer(&r, "filings-closed");
    assert_eq!(a.status, Status::Owed);
    assert!(a.evidence.contains("a label alone does not register it"), "{}", a.evidence);
    // Label and marker together do, and it still shows.
    r.bookkeeping.register = Some(Ok(vec![marker("src/a.rs", 3, Some(7))]));
    let a = answer(&r, "filings-closed");
    assert_eq!(a.status, Status::Pass);
    assert!(a.evidence.contains("registered limitation") && a.evidence.contains("src/a.rs:3"), "{}", a.evidence);
    // A marker without the label does not.
    r.bookkeeping.forge = observed(LATER, vec![issue("me/here", 7, "open", &[])]);
    assert_eq!(answer(&r, "filings-closed").status, Status::Owed);
    // A register that could not be read cannot register it.
    r.bookkeeping.forge = observed(LATER, vec![issue("me/here", 7, "open", &["limitation"])]);
    r.bookkeeping.register = Some(Err(Unread::io("the index could not be read")));
    assert_eq!(answer(&r, "filings-closed").status, Status::Unknown);
}

#[test]
fn a_pull_request_is_never_a_registered_limitation_even_labelled_and_named_by_a_marker() {
    let mut r = books(TaskBook { filed: vec![filed(8)], ..TaskBook::default() });
    let mut pr = issue("me/here", 8, "open", &["limitation"]);
    pr.is_pull_request = true;
    r.bookkeeping.forge = observed(LATER, vec![pr.clone()]);
    r.bookkeeping.register = Some(Ok(vec![marker("src/a.rs", 3, Some(8))]));
    let a = answer(&r, "filings-closed");
    assert_eq!(a.status, Status::Owed, "{}", a.evidence);
    assert!(a.evidence.contains("#8 is an open pull request"), "{}", a.evidence);
    // Closed (a merged one is recorded closed), it is settled like an issue.
    pr.state = "closed".into();
    r.bookkeeping.forge = observed(LATER, vec![pr]);
    assert_eq!(answer(&r, "filings-closed").status, Status::Pass);
}

// markers-live

#[test]
fn no_marker_added_passes_even_with_no_forge_observation() {
    let a = answer(&books(TaskBook::default()), "markers-live");
    assert_eq!(a.status, Status::Pass);
}

#[test]
fn a_marker_naming_a_live_limitation_passes_and_a_dead_one_is_refused_with_file_and_line() {
    let mut r = books(TaskBook::default());
    r.bookkeeping.markers_added = Ok(vec![marker("src/a.rs", 3, Some(7))]);
    r.bookkeeping.forge = observed(LATER, vec![issue("me/here", 7, "open", &["limitation"])]);
    assert_eq!(answer(&r, "markers-live").status, Status::Pass);
    let mut pr = issue("me/here", 7, "open", &["limitation"]);
    pr.is_pull_request = true;
    for (dead, why) in [
        (issue("me/here", 7, "closed", &["limitation"]), "is closed"),
        (issue("me/here", 7, "missing", &[]), "does not exist"),
        (issue("me/here", 7, "open", &[]), "not labelled limitation"),
        (pr, "is a pull request"),
    ] {
        r.bookkeeping.forge = observed(LATER, vec![dead]);
        let a = answer(&r, "markers-live");
        assert_eq!(a.status, Status::Refused, "{why}");
        assert!(a.evidence.contains("src/a.rs:3") && a.evidence.contains(why), "{why}: {}", a.evidence);
    }
}

#[test]
fn a_marker_with_no_number_is_refused_and_an_unobserved_forge_is_unknown() {
    let mut r = books(TaskBook::default());
    r.bookkeeping.markers_added = Ok(vec![marker("src/b.rs", 9, None)]);
    let a = answer(&r, "markers-live");
    assert_eq!(a.status, Status::Refused);
    assert!(a.evidence.contains("src/b.rs:9") && a.evidence.contains("names no issue number"), "{}", a.evidence);
    r.bookkeeping.markers_added = Ok(vec![marker("src/b.rs", 9, Some(7))]);
    let a = answer(&r, "markers-live");
    assert_eq!(a.status, Status::Unknown);
    assert!(a.evidence.contains("never observed"), "{}", a.evidence);
}

// no-background-work

#[test]
fn registered_work_still_running_is_owed_and_ended_work_passes() {
    let reg = |pid| Registered {
        pid,
        start_time: Some(1),
        what: Some("the build".into()),
        at: CLAIMED_AT.into(),
        forgotten: None,
        marker: None,
        children: Vec::new(),
    };
    let mut r = books(TaskBook { background: vec![reg(10), reg(11)], ..TaskBook::default() });
    r.bookkeeping.processes = Ok(vec![
        ProcessSeen { registered: reg(10), running: Ok(false), lasting: Vec::new() },
        ProcessSeen { registered: reg(11), running: Ok(true), lasting: Vec::new() },
    ]);
    let a = answer(&r, "no-background-work");
    assert_eq!(a.status, Status::Owed);
    assert!(a.evidence.contains("pid 11 (the build) still runs"), "{}", a.evidence);
    assert!(!a.evidence.contains("pid 10"), "{}", a.evidence);
    r.bookkeeping.processes = Ok(vec![
        ProcessSeen { registered: reg(10), running: Ok(true), lasting: Vec::new() },
        ProcessSeen { registered: reg(11), running: Ok(true), lasting: Vec::new() },
    ]);
    let a = answer(&r, "no-background-work");
    assert!(a.evidence.starts_with("2 pieces of background work are not over"), "{}", a.evidence);
    r.bookkeeping.processes = Ok(vec![
        ProcessSeen { registered: reg(10), running: Ok(false), lasting: Vec::new() },
        ProcessSeen {
            registered: reg(11),
            running: Err(Unread::io("/proc is not available here")),
            lasting: Vec::new(),
        },
    ]);
    assert_eq!(answer(&r, "no-background-work").status, Status::Unknown);
    r.bookkeeping.processes = Ok(vec![ProcessSeen { registered: reg(10), running: Ok(false), lasting: Vec::new() }]);
    assert_eq!(answer(&r, "no-background-work").status, Status::Pass);
}

#[test]
fn what_registered_work_started_still_running_after_it_ended_is_owed_naming_it() {
    use crate::family::bookkeeping::readings::Child;
    let reg = Registered {
        pid: 10,
        start_time: Some(1),
        what: Some("serve.sh".into()),
        at: CLAIMED_AT.into(),
        forgotten: None,
        marker: None,
        children: Vec::new(),
    };
    let server = Child { pid: 12, start_time: 2, name: "python3".into() };
    let mut r = books(TaskBook { background: vec![reg.clone()], ..TaskBook::default() });
    r.bookkeeping.processes =
        Ok(vec![ProcessSeen { registered: reg.clone(), running: Ok(false), lasting: vec![server.clone()] }]);
    let a = answer(&r, "no-background-work");
    assert_eq!(a.status, Status::Owed);
    assert!(
        a.evidence.contains("pid 10 (serve.sh) has ended, but what it started still runs: pid 12 (python3)"),
        "{}",
        a.evidence
    );
    r.bookkeeping.processes = Ok(vec![ProcessSeen { registered: reg, running: Ok(true), lasting: vec![server] }]);
    let a = answer(&r, "no-background-work");
    assert!(a.evidence.contains("still runs, and what it started: pid 12 (python3)"), "{}", a.evidence);
}

#[test]
fn work_forgotten_with_a_reason_while_it_runs_is_exempt_showing_it_and_never_hides_other_work() {
    let reg = |pid, forgotten: Option<&str>| Registered {
        pid,
        start_time: Some(1),
        what: None,
        at: CLAIMED_AT.into(),
        forgotten: forgotten.map(|w| (w.to_string(), LATER.to_string())),
        marker: None,
        children: Vec::new(),
    };
    let forgotten = reg(10, Some("the user's docs server"));
    let mut r = books(TaskBook { background: vec![forgotten.clone()], ..TaskBook::default() });
    r.bookkeeping.processes =
        Ok(vec![ProcessSeen { registered: forgotten.clone(), running: Ok(true), lasting: Vec::new() }]);
    let a = answer(&r, "no-background-work");
    assert_eq!(a.status, Status::Exempt);
    assert!(
        a.evidence.contains("pid 10 still runs, forgotten at") && a.evidence.contains("the user's docs server"),
        "{}",
        a.evidence
    );
    r.bookkeeping.processes = Ok(vec![
        ProcessSeen { registered: forgotten.clone(), running: Ok(true), lasting: Vec::new() },
        ProcessSeen { registered: reg(11, None), running: Ok(true), lasting: Vec::new() },
    ]);
    let a = answer(&r, "no-background-work");
    assert_eq!(a.status, Status::Owed);
    assert!(
        a.evidence.contains("pid 11 still runs") && a.evidence.contains("Forgotten while still running: pid 10"),
        "{}",
        a.evidence
    );
    r.bookkeeping.processes = Ok(vec![ProcessSeen { registered: forgotten, running: Ok(false), lasting: Vec::new() }]);
    assert_eq!(answer(&r, "no-background-work").status, Status::Pass);
}

#[test]
fn every_background_task_the_agent_reported_last_is_owed() {
    let tasks = vec![AgentTask { id: "b7".into(), description: Some("cargo test".into()) }];
    let r = books(TaskBook { agent_tasks: Some((LATER.into(), tasks)), ..TaskBook::default() });
    let a = answer(&r, "no-background-work");
    assert_eq!(a.status, Status::Owed);
    assert!(a.evidence.contains("agent task b7 (cargo test)"), "{}", a.evidence);
    let r = books(TaskBook { agent_tasks: Some((LATER.into(), vec![])), ..TaskBook::default() });
    assert_eq!(answer(&r, "no-background-work").status, Status::Pass);
}

// measurable

#[test]
fn a_declared_todo_makes_a_task_without_commits_measurable() {
    let todo = Todo { n: 1, text: "write the design".into(), done: false };
    let mut r = books(TaskBook::default());
    r.bookkeeping.commits_since_start = Ok((vec![], 0));
    let a = answer(&r, "measurable");
    assert_eq!(a.status, Status::Owed);
    assert!(a.evidence.starts_with("Nothing measurable"), "{}", a.evidence);
    assert!(a.remedy.contains("majordomus todo add"), "{}", a.remedy);
    r.bookkeeping.book = Ok(TaskBook { todos: vec![todo], ..TaskBook::default() });
    assert_eq!(answer(&r, "measurable").status, Status::Pass);
    // A todo is enough even when the commits could not be read.
    r.bookkeeping.commits_since_start = Err(Unread::io("the history could not be read"));
    assert_eq!(answer(&r, "measurable").status, Status::Pass);
    r.bookkeeping.book = Ok(TaskBook::default());
    assert_eq!(answer(&r, "measurable").status, Status::Unknown);
}

#[test]
fn no_commit_since_the_start_is_nothing_measurable() {
    let mut r = all_well();
    r.bookkeeping.commits_since_start = Ok((vec![], 0));
    r.bookkeeping.book = Ok(Default::default());
    let a = answer(&r, "measurable");
    assert_eq!(a.status, Status::Owed);
    assert!(a.evidence.starts_with("Nothing measurable"), "{}", a.evidence);
}

#[test]
fn commits_that_change_nothing_are_not_measurable() {
    let mut r = all_well();
    r.bookkeeping.book = Ok(Default::default());
    r.bookkeeping.tree_changed = Ok(false);
    let a = answer(&r, "measurable");
    assert_eq!(a.status, Status::Owed);
    assert!(a.evidence.contains("its tree changes no path from the start commit's"), "{}", a.evidence);
    r.bookkeeping.tree_changed = Err(Unread::io("the trees could not be read"));
    assert_eq!(answer(&r, "measurable").status, Status::Unknown);
    r.bookkeeping.tree_changed = Ok(true);
    assert_eq!(answer(&r, "measurable").status, Status::Pass);
}

#[test]
fn commits_a_fetch_brought_are_not_the_tasks_but_its_own_work_brought_back_is() {
    let mut r = all_well();
    r.bookkeeping.book = Ok(Default::default());
    r.bookkeeping.commits_since_start = Ok((vec![], 0));
    r.bookkeeping.tree_changed = Ok(false);
    let arrived = |made_elsewhere| crate::family::bookkeeping::readings::Arrived {
        commits: vec!["c".repeat(40)],
        count: 1,
        made_elsewhere,
    };
    r.bookkeeping.arrived = Some(arrived(0));
    let a = answer(&r, "measurable");
    assert_eq!(a.status, Status::Owed);
    assert!(
        a.evidence.contains("HEAD holds 1 commit a fetch brought, which is not the task's: cccccccccccc"),
        "{}",
        a.evidence
    );
    assert_eq!(a.details["arrived"], 1);
    // The task's branch squash-merged on the forge and fetched back onto HEAD.
    r.bookkeeping.arrived = Some(arrived(1));
    r.bookkeeping.tree_changed = Ok(true);
    let a = answer(&r, "measurable");
    assert_eq!(a.status, Status::Pass, "{}", a.evidence);
    assert!(
        a.evidence.contains("the changes of 1 commit this worktree made since the start on another branch"),
        "{}",
        a.evidence
    );
    // Its own commits on HEAD are counted, the arrived ones said apart.
    r.bookkeeping.commits_since_start = Ok((vec!["a".repeat(40)], 1));
    let a = answer(&r, "measurable");
    assert!(
        a.evidence.starts_with("HEAD holds 1 commit made since the start (and 1 commit a fetch brought"),
        "{}",
        a.evidence
    );
}

// acknowledgements

fn dirty(paths: &[&str]) -> Result<WorkingTree, Unread> {
    Ok(WorkingTree {
        dirty: paths.iter().map(|p| Dirty { path: (*p).into(), index: None, deleted: false }).collect(),
        ..WorkingTree::default()
    })
}

fn ack(question: &str, evidence: &[&str]) -> Acked {
    Acked {
        question: question.into(),
        why: "a peer's version bump".into(),
        evidence: evidence.iter().map(|e| e.to_string()).collect(),
        content: Default::default(),
        at: LATER.into(),
    }
}

#[test]
fn an_ack_exempts_exactly_the_set_it_names_and_one_more_path_brings_the_question_back() {
    let mut r = books(TaskBook { acks: vec![ack("committed", &["Cargo.toml", "Cargo.lock"])], ..TaskBook::default() });
    r.tree = dirty(&["Cargo.lock", "Cargo.toml"]);
    let a = answer(&r, "committed");
    assert_eq!(a.status, Status::Exempt);
    assert!(a.evidence.contains("a peer's version bump"), "{}", a.evidence);
    assert_eq!(a.details["acknowledged"][0]["why"], "a peer's version bump");
    // One path more than was acknowledged: owed again, and it is named.
    r.tree = dirty(&["Cargo.lock", "Cargo.toml", "src/lib.rs"]);
    let a = answer(&r, "committed");
    assert_eq!(a.status, Status::Owed);
    assert!(a.evidence.contains("never acknowledged") && a.evidence.ends_with("src/lib.rs."), "{}", a.evidence);
}

#[test]
fn an_ack_never_covers_what_the_task_made_and_says_so() {
    let mut r = books(TaskBook { acks: vec![ack("committed", &["src/lib.rs", "Cargo.toml"])], ..TaskBook::default() });
    r.tree = dirty(&["src/lib.rs", "Cargo.toml"]);
    r.bookkeeping.made = Some(Ok(Made { paths: ["src/lib.rs".to_string()].into(), ..Made::default() }));
    let a = answer(&r, "committed");
    assert_eq!(a.status, Status::Owed);
    assert!(a.evidence.contains("never covers") && a.evidence.contains("src/lib.rs"), "{}", a.evidence);
    assert_eq!(a.details["not_coverable"][0]["item"], "src/lib.rs");
    // What the task made cannot be read: the acknowledgement cannot be checked, so it does not exempt.
    r.bookkeeping.made = Some(Err(Unread::io("HEAD's reflog cannot be read")));
    r.tree = dirty(&["Cargo.toml"]);
    let a = answer(&r, "committed");
    assert_eq!(a.status, Status::Owed);
    assert!(a.evidence.contains("HEAD's reflog cannot be read"), "{}", a.evidence);
    // A branch this worktree checked out is the task's too.
    let mut r = accumulated(&["mine"], &[]);
    r.bookkeeping.book =
        Ok(TaskBook { acks: vec![ack("nothing-accumulated", &["branch mine"])], ..TaskBook::default() });
    r.bookkeeping.made = Some(Ok(Made { branches: ["mine".to_string()].into(), ..Made::default() }));
    assert_eq!(answer(&r, "nothing-accumulated").status, Status::Owed);
}

#[test]
fn an_ack_applies_only_to_its_own_question() {
    let mut r = books(TaskBook { acks: vec![ack("no-untracked", &["notes.txt"])], ..TaskBook::default() });
    r.tree = dirty(&["notes.txt"]);
    assert_eq!(answer(&r, "committed").status, Status::Owed);
    r.tree = Ok(WorkingTree { untracked: vec!["notes.txt".into()], ..WorkingTree::default() });
    assert_eq!(answer(&r, "no-untracked").status, Status::Exempt);
}

#[test]
fn only_the_acknowledgeable_questions_have_an_evidence_set() {
    let details = serde_json::json!({ "uncommitted": ["a", "b"], "untracked": ["c"] });
    assert_eq!(ack_evidence(QuestionId::Committed, &details), Some(["a".to_string(), "b".to_string()].into()));
    assert_eq!(ack_evidence(QuestionId::NoUntracked, &details), Some(["c".to_string()].into()));
    assert_eq!(ack_evidence(QuestionId::Pushed, &details), None);
}

/// Readings where `branches` (and `worktrees`, at /tmp/NAME) were made
/// after the start, dated by their reflogs (the record holds no snapshot).
fn accumulated(branches: &[&str], worktrees: &[&str]) -> Readings {
    use crate::family::closing::readings::{Accumulated, Made};
    let made = |name: &&str, at: String| Made {
        name: name.to_string(),
        at,
        dating: majordomus_readings::reflog::Dating::FirstLogged(
            chrono::DateTime::parse_from_rfc3339(LATER).expect("a time").with_timezone(&chrono::Utc),
        ),
        missing: false,
        detached: false,
        written: None,
    };
    let mut r = books(TaskBook::default());
    r.closing.accumulated = Ok(Accumulated {
        remote_branches: Vec::new(),
        aliases: Vec::new(),
        unchanged_branches: 0,
        branches: branches.iter().map(|b| made(b, "c".repeat(40))).collect(),
        worktrees: worktrees.iter().map(|w| made(w, format!("/tmp/{w}"))).collect(),
    });
    r
}

#[test]
fn the_evidence_of_nothing_accumulated_is_each_created_branch_and_worktree_by_kind_and_name() {
    let r = accumulated(&["side"], &["side"]);
    let a = answer(&r, "nothing-accumulated");
    assert_eq!(a.status, Status::Owed, "{}", a.evidence);
    assert_eq!(
        ack_evidence(QuestionId::NothingAccumulated, &a.details),
        Some(["branch side".to_string(), "worktree side".to_string()].into())
    );
}

#[test]
fn an_acknowledged_branch_is_exempt_with_its_reason_and_one_more_branch_brings_the_question_back() {
    let mut r = accumulated(&["peer-work"], &[]);
    r.bookkeeping.book =
        Ok(TaskBook { acks: vec![ack("nothing-accumulated", &["branch peer-work"])], ..TaskBook::default() });
    let a = answer(&r, "nothing-accumulated");
    assert_eq!(a.status, Status::Exempt, "{}", a.evidence);
    assert!(a.evidence.contains("a peer's version bump"), "{}", a.evidence);
    assert_eq!(a.details["acknowledged"][0]["evidence"][0], "branch peer-work");
    // A worktree of the same name is another item, never acknowledged.
    let mut more = accumulated(&["peer-work"], &["peer-work"]);
    more.bookkeeping.book = r.bookkeeping.book.clone();
    let a = answer(&more, "nothing-accumulated");
    assert_eq!(a.status, Status::Owed, "{}", a.evidence);
    assert!(a.evidence.ends_with("never acknowledged as not this task's work: worktree peer-work."), "{}", a.evidence);
    // One branch more: owed again, the whole set named, the new one called out.
    let mut more = accumulated(&["peer-work", "mine"], &[]);
    more.bookkeeping.book = r.bookkeeping.book.clone();
    let a = answer(&more, "nothing-accumulated");
    assert_eq!(a.status, Status::Owed, "{}", a.evidence);
    assert!(a.evidence.contains("branch peer-work, branch mine"), "{}", a.evidence);
    assert!(a.evidence.ends_with("never acknowledged as not this task's work: branch mine."), "{}", a.evidence);
}

#[test]
fn an_acknowledged_answer_no_longer_holds_the_score_down_and_a_new_path_does_again() {
    let policy = majordomus_records::policy::Policy::default();
    let caps_of = |r: &Readings| {
        let answers = crate::done::answer_all(r, &policy);
        crate::score::score(&answers, &policy.caps).1.into_iter().map(|c| c.id).collect::<Vec<_>>()
    };
    let mut r = books(TaskBook { acks: vec![ack("committed", &["Cargo.toml"])], ..TaskBook::default() });
    r.tree = dirty(&["Cargo.toml"]);
    assert!(!caps_of(&r).contains(&"committed".to_string()));
    r.tree = dirty(&["Cargo.toml", "src/lib.rs"]);
    assert!(caps_of(&r).contains(&"committed".to_string()));
}
