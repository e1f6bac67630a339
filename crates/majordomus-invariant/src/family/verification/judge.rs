//! The verification family judged: `regression-tested` from the change
//! set and the test-path rule, `gates-green` from what the ledger recorded
//! of each selected gate over its inputs as they are now.

use serde_json::json;

use majordomus_readings::Unread;

use super::readings::{GateReading, GateRuns, GateSet, RecordedRun};
use majordomus_records::RepoPath;

use super::test_path::is_test;
use crate::answer::Status;
use crate::judgement::{with, Judgement};
use crate::prose::{count, names, short};
use crate::readings::Readings;

pub(crate) fn regression_tested(r: &Readings) -> Judgement {
    let changes = match &r.changes {
        Ok(c) => c,
        Err(e) => return Judgement::unread(e),
    };
    if changes.changed.is_empty() {
        return Judgement::new(
            Status::Exempt,
            "Nothing changed since the start, so there is nothing to test.",
            json!({ "changed": 0 }),
        );
    }
    let touched: Vec<&RepoPath> = changes.changed.iter().filter(|p| is_test(p)).collect();
    // A deleted test catches nothing: a test path the working tree no
    // longer holds is named, not counted.
    let gone = match (&r.verification.gone, touched.is_empty()) {
        (_, true) => Vec::new(),
        (Ok(g), false) => g.iter().collect(),
        (Err(e), false) => return Judgement::unread(e),
    };
    let (deleted, tests): (Vec<&RepoPath>, Vec<&RepoPath>) = touched.into_iter().partition(|p| gone.contains(p));
    let details = json!({ "changed": changes.changed.len(), "tests": tests, "deleted_tests": deleted });
    let not_counted = match deleted.len() {
        0 => String::new(),
        n => format!(" ({} deleted, and a deleted test does not count: {})", count(n, "test path"), names(&deleted)),
    };
    if tests.is_empty() {
        Judgement::new(
            Status::Owed,
            format!(
                "None of the {} changed since the start is a test path{}{not_counted}.",
                count(changes.changed.len(), "path"),
                if deleted.is_empty() { "" } else { " still there" }
            ),
            details,
        )
    } else {
        Judgement::new(
            Status::Pass,
            format!("The change touches {}: {}{not_counted}.", count(tests.len(), "test path"), names(&tests)),
            details,
        )
    }
}

/// What the ledger says of one gate over its inputs now.
#[derive(Debug, Clone, PartialEq)]
pub enum GateState<'a> {
    /// Its latest run over exactly the inputs now passed.
    Passing(&'a RecordedRun),
    /// Its latest run over exactly the inputs now failed or timed out.
    Failed(&'a RecordedRun),
    /// It never reported: never reported is not green.
    NeverReported,
    /// It ran, but its inputs changed since: the verdict covers other content.
    Stale { last: &'a RecordedRun, now: &'a str },
    /// Its inputs or the ledger could not be read.
    Unread(&'a Unread),
}

impl GateState<'_> {
    /// The word for the state in counts and details.
    pub fn label(&self) -> &'static str {
        match self {
            GateState::Passing(_) => "passing",
            GateState::Failed(_) => "failed",
            GateState::NeverReported => "never reported",
            GateState::Stale { .. } => "stale",
            GateState::Unread(_) => "unread",
        }
    }

    pub fn status(&self) -> Status {
        match self {
            GateState::Passing(_) => Status::Pass,
            GateState::Failed(_) => Status::Refused,
            GateState::NeverReported | GateState::Stale { .. } => Status::Owed,
            GateState::Unread(_) => Status::Unknown,
        }
    }
}

/// Judges a gate's runs against its inputs now.
pub fn gate_state(runs: &Result<GateRuns, Unread>) -> GateState<'_> {
    match runs {
        Err(e) => GateState::Unread(e),
        Ok(GateRuns { current: Some(run), .. }) if run.passed() => GateState::Passing(run),
        Ok(GateRuns { current: Some(run), .. }) => GateState::Failed(run),
        Ok(GateRuns { latest: Some(last), inputs_now, .. }) => GateState::Stale { last, now: inputs_now },
        Ok(GateRuns { latest: None, .. }) => GateState::NeverReported,
    }
}

/// One gate's state as a clause of evidence.
pub(crate) fn gate_clause(id: &str, state: &GateState<'_>) -> String {
    let by = |run: &RecordedRun| match &run.commit {
        Some(c) => format!("run at {} on {}", run.at, short(c)),
        None => format!("run at {}", run.at),
    };
    match state {
        GateState::Passing(run) => format!("{id} passed over its inputs as they are now ({})", by(run)),
        GateState::Failed(run) if run.timed_out => {
            format!("{id} timed out after {} s over its inputs as they are now ({})", run.duration_ms / 1000, by(run))
        }
        GateState::Failed(run) => {
            format!("{id} failed over its inputs as they are now (exit {}, {})", run.exit, by(run))
        }
        GateState::NeverReported => format!("{id} never reported, and never reported is not green"),
        GateState::Stale { last, now } => format!(
            "{id} is stale: its inputs hashed {} at its last run ({}) and hash {} now",
            short(&last.inputs_hash),
            by(last),
            short(now)
        ),
        GateState::Unread(e) => format!("{id} could not be read: {}", e.reason),
    }
}

/// A gate's reading as data, for `details`.
pub(crate) fn gate_details(g: &GateReading) -> serde_json::Value {
    let mut d = json!({
        "id": g.id,
        "required": g.required,
        "always": g.always,
        "selected": g.selected(),
        "matched": g.matched.iter().take(20).collect::<Vec<_>>(),
        "matched_count": g.matched.len(),
    });
    if let Some(runs) = &g.runs {
        let state = gate_state(runs);
        let extra = match runs {
            Ok(r) => json!({
                "state": state.label(),
                "inputs_now": r.inputs_now,
                "files": r.files,
                "run": r.current.as_ref().or(r.latest.as_ref()),
            }),
            Err(e) => json!({ "state": state.label(), "unread": e.reason }),
        };
        d = with(d, extra);
    } else {
        d = with(d, json!({ "state": "not selected" }));
    }
    d
}

/// Why no gate is selected, as a clause.
fn none_selected_because(set: &GateSet) -> String {
    if set.changed == 0 {
        return "nothing changed since the start and none is marked always".to_string();
    }
    let globs: Vec<String> = set
        .gates
        .iter()
        .map(|g| {
            if g.inputs.is_empty() {
                format!("{}: no inputs", g.id)
            } else {
                format!("{}: {}", g.id, g.inputs.join(", "))
            }
        })
        .collect();
    format!("{} their inputs ({}) and none is marked always", no_change_matches(set.changed), globs.join("; "))
}

/// `the one path changed since the start matches none of`, `none of the 3
/// paths changed since the start matches`: the start of a sentence saying
/// no changed path selects a gate.
pub fn no_change_matches(changed: usize) -> String {
    match changed {
        1 => "the one path changed since the start matches none of".to_string(),
        n => format!("none of the {n} paths changed since the start matches"),
    }
}

pub(crate) fn gates_green(r: &Readings) -> Judgement {
    let set = match &r.verification.gates {
        Ok(s) => s,
        Err(e) => return Judgement::unread(e),
    };
    if set.gates.is_empty() {
        return Judgement::new(
            Status::Exempt,
            "No gate is declared in .ai/repo/majordomus.toml, so there is nothing to run.",
            json!({ "declared": 0 }),
        )
        .remedy("declare the repository's gates in .ai/repo/majordomus.toml");
    }
    let selected: Vec<&GateReading> = set.gates.iter().filter(|g| g.selected()).collect();
    let optional: Vec<&str> = selected.iter().filter(|g| !g.required).map(|g| g.id.as_str()).collect();
    let counted: Vec<(&GateReading, GateState<'_>)> = selected
        .iter()
        .filter(|g| g.required)
        .map(|g| {
            let state = match &g.runs {
                Some(runs) => gate_state(runs),
                None => GateState::NeverReported,
            };
            (*g, state)
        })
        .collect();
    let optional_clause = match optional.len() {
        0 => String::new(),
        1 => format!(" ({} is selected but not required, so it is not counted)", optional[0]),
        _ => format!(" ({} are selected but not required, so they are not counted)", names(&optional)),
    };
    let mut details = json!({
        "declared": set.gates.len(),
        "changed": set.changed,
        "selected": counted.iter().map(|(g, _)| &g.id).collect::<Vec<_>>(),
        "optional": optional,
        "gates": set.gates.iter().map(gate_details).collect::<Vec<_>>(),
    });
    if counted.is_empty() {
        let why = if selected.is_empty() {
            none_selected_because(set)
        } else {
            "every gate the change selects is optional".to_string()
        };
        return Judgement::new(
            Status::Pass,
            format!(
                "No required gate is selected among the {}: {why}{optional_clause}.",
                count(set.gates.len(), "declared gate")
            ),
            details,
        );
    }
    let mut tally: Vec<(&'static str, usize)> = Vec::new();
    for (_, state) in &counted {
        match tally.iter_mut().find(|(l, _)| *l == state.label()) {
            Some((_, n)) => *n += 1,
            None => tally.push((state.label(), 1)),
        }
    }
    let order = ["passing", "failed", "never reported", "stale", "unread"];
    tally.sort_by_key(|(l, _)| order.iter().position(|o| o == l));
    details = with(
        details,
        json!({ "counts": tally.iter().map(|(l, n)| (l.replace(" ", "_"), json!(n))).collect::<serde_json::Map<_, _>>() }),
    );
    let worst = |s: Status| counted.iter().any(|(_, st)| st.status() == s);
    let status = if worst(Status::Refused) {
        Status::Refused
    } else if worst(Status::Unknown) {
        Status::Unknown
    } else if worst(Status::Owed) {
        Status::Owed
    } else {
        Status::Pass
    };
    let clauses: Vec<String> = counted.iter().map(|(g, st)| gate_clause(&g.id, st)).collect();
    let evidence = format!(
        "{} selected: {}{optional_clause}; {}.",
        count(counted.len(), "gate"),
        tally.iter().map(|(l, n)| format!("{n} {l}")).collect::<Vec<_>>().join(", "),
        clauses.join("; ")
    );
    let ids_in = |s: Status| -> Vec<&str> {
        counted.iter().filter(|(_, st)| st.status() == s).map(|(g, _)| g.id.as_str()).collect()
    };
    let v = Judgement::new(status, evidence, details);
    match status {
        Status::Refused => {
            let failed = ids_in(Status::Refused);
            match failed.as_slice() {
                [one] => v.remedy(format!("fix what the gate {one} reports, then majordomus gate run {one}")),
                _ => v.remedy("fix what the failing gates report, then majordomus gate run --all"),
            }
        }
        Status::Owed => match ids_in(Status::Owed).as_slice() {
            [one] => v.remedy(format!("majordomus gate run {one}")),
            _ => v.remedy("majordomus gate run --all"),
        },
        _ => v,
    }
}

#[cfg(test)]
mod tests;
