//! The hosts' side of the hooks: what Claude Code and Codex pipe in, and
//! the only shapes of answer they accept.
//!
//! Both hosts send one JSON object on standard input and read one on
//! standard output. The fields differ a little (Codex adds `turn_id` and
//! `model`; Claude Code adds `background_tasks` to its stops and
//! `session_title` to its session starts), so every field is optional here
//! and unknown ones are ignored: a host that adds a field must not make the
//! hook fail.
//!
//! The answers are stricter than the inputs. Codex checks a hook's output
//! against a schema per event and rejects any key the schema does not name
//! (its binary embeds them: `stop.command.output`,
//! `subagent-stop.command.output`, `session-start.command.output`), and a
//! `block` without a non-empty `reason`. So a stop is answered only with
//! `decision`, `reason` and `systemMessage`, and a session start only with
//! `hookSpecificOutput` (`hookEventName`, `additionalContext`) and
//! `systemMessage`; the tests hold every answer `hook stop` and `hook
//! session-start` can give to that ([`codex_accepts_stop`]). Claude Code
//! reads the same keys. The one difference is silence: an allowed stop is
//! no output at all for Claude Code and `{}` for Codex.
//!
//! What is decided lives elsewhere ([`super::decide`]); this file only reads
//! and writes the hosts' wire format, and keeps majordomus's own failures
//! from ever reaching a host as anything but an allowed stop with a message.

use std::io::{IsTerminal, Read};
use std::path::PathBuf;

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};

use super::Agent;

/// A stop event's input (`Stop` or `SubagentStop`), as either host sends it.
#[derive(Debug, Default, Deserialize)]
pub struct StopPayload {
    #[serde(default)]
    pub session_id: Option<String>,
    #[serde(default)]
    pub cwd: Option<PathBuf>,
    #[serde(default)]
    pub hook_event_name: Option<String>,
    #[serde(default)]
    pub stop_hook_active: Option<bool>,
    #[serde(default)]
    pub last_assistant_message: Option<String>,
    /// The subagent that is stopping (`SubagentStop` in both hosts).
    #[serde(default)]
    pub agent_id: Option<String>,
    #[serde(default)]
    pub agent_type: Option<String>,
    /// Claude Code's background work still attached to the session; absent
    /// (not empty) when the host does not report it.
    #[serde(default)]
    pub background_tasks: Option<Vec<Value>>,
}

/// A `SessionStart` event's input, as either host sends it.
#[derive(Debug, Default, Deserialize)]
pub struct SessionStartPayload {
    #[serde(default)]
    pub session_id: Option<String>,
    #[serde(default)]
    pub cwd: Option<PathBuf>,
    #[serde(default)]
    pub hook_event_name: Option<String>,
    /// Why the session starts: `startup`, `resume`, `clear`, `compact`
    /// (both hosts), `fork` (Codex).
    #[serde(default)]
    pub source: Option<String>,
    /// Claude Code's title for the session, when it has one.
    #[serde(default)]
    pub session_title: Option<String>,
}

/// Reads the host's JSON object from standard input; `what` names the hook
/// in the error ("a stop hook").
pub fn read_payload<T: DeserializeOwned>(what: &str) -> Result<T, String> {
    let mut stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Err(format!(
            "no hook input: standard input is a terminal, where the host pipes the JSON {what} receives"
        ));
    }
    // Room for a host's payload in one read (the buffer grows from a few
    // bytes otherwise, a read each time).
    let mut text = String::with_capacity(16 << 10);
    stdin.read_to_string(&mut text).map_err(|e| format!("cannot read the hook input ({e})"))?;
    serde_json::from_str(&text).map_err(|e| format!("the hook input is not the JSON object {what} receives ({e})"))
}

/// What the stop hook answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Let the stop through; the message, if any, is shown to the person.
    Allow { message: Option<String> },
    /// Keep the agent working; the reason is given to the agent.
    Block { reason: String },
}

impl Verdict {
    pub fn silent() -> Self {
        Verdict::Allow { message: None }
    }

    pub fn say(message: impl Into<String>) -> Self {
        Verdict::Allow { message: Some(message.into()) }
    }
}

/// The stop hook's answer in the host's protocol, with a final newline
/// where there is anything to print. A block always carries a reason: an
/// empty one (which no decision makes) would be rejected by Codex, so it
/// is given one.
pub fn render_stop(agent: Agent, verdict: &Verdict) -> String {
    let value = match verdict {
        Verdict::Allow { message: None } => match agent {
            Agent::Claude => return String::new(),
            Agent::Codex => json!({}),
        },
        Verdict::Allow { message: Some(m) } => json!({ "systemMessage": m }),
        Verdict::Block { reason } if reason.trim().is_empty() => {
            json!({ "decision": "block", "reason": "majordomus blocked this stop: the work is not done; run majordomus check" })
        }
        Verdict::Block { reason } => json!({ "decision": "block", "reason": reason }),
    };
    format!("{value}\n")
}

/// The session-start hook's answer, the same for both hosts: the context
/// for the agent under `hookSpecificOutput`, and a message for the person.
pub fn render_session_start(context: Option<&str>, message: Option<&str>) -> String {
    let mut value = serde_json::Map::new();
    if let Some(c) = context {
        value.insert("hookSpecificOutput".into(), json!({ "hookEventName": "SessionStart", "additionalContext": c }));
    }
    if let Some(m) = message {
        value.insert("systemMessage".into(), json!(m));
    }
    format!("{}\n", Value::Object(value))
}

/// Writes an answer; a host that stopped listening has nothing left to tell.
pub fn emit(text: &str) {
    let _ = crate::out::text(text);
}

/// Runs `f`, turning a panic into its message (and where it happened)
/// instead of a crash, and keeping the default panic output off stderr.
pub fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    let caught = std::sync::Arc::new(std::sync::Mutex::new(None::<String>));
    let slot = caught.clone();
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic with no message".to_string());
        let at = info.location().map(|l| format!(" (at {}:{})", l.file(), l.line())).unwrap_or_default();
        if let Ok(mut s) = slot.lock() {
            *s = Some(format!("{message}{at}"));
        }
    }));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    std::panic::set_hook(previous);
    result.map_err(|_| caught.lock().ok().and_then(|mut s| s.take()).unwrap_or_else(|| "a panic".to_string()))
}

/// A test seam in debug builds only: `MAJORDOMUS_HOOK_FAULT=panic` makes a
/// hook panic once its input is read, so the crash path can be run for real.
#[cfg(debug_assertions)]
pub fn inject_fault() {
    if std::env::var_os("MAJORDOMUS_HOOK_FAULT").is_some_and(|v| v == "panic") {
        panic!("a fault injected by MAJORDOMUS_HOOK_FAULT");
    }
}

#[cfg(not(debug_assertions))]
pub fn inject_fault() {}

/// Whether Codex accepts `output` as a stop hook's answer (`Stop` and
/// `SubagentStop` share one output schema): a JSON object with no key but
/// `decision` (only `"block"`), `reason`, `systemMessage`, `stopReason`
/// (strings), `continue`, `suppressOutput` (booleans), and a `block` with
/// a non-empty reason. Empty output is not JSON; Claude Code's silence is
/// checked apart from this. The reason is said when it does not.
pub fn codex_accepts_stop(output: &str) -> Result<(), String> {
    let value: Value = serde_json::from_str(output.trim_end()).map_err(|e| format!("not JSON ({e}): {output:?}"))?;
    let object = value.as_object().ok_or_else(|| format!("not an object: {value}"))?;
    for (key, v) in object {
        let fits = match key.as_str() {
            "decision" => v == "block",
            "reason" | "systemMessage" | "stopReason" => v.is_string(),
            "continue" | "suppressOutput" => v.is_boolean(),
            _ => return Err(format!("Codex rejects the key {key:?}: {value}")),
        };
        if !fits {
            return Err(format!("Codex rejects {key} = {v}"));
        }
    }
    let reason = object.get("reason").and_then(Value::as_str);
    if object.get("decision").is_some() && !matches!(reason, Some(r) if !r.trim().is_empty()) {
        return Err(format!("a block without a non-empty reason: {value}"));
    }
    Ok(())
}

/// Whether Codex accepts `output` as a session-start hook's answer: only
/// `hookSpecificOutput` (`hookEventName` = `SessionStart`, and a string
/// `additionalContext`), `systemMessage`, `stopReason`, `continue`,
/// `suppressOutput`.
pub fn codex_accepts_session_start(output: &str) -> Result<(), String> {
    let value: Value = serde_json::from_str(output.trim_end()).map_err(|e| format!("not JSON ({e}): {output:?}"))?;
    let object = value.as_object().ok_or_else(|| format!("not an object: {value}"))?;
    for (key, v) in object {
        let fits = match key.as_str() {
            "systemMessage" | "stopReason" => v.is_string(),
            "continue" | "suppressOutput" => v.is_boolean(),
            "hookSpecificOutput" => v.as_object().is_some_and(|o| {
                o.get("hookEventName").is_some_and(|n| n == "SessionStart")
                    && o.iter().all(|(k, x)| match k.as_str() {
                        "hookEventName" => true,
                        "additionalContext" => x.is_string(),
                        _ => false,
                    })
            }),
            _ => return Err(format!("Codex rejects the key {key:?}: {value}")),
        };
        if !fits {
            return Err(format!("Codex rejects {key} = {v}"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_host_gets_its_own_silence_and_the_same_block() {
        assert_eq!(render_stop(Agent::Claude, &Verdict::silent()), "");
        assert_eq!(render_stop(Agent::Codex, &Verdict::silent()), "{}\n");
        let block = Verdict::Block { reason: "r".into() };
        assert_eq!(render_stop(Agent::Claude, &block), "{\"decision\":\"block\",\"reason\":\"r\"}\n");
        assert_eq!(render_stop(Agent::Codex, &block), render_stop(Agent::Claude, &block));
        assert_eq!(render_stop(Agent::Claude, &Verdict::say("m")), "{\"systemMessage\":\"m\"}\n");
    }

    #[test]
    fn a_block_is_never_sent_without_a_reason() {
        let out = render_stop(Agent::Codex, &Verdict::Block { reason: " \n".into() });
        assert_eq!(codex_accepts_stop(&out), Ok(()), "{out}");
    }

    #[test]
    fn the_codex_check_refuses_what_codex_refuses() {
        assert!(codex_accepts_stop("{}").is_ok());
        assert!(codex_accepts_stop(r#"{"decision":"block","reason":"r","systemMessage":"m"}"#).is_ok());
        assert!(codex_accepts_stop(r#"{"continue":false,"stopReason":"s","suppressOutput":true}"#).is_ok());
        for bad in [
            r#"{"decision":"block"}"#,
            r#"{"decision":"block","reason":""}"#,
            r#"{"decision":"approve","reason":"r"}"#,
            r#"{"hookSpecificOutput":{}}"#,
            r#"{"systemMessage":1}"#,
            r#"[]"#,
            "",
        ] {
            assert!(codex_accepts_stop(bad).is_err(), "{bad}");
        }
        assert!(codex_accepts_session_start("{}").is_ok());
        assert!(codex_accepts_session_start(
            r#"{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"c"},"systemMessage":"m"}"#
        )
        .is_ok());
        for bad in [
            r#"{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"c"}}"#,
            r#"{"hookSpecificOutput":{"hookEventName":"SessionStart","extra":1}}"#,
            r#"{"decision":"block","reason":"r"}"#,
        ] {
            assert!(codex_accepts_session_start(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_session_start_answer_carries_the_context_under_the_hosts_key() {
        let out = render_session_start(Some("ctx"), None);
        assert_eq!(
            out,
            "{\"hookSpecificOutput\":{\"hookEventName\":\"SessionStart\",\"additionalContext\":\"ctx\"}}\n"
        );
        assert_eq!(render_session_start(None, Some("m")), "{\"systemMessage\":\"m\"}\n");
        assert_eq!(render_session_start(None, None), "{}\n");
        for out in [render_session_start(Some("c"), Some("m")), render_session_start(None, None)] {
            assert_eq!(codex_accepts_session_start(&out), Ok(()));
        }
    }

    #[test]
    fn unknown_fields_in_a_payload_are_ignored() {
        let p: StopPayload =
            serde_json::from_str(r#"{"cwd":"/r","turn_id":"t","model":"m","agent_id":"a1","future":{"x":1}}"#)
                .expect("parse");
        assert_eq!((p.cwd, p.agent_id), (Some(PathBuf::from("/r")), Some("a1".to_string())));
        let s: SessionStartPayload =
            serde_json::from_str(r#"{"source":"startup","session_title":"t","permission_mode":"default"}"#)
                .expect("parse");
        assert_eq!(s.source.as_deref(), Some("startup"));
    }

    #[test]
    fn a_panic_becomes_a_message_with_its_place() {
        let err = guarded(|| -> u8 { panic!("boom") }).expect_err("panicked");
        assert!(err.starts_with("boom (at ") && err.contains("protocol.rs"), "{err}");
        assert_eq!(guarded(|| 7), Ok(7));
    }
}
