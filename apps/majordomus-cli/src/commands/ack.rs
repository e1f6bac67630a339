//! `majordomus ack`: acknowledge evidence that is not this task's work.

use std::path::Path;

use clap::Args;
use majordomus_invariant::family::bookkeeping::ack::{ack_evidence, ACKNOWLEDGEABLE};
use majordomus_invariant::family::bookkeeping::made;
use majordomus_invariant::QuestionId;
use majordomus_records::ledger::Event;

use crate::evaluate::evaluate;
use crate::out::outln;
use crate::workspace::Workspace;
use crate::{CliError, Exit};

/// Acknowledge that what a question names now is not this task's work.
///
/// Several workers can share one checkout: a peer's file left dirty there
/// is not this task's incompleteness. `ack` records the exact set of paths,
/// branches or entries the question names now, with the reason; while the
/// question names nothing outside that set it answers `exempt`, the reason
/// shown. One more path or branch, or a path changed since, brings it straight back. Only
/// `committed`, `no-untracked` and `nothing-accumulated` can be
/// acknowledged, and never for what this task made: a path its commits
/// changed (those undone with `git reset` included), or a branch this
/// worktree checked out since the start.
#[derive(Debug, Args)]
pub struct AckArgs {
    /// The question: committed, no-untracked or nothing-accumulated.
    pub question: String,
    /// Why this is not the task's work (required, shown with the answer).
    #[arg(long, value_name = "TEXT")]
    pub why: String,
}

pub fn cmd_ack(cwd: &Path, args: AckArgs) -> Result<Exit, CliError> {
    let allowed: Vec<&str> = ACKNOWLEDGEABLE.iter().map(|(q, _)| q.as_str()).collect();
    if !allowed.contains(&args.question.as_str()) {
        return Err(CliError::Usage(format!(
            "{:?} cannot be acknowledged; only {} can",
            args.question,
            allowed.join(", ")
        )));
    }
    let why = args.why.trim().to_string();
    if why.is_empty() {
        return Err(CliError::Usage("--why is empty: say why this is not the task's work".into()));
    }
    let ws = Workspace::open(cwd)?;
    let task = ws.active_task("an acknowledgement")?;
    let doc = evaluate(&ws)?;
    let Some(answer) = doc.questions.iter().find(|a| a.id == args.question) else {
        return Err(CliError::Usage(format!("{} is not answered by this version of majordomus", args.question)));
    };
    let evidence: Vec<String> = QuestionId::parse(&answer.id)
        .and_then(|q| ack_evidence(q, &answer.details))
        .unwrap_or_default()
        .into_iter()
        .collect();
    if evidence.is_empty() {
        return Err(CliError::Usage(format!(
            "{} names nothing to acknowledge now ({}: {})",
            answer.id, answer.status, answer.evidence
        )));
    }
    // What the task's own history shows it made is never another's work.
    let made = made::read(&ws.repo, &task).map_err(|e| {
        CliError::Usage(format!(
            "what this task made cannot be read ({}), so no acknowledgement can be checked against it; nothing was recorded",
            e.reason
        ))
    })?;
    let (own, evidence): (Vec<String>, Vec<String>) = evidence.into_iter().partition(|item| made.owns(item).is_some());
    let own_said: Vec<String> =
        own.iter().map(|item| format!("{item} ({})", made.owns(item).unwrap_or_default())).collect();
    if evidence.is_empty() {
        return Err(CliError::Usage(format!(
            "an acknowledgement never covers what this task made, and {} names only that: {}; nothing was recorded",
            answer.id,
            own_said.join("; ")
        )));
    }
    // A path is covered at the content it has now, so the task's own work
    // written into a peer's file is named again; but a file an ignore rule
    // set since the start hides, acknowledged as the build's output, is
    // covered whatever the next build writes into it (its rule is the
    // task's, and so is the word that what it hides is generated).
    let ignored_since: Vec<&str> = answer.details["shown_though_git_hides"]
        .as_array()
        .map(|all| all.iter().filter_map(|o| o["path"].as_str()).collect())
        .unwrap_or_default();
    let content = match QuestionId::parse(&answer.id) {
        Some(q) if majordomus_invariant::family::bookkeeping::ack::keeps_content(q) => evidence
            .iter()
            .filter(|p| !(q == QuestionId::NoUntracked && ignored_since.contains(&p.as_str())))
            .map(|p| (p.clone(), majordomus_invariant::family::bookkeeping::ack::content_of(ws.repo.root(), p)))
            .collect(),
        _ => Default::default(),
    };
    ws.append(
        &task,
        Event::Ack { question: answer.id.clone(), why: why.clone(), evidence: evidence.clone(), content },
    )?;
    outln!(
        "acknowledged for {}: {} (not this task's work: {})",
        answer.id,
        crate::render::escape_text(&evidence.join(", ")),
        crate::render::escape_text(&why)
    )?;
    if !own.is_empty() {
        outln!("not acknowledged, this task made them: {}", crate::render::escape_text(&own_said.join("; ")))?;
    }
    Ok(Exit::Ok)
}
