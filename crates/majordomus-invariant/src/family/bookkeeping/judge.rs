//! The bookkeeping family judged: `todos-done`, `claims-released`,
//! `filings-closed`, `markers-live`, `no-background-work`, `measurable`.
//! No I/O.
//!
//! Each question weighs a list of items (a todo, a claim, a filing, a
//! marker, a process) one by one, then answers with the gravest: a refused
//! item refuses the question, else an owed one owes it, else an unknown one
//! leaves it unknown. Every item not settled is named with why.

use serde_json::json;

use majordomus_readings::Unread;
use majordomus_records::forge::Issue;
use majordomus_records::issue::IssueRef;

use super::readings::TaskBook;
use crate::answer::Status;
use crate::judgement::Judgement;
use crate::prose::{count, names, sentence, short};
use crate::readings::Readings;

/// The label that makes an open issue a register entry.
pub const LIMITATION_LABEL: &str = "limitation";

/// One item weighed: what it is, how it stands, and why.
struct Item {
    name: String,
    status: Status,
    why: String,
}

impl Item {
    fn new(name: impl Into<String>, status: Status, why: impl Into<String>) -> Self {
        Self { name: name.into(), status, why: why.into() }
    }

    fn json(&self) -> serde_json::Value {
        json!({ "name": self.name, "status": self.status, "why": self.why })
    }
}

/// The gravest status among the items; `pass` when every one is settled.
fn gravest(items: &[Item]) -> Status {
    [Status::Refused, Status::Owed, Status::Unknown]
        .into_iter()
        .find(|s| items.iter().any(|i| i.status == *s))
        .unwrap_or(Status::Pass)
}

/// `#4 is open (observed …); #5 was not observed since it was claimed`.
fn describe(items: &[&Item]) -> String {
    const SHOWN: usize = 5;
    let mut parts: Vec<String> = items.iter().take(SHOWN).map(|i| format!("{} {}", i.name, i.why)).collect();
    if items.len() > SHOWN {
        parts.push(format!("and {} more", items.len() - SHOWN));
    }
    parts.join("; ")
}

/// `1 issue the task claimed is`, or `2 of the 3 issues the task claimed are`.
fn some_of(open: usize, total: usize, noun: &str, tail: &str) -> String {
    let verb = if open == 1 { "is" } else { "are" };
    if open == total {
        format!("{} {tail} {verb}", count(total, noun))
    } else {
        format!("{open} of the {} {tail} {verb}", count(total, noun))
    }
}

fn book(r: &Readings) -> Result<&TaskBook, &Unread> {
    r.bookkeeping.book.as_ref()
}

/// What the forge observation says of one issue, asked for as of `since`
/// (an RFC 3339 time; `None`: any observation will do).
enum Seen<'a> {
    Issue { issue: &'a Issue, observed_at: &'a str },
    Not(String),
}

fn seen<'a>(r: &'a Readings, issue: &IssueRef, since: Option<&str>, what: &str) -> Seen<'a> {
    let obs = match &r.bookkeeping.forge {
        Err(e) => return Seen::Not(format!("cannot be asked: {}", e.reason)),
        Ok(None) => return Seen::Not("was not observed: the forge was never observed here".into()),
        Ok(Some(obs)) => obs,
    };
    // The policy's `[forge] max_age_minutes` bounds how old an observation
    // may be and still count, for the issue questions as for the backlog.
    if let Ok(backlog) = &r.closing.backlog {
        if let (Some(max), Some(observed)) = (backlog.max_age_minutes, obs.observed_at()) {
            let age = (backlog.read_at - observed.with_timezone(&chrono::Utc)).num_minutes();
            if age > i64::try_from(max).unwrap_or(i64::MAX) {
                return Seen::Not(format!(
                    "was observed at {}, {age} minutes ago, older than the policy's [forge] max_age_minutes = {max}",
                    obs.observed_at
                ));
            }
        }
    }
    if let Some(since) = since {
        let after = match (obs.observed_at(), chrono::DateTime::parse_from_rfc3339(since)) {
            (Some(seen), Ok(at)) => Some(seen >= at),
            _ => None,
        };
        match after {
            Some(true) => {}
            Some(false) => {
                return Seen::Not(format!(
                    "was not observed since it was {what}: the forge was observed at {}, before {since}",
                    obs.observed_at
                ))
            }
            None => return Seen::Not(format!("cannot be dated against the observation of {}", obs.observed_at)),
        }
    }
    let repository = issue.repository(&obs.repository);
    match obs.issues.iter().find(|i| i.number == issue.number && i.repository.eq_ignore_ascii_case(repository)) {
        Some(found) => Seen::Issue { issue: found, observed_at: &obs.observed_at },
        None => Seen::Not(format!(
            "is not in the forge observation of {}: it was not asked about {repository}#{}",
            obs.observed_at, issue.number
        )),
    }
}

/// `why` said of an issue the forge closed by moving it or as a
/// duplicate: what was read is the issue it became.
fn through(issue: &Issue, (status, why): (Status, String)) -> (Status, String) {
    match &issue.became {
        Some(b) => (
            status,
            format!(
                "was closed by moving it or as a duplicate, and lives on as {}, which {why}",
                majordomus_records::text::escape(b)
            ),
        ),
        None => (status, why),
    }
}

fn labelled(issue: &Issue) -> bool {
    issue.labels.iter().any(|l| l.eq_ignore_ascii_case(LIMITATION_LABEL))
}

fn unread_item(reason: String) -> (Status, String) {
    (Status::Unknown, reason)
}

pub(crate) fn todos_done(r: &Readings) -> Judgement {
    let book = match book(r) {
        Ok(b) => b,
        Err(e) => return Judgement::unread(e),
    };
    let open: Vec<_> = book.todos.iter().filter(|t| !t.done).collect();
    let details = json!({
        "todos": book.todos.iter().map(|t| json!({ "n": t.n, "text": t.text, "done": t.done })).collect::<Vec<_>>(),
        "open": open.iter().map(|t| t.n).collect::<Vec<_>>(),
    });
    if book.todos.is_empty() {
        return Judgement::new(Status::Pass, "The ledger holds no todo declared for the task.", details);
    }
    if open.is_empty() {
        return Judgement::new(
            Status::Pass,
            format!("All {} declared for the task are done.", count(book.todos.len(), "todo")),
            details,
        );
    }
    let named: Vec<String> = open.iter().map(|t| format!("{} {:?}", t.n, t.text)).collect();
    Judgement::new(
        Status::Owed,
        format!(
            "{} not done: {}.",
            some_of(open.len(), book.todos.len(), "todo", "declared for the task"),
            names(&named)
        ),
        details,
    )
    .remedy(format!("finish the work, then majordomus todo done {}", open[0].n))
}

pub(crate) fn claims_released(r: &Readings) -> Judgement {
    let book = match book(r) {
        Ok(b) => b,
        Err(e) => return Judgement::unread(e),
    };
    if book.claims.is_empty() {
        return Judgement::new(Status::Pass, "The ledger holds no issue claimed by the task.", json!({ "claims": [] }));
    }
    let items: Vec<Item> = book
        .claims
        .iter()
        .map(|c| {
            let name = c.issue.to_string();
            if c.released {
                return Item::new(name, Status::Pass, "was released");
            }
            let (status, why) = match seen(r, &c.issue, Some(&c.at), "claimed") {
                Seen::Not(why) => unread_item(why),
                Seen::Issue { issue, observed_at } => through(
                    issue,
                    match issue.state.as_str() {
                        "closed" => (Status::Pass, format!("is closed (observed {observed_at})")),
                        "open" => (Status::Owed, format!("is still open and held (observed {observed_at})")),
                        "missing" => (
                            Status::Owed,
                            format!("does not exist on the forge (observed {observed_at}), and the claim is held"),
                        ),
                        other => unread_item(format!("has a state the observation does not explain: {other:?}")),
                    },
                ),
            };
            Item::new(name, status, why)
        })
        .collect();
    over_issues(items, "claims", "the task claimed", "closed or released", |open| {
        format!(
            "close {0} or majordomus issue release {1}, then majordomus forge refresh",
            open.name,
            ledger_name(&open.name)
        )
    })
}

/// The answer over a set of issues, each judged: pass when every one is
/// settled, else the gravest status, naming the open ones; an unknown one
/// asks for a refresh, any other gets `remedy` for the first open issue.
fn over_issues(
    items: Vec<Item>,
    key: &str,
    whose: &str,
    settled: &str,
    remedy: impl FnOnce(&Item) -> String,
) -> Judgement {
    let status = gravest(&items);
    let open: Vec<&Item> = items.iter().filter(|i| !i.status.is_settled()).collect();
    let details = json!({ key: items.iter().map(Item::json).collect::<Vec<_>>() });
    if open.is_empty() {
        return Judgement::new(
            Status::Pass,
            format!(
                "Every one of the {} {whose} is {settled}: {}.",
                count(items.len(), "issue"),
                describe(&items.iter().collect::<Vec<_>>())
            ),
            details,
        );
    }
    let remedy = match status {
        Status::Unknown => "majordomus forge refresh, then majordomus check".to_string(),
        _ => remedy(open[0]),
    };
    Judgement::new(
        status,
        format!("{} not shown {settled}: {}.", some_of(open.len(), items.len(), "issue", whose), describe(&open)),
        details,
    )
    .remedy(remedy)
}

/// `#4` → `4`; `acme/x#4` stays.
fn ledger_name(display: &str) -> &str {
    display.strip_prefix('#').unwrap_or(display)
}

pub(crate) fn filings_closed(r: &Readings) -> Judgement {
    let book = match book(r) {
        Ok(b) => b,
        Err(e) => return Judgement::unread(e),
    };
    if book.filed.is_empty() {
        return Judgement::new(Status::Pass, "The ledger holds no issue filed by the task.", json!({ "filed": [] }));
    }
    let here = match &r.bookkeeping.forge {
        Ok(Some(obs)) => Some(obs.repository.as_str()),
        _ => None,
    };
    let items: Vec<Item> = book
        .filed
        .iter()
        .map(|f| {
            let name = f.issue.to_string();
            let (status, why) = match seen(r, &f.issue, Some(&f.at), "filed") {
                Seen::Not(why) => unread_item(why),
                Seen::Issue { issue, observed_at } => through(issue, match (issue.state.as_str(), labelled(issue)) {
                    ("closed", _) => (Status::Pass, format!("is closed (observed {observed_at})")),
                    ("missing", _) => (Status::Owed, format!("does not exist on the forge (observed {observed_at})")),
                    ("open", false) => (Status::Owed, format!("is still open (observed {observed_at})")),
                    // A marker naming a pull request is refused, so a pull
                    // request is never a registered limitation.
                    ("open", true) if issue.is_pull_request => (
                        Status::Owed,
                        format!("is an open pull request (observed {observed_at}), which cannot be registered as a limitation"),
                    ),
                    ("open", true) => registered(r, &f.issue, here, observed_at),
                    (other, _) => unread_item(format!("has a state the observation does not explain: {other:?}")),
                }),
            };
            Item::new(name, status, why)
        })
        .collect();
    over_issues(items, "filed", "the task filed", "closed or registered as a limitation", |open| {
        format!(
            "fix and close {0}; or, if it cannot be fixed here, label it {LIMITATION_LABEL} and name it in a marker in a file the register scans (majordomus markers scope)",
            open.name
        )
    })
}

/// An open filed issue labelled `limitation`: a registered limitation only
/// when a marker in a file the register scans names it too.
fn registered(r: &Readings, issue: &IssueRef, here: Option<&str>, observed_at: &str) -> (Status, String) {
    let markers = match &r.bookkeeping.register {
        Some(Ok(m)) => m,
        Some(Err(e)) => {
            return unread_item(format!(
                "is labelled {LIMITATION_LABEL}, but the register could not be read: {}",
                e.reason
            ))
        }
        None => return unread_item(format!("is labelled {LIMITATION_LABEL}, but the register was not read")),
    };
    let want = issue.relative_to(here);
    match markers.iter().find(|m| m.issue.as_ref().is_some_and(|i| i.relative_to(here) == want)) {
        Some(m) => (
            Status::Pass,
            format!("is a registered limitation: open, labelled {LIMITATION_LABEL} (observed {observed_at}) and named at {}:{}", m.path, m.line),
        ),
        None => (
            Status::Owed,
            format!("is open and labelled {LIMITATION_LABEL} (observed {observed_at}), but no marker in a file the register scans names it, in the working tree and in HEAD's commit alike: a label alone does not register it, nor a marker no commit holds"),
        ),
    }
}

pub(crate) fn markers_live(r: &Readings) -> Judgement {
    let added = match &r.bookkeeping.markers_added {
        Ok(m) => m,
        Err(e) => return Judgement::unread(e),
    };
    if added.is_empty() {
        return Judgement::new(
            Status::Pass,
            "No limitation marker was added since the start in a file the register scans.",
            json!({ "markers": [] }),
        );
    }
    let items: Vec<Item> = added
        .iter()
        .map(|m| {
            let name = match (&m.landed, m.in_head_only) {
                (Some(commit), _) => format!(
                    "{}:{} {} (on the trunk, added by {}, a commit made here since the start that HEAD does not hold)",
                    m.path,
                    m.line,
                    m.text,
                    short(commit)
                ),
                (None, true) => format!(
                    "{}:{} {} (as HEAD's commit holds it; the working tree's file does not)",
                    m.path, m.line, m.text
                ),
                (None, false) => format!("{}:{} {}", m.path, m.line, m.text),
            };
            let Some(issue) = &m.issue else {
                return Item::new(name, Status::Refused, "names no issue number");
            };
            let (status, why) = match seen(r, issue, None, "named") {
                Seen::Not(why) => (Status::Unknown, format!("names {issue}, which {why}")),
                Seen::Issue { issue: found, observed_at } => {
                    let dead = match (found.state.as_str(), found.is_pull_request, labelled(found)) {
                        ("missing", _, _) => Some("does not exist"),
                        (_, true, _) => Some("is a pull request, not an issue"),
                        ("closed", _, _) => Some("is closed"),
                        ("open", false, false) => Some("is open but not labelled limitation"),
                        ("open", false, true) => None,
                        _ => Some("has a state the observation does not explain"),
                    };
                    match dead {
                        None => (
                            Status::Pass,
                            format!("names {issue}, open and labelled {LIMITATION_LABEL} (observed {observed_at})"),
                        ),
                        Some(d) => (Status::Refused, format!("names {issue}, which {d} (observed {observed_at})")),
                    }
                }
            };
            Item::new(name, status, why)
        })
        .collect();
    let status = gravest(&items);
    let open: Vec<&Item> = items.iter().filter(|i| !i.status.is_settled()).collect();
    let details = json!({
        "markers": added.iter().zip(&items).map(|(m, i)| json!({
            "path": m.path, "line": m.line, "text": m.text, "in_head_only": m.in_head_only, "landed_by": m.landed,
            "issue": m.issue.as_ref().map(ToString::to_string), "status": i.status, "why": i.why,
        })).collect::<Vec<_>>(),
    });
    if open.is_empty() {
        return Judgement::new(
            Status::Pass,
            format!(
                "Every one of the {} added since the start names a live issue: {}.",
                count(items.len(), "limitation marker"),
                describe(&items.iter().collect::<Vec<_>>())
            ),
            details,
        );
    }
    let remedy = match status {
        Status::Unknown => "majordomus forge refresh, then majordomus check".to_string(),
        _ => format!("point each marker at an open issue labelled {LIMITATION_LABEL} (or remove it once the gap is fixed), starting with {}", open[0].name),
    };
    Judgement::new(
        status,
        format!(
            "{} {}: {}.",
            some_of(open.len(), items.len(), "limitation marker", "added since the start"),
            match status {
                Status::Unknown => "not verified live",
                _ => "not live",
            },
            describe(&open)
        ),
        details,
    )
    .remedy(remedy)
}

pub(crate) fn no_background_work(r: &Readings) -> Judgement {
    use super::background::describe_lasting;
    let (book, processes) = match (book(r), &r.bookkeeping.processes) {
        (Ok(b), Ok(p)) => (b, p),
        (Err(e), _) | (_, Err(e)) => return Judgement::unread(e),
    };
    let mut items: Vec<Item> = processes
        .iter()
        .map(|p| {
            let reg = &p.registered;
            let name = match &reg.what {
                Some(w) => format!("pid {} ({w})", reg.pid),
                None => format!("pid {}", reg.pid),
            };
            // What it started counts as it while it runs (test/cases/644).
            let runs = match (&p.running, p.lasting.is_empty()) {
                (_, true) => "still runs".to_string(),
                (Ok(true), false) => format!("still runs, and what it started: {}", describe_lasting(&p.lasting)),
                (_, false) => format!("has ended, but what it started still runs: {}", describe_lasting(&p.lasting)),
            };
            match (&p.runs(), &reg.forgotten) {
                (Ok(true), Some((why, at))) => Item::new(
                    name,
                    Status::Exempt,
                    format!("{runs}, forgotten at {at} as not the task's to end: {why:?}"),
                ),
                (Ok(true), None) => Item::new(name, Status::Owed, runs),
                (Ok(false), _) => Item::new(name, Status::Pass, "has ended"),
                (Err(e), _) => Item::new(name, Status::Unknown, format!("cannot be read: {}", e.reason)),
            }
        })
        .collect();
    let mut reported_at = None;
    if let Some((at, tasks)) = &book.agent_tasks {
        reported_at = Some(at.as_str());
        items.extend(tasks.iter().map(|t| {
            let name = match &t.description {
                Some(d) => format!("agent task {} ({d})", t.id),
                None => format!("agent task {}", t.id),
            };
            Item::new(name, Status::Owed, format!("was still running when the agent reported at {at}"))
        }));
    }
    let details = json!({ "work": items.iter().map(Item::json).collect::<Vec<_>>(), "agent_reported_at": reported_at });
    if items.is_empty() {
        return Judgement::new(
            Status::Pass,
            "The ledger holds no background work registered for the task, and no agent reported any running.",
            details,
        );
    }
    let status = gravest(&items);
    let open: Vec<&Item> = items.iter().filter(|i| !i.status.is_settled()).collect();
    let forgotten: Vec<&Item> = items.iter().filter(|i| i.status == Status::Exempt).collect();
    if open.is_empty() && !forgotten.is_empty() {
        // Like an acknowledgement: what still runs is named with the reason
        // it was forgotten, never passed over in silence.
        return Judgement::new(
            Status::Exempt,
            format!(
                "{} of background work {} forgotten while {}: {}.",
                count(forgotten.len(), "piece"),
                if forgotten.len() == 1 { "was" } else { "were" },
                if forgotten.len() == 1 { "it still runs" } else { "they still run" },
                describe(&forgotten)
            ),
            details,
        );
    }
    if open.is_empty() {
        return Judgement::new(
            Status::Pass,
            format!(
                "{} of background work registered for the task {}: {}.",
                match items.len() {
                    1 => "The one piece".to_string(),
                    n => format!("All {n} pieces"),
                },
                if items.len() == 1 { "has ended" } else { "have ended" },
                describe(&items.iter().collect::<Vec<_>>())
            ),
            details,
        );
    }
    let also = match forgotten.is_empty() {
        true => String::new(),
        false => format!(" Forgotten while still running: {}.", describe(&forgotten)),
    };
    Judgement::new(
        status,
        format!(
            "{} of background work {}: {}.{also}",
            count(open.len(), "piece"),
            match (status == Status::Unknown, open.len() == 1) {
                (true, _) => "cannot be read",
                (false, true) => "is not over",
                (false, false) => "are not over",
            },
            describe(&open)
        ),
        details,
    )
}

/// Whether the task declared at least one todo (for `measurable`).
pub(crate) fn todos_declared(r: &Readings) -> Result<usize, &Unread> {
    book(r).map(|b| b.todos.len())
}

/// A commit that changes something, or a declared todo, makes the task
/// measurable; either one is enough, so one unread reading does not hide
/// the other. Commits whose tree changes no path from the start commit's
/// (`git commit --allow-empty`, work and its revert, or an empty directory
/// added with `git mktree`) change nothing to measure.
///
/// Commits a fetch brought onto HEAD since the start are not the task's
/// (a colleague's, pulled): not counted, and said; and the task's own
/// change something only at a path where HEAD holds neither the start's
/// content nor what the newest of them hold (its work and its revert,
/// rebased over a colleague's edit of the same file, change nothing:
/// test/cases/521). Commits this worktree
/// made on another branch whose changes a fetch brought back onto HEAD
/// (merged or squash-merged on the forge) are.
pub(crate) fn measurable(r: &Readings) -> Judgement {
    let commits = r.bookkeeping.commits_since_start.as_ref().map(|(listed, n)| (listed, *n));
    let changed = r.bookkeeping.tree_changed.as_ref().copied();
    let todos = todos_declared(r);
    let arrived = r.bookkeeping.arrived.as_ref();
    let mut details = json!({
        "commits": commits.as_ref().ok().map(|c| c.1),
        "listed": commits.as_ref().ok().map(|c| c.0),
        "tree_changed": changed.as_ref().ok(),
        "todos": todos.as_ref().ok(),
    });
    if let Some(a) = arrived {
        details["arrived"] = json!(a.count);
        details["arrived_listed"] = json!(a.commits);
    }
    let not_counted = match arrived {
        Some(a) => format!(" (and {} a fetch brought, not the task's, not counted)", count(a.count, "commit")),
        None => String::new(),
    };
    let made = match (&commits, &changed, arrived) {
        (Ok((_, n)), Ok(true), _) if *n > 0 => {
            Some(format!("HEAD holds {} made since the start{not_counted}", count(*n, "commit")))
        }
        (Ok(_), Ok(true), Some(a)) if a.made_elsewhere > 0 => Some(format!(
            "HEAD holds the changes of {} this worktree made since the start on another branch, which a fetch brought back onto it (merged or squash-merged on the forge){not_counted}",
            count(a.made_elsewhere, "commit")
        )),
        _ => None,
    };
    // Commits that change nothing: said, and not counted.
    let empty = match (&commits, &changed) {
        (Ok((_, n)), Ok(false)) if *n > 0 => Some(*n),
        _ => None,
    };
    let commits = match (commits, changed) {
        (Ok(c), Ok(_)) => Ok(c),
        (Err(e), _) | (_, Err(e)) => Err(e),
    };
    let declared = match todos {
        Ok(n) if n > 0 => Some(format!("the task declared {}", count(n, "todo"))),
        _ => None,
    };
    match (made, declared, commits, todos) {
        (Some(m), Some(d), _, _) => Judgement::new(Status::Pass, format!("{m}, and {d}."), details),
        (Some(s), None, _, _) | (None, Some(s), _, _) => Judgement::new(Status::Pass, sentence(&s), details),
        (None, None, Err(e), _) | (None, None, _, Err(e)) => Judgement::unread(e),
        (None, None, Ok(_), Ok(_)) => match empty {
            // Where a fetch brought commits, a path HEAD holds as the newest
            // of them do is theirs (test/cases/521).
            Some(n) if arrived.is_some() => Judgement::new(
                Status::Owed,
                format!(
                    "Nothing measurable: HEAD holds {} made since the start{not_counted}, but at every path they changed its tree holds what the start commit or a commit a fetch brought holds (empty commits, work undone beside a colleague's pulled edit, or a change to the policy file alone, which is the task's rules, not its work), so they change nothing; and no todo is declared.",
                    count(n, "commit")
                ),
                details,
            ),
            Some(n) => Judgement::new(
                Status::Owed,
                format!(
                    "Nothing measurable: HEAD holds {} made since the start, but its tree changes no path from the start commit's other than the policy file (empty commits, an empty directory, work undone, or the policy alone edited: the task's rules, not its work), so they change nothing; and no todo is declared.",
                    count(n, "commit")
                ),
                details,
            ),
            None => match arrived {
                Some(a) => Judgement::new(
                    Status::Owed,
                    format!(
                        "Nothing measurable: no commit the task made since the start (HEAD holds {} a fetch brought, which {} not the task's: {}) and no todo declared.",
                        count(a.count, "commit"),
                        if a.count == 1 { "is" } else { "are" },
                        names(&a.commits.iter().map(|c| short(c).to_string()).collect::<Vec<_>>())
                    ),
                    details,
                ),
                None => Judgement::new(
                    Status::Owed,
                    "Nothing measurable: no commit since the start and no todo declared.",
                    details,
                ),
            },
        },
    }
}

#[cfg(test)]
mod tests;
