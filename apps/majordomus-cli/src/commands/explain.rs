//! `majordomus explain`: what a question of the invariant asks.

use std::path::Path;

use clap::Args;
use majordomus_invariant::question::{self, QUESTIONS};
use majordomus_invariant::score::EXTRA_QUESTION_CAP;
use majordomus_records::Policy;

use crate::out::{self, errln, outln};
use crate::workspace::Workspace;
use crate::{CliError, Exit};

/// Explain a question of the done invariant: what it asks, where the answer
/// comes from, what each status means there, the cap in force (the
/// repository's policy's `[caps]`, else the built-in one), and what settles it.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The question's id, as the done line names it (e.g. pushed).
    pub question: String,
}

/// The policy as explain sees it: read and valid, not valid (with why), or
/// no repository to read one from.
#[derive(Debug)]
pub enum PolicySeen {
    Valid(Box<Policy>),
    Invalid(String),
    NoRepository,
}

pub fn cmd_explain(cwd: &Path, args: ExplainArgs) -> Result<Exit, CliError> {
    let id = args.question.trim();
    let seen = match Workspace::open(cwd) {
        Err(_) => PolicySeen::NoRepository,
        Ok(ws) => match ws.policy() {
            Ok(p) => PolicySeen::Valid(Box::new(p)),
            Err(e) => PolicySeen::Invalid(e.to_string()),
        },
    };
    if let PolicySeen::Invalid(reason) = &seen {
        errln!("majordomus: the policy is not valid, so the built-in caps are shown: {reason}");
    }
    if let Some(mut text) = explain(id, &seen) {
        if id == "regression-tested" {
            text.push_str(&tests_here(cwd, &seen));
        }
        out::text(&text)?;
        return Ok(Exit::Ok);
    }
    // A question the repository's policy adds, answered by one of its gates.
    if let PolicySeen::Valid(policy) = &seen {
        if let Some(q) = policy.questions.iter().find(|q| q.id == id) {
            outln!("{} ({} stage; a question this repository's policy adds)", q.id, q.stage)?;
            outln!("  {}", crate::render::escape_text(&q.question))?;
            outln!()?;
            outln!("source: the gate {} (.ai/repo/majordomus.toml + gate-run ledger)", q.gate)?;
            let cap = match policy.caps.get(id) {
                Some(n) => format!("{n}, from [caps] in .ai/repo/majordomus.toml"),
                None => format!("{EXTRA_QUESTION_CAP}, the default for a question the policy adds ([caps] names none)"),
            };
            outln!("cap:    {cap}")?;
            outln!("remedy: majordomus gate run {}", q.gate)?;
            return Ok(Exit::Ok);
        }
    }
    let ids = question::builtin_ids();
    Err(CliError::Usage(format!("no question is called {id:?}; the questions are: {}", ids.join(", "))))
}

/// What counts as a test in the repository at `cwd` (`regression-tested`):
/// its policy's `[tests] paths` and pytest's rules as configured there
/// (with a task active, held within the start commit's, as
/// `regression-tested` reads them).
fn tests_here(cwd: &Path, seen: &PolicySeen) -> String {
    use majordomus_invariant::family::verification::{test_code, test_path::TestRules};
    let rules = match seen {
        PolicySeen::Valid(p) => TestRules::of(p.tests.as_ref()),
        _ => TestRules::default(),
    };
    let pytest = match Workspace::open(cwd) {
        Ok(ws) => match majordomus_records::task::TaskState::here(&ws.paths) {
            majordomus_records::task::TaskState::Active(task) => {
                test_code::changed::pytest_rules_since(&ws.repo, task.head.as_deref())
                    .unwrap_or_else(|_| test_code::changed::pytest_rules_at(ws.repo.root()))
            }
            _ => test_code::changed::pytest_rules_at(ws.repo.root()),
        },
        Err(_) => Default::default(),
    };
    let mut out = String::from("\nWhat counts as a test here:\n");
    for line in test_code::what_counts(&rules, &pytest) {
        out.push_str(&format!("  {line}\n"));
    }
    out
}

/// The explanation of a built-in question, from the registry, with the cap
/// the policy puts in force.
pub fn explain(id: &str, policy: &PolicySeen) -> Option<String> {
    let (n, q) = QUESTIONS.iter().enumerate().find(|(_, q)| q.id.as_str() == id)?;
    let mut out =
        format!("{} ({} stage; question {} of {})\n  {}\n\n", q.id, q.stage, n + 1, QUESTIONS.len(), q.question);
    out.push_str(&format!("source: {}\n", q.source));
    let (cap, from) = match policy {
        PolicySeen::Valid(p) => match p.caps.get(id) {
            Some(c) => (*c, format!("from [caps] in .ai/repo/majordomus.toml; built in: {}", q.cap)),
            None => (q.cap, "built in".to_string()),
        },
        PolicySeen::Invalid(_) => (q.cap, "built in; the policy is not valid, so its [caps] are not read".to_string()),
        PolicySeen::NoRepository => (q.cap, "built in".to_string()),
    };
    out.push_str(&format!("cap:    {cap}, {from} (while it is open, the completion score is at most {cap})\n\n"));
    for (status, meaning) in question::status_meanings(q.id) {
        out.push_str(&format!("  {:<8} {meaning}\n", status.as_str()));
    }
    out.push_str(&format!("\nremedy: {}\n", q.remedy));
    if q.needs_task {
        out.push_str("It is measured from the task's start: without a task record (majordomus start) it is unknown.\n");
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_question_explains_itself_with_its_source_statuses_and_remedy() {
        for q in QUESTIONS {
            let text = explain(q.id.as_str(), &PolicySeen::NoRepository).expect("explained");
            assert!(text.starts_with(&format!("{} (", q.id)), "{text}");
            assert!(text.contains(q.source) && text.contains(q.remedy) && text.contains("  unknown "), "{text}");
            assert!(text.contains(&format!("cap:    {}, built in", q.cap)), "{text}");
        }
        assert_eq!(explain("no-such-question", &PolicySeen::NoRepository), None);
    }

    #[test]
    fn the_cap_shown_is_the_policys_where_it_sets_one_and_says_so() {
        let mut policy = Policy::default();
        policy.caps.insert("pushed".into(), 3);
        let text = explain("pushed", &PolicySeen::Valid(Box::new(policy))).expect("explained");
        assert!(text.contains("cap:    3, from [caps] in .ai/repo/majordomus.toml; built in: 8"), "{text}");
        assert!(text.contains("the completion score is at most 3"), "{text}");
        let text = explain("pushed", &PolicySeen::Invalid("bad".into())).expect("explained");
        assert!(text.contains("cap:    8, built in; the policy is not valid"), "{text}");
    }
}
