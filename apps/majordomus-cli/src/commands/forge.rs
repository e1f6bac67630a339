//! `majordomus forge`: observe the forge, or record an observation.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

use clap::{Args, Subcommand};
use majordomus_records::forge::{self, Observation, Provenance, RemoteSeen};
use majordomus_records::issue::IssueRef;
use majordomus_records::policy::Provider;
use majordomus_records::task::{error_chain, RemoteAtStart, TaskRecord, TaskState};

use crate::forge_tool::{find_on, Tool};
use crate::out::Out;
use crate::workspace::Workspace;
use crate::{gh, glab, CliError, Exit};

/// Observe the forge, or record an observation of it.
///
/// check never reaches the network: the questions about pull requests and
/// issues (backlog-not-grown, claims-released, filings-closed, markers-live)
/// read the observation recorded in the common git directory
/// (<commondir>/majordomus/forge.json), which every worktree reads. An
/// observation taken before the task started answers nothing about the task.
#[derive(Debug, Args)]
pub struct ForgeArgs {
    #[command(subcommand)]
    pub action: ForgeAction,
}

#[derive(Debug, Subcommand)]
pub enum ForgeAction {
    Refresh(RefreshArgs),
    Record(RecordArgs),
}

/// Observe the forge through gh (GitHub) or glab (GitLab) and record what it says.
///
/// The policy's [forge] provider names the forge: github (the default)
/// observes through gh, gitlab through glab; none and recorded have nothing
/// to observe. Asks for the repository, its open pull (merge) requests,
/// and each issue the task claimed or filed, or a LIMITATION marker names,
/// with those the recorded observation already holds (another worktree's).
/// The program is the one PATH finds; the one the PATH the task started
/// under finds is recorded beside it, and an observation through another
/// program is not the forge's word. If the program is missing (exit 2) or
/// fails (exit 13), its message is printed and the recorded observation is
/// kept as it was.
#[derive(Debug, Args)]
pub struct RefreshArgs {}

/// Record an observation from FILE, or from standard input with `-`.
///
/// The file is a majordomus/forge/v1 document (majordomus schema forge). One
/// that is not (bad JSON, a foreign schema, a time that is not RFC 3339) is
/// refused with exit 2 and the recorded observation is kept as it was. A
/// recorded observation is typed in, not observed: it answers the questions
/// only where the policy at the task's start declares [forge] provider =
/// "recorded", and is otherwise named and unknown.
#[derive(Debug, Args)]
#[command(after_help = RECORD_EXAMPLE)]
pub struct RecordArgs {
    /// The observation to record, or `-` for standard input.
    #[arg(value_name = "FILE|-")]
    pub file: String,
}

/// A minimal valid document, as `forge record --help` shows it.
pub const RECORD_EXAMPLE: &str = r#"A minimal observation (no pull request open, no issue asked about):

  {"schema": "majordomus/forge/v1", "observed_at": "2026-11-30T10:00:00Z",
   "repository": "owner/name", "pull_requests": [], "issues": []}

A pull request: {"number": 12, "title": "...", "author": "login", "head": "branch",
  "created_at": "2026-11-30T09:00:00Z", "state": "open"} (open, closed or merged).
An issue: {"repository": "owner/name", "number": 3, "state": "open",
  "labels": ["limitation"]} (open, closed or missing).
observed_at is when the forge was asked (RFC 3339), never ahead of this clock."#;

pub fn cmd_forge(cwd: &Path, args: ForgeArgs) -> Result<Exit, CliError> {
    let ws = Workspace::open(cwd)?;
    let (mut observation, provenance) = match args.action {
        ForgeAction::Record(a) => {
            let obs = read_observation(cwd, &a.file)?;
            let by = Provenance {
                by: "recorded".into(),
                program: None,
                program_at_start: None,
                start_path_known: false,
                program_written_since_start: None,
                file: Some(a.file),
                remotes_since_start: None,
                task: None,
                remotes: None,
            };
            (obs, by)
        }
        ForgeAction::Refresh(_) => refresh(&ws)?,
    };
    // How it was made is majordomus's to say, never the document's.
    observation.provenance = Some(provenance);
    let mut bytes =
        serde_json::to_vec_pretty(&observation).map_err(|e| CliError::internal("cannot encode the observation", e))?;
    bytes.push(b'\n');
    let common = ws.repo.common_dir();
    majordomus_records::atomic::write_atomic(common, &forge::shared_path(common), &bytes)
        .map_err(crate::workspace::place_error)?;
    // The observation an older majordomus kept in this worktree is replaced.
    if std::fs::symlink_metadata(ws.paths.forge()).is_ok() {
        crate::workspace::remove_state(&ws.paths, &ws.paths.forge())?;
    }
    let missing = observation.issues.iter().filter(|i| i.state == "missing").count();
    let mut out = Out::lock();
    writeln!(
        out,
        "recorded the forge observation of {} at {}: {} open, {} asked about{}",
        observation.repository,
        observation.observed_at,
        plural(
            observation.pull_requests.iter().filter(|p| p.state.eq_ignore_ascii_case("open")).count(),
            "pull request"
        ),
        plural(observation.issues.len(), "issue"),
        if missing > 0 { format!(" ({missing} missing)") } else { String::new() },
    )?;
    if observation.provenance.as_ref().is_some_and(|p| p.by == "recorded") {
        let policy = ws.policy()?;
        if policy.provider() != Some(Provider::Recorded) {
            writeln!(
                out,
                "it was typed in, not observed: it answers nothing until the policy declares [forge] provider = \"recorded\" \
                 (read at a task's start); majordomus forge refresh observes the forge instead"
            )?;
        }
    }
    Ok(Exit::Ok)
}

fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// The most an observation may weigh: far above any forge's answer, and
/// a bound on what `forge record /dev/zero` reads.
const MAX_OBSERVATION_BYTES: u64 = majordomus_records::forge::MAX_BYTES;

fn read_observation(cwd: &Path, file: &str) -> Result<Observation, CliError> {
    let (name, text) = if file == "-" {
        let text = read_at_most(std::io::stdin().lock(), MAX_OBSERVATION_BYTES).map_err(|e| {
            CliError::Usage(format!("cannot read the observation from standard input: {e}; nothing was recorded"))
        })?;
        (Path::new("<stdin>").to_path_buf(), text)
    } else {
        let path = cwd.join(file);
        let text = std::fs::File::open(&path)
            .and_then(|f| read_at_most(f, MAX_OBSERVATION_BYTES))
            .map_err(|e| CliError::Usage(format!("cannot read {file}: {e}; nothing was recorded")))?;
        (Path::new(file).to_path_buf(), text)
    };
    Observation::parse(&name, &text)
        .map_err(|e| CliError::Usage(format!("{}; the recorded observation is unchanged", error_chain(&e))))
}

/// The text a reader holds, refused past `limit` bytes (or not UTF-8).
fn read_at_most(reader: impl Read, limit: u64) -> std::io::Result<String> {
    let mut bytes = Vec::new();
    reader.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("it holds more than {limit} bytes, more than any observation"),
        ));
    }
    String::from_utf8(bytes).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
}

fn refresh(ws: &Workspace) -> Result<(Observation, Provenance), CliError> {
    let policy = ws.policy()?;
    let root = ws.repo.root();
    let tool = match policy.provider() {
        None | Some(Provider::Github) => gh::gh(root),
        Some(Provider::Gitlab) => glab::glab(root),
        Some(Provider::None) => {
            return Err(CliError::Usage(
                "the policy declares no forge ([forge] provider = \"none\"): there is nothing to observe, and \
                 backlog-not-grown is exempt"
                    .into(),
            ))
        }
        Some(Provider::Recorded) => {
            return Err(CliError::Usage(
                "the policy declares the forge's observations are recorded ([forge] provider = \"recorded\"): \
                 record one with majordomus forge record FILE (majordomus forge record --help shows one)"
                    .into(),
            ))
        }
    };
    let task = match TaskState::here(&ws.paths) {
        TaskState::Active(record) => Some(record),
        _ => None,
    };
    // The issues the bookkeeping questions need answered: claimed, filed,
    // named by a marker (none without a task); and those the observation
    // already holds, which another worktree's task asked about.
    let mut issues = match &task {
        Some(_) => majordomus_invariant::measure::issues_to_observe(&ws.repo, &ws.paths, &policy)
            .map_err(|e| CliError::Usage(format!("{}; the recorded observation is unchanged", e.reason)))?,
        None => Vec::new(),
    };
    if let Ok(Some((held, _))) = Observation::load_shared(ws.repo.common_dir(), &ws.paths.forge()) {
        for i in &held.issues {
            let known =
                IssueRef { repo: Some(i.repository.clone()), number: i.number }.relative_to(Some(&held.repository));
            if !issues.contains(&known) {
                issues.push(known);
            }
        }
    }
    let mut provenance = provenance(&tool, task.as_deref());
    let remotes_now = majordomus_readings::refs::evidence::at_start_now(&ws.repo).map(|(now, _)| now);
    provenance.remotes_since_start = Some(remotes_since_start(&remotes_now, task.as_deref()));
    // What another task reading this observation judges it by: its own start's remotes against these.
    provenance.remotes = remotes_now
        .ok()
        .map(|now| now.into_iter().map(|(name, r)| (name, RemoteSeen { url: r.url, push_url: r.push_url })).collect());
    let observed = match tool.name {
        "glab" => glab::observe(&tool, &issues),
        _ => gh::observe(&tool, &issues),
    };
    let observation = observed.map_err(|e| {
        let message = format!("{}; the recorded observation is unchanged", error_chain(&e));
        if e.is_setup() {
            CliError::Usage(message)
        } else {
            CliError::internal("forge refresh failed", std::io::Error::other(message))
        }
    })?;
    Ok((observation, provenance))
}

/// How a refresh through `tool` is made: the program this PATH finds, and
/// the one the PATH the active task started under finds.
fn provenance(tool: &Tool, task: Option<&TaskRecord>) -> Provenance {
    let start_path = task.and_then(start_path);
    Provenance {
        by: tool.name.into(),
        program: tool.program_shown(),
        program_at_start: start_path
            .as_deref()
            .and_then(|p| find_on(std::ffi::OsStr::new(p), tool.name))
            .map(|p| p.display().to_string()),
        start_path_known: start_path.is_some(),
        program_written_since_start: match (&tool.program, task.and_then(|t| t.started_at().ok())) {
            // The start is kept to the second: a program written within it
            // is taken for the start's.
            (Some(program), Some(started)) => {
                majordomus_readings::process::written_since(program, started.timestamp() + 1)
                    .map(|p| p.display().to_string())
            }
            _ => None,
        },
        file: None,
        remotes_since_start: None,
        task: task.map(|t| t.id.clone()),
        remotes: None,
    }
}

/// Each remote added, removed or given another URL since `task` started,
/// as a phrase; one phrase saying so where the remotes (now, or at the
/// start) cannot be read. Empty without a task.
fn remotes_since_start(
    now: &Result<BTreeMap<String, RemoteAtStart>, majordomus_readings::Unread>,
    task: Option<&TaskRecord>,
) -> Vec<String> {
    let Some(task) = task else { return Vec::new() };
    let Some(start) = &task.snapshot.remotes else {
        return vec!["the task record does not hold the remotes at its start".into()];
    };
    let now = match now {
        Ok(now) => now,
        Err(e) => return vec![format!("the remotes could not be read ({})", e.reason)],
    };
    let mut changed = Vec::new();
    for (name, then) in start {
        match now.get(name) {
            None => changed.push(format!("{name} removed")),
            Some(r) if (&r.url, &r.push_url) != (&then.url, &then.push_url) => {
                changed.push(format!("{name} re-pointed from {} to {}", then.url, r.url));
            }
            Some(r) => changed.extend(default_repository_changed(name, then, r)),
        }
    }
    for (name, r) in now.iter().filter(|(name, _)| !start.contains_key(*name)) {
        changed.push(format!("{name} added ({})", r.url));
    }
    changed
}

/// The forge programs' default-repository settings of the remote `name`
/// (`remote.<name>.gh-resolved`, `.glab-resolved`: what `gh repo
/// set-default` writes) changed since the start, as phrases: gh and glab
/// answer for the repository such a setting names before any the URLs
/// name (test/cases/476). A record from before they were kept says none
/// was set, so one set now is named.
fn default_repository_changed(name: &str, then: &RemoteAtStart, now: &RemoteAtStart) -> Vec<String> {
    [("gh-resolved", &then.gh_resolved, &now.gh_resolved), ("glab-resolved", &then.glab_resolved, &now.glab_resolved)]
        .into_iter()
        .filter(|(_, then, now)| then != now)
        .map(|(key, then, now)| {
            let shown = |v: &Option<String>| v.as_deref().map_or_else(|| "unset".to_string(), |v| format!("{v:?}"));
            format!("remote.{name}.{key} {} at the start, {} now (gh repo set-default)", shown(then), shown(now))
        })
        .collect()
}

/// The PATH the task started under, as its start snapshot recorded it
/// (`Some("")` when it was unset then: it finds nothing); `None` in a record
/// that did not record it.
fn start_path(task: &TaskRecord) -> Option<String> {
    let env = task.snapshot.gate_environment.as_ref()?;
    Some(env.get("PATH").cloned().flatten().unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reading_an_observation_stops_past_the_limit_and_refuses_it() {
        assert_eq!(read_at_most(&b"{}"[..], 2).expect("at the limit"), "{}");
        let err = read_at_most(std::io::repeat(0), 1024).expect_err("endless");
        assert!(err.to_string().contains("more than 1024 bytes"), "{err}");
        assert!(read_at_most(&[0xff_u8][..], 16).is_err(), "not UTF-8");
    }
}
