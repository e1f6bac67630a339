//! `majordomus hook`: majordomus where the work ends. A coding agent's stop
//! hook asks it whether the agent may stop; a git pre-push hook asks it
//! whether the gates are green; `hook install` wires both in.

use std::path::Path;

use clap::{Args, Subcommand, ValueEnum};

use crate::{CliError, Exit};

pub mod install;
pub mod pre_push;
pub mod stop;

/// Hooks: answer a coding agent's stop, or git's pre-push, and install them.
#[derive(Debug, Args)]
pub struct HookArgs {
    #[command(subcommand)]
    pub command: HookCommand,
}

#[derive(Debug, Subcommand)]
pub enum HookCommand {
    Stop(stop::StopArgs),
    Install(install::InstallArgs),
    PrePush(pre_push::PrePushArgs),
}

/// The coding agent a stop hook answers, each with its own protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Agent {
    /// Claude Code: `.claude/settings.json`; an allowed stop prints nothing.
    Claude,
    /// OpenAI Codex: `.codex/hooks.json`; an allowed stop prints `{}`.
    Codex,
}

impl Agent {
    pub fn as_str(self) -> &'static str {
        match self {
            Agent::Claude => "claude",
            Agent::Codex => "codex",
        }
    }
}

/// Runs a `hook` subcommand. `hook stop` is handed the `-C` directory
/// itself: without one it measures where the host's input says it runs.
pub fn cmd_hook(
    explicit_dir: Option<&Path>,
    cwd: impl FnOnce() -> Result<std::path::PathBuf, CliError>,
    args: HookArgs,
) -> Result<Exit, CliError> {
    match args.command {
        HookCommand::Stop(a) => Ok(stop::cmd_hook_stop(explicit_dir, a)),
        HookCommand::Install(a) => install::cmd_hook_install(&cwd()?, a),
        HookCommand::PrePush(a) => pre_push::cmd_hook_pre_push(&cwd()?, a),
    }
}

/// Whether a command line that clap refused was meant for `hook stop`: a
/// stop hook must answer even then, or its host reads the usage error as a
/// verdict (Claude Code takes exit 2 from a Stop hook as a block).
pub fn is_stop_invocation(args: impl IntoIterator<Item = std::ffi::OsString>) -> bool {
    let args: Vec<String> = args.into_iter().map(|a| a.to_string_lossy().into_owned()).collect();
    args.windows(2).any(|w| w[0] == "hook" && w[1] == "stop")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_invocation_is_recognised_whatever_its_flags() {
        let os = |v: &[&str]| v.iter().map(std::ffi::OsString::from).collect::<Vec<_>>();
        assert!(is_stop_invocation(os(&["majordomus", "hook", "stop", "--agent", "cursor"])));
        assert!(is_stop_invocation(os(&["majordomus", "-C", "/r", "hook", "stop"])));
        assert!(!is_stop_invocation(os(&["majordomus", "hook", "install", "--agent", "claude"])));
        assert!(!is_stop_invocation(os(&["majordomus", "check"])));
    }
}
