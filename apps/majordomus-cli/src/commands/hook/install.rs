//! `majordomus hook install`: wire majordomus into the places work ends.
//!
//! An agent's settings file is somebody's file first: the install merges
//! into it (every other key, every other hook kept, the order of keys kept),
//! finds a majordomus stop hook already there and updates it in place rather
//! than adding a second, and refuses a file it cannot read as settings
//! instead of replacing it. Claude Code gets the hook for both events
//! `hook stop` answers, `Stop` and `SubagentStop`; Codex, `Stop`. A git
//! pre-push hook already there is moved aside to
//! `pre-push.majordomus-chained` and called first, never removed.

use std::path::{Path, PathBuf};

use clap::{ArgGroup, Args};
use serde_json::{json, Value};

use super::Agent;
use crate::workspace::Workspace;
use crate::{CliError, Exit};

/// Install majordomus's hooks: an agent's stop hook, or a git pre-push hook.
///
/// --agent claude merges a Stop and a SubagentStop hook into
/// .claude/settings.json, --agent codex a Stop hook into .codex/hooks.json,
/// both at the repository root. Everything already there is kept; a
/// majordomus hook already there is updated in place, never added twice.
/// --git installs a pre-push hook (in core.hooksPath if set, else the common
/// git directory's hooks/) that refuses a push while gates-green is refused,
/// calling the pre-push hook it replaces first.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("target").required(true).args(["agent", "git"])))]
pub struct InstallArgs {
    /// The coding agent whose stop hook to install.
    #[arg(long, value_enum)]
    pub agent: Option<Agent>,
    /// Install the git pre-push hook instead.
    #[arg(long)]
    pub git: bool,
    /// Print what would change instead of writing it: the hooks that would
    /// be added or updated, or the whole file where there is none yet.
    #[arg(long)]
    pub dry_run: bool,
    /// The majordomus program the hook runs. Default: `majordomus` (found
    /// on PATH) for an agent's settings, which are often shared; this
    /// executable's own path for the git hook, which is local.
    #[arg(long, value_name = "PATH")]
    pub bin: Option<String>,
    /// Seconds the agent waits for the stop hook (its `timeout`); the hook's
    /// time budget ([hook] budget_ms, 20 s by default) must stay well under it.
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    pub timeout: u64,
}

pub fn cmd_hook_install(cwd: &Path, args: InstallArgs) -> Result<Exit, CliError> {
    let ws = Workspace::open(cwd)?;
    match args.agent {
        Some(agent) => install_agent(&ws, agent, &args),
        None => install_git(&ws, &args),
    }
}

// ---- an agent's stop hook --------------------------------------------------

/// Where a host keeps a project's hooks, relative to the repository root.
pub fn settings_file(agent: Agent) -> &'static str {
    match agent {
        Agent::Claude => ".claude/settings.json",
        Agent::Codex => ".codex/hooks.json",
    }
}

/// The host's events `majordomus hook stop` answers, in the order installed.
pub fn stop_events(agent: Agent) -> &'static [&'static str] {
    match agent {
        Agent::Claude => &["Stop", "SubagentStop"],
        Agent::Codex => &["Stop"],
    }
}

/// The command the stop hook runs.
pub fn stop_command(bin: &str, agent: Agent) -> String {
    format!("{} hook stop --agent {}", shell_quote(bin), agent.as_str())
}

/// What merging did to one event's hooks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    Added,
    Updated,
    Unchanged,
}

/// One event's part of a merge: what was done, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    /// The event: `Stop`, `SubagentStop`.
    pub event: &'static str,
    pub change: Change,
    /// Where the hook is in the settings, as a path: `hooks.Stop[1].hooks[0]`.
    pub at: String,
}

/// Merges a hook running `command` into the settings text (`None`: no file
/// yet) for each of `events`, returning the new text and, per event, what
/// was done. The structure is the one both hosts read: `hooks.<event>` is a
/// list of groups, each with a list of `hooks`, each `{"type": "command",
/// "command": ..., "timeout": ...}`. Stop and SubagentStop take no matcher,
/// so the group has none.
pub fn merge_stop_hook(
    existing: Option<&str>,
    events: &[&'static str],
    command: &str,
    timeout: u64,
) -> Result<(String, Vec<Edit>), String> {
    let mut root: Value = match existing {
        Some(text) if !text.trim().is_empty() => {
            serde_json::from_str(text).map_err(|e| format!("it is not JSON ({e})"))?
        }
        _ => json!({}),
    };
    let settings = root.as_object_mut().ok_or("it is not a JSON object")?;
    let hooks =
        settings.entry("hooks").or_insert_with(|| json!({})).as_object_mut().ok_or("its \"hooks\" is not an object")?;
    let mut edits = Vec::new();
    for &event in events {
        let groups = hooks
            .entry(event)
            .or_insert_with(|| json!([]))
            .as_array_mut()
            .ok_or_else(|| format!("its \"hooks\".\"{event}\" is not a list"))?;
        edits.extend(merge_into(groups, event, command, timeout));
    }
    let mut text = serde_json::to_string_pretty(&root).map_err(|e| format!("cannot encode the settings ({e})"))?;
    text.push('\n');
    Ok((text, edits))
}

/// Merges the hook into one event's list of groups: every majordomus stop
/// hook there updated in place, or one group added when there is none.
fn merge_into(groups: &mut Vec<Value>, event: &'static str, command: &str, timeout: u64) -> Vec<Edit> {
    let mut edits = Vec::new();
    for (g, group) in groups.iter_mut().enumerate() {
        let Some(list) = group.get_mut("hooks").and_then(Value::as_array_mut) else { continue };
        for (h, hook) in list.iter_mut().enumerate() {
            if !hook.get("command").and_then(Value::as_str).is_some_and(is_majordomus_stop) {
                continue;
            }
            let at = format!("hooks.{event}[{g}].hooks[{h}]");
            let current = (hook.get("type").cloned(), hook.get("command").cloned(), hook.get("timeout").cloned());
            if current == (Some(json!("command")), Some(json!(command)), Some(json!(timeout))) {
                edits.push(Edit { event, change: Change::Unchanged, at });
                continue;
            }
            if let Some(h) = hook.as_object_mut() {
                h.insert("type".into(), json!("command"));
                h.insert("command".into(), json!(command));
                h.insert("timeout".into(), json!(timeout));
                edits.push(Edit { event, change: Change::Updated, at });
            }
        }
    }
    if edits.is_empty() {
        edits.push(Edit { event, change: Change::Added, at: format!("hooks.{event}[{}].hooks[0]", groups.len()) });
        groups.push(json!({ "hooks": [{ "type": "command", "command": command, "timeout": timeout }] }));
    }
    edits
}

/// Whether a hook command runs `majordomus hook stop` (any path to it).
pub fn is_majordomus_stop(command: &str) -> bool {
    let words: Vec<&str> = command.split_whitespace().map(|w| w.trim_matches(|c| c == '\'' || c == '"')).collect();
    words.windows(3).any(|w| {
        let program = w[0].rsplit(['/', '\\']).next().unwrap_or(w[0]);
        (program == "majordomus" || program == "majordomus.exe") && w[1] == "hook" && w[2] == "stop"
    })
}

fn install_agent(ws: &Workspace, agent: Agent, args: &InstallArgs) -> Result<Exit, CliError> {
    timeout_leaves_room(args.timeout, ws.policy()?.hook.budget_ms).map_err(CliError::Usage)?;
    let rel = settings_file(agent);
    let root =
        ws.repo.root().canonicalize().map_err(|e| CliError::internal("cannot resolve the repository root", e))?;
    let path = settings_target(&root, rel)?;
    let existing = match std::fs::read_to_string(&path) {
        Ok(t) => Some(t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(CliError::internal(format!("cannot read {}", path.display()), e)),
    };
    let command = stop_command(args.bin.as_deref().unwrap_or("majordomus"), agent);
    let events = stop_events(agent);
    let (text, edits) = merge_stop_hook(existing.as_deref(), events, &command, args.timeout)
        .map_err(|why| CliError::Usage(format!("{rel} cannot be merged into: {why}; nothing was changed")))?;
    let changed: Vec<&Edit> = edits.iter().filter(|e| e.change != Change::Unchanged).collect();
    if changed.is_empty() {
        println!("{rel} already runs `{command}` as its {} hook; nothing to change", events.join(" and "));
        return Ok(Exit::Ok);
    }
    if args.dry_run {
        if existing.as_deref().is_some_and(|t| !t.trim().is_empty()) {
            // The change, not the file: everything else in it stays as it is.
            let hook = json!({ "type": "command", "command": command, "timeout": args.timeout });
            println!("would change {rel}, keeping everything else in it:");
            for e in changed {
                let verb = if e.change == Change::Added { "add" } else { "update" };
                println!("  {verb} {}: {hook}", e.at);
            }
        } else {
            println!("would write {rel}:");
            print!("{text}");
        }
        return Ok(Exit::Ok);
    }
    majordomus_records::atomic::write_atomic_keeping_mode(&root, &path, text.as_bytes())
        .map_err(crate::workspace::place_error)?;
    if path != root.join(rel) {
        let real = path.strip_prefix(&root).unwrap_or(&path);
        println!("{rel} leads through a symbolic link to {}, in this repository: written there", real.display());
    }
    for e in changed {
        let did = if e.change == Change::Added { "added a" } else { "updated the" };
        let to = if e.change == Change::Added { "to" } else { "in" };
        println!("{did} {} hook {to} {rel}: {command} (timeout {} s)", e.event, args.timeout);
    }
    if agent == Agent::Codex {
        println!("Codex runs a project's hooks once they are trusted: review this one with /hooks in Codex.");
    }
    Ok(Exit::Ok)
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

/// The file the settings are written to: `rel` below the (canonical)
/// `root` itself, or, where a symbolic link on the way leads elsewhere in
/// the repository, the real file, written through. A link that leads out of
/// the repository is refused, naming where it leads: majordomus writes only
/// inside the repository it was asked about. Anything but a regular file at
/// the end (a directory, a device, a dangling link) is refused too: it is
/// never read or replaced.
fn settings_target(root: &Path, rel: &str) -> Result<PathBuf, CliError> {
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
    match std::fs::metadata(&target) {
        Ok(m) if m.is_file() => Ok(target),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(target),
        Ok(_) if target != path => Err(CliError::Usage(format!(
            "{rel} is a symbolic link to {}, which is not a regular file; nothing was changed",
            target.display()
        ))),
        Ok(_) => Err(CliError::Usage(format!("{rel} is not a regular file; nothing was changed"))),
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

/// A word the shell reads back as `s`.
fn shell_quote(s: &str) -> String {
    let plain = !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+:=@%".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

// ---- the git pre-push hook --------------------------------------------------

/// The line that marks a pre-push hook as majordomus's own.
pub const PRE_PUSH_MARKER: &str = "# majordomus pre-push hook";

/// Where the pre-push hook it replaces is kept, and called from.
pub const CHAINED: &str = "pre-push.majordomus-chained";

/// The pre-push hook: the hook it replaced first (same arguments, same
/// refs on standard input), then majordomus's answer for gates-green.
pub fn pre_push_script(bin: &str) -> String {
    format!(
        r#"#!/bin/sh
{PRE_PUSH_MARKER}, installed by `majordomus hook install --git`.
# Refuses a push while the done invariant's gates-green question is refused.
# It runs no gate: `majordomus hook pre-push` reads gates-green's status as
# `majordomus check --json` gives it. A pre-push hook that was here before was
# moved to {CHAINED} and runs first, with the same arguments and input.
md={bin}
hooks_dir=$(dirname "$0")
chained="$hooks_dir/{CHAINED}"
if [ -x "$chained" ]; then
  refs=$(mktemp) || exit 1
  trap 'rm -f "$refs"' EXIT
  cat >"$refs"
  "$chained" "$@" <"$refs" || exit $?
fi
if ! command -v "$md" >/dev/null 2>&1; then
  echo "majordomus pre-push: $md not found; this push was not checked" >&2
  exit 0
fi
"$md" hook pre-push "$@" </dev/null
"#,
        bin = shell_quote(bin)
    )
}

/// The directory git runs hooks from: `core.hooksPath` when set (relative
/// to the working tree root), else the common git directory's `hooks/`.
pub fn hooks_dir(ws: &Workspace) -> Result<PathBuf, CliError> {
    let config = ws.repo.git.config().map_err(|e| CliError::internal("cannot read git's configuration", e))?;
    match config.get_path("core.hooksPath") {
        Ok(p) if p.is_absolute() => Ok(p),
        Ok(p) => Ok(ws.repo.root().join(p)),
        Err(e) if e.code() == git2::ErrorCode::NotFound => Ok(ws.repo.common_dir().join("hooks")),
        Err(e) => Err(CliError::internal("cannot read core.hooksPath", e)),
    }
}

fn install_git(ws: &Workspace, args: &InstallArgs) -> Result<Exit, CliError> {
    let dir = hooks_dir(ws)?;
    let hook = dir.join("pre-push");
    let chained = dir.join(CHAINED);
    let (base, below) = hooks_place(ws, &dir);
    let bin = match &args.bin {
        Some(b) => b.clone(),
        None => std::env::current_exe().ok().map_or_else(|| "majordomus".to_string(), |p| p.display().to_string()),
    };
    let script = pre_push_script(&bin);
    let present = std::fs::symlink_metadata(&hook).is_ok();
    let existing = if present {
        Some(std::fs::read(&hook).map_err(|e| CliError::internal(format!("cannot read {}", hook.display()), e))?)
    } else {
        None
    };
    let ours =
        existing.as_deref().is_some_and(|b| b.windows(PRE_PUSH_MARKER.len()).any(|w| w == PRE_PUSH_MARKER.as_bytes()));
    if ours && existing.as_deref() == Some(script.as_bytes()) {
        println!("{} is already majordomus's pre-push hook; nothing to change", hook.display());
        return Ok(Exit::Ok);
    }
    let chain = present && !ours;
    if chain && std::fs::symlink_metadata(&chained).is_ok() {
        return Err(CliError::Usage(format!(
            "{} is another program's pre-push hook and {} already exists: move one of them aside by hand; nothing was changed",
            hook.display(),
            chained.display()
        )));
    }
    if args.dry_run {
        if chain {
            println!("would move {} to {}", hook.display(), chained.display());
        }
        println!("would write {}:", hook.display());
        print!("{script}");
        return Ok(Exit::Ok);
    }
    // Reached without following a link below the repository or the common
    // git directory; a hook already there that is a link is moved (or
    // replaced) as a link, never written through.
    let hooks = majordomus_records::confined::open_dir(&base, &below, true).map_err(crate::workspace::place_error)?;
    if chain {
        hooks.rename("pre-push", CHAINED).map_err(crate::workspace::place_error)?;
        println!("moved the pre-push hook that was there to {}; it runs first", chained.display());
    }
    hooks
        .replace("pre-push", script.as_bytes(), majordomus_records::confined::Perm::Exactly(0o755))
        .map_err(crate::workspace::place_error)?;
    println!(
        "{} {}: refuses a push while gates-green is refused",
        if ours { "updated" } else { "installed" },
        hook.display()
    );
    Ok(Exit::Ok)
}

/// The trusted directory the hooks directory `dir` is reached from, and the
/// path below it: the working tree's root or the common git directory when
/// `dir` lies below one of them (so no link below them is followed), else
/// `dir` itself, as `core.hooksPath` names it (the person's own setting).
fn hooks_place(ws: &Workspace, dir: &Path) -> (PathBuf, PathBuf) {
    let plain = |rel: &Path| rel.components().all(|c| matches!(c, std::path::Component::Normal(_)));
    for base in [ws.repo.common_dir(), ws.repo.root()] {
        if let Ok(rel) = dir.strip_prefix(base) {
            if plain(rel) {
                return (base.to_path_buf(), rel.to_path_buf());
            }
        }
    }
    (dir.to_path_buf(), PathBuf::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Value {
        serde_json::from_str(text).expect("the merged settings are JSON")
    }

    const CLAUDE: &str = "majordomus hook stop --agent claude";

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

    /// Merges for Claude Code's events, with the changes made.
    fn merge(existing: Option<&str>, command: &str, timeout: u64) -> Result<(String, Vec<Change>), String> {
        merge_stop_hook(existing, stop_events(Agent::Claude), command, timeout)
            .map(|(text, edits)| (text, edits.into_iter().map(|e| e.change).collect()))
    }

    #[test]
    fn a_missing_file_gets_just_the_stop_and_subagent_stop_hooks() {
        let (text, changes) = merge(None, CLAUDE, 60).expect("merge");
        assert_eq!(changes, [Change::Added, Change::Added]);
        let group = json!([{"hooks": [{"type": "command", "command": CLAUDE, "timeout": 60}]}]);
        assert_eq!(parse(&text), json!({"hooks": {"Stop": group, "SubagentStop": group}}));
        assert!(text.ends_with("}\n"));
        let (codex, _) = merge_stop_hook(None, stop_events(Agent::Codex), "c", 60).expect("merge");
        assert_eq!(parse(&codex)["hooks"].as_object().expect("hooks").len(), 1, "Codex has no SubagentStop");
    }

    #[test]
    fn an_install_from_before_subagent_stop_gains_just_that_hook() {
        let (before, _) = merge_stop_hook(None, &["Stop"], CLAUDE, 60).expect("merge");
        let (after, edits) = merge_stop_hook(Some(&before), stop_events(Agent::Claude), CLAUDE, 60).expect("merge");
        assert_eq!(
            edits,
            [
                Edit { event: "Stop", change: Change::Unchanged, at: "hooks.Stop[0].hooks[0]".into() },
                Edit { event: "SubagentStop", change: Change::Added, at: "hooks.SubagentStop[0].hooks[0]".into() },
            ]
        );
        assert_eq!(parse(&after)["hooks"]["Stop"], parse(&before)["hooks"]["Stop"]);
    }

    #[test]
    fn everything_already_there_is_kept_in_its_order() {
        let before = r#"{
  "permissions": {"allow": ["Bash(ls)"]},
  "hooks": {
    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "guard.sh"}]}],
    "Stop": [{"hooks": [{"type": "command", "command": "notify-send done", "timeout": 5}]}]
  },
  "model": "opus"
}"#;
        let (text, changes) = merge(Some(before), CLAUDE, 60).expect("merge");
        assert_eq!(changes, [Change::Added, Change::Added]);
        let after = parse(&text);
        let keys: Vec<&String> = after.as_object().expect("object").keys().collect();
        assert_eq!(keys, ["permissions", "hooks", "model"]);
        assert_eq!(after["hooks"]["PreToolUse"], parse(before)["hooks"]["PreToolUse"]);
        let stop = after["hooks"]["Stop"].as_array().expect("list");
        assert_eq!(stop.len(), 2);
        assert_eq!(stop[0]["hooks"][0]["command"], "notify-send done");
        assert_eq!(stop[1]["hooks"][0]["command"], "majordomus hook stop --agent claude");
        assert_eq!(after["hooks"]["SubagentStop"][0]["hooks"][0]["command"], CLAUDE);
    }

    #[test]
    fn a_second_install_changes_nothing_and_a_new_command_updates_in_place() {
        let (once, _) = merge(None, CLAUDE, 60).expect("merge");
        let (twice, changes) = merge(Some(&once), CLAUDE, 60).expect("merge");
        assert_eq!((changes, &twice), (vec![Change::Unchanged, Change::Unchanged], &once));
        let (moved, changes) = merge(Some(&once), "/opt/bin/majordomus hook stop --agent claude", 30).expect("merge");
        assert_eq!(changes, [Change::Updated, Change::Updated]);
        let group = json!([{"hooks": [{"type": "command", "command": "/opt/bin/majordomus hook stop --agent claude", "timeout": 30}]}]);
        assert_eq!(parse(&moved)["hooks"], json!({"Stop": group, "SubagentStop": group}));
    }

    #[test]
    fn a_file_that_is_not_settings_is_refused_not_replaced() {
        assert!(merge(Some("not json"), "c", 1).expect_err("bad").contains("not JSON"));
        assert!(merge(Some("[1]"), "c", 1).expect_err("bad").contains("not a JSON object"));
        assert!(merge(Some(r#"{"hooks": []}"#), "c", 1).expect_err("bad").contains("\"hooks\" is not an object"));
        assert!(merge(Some(r#"{"hooks": {"Stop": {}}}"#), "c", 1).expect_err("bad").contains("not a list"));
        assert!(merge(Some(r#"{"hooks": {"SubagentStop": 1}}"#), "c", 1)
            .expect_err("bad")
            .contains("\"SubagentStop\" is not a list"));
        assert_eq!(merge(Some("  \n"), "c", 1).expect("empty is none").1, [Change::Added, Change::Added]);
    }

    #[test]
    fn majordomus_stop_hooks_are_recognised_by_any_path_and_others_are_not() {
        assert!(is_majordomus_stop("majordomus hook stop --agent claude"));
        assert!(is_majordomus_stop("'/home/a b/.cargo/bin/majordomus' hook stop"));
        assert!(!is_majordomus_stop("/usr/local/bin/majordomus -C . hook stop"));
        assert!(!is_majordomus_stop("majordomus check"));
        assert!(!is_majordomus_stop("other-majordomus hook stop"));
    }

    #[test]
    fn a_path_with_spaces_is_quoted_for_the_shell() {
        assert_eq!(stop_command("majordomus", Agent::Codex), "majordomus hook stop --agent codex");
        assert_eq!(
            stop_command("/a b/it's/majordomus", Agent::Claude),
            "'/a b/it'\\''s/majordomus' hook stop --agent claude"
        );
    }

    #[test]
    fn the_pre_push_script_carries_its_marker_and_calls_the_chained_hook_first() {
        let script = pre_push_script("/x/majordomus");
        assert!(script.starts_with("#!/bin/sh\n# majordomus pre-push hook"));
        assert!(script.contains("md=/x/majordomus\n"));
        let chained = script.find("\"$chained\" \"$@\"").expect("chained call");
        let ours = script.find("\"$md\" hook pre-push").expect("our call");
        assert!(chained < ours);
    }
}
