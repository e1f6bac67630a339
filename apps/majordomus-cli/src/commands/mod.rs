//! One file per command: an args struct whose doc comment is its `--help`,
//! and one `cmd_*` function.

use clap::Subcommand;

use crate::{Cli, CliError, Exit};

pub mod ack;
pub mod bg;
pub mod carry;
pub mod check;
pub mod completions;
pub mod explain;
pub mod finish;
pub mod forge;
pub mod gate;
pub mod hook;
pub mod init;
pub mod issue;
pub mod markers;
pub mod schema;
pub mod scope;
pub mod score;
pub mod start;
pub mod supervise;
pub mod sweep;
pub mod todo;

#[derive(Debug, Subcommand)]
pub enum Command {
    Init(init::InitArgs),
    Start(start::StartArgs),
    Scope(scope::ScopeArgs),
    Check(check::CheckArgs),
    Finish(finish::FinishArgs),
    Gate(gate::GateArgs),
    Carry(carry::CarryArgs),
    Hook(hook::HookArgs),
    Explain(explain::ExplainArgs),
    Schema(schema::SchemaArgs),
    Completions(completions::CompletionsArgs),
    // Bookkeeping and the score (README.md, "Bookkeeping, acknowledgements, the score and the sweep").
    Todo(todo::TodoArgs),
    Issue(issue::IssueArgs),
    Bg(bg::BgArgs),
    Ack(ack::AckArgs),
    Score(score::ScoreArgs),
    Markers(markers::MarkersArgs),
    Sweep(sweep::SweepArgs),
    // The forge observation (README.md, "The closing questions, and `majordomus forge`").
    Forge(forge::ForgeArgs),
    /// The parent a gate's shell runs under (`gate run` starts it; not for direct use).
    #[command(hide = true)]
    Supervise(supervise::SuperviseArgs),
}

pub fn run(cli: Cli) -> Result<Exit, CliError> {
    // A test seam in debug builds only: `MAJORDOMUS_FAULT=panic` makes every
    // command panic here, so the mapping of a panic to exit 13 is tested.
    #[cfg(debug_assertions)]
    if std::env::var_os("MAJORDOMUS_FAULT").is_some_and(|v| v == "panic") {
        panic!("a fault injected by MAJORDOMUS_FAULT");
    }
    let dir = cli.directory;
    // Read only by the commands that need it: `hook stop` must answer even
    // where the current directory cannot be read.
    let cwd = || match &dir {
        Some(d) => Ok(d.clone()),
        None => std::env::current_dir().map_err(|e| CliError::internal("cannot read the current directory", e)),
    };
    // The commands that read the repository to judge or record a task are
    // watched while they read: a reading that never returns (a FIFO where
    // git reads a file) ends the command, saying so (`watch.rs`).
    let watched = |what: &str, exit: Exit| {
        let cwd = cwd()?;
        crate::watch::arm(what, &cwd, exit);
        Ok::<_, CliError>(cwd)
    };
    let ran = match cli.command {
        Command::Init(args) => init::cmd_init(&cwd()?, args),
        Command::Start(args) => start::cmd_start(&watched("start's reading of the repository", Exit::Usage)?, args),
        Command::Scope(args) => scope::cmd_scope(&cwd()?, args),
        Command::Check(args) => check::cmd_check(&watched("check's reading of the repository", Exit::NotDone)?, args),
        Command::Finish(args) => finish::cmd_finish(&watched("finish's reading of the repository", Exit::Usage)?, args),
        Command::Gate(args) => gate::cmd_gate(&watched("gate's reading of the repository", Exit::Usage)?, args),
        Command::Carry(args) => carry::cmd_carry(&cwd()?, args),
        Command::Hook(args) => hook::cmd_hook(dir.as_deref(), cwd, args),
        Command::Explain(args) => explain::cmd_explain(&cwd()?, args),
        Command::Schema(args) => schema::cmd_schema(args),
        Command::Completions(args) => completions::cmd_completions(args),
        Command::Todo(args) => todo::cmd_todo(&cwd()?, args),
        Command::Issue(args) => issue::cmd_issue(&cwd()?, args),
        Command::Bg(args) => bg::cmd_bg(&cwd()?, args),
        Command::Ack(args) => ack::cmd_ack(&cwd()?, args),
        Command::Score(args) => score::cmd_score(&cwd()?, args),
        Command::Markers(args) => markers::cmd_markers(&cwd()?, args),
        Command::Sweep(args) => sweep::cmd_sweep(&cwd()?, args),
        Command::Forge(args) => forge::cmd_forge(&cwd()?, args),
        Command::Supervise(args) => supervise::cmd_supervise(args),
    };
    crate::watch::disarm();
    ran
}
