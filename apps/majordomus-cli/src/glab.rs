//! Observing a GitLab forge through `glab`, the GitLab CLI, into an
//! [`Observation`], as `gh.rs` observes GitHub. Merge requests are the
//! observation's pull requests (numbered by their `iid`, as GitLab shows
//! `!12`), issues its issues.
//!
//! Everything is asked through `glab api`, which answers with GitLab's REST
//! API documents (docs.gitlab.com/api: a project's `path_with_namespace`; a
//! merge request's `iid`, `title`, `author.username`, `source_branch`,
//! `created_at`, `state`; an issue's `iid`, `state`, `labels`, `title`),
//! whose shape does not change with glab's version the way its formatted
//! output may. `:fullpath` is glab's own placeholder for the project of the
//! working tree's remote. glab runs as every forge program runs
//! (`forge_tool.rs`), with prompts off.

use std::path::Path;

use majordomus_records::forge::{Issue, Observation, PullRequest, FORGE_SCHEMA};
use majordomus_records::issue::IssueRef;
use serde::Deserialize;

use crate::forge_tool::{Tool, ToolError};

/// Merge requests asked for a page (GitLab's most).
const PER_PAGE: usize = 100;
/// At most this many pages are read: 1,000 open merge requests, as `gh.rs`.
const PAGES: usize = 10;

/// glab as PATH finds it, run in `dir`.
pub fn glab(dir: &Path) -> Tool {
    Tool::from_path("glab", "https://gitlab.com/gitlab-org/cli", dir)
}

/// What every glab run is given: no prompt, no pager, no update check.
const ENV: [(&str, &str); 3] = [("NO_PROMPT", "true"), ("GLAB_PAGER", "cat"), ("GLAB_CHECK_UPDATE", "false")];

#[derive(Deserialize)]
struct Project {
    path_with_namespace: String,
}

#[derive(Deserialize)]
struct Author {
    username: String,
}

#[derive(Deserialize)]
struct MergeRequest {
    iid: u64,
    #[serde(default)]
    title: String,
    #[serde(default)]
    author: Option<Author>,
    #[serde(default)]
    source_branch: Option<String>,
    #[serde(default)]
    created_at: Option<String>,
    state: String,
}

#[derive(Deserialize)]
struct GlIssue {
    iid: u64,
    state: String,
    #[serde(default)]
    labels: Vec<String>,
    #[serde(default)]
    title: String,
    /// The global id of the issue a move made: GitLab closes an issue it
    /// moves to another project and opens a new one there.
    #[serde(default)]
    moved_to_id: Option<u64>,
    #[serde(default, rename = "_links")]
    links: Option<GlLinks>,
    #[serde(default)]
    references: Option<GlReferences>,
}

#[derive(Deserialize)]
struct GlLinks {
    /// The API URL of the issue this one was closed as a duplicate of
    /// (`/duplicate #76`): `https://HOST/api/v4/projects/1/issues/76`.
    #[serde(default)]
    closed_as_duplicate_of: Option<String>,
}

#[derive(Deserialize)]
struct GlReferences {
    /// `group/widgets#3`.
    full: String,
}

/// What `glab api graphql` answers about an issue by its global id.
#[derive(Deserialize)]
struct GlGraph {
    data: Option<GlGraphData>,
}

#[derive(Deserialize)]
struct GlGraphData {
    issue: Option<GlGraphIssue>,
}

#[derive(Deserialize)]
struct GlGraphIssue {
    iid: String,
    #[serde(rename = "projectId")]
    project_id: u64,
}

/// At most this many moves and duplicates are followed from one issue.
const HOPS: usize = 10;

/// Where the issue `i` lives on, as a REST endpoint, when GitLab closed it
/// by moving it to another project (`moved_to_id`) or as a duplicate of
/// another issue (`_links.closed_as_duplicate_of`): its work is not done,
/// it is tracked there. `Ok(None)` for an issue that is not so closed;
/// `Ok(Some(None))` for one closed so whose successor this account
/// cannot see.
fn successor(glab: &Tool, i: &GlIssue) -> Result<Option<Option<String>>, ToolError> {
    if i.state != "closed" {
        return Ok(None);
    }
    if let Some(url) = i.links.as_ref().and_then(|l| l.closed_as_duplicate_of.as_deref()) {
        return match url.split_once("/api/v4/") {
            Some((_, endpoint)) if endpoint.starts_with("projects/") => Ok(Some(Some(endpoint.to_string()))),
            _ => Err(glab.unexpected(
                &format!("api (issue #{})", i.iid),
                format!("closed_as_duplicate_of {url:?} is not an API URL of an issue"),
            )),
        };
    }
    let Some(id) = i.moved_to_id else {
        return Ok(None);
    };
    let query = format!("query={{ issue(id: \"gid://gitlab/Issue/{id}\") {{ iid projectId }} }}");
    let args = ["api", "graphql", "-f", query.as_str()];
    let graph: GlGraph = glab.json(&args, &ENV)?;
    Ok(Some(graph.data.and_then(|d| d.issue).map(|g| format!("projects/{}/issues/{}", g.project_id, g.iid))))
}

/// A merge request's state in the observation's words: GitLab's `opened`
/// is open, `locked` (a merge request being merged) is closed to new work.
fn mr_state(state: &str) -> Option<&'static str> {
    match state {
        "opened" => Some("open"),
        "merged" => Some("merged"),
        "closed" | "locked" => Some("closed"),
        _ => None,
    }
}

/// A project's path as a single segment of an API path.
fn encoded(path: &str) -> String {
    path.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Observes the forge: the project, its open merge requests, and each of
/// `issues` (one that does not exist is recorded as `missing`).
/// `observed_at` is taken before the first question is asked.
pub fn observe(glab: &Tool, issues: &[IssueRef]) -> Result<Observation, ToolError> {
    let observed_at = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let project: Project = glab.json(&["api", "projects/:fullpath"], &ENV)?;
    let mut pull_requests = Vec::new();
    for page in 1..=PAGES {
        let endpoint = format!("projects/:fullpath/merge_requests?state=opened&per_page={PER_PAGE}&page={page}");
        let listed: Vec<MergeRequest> = glab.json(&["api", &endpoint], &ENV)?;
        let last = listed.len() < PER_PAGE;
        for mr in listed {
            let state = mr_state(&mr.state).ok_or_else(|| {
                glab.unexpected(&format!("api {endpoint}"), format!("!{} has the state {:?}", mr.iid, mr.state))
            })?;
            pull_requests.push(PullRequest {
                number: mr.iid,
                title: mr.title,
                author: mr.author.map(|a| a.username),
                head: mr.source_branch,
                created_at: mr.created_at.filter(|t| chrono::DateTime::parse_from_rfc3339(t).is_ok()),
                state: state.to_string(),
            });
        }
        if last {
            break;
        }
    }
    let mut asked = Vec::new();
    for issue in issues {
        let repository = issue.repository(&project.path_with_namespace).to_string();
        let endpoint = format!("projects/{}/issues/{}", encoded(&repository), issue.number);
        let args = ["api", endpoint.as_str()];
        let found = match glab.run(&args, &ENV)? {
            Ok(stdout) => {
                let first: GlIssue =
                    serde_json::from_slice(&stdout).map_err(|e| glab.unexpected(&args.join(" "), e.to_string()))?;
                let number = first.iid;
                // Closed by a move or as a duplicate: what it became is
                // what is recorded, for the work lives on there.
                let (mut i, mut became) = (first, None);
                for hop in 0..=HOPS {
                    let next = match successor(glab, &i)? {
                        None => break,
                        Some(_) if hop == HOPS => {
                            return Err(glab.unexpected(
                                &args.join(" "),
                                format!("#{number} was moved or closed as a duplicate more than {HOPS} times over"),
                            ))
                        }
                        Some(None) => {
                            became = Some("an issue this account cannot see".to_string());
                            i = GlIssue { state: "missing".into(), labels: vec![], ..i };
                            break;
                        }
                        Some(Some(endpoint)) => endpoint,
                    };
                    let at = ["api", next.as_str()];
                    let stdout = match glab.run(&at, &ENV)? {
                        Ok(stdout) => stdout,
                        Err((_, message)) if message.contains("404") => {
                            became = Some(next.clone());
                            i = GlIssue { state: "missing".into(), labels: vec![], ..i };
                            break;
                        }
                        Err(failed) => return Err(glab.failed(&at.join(" "), failed)),
                    };
                    i = serde_json::from_slice(&stdout).map_err(|e| glab.unexpected(&at.join(" "), e.to_string()))?;
                    became = Some(i.references.as_ref().map_or_else(|| next.clone(), |r| r.full.clone()));
                }
                let state = match i.state.as_str() {
                    "opened" => "open",
                    "closed" => "closed",
                    "missing" => "missing",
                    other => {
                        return Err(glab.unexpected(&args.join(" "), format!("#{} has the state {other:?}", i.iid)))
                    }
                };
                Issue {
                    repository,
                    number,
                    state: state.into(),
                    labels: i.labels,
                    is_pull_request: false,
                    title: i.title,
                    became,
                }
            }
            Err((_, message)) if message.contains("404") => Issue {
                repository,
                number: issue.number,
                state: "missing".into(),
                labels: vec![],
                is_pull_request: false,
                title: String::new(),
                became: None,
            },
            Err(failed) => return Err(glab.failed(&args.join(" "), failed)),
        };
        asked.push(found);
    }
    Ok(Observation {
        schema: FORGE_SCHEMA.to_string(),
        observed_at,
        repository: project.path_with_namespace,
        pull_requests,
        issues: asked,
        provenance: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gitlabs_states_are_the_observations() {
        assert_eq!(mr_state("opened"), Some("open"));
        assert_eq!(mr_state("merged"), Some("merged"));
        assert_eq!(mr_state("locked"), Some("closed"));
        assert_eq!(mr_state("draft"), None);
    }

    #[test]
    fn gitlabs_document_of_a_moved_or_duplicate_issue_names_where_it_went() {
        let moved: GlIssue = serde_json::from_str(
            r#"{"iid":3,"state":"closed","labels":[],"title":"t","moved_to_id":5012,"_links":{"closed_as_duplicate_of":null},"references":{"full":"group/widgets#3"}}"#,
        )
        .expect("GitLab's documented JSON");
        assert_eq!(moved.moved_to_id, Some(5012));
        assert!(moved.links.and_then(|l| l.closed_as_duplicate_of).is_none());
        let duplicate: GlIssue = serde_json::from_str(
            r#"{"iid":4,"state":"closed","moved_to_id":null,"_links":{"closed_as_duplicate_of":"https://gitlab.example.com/api/v4/projects/42/issues/9"}}"#,
        )
        .expect("GitLab's documented JSON");
        assert_eq!(
            duplicate.links.and_then(|l| l.closed_as_duplicate_of).as_deref(),
            Some("https://gitlab.example.com/api/v4/projects/42/issues/9")
        );
        let plain: GlIssue = serde_json::from_str(r#"{"iid":5,"state":"closed"}"#).expect("an older GitLab's");
        assert!(plain.moved_to_id.is_none() && plain.links.is_none());
    }

    #[test]
    fn a_project_path_is_one_segment_of_an_api_path() {
        assert_eq!(encoded("group/sub/my.project"), "group%2Fsub%2Fmy.project");
        assert_eq!(encoded("a b"), "a%20b");
    }
}
