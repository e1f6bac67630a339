//! `majordomus forge`: observe the forge, or record an observation.

use std::io::Read;
use std::path::Path;

use clap::{Args, Subcommand};
use majordomus_records::forge::Observation;
use majordomus_records::task::{error_chain, TaskState};

use crate::gh::{self, Gh};
use crate::out::Out;
use crate::workspace::Workspace;
use crate::{CliError, Exit};

/// Observe the forge, or record an observation of it.
///
/// check never reaches the network: the questions about pull requests and
/// issues (backlog-not-grown, claims-released, filings-closed, markers-live)
/// read the observation recorded in .ai/local/state/forge.json. An
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

/// Observe the forge through gh (the GitHub CLI) and record what it says.
///
/// Asks gh for the repository, its open pull requests, and each issue the
/// task claimed or filed, or a LIMITATION marker names. If gh is missing (exit 2) or
/// fails (exit 13), its message is printed and the recorded observation is
/// kept as it was.
#[derive(Debug, Args)]
pub struct RefreshArgs {}

/// Record an observation from FILE, or from standard input with `-`.
///
/// The file is a majordomus/forge/v1 document. One that is not (bad JSON, a
/// foreign schema, a time that is not RFC 3339) is refused with exit 2 and
/// the recorded observation is kept as it was.
#[derive(Debug, Args)]
pub struct RecordArgs {
    /// The observation to record, or `-` for standard input.
    #[arg(value_name = "FILE|-")]
    pub file: String,
}

pub fn cmd_forge(cwd: &Path, args: ForgeArgs) -> Result<Exit, CliError> {
    let ws = Workspace::open(cwd)?;
    let observation = match args.action {
        ForgeAction::Record(a) => read_observation(cwd, &a.file)?,
        ForgeAction::Refresh(_) => refresh(&ws)?,
    };
    let mut bytes =
        serde_json::to_vec_pretty(&observation).map_err(|e| CliError::internal("cannot encode the observation", e))?;
    bytes.push(b'\n');
    ws.write_state(&ws.paths.forge(), &bytes)?;
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

fn refresh(ws: &Workspace) -> Result<Observation, CliError> {
    // The issues the bookkeeping questions need answered: claimed, filed,
    // named by a marker. With no task there are none to ask about.
    let issues = match TaskState::here(&ws.paths) {
        TaskState::Active(_) => {
            let policy = ws.policy()?;
            majordomus_invariant::measure::issues_to_observe(&ws.repo, &ws.paths, &policy)
                .map_err(|e| CliError::Usage(format!("{}; the recorded observation is unchanged", e.reason)))?
        }
        _ => Vec::new(),
    };
    gh::observe(&Gh::from_path(ws.repo.root()), &issues).map_err(|e| {
        let message = format!("{}; the recorded observation is unchanged", error_chain(&e));
        if e.is_setup() {
            CliError::Usage(message)
        } else {
            CliError::internal("forge refresh failed", std::io::Error::other(message))
        }
    })
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
