//! The policy file, `.ai/repo/majordomus.toml`: the trunk, the gates, extra
//! questions, exemptions, caps and the marker register.
//!
//! Every table is optional and a missing file means the defaults. Unknown keys
//! are rejected, and a problem is reported with the file, line and column.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Policy {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trunk: Option<Trunk>,
    #[serde(default)]
    pub gates: IndexMap<String, Gate>,
    #[serde(default)]
    pub questions: Vec<ExtraQuestion>,
    #[serde(default)]
    pub exempt: Vec<Exemption>,
    #[serde(default)]
    pub caps: BTreeMap<String, u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub markers: Option<Markers>,
    #[serde(default)]
    pub hook: HookPolicy,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trunk {
    pub remote: Option<String>,
    pub branch: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gate {
    pub run: String,
    #[serde(default)]
    pub inputs: Vec<String>,
    #[serde(default = "yes")]
    pub required: bool,
    #[serde(default)]
    pub always: bool,
    pub timeout_seconds: Option<u64>,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExtraQuestion {
    pub id: String,
    pub stage: String,
    pub question: String,
    pub gate: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exemption {
    pub question: String,
    pub reason: String,
    /// A date (`YYYY-MM-DD`); past it the exemption no longer holds.
    pub until: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Markers {
    pub pattern: Option<String>,
    pub scan: Option<Vec<String>>,
    pub extensions: Option<Vec<String>>,
}

/// `[hook]`: how the agent stop hook behaves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HookPolicy {
    /// Consecutive blocks of a stop for one task after which the hook lets
    /// the stop through (saying what is still owed). 0: never block.
    #[serde(default = "default_block_limit")]
    pub block_limit: u32,
    /// The time budget of the hook's measurement, in milliseconds: readings
    /// not taken by then are `unknown`. Keep it well under the host's hook
    /// timeout.
    #[serde(default = "default_budget_ms")]
    pub budget_ms: u64,
}

/// The default `[hook] block_limit`.
pub const DEFAULT_BLOCK_LIMIT: u32 = 3;
/// The default `[hook] budget_ms`: a third of the 60 s timeout
/// `majordomus hook install` writes.
pub const DEFAULT_BUDGET_MS: u64 = 20_000;

fn default_block_limit() -> u32 {
    DEFAULT_BLOCK_LIMIT
}

fn default_budget_ms() -> u64 {
    DEFAULT_BUDGET_MS
}

impl Default for HookPolicy {
    fn default() -> Self {
        Self { block_limit: DEFAULT_BLOCK_LIMIT, budget_ms: DEFAULT_BUDGET_MS }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum PolicyError {
    #[error("cannot read the policy file {}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}:{line}:{column}: {message}", path.display())]
    Invalid { path: PathBuf, line: usize, column: usize, message: String },
}

impl Policy {
    /// Reads the policy at `path`; a missing file is the defaults.
    pub fn load(path: &Path) -> Result<Self, PolicyError> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Self::default()),
            Err(source) => return Err(PolicyError::Io { path: path.into(), source }),
        };
        Self::parse(path, &text)
    }

    pub fn parse(path: &Path, text: &str) -> Result<Self, PolicyError> {
        toml::from_str(text).map_err(|e| {
            let (line, column) = e.span().map(|s| line_column(text, s.start)).unwrap_or((1, 1));
            PolicyError::Invalid { path: path.into(), line, column, message: e.message().to_string() }
        })
    }
}

/// 1-based line and column of a byte offset.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_file_is_the_defaults() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert_eq!(Policy::load(&dir.path().join("none.toml")).expect("load"), Policy::default());
    }

    #[test]
    fn an_unknown_key_is_an_error_naming_file_line_and_column() {
        let text = "[trunk]\nbranch = \"main\"\nbrunch = \"x\"\n";
        let err = Policy::parse(Path::new("p.toml"), text).expect_err("unknown key");
        let msg = err.to_string();
        assert!(msg.starts_with("p.toml:3:1: "), "{msg}");
        assert!(msg.contains("brunch"), "{msg}");
    }

    #[test]
    fn gates_keep_the_order_they_were_declared_in() {
        let text = "[gates.zeta]\nrun = \"true\"\n[gates.alpha]\nrun = \"true\"\nrequired = false\n";
        let p = Policy::parse(Path::new("p.toml"), text).expect("parse");
        let ids: Vec<_> = p.gates.keys().cloned().collect();
        assert_eq!(ids, ["zeta", "alpha"]);
        assert!(p.gates["zeta"].required);
        assert!(!p.gates["alpha"].required);
    }

    #[test]
    fn the_hook_table_defaults_each_key_it_leaves_out() {
        assert_eq!(Policy::default().hook, HookPolicy { block_limit: 3, budget_ms: 20_000 });
        let p = Policy::parse(Path::new("p.toml"), "[hook]\nblock_limit = 1\n").expect("parse");
        assert_eq!(p.hook, HookPolicy { block_limit: 1, budget_ms: 20_000 });
        let err = Policy::parse(Path::new("p.toml"), "[hook]\nblock_limits = 1\n").expect_err("unknown key");
        assert!(err.to_string().starts_with("p.toml:2:1: "), "{err}");
    }
}
