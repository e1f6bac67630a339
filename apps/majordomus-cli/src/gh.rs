//! Observing the forge through `gh`, the GitHub CLI, into a
//! [`Observation`]. `check` never comes here: it reads the observation this
//! writes, so a check is never slower, or different, for the network.
//!
//! gh runs with every inherited `GIT_*` variable cleared (so a `GIT_DIR`
//! meant for something else cannot point it at another repository), with
//! prompts off, in the working tree's root. Its exit is checked; what it
//! prints is parsed as its manual documents (`gh pr list --json`: `author`
//! is an object with a `login`), and anything else is an error, never an
//! empty list.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use majordomus_records::forge::{Issue, Observation, PullRequest, FORGE_SCHEMA};
use majordomus_records::issue::IssueRef;
use serde::Deserialize;

/// At most this many open pull requests are listed (`gh pr list --limit`).
pub const PR_LIMIT: usize = 1000;

/// The gh program and the directory it runs in.
#[derive(Debug, Clone)]
pub struct Gh {
    pub program: OsString,
    pub dir: PathBuf,
}

#[derive(Debug, thiserror::Error)]
pub enum GhError {
    #[error("gh, the GitHub CLI, was not found on PATH: install it (https://cli.github.com), or record an observation with majordomus forge record FILE")]
    NotFound,
    #[error("could not run gh {args}")]
    Spawn {
        args: String,
        #[source]
        source: std::io::Error,
    },
    #[error("gh {args} failed ({status}): {message}")]
    Failed { args: String, status: String, message: String },
    #[error("gh {args} answered what its manual does not describe: {reason}")]
    Unexpected { args: String, reason: String },
}

impl GhError {
    /// gh is missing: a setup problem (exit 2), not an internal error.
    pub fn is_setup(&self) -> bool {
        matches!(self, GhError::NotFound)
    }
}

impl Gh {
    /// gh from PATH, run in `dir`.
    pub fn from_path(dir: &Path) -> Self {
        Self { program: "gh".into(), dir: dir.to_path_buf() }
    }

    /// Runs gh with `args`; its stdout when it exits 0.
    fn run(&self, args: &[&str]) -> Result<Result<Vec<u8>, (String, String)>, GhError> {
        let shown = args.join(" ");
        let mut cmd = Command::new(&self.program);
        cmd.args(args).current_dir(&self.dir).stdin(Stdio::null());
        for (key, _) in std::env::vars_os() {
            if key.to_string_lossy().starts_with("GIT_") {
                cmd.env_remove(key);
            }
        }
        cmd.env("GH_PROMPT_DISABLED", "1")
            .env("GH_NO_UPDATE_NOTIFIER", "1")
            .env("NO_COLOR", "1")
            .env("GH_PAGER", "cat");
        let out = match cmd.output() {
            Ok(o) => o,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(GhError::NotFound),
            Err(source) => return Err(GhError::Spawn { args: shown, source }),
        };
        if out.status.success() {
            return Ok(Ok(out.stdout));
        }
        let status = match out.status.code() {
            Some(c) => format!("exit {c}"),
            None => "killed by a signal".to_string(),
        };
        let mut message = String::from_utf8_lossy(&out.stderr).trim().to_string();
        if message.is_empty() {
            message = String::from_utf8_lossy(&out.stdout).trim().to_string();
        }
        if message.is_empty() {
            message = "it said nothing".into();
        }
        Ok(Err((status, message)))
    }

    /// Runs gh and parses its stdout as JSON of type `T`.
    fn json<T: serde::de::DeserializeOwned>(&self, args: &[&str]) -> Result<T, GhError> {
        let shown = args.join(" ");
        match self.run(args)? {
            Ok(stdout) => {
                serde_json::from_slice(&stdout).map_err(|e| GhError::Unexpected { args: shown, reason: e.to_string() })
            }
            Err((status, message)) => Err(GhError::Failed { args: shown, status, message }),
        }
    }
}

#[derive(Deserialize)]
struct GhRepo {
    #[serde(rename = "nameWithOwner")]
    name_with_owner: String,
}

#[derive(Deserialize)]
struct GhAuthor {
    login: String,
}

#[derive(Deserialize)]
struct GhPr {
    number: u64,
    #[serde(default)]
    title: String,
    #[serde(default)]
    author: Option<GhAuthor>,
    #[serde(rename = "headRefName", default)]
    head_ref_name: Option<String>,
    #[serde(rename = "createdAt", default)]
    created_at: Option<String>,
    state: String,
}

#[derive(Deserialize)]
struct GhLabel {
    name: String,
}

#[derive(Deserialize)]
struct GhIssue {
    number: u64,
    state: String,
    #[serde(default)]
    labels: Vec<GhLabel>,
    #[serde(default)]
    title: String,
}

/// Observes the forge: the repository, its open pull requests, and each of
/// `issues` (an issue that does not exist is recorded as `missing`).
/// `observed_at` is taken before the first question is asked, so the
/// observation never claims to be newer than what it holds.
pub fn observe(gh: &Gh, issues: &[IssueRef]) -> Result<Observation, GhError> {
    let observed_at = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let repo: GhRepo = gh.json(&["repo", "view", "--json", "nameWithOwner"])?;
    let limit = PR_LIMIT.to_string();
    let prs: Vec<GhPr> = gh.json(&[
        "pr",
        "list",
        "--state",
        "open",
        "--json",
        "number,title,author,headRefName,createdAt,state",
        "--limit",
        &limit,
    ])?;
    let pull_requests = prs
        .into_iter()
        .map(|p| PullRequest {
            number: p.number,
            title: p.title,
            author: p.author.map(|a| a.login),
            head: p.head_ref_name,
            // A time that is not RFC 3339 is no time: the question that
            // needs it says so, rather than the observation being refused.
            created_at: p.created_at.filter(|t| chrono::DateTime::parse_from_rfc3339(t).is_ok()),
            state: p.state.to_lowercase(),
        })
        .collect();
    let mut asked = Vec::new();
    for issue in issues {
        let repository = issue.repository(&repo.name_with_owner).to_string();
        let number = issue.number.to_string();
        let args = ["issue", "view", &number, "--repo", &repository, "--json", "number,state,labels,title"];
        let found = match gh.run(&args)? {
            Ok(stdout) => {
                let i: GhIssue = serde_json::from_slice(&stdout)
                    .map_err(|e| GhError::Unexpected { args: args.join(" "), reason: e.to_string() })?;
                Issue {
                    repository,
                    number: i.number,
                    state: i.state.to_lowercase(),
                    labels: i.labels.into_iter().map(|l| l.name).collect(),
                    is_pull_request: false,
                    title: i.title,
                }
            }
            Err((_, message)) if message.to_lowercase().contains("could not resolve to an") => Issue {
                repository,
                number: issue.number,
                state: "missing".into(),
                labels: vec![],
                is_pull_request: false,
                title: String::new(),
            },
            Err((status, message)) => return Err(GhError::Failed { args: args.join(" "), status, message }),
        };
        asked.push(found);
    }
    Ok(Observation {
        schema: FORGE_SCHEMA.to_string(),
        observed_at,
        repository: repo.name_with_owner,
        pull_requests,
        issues: asked,
    })
}
