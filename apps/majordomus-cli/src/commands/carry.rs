//! `majordomus carry`: the run budget, carried in a record across session cuts.

use std::path::Path;

use clap::{Args, Subcommand};
use majordomus_carry::{Carry, CarryError, Class, Decision, Found, OwnerState, ProcFs, Store, Verdict};

use crate::out::{errln, Out};
use crate::{CliError, Exit};

/// Carry an unattended run's budget across session cuts, in a record.
///
/// The record lives in the repository's common git directory
/// (<commondir>/majordomus/carry.json), so every worktree sees the one run.
/// Each subcommand answers one verdict word on standard output and explains
/// it on standard error:
///
///   began       nothing was carried: a new run begins (exit 0)
///   resumed     a cut handed the run off, or a resume adopted it (exit 0)
///   busy        the owner still runs and nothing handed it off: stop (exit 10)
///   standing    nothing handed it off and its owner is gone: a person
///               decides, with `carry resume` or `carry end` (exit 10)
///   mismatch    the record is another invocation's: stop (exit 10)
///   expired     the whole-run bound is spent: the run ends (exit 10)
///   unreadable  the record cannot be read: stop (exit 13)
///   unknown     the repository's git directory cannot be read (exit 13)
///   go / stop   `carry budget`: room left (exit 0) / a bound reached (exit 10)
///   counted, cut, ended, absent   the write was done, or nothing was there (exit 0)
///
/// A refused request (a non-canonical invocation, --owner naming no running
/// process or not the owner, a count after a cut) exits 2 and changes nothing.
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct CarryArgs {
    #[command(subcommand)]
    pub action: CarryAction,
}

#[derive(Debug, Subcommand)]
pub enum CarryAction {
    /// Claim the record for a run: began, resumed, busy, standing, mismatch or expired.
    ///
    /// Write the invocation canonically: single spaces, plain integers
    /// (`backlogrun --max 3`, never `--max 03`); the budget flags are
    /// --max N (changes to land), --max-filed N (issues to file, default 10)
    /// and --hours N (the whole-run bound, default 8).
    Begin {
        /// The run's invocation, in canonical form.
        #[arg(allow_hyphen_values = true)]
        invocation: String,
        #[command(flatten)]
        owner: OwnerArg,
    },
    /// Adopt a standing record (its owner gone): resumed, busy, mismatch or expired.
    Resume {
        /// The run's invocation, in canonical form.
        #[arg(allow_hyphen_values = true)]
        invocation: String,
        #[command(flatten)]
        owner: OwnerArg,
    },
    /// Add to the record's counters; only the owning process may, and never after a cut.
    Count {
        /// Changes landed since the last count.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..), required_unless_present = "filed")]
        merged: Option<u64>,
        /// Issues filed since the last count.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        filed: Option<u64>,
        #[command(flatten)]
        owner: OwnerArg,
    },
    /// Hand the record off: the next `begin` of the same invocation resumes it, once.
    Cut {
        #[command(flatten)]
        owner: OwnerArg,
    },
    /// Remove the record when the run is over; ended, or absent when there was none.
    End {
        /// The run stopped rather than finished: why, in one line (kept in
        /// <commondir>/majordomus/carry-history.jsonl).
        #[arg(long, value_name = "REASON")]
        stopped: Option<String>,
    },
    /// Print the record: invocation, owner, started_at, merged, filed, cuts.
    Show {
        /// Print the record as JSON (`null` when there is none).
        #[arg(long)]
        json: bool,
    },
    /// Answer go or stop from the record alone: --max, the filings ceiling, the whole-run bound.
    Budget {
        /// Print the verdict and the reading as JSON.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Args)]
pub struct OwnerArg {
    /// The process that owns the run: the parent loop's own pid ("$PPID").
    #[arg(long, value_name = "PID", value_parser = clap::value_parser!(u32).range(1..))]
    pub owner: u32,
}

pub fn cmd_carry(cwd: &Path, args: CarryArgs) -> Result<Exit, CliError> {
    let store = match Store::discover(cwd) {
        Ok(store) => store,
        Err(e) => {
            let explanation = majordomus_records::task::error_chain(&e);
            return answer(&Decision::say(Verdict::Unknown, explanation));
        }
    };
    let probe = ProcFs::default();
    let carry = Carry::new(&store, &probe);
    let now = chrono::Utc::now();
    let decided = match args.action {
        CarryAction::Begin { invocation, owner } => carry.begin(&invocation, owner.owner, now),
        CarryAction::Resume { invocation, owner } => carry.resume(&invocation, owner.owner, now),
        CarryAction::Count { merged, filed, owner } => {
            carry.count(owner.owner, merged.unwrap_or(0), filed.unwrap_or(0))
        }
        CarryAction::Cut { owner } => carry.cut(owner.owner),
        CarryAction::End { stopped } => {
            if stopped.as_deref().is_some_and(|r| r.trim().is_empty()) {
                return Err(CliError::Usage("--stopped needs the reason the run stopped, in one line".into()));
            }
            carry.end(stopped.as_deref().map(str::trim), now)
        }
        CarryAction::Show { json } => return show(&carry.found(), json),
        CarryAction::Budget { json } => {
            let (decision, reading) = carry.budget(now);
            if json {
                let doc = serde_json::json!({
                    "verdict": decision.verdict.word(),
                    "reason": decision.explanation,
                    "reading": reading,
                });
                print_json(&doc)?;
                return Ok(exit_of(decision.verdict));
            }
            Ok(decision)
        }
    };
    match decided {
        Ok(decision) => answer(&decision),
        Err(e) if e.is_refusal() => Err(CliError::Usage(refusal(&e))),
        // A script branches on the word: the record out of reach (its lock
        // or file unreadable or unwritable, the lock's wait run out) still
        // answers one, `unknown`, with why on standard error.
        Err(e) => answer(&Decision::say(
            Verdict::Unknown,
            format!(
                "the carry record could not be read or written, so nothing is known of the run: {}",
                majordomus_records::task::error_chain(&e)
            ),
        )),
    }
}

fn refusal(e: &CarryError) -> String {
    format!("refused, nothing changed: {}", majordomus_records::task::error_chain(e))
}

fn exit_of(verdict: Verdict) -> Exit {
    match verdict.class() {
        Class::Proceed => Exit::Ok,
        Class::Halt => Exit::NotDone,
        Class::Unread => Exit::Internal,
    }
}

/// The verdict word on standard output, its explanation on standard error.
fn answer(decision: &Decision) -> Result<Exit, CliError> {
    let mut stdout = Out::lock();
    let written = writeln!(stdout, "{}", decision.verdict).and_then(|()| stdout.flush());
    errln!("majordomus carry: {}: {}", decision.verdict, majordomus_records::text::escape_lines(&decision.explanation));
    // The exit is the verdict, whether or not the reader stayed for the word.
    crate::out::keeping(exit_of(decision.verdict), written)
}

fn print_json(doc: &impl serde::Serialize) -> Result<(), CliError> {
    let mut bytes = serde_json::to_vec_pretty(doc).map_err(|e| CliError::internal("cannot encode JSON", e))?;
    bytes.push(b'\n');
    let mut stdout = Out::lock();
    stdout.write_all(&bytes)?;
    stdout.flush()?;
    Ok(())
}

fn show(found: &Found, json: bool) -> Result<Exit, CliError> {
    let p = match found {
        Found::Absent if json => {
            print_json(&serde_json::Value::Null)?;
            return Ok(Exit::Ok);
        }
        Found::Absent => {
            let mut stdout = Out::lock();
            writeln!(stdout, "no carry record here")?;
            return Ok(Exit::Ok);
        }
        Found::Unreadable(reason) => {
            return answer(&Decision::say(Verdict::Unreadable, format!("the carry record cannot be read ({reason})")))
        }
        Found::Present(p) => p,
    };
    if json {
        print_json(&p.record)?;
        return Ok(Exit::Ok);
    }
    let r = &p.record;
    let state = match p.owner {
        OwnerState::Running => "running",
        OwnerState::Unsure => "held as running (start time unconfirmed)",
        OwnerState::Gone => "gone",
    };
    let limits = p.invocation.limits();
    let max = limits.max_merged.map_or_else(|| "no --max".to_string(), |m| format!("of --max {m}"));
    let mut stdout = Out::lock();
    writeln!(stdout, "invocation: {}", majordomus_records::text::escape(&r.invocation))?;
    writeln!(stdout, "owner:      {} — {state}", r.owner)?;
    writeln!(stdout, "started_at: {}", r.started_at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))?;
    writeln!(stdout, "merged:     {} ({max})", r.merged)?;
    writeln!(stdout, "filed:      {} (of {})", r.filed, limits.max_filed)?;
    writeln!(stdout, "cuts:       {}", r.cuts)?;
    writeln!(stdout, "handed off: {}", if r.handed_off { "yes, waiting for the next begin" } else { "no" })?;
    stdout.flush()?;
    Ok(Exit::Ok)
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[test]
    fn each_verdict_exits_with_the_code_the_help_text_promises() {
        let mut cli = crate::Cli::command();
        let help = cli.find_subcommand_mut("carry").expect("carry").render_long_help().to_string();
        let promised = [
            (Verdict::Began, 0, "began       nothing was carried: a new run begins (exit 0)"),
            (Verdict::Resumed, 0, "(exit 0)"),
            (Verdict::Busy, 10, "stop (exit 10)"),
            (Verdict::Standing, 10, "`carry end` (exit 10)"),
            (Verdict::Mismatch, 10, "another invocation's: stop (exit 10)"),
            (Verdict::Expired, 10, "the run ends (exit 10)"),
            (Verdict::Unreadable, 13, "cannot be read: stop (exit 13)"),
            (Verdict::Unknown, 13, "cannot be read (exit 13)"),
            (Verdict::Go, 0, "room left (exit 0)"),
            (Verdict::Stop, 10, "a bound reached (exit 10)"),
            (Verdict::Counted, 0, "counted, cut, ended, absent"),
            (Verdict::Cut, 0, "counted, cut, ended, absent"),
            (Verdict::Ended, 0, "counted, cut, ended, absent"),
            (Verdict::Absent, 0, "nothing was there (exit 0)"),
        ];
        assert_eq!(promised.len(), Verdict::ALL.len());
        for (verdict, code, text) in promised {
            assert_eq!(exit_of(verdict) as u8, code, "{verdict}");
            assert!(help.contains(text), "the help does not say {text:?} for {verdict}:\n{help}");
        }
    }
}
