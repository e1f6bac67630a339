//! Reading a policy: the TOML parsed with `toml_edit` (phase one), then
//! walked by hand over its spanned document (phase two), collecting every
//! problem with the byte offset it sits at while the [`Policy`] is built.
//! Why by hand and not through serde: `src/policy.rs`.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;

use chrono::NaiveDate;
use indexmap::IndexMap;
use toml_edit::{ImDocument, Item, TableLike, Value};

use super::*;

impl Policy {
    /// Reads the policy at `path`; a missing file is the defaults.
    /// `builtin_questions` are the ids exemptions and caps may name besides
    /// the extra questions the file declares.
    pub fn load(path: &Path, builtin_questions: &[&str]) -> Result<Self, PolicyError> {
        let text = match crate::regular::read_to_string(path) {
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
pub(crate) fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

type Span = Option<Range<usize>>;

const TOP: [&str; 9] = ["trunk", "gates", "questions", "exempt", "caps", "markers", "hook", "forge", "tests"];
const TRUNK: [&str; 2] = ["remote", "branch"];
const GATE: [&str; 5] = ["run", "inputs", "required", "always", "timeout_seconds"];
const QUESTION: [&str; 4] = ["id", "stage", "question", "gate"];
const EXEMPTION: [&str; 3] = ["question", "reason", "until"];
const MARKERS: [&str; 4] = ["pattern", "scan", "extensions", "exclude"];
const HOOK: [&str; 3] = ["block_limit", "budget_ms", "auto_start"];
const FORGE: [&str; 2] = ["max_age_minutes", "provider"];
const TESTS: [&str; 2] = ["paths", "items"];
const TEST_ITEMS: [&str; 2] = ["paths", "marker"];

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
                let max_age_minutes = self.whole_number(t, "max_age_minutes", "forge");
                let provider = match t.get("provider") {
                    None => None,
                    Some(v) => match v.as_str().and_then(Provider::parse) {
                        Some(p) => Some(p),
                        None => {
                            self.report(
                                &v.span(),
                                format!("`forge.provider` must be one of {}", one_of(&Provider::NAMES)),
                            );
                            None
                        }
                    },
                };
                policy.forge = Some(Forge { max_age_minutes, provider });
            }
        }
        if let Some(item) = root.get("tests") {
            if let Some(t) = self.table(item, &key_span(root, "tests"), "[tests]") {
                self.known_keys(t, &TESTS, "[tests]");
                let mut paths = self.strings(t, "paths", "tests").unwrap_or_default();
                for (glob, span) in &mut paths {
                    self.test_glob(glob, span, "the test path");
                }
                let mut items = Vec::new();
                if let Some(list) = t.get("items") {
                    for (it, at) in self.tables(list, &key_span(t, "items"), "tests.items") {
                        items.extend(self.test_items(it, &at));
                    }
                }
                policy.tests = Some(Tests { paths: paths.into_iter().map(|(s, _)| s).collect(), items });
            }
        }
        policy
    }

    /// A glob naming test files (`[tests] paths`, a `[[tests.items]]`'s
    /// `paths`), made relative to the root in place: `.` is every path.
    fn test_glob(&mut self, glob: &mut String, span: &Span, what: &str) {
        match relative_to_root(glob) {
            Err(why) => self.report(span, format!("{what} `{glob}` {why}")),
            Ok(None) => *glob = "**".to_string(),
            Ok(Some(rel)) => {
                if let Err(e) = globset::Glob::new(&rel) {
                    self.report(span, format!("{what} `{glob}` is not a glob: {}", e.kind()));
                }
                *glob = rel;
            }
        }
    }

    /// One `[[tests.items]]`: its `paths` (a glob, or a list of them, at
    /// least one) and its `marker` (words, never empty: a marker of no
    /// words would make every line added to those files a test).
    fn test_items(&mut self, t: &dyn TableLike, at: &Span) -> Option<TestItems> {
        self.known_keys(t, &TEST_ITEMS, "[[tests.items]]");
        let what = ("tests.items", "[[tests.items]]");
        let marker =
            self.required_string(t, "marker", what, at, "the words each line of such a test holds, as `test_cond(`");
        let mut paths = match t.get("paths") {
            None => {
                self.report(at, "[[tests.items]] has no `paths`: the globs of the files that hold such tests");
                None
            }
            Some(one) if one.is_str() => self.string(t, "paths", "tests.items").map(|p| vec![p]),
            Some(_) => self.strings(t, "paths", "tests.items"),
        }?;
        if paths.is_empty() {
            self.report(
                &value_span(t, "paths"),
                "`tests.items.paths` is empty: it must name the files that hold such tests",
            );
            return None;
        }
        for (glob, span) in &mut paths {
            self.test_glob(glob, span, "the path of test items");
        }
        Some(TestItems { paths: paths.into_iter().map(|(s, _)| s).collect(), marker: marker?.0 })
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
