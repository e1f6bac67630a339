//! `majordomus hook pre-push`: what the installed git pre-push hook runs.

use std::io::Write;
use std::path::Path;

use clap::Args;
use majordomus_invariant::{Document, Status};

use crate::evaluate::{evaluate, write_document};
use crate::workspace::Workspace;
use crate::{CliError, Exit};

/// Refuse a push while gates-green is refused (what the pre-push hook runs).
///
/// It runs no gate: it answers the done invariant as `majordomus check
/// --json` does and reads gates-green's status. Exit 10 (git then refuses
/// the push) while it is refused, with its evidence and remedy; 0 otherwise,
/// and 0 when majordomus cannot answer at all (it says why on stderr).
#[derive(Debug, Args)]
pub struct PrePushArgs {
    /// The remote's name, as git passes it.
    pub remote: Option<String>,
    /// The remote's URL, as git passes it.
    pub url: Option<String>,
}

pub fn cmd_hook_pre_push(cwd: &Path, args: PrePushArgs) -> Result<Exit, CliError> {
    // What `check --json` does: answer the invariant and write the document.
    let doc = match Workspace::open(cwd)
        .and_then(|ws| evaluate(&ws).and_then(|doc| write_document(&ws, &doc).map(|()| doc)))
    {
        Ok(doc) => doc,
        Err(e) => {
            writeln!(
                std::io::stderr(),
                "majordomus pre-push: gates-green cannot be read ({}); this push was not checked",
                e.chain()
            )?;
            return Ok(Exit::Ok);
        }
    };
    match refusal(&doc, args.remote.as_deref()) {
        Some(text) => {
            std::io::stderr().write_all(text.as_bytes())?;
            Ok(Exit::NotDone)
        }
        None => Ok(Exit::Ok),
    }
}

/// Why the push is refused, when gates-green is refused.
pub fn refusal(doc: &Document, remote: Option<&str>) -> Option<String> {
    let gates = doc.questions.iter().find(|q| q.id == "gates-green" && q.status == Status::Refused)?;
    let to = remote.map(|r| format!(" to {r}")).unwrap_or_default();
    Some(format!(
        "majordomus pre-push: the push{to} is refused: gates-green is refused.\n  {}\n  remedy: {}\n",
        crate::render::escape_text(&gates.evidence),
        crate::render::escape_text(&gates.remedy)
    ))
}

#[cfg(test)]
mod tests {
    use majordomus_invariant::Answer;

    use super::*;

    fn doc(status: Status) -> Document {
        let gates = Answer {
            id: "gates-green".into(),
            stage: "verification".into(),
            question: "q?".into(),
            status,
            evidence: "The gate unit failed (exit 101) over the current inputs.".into(),
            source: "s".into(),
            remedy: "majordomus gate run unit".into(),
            details: serde_json::json!({}),
        };
        Document::new(chrono::Utc::now(), "/r".into(), None, None, vec![gates], 5)
    }

    #[test]
    fn only_a_refused_gates_green_refuses_the_push() {
        let text = refusal(&doc(Status::Refused), Some("origin")).expect("refused");
        assert!(
            text.contains("the push to origin is refused")
                && text.contains("exit 101")
                && text.contains("majordomus gate run unit"),
            "{text}"
        );
        for status in [Status::Pass, Status::Owed, Status::Unknown, Status::Exempt] {
            assert_eq!(refusal(&doc(status), None), None, "{status}");
        }
    }
}
