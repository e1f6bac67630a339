//! The policy file, `.ai/repo/majordomus.toml`: the trunk, the gates, extra
//! questions, exemptions, caps and the marker register.
//!
//! Every table is optional and a missing file means the defaults. A policy is
//! read in two phases, as cargo-deny reads its configuration: the TOML is
//! parsed first (a syntax error stops there: nothing after it can be trusted),
//! then the document is walked and *every* problem is collected with the
//! line and column it sits at: unknown keys, values of the wrong type,
//! missing fields, globs that do not compile, questions and gates named but
//! never declared, exemptions without a reason, caps out of range. A person
//! fixing a policy sees the whole list at once instead of one error a run.
//!
//! The walk (`policy/load.rs`) is written by hand over `toml_edit`'s spanned
//! document rather than derived with serde: serde stops at the first error
//! and forgets where a value came from, and both are what this module exists
//! to keep. This file holds the policy as data; `policy/tests.rs` holds what
//! reading one from text must do.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chrono::NaiveDate;
use indexmap::IndexMap;
use serde::Serialize;

mod load;

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Policy {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trunk: Option<Trunk>,
    /// The gates, in the order they were declared; the id is the key.
    pub gates: IndexMap<String, Gate>,
    /// Extra questions, answered by a gate, after the built-in ones.
    pub questions: Vec<ExtraQuestion>,
    pub exempt: Vec<Exemption>,
    /// Completion-score caps by question id (0–9).
    pub caps: BTreeMap<String, u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub markers: Option<Markers>,
    pub hook: HookPolicy,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forge: Option<Forge>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tests: Option<Tests>,
    /// Not a key of the file: the register `filings-closed` reads where the
    /// policy in force tells it apart from `markers`. The two questions read
    /// the register in opposite directions (a wider one holds more markers
    /// for `markers-live` to account, and settles more filings), so a task's
    /// change to it is in force only for the question it tightens
    /// (README.md, "The policy in force"). `None`: `markers` is that register.
    #[serde(skip)]
    pub filing_markers: Option<Markers>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Trunk {
    pub remote: Option<String>,
    pub branch: Option<String>,
}

/// A gate: a command majordomus runs itself, and the files its verdict covers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Gate {
    /// Run through `sh -c` in the repository root.
    pub run: String,
    /// Globs over repository-relative paths: a change to a matching path
    /// selects the gate, and its verdict covers their content.
    pub inputs: Vec<String>,
    /// Whether gates-green waits for it (default true).
    pub required: bool,
    /// Selected whatever changed (default false).
    pub always: bool,
    pub timeout_seconds: Option<u64>,
}

impl Gate {
    /// A required gate running `run`, selected by a change to `inputs`.
    pub fn new(run: impl Into<String>, inputs: &[&str]) -> Self {
        Self {
            run: run.into(),
            inputs: inputs.iter().map(|s| s.to_string()).collect(),
            required: true,
            always: false,
            timeout_seconds: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExtraQuestion {
    pub id: String,
    pub stage: String,
    pub question: String,
    /// The declared gate whose verdict answers it.
    pub gate: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Exemption {
    pub question: String,
    pub reason: String,
    /// The last day the exemption holds; after it, it no longer exempts.
    pub until: Option<NaiveDate>,
}

impl Exemption {
    /// Whether the exemption still holds on `today`.
    pub fn holds_on(&self, today: NaiveDate) -> bool {
        self.until.map_or(true, |until| today <= until)
    }
}

/// `[markers]`: the register of `LIMITATION` markers, what a marker looks
/// like and which files are scanned for it. Each key left out takes its
/// default ([`marker_defaults`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Markers {
    /// A regular expression matching one well-formed marker. Its capture
    /// groups `repo` and `number` (or, unnamed, the first and the second;
    /// with a single group, that is the number) name the issue.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    /// Directories scanned, relative to the root (`.`: all of it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scan: Option<Vec<String>>,
    /// File extensions scanned, without the dot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extensions: Option<Vec<String>>,
    /// Globs of paths never scanned: test, bench, example and generated trees.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exclude: Option<Vec<String>>,
}

/// The register's defaults (DESIGN.md).
pub mod marker_defaults {
    pub const PATTERN: &str = r"LIMITATION\(([\w./-]+)?#(\d+)\)";
    pub const SCAN: [&str; 3] = ["src", "crates", "apps"];
    pub const EXTENSIONS: [&str; 4] = ["rs", "sh", "py", "ts"];
    pub const EXCLUDE: [&str; 10] = [
        "**/test/**",
        "**/tests/**",
        "**/testdata/**",
        "**/bench/**",
        "**/benches/**",
        "**/example/**",
        "**/examples/**",
        "**/generated/**",
        "**/fixtures/**",
        "**/*.generated.*",
    ];
}

/// `[hook]`: how the agent stop hook behaves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HookPolicy {
    /// Consecutive blocks of a stop for one task after which the hook lets
    /// the stop through (saying what is still owed). 1 or more.
    pub block_limit: u32,
    /// The time budget of the hook's measurement, in milliseconds: readings
    /// not taken by then are `unknown`. Keep it well under the host's hook
    /// timeout.
    pub budget_ms: u64,
    /// Whether a session's start (`hook session-start`, source `startup`)
    /// records a task when none is active, so that nothing the session does
    /// escapes a start snapshot. Default false.
    pub auto_start: bool,
}

/// The least `[hook] budget_ms` accepted.
pub const MIN_BUDGET_MS: u64 = 100;
/// The default `[hook] block_limit`.
pub const DEFAULT_BLOCK_LIMIT: u32 = 3;
/// The default `[hook] budget_ms`: a third of the 60 s timeout
/// `majordomus hook install` writes.
pub const DEFAULT_BUDGET_MS: u64 = 20_000;

impl Default for HookPolicy {
    fn default() -> Self {
        Self { block_limit: DEFAULT_BLOCK_LIMIT, budget_ms: DEFAULT_BUDGET_MS, auto_start: false }
    }
}

/// `[forge]`: which forge holds the repository's pull requests and issues,
/// and how old the recorded observation of it may be.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Forge {
    /// An observation older than this many minutes answers nothing (the
    /// questions that read it are `unknown`). Unset: any age since the start.
    pub max_age_minutes: Option<u64>,
    /// The forge; unset: GitHub through `gh` (`forge refresh` says so when
    /// gh is missing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provider: Option<Provider>,
}

/// `[forge] provider`: where the repository's pull requests and issues are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Provider {
    /// GitHub, observed through `gh`.
    Github,
    /// GitLab, observed through `glab` (merge requests are its pull requests).
    Gitlab,
    /// No forge: the questions about pull requests are exempt, saying so.
    None,
    /// Observations are typed in (`majordomus forge record`): the repository
    /// takes a recorded document as the forge's word.
    Recorded,
}

impl Provider {
    pub const NAMES: [&'static str; 4] = ["github", "gitlab", "none", "recorded"];

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "github" => Some(Provider::Github),
            "gitlab" => Some(Provider::Gitlab),
            "none" => Some(Provider::None),
            "recorded" => Some(Provider::Recorded),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Provider::Github => "github",
            Provider::Gitlab => "gitlab",
            Provider::None => "none",
            Provider::Recorded => "recorded",
        }
    }
}

impl Policy {
    /// The forge the policy names, if it names one.
    pub fn provider(&self) -> Option<Provider> {
        self.forge.as_ref().and_then(|f| f.provider)
    }

    /// The register a filed issue is settled by (`filings-closed`): the
    /// policy's `[markers]`, unless the policy in force keeps another.
    pub fn filing_register(&self) -> Option<&Markers> {
        self.filing_markers.as_ref().or(self.markers.as_ref())
    }
}

/// `[tests]`: what the repository counts as a test besides the usual
/// conventions (README.md, the `regression-tested` row).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Tests {
    /// Globs over repository-relative paths: a change to a match is a change to a test.
    pub paths: Vec<String>,
    /// Test items written inside files of a language whose tests are not
    /// read here (`test_cond(..)` lines in a C file's own test function),
    /// each declared by the files it is in and the words its lines hold.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<TestItems>,
}

/// One `[[tests.items]]`: in a file `paths` matches, an added or edited
/// line holding `marker` outside a comment is an added or edited test item
/// (README.md, "What counts as a test").
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct TestItems {
    /// Globs over repository-relative paths, read as `[tests] paths` are.
    pub paths: Vec<String>,
    /// The words every line of such a test holds (never empty: a marker of
    /// no words would make every line a test).
    pub marker: String,
}

/// One problem in a policy file, where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// 1-based.
    pub line: usize,
    /// 1-based, in characters.
    pub column: usize,
    pub message: String,
}

#[derive(Debug, thiserror::Error)]
pub enum PolicyError {
    #[error("cannot read the policy file {}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}", render_problems(path, problems))]
    Invalid { path: PathBuf, problems: Vec<Problem> },
}

fn render_problems(path: &Path, problems: &[Problem]) -> String {
    let lines: Vec<String> =
        problems.iter().map(|p| format!("{}:{}:{}: {}", path.display(), p.line, p.column, p.message)).collect();
    match lines.len() {
        1 => lines.join(""),
        n => format!("{} has {n} problems:\n{}", path.display(), lines.join("\n")),
    }
}

impl PolicyError {
    /// The problems found, each with its line and column (empty for an I/O error).
    pub fn problems(&self) -> &[Problem] {
        match self {
            PolicyError::Invalid { problems, .. } => problems,
            PolicyError::Io { .. } => &[],
        }
    }
}

/// Whether an id (of a gate or a question) is usable on a command line and
/// in a done line: letters, digits, `-`, `_`, `.`, not starting with `-`.
pub fn is_valid_id(id: &str) -> bool {
    !id.is_empty()
        && !id.starts_with('-')
        && id.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

#[cfg(test)]
mod tests;
