//! Observing the forge through `gh`, the GitHub CLI, into a
//! [`Observation`]. `check` never comes here: it reads the observation this
//! writes, so a check is never slower, or different, for the network.
//!
//! gh runs as every forge program runs (`forge_tool.rs`), with prompts
//! off. What it prints is parsed as its manual documents (`gh pr list --json`: `author`
//! is an object with a `login`; `gh issue view --json` asked about a pull
//! request's number answers with the pull request, known by its `url`), and
//! anything else is an error, never an empty list.

use std::path::Path;

use majordomus_records::forge::{Issue, Observation, PullRequest, FORGE_SCHEMA, PR_STATES};
use majordomus_records::issue::IssueRef;
use serde::Deserialize;

use crate::forge_tool::{Tool, ToolError};

/// At most this many open pull requests are listed (`gh pr list --limit`).
pub const PR_LIMIT: usize = 1000;

/// gh as PATH finds it, run in `dir`.
pub fn gh(dir: &Path) -> Tool {
    Tool::from_path("gh", "https://cli.github.com", dir)
}

/// What every gh run is given: no prompt, no update notice, no pager.
const ENV: [(&str, &str); 3] = [("GH_PROMPT_DISABLED", "1"), ("GH_NO_UPDATE_NOTIFIER", "1"), ("GH_PAGER", "cat")];

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

/// What `gh issue view N --json number,state,labels,title,url` prints.
/// Asked about a pull request's number, gh answers with the pull request:
/// its `url` has `/pull/` where an issue's has `/issues/`, and its state
/// may be `MERGED`.
#[derive(Deserialize)]
struct GhIssue {
    number: u64,
    state: String,
    #[serde(default)]
    labels: Vec<GhLabel>,
    #[serde(default)]
    title: String,
    #[serde(default)]
    url: Option<String>,
}

/// The fields asked of `gh issue view`.
const ISSUE_FIELDS: &str = "number,state,labels,title,url";

/// Whether `url` is a pull request's page: its path (after the host) ends
/// in `/pull/N`, as `https://github.com/OWNER/REPO/pull/N` does.
fn is_pull_url(url: &str) -> bool {
    let path = url.split_once("://").map_or(url, |(_, rest)| rest.split_once('/').map_or("", |(_, p)| p));
    let path = path.split(['?', '#']).next().unwrap_or("");
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    match segments.as_slice() {
        [.., "pull", n] => !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()),
        _ => false,
    }
}

/// The observation's entry for what gh said of an issue (or a pull
/// request) of `repository`. A state outside the observation's schema is
/// an error, never recorded: a merged pull request is `closed`.
fn issue_from(repository: String, i: GhIssue) -> Result<Issue, String> {
    let is_pull_request = i.url.as_deref().is_some_and(is_pull_url);
    let state = match (i.state.to_lowercase().as_str(), is_pull_request) {
        ("open", _) => "open",
        ("closed", _) => "closed",
        ("merged", true) => "closed",
        (other, _) => {
            return Err(format!(
                "#{} has the state {other:?}, which is neither open nor closed{}",
                i.number,
                if is_pull_request { " nor merged" } else { "" }
            ))
        }
    };
    Ok(Issue {
        repository,
        number: i.number,
        state: state.to_string(),
        labels: i.labels.into_iter().map(|l| l.name).collect(),
        is_pull_request,
        title: i.title,
        became: None,
    })
}

/// Observes the forge: the repository, its open pull requests, and each of
/// `issues` (an issue that does not exist is recorded as `missing`).
/// `observed_at` is taken before the first question is asked, so the
/// observation never claims to be newer than what it holds.
pub fn observe(gh: &Tool, issues: &[IssueRef]) -> Result<Observation, ToolError> {
    let observed_at = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let repo: GhRepo = gh.json(&["repo", "view", "--json", "nameWithOwner"], &ENV)?;
    let limit = PR_LIMIT.to_string();
    let prs: Vec<GhPr> = gh.json(
        &[
            "pr",
            "list",
            "--state",
            "open",
            "--json",
            "number,title,author,headRefName,createdAt,state",
            "--limit",
            &limit,
        ],
        &ENV,
    )?;
    if let Some(p) = prs.iter().find(|p| !PR_STATES.contains(&p.state.to_lowercase().as_str())) {
        return Err(gh.unexpected(
            "pr list",
            format!("#{} has the state {:?}, which is not one of {}", p.number, p.state, PR_STATES.join(", ")),
        ));
    }
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
        let args = ["issue", "view", &number, "--repo", &repository, "--json", ISSUE_FIELDS];
        let found = match gh.run(&args, &ENV)? {
            Ok(stdout) => {
                let unexpected = |reason: String| gh.unexpected(&args.join(" "), reason);
                let i: GhIssue = serde_json::from_slice(&stdout).map_err(|e| unexpected(e.to_string()))?;
                issue_from(repository.clone(), i).map_err(unexpected)?
            }
            Err((_, message)) if message.to_lowercase().contains("could not resolve to an") => Issue {
                repository,
                number: issue.number,
                state: "missing".into(),
                labels: vec![],
                is_pull_request: false,
                title: String::new(),
                became: None,
            },
            Err(failed) => return Err(gh.failed(&args.join(" "), failed)),
        };
        asked.push(found);
    }
    Ok(Observation {
        schema: FORGE_SCHEMA.to_string(),
        observed_at,
        repository: repo.name_with_owner,
        pull_requests,
        issues: asked,
        provenance: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn viewed(json: &str) -> Result<Issue, String> {
        let i: GhIssue = serde_json::from_str(json).expect("gh's documented JSON");
        issue_from("acme/widgets".into(), i)
    }

    #[test]
    fn a_number_gh_answers_with_a_pull_request_is_recorded_as_a_pull_request() {
        let pr = viewed(r#"{"labels":[],"number":8,"state":"OPEN","title":"a change","url":"https://github.com/acme/widgets/pull/8"}"#)
            .expect("a pull request");
        assert!(pr.is_pull_request);
        assert_eq!(pr.state, "open");
        let issue = viewed(r#"{"labels":[{"name":"limitation"}],"number":7,"state":"OPEN","title":"a limit","url":"https://github.com/acme/widgets/issues/7"}"#)
            .expect("an issue");
        assert!(!issue.is_pull_request);
        assert_eq!(issue.labels, ["limitation"]);
    }

    #[test]
    fn a_merged_pull_request_is_closed_and_a_state_outside_the_schema_is_refused() {
        let merged = viewed(
            r#"{"labels":[],"number":8,"state":"MERGED","title":"","url":"https://github.com/acme/widgets/pull/8"}"#,
        )
        .expect("a merged pull request");
        assert_eq!((merged.state.as_str(), merged.is_pull_request), ("closed", true));
        let err = viewed(
            r#"{"labels":[],"number":7,"state":"MERGED","title":"","url":"https://github.com/acme/widgets/issues/7"}"#,
        )
        .expect_err("an issue is never merged");
        assert!(err.contains("\"merged\""), "{err}");
        assert!(viewed(r#"{"number":7,"state":"DRAFT"}"#).is_err());
    }

    #[test]
    fn only_a_pull_segment_in_the_urls_path_makes_a_pull_request() {
        assert!(is_pull_url("https://github.com/acme/widgets/pull/8"));
        assert!(is_pull_url("https://ghe.example.com/acme/widgets/pull/8#issuecomment-1"));
        assert!(!is_pull_url("https://github.com/acme/widgets/issues/8"));
        assert!(!is_pull_url("https://github.com/pull/8/issues/3"));
        assert!(!is_pull_url("https://pull.example.com/acme/widgets/issues/8"));
        assert!(!is_pull_url(""));
    }
}
