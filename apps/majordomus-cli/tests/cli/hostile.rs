//! A hostile repository: a `core.fsmonitor` program, every hook, a filter
//! driver, a textconv driver, a pager and an alias, each of which would
//! touch a marker file if anything ran it. After `start` and `check`, no
//! marker exists.

use super::*;

const HOOKS: [&str; 12] = [
    "pre-commit",
    "post-commit",
    "post-checkout",
    "post-merge",
    "pre-push",
    "pre-rebase",
    "post-rewrite",
    "reference-transaction",
    "post-index-change",
    "pre-auto-gc",
    "fsmonitor-watchman",
    "push-to-checkout",
];

fn plant(t: &TestRepo, markers: &Path) -> Vec<std::path::PathBuf> {
    let mut planted = Vec::new();
    let script = |name: &str| {
        let marker = markers.join(name);
        let path = markers.join(format!("{name}.sh"));
        std::fs::write(&path, format!("#!/bin/sh\ntouch '{}'\ncat\n", marker.display())).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        (path, marker)
    };
    let hooks = t.path().join(".git/hooks");
    std::fs::create_dir_all(&hooks).unwrap();
    for hook in HOOKS {
        let (path, marker) = script(&format!("hook-{hook}"));
        std::fs::copy(&path, hooks.join(hook)).unwrap();
        planted.push(marker);
    }
    for (key, name) in [
        ("core.fsmonitor", "fsmonitor"),
        ("filter.evil.clean", "filter-clean"),
        ("filter.evil.smudge", "filter-smudge"),
        ("filter.evil.process", "filter-process"),
        ("diff.evil.textconv", "textconv"),
        ("core.pager", "pager"),
        ("core.sshCommand", "ssh"),
        ("alias.status", "alias"),
    ] {
        let (path, marker) = script(name);
        let value = if key == "alias.status" { format!("!{}", path.display()) } else { path.display().to_string() };
        t.git(&["config", key, &value]);
        planted.push(marker);
    }
    t.git(&["config", "filter.evil.required", "true"]);
    t.git(&["config", "core.untrackedCache", "true"]);
    planted
}

#[test]
fn no_reading_runs_anything_the_repository_controls() {
    let t = TestRepo::with_commit();
    t.write(".gitattributes", "* filter=evil diff=evil\n");
    t.write("src/a.rs", "a\n");
    t.commit_all("attributes");
    let markers = tempfile::tempdir().unwrap();
    let planted = plant(&t, markers.path());

    // Content git must read through its filters to compare: a modified file,
    // a new one, and a file whose stat data no longer matches the index.
    t.write("src/a.rs", "a, modified\n");
    t.write("src/new.rs", "new\n");
    std::thread::sleep(std::time::Duration::from_millis(1100));
    t.write("README", "hello\n");

    let start = majordomus(t.path(), &["start", "in a hostile repository"]);
    assert_eq!(start.code, 0, "{}", start.render());
    t.write("src/b.rs", "b\n");
    let check = majordomus(t.path(), &["check", "--json"]);
    assert_eq!(check.code, 10, "{}", check.render());
    let finish = majordomus(t.path(), &["finish", "--outcome", "failed"]);
    assert_eq!(finish.code, 0, "{}", finish.render());

    let ran: Vec<_> = planted.iter().filter(|m| m.exists()).collect();
    assert!(ran.is_empty(), "repository-controlled code ran: {ran:?}");
    // The planted scripts do work when something runs them: the test can fail.
    let probe = Command::new(markers.path().join("fsmonitor.sh")).stdin(std::process::Stdio::null()).status().unwrap();
    assert!(probe.success());
    assert!(markers.path().join("fsmonitor").exists());
}
