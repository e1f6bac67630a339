//! `majordomus explain`: what a question of the invariant asks.

use std::path::Path;

use clap::Args;
use majordomus_gates::question::{self, QUESTIONS};

use crate::workspace::Workspace;
use crate::{CliError, Exit};

/// Explain a question of the done invariant: what it asks, where the answer
/// comes from, what each status means there, and what settles it.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The question's id, as the done line names it (e.g. pushed).
    pub question: String,
}

pub fn cmd_explain(cwd: &Path, args: ExplainArgs) -> Result<Exit, CliError> {
    let id = args.question.trim();
    if let Some(text) = explain(id) {
        print!("{text}");
        return Ok(Exit::Ok);
    }
    // A question the repository's policy adds, answered by one of its gates.
    if let Ok(policy) = Workspace::open(cwd).and_then(|ws| ws.policy()) {
        if let Some(q) = policy.questions.iter().find(|q| q.id == id) {
            println!("{} ({} stage; a question this repository's policy adds)", q.id, q.stage);
            println!("  {}", q.question);
            println!();
            println!("source: the gate {} (.ai/repo/majordomus.toml + gate-run ledger)", q.gate);
            println!("remedy: majordomus gate run {}", q.gate);
            return Ok(Exit::Ok);
        }
    }
    let ids: Vec<&str> = QUESTIONS.iter().map(|q| q.id).collect();
    Err(CliError::Usage(format!("no question is called {id:?}; the questions are: {}", ids.join(", "))))
}

/// The explanation of a built-in question, from the registry.
pub fn explain(id: &str) -> Option<String> {
    let (n, q) = QUESTIONS.iter().enumerate().find(|(_, q)| q.id == id)?;
    let mut out =
        format!("{} ({} stage; question {} of {})\n  {}\n\n", q.id, q.stage, n + 1, QUESTIONS.len(), q.question);
    out.push_str(&format!("source: {}\n", q.source));
    out.push_str(&format!("cap:    {} (while it is open, the completion score is at most {})\n\n", q.cap, q.cap));
    for (status, meaning) in question::status_meanings(q.id) {
        out.push_str(&format!("  {:<8} {meaning}\n", status.as_str()));
    }
    out.push_str(&format!("\nremedy: {}\n", q.remedy));
    if q.needs_task {
        out.push_str("It is measured from the task's start: without a task record (majordomus start) it is unknown.\n");
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_question_explains_itself_with_its_source_statuses_and_remedy() {
        for q in QUESTIONS {
            let text = explain(q.id).expect("explained");
            assert!(text.starts_with(&format!("{} (", q.id)), "{text}");
            assert!(text.contains(q.source) && text.contains(q.remedy) && text.contains("  unknown "), "{text}");
        }
        assert_eq!(explain("no-such-question"), None);
    }
}
