//! `majordomus init`: a repository set up in one command. It writes a
//! starter policy from what it finds at the root ([`starter`]), prints it,
//! and, with `--hooks`, installs the hooks through `hook install`'s own
//! code. It asks nothing, and never replaces a policy that is there: with
//! `--force` it shows the difference first, then writes.

use std::path::Path;

use clap::{Args, ValueEnum};
use majordomus_records::paths::POLICY_FILE;

use super::hook::install::{cmd_hook_install, InstallArgs};
use super::hook::Agent;
use crate::out::{outln, Out};
use crate::workspace::Workspace;
use crate::{CliError, Exit};

pub mod starter;

/// Set a repository up: write a starter policy (.ai/repo/majordomus.toml)
/// from what is found at its root, print it, and install hooks if asked.
///
/// Cargo.toml gives a gate running cargo test, a package.json test script
/// npm test (yarn, pnpm or bun beside their lock files), pyproject.toml,
/// setup.py, setup.cfg, pytest.ini or tox.ini python3 -m pytest, go.mod go
/// test ./..., each with the inputs that select it. Nothing is asked and
/// nothing is run. A policy already there is never replaced: --force shows
/// the difference, then writes the starter.
#[derive(Debug, Args)]
pub struct InitArgs {
    /// Also install these hooks (repeatable, or comma-separated): claude and
    /// codex as `hook install --agent`, git as `hook install --git`.
    #[arg(long, value_enum, value_delimiter = ',', value_name = "HOST")]
    pub hooks: Vec<HookHost>,
    /// Replace a policy that is already there, after showing the difference.
    #[arg(long)]
    pub force: bool,
    /// Print what would be written (or the difference) and change nothing.
    #[arg(long)]
    pub dry_run: bool,
}

/// A place `init --hooks` installs hooks into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HookHost {
    Claude,
    Codex,
    Git,
}

pub fn cmd_init(cwd: &Path, args: InitArgs) -> Result<Exit, CliError> {
    let ws = Workspace::open(cwd)?;
    let root = ws.repo.root();
    let mut found = starter::detect(root);
    found.forge = forge_lines(&ws);
    let text = found.render();
    let path = ws.paths.policy();
    let existing = match std::fs::read_to_string(&path) {
        Ok(t) => Some(t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(CliError::internal(format!("cannot read {POLICY_FILE}"), e)),
    };
    let mut out = Out::lock();
    let mut written = false;
    let would = if args.dry_run { "would write" } else { "wrote" };
    match existing {
        None => {
            if !args.dry_run {
                write_policy(root, &path, &text)?;
                written = true;
            }
            writeln!(out, "{would} {POLICY_FILE}:\n")?;
            out.write_all(text.as_bytes())?;
        }
        Some(old) if old == text => {
            writeln!(out, "{POLICY_FILE} already holds what init would write; nothing to change")?;
        }
        Some(_) if !args.force => {
            writeln!(
                out,
                "kept {POLICY_FILE}: a policy is there already, and init never replaces one \
                 (majordomus init --force shows the difference, then writes the starter)"
            )?;
        }
        Some(old) => {
            writeln!(out, "the difference between {POLICY_FILE} (-) and the starter init writes (+):")?;
            let diff = similar::TextDiff::from_lines(&old, &text);
            write!(out, "{}", diff.unified_diff().context_radius(3).header(POLICY_FILE, "starter"))?;
            if !args.dry_run {
                write_policy(root, &path, &text)?;
                written = true;
                writeln!(out, "replaced {POLICY_FILE} with the starter")?;
            }
        }
    }
    drop(out);
    for host in dedup(&args.hooks) {
        let (agent, git) = match host {
            HookHost::Claude => (Some(Agent::Claude), false),
            HookHost::Codex => (Some(Agent::Codex), false),
            HookHost::Git => (None, true),
        };
        let install = InstallArgs { agent, git, user: false, dry_run: args.dry_run, bin: None, timeout: 60 };
        cmd_hook_install(cwd, install)?;
    }
    if written {
        outln!(
            "\nnext:\n  git add {POLICY_FILE} && git commit -m \"majordomus: the policy\"\n  \
             majordomus start \"what the work is\"\n  majordomus gate run --all\n  majordomus check"
        )?;
    }
    Ok(Exit::Ok)
}

fn dedup(hosts: &[HookHost]) -> Vec<HookHost> {
    let mut seen = Vec::new();
    for h in hosts {
        if !seen.contains(h) {
            seen.push(*h);
        }
    }
    seen
}

fn write_policy(root: &Path, path: &Path, text: &str) -> Result<(), CliError> {
    // A file to be committed: the usual permissions (0644 less the umask),
    // or those of the policy replaced; written below the root only.
    majordomus_records::atomic::write_atomic_keeping_mode(root, path, text.as_bytes())
        .map_err(crate::workspace::place_error)
}

/// The `[forge]` lines of the starter, from the remotes' URLs: GitHub,
/// GitLab, no remote (no forge), or one this cannot name (said, left open).
fn forge_lines(ws: &Workspace) -> Vec<String> {
    let git = &ws.repo.git;
    let urls: Vec<(String, String)> = git
        .remotes()
        .map(|names| {
            names
                .iter()
                .flatten()
                .filter_map(|n| git.find_remote(n).ok().and_then(|r| r.url().map(|u| (n.to_string(), u.to_string()))))
                .collect()
        })
        .unwrap_or_default();
    let host = |u: &str| {
        let u = u.to_ascii_lowercase();
        if u.contains("github") {
            Some("github")
        } else if u.contains("gitlab") {
            Some("gitlab")
        } else {
            None
        }
    };
    let named = urls.iter().find(|(n, _)| n == "origin").or(urls.first());
    let local = |u: &str| u.starts_with('/') || u.starts_with("file://") || u.starts_with('.');
    match named {
        Some((name, url)) if local(url) => vec![
            format!("# The remote {name} is a directory on this machine, not a forge: nothing holds pull requests."),
            "# Say \"github\" or \"gitlab\" here once the repository has one.".into(),
            "[forge]".into(),
            "provider = \"none\"".into(),
        ],
        None => vec![
            "# No remote: no forge holds pull requests for this repository. Say \"github\" or".into(),
            "# \"gitlab\" here once it has one.".into(),
            "[forge]".into(),
            "provider = \"none\"".into(),
        ],
        Some((name, url)) => match host(url) {
            Some(p) => vec![
                format!(
                    "# The remote {name} is on {}.",
                    if p == "github" { "GitHub (observed through gh)" } else { "GitLab (observed through glab)" }
                ),
                "[forge]".into(),
                format!("provider = \"{p}\""),
            ],
            None => vec![
                format!("# The remote {name} is on a forge neither gh nor glab reaches: declare observations typed in"),
                "# (majordomus forge record), or no forge.".into(),
                "# [forge]".into(),
                "# provider = \"recorded\"".into(),
            ],
        },
    }
}
