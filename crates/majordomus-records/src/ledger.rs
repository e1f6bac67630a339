//! The ledger, `.ai/local/state/ledger.jsonl`: append-only events (gate
//! runs, todos, claims, filings, background work, acknowledgements), one
//! JSON object a line.
//!
//! An append writes one whole line or nothing ([`crate::lines`]): appenders
//! hold an exclusive lock on the file while they write, and a line that
//! does not go in whole (a full disk) is cut back out. A last line without
//! its final newline is a write that was torn (a crash part way): readers
//! ignore it and say so ([`Ledger::torn`]), and the next append removes it.
//! A line that cannot be read anywhere else (a hand edit, a damaged disk)
//! makes the ledger unreadable as a whole for the readings that depend on
//! it, rather than silently skipped. Each entry's fields are bounded
//! ([`Entry::check`]), on the way in and on the way out.
//!
//! The ledger and its lock are reached like every file majordomus writes,
//! without following a symbolic link ([`crate::confined`]): a link a clone
//! brought at `ledger.jsonl` or `ledger.lock` is refused, naming it.
//!
//! A writer that derives what it appends from what the ledger already holds
//! (the next todo number, whether an issue is already claimed) takes the
//! exclusive [`lock`] across the read and the append, so two writers at once
//! never both read the same ledger and append the same number.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::confined::PlaceError;
use crate::lines::AppendError;
use crate::lock::LockError;
use crate::StatePaths;

#[path = "ledger/mark.rs"]
mod mark;
#[path = "ledger/report.rs"]
mod report;
pub use report::latest_agent_report;

/// One line of the ledger.
///
/// The event is flattened into the line and internally tagged by `kind`.
/// serde_json is built without `arbitrary_precision` (with it, a float
/// inside a flattened, tagged type does not deserialize: serde-rs/json#721);
/// `hook install` keeps a settings file's numbers by editing its text
/// instead (apps/majordomus-cli/src/commands/hook/settings_text.rs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// RFC 3339, UTC.
    pub at: String,
    /// The task the event belongs to (`None`: no task was active).
    pub task: Option<String>,
    #[serde(flatten)]
    pub event: Event,
}

/// What happened. New kinds are added as variants; `kind` names them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// A gate majordomus ran itself, and its verdict over the inputs it read.
    GateRun {
        gate: String,
        exit: i32,
        duration_ms: u64,
        /// HEAD when the run started (`None`: unborn).
        commit: Option<String>,
        /// The hash of the content of every input file when the run started.
        inputs_hash: String,
        #[serde(default)]
        timed_out: bool,
        /// The environment that chose the programs the command ran
        /// ([`GATE_ENVIRONMENT`]); `None` on a line an older majordomus
        /// wrote, which did not record it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        environment: Option<Environment>,
    },
    /// A todo declared for the task; `n` numbers it within the task.
    TodoAdd { n: u32, text: String },
    /// A declared todo done.
    TodoDone { n: u32 },
    /// An issue the task claimed (`N`, or `owner/repo#N` for another repository).
    Claim { issue: String },
    /// A claimed issue released.
    Release { issue: String },
    /// An issue the task filed.
    File { issue: String },
    /// Background work the task registered: the process and its start time
    /// (so a reused pid is not mistaken for it). `marker`: the value of
    /// `MAJORDOMUS_BG` in the environment `bg run` started it with, which
    /// every process it starts inherits (`None`: registered by `bg add`).
    Background {
        pid: u32,
        start_time: Option<u64>,
        what: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        marker: Option<String>,
    },
    /// A process seen running below registered background work `of` (its
    /// child, or a child's child), by `bg add`, `check` or `hook stop`
    /// while that work ran: it counts as that work while it runs, the same
    /// pid with the same start time, even once reparented to pid 1.
    BackgroundChild { of: u32, pid: u32, start_time: u64, name: String },
    /// A registration of background work withdrawn (`bg forget`): the
    /// process registered under `pid` no longer counts. With `why` (`bg
    /// forget --why`, the only way to forget a process still running), it
    /// is kept and shown as exempt, with the reason, while it runs.
    BackgroundForget {
        pid: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        why: Option<String>,
    },
    /// The background tasks an agent reported still running in its last stop
    /// hook input; the latest such entry replaces the earlier ones.
    AgentBackground { tasks: Vec<AgentTask> },
    /// The evidence a question holds now acknowledged as not this task's work,
    /// keyed to that exact set; for paths, to their content then too (a
    /// blob id, `-` for a path with no file): a path acknowledged and
    /// changed since is named again (test/cases/345).
    Ack {
        question: String,
        why: String,
        evidence: Vec<String>,
        #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
        content: std::collections::BTreeMap<String, String>,
    },
}

/// The variables that choose which programs a gate's command runs, or
/// what those programs load and do before any test runs, each recorded,
/// set or not; the families whose members are recorded where set are
/// [`GATE_ENVIRONMENT_FAMILIES`]. The rule for both lists: a variable
/// belongs here when a program a gate commonly is reads it for which
/// program runs, what it loads first, or which tests it selects, so that
/// a value the start did not have can make the gate run nothing and exit
/// 0 (`MAKEFLAGS=n`, `GOFLAGS=-run=^$`, `PYTEST_ADDOPTS=--co`,
/// `NODE_TEST_CONTEXT=child`, `HARNESS_PERL_SWITCHES` loading
/// `Test::More=skip_all`, `SPEC_OPTS='--tag none'`). A verdict recorded
/// under other values than the task's start is not the gate's verdict
/// (`gates-green`'s judging says so). A variable only the project's own
/// tests read (`SKIP_INTEGRATION`) is not the runner's, and is not here.
pub const GATE_ENVIRONMENT: [&str; 97] = [
    // Where a name is looked up; what a shell reads before the command
    // (`BASH_ENV` for bash, `ENV` for an interactive POSIX shell); the
    // options bash turns on at its start (`SHELLOPTS=noexec` reads a
    // script without running a line of it); where a shell's `cd` looks
    // first (`cd web && npm test` run in another `web`); the shell a
    // program starts for its own commands (make and many test runners).
    "PATH",
    "BASH_ENV",
    "ENV",
    "SHELL",
    "SHELLOPTS",
    "BASHOPTS",
    "CDPATH",
    // The dynamic loader, in every program (the rest of `LD_` is a family).
    "LD_PRELOAD",
    "LD_LIBRARY_PATH",
    // make: `MAKEFLAGS=n` prints the recipes and runs none; `MAKEFILES`
    // reads other makefiles first.
    "MAKEFLAGS",
    "MFLAGS",
    "GNUMAKEFLAGS",
    "MAKEFILES",
    // go test: `GOFLAGS=-run=^$` selects no test; `GOOS` and `GOARCH`
    // another platform, whose test binaries go runs through the
    // `go_$GOOS_$GOARCH_exec` it finds on `PATH`; `GOWORK`,
    // `GO111MODULE` and `GOPATH` where the packages come from; `GOCACHE`
    // the results it reports without running a test again.
    "GOFLAGS",
    "GOROOT",
    "GOTOOLCHAIN",
    "GOOS",
    "GOARCH",
    "GOWORK",
    "GO111MODULE",
    "GOPATH",
    "GOCACHE",
    // Python (the rest of `PYTHON...` is a family) and pytest; tox's
    // `TOXENV` chooses the environments `tox` runs.
    "PYTHONPATH",
    "PYTHONHOME",
    "PYTEST_ADDOPTS",
    "PYTEST_PLUGINS",
    "TOXENV",
    // node (the rest of `NODE_` is a family): `NODE_OPTIONS` loads a
    // module first; `NODE_TEST_CONTEXT` set makes `node --test` take
    // itself for a file another runner started, run no file and exit 0.
    "NODE_OPTIONS",
    "NODE_PATH",
    "NODE_TEST_CONTEXT",
    // perl, which loads what these name before the test file
    // (Test::Harness's `HARNESS_` is a family).
    "PERL5OPT",
    "PERL5LIB",
    "PERLLIB",
    // ruby and its gems; rake (`RAKEOPT=-n` runs no task); Rake::TestTask
    // (`TEST` names the only files run, `TESTOPTS` and its three other
    // spellings pass the tests options: `-n /none/`); Minitest::TestTask
    // (`N` and `X` select and exclude tests by name, `A` and `FILTER`
    // pass options); RSpec (`SPEC_OPTS='--tag none'` filters out every
    // example, `SPEC` names the files `rake spec` runs).
    "RUBYOPT",
    "RUBYLIB",
    "GEM_HOME",
    "GEM_PATH",
    "RAKEOPT",
    "TEST",
    "TESTOPTS",
    "TESTOPT",
    "TEST_OPTS",
    "TEST_OPT",
    "N",
    "X",
    "A",
    "FILTER",
    "SPEC",
    "SPEC_OPTS",
    // The JVM every java reads (`-javaagent:` runs code first), the
    // options `gradlew` and many launch scripts add (`JAVA_OPTS`), which
    // java, and gradle's and maven's own (`MAVEN_OPTS=-DskipTests`; the
    // rest of `MAVEN_` is a family).
    "JAVA_TOOL_OPTIONS",
    "_JAVA_OPTIONS",
    "JDK_JAVA_OPTIONS",
    "JAVA_OPTS",
    "JAVA_HOME",
    "GRADLE_OPTS",
    "GRADLE_USER_HOME",
    "MAVEN_OPTS",
    "MAVEN_ARGS",
    // PHP: the ini files php reads (an `auto_prepend_file` runs before
    // phpunit does), and the `composer.json` whose `scripts` `composer
    // test` runs.
    "PHPRC",
    "PHP_INI_SCAN_DIR",
    "COMPOSER",
    // bazelisk: which bazel `bazel test` runs.
    "USE_BAZEL_VERSION",
    // Go's file of its own settings (`go env -w GOFLAGS=...`).
    "GOENV",
    // cgo: `CGO_ENABLED=0` leaves out every file under `//go:build cgo`
    // or importing "C", so a package whose tests all are has "no test
    // files" and `go test` exits 0; `GOEXPERIMENT` sets build tags the
    // same way (the rest of `CGO_...` is a family).
    "CGO_ENABLED",
    "GOEXPERIMENT",
    // C and C++, read by make's built-in rules (`$(CC) $(CFLAGS)
    // $(CPPFLAGS) $(LDFLAGS)`, taken from the environment wherever a
    // Makefile does not set them), by autotools, cmake's first configure
    // and the `cc` crate of a Rust build script: which compiler, and its
    // flags (`CPPFLAGS=-DNDEBUG` compiles every `assert` out:
    // test/cases/600); and gcc's and clang's own, which put directories
    // before the system's headers and libraries (`CPATH` holding a
    // stand-in `assert.h`), choose the programs gcc runs, or rewrite
    // clang's arguments.
    "CC",
    "CXX",
    "CPP",
    "CFLAGS",
    "CXXFLAGS",
    "CPPFLAGS",
    "LDFLAGS",
    "LDLIBS",
    "CPATH",
    "C_INCLUDE_PATH",
    "CPLUS_INCLUDE_PATH",
    "LIBRARY_PATH",
    "GCC_EXEC_PREFIX",
    "COMPILER_PATH",
    "CCC_OVERRIDE_OPTIONS",
    // rustc and cargo: flags (a `--cfg` that compiles the tests out),
    // compiler wrappers, the toolchain (the rest of `CARGO_...` are
    // families).
    "RUSTFLAGS",
    "RUSTDOCFLAGS",
    "CARGO_ENCODED_RUSTFLAGS",
    "CARGO_ENCODED_RUSTDOCFLAGS",
    "RUSTC",
    "RUSTC_WRAPPER",
    "RUSTC_WORKSPACE_WRAPPER",
    "RUSTUP_TOOLCHAIN",
    "RUSTUP_HOME",
    "CARGO_HOME",
    // Where every program finds its user's own settings: a
    // `~/.cargo/config.toml` naming a runner, a Python user site whose
    // `usercustomize` ends the interpreter at its start.
    "HOME",
    "XDG_CONFIG_HOME",
    // git's own pointers to its settings, read by every git a gate runs:
    // the user's and the system's configuration files (`GIT_CONFIG_GLOBAL`
    // naming one where `core.whitespace = -trailing-space` passes `git
    // diff --check`: test/cases/506), and where its attributes come from
    // (`GIT_ATTR_SOURCE`, a tree whose `.gitattributes` says `-whitespace`).
    // The rest of git's settings variables never reach a gate: its command
    // runs without `GIT_CONFIG`, `GIT_CONFIG_PARAMETERS` and
    // `GIT_CONFIG_COUNT` (the runner's `REPOSITORY_ENV`, as `git rev-parse
    // --local-env-vars` lists them), and git reads the
    // `GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n` pairs only under that count.
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM",
    "GIT_CONFIG_NOSYSTEM",
    "GIT_ATTR_SOURCE",
    "GIT_ATTR_NOSYSTEM",
];

/// Families of variables recorded where set, each by how its names begin,
/// by the rule of [`GATE_ENVIRONMENT`]: every name the program reads under
/// the prefix, since each such program takes a whole configuration from
/// them and one setting is enough.
pub const GATE_ENVIRONMENT_FAMILIES: [&str; 29] = [
    // The dynamic loader's (`LD_AUDIT`, `LD_BIND_NOW`, ...).
    "LD_",
    // cargo's build, per-target, profile and unstable settings
    // (`CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER=true` runs no test,
    // `CARGO_PROFILE_TEST_...`), and its aliases, which stand for an
    // external subcommand of the same name (`CARGO_ALIAS_NEXTEST` makes
    // `cargo nextest run` another command).
    "CARGO_BUILD_",
    "CARGO_TARGET_",
    "CARGO_PROFILE_",
    "CARGO_UNSTABLE_",
    "CARGO_ALIAS_",
    // cargo-nextest's (`NEXTEST_PROFILE` naming a profile that filters
    // every test out, with `NEXTEST_NO_TESTS=pass`).
    "NEXTEST_",
    // The package managers' configuration, read by `npm test`, `pnpm
    // test`, `yarn test` (`npm_config_script_shell=true` runs the script
    // with `true`; `YARN_YARN_PATH` runs another yarn); npm reads its
    // names in any case, `Npm_Config_...` too ([`CASE_BLIND_FAMILIES`]).
    "npm_config_",
    "pnpm_config_",
    "YARN_",
    // node's every `NODE_...` (`NODE_TEST_CONTEXT`, `NODE_PRESERVE_SYMLINKS`, ...).
    "NODE_",
    // node-tap's options (`TAP_GREP`, `TAP_ONLY`, `TAP_RCFILE`).
    "TAP_",
    // Test::Harness's, read by `prove` and `make test`
    // (`HARNESS_PERL_SWITCHES=-MTest::More=skip_all,x` skips every file;
    // `HARNESS_PERL`, `HARNESS_SUBCLASS`, `HARNESS_OPTIONS`, ...).
    "HARNESS_",
    // pytest's, Python's own (every `PYTHON...` the interpreter reads:
    // `PYTHONUSERBASE` naming a user site whose `usercustomize` ends it
    // before a test runs, `PYTHONSTARTUP`, ...), tox's settings
    // (`TOX_SKIP_ENV` skips the environments it matches), nox's
    // (`NOXSESSION` chooses the sessions run), uv's and poetry's (the
    // environment whose `pytest` `uv run` or `poetry run` runs).
    "PYTEST_",
    "PYTHON",
    "TOX_",
    "NOX",
    "UV_",
    "POETRY_",
    // Minitest's (`MT_LIB_EXTRAS` puts directories before the project's)
    // and bundler's (`BUNDLE_GEMFILE` naming another set of gems).
    "MT_",
    "BUNDLE_",
    // The mvn script's (`MAVEN_BASEDIR` names whose `.mvn/jvm.config` it
    // reads) and gradle's project properties.
    "MAVEN_",
    "ORG_GRADLE_PROJECT_",
    // .NET's (`DOTNET_STARTUP_HOOKS` runs an assembly before `Main`,
    // `DOTNET_ROOT` chooses the runtime) and its profiler's, loaded into
    // every `dotnet test` process.
    "DOTNET_",
    "CORECLR_",
    // bazelisk's (`BAZELISK_BASE_URL`: where the bazel it runs comes from).
    "BAZELISK_",
    // cgo's flags (`CGO_CFLAGS`, `CGO_CPPFLAGS=-DNDEBUG`, ...); cmake's
    // (`CMAKE_BUILD_TYPE=Release` defines NDEBUG in a new build tree,
    // `CMAKE_TOOLCHAIN_FILE` another compiler) and ctest's
    // (`CTEST_NO_TESTS_ACTION=ignore` exits 0 where no test matched).
    "CGO_",
    "CMAKE_",
    "CTEST_",
];

/// Whether `name` is one of the variables a gate's run records
/// ([`GATE_ENVIRONMENT`], [`GATE_ENVIRONMENT_FAMILIES`]). `CARGO_TARGET_DIR`
/// is where cargo builds, not what it runs, and is often set per command.
pub fn in_gate_environment(name: &str) -> bool {
    let member = |f: &&str| {
        let begins = match CASE_BLIND_FAMILIES.contains(f) {
            true => name.as_bytes().get(..f.len()).is_some_and(|b| b.eq_ignore_ascii_case(f.as_bytes())),
            false => name.starts_with(f),
        };
        name.len() > f.len() && begins
    };
    GATE_ENVIRONMENT.contains(&name) || (name != "CARGO_TARGET_DIR" && GATE_ENVIRONMENT_FAMILIES.iter().any(member))
}

/// The families whose program reads their names in any case (npm:
/// `/^npm_config_/i`), or does in some of its versions (pnpm, yarn): a
/// name matched that the program does not read only records more.
const CASE_BLIND_FAMILIES: [&str; 3] = ["npm_config_", "pnpm_config_", "YARN_"];

/// The names two recorded environments are compared on, in the order a
/// sentence names them: each name of [`GATE_ENVIRONMENT`] the start's
/// record holds (a start records every one, set or not, so a name it lacks
/// was not yet read by the majordomus that started the task: a record of
/// the first four, `PATH`, `BASH_ENV`, `ENV` and `SHELL`, is judged on
/// those), then every family member either holds, where the start read
/// the families (from the same version as `LD_PRELOAD`).
pub fn compared_names<'a>(start: &'a Environment, run: &'a Environment) -> Vec<&'a str> {
    let mut names: Vec<&str> = GATE_ENVIRONMENT.iter().copied().filter(|n| start.contains_key(*n)).collect();
    if !start.contains_key("LD_PRELOAD") {
        return names;
    }
    let mut members: Vec<&str> = start.keys().chain(run.keys()).map(String::as_str).collect();
    members.retain(|n| !GATE_ENVIRONMENT.contains(n) && in_gate_environment(n));
    members.sort_unstable();
    members.dedup();
    names.extend(members);
    names
}

/// Whether a run's value of the gate environment variable `name` chooses
/// the same run as the start's: equal, or, for bash's option lists
/// (`SHELLOPTS`, `BASHOPTS`), the same once the options that only print
/// more and bash's own defaults ([`ONLY_SAY_MORE`]) are set aside, and
/// with every option of the start's kept. A run may add an option that
/// only makes it stop sooner ([`ONLY_STRICTER`]): a wrapper's `set -euo
/// pipefail; export SHELLOPTS` is the same gate. It may not take one away:
/// a gate written for the start's inherited `errexit` runs on past its
/// failing line without it (test/cases/507); nor add any other (`noexec`,
/// `noglob`, `nullglob`: test/cases/446).
pub fn same_value(name: &str, start: Option<&str>, run: Option<&str>) -> bool {
    if start == run {
        return true;
    }
    if !matches!(name, "SHELLOPTS" | "BASHOPTS") {
        return false;
    }
    let (start, run) = (options(start), options(run));
    start.is_subset(&run) && run.difference(&start).all(|o| ONLY_STRICTER.contains(o))
}

/// The options a value of `SHELLOPTS` or `BASHOPTS` lists, without those
/// that leave what a run does as it was ([`ONLY_SAY_MORE`]).
fn options(value: Option<&str>) -> std::collections::BTreeSet<&str> {
    value.unwrap_or_default().split(':').filter(|o| !o.is_empty() && !ONLY_SAY_MORE.contains(o)).collect()
}

/// The options of bash that only stop a run at a failure it would have
/// had: a run may add them to the start's, never take them away.
const ONLY_STRICTER: [&str; 4] = ["errexit", "nounset", "pipefail", "inherit_errexit"];

/// The options of bash that, set or not, leave which commands a gate runs
/// and where it stops as they were: those that print more (`xtrace`,
/// `verbose`), and those bash sets on its own in every shell that runs a
/// script (`braceexpand`, `hashall`, `interactive-comments`, and
/// `BASHOPTS`' defaults).
const ONLY_SAY_MORE: [&str; 18] = [
    "xtrace",
    "verbose",
    "braceexpand",
    "hashall",
    "interactive-comments",
    "checkwinsize",
    "cmdhist",
    "complete_fullquote",
    "extquote",
    "force_fignore",
    "globasciiranges",
    "globskipdots",
    "hostcomplete",
    "interactive_comments",
    "patsub_replacement",
    "progcomp",
    "promptvars",
    "sourcepath",
];

/// Values of the gate environment by name; `None` for one that is unset.
/// A value that is not UTF-8 is kept with each such byte as `\xNN`.
pub type Environment = BTreeMap<String, Option<String>>;

/// The values of the gate environment in this process now: every name of
/// [`GATE_ENVIRONMENT`], and each family member set.
pub fn gate_environment() -> Environment {
    use std::os::unix::ffi::OsStrExt;
    let text = |v: &std::ffi::OsStr| {
        let mut text = String::new();
        for chunk in v.as_bytes().utf8_chunks() {
            text.push_str(chunk.valid());
            for b in chunk.invalid() {
                text.push_str(&format!("\\x{b:02x}"));
            }
        }
        text
    };
    let mut env: Environment =
        GATE_ENVIRONMENT.iter().map(|name| (name.to_string(), std::env::var_os(name).map(|v| text(&v)))).collect();
    // Every member, however many: one past the bound makes the record
    // refused where it is written (a start, a gate's verdict), never one
    // cut short of the member that mattered.
    for (name, value) in std::env::vars_os() {
        if let Some(name) = name.to_str().filter(|n| !GATE_ENVIRONMENT.contains(n) && in_gate_environment(n)) {
            env.insert(name.to_string(), Some(text(&value)));
        }
    }
    env
}

/// One background task an agent reported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentTask {
    pub id: String,
    #[serde(default)]
    pub description: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    #[error("cannot read the ledger {}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}:{line}: not a ledger entry: {reason}", path.display())]
    Malformed { path: PathBuf, line: usize, reason: String },
    /// The state directory, the ledger or its lock cannot be reached
    /// (a symbolic link among them is refused).
    #[error(transparent)]
    Place(#[from] PlaceError),
    #[error("cannot lock the ledger")]
    Lock(#[from] LockError),
    #[error(transparent)]
    Append(#[from] AppendError),
    /// The ledger is shorter than majordomus left it, or its line written
    /// last is not where it was ([`load_here`]).
    #[error("the ledger {} cannot be believed: {reason}", path.display())]
    Lost { path: PathBuf, reason: String },
    /// An entry out of its bounds, refused before it is written.
    #[error("not recorded: {0}")]
    Invalid(String),
}

impl LedgerError {
    /// Whether the request was refused as given (a link where the ledger
    /// goes, an entry out of bounds, the lock held too long): exit 2, not
    /// an internal failure.
    pub fn is_refusal(&self) -> bool {
        match self {
            LedgerError::Place(e)
            | LedgerError::Lock(LockError::Place(e))
            | LedgerError::Append(AppendError::Place(e)) => e.is_refusal(),
            LedgerError::Lock(LockError::Busy { .. }) | LedgerError::Invalid(_) => true,
            _ => false,
        }
    }
}

/// The ledger as read: every entry, and the torn last line ignored.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ledger {
    pub entries: Vec<Entry>,
    pub torn: Option<Torn>,
}

/// A last line without its final newline that is not an entry: a write
/// that did not finish. Ignored; the next append removes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Torn {
    pub line: usize,
    pub bytes: usize,
}

impl Torn {
    /// What a reader says of it.
    pub fn sentence(&self, path: &Path) -> String {
        format!(
            "{}:{}: the last line ({} bytes, no final newline) is a write that did not finish: it is ignored, and the next append removes it",
            path.display(),
            self.line,
            self.bytes
        )
    }
}

/// The ledger's exclusive lock while this process holds it; dropping it
/// releases it.
pub type LedgerLock = crate::lock::Held;

/// The ledger's file name in the state directory.
pub const FILE: &str = "ledger.jsonl";
/// The lock file beside it.
pub const LOCK_FILE: &str = "ledger.lock";

/// The lock file beside the ledger at `ledger`: `ledger.lock`.
pub fn lock_path(ledger: &Path) -> PathBuf {
    ledger.with_file_name(LOCK_FILE)
}

/// Takes the ledger's exclusive lock (a lock on `ledger.lock` beside it),
/// waiting up to `wait` for another writer to let it go.
pub fn lock(paths: &StatePaths, wait: Duration) -> Result<LedgerLock, LedgerError> {
    let dir = paths.open_state(true)?;
    Ok(crate::lock::exclusive(&dir, LOCK_FILE, wait)?)
}

/// Reads every entry; a missing ledger is empty. A torn last line is
/// ignored: [`load`] says when there was one.
pub fn read(path: &Path) -> Result<Vec<Entry>, LedgerError> {
    load(path).map(|l| l.entries)
}

/// Reads the ledger: its entries and the torn last line, if any.
pub fn load(path: &Path) -> Result<Ledger, LedgerError> {
    let bytes = match crate::regular::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Ledger::default()),
        Err(source) => return Err(LedgerError::Io { path: path.into(), source }),
    };
    parse(path, &bytes)
}

/// [`load`] over the bytes of a ledger read from `path`.
pub fn parse(path: &Path, bytes: &[u8]) -> Result<Ledger, LedgerError> {
    let split = crate::lines::split(bytes);
    let malformed = |line: usize, reason: String| LedgerError::Malformed { path: path.into(), line, reason };
    let mut entries = Vec::with_capacity(split.whole.len());
    for (n, line) in split.whole {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        entries.push(Entry::parse(line).map_err(|reason| malformed(n, reason))?);
    }
    let mut torn = None;
    if let Some((n, tail)) = split.tail {
        if !tail.iter().all(u8::is_ascii_whitespace) {
            match Entry::parse(tail) {
                Ok(entry) => entries.push(entry),
                Err(_) => torn = Some(Torn { line: n, bytes: tail.len() }),
            }
        }
    }
    Ok(Ledger { entries, torn })
}

/// Whether an entry could be appended: the state directory and the ledger
/// reached (created where missing) without following a link. For a writer
/// that would otherwise find out only after long work (a gate's run).
pub fn writable(paths: &StatePaths) -> Result<(), LedgerError> {
    paths.open_state(true)?.append(FILE)?;
    Ok(())
}

/// The torn last line of the ledger at `path`, if it has one, read from its
/// end alone (cheap enough for every `check`); `None` too when the ledger
/// cannot be read (its readers say why).
pub fn torn(path: &Path) -> Option<Torn> {
    let file = crate::regular::open(path).ok()?;
    let (line_start, tail) = crate::lines::tail(&file).ok()??;
    if Entry::parse(&tail).is_ok() || tail.iter().all(u8::is_ascii_whitespace) {
        return None;
    }
    // Its line number needs the lines before it counted: only now, when there is one.
    let before = crate::regular::read(path).ok()?;
    let line =
        before[..usize::try_from(line_start).ok()?.min(before.len())].iter().filter(|b| **b == b'\n').count() + 1;
    Some(Torn { line, bytes: tail.len() })
}

/// Appends one entry as one whole line, or nothing.
pub fn append(paths: &StatePaths, entry: &Entry) -> Result<(), LedgerError> {
    append_all(paths, std::slice::from_ref(entry))
}

/// Appends entries as whole lines in one write, with one flush to the
/// disk and one mark (of the last line), or nothing.
pub fn append_all(paths: &StatePaths, entries: &[Entry]) -> Result<(), LedgerError> {
    let mut lines = Vec::new();
    let mut last = 0;
    for entry in entries {
        entry.check().map_err(LedgerError::Invalid)?;
        last = lines.len();
        serde_json::to_writer(&mut lines, entry).map_err(|e| LedgerError::Invalid(e.to_string()))?;
        lines.push(b'\n');
    }
    if lines.is_empty() {
        return Ok(());
    }
    // A ledger that lost lines is not written to: the next mark would
    // cover the loss.
    let path = paths.ledger();
    match crate::regular::read(&path) {
        Ok(bytes) => mark::verify(paths, &bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => mark::verify(paths, b""),
        Err(source) => return Err(LedgerError::Io { path, source }),
    }
    .map_err(|reason| LedgerError::Lost { path, reason })?;
    let dir = paths.open_state(true)?;
    let end = crate::lines::append_locked(&dir, FILE, &lines, |tail| Entry::parse(tail).is_ok())?;
    mark::note(paths, end, &lines[last..])
}

/// Reads the ledger of `paths` as [`load`] does, unless it lost lines since
/// majordomus last wrote it (its mark in the git directory says where the
/// line written last ends): then [`LedgerError::Lost`], never what is left.
pub fn load_here(paths: &StatePaths) -> Result<Ledger, LedgerError> {
    let path = paths.ledger();
    let bytes = match crate::regular::read(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(source) => return Err(LedgerError::Io { path, source }),
    };
    mark::verify(paths, &bytes).map_err(|reason| LedgerError::Lost { path: path.clone(), reason })?;
    parse(&path, &bytes)
}

/// [`load_here`]'s entries.
pub fn read_here(paths: &StatePaths) -> Result<Vec<Entry>, LedgerError> {
    load_here(paths).map(|l| l.entries)
}

/// Marks the ledger of `paths` as it is now, so that what happened to it
/// before (between tasks) is not held against what comes: `start` calls it.
pub fn renew_mark(paths: &StatePaths) -> Result<(), LedgerError> {
    let path = paths.ledger();
    let bytes = match crate::regular::read(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(source) => return Err(LedgerError::Io { path, source }),
    };
    mark::renew(paths, &bytes)
}

/// The bounds of an entry's fields.
mod bounds {
    /// A gate's or a question's id, a task's id.
    pub const ID: usize = 128;
    /// `owner/repo#N`: 39 + 1 + 100 + 1 + 20 digits, with room.
    pub const ISSUE: usize = 256;
    /// A time as RFC 3339.
    pub const TIME: usize = 64;
    /// The agent's background tasks in one report.
    pub const AGENT_TASKS: usize = 1000;
    /// One value of the gate environment (a long `PATH` included).
    pub const ENVIRONMENT_VALUE: usize = 128 << 10;
    /// The variables one environment may hold (a start or a gate run
    /// under more is refused).
    pub const ENVIRONMENT_NAMES: usize = 256;
}

/// Whether an environment holds only the gate environment's names
/// ([`in_gate_environment`]), each value within its bound.
pub fn check_environment(env: &Environment) -> Result<(), String> {
    if env.len() > bounds::ENVIRONMENT_NAMES {
        return Err(format!("its environment names {} variables, more than {}", env.len(), bounds::ENVIRONMENT_NAMES));
    }
    for (name, value) in env {
        if !in_gate_environment(name) {
            return Err(format!(
                "its environment names {}, not among {} nor of the families {}",
                crate::text::escape(&crate::text::clamp(name, 64)),
                GATE_ENVIRONMENT.join(", "),
                GATE_ENVIRONMENT_FAMILIES.join(", ")
            ));
        }
        if let Some(v) = value {
            crate::text::check_len(name, v, bounds::ENVIRONMENT_VALUE)?;
        }
    }
    Ok(())
}

impl Entry {
    /// Parses one line: JSON, then the bounds.
    pub fn parse(line: &[u8]) -> Result<Self, String> {
        let entry: Entry = serde_json::from_slice(line).map_err(|e| crate::json::bounded(&e.to_string()))?;
        entry.check().map_err(|e| crate::json::bounded(&e))?;
        Ok(entry)
    }

    /// Every field within its bound; the reason when one is not.
    pub fn check(&self) -> Result<(), String> {
        use crate::text::{check_len, check_object_id, MAX_FIELD};
        check_len("at", &self.at, bounds::TIME)?;
        if let Some(task) = &self.task {
            check_len("task", task, bounds::ID)?;
        }
        match &self.event {
            Event::GateRun { gate, commit, inputs_hash, environment, .. } => {
                check_len("gate", gate, bounds::ID)?;
                if let Some(c) = commit {
                    check_object_id("commit", c)?;
                }
                environment.as_ref().map_or(Ok(()), check_environment)?;
                check_len("inputs_hash", inputs_hash, bounds::ID)
            }
            Event::TodoAdd { text, .. } => check_len("text", text, MAX_FIELD),
            Event::TodoDone { .. } | Event::BackgroundForget { .. } => Ok(()),
            Event::BackgroundChild { name, .. } => check_len("name", name, bounds::ID),
            Event::Claim { issue } | Event::Release { issue } | Event::File { issue } => {
                check_len("issue", issue, bounds::ISSUE)
            }
            Event::Background { what, marker, .. } => {
                marker.as_deref().map_or(Ok(()), |m| check_len("marker", m, bounds::ID))?;
                what.as_deref().map_or(Ok(()), |w| check_len("what", w, MAX_FIELD))
            }
            Event::AgentBackground { tasks } => {
                if tasks.len() > bounds::AGENT_TASKS {
                    return Err(format!(
                        "it lists {} background tasks, more than {}",
                        tasks.len(),
                        bounds::AGENT_TASKS
                    ));
                }
                tasks.iter().try_for_each(|t| {
                    check_len("task id", &t.id, MAX_FIELD)?;
                    t.description.as_deref().map_or(Ok(()), |d| check_len("description", d, MAX_FIELD))
                })
            }
            Event::Ack { question, why, evidence, content } => {
                check_len("question", question, bounds::ID)?;
                check_len("why", why, MAX_FIELD)?;
                evidence.iter().try_for_each(|e| check_len("evidence", e, MAX_FIELD))?;
                content.iter().try_for_each(|(p, c)| {
                    check_len("evidence", p, MAX_FIELD)?;
                    check_len("content", c, MAX_FIELD)
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With serde_json's `arbitrary_precision` (which this workspace must
    /// not turn on), a float inside a flattened, internally tagged type
    /// fails to deserialize: a ledger event could never hold one.
    #[test]
    fn a_float_in_a_flattened_tagged_event_reads_back() {
        #[derive(Debug, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "kind")]
        enum Kind {
            Timed { seconds: f64 },
        }
        #[derive(Debug, PartialEq, Serialize, Deserialize)]
        struct Line {
            at: String,
            #[serde(flatten)]
            kind: Kind,
        }
        let line: Line =
            serde_json::from_str(r#"{"at":"t","kind":"Timed","seconds":1.5}"#).expect("a float reads back");
        assert_eq!(line, Line { at: "t".into(), kind: Kind::Timed { seconds: 1.5 } });
    }

    fn run(gate: &str) -> Entry {
        Entry {
            at: "2026-11-30T10:00:00Z".into(),
            task: Some("t".into()),
            event: Event::GateRun {
                gate: gate.into(),
                exit: 0,
                duration_ms: 5,
                commit: None,
                inputs_hash: "h".into(),
                timed_out: false,
                environment: Some(gate_environment()),
            },
        }
    }

    fn at(dir: &tempfile::TempDir) -> (StatePaths, PathBuf) {
        let paths = StatePaths::new(dir.path());
        let path = paths.ledger();
        (paths, path)
    }

    #[test]
    fn appended_entries_read_back_in_order() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (paths, path) = at(&dir);
        assert!(read(&path).expect("empty").is_empty());
        append(&paths, &run("a")).expect("append");
        append(&paths, &run("b")).expect("append");
        assert_eq!(read(&path).expect("read"), vec![run("a"), run("b")]);
        assert!(paths.state_dir().join(".gitignore").is_file(), "the state directory keeps itself out of git");
    }

    #[test]
    fn a_gate_run_line_written_before_the_environment_was_recorded_reads_with_none() {
        let old = r#"{"at":"2026-11-30T10:00:00Z","task":"t","kind":"gate_run","gate":"unit","exit":0,"duration_ms":5,"commit":null,"inputs_hash":"h","timed_out":false}"#;
        let entry: Entry = serde_json::from_str(old).expect("an old line still parses");
        let Event::GateRun { environment, .. } = &entry.event else { panic!("{entry:?}") };
        assert_eq!(environment, &None);
        let new = serde_json::to_string(&run("unit")).expect("encode");
        assert!(
            new.contains(r#""environment":{""#) && new.contains(r#""BASHOPTS":"#) && new.contains(r#""BASH_ENV":"#),
            "{new}"
        );
        assert_eq!(serde_json::from_str::<Entry>(&new).expect("decode"), run("unit"));
        let Event::GateRun { environment: Some(env), .. } = run("unit").event else { panic!() };
        assert!(GATE_ENVIRONMENT.iter().all(|name| env.contains_key(*name)), "every name, set or not: {env:?}");
        assert!(env.keys().all(|name| in_gate_environment(name)), "{env:?}");
        assert_eq!(check_environment(&env), Ok(()));
    }

    #[test]
    fn the_gate_environment_takes_the_runners_variables_and_their_families_and_nothing_else() {
        for name in ["PATH", "LD_PRELOAD", "LD_AUDIT", "MAKEFLAGS", "PYTEST_ADDOPTS", "PYTHONPATH", "NODE_OPTIONS"]
            .into_iter()
            .chain(["CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER", "CARGO_BUILD_RUSTFLAGS", "npm_config_script_shell"])
            .chain([
                "NPM_CONFIG_SCRIPT_SHELL",
                "GOFLAGS",
                "RUSTC_WRAPPER",
                "NEXTEST_PROFILE",
                "PYTEST_XDIST_AUTO_NUM_WORKERS",
                "PYTHONUSERBASE",
                "PYTHONSTARTUP",
                "CARGO_ENCODED_RUSTFLAGS",
                "CARGO_PROFILE_TEST_PANIC",
                "BUNDLE_GEMFILE",
                "JAVA_HOME",
                "MAVEN_ARGS",
                "SHELLOPTS",
                "BASHOPTS",
                "CDPATH",
                "NPM_CONFIG_SCRIPT_SHELL",
                "Npm_Config_Script_Shell",
            ])
            // The runners' own option variables that make them run nothing
            // and exit 0 (test/cases/479), one of each family.
            .chain([
                "NODE_TEST_CONTEXT",
                "NODE_PRESERVE_SYMLINKS",
                "HARNESS_PERL_SWITCHES",
                "HARNESS_SUBCLASS",
                "TAP_GREP",
                "pnpm_config_script_shell",
                "YARN_YARN_PATH",
                "SPEC_OPTS",
                "TESTOPTS",
                "RAKEOPT",
                "MT_LIB_EXTRAS",
                "TOXENV",
                "TOX_SKIP_ENV",
                "NOXSESSION",
                "UV_PROJECT_ENVIRONMENT",
                "CARGO_ALIAS_NEXTEST",
                "GOOS",
                "JAVA_OPTS",
                "MAVEN_BASEDIR",
                "ORG_GRADLE_PROJECT_skipTests",
                "DOTNET_STARTUP_HOOKS",
                "PHP_INI_SCAN_DIR",
                "BAZELISK_BASE_URL",
                "CPPFLAGS",
                "CC",
                "CPATH",
                "CGO_ENABLED",
                "CGO_CFLAGS",
                "CMAKE_BUILD_TYPE",
                "CTEST_NO_TESTS_ACTION",
            ])
            // git's pointers to its settings files (test/cases/506).
            .chain(["GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM", "GIT_ATTR_SOURCE"])
        {
            assert!(in_gate_environment(name), "{name}");
        }
        for name in [
            "USER",
            "PWD",
            "CARGO_TARGET_DIR",
            "CARGO_PKG_NAME",
            "RUST_LOG",
            "LD_",
            "npm_config_",
            "NPM_Config_",
            "TERM",
            "PYTHON",
            "ld_preload",
            "NODE_",
            "HARNESS_",
            "NOX",
            "node_test_context",
            "CGO_",
            "CMAKE_",
            "cc",
            // Taken out of a gate's environment, or read only under a name taken out.
            "GIT_CONFIG_COUNT",
            "GIT_CONFIG_KEY_0",
            "GIT_CONFIG_PARAMETERS",
        ] {
            assert!(!in_gate_environment(name), "{name}");
        }
        assert!(same_value(
            "SHELLOPTS",
            None,
            Some("braceexpand:errexit:hashall:interactive-comments:nounset:pipefail")
        ));
        assert!(!same_value("SHELLOPTS", None, Some("braceexpand:hashall:noexec")));
        // Strictness added is the same run; taken away, it is not.
        assert!(!same_value(
            "SHELLOPTS",
            Some("braceexpand:errexit:hashall:interactive-comments"),
            Some("braceexpand:hashall:interactive-comments")
        ));
        assert!(!same_value("SHELLOPTS", Some("errexit:pipefail"), None));
        assert!(same_value("SHELLOPTS", Some("errexit:hashall"), Some("errexit:nounset:xtrace")));
        assert!(same_value("SHELLOPTS", Some("xtrace:hashall"), Some("braceexpand")));
        assert!(!same_value("BASHOPTS", Some("cmdhist:inherit_errexit"), Some("cmdhist")));
        assert!(!same_value("BASHOPTS", Some("cmdhist"), Some("cmdhist:nullglob")));
        assert!(!same_value("PATH", Some("/bin"), Some("/bin:/x")));
        let huge = |n: usize| (0..n).map(|i| (format!("LD_X{i}"), None)).collect::<Environment>();
        assert_eq!(check_environment(&huge(bounds::ENVIRONMENT_NAMES)), Ok(()));
        assert!(check_environment(&huge(bounds::ENVIRONMENT_NAMES + 1)).is_err());
    }

    #[test]
    fn a_start_recorded_before_the_runners_variables_were_is_compared_on_the_first_four() {
        let env = |pairs: &[(&str, Option<&str>)]| -> Environment {
            pairs.iter().map(|(k, v)| (k.to_string(), v.map(str::to_string))).collect()
        };
        let old_start = env(&[("PATH", Some("/bin")), ("BASH_ENV", None), ("ENV", None), ("SHELL", None)]);
        let run = env(&[("PATH", Some("/bin")), ("LD_PRELOAD", None), ("GOFLAGS", Some("-run=^$"))]);
        assert_eq!(compared_names(&old_start, &run), ["PATH", "BASH_ENV", "ENV", "SHELL"]);
        let mut new_start: Environment = GATE_ENVIRONMENT.iter().map(|n| (n.to_string(), None)).collect();
        new_start.insert("PATH".into(), Some("/bin".into()));
        new_start.insert("npm_config_script_shell".into(), Some("true".into()));
        let names = compared_names(&new_start, &run);
        assert!(names.contains(&"GOFLAGS") && names.contains(&"npm_config_script_shell"), "{names:?}");
        assert_eq!(names.len(), GATE_ENVIRONMENT.len() + 1, "{names:?}");
        // A start that did not yet record HOME is not judged on it.
        new_start.remove("HOME");
        assert!(!compared_names(&new_start, &run).contains(&"HOME"));
    }

    #[test]
    fn concurrent_appends_each_land_a_whole_line() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (paths, path) = at(&dir);
        std::thread::scope(|s| {
            for t in 0..8 {
                let paths = &paths;
                s.spawn(move || {
                    for i in 0..50 {
                        append(paths, &run(&format!("gate-{t}-{i}-{}", "x".repeat(100)))).expect("append");
                    }
                });
            }
        });
        assert_eq!(read(&path).expect("every line parses").len(), 400);
    }

    #[test]
    fn a_held_lock_makes_another_taker_wait_then_fail_with_the_lock_named() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (paths, _) = at(&dir);
        let held = lock(&paths, Duration::from_secs(1)).expect("first lock");
        let err = lock(&paths, Duration::from_millis(50)).expect_err("second lock while held");
        assert!(crate::task::error_chain(&err).contains("ledger.lock"), "{err}");
        assert!(err.is_refusal());
        drop(held);
        lock(&paths, Duration::from_millis(50)).expect("free again once released");
    }

    #[test]
    fn a_torn_last_line_is_ignored_and_said_and_the_next_append_removes_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (paths, path) = at(&dir);
        append(&paths, &run("a")).expect("append");
        let mut bytes = std::fs::read(&path).expect("read");
        bytes.extend_from_slice(b"{\"at\": \"2026");
        std::fs::write(&path, &bytes).expect("tear");
        let ledger = load(&path).expect("a torn tail is not an error");
        assert_eq!(ledger.entries, vec![run("a")]);
        let torn_tail = ledger.torn.expect("said");
        assert_eq!(torn_tail, Torn { line: 2, bytes: 12 });
        assert!(torn_tail.sentence(&path).contains("ledger.jsonl:2: the last line (12 bytes, no final newline)"));
        assert_eq!(torn(&path), Some(torn_tail));
        append(&paths, &run("b")).expect("append");
        assert_eq!(load(&path).expect("read"), Ledger { entries: vec![run("a"), run("b")], torn: None });
        assert_eq!(torn(&path), None);
    }

    #[test]
    fn a_damaged_line_with_lines_after_it_makes_the_ledger_unreadable_with_its_line_number() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (paths, path) = at(&dir);
        append(&paths, &run("a")).expect("append");
        let mut bytes = std::fs::read(&path).expect("read");
        bytes.extend_from_slice(b"{\"at\": \"2026\n");
        std::fs::write(&path, &bytes).expect("damage");
        append(&paths, &run("b")).expect("an append does not repair the middle");
        let err = read(&path).expect_err("damaged");
        assert!(err.to_string().contains(":2: not a ledger entry"), "{err}");
    }

    #[test]
    fn an_entry_out_of_its_bounds_is_refused_on_the_way_in_and_on_the_way_out() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (paths, path) = at(&dir);
        let mut huge = run("a");
        huge.event = Event::TodoAdd { n: 1, text: "x".repeat(10_000) };
        let err = append(&paths, &huge).expect_err("too long");
        assert!(err.is_refusal() && err.to_string().contains("more than the 4096"), "{err}");
        assert!(!path.exists(), "nothing was written");
        let mut bad_commit = run("a");
        if let Event::GateRun { commit, .. } = &mut bad_commit.event {
            *commit = Some("z".repeat(5_000_000));
        }
        std::fs::create_dir_all(paths.state_dir()).expect("mkdir");
        std::fs::write(&path, format!("{}\n", serde_json::to_string(&bad_commit).expect("json"))).expect("write");
        let err = read(&path).expect_err("a commit that is not an object id");
        assert!(err.to_string().contains("is not an object id") && err.to_string().len() < 600, "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_at_the_ledger_or_its_lock_is_refused_and_nothing_is_written_through_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let outside = tempfile::tempdir().expect("tempdir");
        let (paths, path) = at(&dir);
        std::fs::create_dir_all(paths.state_dir()).expect("mkdir");
        let victim = outside.path().join("victim.jsonl");
        std::fs::write(&victim, "").expect("victim");
        std::os::unix::fs::symlink(&victim, &path).expect("plant");
        std::os::unix::fs::symlink(outside.path().join("made.lock"), lock_path(&path)).expect("plant");
        let err = append(&paths, &run("a")).expect_err("refused");
        assert!(err.is_refusal() && err.to_string().contains("ledger.jsonl is a symbolic link"), "{err}");
        let err = lock(&paths, Duration::from_millis(10)).expect_err("refused");
        assert!(err.is_refusal(), "{err}");
        assert_eq!(std::fs::read(&victim).expect("victim"), b"");
        assert!(!outside.path().join("made.lock").exists());
    }
}
