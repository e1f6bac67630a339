//! `majordomus hook install`: the settings file merged, read back.

use serde_json::{json, Value};

use crate::common::Case;
use crate::snapshot_run;

fn read_json(case: &Case, rel: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(case.path().join(rel)).unwrap()).unwrap()
}

#[test]
fn a_claude_install_merges_into_settings_keeping_foreign_hooks_and_never_duplicates() {
    let case = Case::new();
    let before = json!({
        "permissions": {"allow": ["Bash(cargo test:*)"]},
        "hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": ".claude/hooks/guard.sh"}]}],
            "Stop": [{"hooks": [{"type": "command", "command": "notify-send 'turn over'", "timeout": 5}]}]
        }
    });
    case.repo.write(".claude/settings.json", &serde_json::to_string_pretty(&before).unwrap());

    let run = case.md(&["hook", "install", "--agent", "claude"]);
    assert_eq!(run.code, 0, "{run:?}");
    let after = read_json(&case, ".claude/settings.json");
    assert_eq!(after["permissions"], before["permissions"]);
    assert_eq!(after["hooks"]["PreToolUse"], before["hooks"]["PreToolUse"]);
    assert_eq!(
        after["hooks"]["Stop"],
        json!([
            {"hooks": [{"type": "command", "command": "notify-send 'turn over'", "timeout": 5}]},
            {"hooks": [{"type": "command", "command": "majordomus hook stop --agent claude --host-timeout 60", "timeout": 60}]}
        ])
    );
    assert_eq!(
        after["hooks"]["SubagentStop"],
        json!([{"hooks": [{"type": "command", "command": "majordomus hook stop --agent claude --host-timeout 60", "timeout": 60}]}]),
        "hook stop answers SubagentStop too"
    );
    assert_eq!(
        after["hooks"]["SessionStart"],
        json!([{"hooks": [{"type": "command", "command": "majordomus hook session-start --agent claude", "timeout": 60}]}]),
        "hook session-start answers SessionStart"
    );

    let again = case.md(&["hook", "install", "--agent", "claude"]);
    assert_eq!(again.code, 0, "{again:?}");
    assert!(again.stdout.contains("nothing to change"), "{again:?}");
    assert_eq!(read_json(&case, ".claude/settings.json"), after, "a second install changes nothing");
}

#[test]
fn an_install_with_another_program_path_updates_the_hook_in_place() {
    let case = Case::new();
    case.md(&["hook", "install", "--agent", "claude"]);
    let run = case.md(&[
        "hook",
        "install",
        "--agent",
        "claude",
        "--bin",
        "/opt/majordomus/bin/majordomus",
        "--timeout",
        "45",
    ]);
    assert!(run.stdout.starts_with("updated the Stop hook"), "{run:?}");
    assert!(run.stdout.contains("updated the SubagentStop hook"), "{run:?}");
    assert!(run.stdout.contains("updated the SessionStart hook"), "{run:?}");
    let group = |sub: &str| {
        let host = if sub == "stop" { " --host-timeout 45" } else { "" };
        json!([{"hooks": [{"type": "command", "command": format!("/opt/majordomus/bin/majordomus hook {sub} --agent claude{host}"), "timeout": 45}]}])
    };
    let hooks = &read_json(&case, ".claude/settings.json")["hooks"];
    assert_eq!(
        hooks,
        &json!({"Stop": group("stop"), "SubagentStop": group("stop"), "SessionStart": group("session-start")})
    );
}

#[test]
fn an_install_from_before_subagent_stop_adds_just_the_new_hooks_and_a_dry_run_says_so() {
    let case = Case::new();
    let before = json!({
        "model": "opus",
        "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "majordomus hook stop --agent claude --host-timeout 60", "timeout": 60}]}]}
    });
    let text = serde_json::to_string_pretty(&before).unwrap();
    case.repo.write(".claude/settings.json", &text);

    let dry = case.md(&["hook", "install", "--agent", "claude", "--dry-run"]);
    assert_eq!(dry.code, 0, "{dry:?}");
    assert_eq!(std::fs::read_to_string(case.path().join(".claude/settings.json")).unwrap(), text, "nothing written");
    assert!(dry.stdout.contains("add hooks.SubagentStop[0].hooks[0]"), "the change, not the file: {dry:?}");
    assert!(dry.stdout.contains("add hooks.SessionStart[0].hooks[0]"), "the change, not the file: {dry:?}");
    assert!(!dry.stdout.contains("hooks.Stop"), "the Stop hook already there is no change: {dry:?}");
    snapshot_run!("install_claude_dry_run_change", case.snapshot(&dry));

    let run = case.md(&["hook", "install", "--agent", "claude"]);
    assert_eq!(
        run.stdout,
        "added a SubagentStop hook to .claude/settings.json: majordomus hook stop --agent claude --host-timeout 60 (timeout 60 s)\n\
         added a SessionStart hook to .claude/settings.json: majordomus hook session-start --agent claude (timeout 60 s)\n"
    );
    let after = read_json(&case, ".claude/settings.json");
    assert_eq!(after["model"], "opus");
    assert_eq!(after["hooks"]["Stop"], before["hooks"]["Stop"], "never duplicated");
    assert_eq!(after["hooks"]["SubagentStop"], before["hooks"]["Stop"]);
}

#[test]
fn a_dry_run_prints_the_settings_and_writes_nothing() {
    let case = Case::new();
    let run = case.md(&["hook", "install", "--agent", "claude", "--dry-run"]);
    assert_eq!(run.code, 0);
    assert!(!case.path().join(".claude").exists());
    snapshot_run!("install_claude_dry_run", case.snapshot(&run));
}

#[test]
fn a_codex_install_writes_the_project_hooks_file() {
    let case = Case::new();
    let run = case.md(&["hook", "install", "--agent", "codex"]);
    assert_eq!(run.code, 0, "{run:?}");
    snapshot_run!("install_codex", case.snapshot(&run));
    let group = |sub: &str| {
        let host = if sub == "stop" { " --host-timeout 60" } else { "" };
        json!([{"hooks": [{"type": "command", "command": format!("majordomus hook {sub} --agent codex{host}"), "timeout": 60}]}])
    };
    assert_eq!(
        read_json(&case, ".codex/hooks.json"),
        json!({"hooks": {"Stop": group("stop"), "SubagentStop": group("stop"), "SessionStart": group("session-start")}})
    );
    let root = case.path().canonicalize().unwrap();
    let trust =
        format!("[projects.{}]\n      trust_level = \"trusted\"", serde_json::Value::from(root.display().to_string()));
    assert!(run.stdout.contains(&trust), "says how to trust this very project: {run:?}");
    let again = case.md(&["hook", "install", "--agent", "codex"]);
    assert!(again.stdout.contains("nothing to change") && again.stdout.contains("each hook is reviewed"), "{again:?}");
}

#[test]
fn settings_that_cannot_be_merged_into_are_refused_and_left_alone() {
    let case = Case::new();
    case.repo.write(".claude/settings.json", "{\"hooks\": [\"not\", \"an\", \"object\"]}\n");
    let run = case.md(&["hook", "install", "--agent", "claude"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains(".claude/settings.json cannot be merged into"), "{run:?}");
    assert_eq!(
        std::fs::read_to_string(case.path().join(".claude/settings.json")).unwrap(),
        "{\"hooks\": [\"not\", \"an\", \"object\"]}\n"
    );
}

#[cfg(unix)]
#[test]
fn the_git_hook_moves_an_existing_pre_push_aside_and_chains_to_it() {
    use std::os::unix::fs::PermissionsExt;
    let case = Case::new();
    let hooks = case.path().join(".git/hooks");
    std::fs::create_dir_all(&hooks).unwrap();
    std::fs::write(hooks.join("pre-push"), "#!/bin/sh\necho theirs\n").unwrap();
    std::fs::set_permissions(hooks.join("pre-push"), std::fs::Permissions::from_mode(0o755)).unwrap();

    let run = case.md(&["hook", "install", "--git", "--bin", "/usr/local/bin/majordomus"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(std::fs::read_to_string(hooks.join("pre-push.majordomus-chained")).unwrap(), "#!/bin/sh\necho theirs\n");
    let ours = std::fs::read_to_string(hooks.join("pre-push")).unwrap();
    assert!(ours.contains("# majordomus pre-push hook") && ours.contains("md=/usr/local/bin/majordomus"), "{ours}");
    assert_eq!(std::fs::metadata(hooks.join("pre-push")).unwrap().permissions().mode() & 0o111, 0o111);
    snapshot_run!("install_git", case.snapshot(&run));

    let again = case.md(&["hook", "install", "--git", "--bin", "/usr/local/bin/majordomus"]);
    assert!(again.stdout.contains("nothing to change"), "{again:?}");
    assert_eq!(
        std::fs::read_to_string(hooks.join("pre-push.majordomus-chained")).unwrap(),
        "#!/bin/sh\necho theirs\n",
        "never chained to itself"
    );
}

#[test]
fn the_git_hook_goes_where_core_hooks_path_says() {
    let case = Case::new();
    case.repo.git(&["config", "core.hooksPath", "tools/githooks"]);
    let run = case.md(&["hook", "install", "--git"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(case.path().join("tools/githooks/pre-push").is_file());
    assert!(!case.path().join(".git/hooks/pre-push").exists());
}

#[test]
fn the_readme_shows_the_settings_an_install_produces() {
    let case = Case::new();
    let run = case.md(&["hook", "install", "--agent", "claude", "--dry-run"]);
    let produced = run.stdout.strip_prefix("would write .claude/settings.json:\n").unwrap();
    let readme =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md")).unwrap();
    let shown = readme
        .split("`--agent claude` writes:\n\n```json\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("README's Agent hooks section shows the settings JSON");
    assert_eq!(shown, produced);
}

#[cfg(unix)]
#[test]
fn settings_behind_a_symbolic_link_are_written_through_it_keeping_the_mode() {
    use std::os::unix::fs::PermissionsExt;
    let case = Case::new();
    let shared = case.path().join("shared-settings.json");
    std::fs::write(&shared, "{\"permissions\": {}}\n").unwrap();
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o640)).unwrap();
    std::fs::create_dir_all(case.path().join(".claude")).unwrap();
    let link = case.path().join(".claude/settings.json");
    std::os::unix::fs::symlink(&shared, &link).unwrap();

    let run = case.md(&["hook", "install", "--agent", "claude"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link is kept");
    let target: Value = serde_json::from_str(&std::fs::read_to_string(&shared).unwrap()).unwrap();
    assert_eq!(
        target["hooks"]["Stop"][0]["hooks"][0]["command"],
        "majordomus hook stop --agent claude --host-timeout 60"
    );
    assert_eq!(std::fs::metadata(&shared).unwrap().permissions().mode() & 0o777, 0o640, "the mode is kept");
}

#[cfg(unix)]
#[test]
fn settings_linked_to_a_file_outside_the_repository_are_refused_naming_it_and_left_alone() {
    let case = Case::new();
    let elsewhere = tempfile::tempdir().unwrap();
    let outside = elsewhere.path().join("global-settings.json");
    std::fs::write(&outside, "{\"mine\": true}\n").unwrap();
    for linked in [".claude/settings.json", ".claude"] {
        let _ = std::fs::remove_dir_all(case.path().join(".claude"));
        let _ = std::fs::remove_file(case.path().join(".claude"));
        if linked == ".claude" {
            std::os::unix::fs::symlink(elsewhere.path(), case.path().join(".claude")).unwrap();
            std::fs::rename(&outside, elsewhere.path().join("settings.json")).unwrap();
        } else {
            std::fs::create_dir_all(case.path().join(".claude")).unwrap();
            std::os::unix::fs::symlink(&outside, case.path().join(linked)).unwrap();
        }
        let run = case.md(&["hook", "install", "--agent", "claude"]);
        assert_eq!(run.code, 2, "{linked}: {run:?}");
        let real = elsewhere.path().canonicalize().unwrap();
        assert!(run.stderr.contains(&format!("to {}", real.display())), "{linked}: {run:?}");
        assert!(run.stderr.contains("outside this repository"), "{linked}: {run:?}");
        let held = if linked == ".claude" { elsewhere.path().join("settings.json") } else { outside.clone() };
        assert_eq!(std::fs::read_to_string(&held).unwrap(), "{\"mine\": true}\n", "{linked}: the file outside changed");
        assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 1, "{linked}: a file was made outside");
    }
}

#[cfg(unix)]
#[test]
fn a_new_settings_file_is_readable_by_all_not_private() {
    use std::os::unix::fs::PermissionsExt;
    let case = Case::new();
    assert_eq!(case.md(&["hook", "install", "--agent", "claude"]).code, 0);
    let mode = std::fs::metadata(case.path().join(".claude/settings.json")).unwrap().permissions().mode() & 0o777;
    // 0644 less the umask, read off a file created the ordinary way (0666 less the umask).
    let probe = case.path().parent().unwrap().join("umask-probe");
    std::fs::write(&probe, "").unwrap();
    let ordinary = std::fs::metadata(&probe).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o644 & ordinary, "{mode:o}");
}

#[cfg(unix)]
#[test]
fn settings_linked_to_something_other_than_a_regular_file_are_refused_and_never_written() {
    let case = Case::new();
    std::fs::create_dir_all(case.path().join(".claude")).unwrap();
    let link = case.path().join(".claude/settings.json");
    std::os::unix::fs::symlink("/dev/null", &link).unwrap();
    let run = case.md(&["hook", "install", "--agent", "claude"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("to /dev/null, outside this repository"), "{run:?}");
    assert_eq!(std::fs::read_link(&link).unwrap(), std::path::Path::new("/dev/null"), "the link is left alone");

    std::fs::remove_file(&link).unwrap();
    std::fs::create_dir(case.path().join("a-directory")).unwrap();
    std::os::unix::fs::symlink(case.path().join("a-directory"), &link).unwrap();
    let run = case.md(&["hook", "install", "--agent", "claude"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("which is not a regular file; nothing was changed"), "{run:?}");

    std::fs::remove_file(&link).unwrap();
    std::os::unix::fs::symlink(case.path().join("nowhere.json"), &link).unwrap();
    let run = case.md(&["hook", "install", "--agent", "claude"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("symbolic link whose target cannot be resolved"), "{run:?}");
    assert!(!case.path().join("nowhere.json").exists());
}

#[test]
fn a_large_integer_elsewhere_in_the_settings_is_kept_as_written() {
    let case = Case::new();
    case.repo.write(".claude/settings.json", "{\"big\": 12345678901234567890123, \"small\": 1.5}\n");
    assert_eq!(case.md(&["hook", "install", "--agent", "claude"]).code, 0);
    let text = std::fs::read_to_string(case.path().join(".claude/settings.json")).unwrap();
    assert!(text.contains("\"big\": 12345678901234567890123"), "{text}");
    assert!(text.contains("\"small\": 1.5"), "{text}");
}

#[test]
fn a_user_install_writes_the_users_settings_from_anywhere_and_leaves_the_project_alone() {
    let case = Case::new();
    let home = tempfile::tempdir().unwrap();
    let nowhere = tempfile::tempdir().unwrap();
    let env = [("HOME", home.path().to_str().unwrap())];
    std::fs::create_dir_all(home.path().join(".claude")).unwrap();
    std::fs::write(home.path().join(".claude/settings.json"), "{\n  \"theme\": \"dark\",\n  \"n\": 1e400\n}\n")
        .unwrap();
    let run = case.run(nowhere.path(), &["hook", "install", "--agent", "claude", "--user"], None, &env);
    assert_eq!(run.code, 0, "no repository is needed: {run:?}");
    let text = std::fs::read_to_string(home.path().join(".claude/settings.json")).unwrap();
    assert!(text.starts_with("{\n  \"theme\": \"dark\",\n  \"n\": 1e400,\n  \"hooks\": {\n"), "{text}");
    assert!(text.contains("\"command\": \"majordomus hook stop --agent claude --host-timeout 60\""), "{text}");
    assert!(!case.path().join(".claude").exists());

    let codex_home = tempfile::tempdir().unwrap();
    let env = [("HOME", home.path().to_str().unwrap()), ("CODEX_HOME", codex_home.path().to_str().unwrap())];
    let run = case.run(case.path(), &["hook", "install", "--agent", "codex", "--user"], None, &env);
    assert_eq!(run.code, 0, "{run:?}");
    let hooks: Value =
        serde_json::from_str(&std::fs::read_to_string(codex_home.path().join("hooks.json")).unwrap()).unwrap();
    assert_eq!(hooks["hooks"]["SessionStart"][0]["hooks"][0]["command"], "majordomus hook session-start --agent codex");
    assert!(!run.stdout.contains("trust_level") && run.stdout.contains("each hook is reviewed"), "{run:?}");
    assert!(!case.path().join(".codex").exists());
    assert_eq!(case.md(&["hook", "install", "--git", "--user"]).code, 2, "--user is for an agent's hooks");
}

#[test]
fn a_timeout_that_leaves_the_hook_budget_no_room_is_refused() {
    let case = Case::new();
    for timeout in ["0", "5", "25"] {
        let run = case.md(&["hook", "install", "--agent", "claude", "--timeout", timeout]);
        assert_eq!(run.code, 2, "--timeout {timeout}: {run:?}");
        assert!(run.stderr.contains("leaves no room for the hook's time budget of 20000 ms"), "{run:?}");
        assert!(!case.path().join(".claude/settings.json").exists(), "nothing was written");
    }
    std::fs::create_dir_all(case.path().join(".ai/repo")).unwrap();
    std::fs::write(case.path().join(".ai/repo/majordomus.toml"), "[hook]\nbudget_ms = 1000\n").unwrap();
    let run = case.md(&["hook", "install", "--agent", "claude", "--timeout", "10"]);
    assert_eq!(run.code, 0, "a smaller budget leaves room: {run:?}");
}
