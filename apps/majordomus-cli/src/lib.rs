//! The `majordomus` command line: clap commands (one file each), rendering,
//! and exit codes. Only this crate prints.

pub mod commands;
pub mod evaluate;
pub mod exit;
pub mod forge_tool;
pub mod gh;
pub mod glab;
pub mod out;
pub mod render;
pub mod watch;
pub mod workspace;

use std::process::ExitCode;

use clap::Parser;

pub use exit::{CliError, Exit};

/// A completion gate for a git repository: is this work done, measured.
///
/// `start` records where a task begins; `check` answers the done invariant
/// from the repository's own records and prints every question not yet
/// answered on one done line.
#[derive(Debug, Parser)]
#[command(name = "majordomus", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    /// Run as if started in this directory.
    #[arg(short = 'C', global = true, value_name = "DIR")]
    pub directory: Option<std::path::PathBuf>,

    #[command(subcommand)]
    pub command: commands::Command,
}

/// Parses the command line, runs it, and maps the outcome to an exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            if let Some(hook) =
                e.use_stderr().then(|| commands::hook::agent_hook_invocation(std::env::args_os())).flatten()
            {
                return commands::hook::answer_unparsed(hook, &e.to_string()).into();
            }
            let code = if e.use_stderr() { Exit::Usage } else { Exit::Ok };
            let _ = e.print();
            return code.into();
        }
    };
    // A panic is a defect of majordomus, never a verdict: it exits 13 (the
    // internal-error code of the contract), not the runtime's 101.
    let outcome = match std::panic::catch_unwind(|| commands::run(cli)) {
        Ok(outcome) => outcome,
        Err(_) => {
            out::errln!("majordomus: internal error (a panic, reported above); nothing was judged");
            return Exit::Internal.into();
        }
    };
    match outcome {
        Ok(exit) => exit.into(),
        Err(CliError::BrokenPipe) => Exit::Ok.into(),
        Err(e) => {
            // The last step before the terminal: whatever input a message
            // quotes, no control character reaches it (each line escaped).
            out::errln!("majordomus: {}", majordomus_records::text::escape_lines(&e.chain()));
            e.exit().into()
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn verify_app() {
        super::Cli::command().debug_assert();
    }
}
