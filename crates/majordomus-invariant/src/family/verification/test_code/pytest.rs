//! pytest's collection rules as the repository configures them: which files
//! are test modules (`python_files`), which functions (`python_functions`)
//! and classes (`python_classes`) in them are tests. Read from the first of
//! the files pytest itself reads at the root, in its order: pytest 9's
//! `pytest.toml` and `.pytest.toml` (their `[pytest]` table), `pytest.ini`
//! and `.pytest.ini` (the `[pytest]` section, even when empty), `pyproject.toml`
//! (`[tool.pytest.ini_options]`, or `[tool.pytest]`), `tox.ini` (`[pytest]`),
//! `setup.cfg` (`[tool:pytest]`); else pytest's defaults. What this is not:
//! pytest's rootdir search (the root is the repository's), nor its
//! `testpaths`, nor plugins that collect more.
//!
//! Under a task the rules are the start commit's, which the working tree's
//! may narrow and never widen ([`PytestRules::within`]): a `pytest.ini`
//! the task commits with `python_files = *.py` makes none of its own
//! functions a test (test/cases/469).

/// The collection rules in force, and where they were read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PytestRules {
    pub files: Vec<String>,
    pub functions: Vec<String>,
    pub classes: Vec<String>,
    /// `pytest's defaults`, or the file and section read.
    pub source: String,
    /// The rules the start commit held, when these are the working tree's
    /// read under a task: a file, function or class is a test only under
    /// both, so a configuration the task wrote narrows what counts and
    /// never widens it.
    pub within: Option<Box<PytestRules>>,
}

/// The files pytest reads its configuration from at the root, in its order.
pub const FILES: [&str; 7] =
    ["pytest.toml", ".pytest.toml", "pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg"];

impl Default for PytestRules {
    fn default() -> Self {
        Self {
            files: vec!["test_*.py".into(), "*_test.py".into()],
            functions: vec!["test".into()],
            classes: vec!["Test".into()],
            source: "pytest's defaults".into(),
            within: None,
        }
    }
}

impl PytestRules {
    /// The rules from the configuration files `read` gives (a root-relative
    /// name to its text, `None` when there is no such file).
    pub fn from_files(read: impl Fn(&str) -> Option<String>) -> Self {
        let mut rules = Self::default();
        let found = read("pytest.toml")
            .and_then(|t| pytest_toml(&t, "pytest.toml [pytest]"))
            .or_else(|| read(".pytest.toml").and_then(|t| pytest_toml(&t, ".pytest.toml [pytest]")))
            .or_else(|| read("pytest.ini").and_then(|t| ini_section(&t, "pytest").map(|s| (s, "pytest.ini [pytest]"))))
            .or_else(|| {
                read(".pytest.ini").and_then(|t| ini_section(&t, "pytest").map(|s| (s, ".pytest.ini [pytest]")))
            })
            .or_else(|| read("pyproject.toml").and_then(|t| pyproject(&t)))
            .or_else(|| read("tox.ini").and_then(|t| ini_section(&t, "pytest").map(|s| (s, "tox.ini [pytest]"))))
            .or_else(|| {
                read("setup.cfg").and_then(|t| ini_section(&t, "tool:pytest").map(|s| (s, "setup.cfg [tool:pytest]")))
            });
        if let Some((values, source)) = found {
            for (key, words) in values {
                match key.as_str() {
                    "python_files" => rules.files = words,
                    "python_functions" => rules.functions = words,
                    "python_classes" => rules.classes = words,
                    _ => {}
                }
            }
            rules.source = source.to_string();
        }
        rules
    }

    /// These rules held within `start`'s: what counts is what both collect.
    pub fn narrowing(self, start: PytestRules) -> Self {
        Self { within: Some(Box::new(start)), ..self }
    }

    /// Where the rules were read: the working tree's file, and the start's
    /// when these are held within them.
    pub fn described(&self) -> String {
        match &self.within {
            Some(start)
                if start.source != self.source
                    || start.files != self.files
                    || start.functions != self.functions
                    || start.classes != self.classes =>
            {
                format!(
                    "{}, only where the start's rules ({}: files {}, functions {}, classes {}) collect it too",
                    self.source,
                    start.described(),
                    start.files.join(" "),
                    start.functions.join(" "),
                    start.classes.join(" ")
                )
            }
            _ => self.source.clone(),
        }
    }

    /// Whether pytest collects the file at `path` (repository-relative).
    pub fn collects_file(&self, path: &str) -> bool {
        let base = path.rsplit('/').next().unwrap_or(path);
        self.files.iter().any(|p| if p.contains('/') { fnmatch(p, path) } else { fnmatch(p, base) })
            && self.within.as_ref().map_or(true, |start| start.collects_file(path))
    }

    pub fn is_test_function(&self, name: &str) -> bool {
        prefix_or_glob(&self.functions, name) && self.within.as_ref().map_or(true, |start| start.is_test_function(name))
    }

    pub fn is_test_class(&self, name: &str) -> bool {
        prefix_or_glob(&self.classes, name) && self.within.as_ref().map_or(true, |start| start.is_test_class(name))
    }
}

/// pytest's "prefix or glob-style pattern" rule for names.
fn prefix_or_glob(patterns: &[String], name: &str) -> bool {
    patterns.iter().any(|p| if p.contains(['*', '?', '[']) { fnmatch(p, name) } else { name.starts_with(p.as_str()) })
}

/// A section's keys, each with its value's words.
type Values = Vec<(String, Vec<String>)>;

/// The keys of one section of an ini file, each value split on white space
/// (a value may go on over indented lines). `None`: no such section.
fn ini_section(text: &str, section: &str) -> Option<Values> {
    let mut inside = None::<bool>;
    let mut found = false;
    let mut values: Vec<(String, Vec<String>)> = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') && trimmed.ends_with(']') {
            let here = trimmed[1..trimmed.len() - 1].trim() == section;
            found |= here;
            inside = Some(here);
            continue;
        }
        if inside != Some(true) || trimmed.is_empty() || trimmed.starts_with(['#', ';']) {
            continue;
        }
        if line.starts_with([' ', '\t']) {
            if let Some((_, words)) = values.last_mut() {
                words.extend(trimmed.split_whitespace().map(str::to_string));
            }
        } else if let Some((k, v)) = trimmed.split_once(['=', ':']) {
            values.push((k.trim().to_string(), v.split_whitespace().map(str::to_string).collect()));
        }
    }
    found.then_some(values)
}

/// `[tool.pytest.ini_options]` (or pytest 9's `[tool.pytest]`) of a
/// pyproject.toml: each value a string (split on white space) or an array.
fn pyproject(text: &str) -> Option<(Values, &'static str)> {
    let doc = toml_edit::ImDocument::parse(text).ok()?;
    let tool = doc.as_table().get("tool")?.as_table_like()?;
    let pytest = tool.get("pytest")?.as_table_like()?;
    let (table, source) = match pytest.get("ini_options").and_then(|t| t.as_table_like()) {
        Some(t) => (t, "pyproject.toml [tool.pytest.ini_options]"),
        None => (pytest, "pyproject.toml [tool.pytest]"),
    };
    Some((table_values(table), source))
}

/// pytest 9's `pytest.toml` (or `.pytest.toml`): its `[pytest]` table, as
/// [`pyproject`] reads its own.
fn pytest_toml(text: &str, source: &'static str) -> Option<(Values, &'static str)> {
    let doc = toml_edit::ImDocument::parse(text).ok()?;
    let table = doc.as_table().get("pytest")?.as_table_like()?;
    Some((table_values(table), source))
}

/// Each value of a pytest table: a string (split on white space) or an
/// array of strings.
fn table_values(table: &dyn toml_edit::TableLike) -> Values {
    let mut values = Vec::new();
    for (key, item) in table.iter() {
        let words: Vec<String> = match item.as_value() {
            Some(toml_edit::Value::String(s)) => s.value().split_whitespace().map(str::to_string).collect(),
            Some(toml_edit::Value::Array(a)) => a.iter().filter_map(|v| v.as_str()).map(str::to_string).collect(),
            _ => continue,
        };
        values.push((key.to_string(), words));
    }
    values
}

/// Python's `fnmatch`: `*`, `?` and `[seq]` (`[!seq]` negated) over the whole name.
pub fn fnmatch(pattern: &str, name: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    fn go(p: &[char], n: &[char]) -> bool {
        match p.first() {
            None => n.is_empty(),
            Some('*') => (0..=n.len()).any(|k| go(&p[1..], &n[k..])),
            Some('?') => !n.is_empty() && go(&p[1..], &n[1..]),
            Some('[') => match p.iter().skip(1).position(|&c| c == ']') {
                Some(end) if !n.is_empty() => {
                    let set = &p[1..=end];
                    let (negated, set) = match set.first() {
                        Some('!') => (true, &set[1..]),
                        _ => (false, set),
                    };
                    let mut hit = false;
                    let mut i = 0;
                    while i < set.len() {
                        if i + 2 < set.len() && set[i + 1] == '-' {
                            hit |= set[i] <= n[0] && n[0] <= set[i + 2];
                            i += 3;
                        } else {
                            hit |= set[i] == n[0];
                            i += 1;
                        }
                    }
                    hit != negated && go(&p[end + 2..], &n[1..])
                }
                _ => !n.is_empty() && n[0] == '[' && go(&p[1..], &n[1..]),
            },
            Some(c) => !n.is_empty() && n[0] == *c && go(&p[1..], &n[1..]),
        }
    }
    go(&p, &n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files<'a>(list: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| list.iter().find(|(n, _)| *n == name).map(|(_, t)| t.to_string())
    }

    #[test]
    fn without_configuration_pytests_defaults_hold() {
        let r = PytestRules::from_files(files(&[("pyproject.toml", "[project]\nname = \"x\"\n")]));
        assert_eq!(r, PytestRules::default());
        assert!(r.collects_file("tests/test_api.py") && r.collects_file("pkg/api_test.py"));
        assert!(!r.collects_file("pkg/api.py"));
        assert!(r.is_test_function("test_x") && r.is_test_function("testing") && !r.is_test_function("check_x"));
        assert!(r.is_test_class("TestApi") && !r.is_test_class("ApiTest"));
    }

    #[test]
    fn the_first_file_pytest_reads_gives_the_rules() {
        let r = PytestRules::from_files(files(&[
            (
                "pyproject.toml",
                "[tool.pytest.ini_options]\npython_files = [\"check_*.py\"]\npython_functions = \"check_* test\"\n",
            ),
            ("setup.cfg", "[tool:pytest]\npython_files = nope_*.py\n"),
        ]));
        assert_eq!(r.source, "pyproject.toml [tool.pytest.ini_options]");
        assert!(r.collects_file("src/check_api.py") && !r.collects_file("src/test_api.py"));
        assert!(r.is_test_function("check_it") && r.is_test_function("test_it"));
        let r = PytestRules::from_files(files(&[
            ("pytest.ini", "[pytest]\npython_files =\n    *.py\n"),
            ("pyproject.toml", "[tool.pytest.ini_options]\npython_files = [\"check_*.py\"]\n"),
        ]));
        assert_eq!((r.source.as_str(), r.files.as_slice()), ("pytest.ini [pytest]", &["*.py".to_string()][..]));
        let r =
            PytestRules::from_files(files(&[("setup.cfg", "[metadata]\n[tool:pytest]\npython_classes = Describe*\n")]));
        assert!(r.is_test_class("DescribeApi") && !r.is_test_class("TestApi"));
    }

    #[test]
    fn rules_held_within_the_starts_narrow_and_never_widen() {
        let start = PytestRules::from_files(files(&[(
            "pyproject.toml",
            "[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\n",
        )]));
        let wide =
            PytestRules::from_files(files(&[("pytest.ini", "[pytest]\npython_files = *.py\npython_functions = *\n")]));
        let r = wide.narrowing(start.clone());
        assert!(!r.collects_file("src/calc.py") && r.collects_file("tests/test_calc.py"));
        assert!(!r.is_test_function("add") && r.is_test_function("test_add"));
        assert!(
            r.described()
                .contains("only where the start's rules (pyproject.toml [tool.pytest.ini_options]: files test_*.py"),
            "{}",
            r.described()
        );
        let narrow = PytestRules::from_files(files(&[("pytest.ini", "[pytest]\npython_files = check_*.py\n")]));
        let r = narrow.narrowing(start.clone());
        assert!(!r.collects_file("tests/test_calc.py") && !r.collects_file("tests/check_calc.py"));
        let same = start.clone().narrowing(start);
        assert_eq!(same.described(), "pyproject.toml [tool.pytest.ini_options]");
    }

    #[test]
    fn fnmatch_matches_as_pythons_does() {
        assert!(fnmatch("test_*.py", "test_a.py"));
        assert!(!fnmatch("test_*.py", "a_test.py"));
        assert!(fnmatch("t?st_[a-c].py", "tast_b.py"));
        assert!(!fnmatch("t[!e]st.py", "test.py"));
        assert!(fnmatch("*", ""));
    }
}
