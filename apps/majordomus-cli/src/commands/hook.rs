//! `majordomus hook`: majordomus where the work begins and ends. A coding
//! agent's session-start hook asks it what the session is held to, its stop
//! hook whether the agent may stop; a git pre-push hook asks it whether the
//! gates are green; `hook install` wires them in.
//!
//! The agent hooks are split along one seam: [`protocol`] is each host's
//! wire format (its input, the only answers it accepts), [`locate`] finds
//! the tasks a hook concerns, [`decide`] is the stop's decision (pure), and
//! [`stop`] and [`session_start`] are the commands that join them.

use std::path::Path;

use clap::{Args, Subcommand, ValueEnum};

use crate::{CliError, Exit};

pub mod background;
pub mod decide;
pub mod in_force;
pub mod install;
pub mod locate;
pub mod merge;
pub mod orphan;
pub mod pre_push;
pub mod protocol;
pub mod session_start;
pub mod settings_text;
pub mod stop;
pub mod watchdog;

/// Hooks: answer a coding agent's session start or stop, or git's pre-push,
/// and install them.
#[derive(Debug, Args)]
pub struct HookArgs {
    #[command(subcommand)]
    pub command: HookCommand,
}

#[derive(Debug, Subcommand)]
pub enum HookCommand {
    Stop(stop::StopArgs),
    SessionStart(session_start::SessionStartArgs),
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

/// Runs a `hook` subcommand. `hook stop` and `hook session-start` are
/// handed the `-C` directory itself: without one they look where the
/// host's input says the agent works.
pub fn cmd_hook(
    explicit_dir: Option<&Path>,
    cwd: impl FnOnce() -> Result<std::path::PathBuf, CliError>,
    args: HookArgs,
) -> Result<Exit, CliError> {
    match args.command {
        HookCommand::Stop(a) => Ok(stop::cmd_hook_stop(explicit_dir, a)),
        HookCommand::SessionStart(a) => Ok(session_start::cmd_hook_session_start(explicit_dir, a)),
        HookCommand::Install(a) => install::cmd_hook_install(&cwd()?, a),
        HookCommand::PrePush(a) => pre_push::cmd_hook_pre_push(&cwd()?, a),
    }
}

/// An agent hook, which must answer in its host's protocol whatever happens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgentHook {
    Stop,
    SessionStart,
}

/// Which agent hook a command line that clap refused was meant for, if
/// any: such a hook must answer even then, or its host reads the usage
/// error as a verdict (Claude Code takes exit 2 from a Stop hook as a block).
pub fn agent_hook_invocation(args: impl IntoIterator<Item = std::ffi::OsString>) -> Option<AgentHook> {
    let args: Vec<String> = args.into_iter().map(|a| a.to_string_lossy().into_owned()).collect();
    args.windows(2).find_map(|w| match (w[0].as_str(), w[1].as_str()) {
        ("hook", "stop") => Some(AgentHook::Stop),
        ("hook", "session-start") => Some(AgentHook::SessionStart),
        _ => None,
    })
}

/// Answers an agent hook whose command line clap refused.
pub fn answer_unparsed(hook: AgentHook, error: &str) -> Exit {
    match hook {
        AgentHook::Stop => stop::answer_unparsed(error),
        AgentHook::SessionStart => session_start::answer_unparsed(error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_agent_hook_invocation_is_recognised_whatever_its_flags() {
        let os = |v: &[&str]| v.iter().map(std::ffi::OsString::from).collect::<Vec<_>>();
        let hook = |v: &[&str]| agent_hook_invocation(os(v));
        assert_eq!(hook(&["majordomus", "hook", "stop", "--agent", "cursor"]), Some(AgentHook::Stop));
        assert_eq!(hook(&["majordomus", "-C", "/r", "hook", "stop"]), Some(AgentHook::Stop));
        assert_eq!(hook(&["majordomus", "hook", "session-start", "--x"]), Some(AgentHook::SessionStart));
        assert_eq!(hook(&["majordomus", "hook", "install", "--agent", "claude"]), None);
        assert_eq!(hook(&["majordomus", "check"]), None);
    }
}
