//! `majordomus hook install`: wire majordomus into the places work begins
//! and ends.
//!
//! An agent's settings file is somebody's file first: the install merges
//! into it as text ([`super::settings_text`]): every other key, every other
//! hook, their order, spacing and numbers kept byte for byte; a majordomus
//! hook already there is updated in place rather than added twice, and a
//! file that cannot be read as settings is refused instead of replaced.
//! Both hosts get the hook for each event majordomus answers: `Stop` and
//! `SubagentStop` (`hook stop`), `SessionStart` (`hook session-start`).
//! A git pre-push hook already there is moved aside to
//! `pre-push.majordomus-chained` and called first, never removed.
//!
//! Where the hooks go decides whether they run, and each host has its own
//! rule, said at install time where the user needs it: Claude Code reads a
//! project's `.claude/settings.json` from the directory it was started in
//! (`--user` installs into `~/.claude/settings.json` instead, for sessions
//! started anywhere); Codex runs a project's `.codex/hooks.json` only in a
//! trusted project and only once each hook is reviewed.

use std::path::{Path, PathBuf};

use clap::{ArgGroup, Args};
use serde_json::Value;

use super::merge::{hook_specs, hook_value, merge_hooks, Change, Edit};
use super::Agent;
use crate::out::{self, outln};
use crate::workspace::Workspace;
use crate::{CliError, Exit};

/// Install majordomus's hooks: an agent's session-start and stop hooks, or
/// a git pre-push hook.
///
/// --agent claude merges Stop, SubagentStop and SessionStart hooks into
/// .claude/settings.json at the repository root (Claude Code reads it only
/// when started in that directory; --user writes ~/.claude/settings.json
/// instead, for every session); --agent codex merges the same hooks into
/// .codex/hooks.json (Codex runs them once the project is trusted and the
/// hooks reviewed: the install says how; --user writes
/// $CODEX_HOME/hooks.json). Everything already there is kept as written; a
/// majordomus hook already there is updated in place, never added twice.
/// --git installs a pre-push hook (in core.hooksPath if set, else the
/// common git directory's hooks/) that refuses a push while gates-green is
/// refused, calling the pre-push hook it replaces first.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("target").required(true).args(["agent", "git"])))]
pub struct InstallArgs {
    /// The coding agent whose hooks to install.
    #[arg(long, value_enum)]
    pub agent: Option<Agent>,
    /// Install the git pre-push hook instead.
    #[arg(long)]
    pub git: bool,
    /// Install into the user's settings (~/.claude/settings.json, or
    /// $CODEX_HOME/hooks.json, default ~/.codex/hooks.json) rather than
    /// the project's: the hooks then run in every session, wherever it was
    /// started, and are silent where no task is active.
    #[arg(long, conflicts_with = "git")]
    pub user: bool,
    /// Print what would change instead of writing it: the hooks that would
    /// be added or updated, or the whole file where there is none yet.
    #[arg(long)]
    pub dry_run: bool,
    /// The majordomus program the hook runs. Default: `majordomus` (found
    /// on PATH) for an agent's settings, which are often shared; this
    /// executable's own path for the git hook, which is local.
    #[arg(long, value_name = "PATH")]
    pub bin: Option<String>,
    /// Seconds the agent waits for a hook (its `timeout`); the hook's time
    /// budget ([hook] budget_ms, 20 s by default) must stay well under it.
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    pub timeout: u64,
}

pub fn cmd_hook_install(cwd: &Path, args: InstallArgs) -> Result<Exit, CliError> {
    match args.agent {
        Some(agent) if args.user => install_user(cwd, agent, &args),
        Some(agent) => {
            let ws = Workspace::open(cwd)?;
            let budget_ms = ws.policy()?.hook.budget_ms;
            let rel = settings_file(agent);
            let root = ws
                .repo
                .root()
                .canonicalize()
                .map_err(|e| CliError::internal("cannot resolve the repository root", e))?;
            let path = settings_in_repository(&root, rel)?;
            install_agent(agent, &args, (&root, &path), rel, budget_ms)?;
            if path != root.join(rel) && !args.dry_run {
                let real = path.strip_prefix(&root).unwrap_or(&path);
                outln!("{rel} leads through a symbolic link to {}, in this repository: written there", real.display())?;
            }
            if agent == Agent::Codex && !args.dry_run {
                out::text(&codex_next_steps(ws.repo.root(), false))?;
            }
            Ok(Exit::Ok)
        }
        None => super::pre_push::install_git(&Workspace::open(cwd)?, args.bin.as_deref(), args.dry_run),
    }
}

// ---- an agent's hooks --------------------------------------------------------

/// Where a host keeps a project's hooks, relative to the repository root.
pub fn settings_file(agent: Agent) -> &'static str {
    match agent {
        Agent::Claude => ".claude/settings.json",
        Agent::Codex => ".codex/hooks.json",
    }
}

/// Where a host keeps the user's own hooks: `CLAUDE_CONFIG_DIR` (else
/// `~/.claude`) `/settings.json`, `CODEX_HOME` (else `~/.codex`) `/hooks.json`.
pub fn user_settings_file(agent: Agent) -> Result<PathBuf, CliError> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    let home =
        || var("HOME").ok_or_else(|| CliError::Usage("HOME is not set, so the user's settings cannot be found".into()));
    Ok(match agent {
        Agent::Claude => {
            var("CLAUDE_CONFIG_DIR").map_or_else(|| home().map(|h| h.join(".claude")), Ok)?.join("settings.json")
        }
        Agent::Codex => var("CODEX_HOME").map_or_else(|| home().map(|h| h.join(".codex")), Ok)?.join("hooks.json"),
    })
}

/// Merges majordomus's hooks into the settings at `path` (shown as
/// `shown`), or says what would change. `path` is written below `base`
/// without following a link on the way ([`majordomus_records::confined`]).
fn install_agent(
    agent: Agent,
    args: &InstallArgs,
    (base, path): (&Path, &Path),
    shown: &str,
    budget_ms: u64,
) -> Result<(), CliError> {
    timeout_leaves_room(args.timeout, budget_ms).map_err(CliError::Usage)?;
    let existing = match std::fs::read_to_string(path) {
        Ok(t) => Some(t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(CliError::internal(format!("cannot read {}", path.display()), e)),
    };
    let specs = hook_specs(args.bin.as_deref().unwrap_or("majordomus"), agent, args.timeout);
    let (text, edits) = merge_hooks(existing.as_deref(), &specs, args.timeout)
        .map_err(|why| CliError::Usage(format!("{shown} cannot be merged into: {why}; nothing was changed")))?;
    let changed: Vec<&Edit> = edits.iter().filter(|e| e.change != Change::Unchanged).collect();
    if changed.is_empty() {
        let events: Vec<&str> = specs.iter().map(|s| s.event).collect();
        outln!("{shown} already has majordomus's {} hooks; nothing to change", events.join(", "))?;
        return Ok(());
    }
    if args.dry_run {
        if existing.as_deref().is_some_and(|t| !t.trim().is_empty()) {
            // The change, not the file: everything else in it stays as it is.
            outln!("would change {shown}, keeping everything else in it:")?;
            for e in changed {
                let verb = if e.change == Change::Added { "add" } else { "update" };
                outln!("  {verb} {}: {}", e.at, hook_value(&e.command, args.timeout))?;
            }
        } else {
            outln!("would write {shown}:")?;
            out::text(&text)?;
        }
        return Ok(());
    }
    majordomus_records::atomic::write_atomic_keeping_mode(base, path, text.as_bytes())
        .map_err(crate::workspace::place_error)?;
    for e in changed {
        let did = if e.change == Change::Added { "added a" } else { "updated the" };
        let to = if e.change == Change::Added { "to" } else { "in" };
        outln!("{did} {} hook {to} {shown}: {} (timeout {} s)", e.event, e.command, args.timeout)?;
    }
    Ok(())
}

/// `--user`: the user's settings, for sessions started anywhere. The time
/// budget checked is the repository's policy when run in one, else the
/// default.
fn install_user(cwd: &Path, agent: Agent, args: &InstallArgs) -> Result<Exit, CliError> {
    let budget_ms = match Workspace::open(cwd) {
        Ok(ws) => ws.policy()?.hook.budget_ms,
        Err(_) => majordomus_records::policy::DEFAULT_BUDGET_MS,
    };
    let file = user_settings_file(agent)?;
    let shown = file.display().to_string();
    let path = settings_target(&file, &shown)?;
    // The user's own directory, as the user's settings name it: trusted.
    let base = path.parent().unwrap_or(Path::new("/"));
    install_agent(agent, args, (base, &path), &shown, budget_ms)?;
    if agent == Agent::Codex && !args.dry_run {
        out::text(&codex_next_steps(cwd, true))?;
    }
    Ok(Exit::Ok)
}

/// What remains before Codex runs the hooks: Codex runs a project's hooks
/// only in a trusted project, and any hook only once it is reviewed (a hook
/// changed in any way, its timeout included, needs a new review); `codex
/// exec` skips a hook not reviewed without a word.
pub fn codex_next_steps(root: &Path, user: bool) -> String {
    let project = root.display();
    let mut out = String::from("Codex runs these hooks only once:\n");
    if !user {
        out.push_str(&format!(
            "  - the project is trusted: in `codex` started in {project}, /hooks asks (\"Trust and continue\"), \
             or run `codex exec --trust ...` once, or add to ~/.codex/config.toml:\n      [projects.{}]\n      trust_level = \"trusted\"\n",
            Value::from(project.to_string())
        ));
    }
    out.push_str(
        "  - each hook is reviewed: in `codex`, /hooks says they need review (\"Trust all and continue\"); \
         any change to a hook, even its timeout, needs a new review\n\
         Until then `codex exec` skips them without a word. A headless run that vets its hooks itself \
         (CI) can run them unreviewed with `codex exec --dangerously-bypass-hook-trust`.\n",
    );
    out
}

/// Seconds an agent's timeout must leave beyond the hook's time budget: to
/// start, open the repository and answer.
pub const TIMEOUT_MARGIN_SECONDS: u64 = 5;

/// Whether an agent's `timeout` leaves the hook's budget room: more than
/// `budget_ms` plus [`TIMEOUT_MARGIN_SECONDS`]. Past its timeout the agent
/// kills the hook, which then neither blocks nor says why.
pub fn timeout_leaves_room(timeout: u64, budget_ms: u64) -> Result<(), String> {
    let least = budget_ms.saturating_add(TIMEOUT_MARGIN_SECONDS * 1000) / 1000 + 1;
    if timeout < least {
        return Err(format!(
            "a timeout of {timeout} s leaves no room for the hook's time budget of {budget_ms} ms ([hook] budget_ms) \
             and {TIMEOUT_MARGIN_SECONDS} s more to answer: give --timeout {least} or more, or lower [hook] budget_ms; \
             nothing was changed"
        ));
    }
    Ok(())
}

/// A project's settings file: `rel` below the (canonical) `root` itself,
/// or, where a symbolic link on the way leads elsewhere in the repository,
/// the real file, written through. A link that leads out of the repository
/// is refused, naming where it leads: majordomus writes only inside the
/// repository it was asked about (a clone may bring such a link). Anything
/// but a regular file at the end is refused too ([`settings_target`]).
fn settings_in_repository(root: &Path, rel: &str) -> Result<PathBuf, CliError> {
    let path = root.join(rel);
    let target = real_path(&path).map_err(|e| {
        CliError::Usage(format!("{rel} is a symbolic link whose target cannot be resolved ({e}); nothing was changed"))
    })?;
    if !target.starts_with(root) {
        return Err(CliError::Usage(format!(
            "{rel} leads through a symbolic link to {}, outside this repository: majordomus writes only inside it; \
             edit that file by hand, or replace the link with a file of this repository; nothing was changed",
            majordomus_records::text::escape(&target.display().to_string())
        )));
    }
    match std::fs::symlink_metadata(&target) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(target),
        _ if target == path => settings_target(&path, rel),
        Ok(m) if m.is_file() => Ok(target),
        Ok(_) => Err(CliError::Usage(format!(
            "{rel} is a symbolic link to {}, which is not a regular file; nothing was changed",
            target.display()
        ))),
        Err(e) => Err(CliError::internal(format!("cannot read {}", target.display()), e)),
    }
}

/// Where `path` really is: its deepest part that exists, every symbolic
/// link in it resolved, and the rest (not there yet) after it. A dangling
/// link is an error.
fn real_path(path: &Path) -> std::io::Result<PathBuf> {
    let mut existing = path;
    let mut rest = Vec::new();
    while let Err(e) = std::fs::symlink_metadata(existing) {
        match (e.kind(), existing.parent(), existing.file_name()) {
            (std::io::ErrorKind::NotFound, Some(parent), Some(name)) => {
                rest.push(name.to_owned());
                existing = parent;
            }
            _ => return Err(e),
        }
    }
    let mut real = std::fs::canonicalize(existing)?;
    real.extend(rest.iter().rev());
    Ok(real)
}

/// The file the settings are written to: `path` itself, or where a
/// symbolic link there leads, written through. Anything but a regular file
/// at the end (a directory, a device, a dangling link) is refused: it is
/// never read or replaced.
fn settings_target(path: &Path, rel: &str) -> Result<PathBuf, CliError> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(path.to_path_buf()),
        Err(e) => return Err(CliError::internal(format!("cannot read {}", path.display()), e)),
    };
    let target = if meta.file_type().is_symlink() {
        std::fs::canonicalize(path).map_err(|e| {
            CliError::Usage(format!(
                "{rel} is a symbolic link whose target cannot be resolved ({e}); nothing was changed"
            ))
        })?
    } else {
        path.to_path_buf()
    };
    match std::fs::metadata(&target) {
        Ok(m) if m.is_file() => Ok(target),
        Ok(_) if target != path => Err(CliError::Usage(format!(
            "{rel} is a symbolic link to {}, which is not a regular file; nothing was changed",
            target.display()
        ))),
        Ok(_) => Err(CliError::Usage(format!("{rel} is not a regular file; nothing was changed"))),
        Err(e) => Err(CliError::internal(format!("cannot read {}", target.display()), e)),
    }
}

/// A word the shell reads back as `s`.
pub(super) fn shell_quote(s: &str) -> String {
    let plain = !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+:=@%".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_timeout_must_exceed_the_budget_and_a_margin() {
        assert!(timeout_leaves_room(60, 20_000).is_ok());
        assert!(timeout_leaves_room(26, 20_000).is_ok());
        let err = timeout_leaves_room(25, 20_000).expect_err("no margin");
        assert!(err.contains("give --timeout 26 or more"), "{err}");
        assert!(timeout_leaves_room(0, 100).is_err());
        assert!(timeout_leaves_room(5, 100).is_err());
        assert!(timeout_leaves_room(6, 100).is_ok());
        assert!(timeout_leaves_room(7, 1_500).is_ok());
        assert!(timeout_leaves_room(6, 1_500).is_err());
    }

    #[test]
    fn codex_is_told_to_trust_the_project_by_its_path_and_to_review_the_hooks() {
        let steps = codex_next_steps(Path::new("/w/my \"repo\""), false);
        assert!(steps.contains("[projects.\"/w/my \\\"repo\\\"\"]\n      trust_level = \"trusted\""), "{steps}");
        assert!(steps.contains("/hooks") && steps.contains("--dangerously-bypass-hook-trust"), "{steps}");
        assert!(!codex_next_steps(Path::new("/w"), true).contains("trust_level"), "user hooks need no project trust");
    }
}
