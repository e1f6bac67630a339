//! One file per command: an args struct whose doc comment is its `--help`,
//! and one `cmd_*` function.

use clap::Subcommand;

use crate::{Cli, CliError, Exit};

pub mod carry;
pub mod check;
pub mod finish;
pub mod start;

#[derive(Debug, Subcommand)]
pub enum Command {
    Start(start::StartArgs),
    Check(check::CheckArgs),
    Finish(finish::FinishArgs),
    Carry(carry::CarryArgs),
}

pub fn run(cli: Cli) -> Result<Exit, CliError> {
    let cwd = match cli.directory {
        Some(dir) => dir,
        None => std::env::current_dir().map_err(|e| CliError::internal("cannot read the current directory", e))?,
    };
    match cli.command {
        Command::Start(args) => start::cmd_start(&cwd, args),
        Command::Check(args) => check::cmd_check(&cwd, args),
        Command::Finish(args) => finish::cmd_finish(&cwd, args),
        Command::Carry(args) => carry::cmd_carry(&cwd, args),
    }
}
