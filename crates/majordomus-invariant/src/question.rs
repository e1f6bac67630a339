//! The done invariant's questions: one ordered registry, each with its id,
//! stage, the question it asks, the source that answers it, the remedy that
//! settles it and its default cap on the completion score, and (for
//! `majordomus explain`) what each status means for it.
//!
//! The ids and their order are a contract. A snapshot test of this list
//! makes renaming or reordering a question a reviewed change.

use crate::answer::Status;

/// One built-in question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuestionDef {
    pub id: &'static str,
    pub stage: &'static str,
    pub question: &'static str,
    pub source: &'static str,
    pub remedy: &'static str,
    /// The completion-score cap while this question is not settled.
    pub cap: u8,
    /// Whether answering needs a task record (a start to measure from).
    pub needs_task: bool,
}

const fn q(
    id: &'static str,
    stage: &'static str,
    question: &'static str,
    source: &'static str,
    remedy: &'static str,
    cap: u8,
    needs_task: bool,
) -> QuestionDef {
    QuestionDef { id, stage, question, source, remedy, cap, needs_task }
}

/// The built-in questions, in invariant order.
pub const QUESTIONS: [QuestionDef; 19] = [
    q(
        "scoped",
        "scope",
        "Does every path changed since the start lie inside the task's declared scope?",
        "task record + git",
        "revert the changes outside the scope, or start the task again with a wider --scope",
        6,
        true,
    ),
    q(
        "gates-green",
        "verification",
        "Has every required gate the change selects a recorded, passing run over the current inputs?",
        ".ai/repo/majordomus.toml + gate-run ledger",
        "majordomus gate run --all",
        5,
        true,
    ),
    q(
        "regression-tested",
        "verification",
        "Does the change touch a test?",
        "change set",
        "add or change a test that would catch a regression of this change",
        9,
        true,
    ),
    q(
        "committed",
        "commit",
        "Is every tracked file changed since the start committed?",
        "git status + task record",
        "git add -A && git commit",
        7,
        true,
    ),
    q(
        "no-untracked",
        "commit",
        "Did no untracked, non-ignored file appear since the start?",
        "git status + task record",
        "commit, ignore or remove the new untracked files",
        9,
        true,
    ),
    q(
        "no-stash",
        "commit",
        "Is no stash entry made since the start left?",
        "stash reflog + task record",
        "apply or drop each stash entry made during the task, by its exact ref",
        9,
        true,
    ),
    q(
        "settled",
        "commit",
        "Is no merge, rebase, cherry-pick, revert or bisect in progress, and no path conflicted?",
        "git",
        "finish or abort the operation in progress, and resolve the conflicted paths",
        7,
        false,
    ),
    q(
        "pushed",
        "commit",
        "Is every commit on HEAD on its upstream (or on the trunk's remote-tracking branch)?",
        "git refs",
        "git push",
        8,
        false,
    ),
    q(
        "integrated",
        "integration",
        "Does the trunk reach HEAD, or hold its changes?",
        "git refs",
        "land HEAD's work on the trunk (merge, or merge its pull request)",
        8,
        false,
    ),
    q(
        "upstream-alive",
        "integration",
        "Does no local branch track an upstream that is gone?",
        "git config + refs",
        "git branch --unset-upstream BRANCH, or delete the branch once its work has landed",
        9,
        false,
    ),
    q(
        "no-new-debt",
        "closing",
        "Was no debt-baseline entry added since the start?",
        ".ai/repo/**/*-baseline.txt at the start and now",
        "take the added entries out of the baseline and fix what they permit",
        5,
        true,
    ),
    q(
        "nothing-accumulated",
        "closing",
        "Is no branch or linked worktree created since the start still there?",
        "task record snapshot + reflogs",
        "remove the branches and worktrees created during the task once their work has landed",
        8,
        true,
    ),
    q(
        "backlog-not-grown",
        "closing",
        "Is no pull request opened since the start still open?",
        "recorded forge observation",
        "merge or close the pull requests opened since the start, then majordomus forge refresh",
        8,
        true,
    ),
    q(
        "todos-done",
        "bookkeeping",
        "Is every todo declared for the task done?",
        "task ledger",
        "majordomus todo done N",
        7,
        true,
    ),
    q(
        "claims-released",
        "bookkeeping",
        "Is every issue the task claimed closed or released?",
        "task ledger + forge observation",
        "close the claimed issues, or majordomus issue release N",
        6,
        true,
    ),
    q(
        "filings-closed",
        "bookkeeping",
        "Is every issue the task filed closed, or a registered limitation?",
        "task ledger + forge observation",
        "close the filed issues, or register each as a limitation",
        6,
        true,
    ),
    q(
        "markers-live",
        "bookkeeping",
        "Does every LIMITATION marker added since the start name a live issue labelled limitation?",
        "change set + forge observation",
        "point each new LIMITATION marker at an open issue labelled limitation",
        6,
        true,
    ),
    q(
        "no-background-work",
        "bookkeeping",
        "Is no background process the task registered still running?",
        "task ledger + hook input",
        "wait for the background work to end, or stop it",
        7,
        true,
    ),
    q(
        "measurable",
        "bookkeeping",
        "Did the task make a commit or declare a todo?",
        "git + task ledger",
        "commit the work, or declare it: majordomus todo add TEXT",
        9,
        true,
    ),
];

/// The built-in question with this id.
pub fn find(id: &str) -> Option<&'static QuestionDef> {
    QUESTIONS.iter().find(|q| q.id == id)
}

// ---- what each status means, question by question (`majordomus explain`) ----

/// What each status a question can give means for that question, in the
/// order pass, owed, refused, unknown, exempt. A status the question never
/// gives is left out. `unknown` is always there: any reading can fail to be
/// taken, and the evidence then says why.
pub fn status_meanings(id: &str) -> &'static [(Status, &'static str)] {
    use Status::{Exempt, Owed, Pass, Refused, Unknown};
    const NO_TASK: &str = "the reading could not be taken: no task record (majordomus start), or git could not be read; the evidence says which";
    match id {
        "scoped" => &[
            (Pass, "every path changed since the start lies inside the declared scope"),
            (Refused, "a path changed since the start lies outside the scope; the evidence names it"),
            (Unknown, NO_TASK),
            (Exempt, "the task declared no scope, so every path is in it"),
        ],
        "gates-green" => &[
            (Pass, "every required gate the change selects has a recorded run over the current inputs, and it passed"),
            (Owed, "a selected gate was never run, or its inputs changed since its run (stale): run it"),
            (Refused, "a selected gate's recorded run over the current inputs failed"),
            (Unknown, "the policy or the gate-run ledger could not be read, or there is no task record"),
            (Exempt, "the policy declares no gates"),
        ],
        "regression-tested" => &[
            (Pass, "a path changed since the start is a test"),
            (Owed, "paths changed since the start, and none of them is a test"),
            (Unknown, NO_TASK),
            (Exempt, "nothing changed since the start, so there is nothing to test"),
        ],
        "committed" => &[
            (Pass, "no tracked file changed since the start is uncommitted (files already dirty at the start and untouched since are named, not counted)"),
            (Owed, "a tracked file changed since the start is not committed; the evidence names it"),
            (Unknown, NO_TASK),
            (Exempt, "every path it names was acknowledged as not this task's work (majordomus ack), with the reason shown; one more brings it back"),
        ],
        "no-untracked" => &[
            (Pass, "no untracked, non-ignored file appeared since the start"),
            (Owed, "an untracked file appeared since the start: commit, ignore or remove it"),
            (Unknown, NO_TASK),
            (Exempt, "every path it names was acknowledged as not this task's work (majordomus ack), with the reason shown; one more brings it back"),
        ],
        "no-stash" => &[
            (Pass, "no stash entry made since the start remains"),
            (Owed, "a stash entry made since the start remains: apply or drop it by its exact ref"),
            (Unknown, NO_TASK),
        ],
        "settled" => &[
            (Pass, "no merge, rebase, cherry-pick, revert or bisect is in progress and no path is conflicted"),
            (Owed, "an operation is in progress or a path is conflicted: finish or abort it"),
            (Unknown, "git's state could not be read; the evidence says why"),
        ],
        "pushed" => &[
            (Pass, "every commit on HEAD made since the start is on its upstream, or on the trunk's remote-tracking branch where there is no upstream"),
            (Owed, "a commit made since the start is on HEAD and not on the remote: push it"),
            (Unknown, "the refs could not be compared: no remote-tracking trunk, or the start commit is missing"),
            (Exempt, "the repository has no remote, or HEAD has no commit yet"),
        ],
        "integrated" => &[
            (Pass, "the trunk reaches HEAD, or held every change HEAD made with the same content at its tip or at a commit since the merge base (squash-merged)"),
            (Owed, "the trunk neither reaches HEAD nor holds its changes: land the work"),
            (Unknown, "no trunk was found, or the refs could not be read; name the trunk in the policy"),
            (Exempt, "HEAD has no commit yet"),
        ],
        "upstream-alive" => &[
            (Pass, "no local branch tracks an upstream that is gone"),
            (Owed, "a local branch tracks an upstream that is gone: unset it, or delete the branch once its work has landed"),
            (Unknown, "the branches could not be read"),
        ],
        "no-new-debt" => &[
            (Pass, "no debt-baseline entry was added since the start"),
            (Refused, "a baseline gained an entry since the start, committed or not: debt the change created and permitted itself"),
            (Unknown, "the baselines at the start or now could not be read, or there is no task record"),
        ],
        "nothing-accumulated" => &[
            (Pass, "no branch or linked worktree created since the start still exists"),
            (Owed, "a branch or worktree created since the start (by anyone) is still there: remove it once its work has landed"),
            (Unknown, "the reflogs or the start snapshot could not be read, or there is no task record"),
            (Exempt, "every branch or worktree it names was acknowledged as not this task's work (majordomus ack), with the reason shown; one more brings it back"),
        ],
        "backlog-not-grown" => &[
            (Pass, "the forge observation, taken since the start, shows no pull request opened since the start still open"),
            (Owed, "a pull request opened since the start is still open: merge or close it"),
            (Unknown, "no forge observation was recorded since the start (majordomus forge refresh), or there is no task record"),
            (Exempt, "the policy exempts it, with its reason"),
        ],
        "todos-done" => &[
            (Pass, "every todo declared for the task is done"),
            (Owed, "a declared todo is not done"),
            (Unknown, "the task ledger could not be read, or there is no task record"),
        ],
        "claims-released" => &[
            (Pass, "every issue the task claimed is closed or released"),
            (Owed, "a claimed issue is still open and held: close or release it"),
            (Unknown, "the ledger or the forge observation could not say whether a claimed issue is closed"),
        ],
        "filings-closed" => &[
            (Pass, "every issue the task filed is closed, or is a registered limitation"),
            (Owed, "an issue the task filed is still open and is not a registered limitation"),
            (Unknown, "the ledger or the forge observation could not say whether a filed issue is closed"),
        ],
        "markers-live" => &[
            (Pass, "every LIMITATION marker added since the start names an open issue labelled limitation"),
            (Refused, "a marker added since the start names no issue, a closed one, a pull request, or one not labelled limitation"),
            (Unknown, "the change set or the forge observation could not be read, so a new marker cannot be verified"),
        ],
        "no-background-work" => &[
            (Pass, "no background process the task registered, and none the agent reported at its last stop, is still running"),
            (Owed, "background work is still running: wait for it to end, or stop it"),
            (Unknown, "the ledger could not be read, or a registered process could not be looked at"),
        ],
        "measurable" => &[
            (Pass, "the task made a commit or declared a todo, so there is something to measure"),
            (Owed, "nothing measurable: no commit since the start and no todo declared"),
            (Unknown, NO_TASK),
        ],
        _ => &[],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_in_invariant_order() {
        let ids: Vec<_> = QUESTIONS.iter().map(|q| q.id).collect();
        let mut unique = ids.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), ids.len(), "duplicate question id");
        insta::assert_snapshot!(ids.join("\n"));
    }

    #[test]
    fn every_question_has_a_source_a_remedy_and_a_cap_below_ten() {
        for q in QUESTIONS {
            assert!(!q.source.is_empty() && !q.remedy.is_empty(), "{}", q.id);
            assert!(q.question.ends_with('?'), "{}", q.id);
            assert!((1..10).contains(&q.cap), "{}", q.id);
        }
    }

    #[test]
    fn every_question_says_what_its_statuses_mean_and_unknown_is_always_among_them() {
        for q in QUESTIONS {
            let meanings = status_meanings(q.id);
            assert!(meanings.iter().any(|(s, _)| *s == Status::Unknown), "{}", q.id);
            assert!(meanings.iter().any(|(s, _)| *s == Status::Pass), "{}", q.id);
            let order: Vec<Status> = meanings.iter().map(|(s, _)| *s).collect();
            let mut sorted = order.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(order, sorted, "{}: statuses out of order or repeated", q.id);
            assert!(meanings.iter().all(|(_, m)| !m.is_empty()), "{}", q.id);
        }
        assert!(status_meanings("no-such-question").is_empty());
    }

    #[test]
    fn the_default_caps_are_the_designs() {
        let caps: Vec<_> = QUESTIONS.iter().map(|q| format!("{}={}", q.id, q.cap)).collect();
        insta::assert_snapshot!(caps.join("\n"));
    }
}
