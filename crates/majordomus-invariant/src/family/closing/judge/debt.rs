//! `no-new-debt` judged from the [`Debt`] reading: every entry a baseline
//! holds now is compared, as bytes and copy for copy, with what the same
//! baseline held at the start (a further copy of an entry is one added).
//! "The same baseline" is the one at that path, or the one it moved
//! from (`Debt::moved`, in or out of the naming pattern); the baselines
//! that cannot be told from a moved one are compared with every baseline
//! gone, drawing on its copies together (each copy once over all of them);
//! and a baseline new since the start that holds copies taken out of other
//! baselines (or an entry uncommitted at the start that the task committed)
//! is a continuation of them: it may hold the copies taken out, each once
//! over every such baseline, and whatever else it holds is added. Only a
//! baseline new since the start and fed by nothing is named and not
//! counted: it records debt that was already there (a new tool's findings),
//! which is not growth.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use foldhash::fast::RandomState;
use serde_json::json;

use majordomus_readings::baselines::{self, shown, Copies, Entry};

use super::super::readings::{Debt, LandedEntry, Moved, StartFrom, BY_ELIMINATION};
use crate::answer::Status;
use crate::judgement::Judgement;
use crate::prose::{count, names, sentence};
use crate::readings::Readings;

/// Added entries shown per baseline in the evidence; `details` holds all.
const SHOWN_ENTRIES: usize = 3;

/// What a baseline now is compared with.
enum Against<'a> {
    /// Itself at the start, at the same path.
    Itself(&'a [Entry]),
    /// The baseline it moved from.
    Moved(&'a Moved, &'a [Entry]),
    /// Every baseline gone (it cannot be told from one moved from them).
    Gone(&'a [Entry]),
    /// The copies taken out of the start's baselines since: it is new, but
    /// holds some of them, `owned` entries uncommitted at the start that
    /// the task committed, or entries of the baselines gone from their path
    /// since the start (`of`: split, or copied beside one moved).
    TakenOut { owned: usize, of: Vec<&'a str> },
}

pub(crate) fn no_new_debt(r: &Readings) -> Judgement {
    let debt = match &r.closing.debt {
        Ok(d) => d,
        Err(e) => return Judgement::unread(e),
    };
    if debt.start.is_empty() && debt.now.is_empty() {
        return Judgement::new(
            Status::Exempt,
            "This repository keeps no debt baseline: no .ai/repo/**/*-baseline.txt at the start or now.",
            json!({ "baselines": [] }),
        );
    }
    let former: BTreeMap<&str, &Moved> = debt.moved.iter().map(|m| (m.to.as_str(), m)).collect();
    let moved_from: BTreeSet<&str> = debt.moved.iter().map(|m| m.from.as_str()).collect();
    let gone: Vec<&String> =
        debt.start.keys().filter(|p| !debt.now.contains_key(*p) && !moved_from.contains(p.as_str())).collect();
    let undecided: BTreeSet<&str> = debt.undecided.iter().map(String::as_str).collect();
    // The baselines no longer at their path (gone, or moved): a new one
    // holding any of their entries follows them, never first seen.
    let away: Vec<&String> = debt.start.keys().filter(|p| !debt.now.contains_key(*p)).collect();
    // Every copy each gone baseline held: entries are compared as copies.
    let gone_entries: Vec<Entry> = gone.iter().filter_map(|p| debt.start.get(*p)).flatten().cloned().collect();
    // The copies taken out of the start's baselines, and what is left of
    // them as the baselines new since the start draw on them. Needed only
    // where there is one, so made only then (at a hundred baselines of a
    // hundred entries, building it at every check was a sixth of it).
    let mut pool: Option<(Copies<'_>, Copies<'_>)> = None;
    // The copies of the baselines gone that the undecided ones draw on
    // together, as the new ones draw on the copies taken out: one copy gone
    // allows one copy in one of them (test/cases/537). Made only where one
    // is undecided.
    let mut gone_left: Copies<'_> = match undecided.is_empty() {
        true => Copies::default(),
        false => baselines::copies(gone_entries.iter()),
    };

    let mut grew = Vec::new();
    // The copies HEAD's commit holds that a baseline's growth names.
    let mut named_from_head: Vec<(&str, &Entry)> = Vec::new();
    let mut first = Vec::new();
    let mut fed_paths = Vec::new();
    let mut rows = Vec::new();
    for (path, in_file) in &debt.now {
        // The baseline's entries now: the file's, and the copies HEAD's
        // commit holds past them (`Debt::head_only`).
        let joined: Vec<Entry>;
        let entries = match debt.head_only.iter().any(|(p, _)| p == path) {
            false => in_file,
            true => {
                let more = debt.head_only.iter().filter(|(p, _)| p == path).map(|(_, e)| e);
                joined = in_file.iter().chain(more).cloned().collect();
                &joined
            }
        };
        let against = if let Some(m) = former.get(path.as_str()) {
            Against::Moved(m, debt.start.get(&m.from).map(Vec::as_slice).unwrap_or_default())
        } else if undecided.contains(path.as_str()) {
            Against::Gone(&gone_entries)
        } else if let Some(then) = debt.start.get(path) {
            Against::Itself(then)
        } else {
            let (taken, _) = pool.get_or_insert_with(|| {
                let taken = taken_out(debt, &former, &undecided);
                (taken.clone(), taken)
            });
            // Fed by what was taken out, whatever another new baseline drew
            // first: which is fed never hangs on the order of their names.
            let fed = entries.iter().filter(|e| taken.contains_key(e.as_slice())).count();
            let owned = entries.iter().filter(|e| debt.committed.contains(e)).count();
            let of = holding_entries_of(debt, &away, entries);
            if fed == 0 && owned == 0 && of.is_empty() {
                first.push(format!("{path} ({})", count(entries.len(), "entry")));
                rows.push(json!({ "path": path, "then": null, "now": entries.len(), "added": [], "first_seen": true }));
                continue;
            }
            fed_paths.push(path.as_str());
            Against::TakenOut { owned, of }
        };
        // The common case, a baseline that did not change, looks nothing up.
        let unchanged = matches!(&against, Against::Itself(t) | Against::Moved(_, t) if entries.as_slice() == *t);
        // Compared as copies: a second copy of an entry the start held once
        // is one more allowed occurrence, an entry added (test/cases/462).
        // A new baseline draws on the copies taken out, so one copy taken
        // out allows one copy in one new baseline (test/cases/499).
        let (then_len, added_copies): (usize, Vec<&Entry>) = match &against {
            Against::Itself(t) | Against::Moved(_, t) if unchanged => (t.len(), Vec::new()),
            Against::Itself(t) | Against::Moved(_, t) => (t.len(), baselines::more_copies(entries, t.iter())),
            Against::Gone(t) => (t.len(), draw(&mut gone_left, entries).1),
            Against::TakenOut { .. } => match pool.as_mut() {
                Some((_, left)) => draw(left, entries),
                None => (0, entries.iter().collect()),
            },
        };
        let mut seen = HashSet::with_hasher(RandomState::default());
        let added: Vec<&Entry> = added_copies.iter().copied().filter(|e| seen.insert(e.as_slice())).collect();
        // An entry the start held, added as a further copy, is named with
        // how many copies there were and are: the line alone reads as old.
        let copies: Vec<(&Entry, usize, usize)> = match added.is_empty() {
            true => Vec::new(),
            false => {
                let then = match &against {
                    Against::Itself(t) | Against::Moved(_, t) | Against::Gone(t) => baselines::copies(t.iter()),
                    Against::TakenOut { .. } => baselines::copies(debt.start.values().flatten()),
                };
                // An undecided baseline's copies are counted over every
                // undecided one, as they draw on the gone copies together.
                let now = match &against {
                    Against::Gone(_) => baselines::copies(
                        debt.now.iter().filter(|(p, _)| undecided.contains(p.as_str())).flat_map(|(_, e)| e),
                    ),
                    _ => baselines::copies(entries.iter()),
                };
                let of = |c: &baselines::Copies<'_>, e: &Entry| c.get(e.as_slice()).copied().unwrap_or(0);
                added.iter().map(|e| (*e, of(&then, e), of(&now, e))).filter(|(_, then, _)| *then > 0).collect()
            }
        };
        let named = |e: &Entry| match copies.iter().find(|(c, _, _)| *c == e) {
            Some((_, then, now)) => format!("`{}` ({} then, {now} now)", shown(e), count(*then, "copy")),
            None => format!("`{}`", shown(e)),
        };
        // Copies HEAD's commit holds that the working tree's file does not.
        let from_head: Vec<&Entry> =
            debt.head_only.iter().filter(|(p, e)| p == path && added.contains(&e)).map(|(_, e)| e).collect();
        let mut row = json!({
            "path": path,
            "moved_from": match &against { Against::Moved(m, _) => Some(m.from.as_str()), _ => None },
            "then": then_len,
            "now": entries.len(),
            "added": added.iter().map(|e| shown(e)).collect::<Vec<_>>(),
            "first_seen": false,
        });
        if !copies.is_empty() {
            row["added_copies"] = json!(copies
                .iter()
                .map(|(e, then, now)| json!({ "entry": shown(e), "then": then, "now": now }))
                .collect::<Vec<_>>());
        }
        if !from_head.is_empty() {
            row["held_by_head_not_the_file"] = json!(from_head.iter().map(|e| shown(e)).collect::<Vec<_>>());
        }
        match &against {
            Against::Gone(_) => row["compared_with"] = json!(gone),
            Against::TakenOut { owned, of } => {
                row["compared_with"] = json!("the copies taken out of the baselines at the start");
                row["holds_entries_of"] = json!(of);
                row["entries_taken_out_of_others"] = json!(then_len);
                if *owned > 0 {
                    row["entries_the_task_committed"] = json!(owned);
                }
            }
            Against::Moved(m, _) if m.left_pattern => row["left_pattern"] = json!(true),
            _ => {}
        }
        rows.push(row);
        if added.is_empty() {
            continue;
        }
        let how = match &against {
            Against::Itself(_) => String::new(),
            Against::Moved(m, _) if m.left_pattern => {
                format!("moved from {} and out of the naming pattern, so followed and read as that baseline; ", m.from)
            }
            Against::Moved(m, _) => format!("moved from {}; ", m.from),
            Against::Gone(_) => format!(
                "cannot be told from a baseline moved from {}, so compared with {}{}; ",
                names(&gone),
                if gone.len() == 1 { "it" } else { "them" },
                if undecided.len() > 1 { " (each copy allowed once over every such baseline)" } else { "" }
            ),
            Against::TakenOut { owned, of } => format!(
                "new since the start{}, but holding {}, so compared with the copies taken out of the start's baselines (each allowed once over every new baseline); ",
                if debt.followed.iter().any(|f| f.to == *path) {
                    ", out of the naming pattern and followed"
                } else {
                    ""
                },
                feeds(then_len, *owned, of)
            ),
        };
        // Entries no baseline held at the start first: a further copy of
        // one it held is named after them, so the new line is never hidden
        // behind the copies.
        let (fresh, copied): (Vec<&Entry>, Vec<&Entry>) =
            added.iter().partition(|e| !copies.iter().any(|(c, _, _)| c == *e));
        let listed: Vec<String> = fresh.iter().chain(&copied).take(SHOWN_ENTRIES).map(|e| named(e)).collect();
        let more = if added.len() > SHOWN_ENTRIES {
            format!(" and {} more", added.len() - SHOWN_ENTRIES)
        } else {
            String::new()
        };
        named_from_head.extend(from_head.iter().map(|e| (path.as_str(), *e)));
        let head = match from_head.as_slice() {
            [] => String::new(),
            held => format!(
                "; HEAD's commit holds {} where the working tree's file does not (a blob stored other than the file, through a filter)",
                names(&held.iter().take(SHOWN_ENTRIES).map(|e| format!("`{}`", shown(e))).collect::<Vec<_>>())
            ),
        };
        grew.push((
            path.clone(),
            format!(
                "{path} ({how}{} then, {} now; added {}{more}{head})",
                count(then_len, "entry"),
                entries.len(),
                listed.join(", ")
            ),
        ));
    }
    // Debt the task landed on the trunk around HEAD, by the baseline its
    // commit added it to.
    let mut landed: BTreeMap<&str, Vec<&LandedEntry>> = BTreeMap::new();
    for l in &debt.landed {
        landed.entry(l.path.as_str()).or_default().push(l);
    }
    for (path, entries) in &landed {
        let listed: Vec<String> =
            entries.iter().take(SHOWN_ENTRIES).map(|l| format!("`{}`", shown(&l.entry))).collect();
        let more = match entries.len() > SHOWN_ENTRIES {
            true => format!(" and {} more", entries.len() - SHOWN_ENTRIES),
            false => String::new(),
        };
        let commits: BTreeSet<&str> = entries.iter().map(|l| &l.commit[..12.min(l.commit.len())]).collect();
        grew.push((
            path.to_string(),
            format!(
                "{path} on the trunk ({} by {}, made here since the start and not reached by HEAD, which the trunk's tip holds: added {}{more})",
                count(entries.len(), "entry"),
                names(&commits.into_iter().collect::<Vec<_>>()),
                listed.join(", ")
            ),
        ));
    }
    let (source, start_commit) = match &debt.start_from {
        StartFrom::Snapshot => ("the task's start snapshot".to_string(), None),
        StartFrom::SnapshotAsText => (
            "the task's start snapshot (its entries kept as text by an older majordomus, so one that was not UTF-8 reads as added)"
                .to_string(),
            None,
        ),
        StartFrom::Commit(c) => (format!("the start commit {}", &c[..12.min(c.len())]), Some(c.as_str())),
        StartFrom::Unborn => ("no commit (HEAD was unborn at the start)".to_string(), None),
    };
    let mut details = json!({
        "start_from": match debt.start_from {
            StartFrom::Snapshot => "snapshot",
            StartFrom::SnapshotAsText => "snapshot as text",
            StartFrom::Commit(_) => "commit",
            StartFrom::Unborn => "unborn",
        },
        "start_commit": start_commit,
        "baselines": rows,
        "grew": grew.iter().map(|(p, _)| p).collect::<Vec<_>>(),
        "first_seen": debt.now.keys().filter(|p| {
            !debt.start.contains_key(*p) && !former.contains_key(p.as_str()) && !fed_paths.contains(&p.as_str())
        }).collect::<Vec<_>>(),
        "moved": debt.moved.iter().map(|m| json!({ "from": m.from, "to": m.to, "by": m.by, "left_pattern": m.left_pattern })).collect::<Vec<_>>(),
        "followed": debt.followed.iter().map(|m| json!({ "from": m.from, "to": m.to, "by": m.by })).collect::<Vec<_>>(),
        "undecided": debt.undecided,
        "committed": debt.committed.iter().map(|e| shown(e)).collect::<Vec<_>>(),
        "landed": debt.landed.iter().map(|l| json!({ "path": l.path, "entry": shown(&l.entry), "commit": l.commit })).collect::<Vec<_>>(),
        "gone": gone,
        "links": debt.links.iter().map(|l| json!({ "path": l.path, "target": l.target })).collect::<Vec<_>>(),
    });
    if !debt.head_only.is_empty() {
        details["held_by_head"] =
            json!(debt.head_only.iter().map(|(p, e)| json!({ "path": p, "entry": shown(e) })).collect::<Vec<_>>());
    }
    if !debt.arrived.is_empty() {
        details["arrived"] = json!(debt.arrived.iter().map(|e| shown(e)).collect::<Vec<_>>());
    }
    let mut also = Vec::new();
    if !first.is_empty() {
        also.push(format!("new since the start, recording debt already there (not growth): {}", names(&first)));
    }
    if !debt.moved.is_empty() {
        let moves: Vec<String> = debt
            .moved
            .iter()
            .map(|m| {
                let out = if m.left_pattern { ", out of the naming pattern" } else { "" };
                format!("{} to {} (by {}{out})", m.from, m.to, m.by)
            })
            .collect();
        also.push(format!("moved, and compared with its former self: {}", names(&moves)));
    }
    if !debt.followed.is_empty() {
        let follows: Vec<String> = debt.followed.iter().map(|m| format!("{} into {}", m.from, m.to)).collect();
        also.push(format!(
            "followed out of the naming pattern into each file the change made or grew that holds entries of a baseline gone from its path, each read as a new baseline fed by the copies taken out: {}",
            names(&follows)
        ));
    }
    if !debt.undecided.is_empty() {
        also.push(format!(
            "not taken for new, as {} had no entry to tell a move by, so compared with what is gone: {}",
            names(&gone.iter().filter(|p| debt.start.get(**p).is_some_and(Vec::is_empty)).collect::<Vec<_>>()),
            names(&debt.undecided)
        ));
    }
    if !debt.committed.is_empty() {
        let listed: Vec<String> =
            debt.committed.iter().take(SHOWN_ENTRIES).map(|e| format!("`{}`", shown(e))).collect();
        let more = match debt.committed.len() > SHOWN_ENTRIES {
            true => format!(" and {} more", debt.committed.len() - SHOWN_ENTRIES),
            false => String::new(),
        };
        also.push(format!(
            "{} uncommitted at the start, then committed by the task, {} the task's, not the start's: {}{more}",
            count(debt.committed.len(), "entry"),
            if debt.committed.len() == 1 { "is" } else { "are" },
            listed.join(", ")
        ));
    }
    if !debt.arrived.is_empty() {
        let listed: Vec<String> = debt.arrived.iter().take(SHOWN_ENTRIES).map(|e| format!("`{}`", shown(e))).collect();
        let more = match debt.arrived.len() > SHOWN_ENTRIES {
            true => format!(" and {} more", debt.arrived.len() - SHOWN_ENTRIES),
            false => String::new(),
        };
        also.push(format!(
            "{} a fetch brought since the start {} not the task's, read as the start's: {}{more}",
            count(debt.arrived.len(), "entry"),
            if debt.arrived.len() == 1 { "is" } else { "are" },
            listed.join(", ")
        ));
    }
    // Those no growth named: copies the start held, so none added.
    let unnamed: Vec<&(String, Entry)> =
        debt.head_only.iter().filter(|(p, e)| !named_from_head.contains(&(p.as_str(), e))).collect();
    if !unnamed.is_empty() {
        let listed: Vec<String> =
            unnamed.iter().take(SHOWN_ENTRIES).map(|(p, e)| format!("`{}` in {p}", shown(e))).collect();
        let more = match unnamed.len() > SHOWN_ENTRIES {
            true => format!(" and {} more", unnamed.len() - SHOWN_ENTRIES),
            false => String::new(),
        };
        also.push(format!(
            "HEAD's commit holds {} the working tree's files do not, read as held now: {}{more}",
            count(unnamed.len(), "entry"),
            listed.join(", ")
        ));
    }
    if !debt.links.is_empty() {
        let links: Vec<String> = debt.links.iter().map(|l| format!("{} to {}", l.path, l.target)).collect();
        also.push(format!("read through symbolic links: {}", names(&links)));
    }
    if !gone.is_empty() {
        also.push(format!("no longer there: {}", names(&gone)));
    }
    let also =
        if also.is_empty() { String::new() } else { format!(" {}.", sentence(&also.join("; ")).trim_end_matches('.')) };
    if grew.is_empty() {
        let (then, now): (usize, usize) =
            (debt.start.values().map(Vec::len).sum(), debt.now.values().map(Vec::len).sum());
        Judgement::new(
            Status::Pass,
            format!(
                "No entry was added to any debt baseline since the start, read from {source}: {} at the start, {} in {} now.{also}",
                count(then, "entry"),
                count(now, "entry"),
                count(debt.now.len(), "baseline"),
            ),
            details,
        )
    } else {
        let described: Vec<&str> = grew.iter().map(|(_, d)| d.as_str()).collect();
        let paths: Vec<&str> = grew.iter().map(|(p, _)| p.as_str()).collect();
        Judgement::new(
            Status::Refused,
            format!(
                "{} gained entries since the start, read from {source}: {}.{also}",
                count(grew.len(), "debt baseline"),
                described.join("; ")
            ),
            details,
        )
        .remedy(remedy_for_growth(&paths, debt, &gone))
    }
}

/// The copies the start's baselines held past those the baselines there
/// at the start hold now (at their path, moved, or compared with those
/// gone; HEAD's copies beside the file's): the copies taken out of them
/// since, which a new baseline may hold without growth. As copies, not as
/// entries: one of two copies moved out leaves the other where it was, and
/// only the one moved may be held anew (test/cases/499). The start's
/// entries are without those uncommitted at the start that the task
/// committed (`Debt::committed`), so those are never among them: moved
/// into a new baseline and committed there, one is the task's
/// (test/cases/500).
fn taken_out<'a>(debt: &'a Debt, former: &BTreeMap<&str, &Moved>, undecided: &BTreeSet<&str>) -> Copies<'a> {
    let mut left = baselines::copies(debt.start.values().flatten());
    let continued = |p: &str| debt.start.contains_key(p) || former.contains_key(p) || undecided.contains(p);
    let in_file = debt.now.iter().filter(|(p, _)| continued(p)).flat_map(|(_, e)| e);
    let in_head = debt.head_only.iter().filter(|(p, _)| continued(p)).map(|(_, e)| e);
    for e in in_file.chain(in_head) {
        if let Some(n) = left.get_mut(e.as_slice()) {
            *n = n.saturating_sub(1);
        }
    }
    left.retain(|_, n| *n > 0);
    left
}

/// Draws `entries` on the copies taken out (`pool`), in order: each copy
/// the pool still holds is taken from it (so a second new baseline cannot
/// hold it again), and each it does not is added. Returns how many were
/// drawn, and those added.
fn draw<'e>(pool: &mut Copies<'_>, entries: &'e [Entry]) -> (usize, Vec<&'e Entry>) {
    let mut drawn = 0;
    let mut added = Vec::new();
    for e in entries {
        match pool.get_mut(e.as_slice()) {
            Some(n) if *n > 0 => {
                *n -= 1;
                drawn += 1;
            }
            _ => added.push(e),
        }
    }
    (drawn, added)
}

/// The baselines no longer at their path (`away`) any of whose entries
/// `entries` holds: a new baseline holding one follows them, whatever is
/// left of them to draw on (test/cases/526). Read only for a baseline new
/// since the start, and only where one left its path.
fn holding_entries_of<'a>(debt: &Debt, away: &[&'a String], entries: &[Entry]) -> Vec<&'a str> {
    if away.is_empty() {
        return Vec::new();
    }
    let held: HashSet<&[u8], RandomState> = entries.iter().map(Vec::as_slice).collect();
    away.iter()
        .filter(|p| debt.start.get(p.as_str()).is_some_and(|e| e.iter().any(|e| held.contains(e.as_slice()))))
        .map(|p| p.as_str())
        .collect()
}

/// What feeds a new baseline, for a sentence: the copies taken out of
/// other baselines it holds, the entries the task committed, and the
/// baselines gone from their path whose entries it holds.
fn feeds(fed: usize, owned: usize, of: &[&str]) -> String {
    let mut parts = Vec::new();
    if fed > 0 || (owned == 0 && of.is_empty()) {
        parts.push(format!("{} taken out of other baselines since", count(fed, "entry")));
    }
    if owned > 0 {
        parts.push(format!(
            "{} uncommitted at the start that the task committed (the task's, not the start's)",
            count(owned, "entry")
        ));
    }
    if !of.is_empty() {
        parts.push(format!(
            "entries of {}, gone from {} path since the start",
            names(of),
            if of.len() == 1 { "its" } else { "their" }
        ));
    }
    parts.join(" and ")
}

/// The remedy for baselines that grew; where one was paired with its
/// former self only because nothing could tell them apart (by elimination,
/// or undecided), it also says how to show it is new.
fn remedy_for_growth(grew: &[&str], debt: &Debt, gone: &[&String]) -> String {
    let mut take_out = format!("take the added entries out of {} and fix what they permit", names(grew));
    if !debt.head_only.is_empty() {
        take_out.push_str(
            " (where HEAD's commit holds them, commit the baseline as the file holds it: git add --renormalize)",
        );
    }
    if !debt.landed.is_empty() {
        take_out.push_str(" (on the trunk for those it holds: commit their removal there and push it)");
    }
    let mut guessed: Vec<(&str, Vec<&str>)> = Vec::new();
    for path in grew {
        if let Some(m) = debt.moved.iter().find(|m| m.to == *path && m.by == BY_ELIMINATION) {
            guessed.push((path, vec![m.from.as_str()]));
        } else if debt.undecided.iter().any(|u| u == path) {
            // Only the empty ones leave a move untold; put back, they do not.
            let empty = gone.iter().filter(|g| debt.start.get(g.as_str()).is_some_and(Vec::is_empty));
            guessed.push((path, empty.map(|g| g.as_str()).collect()));
        }
    }
    if guessed.is_empty() {
        return take_out;
    }
    let put_back: Vec<String> = guessed
        .iter()
        .map(|(path, from)| format!("if {path} is new and not {} moved, put {} back", from.join(" or "), names(from)))
        .collect();
    format!("{take_out}; {}", put_back.join("; "))
}
