//! `majordomus check`: run the done invariant.

use std::io::Write;
use std::path::Path;

use clap::{Args, ValueEnum};

use crate::evaluate::{document_bytes, evaluate, evaluate_unreadable, write_document_bytes};
use crate::out::{self, Out};
use crate::workspace::{Opened, Workspace};
use crate::{render, CliError, Exit};

/// Run the done invariant and print every question not yet answered.
///
/// Each question is answered from the record that holds the fact; the
/// answers are written to .ai/local/state/gates.completion.json. The last
/// line is the done line. Exit 0 when complete, 10 when not. In GitHub
/// Actions (GITHUB_STEP_SUMMARY set), a Markdown summary is also appended
/// to the job's summary.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// How to print the answer: text (each open question with its evidence
    /// and remedy, then the done line), json (the gates.completion document)
    /// or github (GitHub Actions annotations, most important first, naming
    /// the file where the evidence does, then the done line).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// The same as --format json.
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// Local readings only. check never reaches the network, so this is
    /// what it always does; the flag is accepted for scripts that ask.
    #[arg(long)]
    pub cheap: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    Github,
}

pub fn cmd_check(cwd: &Path, args: CheckArgs) -> Result<Exit, CliError> {
    // Encoded once: the bytes kept are the bytes `--json` writes out.
    let (doc, bytes) = match Workspace::open_for_check(cwd)? {
        Opened::Readable(ws) => {
            let doc = evaluate(&ws)?;
            let bytes = document_bytes(&doc)?;
            write_document_bytes(&ws.paths, &bytes)?;
            crate::workspace::say_torn_ledger(&ws.paths);
            (doc, bytes)
        }
        Opened::Unreadable { paths, reason } => {
            let doc = evaluate_unreadable(&paths, &reason)?;
            let bytes = document_bytes(&doc)?;
            write_document_bytes(&paths, &bytes)?;
            (doc, bytes)
        }
    };
    // Read: what is left is the answer's writing, which no watch cuts.
    crate::watch::disarm();
    append_step_summary(&doc);
    let format = if args.json { Format::Json } else { args.format };
    let text = match format {
        Format::Json => bytes,
        Format::Github => render::github(&doc).into_bytes(),
        Format::Text => render::check_text(&doc, render::use_color(out::stdout_is_terminal())).into_bytes(),
    };
    let mut stdout = Out::lock();
    let written = stdout.write_all(&text).and_then(|()| stdout.flush());
    out::keeping(if doc.complete { Exit::Ok } else { Exit::NotDone }, written)
}

/// In GitHub Actions (`GITHUB_STEP_SUMMARY` names a file), appends the
/// Markdown summary of the document to it. A summary that cannot be written
/// is said on stderr and changes nothing else: the job's verdict is the
/// exit status, not the summary.
fn append_step_summary(doc: &majordomus_invariant::Document) {
    let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|p| !p.is_empty()) else { return };
    let written = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(&path)
        .and_then(|mut f| f.write_all(render::step_summary(doc).as_bytes()));
    if let Err(e) = written {
        crate::out::errln!(
            "majordomus: cannot append the summary to GITHUB_STEP_SUMMARY ({}): {e}",
            std::path::Path::new(&path).display()
        );
    }
}
