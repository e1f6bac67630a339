//! The forge observation, `<commondir>/majordomus/forge.json`: what the
//! forge (GitHub through `gh`, GitLab through `glab`, or a document typed in
//! with `majordomus forge record`) said at one moment. The questions that
//! need the forge read this record, never the network. It lives in the
//! repository's common git directory, like the carry record, so every
//! worktree reads the one observation; one written by an older majordomus
//! in a worktree's `.ai/local/state/forge.json` is read where the shared one
//! is missing, and replaced by the next write.
//!
//! Schema `majordomus/forge/v1`:
//!
//! ```json
//! {
//!   "schema": "majordomus/forge/v1",
//!   "observed_at": "2026-11-30T10:00:00Z",
//!   "repository": "owner/name",
//!   "pull_requests": [
//!     {"number": 12, "title": "…", "author": "login", "head": "branch",
//!      "created_at": "2026-11-30T09:00:00Z", "state": "open"}
//!   ],
//!   "issues": [
//!     {"repository": "owner/name", "number": 3, "state": "open",
//!      "labels": ["limitation"], "is_pull_request": false, "title": "…"}
//!   ],
//!   "provenance": {"by": "gh", "program": "/usr/bin/gh",
//!                  "program_at_start": "/usr/bin/gh", "start_path_known": true,
//!                  "remotes_since_start": [], "task": "20261130T090000Z-1f2e",
//!                  "remotes": {"origin": {"url": "https://github.com/owner/name.git"}}}
//! }
//! ```
//!
//! `provenance` is majordomus's own account of how the observation was
//! made, never taken from a document given to it: `by` is `gh` or `glab`
//! (the program `forge refresh` ran, as the PATH found it, and the one the
//! PATH the task started under finds) or `recorded` (typed in). The
//! questions judge an observation by it (`majordomus explain
//! backlog-not-grown`).
//!
//! `pull_requests` holds the open pull requests; `issues` the issues the
//! observation was asked about (claimed, filed, named by markers), each with
//! the repository it lives in. An issue asked about that does not exist is
//! listed with `"state": "missing"`; a number that is a pull request's is
//! listed with `"is_pull_request": true`, merged recorded as `closed`. A
//! state outside these is refused, like any other bad file.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub const FORGE_SCHEMA: &str = "majordomus/forge/v1";

/// The states a pull request may have in an observation (the schema's enum).
pub const PR_STATES: [&str; 3] = ["open", "closed", "merged"];

/// The states an issue asked about may have (the schema's enum). A pull
/// request asked about as an issue (`is_pull_request`) is open or closed:
/// merged is closed.
pub const ISSUE_STATES: [&str; 3] = ["open", "closed", "missing"];

/// The JSON Schema (draft 2020-12) of an observation, as `majordomus schema
/// forge` prints it.
pub const JSON_SCHEMA: &str = include_str!("../schemas/forge.v1.json");

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Observation {
    pub schema: String,
    /// RFC 3339.
    pub observed_at: String,
    /// `owner/name`.
    pub repository: String,
    #[serde(default)]
    pub pull_requests: Vec<PullRequest>,
    #[serde(default)]
    pub issues: Vec<Issue>,
    /// How the observation was made; `None` in one written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<Provenance>,
}

/// How an observation was made, as majordomus recorded it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Provenance {
    /// `gh` or `glab` (observed through that program), or `recorded` (a
    /// document given to `majordomus forge record`).
    pub by: String,
    /// The program run, as the PATH of `forge refresh` found it (absolute).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program: Option<String>,
    /// The program of the same name the PATH the task started under finds
    /// (`None`: it finds none, or no task, or its start PATH was not recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program_at_start: Option<String>,
    /// Whether the task active at the refresh recorded the PATH it started under.
    #[serde(default)]
    pub start_path_known: bool,
    /// Where the program run, or a link on the way to it, was written since
    /// the active task started: put in place during the task (a stand-in
    /// placed first on the start's own PATH), so not the start's program
    /// however its path reads. `None`: older, or no task was active.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program_written_since_start: Option<String>,
    /// For `recorded`: the file it was read from (`-` for standard input).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// For `gh` and `glab`: each remote added, removed or given another URL
    /// between the active task's start and the refresh (`upstream added`),
    /// empty when the remotes were the start's or no task was active. The
    /// program answers for the repository the remotes name, so one added
    /// or re-pointed since the start can make it answer for another
    /// repository. `None`: not recorded (an older majordomus).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remotes_since_start: Option<Vec<String>>,
    /// The id of the task active at the refresh. The observation is one for
    /// every worktree, and `program_at_start` and `remotes_since_start`
    /// speak of that task's start: a task reading an observation another
    /// task's refresh made (or one made with none active) judges it against
    /// its own start, from `program` and `remotes`. `None`: no task was
    /// active, or an older majordomus made it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
    /// For `gh` and `glab`: the remotes configured at the refresh, by name.
    /// `None`: not recorded (an older majordomus).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remotes: Option<std::collections::BTreeMap<String, RemoteSeen>>,
}

/// A remote as a refresh found it configured: what `gh` and `glab` resolve
/// the repository from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RemoteSeen {
    /// `remote.<name>.url`.
    pub url: String,
    /// `remote.<name>.pushurl`, where one is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub push_url: Option<String>,
}

/// The most remotes a provenance lists.
pub const MAX_REMOTES: usize = 1000;

/// How an observation may have been made (the schema's enum).
pub const PROVENANCES: [&str; 3] = ["gh", "glab", "recorded"];

/// Where the observation lives, relative to the common git directory.
pub const RECORD: &str = "majordomus/forge.json";

/// The observation's path in the common git directory `common_dir`.
pub fn shared_path(common_dir: &Path) -> PathBuf {
    common_dir.join(RECORD)
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PullRequest {
    pub number: u64,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub author: Option<String>,
    #[serde(default)]
    pub head: Option<String>,
    /// RFC 3339; `None` when the forge did not say (the reading is then unknown).
    pub created_at: Option<String>,
    /// `open`, `closed` or `merged`.
    pub state: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Issue {
    /// `owner/name`.
    pub repository: String,
    pub number: u64,
    /// `open`, `closed` or `missing`.
    pub state: String,
    #[serde(default)]
    pub labels: Vec<String>,
    #[serde(default)]
    pub is_pull_request: bool,
    #[serde(default)]
    pub title: String,
    /// The issue this one became (`group/other#12`), where the forge closed
    /// it by moving it to another project or as a duplicate of another
    /// issue: its state, labels and title are then that issue's, for its
    /// work lives on there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub became: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum ForgeError {
    #[error("cannot read the forge observation {}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: not a forge observation: {reason}", path.display())]
    Invalid { path: PathBuf, reason: String },
}

/// How far ahead of this machine's clock an observation may say it was
/// made: a little clock skew between hosts, no more. An observation from the
/// future would never age.
pub const MAX_CLOCK_SKEW_MINUTES: i64 = 5;

/// Whether a repository is named `owner/name` (or, on GitLab, with its
/// groups: `group/subgroup/name`) as the schema's pattern
/// `^[^/\s]+(/[^/\s]+)+$` says: two parts or more, none empty or holding
/// white space.
pub fn is_repository(name: &str) -> bool {
    let part = |p: &str| !p.is_empty() && !p.chars().any(char::is_whitespace);
    name.contains('/') && name.split('/').all(part)
}

/// The largest observation majordomus reads (a file, or `forge record`'s input).
pub const MAX_BYTES: u64 = 64 << 20;

fn clamp(s: &str, max: usize) -> std::borrow::Cow<'_, str> {
    crate::text::clamp(s, max)
}

impl Observation {
    /// Every string within its bound, so what an answer echoes of the
    /// forge (a title, an author) is never unbounded.
    fn check_bounds(&self) -> Result<(), String> {
        use crate::text::{check_len, MAX_FIELD};
        check_len("observed_at", &self.observed_at, 64)?;
        check_len("repository", &self.repository, 256)?;
        for change in self.provenance.iter().flat_map(|p| p.remotes_since_start.iter().flatten()) {
            check_len("a remote changed since the start", change, MAX_FIELD)?;
        }
        if let Some(p) = &self.provenance {
            if let Some(task) = &p.task {
                check_len("the refresh's task", task, MAX_FIELD)?;
            }
            let remotes = p.remotes.iter().flatten();
            if remotes.clone().count() > MAX_REMOTES {
                return Err(format!("its provenance lists more than {MAX_REMOTES} remotes"));
            }
            for (name, r) in remotes {
                check_len("a remote's name", name, MAX_FIELD)?;
                check_len("a remote's URL", &r.url, MAX_FIELD)?;
                if let Some(push) = &r.push_url {
                    check_len("a remote's push URL", push, MAX_FIELD)?;
                }
            }
        }
        for pr in &self.pull_requests {
            check_len("pull request title", &pr.title, MAX_FIELD)?;
            check_len("pull request state", &pr.state, 64)?;
            [&pr.author, &pr.head, &pr.created_at]
                .into_iter()
                .flatten()
                .try_for_each(|v| check_len("pull request author, head or created_at", v, MAX_FIELD))?;
        }
        for issue in &self.issues {
            check_len("issue repository", &issue.repository, 256)?;
            check_len("issue state", &issue.state, 64)?;
            check_len("issue title", &issue.title, MAX_FIELD)?;
            issue.labels.iter().try_for_each(|l| check_len("issue label", l, MAX_FIELD))?;
        }
        Ok(())
    }

    /// Parses and validates an observation's text, against this machine's clock.
    pub fn parse(path: &Path, text: &str) -> Result<Self, ForgeError> {
        Self::parse_at(path, text, chrono::Utc::now())
    }

    /// [`Observation::parse`] with the clock's reading `now` handed in.
    pub fn parse_at(path: &Path, text: &str, now: chrono::DateTime<chrono::Utc>) -> Result<Self, ForgeError> {
        let invalid = |reason: String| ForgeError::Invalid { path: path.into(), reason };
        let obs: Observation = serde_json::from_str(text).map_err(|e| invalid(crate::json::bounded(&e.to_string())))?;
        if obs.schema != FORGE_SCHEMA {
            return Err(invalid(format!("its schema is {:?}, expected {FORGE_SCHEMA:?}", clamp(&obs.schema, 80))));
        }
        obs.check_bounds().map_err(invalid)?;
        let observed_at = chrono::DateTime::parse_from_rfc3339(&obs.observed_at)
            .map_err(|e| invalid(format!("observed_at {:?} is not RFC 3339 ({e})", obs.observed_at)))?;
        if observed_at > now + chrono::Duration::minutes(MAX_CLOCK_SKEW_MINUTES) {
            return Err(invalid(format!(
                "observed_at {:?} is more than {MAX_CLOCK_SKEW_MINUTES} minutes ahead of this machine's clock \
                 (now {}): an observation from the future would never age; check the clock of the host that made it",
                obs.observed_at,
                now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
            )));
        }
        if !is_repository(&obs.repository) {
            return Err(invalid(format!("its repository {:?} is not `owner/name`", obs.repository)));
        }
        if let Some(issue) = obs.issues.iter().find(|i| !is_repository(&i.repository)) {
            return Err(invalid(format!(
                "issue #{}'s repository {:?} is not `owner/name`",
                issue.number, issue.repository
            )));
        }
        let mut seen = std::collections::BTreeSet::new();
        // Repository names are compared as the forge compares them: case aside.
        if let Some(issue) = obs.issues.iter().find(|i| !seen.insert((i.repository.to_ascii_lowercase(), i.number))) {
            return Err(invalid(format!(
                "issue {}#{} is listed twice: an issue is listed once, with one state",
                crate::text::escape(&issue.repository),
                issue.number
            )));
        }
        if let Some(pr) = obs.pull_requests.iter().find(|pr| pr.number < 1) {
            return Err(invalid(format!(
                "a pull request's number is {}, and a number is at least 1 (title {:?})",
                pr.number, pr.title
            )));
        }
        if let Some(issue) = obs.issues.iter().find(|i| i.number < 1) {
            return Err(invalid(format!(
                "an issue of {}'s number is {}, and a number is at least 1",
                crate::text::escape(&issue.repository),
                issue.number
            )));
        }
        for pr in &obs.pull_requests {
            if !PR_STATES.contains(&pr.state.as_str()) {
                return Err(invalid(format!(
                    "pull request #{}'s state {:?} is not one of {}",
                    pr.number,
                    pr.state,
                    PR_STATES.join(", ")
                )));
            }
            if let Some(t) = &pr.created_at {
                chrono::DateTime::parse_from_rfc3339(t).map_err(|e| {
                    invalid(format!("pull request #{}'s created_at {t:?} is not RFC 3339 ({e})", pr.number))
                })?;
            }
        }
        if let Some(p) = obs.provenance.as_ref().filter(|p| !PROVENANCES.contains(&p.by.as_str())) {
            return Err(invalid(format!("its provenance {:?} is not one of {}", p.by, PROVENANCES.join(", "))));
        }
        for issue in &obs.issues {
            if !ISSUE_STATES.contains(&issue.state.as_str()) {
                return Err(invalid(format!(
                    "issue {}#{}'s state {:?} is not one of {} (a merged pull request is closed)",
                    crate::text::escape(&issue.repository),
                    issue.number,
                    issue.state,
                    ISSUE_STATES.join(", ")
                )));
            }
        }
        Ok(obs)
    }

    /// Reads the shared observation in `common_dir`, else (written by an
    /// older majordomus) the one at `legacy`; `Ok(None)` when the forge was
    /// never observed. With it, the path it was read from.
    pub fn load_shared(common_dir: &Path, legacy: &Path) -> Result<Option<(Self, PathBuf)>, ForgeError> {
        let shared = shared_path(common_dir);
        if let Some(obs) = Self::load(&shared)? {
            return Ok(Some((obs, shared)));
        }
        Ok(Self::load(legacy)?.map(|obs| (obs, legacy.to_path_buf())))
    }

    /// Reads the observation; `Ok(None)` when the forge was never observed.
    pub fn load(path: &Path) -> Result<Option<Self>, ForgeError> {
        use std::io::Read;
        let file = match crate::regular::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(ForgeError::Io { path: path.into(), source }),
        };
        let mut bytes = Vec::new();
        file.take(MAX_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|source| ForgeError::Io { path: path.into(), source })?;
        if bytes.len() as u64 > MAX_BYTES {
            return Err(ForgeError::Invalid {
                path: path.into(),
                reason: format!("it is larger than the {MAX_BYTES} bytes an observation may be"),
            });
        }
        let text = String::from_utf8(bytes)
            .map_err(|e| ForgeError::Invalid { path: path.into(), reason: format!("it is not UTF-8 ({e})") })?;
        Self::parse(path, &text).map(Some)
    }

    pub fn observed_at(&self) -> Option<chrono::DateTime<chrono::Utc>> {
        chrono::DateTime::parse_from_rfc3339(&self.observed_at).ok().map(|t| t.with_timezone(&chrono::Utc))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_valid_observation_parses_and_a_bad_time_is_refused() {
        let good = r#"{"schema":"majordomus/forge/v1","observed_at":"2025-11-30T10:00:00Z","repository":"o/r",
            "pull_requests":[{"number":1,"title":"t","author":"a","head":"b","created_at":"2026-11-30T09:00:00Z","state":"open"}],
            "issues":[{"repository":"o/r","number":2,"state":"open","labels":["limitation"]}]}"#;
        let obs = Observation::parse(Path::new("f.json"), good).expect("valid");
        assert_eq!(obs.pull_requests[0].number, 1);
        let bad = good.replace("2026-11-30T09:00:00Z", "yesterday");
        let err = Observation::parse(Path::new("f.json"), &bad).expect_err("bad time");
        assert!(err.to_string().contains("pull request #1"), "{err}");
    }

    fn at(observed_at: &str, pr: u64, issue: u64) -> String {
        format!(
            r#"{{"schema":"majordomus/forge/v1","observed_at":"{observed_at}","repository":"o/r",
            "pull_requests":[{{"number":{pr},"title":"t","created_at":null,"state":"open"}}],
            "issues":[{{"repository":"o/r","number":{issue},"state":"open"}}]}}"#
        )
    }

    #[test]
    fn an_observation_from_more_than_five_minutes_ahead_of_the_clock_is_refused_naming_the_clock() {
        let now = chrono::DateTime::parse_from_rfc3339("2026-11-30T10:00:00Z").expect("time").to_utc();
        let path = Path::new("f.json");
        Observation::parse_at(path, &at("2026-11-30T10:05:00Z", 1, 2), now).expect("within the skew");
        Observation::parse_at(path, &at("2026-11-30T09:00:00Z", 1, 2), now).expect("in the past");
        let err = Observation::parse_at(path, &at("2026-11-30T10:05:01Z", 1, 2), now).expect_err("ahead");
        assert!(err.to_string().contains("more than 5 minutes ahead of this machine's clock"), "{err}");
        let err = Observation::parse(path, &at("9999-12-31T23:59:59Z", 1, 2)).expect_err("the far future");
        assert!(err.to_string().contains("clock"), "{err}");
    }

    #[test]
    fn a_pull_request_or_issue_numbered_zero_is_refused_as_the_schema_says() {
        let path = Path::new("f.json");
        let err = Observation::parse(path, &at("2025-11-30T10:00:00Z", 0, 2)).expect_err("pr 0");
        assert!(err.to_string().contains("a pull request's number is 0"), "{err}");
        let err = Observation::parse(path, &at("2025-11-30T10:00:00Z", 1, 0)).expect_err("issue 0");
        assert!(err.to_string().contains("an issue of o/r's number is 0"), "{err}");
        let schema: serde_json::Value = serde_json::from_str(JSON_SCHEMA).expect("the schema is JSON");
        assert_eq!(schema["$defs"]["pull_request"]["properties"]["number"]["minimum"], 1);
        assert_eq!(schema["$defs"]["issue"]["properties"]["number"]["minimum"], 1);
    }

    #[test]
    fn the_json_schema_names_this_records_schema_string() {
        let schema: serde_json::Value = serde_json::from_str(JSON_SCHEMA).expect("the schema is JSON");
        assert_eq!(schema["properties"]["schema"]["const"], FORGE_SCHEMA);
    }

    #[test]
    fn the_states_refused_are_exactly_those_outside_the_json_schemas_enums() {
        let schema: serde_json::Value = serde_json::from_str(JSON_SCHEMA).expect("the schema is JSON");
        assert_eq!(schema["$defs"]["pull_request"]["properties"]["state"]["enum"], serde_json::json!(PR_STATES));
        assert_eq!(schema["$defs"]["issue"]["properties"]["state"]["enum"], serde_json::json!(ISSUE_STATES));
    }

    #[test]
    fn a_state_outside_the_schema_is_refused_naming_the_entry() {
        let doc = |pr: &str, issue: &str| {
            format!(
                r#"{{"schema":"majordomus/forge/v1","observed_at":"2025-11-30T10:00:00Z","repository":"o/r",
                "pull_requests":[{{"number":1,"created_at":null,"state":"{pr}"}}],
                "issues":[{{"repository":"o/r","number":8,"state":"{issue}","is_pull_request":true}}]}}"#
            )
        };
        Observation::parse(Path::new("f.json"), &doc("merged", "closed")).expect("within the schema");
        let err = Observation::parse(Path::new("f.json"), &doc("merged", "merged")).expect_err("an issue merged");
        assert!(err.to_string().contains("issue o/r#8's state \"merged\""), "{err}");
        let err = Observation::parse(Path::new("f.json"), &doc("OPEN", "open")).expect_err("a state gh spells");
        assert!(err.to_string().contains("pull request #1's state \"OPEN\""), "{err}");
    }

    #[test]
    fn a_repository_not_named_owner_slash_name_is_refused_as_the_schema_says() {
        let path = Path::new("f.json");
        let doc = |repository: &str, issue_repository: &str| {
            format!(
                r#"{{"schema":"majordomus/forge/v1","observed_at":"2025-11-30T10:00:00Z","repository":"{repository}",
                "issues":[{{"repository":"{issue_repository}","number":3,"state":"open"}}]}}"#
            )
        };
        Observation::parse(path, &doc("o/r", "other/r")).expect("valid");
        Observation::parse(path, &doc("group/sub/project", "o/r")).expect("a GitLab project in a subgroup");
        for bad in ["nope", "a//c", "/r", "o/", "o r/x"] {
            let err = Observation::parse(path, &doc(bad, "o/r")).expect_err(bad);
            assert!(err.to_string().contains(&format!("its repository {bad:?} is not `owner/name`")), "{err}");
        }
        let err = Observation::parse(path, &doc("o/r", "a b")).expect_err("an issue's repository");
        assert!(err.to_string().contains("issue #3's repository \"a b\" is not `owner/name`"), "{err}");
        let schema: serde_json::Value = serde_json::from_str(JSON_SCHEMA).expect("the schema is JSON");
        assert_eq!(schema["properties"]["repository"]["pattern"], "^[^/\\s]+(/[^/\\s]+)+$");
    }

    #[test]
    fn the_same_issue_listed_twice_is_refused_whatever_its_states() {
        let path = Path::new("f.json");
        let doc = r#"{"schema":"majordomus/forge/v1","observed_at":"2025-11-30T10:00:00Z","repository":"o/r",
            "issues":[{"repository":"o/r","number":3,"state":"open"},{"repository":"x/y","number":3,"state":"open"},
                      {"repository":"o/r","number":3,"state":"closed"}]}"#;
        let err = Observation::parse(path, doc).expect_err("listed twice");
        assert!(err.to_string().contains("issue o/r#3 is listed twice"), "{err}");
        let doc = r#"{"schema":"majordomus/forge/v1","observed_at":"2025-11-30T10:00:00Z","repository":"o/r",
            "issues":[{"repository":"Acme/T","number":3,"state":"open"},{"repository":"acme/t","number":3,"state":"closed"}]}"#;
        let err = Observation::parse(path, doc).expect_err("the same issue in two spellings");
        assert!(err.to_string().contains("issue acme/t#3 is listed twice"), "{err}");
    }

    #[test]
    fn a_foreign_document_is_not_an_observation() {
        let err = Observation::parse(
            Path::new("f.json"),
            r#"{"schema":"x","observed_at":"2025-11-30T10:00:00Z","repository":"o/r"}"#,
        )
        .expect_err("foreign");
        assert!(err.to_string().contains("expected \"majordomus/forge/v1\""), "{err}");
    }
}
