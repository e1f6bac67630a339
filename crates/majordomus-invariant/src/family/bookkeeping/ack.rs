//! Acknowledgements: evidence an answer names that the task declares is not
//! its work (`majordomus ack QUESTION --why ...`), recorded in the ledger
//! with the exact set of items it covers. While every item the answer names
//! now was acknowledged, the owed answer is `exempt`, with the reasons
//! shown; one item more brings the question straight back. An item the
//! task's own history shows it made (`made.rs`: a path its commits changed,
//! a branch this worktree checked out) is never covered, whatever the
//! ledger says.

use std::collections::BTreeSet;

use serde_json::json;

use super::made::Made;
use super::readings::Acked;
use crate::answer::Status;
use crate::judgement::{with, Judgement};
use crate::prose::{names, sentence};
use crate::question::QuestionId;
use crate::readings::Readings;

/// The questions an acknowledgement can settle, and the keys of their
/// details that hold the evidence it is keyed to. `nothing-accumulated`
/// keeps its branches and worktrees as rows under `created`, each with its
/// `kind` and `name`: the evidence is `branch NAME` / `worktree NAME`, so a
/// branch and a worktree of the same name are never one item.
pub const ACKNOWLEDGEABLE: [(QuestionId, &[&str]); 3] = [
    (QuestionId::Committed, &["uncommitted"]),
    (QuestionId::NoUntracked, &["untracked"]),
    (QuestionId::NothingAccumulated, &["created"]),
];

/// The exact evidence an answer of `question` holds: the paths, branches or
/// entries its details name. `None` for a question an acknowledgement
/// cannot settle. `majordomus ack` records this set; `acknowledge`
/// compares it with the set now.
pub fn ack_evidence(question: QuestionId, details: &serde_json::Value) -> Option<BTreeSet<String>> {
    let (_, keys) = ACKNOWLEDGEABLE.iter().find(|(q, _)| *q == question)?;
    let mut out = BTreeSet::new();
    for key in keys.iter() {
        for v in details.get(*key).and_then(|v| v.as_array()).into_iter().flatten() {
            let item = match v {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Object(o) => {
                    let name = o.get("name").or_else(|| o.get("path")).and_then(|n| n.as_str());
                    match (o.get("kind").and_then(|k| k.as_str()), name) {
                        (Some(kind), Some(name)) => format!("{kind} {name}"),
                        (None, Some(name)) => name.to_string(),
                        _ => v.to_string(),
                    }
                }
                other => other.to_string(),
            };
            out.insert(item);
        }
    }
    Some(out)
}

/// The content of `path` under `root` as an acknowledgement keeps it: the
/// blob id git would give the file's bytes, `-` where there is no file, `?`
/// where it cannot be read. Read as bytes, through no filter: it runs nothing.
pub fn content_of(root: &std::path::Path, path: &str) -> String {
    let full = root.join(path);
    match std::fs::symlink_metadata(&full) {
        Err(_) => "-".to_string(),
        Ok(m) if m.is_file() => majordomus_readings::file::blob_id(&full).map_or("?".to_string(), |o| o.to_string()),
        Ok(m) if m.file_type().is_symlink() => {
            std::fs::read_link(&full).map_or("?".to_string(), |t| format!("link {}", t.display()))
        }
        Ok(_) => "?".to_string(),
    }
}

/// Whether `question`'s evidence items are paths, whose content an
/// acknowledgement keeps.
pub fn keeps_content(question: QuestionId) -> bool {
    matches!(question, QuestionId::Committed | QuestionId::NoUntracked)
}

/// Applies the task's acknowledgements to an owed answer: when every item
/// the answer names now was acknowledged as not this task's, the answer is
/// `exempt`, with the reasons shown. One item more than was acknowledged
/// brings the question straight back.
pub(crate) fn acknowledge(id: QuestionId, v: Judgement, r: &Readings) -> Judgement {
    if v.status != Status::Owed {
        return v;
    }
    let Some(now) = ack_evidence(id, &v.details) else { return v };
    let Ok(book) = &r.bookkeeping.book else { return v };
    let acks: Vec<&Acked> = book.acks.iter().filter(|a| a.question == id.as_str()).collect();
    if acks.is_empty() || now.is_empty() {
        return v;
    }
    // What the task made is never another's work, whatever was acknowledged.
    let made = match &r.bookkeeping.made {
        Some(Ok(made)) => made,
        Some(Err(e)) => {
            let evidence = format!(
                "{} It was acknowledged as not this task's work, but what the task made could not be read to check that ({}), so the acknowledgement does not settle it.",
                v.evidence, e.reason
            );
            return Judgement { evidence, ..v };
        }
        None => &Made::default(),
    };
    let own: Vec<(&String, &str)> = now.iter().filter_map(|item| made.owns(item).map(|why| (item, why))).collect();
    if !own.is_empty() {
        let evidence = format!(
            "{} An acknowledgement never covers what this task made: {}.",
            v.evidence,
            own.iter().map(|(item, why)| format!("{item} ({why})")).collect::<Vec<_>>().join("; ")
        );
        let details = with(
            v.details,
            json!({ "not_coverable": own.iter().map(|(item, why)| json!({ "item": item, "why": why })).collect::<Vec<_>>() }),
        );
        return Judgement { evidence, details, ..v };
    }
    // A path covers only at the content it had when acknowledged: the
    // task's own work written into a peer's file is named again.
    let same = |a: &Acked, item: &str| a.content.get(item).map_or(true, |then| made.content.get(item) == Some(then));
    let covered: BTreeSet<&str> =
        acks.iter().flat_map(|a| a.evidence.iter().map(String::as_str).filter(|e| same(a, e))).collect();
    let uncovered: Vec<&String> = now.iter().filter(|p| !covered.contains(p.as_str())).collect();
    if !uncovered.is_empty() {
        let acked_once: BTreeSet<&str> = acks.iter().flat_map(|a| a.evidence.iter().map(String::as_str)).collect();
        let (changed, never): (Vec<&String>, Vec<&String>) =
            uncovered.into_iter().partition(|p| acked_once.contains(p.as_str()));
        let mut parts = Vec::new();
        if !never.is_empty() {
            parts.push(format!(
                "{} acknowledged as not this task's work: {}",
                if never.len() == 1 { "this one was never" } else { "these were never" },
                names(&never)
            ));
        }
        if !changed.is_empty() {
            parts.push(format!(
                "{} changed since {} acknowledged, so the acknowledgement no longer covers {}: {}",
                if changed.len() == 1 { "this one" } else { "these" },
                if changed.len() == 1 { "it was" } else { "they were" },
                if changed.len() == 1 { "it" } else { "them" },
                names(&changed)
            ));
        }
        let evidence = format!("{} Of these, {}.", v.evidence, parts.join("; "));
        return Judgement { evidence, ..v };
    }
    let used: Vec<&&Acked> = acks.iter().filter(|a| a.evidence.iter().any(|e| now.contains(e))).collect();
    let whys: Vec<String> = used.iter().map(|a| format!("{:?} ({})", a.why, a.at)).collect();
    let evidence = format!("{} Acknowledged as not this task's work: {}.", v.evidence, whys.join("; "));
    let details = with(
        v.details,
        json!({ "acknowledged": used.iter().map(|a| json!({ "why": a.why, "at": a.at, "evidence": a.evidence })).collect::<Vec<_>>() }),
    );
    Judgement {
        status: Status::Exempt,
        evidence: sentence(evidence.trim_end_matches('.')),
        details,
        remedy: v.remedy,
        remedy_kind: v.remedy_kind,
    }
}
