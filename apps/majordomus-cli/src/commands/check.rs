//! `majordomus check`: run the done invariant.

use std::io::Write;
use std::path::Path;

use clap::Args;

use crate::evaluate::{document_bytes, evaluate, write_document};
use crate::workspace::Workspace;
use crate::{render, CliError, Exit};

/// Run the done invariant and print every question not yet answered.
///
/// Each question is answered from the record that holds the fact; the
/// answers are written to .ai/local/state/gates.completion.json. The last
/// line is the done line. Exit 0 when complete, 10 when not.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Print the gates.completion document instead of the summary.
    #[arg(long)]
    pub json: bool,
    /// Local readings only. check never reaches the network, so this is
    /// what it always does; the flag is accepted for scripts that ask.
    #[arg(long)]
    pub cheap: bool,
}

pub fn cmd_check(cwd: &Path, args: CheckArgs) -> Result<Exit, CliError> {
    let ws = Workspace::open(cwd)?;
    let doc = evaluate(&ws)?;
    write_document(&ws, &doc)?;
    let mut stdout = std::io::stdout().lock();
    if args.json {
        stdout.write_all(&document_bytes(&doc)?)?;
    } else {
        stdout.write_all(render::check_text(&doc).as_bytes())?;
    }
    stdout.flush()?;
    Ok(if doc.complete { Exit::Ok } else { Exit::NotDone })
}
