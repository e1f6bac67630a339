//! The starter policy `majordomus init` writes: what it can tell of a
//! project from the files at its root, said as gates a new user would have
//! declared by hand.
//!
//! Each ecosystem is recognised by the file its own tools start from, and
//! its gate runs the command those tools document for running the tests:
//!
//! | found at the root | gate | runs |
//! |---|---|---|
//! | `Cargo.toml` | `cargo-test` | `cargo test` (`--workspace` when it declares `[workspace]`) |
//! | `package.json` with a `test` script | `npm-test` | `npm test` (`yarn test`, `pnpm test`, `bun run test` beside their lock files) |
//! | `pyproject.toml`, `setup.py`, `setup.cfg`, `pytest.ini`, `tox.ini` | `pytest` | `python3 -m pytest` |
//! | `go.mod` | `go-test` | `go test ./...` |
//! | a `GNUmakefile`, `makefile` or `Makefile` with a `test` (else `check`) target, or passing targets on (`.DEFAULT`) to a makefile one directory down that has one | `make-test` (`make-check`) | `make test` (`make check`) |
//!
//! A `t` directory holding test scripts (git's `t0001-init.sh`, Perl's
//! `*.t`, or a `test-lib.sh`) is no test directory by its name
//! (`regression-tested` counts `test`, `tests`, ...), so its files are
//! declared test paths, `[tests] paths = ["t/**"]`.
//!
//! A gate's `inputs` are every file (`**`): a test command can read any file
//! of the tree (a file the code includes, `include_str!` or `//go:embed`, a
//! fixture, a snapshot, a test runner's configuration), and an input left
//! out leaves a verdict standing over a change to it. What the command
//! cannot read is the user's to say: the comment above the gate gives the
//! narrower list an ecosystem's sources, manifests, lock files and test
//! directories would make (`StarterGate::narrower`), and what that list
//! would miss. Nothing here runs anything: the files are read, never
//! executed, and what was not recognised is said in a comment instead of
//! guessed.

use std::path::Path;

/// One gate of the starter policy, and the sentence saying why it is there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StarterGate {
    pub id: &'static str,
    pub run: String,
    pub inputs: Vec<String>,
    /// Why: a comment above the gate, naming what was found.
    pub because: String,
    /// The narrower inputs a user may declare instead (the sources of the
    /// language, the manifests and lock files, the test directories that
    /// exist), said in a comment, never written as the inputs.
    pub narrower: Vec<String>,
    /// What the narrower list would leave out that the command may read.
    pub misses: &'static str,
}

/// Every file of the tree: what a starter gate's inputs are.
pub const EVERY_FILE: &str = "**";

/// What `init` found at a project's root.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Starter {
    pub gates: Vec<StarterGate>,
    /// Things found and not made a gate, each a sentence (a comment).
    pub notes: Vec<String>,
    /// The `[forge]` table's lines (comments included), from the remotes.
    pub forge: Vec<String>,
    /// Test paths declared (`[tests] paths`): directories of tests that
    /// no built-in rule counts by name, with why.
    pub test_paths: Vec<(String, String)>,
}

/// A gate's run time before the whole process group is stopped.
const TIMEOUT_SECONDS: u64 = 1800;

/// The starter policy for the project at `root`.
pub fn detect(root: &Path) -> Starter {
    let mut s = Starter::default();
    rust(root, &mut s);
    node(root, &mut s);
    python(root, &mut s);
    go(root, &mut s);
    make(root, &mut s);
    t_directory(root, &mut s);
    s
}

fn exists(root: &Path, rel: &str) -> bool {
    root.join(rel).exists()
}

fn read(root: &Path, rel: &str) -> Option<String> {
    std::fs::read_to_string(root.join(rel)).ok()
}

/// `candidates` that exist at `root`, in order.
fn present(root: &Path, candidates: &[&str]) -> Vec<String> {
    candidates.iter().filter(|c| exists(root, c)).map(|c| c.to_string()).collect()
}

/// The directories conventionally holding tests (and their fixtures).
const TEST_DIRS: [&str; 5] = ["tests", "test", "testdata", "__tests__", "spec"];

fn rust(root: &Path, s: &mut Starter) {
    let Some(manifest) = read(root, "Cargo.toml") else { return };
    let doc = toml_edit::ImDocument::parse(manifest.as_str()).ok();
    let workspace = doc.as_ref().is_some_and(|d| d.as_table().contains_key("workspace"));
    let package = doc.as_ref().is_some_and(|d| d.as_table().contains_key("package"));
    let (run, what) = match (workspace, package) {
        (true, true) => ("cargo test --workspace", "a package that is also a workspace"),
        (true, false) => ("cargo test --workspace", "a workspace"),
        (false, _) if doc.is_none() => ("cargo test", "a manifest this could not parse"),
        (false, _) => ("cargo test", "a single package"),
    };
    let mut inputs = vec!["Cargo.toml".to_string(), "Cargo.lock".to_string(), "**/*.rs".into(), "**/Cargo.toml".into()];
    inputs.extend(present(root, &[".cargo", "rust-toolchain", "rust-toolchain.toml"]));
    inputs.extend(present(root, &TEST_DIRS));
    s.gates.push(StarterGate {
        id: "cargo-test",
        run: run.to_string(),
        inputs: vec![EVERY_FILE.into()],
        because: format!("Found Cargo.toml ({what})."),
        narrower: inputs,
        misses:
            "a file the code includes (include_str!, include_bytes!), a build script's input, a fixture outside tests",
    });
}

/// What `npm init` puts in `scripts.test`: a placeholder, not a test.
const NPM_PLACEHOLDER: &str = "no test specified";

fn node(root: &Path, s: &mut Starter) {
    let Some(text) = read(root, "package.json") else { return };
    let manifest: Option<serde_json::Value> = serde_json::from_str(&text).ok();
    let scripts = manifest.as_ref().and_then(|m| m.get("scripts")).and_then(|v| v.as_object());
    let test = scripts.and_then(|m| m.get("test")).and_then(|v| v.as_str());
    let Some(test) = test.filter(|t| !t.contains(NPM_PLACEHOLDER) && !t.trim().is_empty()) else {
        s.notes.push(match manifest {
            None => "Found package.json, which is not JSON this could read: no gate for it.".into(),
            Some(_) => {
                "Found package.json without a `test` script: no gate for it (declare one running what tests it).".into()
            }
        });
        return;
    };
    let (tool, run, lock) = if exists(root, "pnpm-lock.yaml") {
        ("pnpm", "pnpm test", "pnpm-lock.yaml")
    } else if exists(root, "yarn.lock") {
        ("yarn", "yarn test", "yarn.lock")
    } else if exists(root, "bun.lockb") || exists(root, "bun.lock") {
        ("bun", "bun run test", if exists(root, "bun.lock") { "bun.lock" } else { "bun.lockb" })
    } else {
        ("npm", "npm test", "package-lock.json")
    };
    let mut inputs = vec![
        "package.json".to_string(),
        lock.to_string(),
        "**/*.{js,jsx,ts,tsx,mjs,cjs,mts,cts,vue,svelte}".into(),
        "**/tsconfig*.json".into(),
    ];
    inputs.extend(present(root, &TEST_DIRS));
    s.gates.push(StarterGate {
        id: "npm-test",
        run: run.to_string(),
        inputs: vec![EVERY_FILE.into()],
        because: format!("Found package.json whose `test` script runs `{}` (through {tool}).", test.trim()),
        narrower: inputs,
        misses: "the test runner's configuration (jest.config.*, vitest.config.*, babel), snapshots, JSON and other data the code imports or opens",
    });
}

fn python(root: &Path, s: &mut Starter) {
    const MARKERS: [&str; 5] = ["pyproject.toml", "setup.py", "setup.cfg", "pytest.ini", "tox.ini"];
    let found = present(root, &MARKERS);
    if found.is_empty() {
        return;
    }
    let pytest_configured = read(root, "pyproject.toml").is_some_and(|t| t.contains("[tool.pytest"))
        || exists(root, "pytest.ini")
        || exists(root, "conftest.py")
        || read(root, "setup.cfg").is_some_and(|t| t.contains("[tool:pytest]"))
        || read(root, "tox.ini").is_some_and(|t| t.contains("[pytest]"));
    let why = if pytest_configured { "pytest is configured here" } else { "pytest also runs unittest-style tests" };
    let mut inputs = vec!["**/*.py".to_string()];
    inputs.extend(found.iter().cloned());
    inputs.extend(present(root, &["conftest.py", "requirements.txt", "requirements-dev.txt"]));
    inputs.extend(present(root, &TEST_DIRS));
    s.gates.push(StarterGate {
        id: "pytest",
        run: "python3 -m pytest".into(),
        inputs: vec![EVERY_FILE.into()],
        because: format!("Found {} ({why}).", found.join(", ")),
        narrower: inputs,
        misses: "the data files the code or the tests open outside the test directories (fixtures, JSON, templates), a plugin's configuration",
    });
}

fn go(root: &Path, s: &mut Starter) {
    if !exists(root, "go.mod") {
        return;
    }
    let mut inputs = vec!["go.mod".to_string(), "go.sum".to_string(), "**/*.go".into(), "**/testdata".into()];
    inputs.extend(present(root, &["go.work", "go.work.sum"]));
    s.gates.push(StarterGate {
        id: "go-test",
        run: "go test ./...".into(),
        inputs: vec![EVERY_FILE.into()],
        because: "Found go.mod.".into(),
        narrower: inputs,
        misses: "files a //go:embed directive takes in, and data the tests open outside testdata",
    });
}

/// The makefile GNU make reads at `root`, in its order of names.
const MAKEFILES: [&str; 3] = ["GNUmakefile", "makefile", "Makefile"];

/// The targets `text` (a makefile) gives rules for: the names before the
/// `:` of each rule line (not a recipe line, a comment, a variable's
/// assignment `X := a:b`, or a special target such as `.PHONY`).
fn make_targets(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with(['\t', ' ', '#']) {
            continue;
        }
        let Some((targets, rest)) = line.split_once(':') else { continue };
        if rest.starts_with('=') || targets.contains(['=', '$', '%']) {
            continue;
        }
        out.extend(targets.split_whitespace().filter(|t| !t.starts_with('.')));
    }
    out
}

/// Whether a makefile's text gives a `.DEFAULT` rule: a target it does
/// not define is made by that rule's recipe (redis's top makefile passes
/// each on to `src/`).
fn passes_targets_on(text: &str) -> bool {
    text.lines().any(|l| l.split_once(':').is_some_and(|(t, rest)| t.trim() == ".DEFAULT" && !rest.starts_with('=')))
}

/// The first makefile one directory down (by name) whose rules give
/// `test` or `check`: where a top makefile passing targets on would make
/// it. Its path and the target.
fn target_below(root: &Path) -> Option<(String, &'static str)> {
    let mut dirs: Vec<std::path::PathBuf> = std::fs::read_dir(root)
        .ok()?
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()) && !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| e.path())
        .collect();
    dirs.sort();
    for dir in dirs {
        let Some((file, text)) = MAKEFILES.iter().find_map(|f| Some((*f, std::fs::read_to_string(dir.join(f)).ok()?)))
        else {
            continue;
        };
        let targets = make_targets(&text);
        if let Some(target) = ["test", "check"].into_iter().find(|t| targets.contains(t)) {
            let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            return Some((format!("{name}/{file}"), target));
        }
    }
    None
}

fn make(root: &Path, s: &mut Starter) {
    let Some((file, text)) = MAKEFILES.iter().find_map(|f| Some((*f, read(root, f)?))) else { return };
    let targets = make_targets(&text);
    let found = match ["test", "check"].into_iter().find(|t| targets.contains(t)) {
        Some(target) => Some((target, format!("Found {file} with a `{target}` target."))),
        None if passes_targets_on(&text) => target_below(root).map(|(below, target)| {
            (target, format!("Found {file}, which passes a target it does not give on (`.DEFAULT`), and {below} with a `{target}` target."))
        }),
        None => None,
    };
    let Some((target, because)) = found else {
        s.notes.push(format!("Found {file} without a `test` or `check` target: no gate for it."));
        return;
    };
    let mut inputs = vec![file.to_string()];
    inputs.extend(present(root, &TEST_DIRS));
    inputs.extend(present(root, &["t"]));
    s.gates.push(StarterGate {
        id: if target == "test" { "make-test" } else { "make-check" },
        run: format!("make {target}"),
        inputs: vec![EVERY_FILE.into()],
        because,
        narrower: inputs,
        misses: "the sources its rules build and every file a rule reads, which only the makefile says",
    });
}

/// Whether `name` is a test script by the conventions of a `t` directory:
/// Perl's and TAP's `*.t`, git's `t0001-init.sh` (a `t`, a digit, `.sh`), or
/// the library such scripts source (`test-lib.sh`).
fn t_script(name: &str) -> bool {
    (name.ends_with(".t") && name.len() > 2)
        || (name.starts_with('t') && name[1..].starts_with(|c: char| c.is_ascii_digit()) && name.ends_with(".sh"))
        || name == "test-lib.sh"
}

fn t_directory(root: &Path, s: &mut Starter) {
    let Ok(entries) = std::fs::read_dir(root.join("t")) else { return };
    let scripts = entries.filter_map(Result::ok).filter(|e| e.file_name().to_str().is_some_and(t_script)).count();
    if scripts > 0 {
        s.test_paths.push((
            "t/**".into(),
            format!(
                "Found t/ holding {scripts} test {} (t0001-name.sh, name.t or test-lib.sh): no built-in rule counts a `t` directory as tests, so its files are declared test paths.",
                if scripts == 1 { "script" } else { "scripts" }
            ),
        ));
    }
}

/// `text` as comment lines of at most 80 columns (a word longer stays whole).
fn comment(text: &str) -> String {
    let mut out = String::new();
    let mut line = String::from("#");
    for word in text.split_whitespace() {
        if line.len() > 1 && line.len() + 1 + word.len() > 80 {
            out.push_str(&line);
            out.push('\n');
            line = String::from("#");
        }
        line.push(' ');
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// A TOML basic string holding `s`.
fn quoted(s: &str) -> String {
    serde_json::Value::from(s).to_string()
}

impl Starter {
    /// The policy's text: a header saying where it came from, each gate
    /// with the comment saying why, then the notes.
    pub fn render(&self) -> String {
        let mut out = String::from(
            "# majordomus's policy for this repository, written by `majordomus init` from\n\
             # what it found here. Read it, adjust it, and commit it before starting a task:\n\
             # a policy edited during a task is part of that task's change. Every table is\n\
             # optional; majordomus's README (\"Gates and the policy\") says what each key does.\n\
             #\n\
             # A gate is a command majordomus runs itself (`majordomus gate run ID`); a change\n\
             # to a path its `inputs` match selects it, and its verdict covers their content.\n",
        );
        if self.gates.is_empty() {
            out.push_str(
                "#\n# No test command was recognised here (looked for Cargo.toml, package.json,\n\
                 # pyproject.toml, setup.py, setup.cfg, pytest.ini, tox.ini, go.mod, and a\n\
                 # makefile's test or check target). Declare one:\n\
                 #\n# [gates.test]\n# run = \"make test\"\n# inputs = [\"**\"]   # every file; narrow it only to what the command cannot read\n",
            );
        }
        for g in &self.gates {
            let list = |l: &[String]| l.iter().map(|i| quoted(i)).collect::<Vec<_>>().join(", ");
            out.push_str(&format!(
                "\n{}\
                 # Its inputs are every file not ignored: the command may read any of them, and\n\
                 # a change to a file left out would leave a pass standing over it. To narrow\n\
                 # them, list every path the command reads: the sources and manifests\n\
                 #   inputs = [{}]\n\
                 {}\
                 [gates.{}]\nrun = {}\ninputs = [{}]\ntimeout_seconds = {TIMEOUT_SECONDS}\n",
                comment(&g.because),
                list(&g.narrower),
                comment(&format!("and also what it reads beyond them: {}.", g.misses)),
                g.id,
                quoted(&g.run),
                list(&g.inputs)
            ));
        }
        if !self.test_paths.is_empty() {
            out.push('\n');
            for (_, why) in &self.test_paths {
                out.push_str(&comment(why));
            }
            let globs = self.test_paths.iter().map(|(glob, _)| quoted(glob)).collect::<Vec<_>>().join(", ");
            out.push_str(&format!("[tests]\npaths = [{globs}]\n"));
        }
        if !self.notes.is_empty() {
            out.push('\n');
            for n in &self.notes {
                out.push_str(&format!("# {n}\n"));
            }
        }
        if !self.forge.is_empty() {
            out.push('\n');
            for line in &self.forge {
                out.push_str(line);
                out.push('\n');
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("temp dir");
        for (rel, text) in files {
            let path = dir.path().join(rel);
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
            std::fs::write(path, text).expect("write");
        }
        dir
    }

    fn gate(s: &Starter, id: &str) -> StarterGate {
        s.gates.iter().find(|g| g.id == id).cloned().unwrap_or_else(|| panic!("no gate {id} in {s:?}"))
    }

    #[test]
    fn a_cargo_workspace_runs_every_members_tests_over_its_rust_sources() {
        let p = project(&[("Cargo.toml", "[workspace]\nmembers = [\"a\"]\n"), ("tests/it.rs", "")]);
        let g = gate(&detect(p.path()), "cargo-test");
        assert_eq!(g.run, "cargo test --workspace");
        assert_eq!(g.inputs, [EVERY_FILE], "{g:?}");
        assert!(g.narrower.contains(&"**/*.rs".to_string()) && g.narrower.contains(&"tests".to_string()), "{g:?}");
        let p = project(&[("Cargo.toml", "[package]\nname = \"a\"\n")]);
        assert_eq!(gate(&detect(p.path()), "cargo-test").run, "cargo test");
    }

    #[test]
    fn a_package_json_test_script_is_run_by_the_tool_whose_lock_file_is_there() {
        let p = project(&[("package.json", r#"{"scripts":{"test":"vitest run"}}"#), ("test/a.test.ts", "")]);
        let g = gate(&detect(p.path()), "npm-test");
        assert_eq!(g.run, "npm test");
        assert!(g.because.contains("vitest run"), "{g:?}");
        let p = project(&[("package.json", r#"{"scripts":{"test":"jest"}}"#), ("yarn.lock", "")]);
        assert_eq!(gate(&detect(p.path()), "npm-test").run, "yarn test");
        let p = project(&[("package.json", r#"{"scripts":{"test":"echo \"Error: no test specified\" && exit 1"}}"#)]);
        let s = detect(p.path());
        assert!(s.gates.is_empty(), "npm's placeholder is no test: {s:?}");
        assert!(s.notes[0].contains("without a `test` script"), "{s:?}");
    }

    #[test]
    fn a_python_project_runs_pytest_and_a_go_module_go_test() {
        let p = project(&[("pyproject.toml", "[tool.pytest.ini_options]\n"), ("tests/test_a.py", "")]);
        let g = gate(&detect(p.path()), "pytest");
        assert_eq!(g.run, "python3 -m pytest");
        assert!(g.because.contains("pytest is configured here"), "{g:?}");
        let p = project(&[("go.mod", "module x\n")]);
        assert_eq!(gate(&detect(p.path()), "go-test").run, "go test ./...");
    }

    #[test]
    fn a_makefile_with_a_test_or_check_target_runs_it() {
        let p =
            project(&[("Makefile", "CC := cc\nall: git\n\ntest: all\n\t$(MAKE) -C t/ all\n"), ("t/t0001-init.sh", "")]);
        let g = gate(&detect(p.path()), "make-test");
        assert_eq!((g.run.as_str(), g.inputs.as_slice()), ("make test", [EVERY_FILE.to_string()].as_slice()), "{g:?}");
        assert_eq!(g.narrower, ["Makefile", "t"], "{g:?}");
        // autotools' target, in the name GNU make reads first.
        let p = project(&[("GNUmakefile", "check: all\n"), ("Makefile", "test:\n")]);
        assert_eq!(gate(&detect(p.path()), "make-check").run, "make check");
        // Not a rule: a recipe line, an assignment, a pattern, a special
        // target, a comment.
        for text in
            ["all:\n\ttest: x\n", "X = test: y\n", "test := 1\n", "%test: %.c\n", ".PHONY: test\n", "# test: x\n"]
        {
            let p = project(&[("Makefile", text)]);
            let s = detect(p.path());
            assert!(s.gates.is_empty() && s.notes[0].contains("without a `test` or `check` target"), "{text:?}: {s:?}");
        }
        assert_eq!(make_targets("all test check: x\nx:\n"), ["all", "test", "check", "x"]);
        // A top makefile passing what it does not give on, as redis's does.
        let p = project(&[
            ("Makefile", "default: all\n.DEFAULT:\n\tcd src && $(MAKE) $@\n"),
            ("src/Makefile", "all:\ntest: all\n\t./runtest\n"),
        ]);
        let g = gate(&detect(p.path()), "make-test");
        assert!(g.because.contains("src/Makefile with a `test` target"), "{g:?}");
        let p = project(&[("Makefile", "default: all\n"), ("src/Makefile", "test:\n")]);
        assert!(detect(p.path()).gates.is_empty(), "nothing passed on");
    }

    #[test]
    fn a_t_directory_of_test_scripts_is_declared_test_paths() {
        for script in ["t0001-init.sh", "basic.t", "test-lib.sh"] {
            let p = project(&[(&format!("t/{script}") as &str, "")]);
            let s = detect(p.path());
            assert_eq!(s.test_paths.len(), 1, "{script}: {s:?}");
            let text = s.render();
            let ids = majordomus_invariant::question::builtin_ids();
            let policy =
                majordomus_records::Policy::parse(Path::new("majordomus.toml"), &text, &ids).expect("a policy");
            assert!(text.contains("[tests]\npaths = [\"t/**\"]\n"), "{text}");
            assert!(format!("{policy:?}").contains("t/**"), "{policy:?}");
        }
        // A `t` of other files (templates, say), or none: nothing declared.
        for files in [vec![("t/page.html", "")], vec![("tmp/t0001.sh", "")], vec![("t/t1.png", ""), ("t/.t", "")]] {
            let p = project(&files);
            assert!(detect(p.path()).test_paths.is_empty(), "{files:?}");
        }
    }

    #[test]
    fn every_starters_inputs_are_every_file_and_the_narrower_list_is_only_said() {
        let p = project(&[
            ("Cargo.toml", "[package]\n"),
            ("package.json", r#"{"scripts":{"test":"jest"}}"#),
            ("pyproject.toml", ""),
            ("go.mod", "module x\n"),
            ("tests/a", ""),
        ]);
        let s = detect(p.path());
        assert_eq!(s.gates.len(), 4, "{s:?}");
        let ids = majordomus_invariant::question::builtin_ids();
        let text = s.render();
        let policy = majordomus_records::Policy::parse(Path::new("majordomus.toml"), &text, &ids).expect("a policy");
        for (id, g) in &policy.gates {
            // What a test command may read beside its sources: every one an input.
            assert_eq!(g.inputs, [EVERY_FILE], "{id}: {text}");
        }
        for g in &s.gates {
            let said =
                format!("#   inputs = [{}]", g.narrower.iter().map(|i| quoted(i)).collect::<Vec<_>>().join(", "));
            assert!(text.contains(&said), "{said} not in {text}");
        }
        let wrapped = comment(&"word ".repeat(40));
        assert!(wrapped.lines().all(|l| l.len() <= 80 && l.starts_with("# word")), "{wrapped}");
    }

    #[test]
    fn every_starter_is_a_valid_policy_and_nothing_recognised_is_said() {
        let ids = majordomus_invariant::question::builtin_ids();
        for files in [
            vec![],
            vec![("Cargo.toml", "[package]\n"), ("package.json", r#"{"scripts":{"test":"a \"b\""}}"#)],
            vec![("setup.py", ""), ("go.mod", "module x\n")],
        ] {
            let p = project(&files);
            let text = detect(p.path()).render();
            majordomus_records::Policy::parse(Path::new("majordomus.toml"), &text, &ids)
                .unwrap_or_else(|e| panic!("{e}\n{text}"));
        }
        let empty = project(&[]);
        assert!(detect(empty.path()).render().contains("No test command was recognised here"));
    }
}
