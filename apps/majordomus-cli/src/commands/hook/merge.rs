//! The hooks majordomus puts in a host's settings, merged into what is
//! there.
//!
//! Both hosts read the same structure: `hooks.<event>` is a list of
//! groups, each with a list of `hooks`, each `{"type": "command",
//! "command": ..., "timeout": ...}`. A majordomus hook is found by its
//! command (`majordomus hook SUB`, any path to the program) and updated in
//! place, only the keys that differ; where there is none, one group is
//! added. The text is edited, not re-encoded ([`super::settings_text`]), so
//! everything else stays as it was written.

use serde_json::{json, Value};

use super::install::shell_quote;
use super::settings_text::{self, Node, Splice};
use super::Agent;

/// The host's events majordomus answers, in the order installed, each with
/// the `majordomus hook` subcommand that answers it.
pub fn hook_events(_agent: Agent) -> &'static [(&'static str, &'static str)] {
    &[("Stop", "stop"), ("SubagentStop", "stop"), ("SessionStart", "session-start")]
}

/// The command a hook runs: `majordomus hook SUB --agent AGENT`, and for
/// the stop `--host-timeout SECONDS`, the timeout the host is given: the
/// stop's watch answers within it whatever budget a policy says later
/// (test/cases/529), as a host kills a hook past it and lets the stop
/// through.
pub fn hook_command(bin: &str, agent: Agent, sub: &str, timeout: u64) -> String {
    let mut command = format!("{} hook {sub} --agent {}", shell_quote(bin), agent.as_str());
    if sub == "stop" {
        command.push_str(&format!(" --host-timeout {timeout}"));
    }
    command
}

/// One hook to have in the settings: the event, the subcommand answering
/// it, the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookSpec {
    pub event: &'static str,
    pub sub: &'static str,
    pub command: String,
}

/// The hooks an install puts in an agent's settings, each given `timeout`
/// seconds by the host.
pub fn hook_specs(bin: &str, agent: Agent, timeout: u64) -> Vec<HookSpec> {
    hook_events(agent)
        .iter()
        .map(|&(event, sub)| HookSpec { event, sub, command: hook_command(bin, agent, sub, timeout) })
        .collect()
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
    /// The event: `Stop`, `SubagentStop`, `SessionStart`.
    pub event: &'static str,
    pub change: Change,
    /// Where the hook is in the settings, as a path: `hooks.Stop[1].hooks[0]`.
    pub at: String,
    /// The command the hook runs.
    pub command: String,
}

/// The hook object an install writes.
pub fn hook_value(command: &str, timeout: u64) -> Value {
    json!({ "type": "command", "command": command, "timeout": timeout })
}

/// One event's list of groups holding just the hook: the events majordomus
/// answers take no matcher (SessionStart's would narrow its sources).
fn group_list(command: &str, timeout: u64) -> Value {
    json!([{ "hooks": [hook_value(command, timeout)] }])
}

/// Merges `specs` into the settings text (`None`: no file yet), returning
/// the new text and, per hook, what was done. The structure is the one both
/// hosts read: `hooks.<event>` is a list of groups, each with a list of
/// `hooks`, each `{"type": "command", "command": ..., "timeout": ...}`.
/// Only the bytes of what is added or updated change.
pub fn merge_hooks(existing: Option<&str>, specs: &[HookSpec], timeout: u64) -> Result<(String, Vec<Edit>), String> {
    let added = |spec: &HookSpec, at: String| Edit {
        event: spec.event,
        change: Change::Added,
        at,
        command: spec.command.clone(),
    };
    let Some(text) = existing.filter(|t| !t.trim().is_empty()) else {
        let mut hooks = serde_json::Map::new();
        let mut edits = Vec::new();
        for spec in specs {
            hooks.insert(spec.event.to_string(), group_list(&spec.command, timeout));
            edits.push(added(spec, format!("hooks.{}[0].hooks[0]", spec.event)));
        }
        let mut text = serde_json::to_string_pretty(&json!({ "hooks": hooks }))
            .map_err(|e| format!("cannot encode the settings ({e})"))?;
        text.push('\n');
        return Ok((text, edits));
    };
    let root = settings_text::parse(text).map_err(|e| format!("it is not JSON ({e})"))?;
    if !matches!(root, Node::Object { .. }) {
        return Err("it is not a JSON object".into());
    }
    let mut splices = Vec::new();
    let mut edits = Vec::new();
    let mut missing: Vec<&HookSpec> = Vec::new();
    let hooks = root.get("hooks");
    match hooks {
        None => missing.extend(specs),
        Some(hooks @ Node::Object { .. }) => {
            for spec in specs {
                match hooks.get(spec.event) {
                    None => missing.push(spec),
                    Some(groups @ Node::Array { .. }) => {
                        merge_into(text, groups, spec, timeout, &mut splices, &mut edits)
                    }
                    Some(_) => return Err(format!("its \"hooks\".\"{}\" is not a list", spec.event)),
                }
            }
        }
        Some(_) => return Err("its \"hooks\" is not an object".into()),
    }
    if !missing.is_empty() {
        let new: Vec<(&str, Value)> = missing.iter().map(|s| (s.event, group_list(&s.command, timeout))).collect();
        edits.extend(missing.iter().map(|s| added(s, format!("hooks.{}[0].hooks[0]", s.event))));
        splices.push(match hooks {
            Some(hooks) => settings_text::insert_members(text, hooks, &new),
            None => {
                let object: serde_json::Map<String, Value> = new.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
                settings_text::insert_members(text, &root, &[("hooks", Value::Object(object))])
            }
        });
    }
    // Reported in the order of the specs, whatever order they were found in.
    edits.sort_by_key(|e| specs.iter().position(|s| s.event == e.event));
    Ok((settings_text::apply(text, splices), edits))
}

/// Merges one hook into an event's list of groups: every majordomus hook
/// of that kind there updated in place (only the keys that differ), or one
/// group added when there is none.
fn merge_into(
    text: &str,
    groups: &Node,
    spec: &HookSpec,
    timeout: u64,
    splices: &mut Vec<Splice>,
    edits: &mut Vec<Edit>,
) {
    let Node::Array { items, .. } = groups else { return };
    let before = edits.len();
    let wanted = [("type", json!("command")), ("command", json!(spec.command)), ("timeout", json!(timeout))];
    for (g, group) in items.iter().enumerate() {
        let Some(Node::Array { items: list, .. }) = group.get("hooks") else { continue };
        for (h, hook) in list.iter().enumerate() {
            if !hook.get("command").and_then(Node::as_str).is_some_and(|c| is_majordomus_hook(c, spec.sub)) {
                continue;
            }
            let mut absent = Vec::new();
            let mut changed = false;
            for (key, value) in &wanted {
                match hook.get(key) {
                    Some(node) if same(text, node, value) => {}
                    Some(node) => {
                        splices.push(settings_text::replace(node, value));
                        changed = true;
                    }
                    None => absent.push((*key, value.clone())),
                }
            }
            if !absent.is_empty() {
                splices.push(settings_text::insert_members(text, hook, &absent));
                changed = true;
            }
            let change = if changed { Change::Updated } else { Change::Unchanged };
            let at = format!("hooks.{}[{g}].hooks[{h}]", spec.event);
            edits.push(Edit { event: spec.event, change, at, command: spec.command.clone() });
        }
    }
    if edits.len() == before {
        let at = format!("hooks.{}[{}].hooks[0]", spec.event, items.len());
        edits.push(Edit { event: spec.event, change: Change::Added, at, command: spec.command.clone() });
        splices.push(settings_text::push_item(text, groups, &json!({ "hooks": [hook_value(&spec.command, timeout)] })));
    }
}

/// Whether a value in the text is `value`: a string by its content, a
/// number by what it is worth (`60` and `60.0` are one timeout).
fn same(text: &str, node: &Node, value: &Value) -> bool {
    match (node, value) {
        (Node::Str { value: s, .. }, Value::String(v)) => s == v,
        (Node::Scalar { span }, Value::Number(n)) => {
            text[span.clone()].parse::<f64>().ok().zip(n.as_f64()).is_some_and(|(a, b)| a == b)
        }
        _ => false,
    }
}

/// Whether a hook command runs `majordomus hook SUB` (any path to it).
pub fn is_majordomus_hook(command: &str, sub: &str) -> bool {
    let words: Vec<&str> = command.split_whitespace().map(|w| w.trim_matches(|c| c == '\'' || c == '"')).collect();
    words.windows(3).any(|w| {
        let program = w[0].rsplit(['/', '\\']).next().unwrap_or(w[0]);
        (program == "majordomus" || program == "majordomus.exe") && w[1] == "hook" && w[2] == sub
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Value {
        serde_json::from_str(text).expect("the merged settings are JSON")
    }

    const CLAUDE: &str = "majordomus hook stop --agent claude --host-timeout 60";

    fn specs(bin: &str) -> Vec<HookSpec> {
        hook_specs(bin, Agent::Claude, 60)
    }

    /// Merges Claude Code's hooks, with the changes made.
    fn merge(existing: Option<&str>, bin: &str, timeout: u64) -> Result<(String, Vec<Change>), String> {
        merge_hooks(existing, &hook_specs(bin, Agent::Claude, timeout), timeout)
            .map(|(text, edits)| (text, edits.into_iter().map(|e| e.change).collect()))
    }

    fn group(command: &str, timeout: u64) -> Value {
        json!([{"hooks": [{"type": "command", "command": command, "timeout": timeout}]}])
    }

    fn all_three(bin: &str, timeout: u64) -> Value {
        json!({
            "Stop": group(&format!("{bin} hook stop --agent claude --host-timeout {timeout}"), timeout),
            "SubagentStop": group(&format!("{bin} hook stop --agent claude --host-timeout {timeout}"), timeout),
            "SessionStart": group(&format!("{bin} hook session-start --agent claude"), timeout),
        })
    }

    #[test]
    fn a_missing_file_gets_just_the_stop_subagent_stop_and_session_start_hooks() {
        let (text, changes) = merge(None, "majordomus", 60).expect("merge");
        assert_eq!(changes, [Change::Added, Change::Added, Change::Added]);
        assert_eq!(parse(&text), json!({"hooks": all_three("majordomus", 60)}));
        assert!(text.ends_with("}\n"));
        let (codex, _) = merge_hooks(None, &hook_specs("majordomus", Agent::Codex, 60), 60).expect("merge");
        let events: Vec<String> = parse(&codex)["hooks"].as_object().expect("hooks").keys().cloned().collect();
        assert_eq!(events, ["Stop", "SubagentStop", "SessionStart"], "Codex answers the same events");
        assert_eq!(
            parse(&codex)["hooks"]["SubagentStop"][0]["hooks"][0]["command"],
            "majordomus hook stop --agent codex --host-timeout 60"
        );
    }

    #[test]
    fn an_install_from_before_subagent_stop_and_session_start_gains_just_those_hooks() {
        let before = format!(
            "{}\n",
            serde_json::to_string_pretty(&json!({"hooks": {"Stop": group(CLAUDE, 60)}})).expect("json")
        );
        let (after, edits) = merge_hooks(Some(&before), &specs("majordomus"), 60).expect("merge");
        let at: Vec<(Change, &str)> = edits.iter().map(|e| (e.change, e.at.as_str())).collect();
        assert_eq!(
            at,
            [
                (Change::Unchanged, "hooks.Stop[0].hooks[0]"),
                (Change::Added, "hooks.SubagentStop[0].hooks[0]"),
                (Change::Added, "hooks.SessionStart[0].hooks[0]"),
            ]
        );
        assert_eq!(parse(&after)["hooks"], all_three("majordomus", 60));
        let kept = &before[..before.rfind(']').expect("the Stop list") + 1];
        assert!(after.starts_with(kept), "the text up to the Stop hook is kept as it was: {after}");
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
        let (text, changes) = merge(Some(before), "majordomus", 60).expect("merge");
        assert_eq!(changes, [Change::Added, Change::Added, Change::Added]);
        let after = parse(&text);
        let keys: Vec<&String> = after.as_object().expect("object").keys().collect();
        assert_eq!(keys, ["permissions", "hooks", "model"]);
        assert_eq!(after["hooks"]["PreToolUse"], parse(before)["hooks"]["PreToolUse"]);
        let stop = after["hooks"]["Stop"].as_array().expect("list");
        assert_eq!(stop.len(), 2);
        assert_eq!(stop[0]["hooks"][0]["command"], "notify-send done");
        assert_eq!(stop[1]["hooks"][0]["command"], CLAUDE);
        assert_eq!(after["hooks"]["SubagentStop"][0]["hooks"][0]["command"], CLAUDE);
        assert!(text.contains("\n    \"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"guard.sh\"}]}],\n"));
    }

    #[test]
    fn a_second_install_changes_nothing_and_a_new_command_updates_in_place() {
        let (once, _) = merge(None, "majordomus", 60).expect("merge");
        let (twice, changes) = merge(Some(&once), "majordomus", 60).expect("merge");
        assert_eq!((changes, &twice), (vec![Change::Unchanged; 3], &once));
        let (moved, changes) = merge(Some(&once), "/opt/bin/majordomus", 30).expect("merge");
        assert_eq!(changes, [Change::Updated, Change::Updated, Change::Updated]);
        assert_eq!(parse(&moved)["hooks"], all_three("/opt/bin/majordomus", 30));
    }

    #[test]
    fn an_update_touches_only_the_keys_that_differ_and_adds_those_missing() {
        let before =
            r#"{"hooks": {"Stop": [{"hooks": [{"command": "majordomus hook stop", "timeout": 60.0, "x": 1e400}]}]}}"#;
        let (after, edits) = merge_hooks(Some(before), &specs("majordomus")[..1], 60).expect("merge");
        assert_eq!(edits[0].change, Change::Updated);
        assert_eq!(
            after,
            r#"{"hooks": {"Stop": [{"hooks": [{"command": "majordomus hook stop --agent claude --host-timeout 60", "timeout": 60.0, "x": 1e400, "type": "command"}]}]}}"#
        );
    }

    #[test]
    fn a_settings_file_of_big_and_odd_numbers_survives_an_install_byte_for_byte_outside_the_hooks_entry() {
        let head = "{\n    \"big\": 123456789012345678901234567890,\n    \"huge\": 1e400,\n    \"tiny\": 0.1000000000000000055511151231257827,\n    \"negative zero\": -0.0,\n    \"exp\": 1E+2,\n    \"hooks\": ";
        let ours = "{\n        \"PreToolUse\": [ { \"hooks\": [ { \"type\": \"command\", \"command\": \"guard\", \"timeout\": 1.50 } ] } ]";
        let tail = "\n    },\n    \"unicode\": \"\\u00e9\\ud83d\\ude00\",\n    \"model\"  :  \"opus\"\n}\n";
        let before = format!("{head}{ours}{tail}");
        let (after, changes) = merge(Some(&before), "majordomus", 60).expect("merge");
        assert_eq!(changes, [Change::Added, Change::Added, Change::Added]);
        assert!(after.starts_with(&format!("{head}{ours}")), "{after}");
        assert!(after.ends_with(tail), "{after}");
        let hooks = &after[head.len()..after.len() - tail.len() + "\n    }".len()];
        let hooks: Value = serde_json::from_str(hooks).expect("the hooks entry is JSON of its own");
        let mut expected = all_three("majordomus", 60);
        expected["PreToolUse"] = json!([{"hooks": [{"type": "command", "command": "guard", "timeout": 1.5}]}]);
        assert_eq!(hooks, expected);
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
        assert_eq!(merge(Some("  \n"), "c", 1).expect("empty is none").1, [Change::Added; 3]);
    }

    #[test]
    fn majordomus_hooks_are_recognised_by_any_path_and_others_are_not() {
        assert!(is_majordomus_hook("majordomus hook stop --agent claude", "stop"));
        assert!(is_majordomus_hook("majordomus hook stop --agent claude --host-timeout 26", "stop"));
        assert!(is_majordomus_hook("'/home/a b/.cargo/bin/majordomus' hook stop", "stop"));
        assert!(is_majordomus_hook("majordomus hook session-start --agent codex", "session-start"));
        assert!(!is_majordomus_hook("majordomus hook session-start", "stop"));
        assert!(!is_majordomus_hook("/usr/local/bin/majordomus -C . hook stop", "stop"));
        assert!(!is_majordomus_hook("majordomus check", "stop"));
        assert!(!is_majordomus_hook("other-majordomus hook stop", "stop"));
    }

    #[test]
    fn a_path_with_spaces_is_quoted_for_the_shell() {
        assert_eq!(
            hook_command("majordomus", Agent::Codex, "stop", 60),
            "majordomus hook stop --agent codex --host-timeout 60"
        );
        assert_eq!(
            hook_command("/a b/it's/majordomus", Agent::Claude, "session-start", 60),
            "'/a b/it'\\''s/majordomus' hook session-start --agent claude"
        );
    }
}
