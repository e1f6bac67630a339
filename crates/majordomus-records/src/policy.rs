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
//! The walk is written by hand over `toml_edit`'s spanned document rather than
//! derived with serde: serde stops at the first error and forgets where a
//! value came from, and both are what this module exists to keep.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use chrono::NaiveDate;
use indexmap::IndexMap;
use serde::Serialize;
use toml_edit::{ImDocument, Item, TableLike, Value};

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

/// `[forge]`: how old the recorded forge observation may be.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Forge {
    /// An observation older than this many minutes answers nothing (the
    /// questions that read it are `unknown`). Unset: any age since the start.
    pub max_age_minutes: Option<u64>,
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

impl Policy {
    /// Reads the policy at `path`; a missing file is the defaults.
    /// `builtin_questions` are the ids exemptions and caps may name besides
    /// the extra questions the file declares.
    pub fn load(path: &Path, builtin_questions: &[&str]) -> Result<Self, PolicyError> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Self::default()),
            Err(source) => return Err(PolicyError::Io { path: path.into(), source }),
        };
        Self::parse(path, &text, builtin_questions)
    }

    /// Parses and validates a policy's text; every problem is reported at once.
    pub fn parse(path: &Path, text: &str, builtin_questions: &[&str]) -> Result<Self, PolicyError> {
        let invalid = |problems| PolicyError::Invalid { path: path.into(), problems };
        // Phase one: the TOML itself.
        let doc = ImDocument::parse(text).map_err(|e| {
            let (line, column) = line_column(text, e.span().map_or(0, |s| s.start));
            // The parser says nothing of some places (a key with no value).
            let message = match e.message().trim() {
                "" => "this is not valid TOML here".to_string(),
                said => bounded(said),
            };
            invalid(vec![Problem { line, column, message }])
        })?;
        // Phase two: the policy it describes, every problem collected.
        let mut walk = Walk::default();
        let policy = walk.policy(doc.as_table(), builtin_questions);
        if walk.problems.is_empty() {
            return Ok(policy);
        }
        walk.problems.sort_by_key(|(at, _)| *at);
        Err(invalid(
            walk.problems
                .into_iter()
                .map(|(at, message)| {
                    let (line, column) = line_column(text, at);
                    Problem { line, column, message }
                })
                .collect(),
        ))
    }

    /// Every question id an exemption or a cap may name.
    pub fn question_ids<'a>(&'a self, builtin: &'a [&'a str]) -> impl Iterator<Item = &'a str> {
        builtin.iter().copied().chain(self.questions.iter().map(|q| q.id.as_str()))
    }
}

/// A path or glob the policy names, relative to the repository root, with
/// a leading `./` taken off: `Ok(None)` for `.` (the whole repository), an
/// error (the end of a sentence) for an absolute path or one with a `..`
/// component, which can never name a path of the repository.
fn relative_to_root(path: &str) -> Result<Option<String>, String> {
    if path.starts_with('/') || path.starts_with('\\') {
        return Err("is absolute: paths in the policy are relative to the repository root".to_string());
    }
    if path.split(['/', '\\']).any(|c| c == "..") {
        return Err("has a `..` component: paths in the policy name files inside the repository".to_string());
    }
    let mut rest = path;
    while let Some(r) = rest.strip_prefix("./") {
        rest = r.trim_start_matches('/');
    }
    match rest {
        "." => Ok(None),
        "" if rest != path => Ok(None),
        _ => Ok(Some(rest.to_string())),
    }
}

/// 1-based line and column of a byte offset.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// Whether an id (of a gate or a question) is usable on a command line and
/// in a done line: letters, digits, `-`, `_`, `.`, not starting with `-`.
pub fn is_valid_id(id: &str) -> bool {
    !id.is_empty()
        && !id.starts_with('-')
        && id.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

type Span = Option<Range<usize>>;

const TOP: [&str; 8] = ["trunk", "gates", "questions", "exempt", "caps", "markers", "hook", "forge"];
const TRUNK: [&str; 2] = ["remote", "branch"];
const GATE: [&str; 5] = ["run", "inputs", "required", "always", "timeout_seconds"];
const QUESTION: [&str; 4] = ["id", "stage", "question", "gate"];
const EXEMPTION: [&str; 3] = ["question", "reason", "until"];
const MARKERS: [&str; 4] = ["pattern", "scan", "extensions", "exclude"];
const HOOK: [&str; 3] = ["block_limit", "budget_ms", "auto_start"];
const FORGE: [&str; 1] = ["max_age_minutes"];

/// The second phase: a walk over the parsed document that collects every
/// problem (as a byte offset and a message) while it builds the policy.
#[derive(Default)]
struct Walk {
    problems: Vec<(usize, String)>,
}

fn start(span: &Span) -> usize {
    span.as_ref().map_or(0, |r| r.start)
}

fn key_span(table: &dyn TableLike, key: &str) -> Span {
    table.key(key).and_then(|k| k.span())
}

fn value_span(table: &dyn TableLike, key: &str) -> Span {
    table.get(key).and_then(|v| v.span())
}

/// `a` or `an`, before a TOML type name.
fn a(type_name: &str) -> String {
    let article = if type_name.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    format!("{article} {type_name}")
}

/// A problem's message as reported: what it quotes of the policy escaped
/// (no control character in the file reaches a terminal, nor can a newline
/// in an id pass for another problem) and cut to a bound (an id a megabyte
/// long is not repeated whole).
fn bounded(message: &str) -> String {
    crate::text::clamp(&crate::text::escape(message), 2000).into_owned()
}

fn one_of(allowed: &[&str]) -> String {
    allowed.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
}

impl Walk {
    /// Every problem goes through here, and what it quotes of the policy
    /// (an id, a glob) is escaped ([`bounded`]).
    fn report(&mut self, span: &Span, message: impl Into<String>) {
        self.problems.push((start(span), bounded(&message.into())));
    }

    fn known_keys(&mut self, table: &dyn TableLike, allowed: &[&str], what: &str) {
        for (key, _) in table.iter() {
            if !allowed.contains(&key) {
                self.report(
                    &key_span(table, key),
                    format!("unknown key `{key}` in {what}; expected one of {}", one_of(allowed)),
                );
            }
        }
    }

    fn table<'d>(&mut self, item: &'d Item, span: &Span, what: &str) -> Option<&'d dyn TableLike> {
        let table = item.as_table_like();
        if table.is_none() {
            self.report(span, format!("{what} must be a table, not {}", a(item.type_name())));
        }
        table
    }

    /// The tables of an array of tables (`[[x]]` or `x = [{...}]`), each with where it starts.
    fn tables<'d>(&mut self, item: &'d Item, span: &Span, what: &str) -> Vec<(&'d dyn TableLike, Span)> {
        match item {
            Item::ArrayOfTables(list) => list.iter().map(|t| (t as &dyn TableLike, t.span())).collect(),
            Item::Value(Value::Array(list)) => list
                .iter()
                .filter_map(|v| match v {
                    Value::InlineTable(t) => Some((t as &dyn TableLike, t.span())),
                    other => {
                        self.report(
                            &other.span(),
                            format!("each entry of {what} must be a table, not {}", a(other.type_name())),
                        );
                        None
                    }
                })
                .collect(),
            other => {
                self.report(
                    span,
                    format!("{what} must be an array of tables ([[{what}]]), not {}", a(other.type_name())),
                );
                Vec::new()
            }
        }
    }

    fn string(&mut self, table: &dyn TableLike, key: &str, what: &str) -> Option<(String, Span)> {
        let item = table.get(key)?;
        match item.as_str() {
            Some(s) => Some((s.to_string(), item.span())),
            None => {
                self.report(&item.span(), format!("`{what}.{key}` must be a string, not {}", a(item.type_name())));
                None
            }
        }
    }

    /// A string that must be there and say something; `path` names the
    /// table in messages about values (`exempt`), `header` in messages about
    /// the table (`[[exempt]]`).
    fn required_string(
        &mut self,
        table: &dyn TableLike,
        key: &str,
        (path, header): (&str, &str),
        at: &Span,
        why: &str,
    ) -> Option<(String, Span)> {
        if !table.contains_key(key) {
            self.report(at, format!("{header} has no `{key}`: {why}"));
            return None;
        }
        let (value, span) = self.string(table, key, path)?;
        if value.trim().is_empty() {
            self.report(&span, format!("`{path}.{key}` is empty: {why}"));
            return None;
        }
        Some((value, span))
    }

    fn boolean(&mut self, table: &dyn TableLike, key: &str, what: &str) -> Option<bool> {
        let item = table.get(key)?;
        let b = item.as_bool();
        if b.is_none() {
            self.report(&item.span(), format!("`{what}.{key}` must be true or false, not {}", a(item.type_name())));
        }
        b
    }

    fn strings(&mut self, table: &dyn TableLike, key: &str, what: &str) -> Option<Vec<(String, Span)>> {
        let item = table.get(key)?;
        let Some(list) = item.as_array() else {
            self.report(
                &item.span(),
                format!("`{what}.{key}` must be an array of strings, not {}", a(item.type_name())),
            );
            return None;
        };
        let mut out = Vec::new();
        for v in list.iter() {
            match v.as_str() {
                Some(s) => out.push((s.to_string(), v.span())),
                None => self.report(
                    &v.span(),
                    format!("each entry of `{what}.{key}` must be a string, not {}", a(v.type_name())),
                ),
            }
        }
        Some(out)
    }

    fn policy(&mut self, root: &dyn TableLike, builtin: &[&str]) -> Policy {
        self.known_keys(root, &TOP, "the policy");
        let mut policy = Policy::default();
        if let Some(item) = root.get("trunk") {
            if let Some(t) = self.table(item, &key_span(root, "trunk"), "[trunk]") {
                self.known_keys(t, &TRUNK, "[trunk]");
                let remote = self.string(t, "remote", "trunk").map(|(s, _)| s);
                let branch = self.string(t, "branch", "trunk").map(|(s, _)| s);
                policy.trunk = Some(Trunk { remote, branch });
            }
        }
        if let Some(item) = root.get("gates") {
            if let Some(gates) = self.table(item, &key_span(root, "gates"), "[gates]") {
                for (id, item) in gates.iter() {
                    let at = key_span(gates, id);
                    if let Some(gate) = self.gate(id, item, &at) {
                        policy.gates.insert(id.to_string(), gate);
                    }
                }
            }
        }
        // Extra questions before exemptions and caps, which may name them.
        let mut question_lines: BTreeMap<String, Span> = BTreeMap::new();
        if let Some(item) = root.get("questions") {
            for (t, at) in self.tables(item, &key_span(root, "questions"), "questions") {
                if let Some(q) = self.question(t, &at, builtin, &policy.gates, &question_lines) {
                    question_lines.insert(q.id.clone(), at);
                    policy.questions.push(q);
                }
            }
        }
        let known: Vec<String> = policy.question_ids(builtin).map(str::to_string).collect();
        let known: Vec<&str> = known.iter().map(String::as_str).collect();
        if let Some(item) = root.get("exempt") {
            let mut seen: BTreeMap<String, Span> = BTreeMap::new();
            for (t, at) in self.tables(item, &key_span(root, "exempt"), "exempt") {
                if let Some(e) = self.exemption(t, &at, &known, &seen) {
                    seen.insert(e.question.clone(), at);
                    policy.exempt.push(e);
                }
            }
        }
        if let Some(item) = root.get("caps") {
            if let Some(caps) = self.table(item, &key_span(root, "caps"), "[caps]") {
                for (id, value) in caps.iter() {
                    if !known.contains(&id) {
                        self.report(&key_span(caps, id), format!("[caps] names the question `{id}`, which is neither a built-in question nor one declared in [[questions]]"));
                        continue;
                    }
                    match value.as_integer() {
                        Some(n @ 0..=9) => {
                            policy.caps.insert(id.to_string(), n as u8);
                        }
                        Some(n) => self.report(&value.span(), format!("the cap of `{id}` must be 0 to 9, not {n}")),
                        None => self.report(
                            &value.span(),
                            format!("the cap of `{id}` must be an integer from 0 to 9, not {}", a(value.type_name())),
                        ),
                    }
                }
            }
        }
        if let Some(item) = root.get("markers") {
            if let Some(t) = self.table(item, &key_span(root, "markers"), "[markers]") {
                self.known_keys(t, &MARKERS, "[markers]");
                let list =
                    |w: &mut Self, key| w.strings(t, key, "markers").map(|v| v.into_iter().map(|(s, _)| s).collect());
                let mut scan = self.strings(t, "scan", "markers");
                for (dir, span) in scan.iter_mut().flatten() {
                    match relative_to_root(dir) {
                        Err(why) => self.report(span, format!("the scanned path `{dir}` of [markers] {why}")),
                        // `.` is the whole repository.
                        Ok(None) => *dir = ".".to_string(),
                        Ok(Some(rel)) => *dir = rel,
                    }
                }
                let pattern = self.string(t, "pattern", "markers");
                if let Some((text, span)) = &pattern {
                    match regex::Regex::new(text) {
                        Err(e) => self.report(span, format!("the marker pattern is not a regular expression: {e}")),
                        Ok(re) if re.captures_len() < 2 => self.report(
                            span,
                            format!(
                                "the marker pattern has no capture group for the issue number (the default is `{}`)",
                                marker_defaults::PATTERN
                            ),
                        ),
                        Ok(_) => {}
                    }
                }
                let exclude = self.strings(t, "exclude", "markers");
                for (glob, span) in exclude.iter().flatten() {
                    if let Err(e) = globset::Glob::new(glob) {
                        self.report(span, format!("the marker exclusion `{glob}` is not a glob: {}", e.kind()));
                    }
                }
                policy.markers = Some(Markers {
                    pattern: pattern.map(|(s, _)| s),
                    scan: scan.map(|v| v.into_iter().map(|(s, _)| s).collect()),
                    extensions: list(self, "extensions"),
                    exclude: exclude.map(|v| v.into_iter().map(|(s, _)| s).collect()),
                });
            }
        }
        if let Some(item) = root.get("hook") {
            if let Some(t) = self.table(item, &key_span(root, "hook"), "[hook]") {
                self.known_keys(t, &HOOK, "[hook]");
                if let Some(n) = self.whole_number(t, "block_limit", "hook") {
                    if n < 1 {
                        self.report(
                            &value_span(t, "block_limit"),
                            "`hook.block_limit` must be 1 or more: with 0 the hook could never block a stop",
                        );
                    }
                    policy.hook.block_limit = u32::try_from(n).unwrap_or(u32::MAX);
                }
                if let Some(n) = self.whole_number(t, "budget_ms", "hook") {
                    if n < MIN_BUDGET_MS {
                        self.report(
                            &value_span(t, "budget_ms"),
                            format!("`hook.budget_ms` must be {MIN_BUDGET_MS} or more: in less nothing can be read, not {n}"),
                        );
                    }
                    policy.hook.budget_ms = n;
                }
                if let Some(b) = self.boolean(t, "auto_start", "hook") {
                    policy.hook.auto_start = b;
                }
            }
        }
        if let Some(item) = root.get("forge") {
            if let Some(t) = self.table(item, &key_span(root, "forge"), "[forge]") {
                self.known_keys(t, &FORGE, "[forge]");
                policy.forge = Some(Forge { max_age_minutes: self.whole_number(t, "max_age_minutes", "forge") });
            }
        }
        policy
    }

    /// A whole number, 0 or more.
    fn whole_number(&mut self, table: &dyn TableLike, key: &str, what: &str) -> Option<u64> {
        let item = table.get(key)?;
        let n = item.as_integer().and_then(|n| u64::try_from(n).ok());
        if n.is_none() {
            self.report(&item.span(), format!("`{what}.{key}` must be a whole number, 0 or more"));
        }
        n
    }

    fn gate(&mut self, id: &str, item: &Item, at: &Span) -> Option<Gate> {
        let what = format!("gates.{id}");
        if !is_valid_id(id) {
            self.report(
                at,
                format!("the gate id `{id}` must be letters, digits, `-`, `_` or `.`, not starting with `-`"),
            );
        }
        let t = self.table(item, at, &format!("[{what}]"))?;
        self.known_keys(t, &GATE, &format!("[{what}]"));
        let run = self.required_string(
            t,
            "run",
            (&what, &format!("[{what}]")),
            at,
            "the command majordomus runs for this gate",
        );
        let mut inputs = self.strings(t, "inputs", &what).unwrap_or_default();
        for (glob, span) in &mut inputs {
            match relative_to_root(glob) {
                Err(why) => self.report(span, format!("the input `{glob}` of gate `{id}` {why}")),
                // `.` is the whole repository.
                Ok(None) => *glob = "**".to_string(),
                Ok(Some(rel)) => {
                    if let Err(e) = globset::Glob::new(&rel) {
                        self.report(span, format!("the input `{glob}` of gate `{id}` is not a glob: {}", e.kind()));
                    }
                    *glob = rel;
                }
            }
        }
        let required = self.boolean(t, "required", &what).unwrap_or(true);
        let always = self.boolean(t, "always", &what).unwrap_or(false);
        let timeout_seconds = match t.get("timeout_seconds") {
            None => None,
            Some(v) => match v.as_integer() {
                Some(n) if n > 0 => Some(n as u64),
                _ => {
                    self.report(
                        &v.span(),
                        format!("`{what}.timeout_seconds` must be a whole number of seconds above 0"),
                    );
                    None
                }
            },
        };
        let (run, _) = run?;
        is_valid_id(id).then(|| Gate {
            run,
            inputs: inputs.into_iter().map(|(s, _)| s).collect(),
            required,
            always,
            timeout_seconds,
        })
    }

    fn question(
        &mut self,
        t: &dyn TableLike,
        at: &Span,
        builtin: &[&str],
        gates: &IndexMap<String, Gate>,
        declared: &BTreeMap<String, Span>,
    ) -> Option<ExtraQuestion> {
        self.known_keys(t, &QUESTION, "[[questions]]");
        let id = self.required_string(
            t,
            "id",
            ("questions", "[[questions]]"),
            at,
            "the question's id, used in the done line",
        );
        let stage =
            self.required_string(t, "stage", ("questions", "[[questions]]"), at, "the stage the question belongs to");
        let question =
            self.required_string(t, "question", ("questions", "[[questions]]"), at, "the question asked, in words");
        let gate = self.required_string(
            t,
            "gate",
            ("questions", "[[questions]]"),
            at,
            "the declared gate whose verdict answers it",
        );
        let (id, id_span) = id?;
        let mut ok = true;
        if !is_valid_id(&id) {
            self.report(
                &id_span,
                format!("the question id `{id}` must be letters, digits, `-`, `_` or `.`, not starting with `-`"),
            );
            ok = false;
        } else if builtin.contains(&id.as_str()) {
            self.report(&id_span, format!("`{id}` is a built-in question; an extra question needs an id of its own"));
            ok = false;
        } else if declared.contains_key(&id) {
            self.report(&id_span, format!("the question `{id}` is declared twice"));
            ok = false;
        }
        if let Some((g, span)) = &gate {
            if !gates.contains_key(g) {
                self.report(
                    span,
                    format!("the question `{id}` is answered by the gate `{g}`, which is not declared in [gates]"),
                );
                ok = false;
            }
        }
        let (stage, question, gate) = (stage?, question?, gate?);
        ok.then_some(ExtraQuestion { id, stage: stage.0, question: question.0, gate: gate.0 })
    }

    fn exemption(
        &mut self,
        t: &dyn TableLike,
        at: &Span,
        known: &[&str],
        seen: &BTreeMap<String, Span>,
    ) -> Option<Exemption> {
        self.known_keys(t, &EXEMPTION, "[[exempt]]");
        let question =
            self.required_string(t, "question", ("exempt", "[[exempt]]"), at, "the id of the question it exempts");
        let reason =
            self.required_string(t, "reason", ("exempt", "[[exempt]]"), at, "why the question does not apply here");
        let until = match t.get("until") {
            None => Some(None),
            Some(item) => {
                let date = match item.as_value() {
                    Some(Value::String(s)) => NaiveDate::parse_from_str(s.value(), "%Y-%m-%d").ok(),
                    Some(Value::Datetime(d)) => match (d.value().date, d.value().time) {
                        (Some(date), None) => {
                            NaiveDate::from_ymd_opt(date.year.into(), date.month.into(), date.day.into())
                        }
                        _ => None,
                    },
                    _ => None,
                };
                if date.is_none() {
                    let found = match item.as_str() {
                        Some(s) => format!("{s:?}"),
                        None => a(item.type_name()),
                    };
                    self.report(&item.span(), format!("`until` must be a date, \"YYYY-MM-DD\", not {found}"));
                }
                date.map(Some)
            }
        };
        let (question, q_span) = question?;
        let mut ok = true;
        if !known.contains(&question.as_str()) {
            self.report(&q_span, format!("the exemption names the question `{question}`, which is neither a built-in question nor one declared in [[questions]]"));
            ok = false;
        } else if seen.contains_key(&question) {
            self.report(&q_span, format!("the question `{question}` is exempted twice"));
            ok = false;
        }
        let (reason, until) = (reason?, until?);
        ok.then(|| Exemption { question, reason: reason.0.trim().to_string(), until })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BUILTIN: [&str; 3] = ["scoped", "gates-green", "pushed"];

    fn parse(text: &str) -> Result<Policy, PolicyError> {
        Policy::parse(Path::new("p.toml"), text, &BUILTIN)
    }

    fn problems(text: &str) -> Vec<String> {
        let err = parse(text).expect_err("invalid");
        err.problems().iter().map(|p| format!("{}:{}: {}", p.line, p.column, p.message)).collect()
    }

    #[test]
    fn a_marker_pattern_that_is_not_a_regular_expression_or_reads_no_number_is_a_problem_at_its_line() {
        let found = problems("[markers]\nscan = [\"src\"]\npattern = 'LIMITATION\\((#'\n");
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("3:") && found[0].contains("not a regular expression"), "{found:?}");
        let found = problems("[markers]\npattern = 'LIMITATION#\\d+'\n");
        assert!(found[0].starts_with("2:") && found[0].contains("no capture group"), "{found:?}");
        let found = problems("[markers]\nexclude = [\"a/{b\"]\n");
        assert!(found[0].starts_with("2:") && found[0].contains("is not a glob"), "{found:?}");
    }

    #[test]
    fn a_key_with_no_value_is_a_problem_that_says_something() {
        let found = problems("[trunk]\nremote = \"origin\"\nbranch =");
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("3:") && found[0].contains("not valid TOML"), "{found:?}");
    }

    #[test]
    fn control_characters_a_policy_quotes_are_escaped_in_its_problems() {
        let found =
            problems("[gates.\"a\\u001b]0;pwn\\u0007\\nb\"]\nrun = \"true\"\n[[questions]]\nid = \"\\u001b[31m\"\n");
        assert!(found[0].contains("the gate id `a\\x1b]0;pwn\\x07\\nb`"), "{found:?}");
        assert!(found.iter().any(|p| p.contains("the question id `\\x1b[31m`")), "{found:?}");
        assert!(found.iter().all(|p| !p.chars().any(char::is_control)), "{found:?}");
    }

    #[test]
    fn the_marker_register_reads_back_each_key_it_names() {
        let p = parse("[markers]\nscan = [\"lib\"]\nexclude = [\"lib/vendor/**\"]\n").expect("parse");
        let m = p.markers.expect("markers");
        assert_eq!(m.scan.as_deref(), Some(&["lib".to_string()][..]));
        assert_eq!(m.exclude.as_deref(), Some(&["lib/vendor/**".to_string()][..]));
        assert!(m.pattern.is_none() && m.extensions.is_none());
    }

    #[test]
    fn a_missing_file_is_the_defaults() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert_eq!(Policy::load(&dir.path().join("none.toml"), &BUILTIN).expect("load"), Policy::default());
    }

    #[test]
    fn an_unknown_key_is_an_error_naming_file_line_and_column() {
        let text = "[trunk]\nbranch = \"main\"\nbrunch = \"x\"\n";
        let err = parse(text).expect_err("unknown key");
        let msg = err.to_string();
        assert!(msg.starts_with("p.toml:3:1: unknown key `brunch` in [trunk]"), "{msg}");
        assert!(msg.contains("`remote`, `branch`"), "{msg}");
    }

    #[test]
    fn a_syntax_error_is_reported_with_its_line_and_column() {
        let err = parse("[gates.unit]\nrun = \"cargo test\nx = 1\n").expect_err("syntax");
        let p = &err.problems()[0];
        assert_eq!((p.line, err.problems().len()), (2, 1), "{err}");
    }

    #[test]
    fn every_problem_is_reported_at_once_each_with_its_line_and_column() {
        let text = r#"colour = "blue"

[gates.unit]
run = "cargo test"
inputs = ["src/{a,b"]
tiemout = 3

[gates.docs]
inputs = ["docs/**"]

[[questions]]
id = "documented"
stage = "documentation"
question = "Were the documents updated?"
gate = "docs-check"

[[exempt]]
question = "pushed"
reason = "  "

[[exempt]]
question = "deployed"
reason = "no deployment here"

[caps]
pushed = 12
nonsense = 3
"#;
        assert_eq!(
            problems(text),
            [
                "1:1: unknown key `colour` in the policy; expected one of `trunk`, `gates`, `questions`, `exempt`, `caps`, `markers`, `hook`, `forge`",
                "5:11: the input `src/{a,b` of gate `unit` is not a glob: unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)",
                "6:1: unknown key `tiemout` in [gates.unit]; expected one of `run`, `inputs`, `required`, `always`, `timeout_seconds`",
                "8:8: [gates.docs] has no `run`: the command majordomus runs for this gate",
                "15:8: the question `documented` is answered by the gate `docs-check`, which is not declared in [gates]",
                "19:10: `exempt.reason` is empty: why the question does not apply here",
                "22:12: the exemption names the question `deployed`, which is neither a built-in question nor one declared in [[questions]]",
                "26:10: the cap of `pushed` must be 0 to 9, not 12",
                "27:1: [caps] names the question `nonsense`, which is neither a built-in question nor one declared in [[questions]]",
            ]
        );
    }

    #[test]
    fn an_exemption_without_a_reason_is_refused() {
        assert_eq!(
            problems("[[exempt]]\nquestion = \"pushed\"\n"),
            ["1:1: [[exempt]] has no `reason`: why the question does not apply here"]
        );
    }

    #[test]
    fn an_exemption_or_a_cap_may_name_an_extra_question() {
        let text = "[gates.docs-check]\nrun = \"true\"\n[[questions]]\nid = \"documented\"\nstage = \"documentation\"\nquestion = \"q?\"\ngate = \"docs-check\"\n[[exempt]]\nquestion = \"documented\"\nreason = \"no docs yet\"\nuntil = 2027-01-31\n[caps]\ndocumented = 4\n";
        let p = parse(text).expect("valid");
        assert_eq!(p.questions[0].gate, "docs-check");
        assert_eq!(p.exempt[0].until, NaiveDate::from_ymd_opt(2027, 1, 31));
        assert_eq!(p.caps["documented"], 4);
    }

    #[test]
    fn an_extra_question_may_not_reuse_a_built_in_id_and_until_must_be_a_date() {
        let text = "[gates.g]\nrun = \"true\"\n[[questions]]\nid = \"pushed\"\nstage = \"s\"\nquestion = \"q?\"\ngate = \"g\"\n[[exempt]]\nquestion = \"scoped\"\nreason = \"r\"\nuntil = \"soon\"\n";
        assert_eq!(
            problems(text),
            [
                "4:6: `pushed` is a built-in question; an extra question needs an id of its own",
                "11:9: `until` must be a date, \"YYYY-MM-DD\", not \"soon\"",
            ]
        );
    }

    #[test]
    fn an_exemption_holds_through_its_last_day_and_not_after() {
        let e =
            Exemption { question: "pushed".into(), reason: "r".into(), until: NaiveDate::from_ymd_opt(2026, 12, 31) };
        assert!(e.holds_on(NaiveDate::from_ymd_opt(2026, 12, 31).expect("date")));
        assert!(!e.holds_on(NaiveDate::from_ymd_opt(2027, 1, 1).expect("date")));
    }

    #[test]
    fn gates_keep_the_order_they_were_declared_in_with_their_defaults() {
        let text = "[gates.zeta]\nrun = \"true\"\n[gates.alpha]\nrun = \"true\"\nrequired = false\nalways = true\ntimeout_seconds = 30\n";
        let p = parse(text).expect("parse");
        let ids: Vec<_> = p.gates.keys().cloned().collect();
        assert_eq!(ids, ["zeta", "alpha"]);
        assert_eq!(p.gates["zeta"], Gate::new("true", &[]));
        assert!(!p.gates["alpha"].required && p.gates["alpha"].always);
        assert_eq!(p.gates["alpha"].timeout_seconds, Some(30));
    }

    #[test]
    fn values_of_the_wrong_type_are_named_with_what_was_found() {
        let text = "[gates.unit]\nrun = 3\ninputs = \"src\"\nrequired = \"yes\"\ntimeout_seconds = -1\n";
        assert_eq!(
            problems(text),
            [
                "2:7: `gates.unit.run` must be a string, not an integer",
                "3:10: `gates.unit.inputs` must be an array of strings, not a string",
                "4:12: `gates.unit.required` must be true or false, not a string",
                "5:19: `gates.unit.timeout_seconds` must be a whole number of seconds above 0",
            ]
        );
    }

    #[test]
    fn a_column_counts_characters_not_bytes() {
        assert_eq!(line_column("é = 1\nxé!", 10), (2, 3));
    }

    #[test]
    fn the_hook_table_defaults_each_key_it_leaves_out() {
        assert_eq!(Policy::default().hook, HookPolicy { block_limit: 3, budget_ms: 20_000, auto_start: false });
        let p = parse("[hook]\nblock_limit = 1\n").expect("parse");
        assert_eq!(p.hook, HookPolicy { block_limit: 1, budget_ms: 20_000, auto_start: false });
        let p = parse("[hook]\nauto_start = true\n").expect("parse");
        assert!(p.hook.auto_start);
        let err = parse("[hook]\nauto_start = \"yes\"\n").expect_err("not a boolean");
        assert!(err.to_string().contains("`hook.auto_start` must be true or false"), "{err}");
        let err = parse("[hook]\nblock_limits = 1\n").expect_err("unknown key");
        assert!(err.to_string().starts_with("p.toml:2:1: "), "{err}");
    }

    #[test]
    fn inputs_and_scanned_paths_lose_a_leading_dot_slash_and_a_lone_dot_is_the_whole_repository() {
        let text = "[gates.unit]\nrun = \"true\"\ninputs = [\"./src/**\", \".\", \"./\", \"docs\"]\n[markers]\nscan = [\"./lib\", \".\", \"./\", \".//apps\"]\n";
        let p = parse(text).expect("parse");
        assert_eq!(p.gates["unit"].inputs, ["src/**", "**", "**", "docs"]);
        let scan = p.markers.and_then(|m| m.scan).expect("scan");
        assert_eq!(scan, ["lib", ".", ".", "apps"]);
    }

    #[test]
    fn an_absolute_path_or_one_leaving_the_repository_is_a_problem_at_its_place() {
        let text = "[gates.unit]\nrun = \"true\"\ninputs = [\"/etc/**\", \"../**\", \"src/../x\"]\n[markers]\nscan = [\"/src\", \"./..\"]\n";
        assert_eq!(
            problems(text),
            [
                "3:11: the input `/etc/**` of gate `unit` is absolute: paths in the policy are relative to the repository root",
                "3:22: the input `../**` of gate `unit` has a `..` component: paths in the policy name files inside the repository",
                "3:31: the input `src/../x` of gate `unit` has a `..` component: paths in the policy name files inside the repository",
                "5:9: the scanned path `/src` of [markers] is absolute: paths in the policy are relative to the repository root",
                "5:17: the scanned path `./..` of [markers] has a `..` component: paths in the policy name files inside the repository",
            ]
        );
    }

    #[test]
    fn a_block_limit_of_0_or_a_budget_under_100_ms_is_a_problem() {
        assert_eq!(
            problems("[hook]\nblock_limit = 0\nbudget_ms = 99\n"),
            [
                "2:15: `hook.block_limit` must be 1 or more: with 0 the hook could never block a stop",
                "3:13: `hook.budget_ms` must be 100 or more: in less nothing can be read, not 99",
            ]
        );
        let p = parse("[hook]\nblock_limit = 1\nbudget_ms = 100\n").expect("the least values are accepted");
        assert_eq!(p.hook, HookPolicy { block_limit: 1, budget_ms: 100, auto_start: false });
    }

    #[test]
    fn the_forge_table_holds_a_maximum_age_and_nothing_else() {
        assert_eq!(Policy::default().forge, None);
        let p = parse("[forge]\nmax_age_minutes = 30\n").expect("parse");
        assert_eq!(p.forge.and_then(|f| f.max_age_minutes), Some(30));
        assert_eq!(
            problems("[forge]\nmax_age = 30\n"),
            ["2:1: unknown key `max_age` in [forge]; expected one of `max_age_minutes`"]
        );
        assert_eq!(
            problems("[forge]\nmax_age_minutes = -5\n"),
            ["2:19: `forge.max_age_minutes` must be a whole number, 0 or more"]
        );
    }
}
