//! Whether the hooks will run in a session started now: the stop hook's
//! word on the host's own settings, said while it still runs.
//!
//! A host reads its settings when a session starts. Claude Code's
//! `disableAllHooks: true`, in the user's, the project's or the project's
//! local settings (`.claude/settings.local.json`, which git usually
//! ignores), turns off every hook those settings hold: a session started
//! after an agent wrote it runs no stop hook,
//! and stops there unchecked whatever is owed. A session already running
//! may still run its hooks; its stop is the one moment left to say so.
//! So, while a task is active, a stop reads those files (a few small
//! files, read only by `hook stop` and only where a task is found: `check`
//! never reads them, as they say nothing of the work) and, where the
//! setting in force is `true`, blocks the stop once, naming the file and
//! the remedy; a stop that comes of that block goes through with the same
//! words, for the person. Managed settings (`managed-settings.json`) that
//! disable all hooks disable majordomus's too; where they hold
//! majordomus's stop hook themselves, the other files cannot turn it off.
//!
//! The same holds for majordomus's stop hook taken out of the file `hook
//! install` writes in the project (`.claude/settings.json`,
//! `.codex/hooks.json`) where the task's start commit held it ([`taken_out`]):
//! Codex runs the hooks a session started with, so only later sessions
//! miss it, and the stop still running says so once.

use std::path::{Path, PathBuf};

use serde_json::Value;

/// The largest settings file read; a larger one is not a host's settings.
const MAX_BYTES: u64 = 1 << 20;

/// Where Claude Code keeps its settings, in the order later ones override
/// earlier ones (user, project, local), and its managed settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaudeFiles {
    pub layered: Vec<PathBuf>,
    pub managed: Vec<PathBuf>,
}

impl ClaudeFiles {
    /// The files a Claude Code session started in `project` reads: the
    /// user's (`CLAUDE_CONFIG_DIR`, else `~/.claude`), the project's and
    /// its local ones, and the machine's managed settings.
    pub fn of(project: &Path) -> Self {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        let user = var("CLAUDE_CONFIG_DIR").or_else(|| var("HOME").map(|h| h.join(".claude")));
        let mut layered: Vec<PathBuf> = user.into_iter().map(|u| u.join("settings.json")).collect();
        layered.push(project.join(".claude/settings.json"));
        layered.push(project.join(".claude/settings.local.json"));
        let managed = vec![
            PathBuf::from("/etc/claude-code/managed-settings.json"),
            PathBuf::from("/Library/Application Support/ClaudeCode/managed-settings.json"),
        ];
        ClaudeFiles { layered, managed }
    }
}

/// The settings a file holds: its JSON object, or none where it is
/// missing, not a regular file, too large or not a JSON object (a host
/// ignores such a file too).
fn settings(path: &Path) -> Option<Value> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    // A link is followed as the host follows it; the open refuses a FIFO.
    let len = if meta.file_type().is_symlink() { std::fs::metadata(path).ok()?.len() } else { meta.len() };
    if len > MAX_BYTES {
        return None;
    }
    let bytes = majordomus_records::regular::read(path).ok()?;
    serde_json::from_slice::<Value>(&bytes).ok().filter(Value::is_object)
}

/// Why a Claude Code session started now would run no stop hook of
/// majordomus's: the file whose `disableAllHooks` is in force and true.
/// `None`: the hooks are not turned off (as far as these files say).
pub fn claude_hooks_off(files: &ClaudeFiles) -> Option<String> {
    let read = |paths: &[PathBuf]| -> Vec<(PathBuf, Value)> {
        paths.iter().filter_map(|p| settings(p).map(|v| (p.clone(), v))).collect()
    };
    off_in(&read(&files.layered), &read(&files.managed))
}

/// [`claude_hooks_off`] over settings already read (`layered`: user,
/// project, local, each overriding the one before; `managed`).
pub fn off_in(layered: &[(PathBuf, Value)], managed: &[(PathBuf, Value)]) -> Option<String> {
    let disables = |v: &Value| v.get("disableAllHooks").and_then(Value::as_bool);
    if let Some((path, _)) = managed.iter().find(|(_, v)| disables(v) == Some(true)) {
        return Some(format!("`disableAllHooks` is true in the managed settings {}", path.display()));
    }
    if managed.iter().any(|(_, v)| holds_stop_hook(v)) {
        return None;
    }
    // The last file that says anything decides, as the host merges them.
    let (path, on) = layered.iter().rev().find_map(|(p, v)| disables(v).map(|d| (p, d)))?;
    on.then(|| format!("`disableAllHooks` is true in {}", path.display()))
}

/// Whether settings hold majordomus's stop hook under `Stop`.
fn holds_stop_hook(settings: &Value) -> bool {
    let groups = settings.get("hooks").and_then(|h| h.get("Stop")).and_then(Value::as_array);
    groups
        .into_iter()
        .flatten()
        .filter_map(|g| g.get("hooks").and_then(Value::as_array))
        .flatten()
        .any(|h| h.get("command").and_then(Value::as_str).is_some_and(|c| super::merge::is_majordomus_hook(c, "stop")))
}

/// Where the project's settings file of `agent` (the one `hook install`
/// writes, [`super::install::settings_file`]) held majordomus's stop hook
/// in the task's start commit (`start`) and holds none now, nor does the
/// user's: that the hook was taken out, and where. Only the working tree's
/// file is read while it holds the hook (the common case); the start's is
/// read only where it does not. `None` too where nothing can be read.
pub fn taken_out(repo: &majordomus_readings::Repo, start: Option<&str>, agent: super::Agent) -> Option<String> {
    let rel = super::install::settings_file(agent);
    if settings(&repo.root().join(rel)).is_some_and(|v| holds_stop_hook(&v)) {
        return None;
    }
    let commit = repo.git.find_commit(git2::Oid::from_str(start?).ok()?).ok()?;
    let entry = commit.tree().ok()?.get_path(Path::new(rel)).ok()?;
    let blob = entry.to_object(&repo.git).ok()?.peel_to_blob().ok()?;
    let held = serde_json::from_slice::<Value>(blob.content()).ok().is_some_and(|v| holds_stop_hook(&v));
    let user = super::install::user_settings_file(agent).ok();
    if !held || user.and_then(|u| settings(&u)).is_some_and(|v| holds_stop_hook(&v)) {
        return None;
    }
    let host = match agent {
        super::Agent::Claude => "Claude Code",
        super::Agent::Codex => "Codex",
    };
    Some(format!(
        "majordomus's stop hook is no longer in {} (the task's start commit held it), so {host} runs no stop hook \
         of majordomus's in a session started now",
        repo.root().join(rel).display()
    ))
}

/// The stop's answer where the hooks are off (`off`, from
/// [`claude_hooks_off`]): blocked once, naming the file and the remedy; a
/// stop that came of a block (`stop_hook_active`) goes through saying it.
pub fn verdict(off: &str, stop_hook_active: bool) -> super::protocol::Verdict {
    let said = format!(
        "Claude Code runs no hook in a session started now: {off}, so no stop of a later session is checked \
         while a task is active"
    );
    once(&said, "remove `disableAllHooks` from that file (or set it to false)", stop_hook_active)
}

/// The stop's answer where the stop hook was taken out (`said`, from
/// [`taken_out`]): as [`verdict`], the remedy putting it back.
pub fn taken_out_verdict(said: &str, agent: super::Agent, stop_hook_active: bool) -> super::protocol::Verdict {
    let remedy = match agent {
        super::Agent::Claude => "put it back: majordomus hook install --agent claude".to_string(),
        super::Agent::Codex => {
            "put it back: majordomus hook install --agent codex (and review it in codex's /hooks)".to_string()
        }
    };
    once(&format!("{said}, while a task is active"), &remedy, stop_hook_active)
}

/// Blocked once, saying `said` and `remedy`; a stop that came of a block
/// goes through with the same words.
fn once(said: &str, remedy: &str, stop_hook_active: bool) -> super::protocol::Verdict {
    if stop_hook_active {
        super::protocol::Verdict::say(format!("majordomus let this stop through, but {said}."))
    } else {
        super::protocol::Verdict::Block {
            reason: format!(
                "majordomus blocked this stop: {said}.\nremedy: {remedy}; then stop again. \
                 A stop that comes of this block goes through."
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn at(name: &str, v: Value) -> (PathBuf, Value) {
        (PathBuf::from(name), v)
    }

    #[test]
    fn the_last_file_that_says_decides_as_the_host_merges_them() {
        let user = at("/h/.claude/settings.json", json!({"disableAllHooks": true}));
        let project = at("/p/.claude/settings.json", json!({"hooks": {}}));
        let local_off = at("/p/.claude/settings.local.json", json!({"disableAllHooks": false}));
        let local_on = at("/p/.claude/settings.local.json", json!({"disableAllHooks": true}));
        let said = off_in(&[user.clone(), project.clone()], &[]).expect("off");
        assert!(said.contains("/h/.claude/settings.json"), "{said}");
        assert_eq!(off_in(&[user.clone(), project.clone(), local_off], &[]), None, "the local file turns them on");
        let said = off_in(&[project.clone(), local_on], &[]).expect("off");
        assert!(said.contains("/p/.claude/settings.local.json"), "{said}");
        assert_eq!(off_in(&[project], &[]), None);
        assert_eq!(off_in(&[at("/x", json!({"disableAllHooks": "true"}))], &[]), None, "not a boolean: not said");
    }

    #[test]
    fn managed_settings_holding_the_stop_hook_keep_it_and_disabling_all_turns_it_off() {
        let local_on = at("/p/.claude/settings.local.json", json!({"disableAllHooks": true}));
        let ours = json!({"hooks": {"Stop": [{"hooks": [{"type": "command",
            "command": "/opt/bin/majordomus hook stop --agent claude --host-timeout 60"}]}]}});
        let theirs = json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "lint"}]}]}});
        assert_eq!(off_in(std::slice::from_ref(&local_on), &[at("/etc/m.json", ours)]), None);
        assert!(off_in(&[local_on], &[at("/etc/m.json", theirs)]).is_some());
        let said = off_in(&[], &[at("/etc/m.json", json!({"disableAllHooks": true}))]).expect("off");
        assert!(said.contains("managed settings /etc/m.json"), "{said}");
    }

    #[test]
    fn a_file_that_is_missing_broken_or_not_an_object_says_nothing() {
        let dir = tempfile::tempdir().expect("tempdir");
        let write = |name: &str, text: &str| {
            let p = dir.path().join(name);
            std::fs::write(&p, text).expect("write");
            p
        };
        let files = ClaudeFiles {
            layered: vec![
                dir.path().join("missing.json"),
                write("broken.json", "{\"disableAllHooks\": true"),
                write("list.json", "[true]"),
            ],
            managed: vec![],
        };
        assert_eq!(claude_hooks_off(&files), None);
        let on = write("on.json", "{\"disableAllHooks\": true}\n");
        let files = ClaudeFiles { layered: vec![on], managed: vec![] };
        assert!(claude_hooks_off(&files).is_some_and(|s| s.contains("on.json")));
    }

    #[test]
    fn a_block_goes_through_when_the_stop_came_of_one_and_codex_accepts_both() {
        use crate::commands::hook::protocol::{codex_accepts_stop, render_stop, Verdict};
        use crate::commands::hook::Agent;
        let first = verdict("`disableAllHooks` is true in /p/x.json", false);
        assert!(matches!(&first, Verdict::Block { reason } if reason.contains("remove `disableAllHooks`")));
        let again = verdict("`disableAllHooks` is true in /p/x.json", true);
        assert!(matches!(&again, Verdict::Allow { message: Some(m) } if m.contains("/p/x.json")));
        for v in [first, again] {
            assert_eq!(codex_accepts_stop(&render_stop(Agent::Codex, &v)), Ok(()));
        }
    }
}
