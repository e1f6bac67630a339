//! Agreement with git as a property: majordomus's reading of the working
//! tree (`status::read`) answers what `git status --porcelain=v2 -uall`
//! answers, on repositories built in every state the two must tell apart
//! (`agree/states.rs`) and in random combinations from fixed seeds
//! (`agree/random.rs`). A difference fails the test unless it is one of
//! `agree::DELIBERATE`, which the README's "Agreement with git status"
//! explains; the one way majordomus is stricter than git is held by its own
//! test below.
//!
//! `MAJORDOMUS_AGREE_SEEDS=N` draws N random worlds of each kind instead of
//! the default few.

#![allow(clippy::unwrap_used)]

mod agree;

use agree::random::{self, Focus};
use agree::states::{self, State};
use agree::{home, World};

/// Builds and compares every state, then fails naming each that disagreed.
fn all_agree(states: &[State]) {
    let failures: Vec<String> = states
        .iter()
        .filter_map(|(name, build)| {
            let w = World::new(name);
            build(&w);
            w.disagreement()
        })
        .collect();
    assert!(failures.is_empty(), "{} of {} states disagree:\n{}", failures.len(), states.len(), failures.join("\n"));
}

#[test]
fn every_kind_of_change_reads_as_git_status_reads_it() {
    all_agree(states::CHANGES);
}

#[test]
fn bits_settings_and_index_forms_read_as_git_status_reads_them() {
    all_agree(states::SETTINGS);
}

#[test]
fn ignore_rules_are_gits_own() {
    all_agree(states::IGNORES);
}

fn random_worlds_agree(focus: Focus, default: u64) {
    let failures: Vec<String> = (0..agree::seeds(default))
        .filter_map(|seed| {
            let w = random::world(seed, focus);
            w.disagreement()
        })
        .collect();
    assert!(failures.is_empty(), "{} random worlds disagree:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn random_combinations_of_settings_and_changes_read_as_git_status_reads_them() {
    random_worlds_agree(Focus::Combos, 8);
}

#[test]
fn random_ignore_trees_read_as_git_status_reads_them() {
    random_worlds_agree(Focus::Ignores, 8);
}

#[test]
fn random_conversions_read_as_git_status_reads_them() {
    random_worlds_agree(Focus::Conversions, 8);
}

/// The task's reading (`status::read_since`, what `check` reads) obeys
/// the start's bits, rules and settings, never fewer than git's: whatever
/// the worker does after the start (a rule added to `info/exclude`, a
/// setting turned, the index rewritten, work committed or stashed), every
/// path git lists it lists too, or it is unread and says why. A random
/// world is recorded as a task's start before its changes, then read both
/// ways.
#[test]
fn random_worlds_read_for_a_task_list_every_path_git_lists() {
    use majordomus_readings::status;
    let mut failures = Vec::new();
    let (mut read, mut unread) = (0, 0);
    for seed in 0..agree::seeds(3) {
        for focus in [Focus::Combos, Focus::Ignores, Focus::Conversions] {
            let mut start = None;
            let mut record = |w: &World| {
                let repo = majordomus_readings::open(w.root()).unwrap();
                let tree = status::read(&repo).unwrap();
                let head = repo.git.head().ok().and_then(|h| h.target());
                start = Some((status::record(&repo, &tree).unwrap(), head));
            };
            let w = match focus {
                Focus::Conversions => random::conversions(seed, &mut record),
                _ => random::world_with(seed, focus, &mut record, &mut random::after_the_start),
            };
            let (at_start, head) = start.unwrap();
            let git = w.git_reading();
            let repo = majordomus_readings::open(w.root()).unwrap();
            let Ok(tree) = status::read_since(&repo, status::Start::of_task(Some(&at_start), head, None)) else {
                unread += 1;
                continue;
            };
            read += 1;
            let ours = agree::Answer::from_tree(&tree);
            let listed = |p: &&majordomus_records::RepoPath| {
                ours.changed.contains_key(*p) || ours.untracked.contains(*p) || ours.conflicted.contains(*p)
            };
            let missed: Vec<_> =
                git.changed.keys().chain(&git.untracked).chain(&git.conflicted).filter(|p| !listed(p)).collect();
            if !missed.is_empty() {
                failures
                    .push(format!("{}: the task's reading misses {missed:?}\n git:  {git:?}\n ours: {ours:?}", w.name));
                drop(w.disagreement());
            }
        }
    }
    assert!(failures.is_empty(), "{} worlds:\n{}", failures.len(), failures.join("\n"));
    assert!(read > unread, "{unread} of {} worlds unread", read + unread);
}

/// The deliberate strictness: with `core.trustctime = false`, a same-size
/// edit whose modification time is put back is invisible to git's stat
/// check (and not racy once the index is older); majordomus compares the
/// change time too, reads the content and sees the change.
#[test]
fn a_same_size_edit_with_its_mtime_restored_is_seen_though_git_trusts_no_ctime() {
    let w = World::new("trustctime");
    w.config("core", "trustctime", "false");
    w.write("a.txt", "aaaa\n");
    w.commit_all("a");
    let file = w.root().join("a.txt");
    let old = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_600_000_000);
    std::fs::File::options().write(true).open(&file).unwrap().set_modified(old).unwrap();
    w.git(&["update-index", "--refresh"]);
    // Rewritten in place: the same inode, so only the change time tells.
    std::fs::write(&file, "bbbb\n").unwrap();
    std::fs::File::options().write(true).open(&file).unwrap().set_modified(old).unwrap();
    assert!(w.git_reading().changed.is_empty(), "git trusts the restored mtime");
    let ours = w.our_reading().unwrap();
    assert_eq!(ours.changed.keys().collect::<Vec<_>>(), ["a.txt"], "majordomus reads the content");
}

/// A setting changed since the start so that it hides less
/// (`core.fileMode` turned on after a `chmod` made while it was off): the
/// reading a task makes as its start read reads what `git status` reads
/// now, not less (test/cases/328).
#[test]
fn a_setting_turned_on_since_the_start_to_hide_less_reads_as_git_status_reads_it_now() {
    let w = World::new("filemode-turned-on");
    w.config("core", "filemode", "false");
    w.write("run.sh", "#!/bin/sh\n");
    w.commit_all("run");
    let repo = majordomus_readings::open(w.root()).unwrap();
    let at_start = majordomus_readings::status::record(&repo, &w.tree()).unwrap();
    let start_commit = repo.git.head().ok().and_then(|h| h.target());
    w.chmod("run.sh", 0o755);
    w.config("core", "filemode", "true");
    let repo = majordomus_readings::open(w.root()).unwrap();
    let since = majordomus_readings::status::read_since(
        &repo,
        majordomus_readings::status::Start::of_task(Some(&at_start), start_commit, None),
    )
    .unwrap();
    let ours = agree::Answer::from_tree(&since);
    assert_eq!(ours, w.git_reading());
    assert_eq!(ours.changed.keys().map(|p| p.to_string()).collect::<Vec<_>>(), ["run.sh"]);
}

/// `core.ignoreCase` changed since the start, either way, where an ignore
/// rule matches otherwise under the new value: `*.log` then `!keep.log`
/// re-includes `build/KEEP.log` once case is ignored, and `/Build/` stops
/// ignoring `build/` once it is not. git lists the file; so does the
/// reading a task makes as its start read (test/cases/541).
#[test]
fn core_ignorecase_changed_since_the_start_hides_no_file_git_lists_now() {
    for (name, then, now, rules, file) in [
        ("icase-turned-on", "false", "true", "*.log\n!keep.log\n", "build/KEEP.log"),
        ("icase-turned-off", "true", "false", "/Build/\n", "build/out.txt"),
    ] {
        let w = World::new(name);
        w.config("core", "ignorecase", then);
        w.write(".gitignore", rules);
        w.write("README.md", "read me\n");
        w.commit_all("initial");
        let repo = majordomus_readings::open(w.root()).unwrap();
        let at_start = majordomus_readings::status::record(&repo, &w.tree()).unwrap();
        let start_commit = repo.git.head().ok().and_then(|h| h.target());
        w.write(file, "the task's work\n");
        w.config("core", "ignorecase", now);
        let repo = majordomus_readings::open(w.root()).unwrap();
        let since = majordomus_readings::status::read_since(
            &repo,
            majordomus_readings::status::Start::of_task(Some(&at_start), start_commit, None),
        )
        .unwrap();
        assert_eq!(agree::Answer::from_tree(&since), w.git_reading(), "{name}");
        assert_eq!(since.untracked.iter().map(|p| p.to_string()).collect::<Vec<_>>(), [file], "{name}");
    }
}

/// Conditional includes, which libgit2 (the reader of the working tree)
/// follows otherwise than git: `hasconfig:remote.*.url:` it does not
/// evaluate. Where an include git follows and libgit2 does not sets a key
/// the reading obeys to another value, the reading is unread, naming the
/// key and the include (test/cases/472); every other world, includes
/// libgit2 follows as git does among them, reads as `git status` does.
/// (A `gitdir:` reached through a symbolic link, and the file
/// `GIT_CONFIG_GLOBAL` names, need the process's working directory and
/// environment, which this test's threads share: test/cases/472 and 473
/// hold them.)
#[test]
fn conditional_includes_read_as_git_reads_them_or_are_said() {
    type Include = (&'static str, &'static str, &'static str, bool);
    // The world's name, the condition, the included file, and whether the
    // reading is unread.
    const WORLDS: &[Include] = &[
        (
            "hasconfig sets who commits",
            "hasconfig:remote.*.url:https://example.com/**",
            "[user]\n\temail = x@y\n",
            false,
        ),
        (
            "hasconfig matching no remote",
            "hasconfig:remote.*.url:https://other.org/**",
            "[core]\n\tfileMode = true\n",
            false,
        ),
        (
            "hasconfig turning fileMode on",
            "hasconfig:remote.*.url:https://example.com/**",
            "[core]\n\tfileMode = true\n",
            true,
        ),
        ("hasconfig naming an excludes file", "hasconfig:remote.*.url:**", "[core]\n\texcludesFile = EXCLUDES\n", true),
        ("hasconfig setting what is in force", "hasconfig:remote.*.url:**", "[core]\n\tfileMode = false\n", false),
        ("gitdir on the real path", "gitdir:ROOT/", "[core]\n\tfileMode = true\n", false),
        ("relative gitdir", "gitdir:**/.git", "[core]\n\texcludesFile = EXCLUDES\n", false),
        ("gitdir elsewhere", "gitdir:/nowhere/", "[core]\n\tfileMode = true\n", false),
        ("onbranch", "onbranch:main", "[core]\n\tfileMode = true\n", false),
    ];
    let failures: Vec<String> = WORLDS
        .iter()
        .filter_map(|&(name, condition, included, unread)| {
            let w = World::new(name);
            let root = w.root().canonicalize().unwrap();
            let excludes = root.join(".git/empty-excludes");
            std::fs::write(&excludes, "").unwrap();
            std::fs::write(home().join(".gitignore-everything"), "notes.md\n").unwrap();
            w.config("core", "excludesFile", home().join(".gitignore-everything").to_str().unwrap());
            w.config("core", "filemode", "false");
            w.git(&["remote", "add", "origin", "https://example.com/team/repo.git"]);
            let file = root.join(".git/included.conf");
            let included = included.replace("EXCLUDES", excludes.to_str().unwrap());
            std::fs::write(&file, included).unwrap();
            let condition = condition.replace("ROOT", root.to_str().unwrap());
            w.git(&["config", &format!("includeIf.{condition}.path"), file.to_str().unwrap()]);
            w.write("run.sh", "#!/bin/sh\n");
            w.commit_all("run");
            w.chmod("run.sh", 0o755);
            w.write("notes.md", "notes\n");
            let repo = majordomus_readings::open(w.root()).unwrap();
            match (majordomus_readings::status::read(&repo), unread) {
                (Err(e), true) if e.reason.contains("includeIf") => None,
                (Ok(tree), false) if agree::Answer::from_tree(&tree) == w.git_reading() => None,
                (got, _) => Some(format!("{name}: {got:?}; git: {:?}", w.git_reading())),
            }
        })
        .collect();
    assert!(failures.is_empty(), "{} worlds read otherwise:\n{}", failures.len(), failures.join("\n"));
}

/// The named changes on clones of real projects: `MAJORDOMUS_AGREE_REPOS`
/// names them (paths or URLs git can clone, separated by spaces). Run with
/// `cargo test -p majordomus-readings --test agree_with_git -- --ignored`.
#[test]
#[ignore = "needs MAJORDOMUS_AGREE_REPOS, repositories to clone"]
fn real_projects_read_as_git_status_reads_them() {
    let repos = std::env::var("MAJORDOMUS_AGREE_REPOS").expect("MAJORDOMUS_AGREE_REPOS names the repositories");
    let failures: Vec<String> = repos.split_whitespace().flat_map(agree::real::disagreements).collect();
    assert!(failures.is_empty(), "{} disagreements:\n{}", failures.len(), failures.join("\n"));
}
