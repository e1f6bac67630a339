//! One file per command: an args struct whose doc comment is its `--help`,
//! and one `cmd_*` function.

use clap::Subcommand;

use crate::{Cli, CliError, Exit};

pub mod carry;
pub mod check;
pub mod completions;
pub mod explain;
pub mod finish;
pub mod gate;
pub mod hook;
pub mod schema;
pub mod start;

#[derive(Debug, Subcommand)]
pub enum Command {
    Start(start::StartArgs),
    Check(check::CheckArgs),
    Finish(finish::FinishArgs),
    Gate(gate::GateArgs),
    Carry(carry::CarryArgs),
    Hook(hook::HookArgs),
    Explain(explain::ExplainArgs),
    Schema(schema::SchemaArgs),
    Completions(completions::CompletionsArgs),
}

pub fn run(cli: Cli) -> Result<Exit, CliError> {
    let dir = cli.directory;
    // Read only by the commands that need it: `hook stop` must answer even
    // where the current directory cannot be read.
    let cwd = || match &dir {
        Some(d) => Ok(d.clone()),
        None => std::env::current_dir().map_err(|e| CliError::internal("cannot read the current directory", e)),
    };
    match cli.command {
        Command::Start(args) => start::cmd_start(&cwd()?, args),
        Command::Check(args) => check::cmd_check(&cwd()?, args),
        Command::Finish(args) => finish::cmd_finish(&cwd()?, args),
        Command::Gate(args) => gate::cmd_gate(&cwd()?, args),
        Command::Carry(args) => carry::cmd_carry(&cwd()?, args),
        Command::Hook(args) => hook::cmd_hook(dir.as_deref(), cwd, args),
        Command::Explain(args) => explain::cmd_explain(&cwd()?, args),
        Command::Schema(args) => schema::cmd_schema(args),
        Command::Completions(args) => completions::cmd_completions(args),
    }
}
