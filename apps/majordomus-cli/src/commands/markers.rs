//! `majordomus markers`: the register of limitation markers.

use std::path::Path;

use clap::{Args, Subcommand};
use majordomus_readings::markers::Register;

use crate::out::{errln, outln};
use crate::workspace::Workspace;
use crate::{CliError, Exit};

/// The register of limitation markers: what it scans, and how that was decided.
///
/// The register is the policy's [markers] table (pattern, scan, extensions,
/// exclude); each key left out takes its default. A marker added in a file
/// the register scans must name an open issue labelled limitation.
#[derive(Debug, Args)]
pub struct MarkersArgs {
    #[command(subcommand)]
    pub action: MarkersAction,
}

#[derive(Debug, Subcommand)]
pub enum MarkersAction {
    /// Print the files the register scans, and how each part of it was decided.
    Scope,
}

pub fn cmd_markers(cwd: &Path, args: MarkersArgs) -> Result<Exit, CliError> {
    let ws = Workspace::open(cwd)?;
    // The register in force: a task's narrowing of it is named, not applied.
    let force = ws.in_force(&majordomus_records::TaskState::here(&ws.paths))?;
    for change in force.finding.iter().flat_map(|f| f.loosenings()).filter(|c| c.entry.starts_with("[markers]")) {
        errln!("majordomus: {}", change.sentence());
    }
    let policy = force.policy;
    match args.action {
        MarkersAction::Scope => {
            let register = Register::from_policy(policy.markers.as_ref()).map_err(|e| CliError::Usage(e.reason))?;
            let tree = majordomus_readings::status::read(&ws.repo)
                .map_err(|e| CliError::internal("cannot read the working tree", e))?;
            let files = register
                .files(&ws.repo, &tree.untracked)
                .map_err(|e| CliError::internal("cannot list the files", e))?;
            let d = &register.decided;
            let policy_file = ws.paths.policy();
            outln!(
                "policy:     {}{}",
                policy_file.display(),
                if policy_file.exists() { "" } else { " (absent: every part is the default)" }
            )?;
            outln!("pattern:    {}  ({})", register.pattern_text, d.pattern)?;
            outln!("scan:       {}  ({})", register.scan.join(", "), d.scan)?;
            outln!("extensions: {}  ({})", register.extensions.join(", "), d.extensions)?;
            outln!("exclude:    {}  ({})", register.exclude.join(", "), d.exclude)?;
            if let Some(f) = policy.filing_markers.as_ref().filter(|f| Some(*f) != policy.markers.as_ref()) {
                let filings = Register::from_policy(Some(f)).map_err(|e| CliError::Usage(e.reason))?;
                outln!(
                    "filings:    scan {}; extensions {}; exclude {}  (the register a filing is settled by: what the \
                     start's register and the policy's both scan)",
                    filings.scan.join(", "),
                    filings.extensions.join(", "),
                    filings.exclude.join(", ")
                )?;
            }
            outln!("files:      {} scanned (tracked, or untracked and not ignored)", files.len())?;
            for f in files {
                outln!("  {}", crate::render::escape_text(&f.to_string()))?;
            }
        }
    }
    Ok(Exit::Ok)
}
