//! `majordomus completions`: shell completion scripts.

use clap::{Args, CommandFactory};
use clap_complete::Shell;

use crate::{Cli, CliError, Exit};

/// Print a completion script for a shell.
#[derive(Debug, Args)]
#[command(after_help = "Install it where the shell looks:\n  \
    bash: majordomus completions bash > ~/.local/share/bash-completion/completions/majordomus\n  \
    zsh:  majordomus completions zsh > \"${fpath[1]}/_majordomus\"\n  \
    fish: majordomus completions fish > ~/.config/fish/completions/majordomus.fish")]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: Shell,
}

pub fn cmd_completions(args: CompletionsArgs) -> Result<Exit, CliError> {
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "majordomus", &mut out);
    crate::out::Out::lock().write_all(&out)?;
    Ok(Exit::Ok)
}
