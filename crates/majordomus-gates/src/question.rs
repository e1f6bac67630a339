//! The done invariant's questions: one ordered registry, each with its id,
//! stage, the question it asks, the source that answers it, the remedy that
//! settles it and its default cap on the completion score.
//!
//! The ids and their order are a contract. A snapshot test of this list
//! makes renaming or reordering a question a reviewed change.

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
    q("scoped", "scope", "Does every path changed since the start lie inside the task's declared scope?",
      "task record + git", "revert the changes outside the scope, or start the task again with a wider --scope", 6, true),
    q("gates-green", "verification", "Has every required gate the change selects a recorded, passing run over the current inputs?",
      ".ai/repo/majordomus.toml + gate-run ledger", "majordomus gate run --all", 5, true),
    q("regression-tested", "verification", "Does the change touch a test?",
      "change set", "add or change a test that would catch a regression of this change", 9, true),
    q("committed", "commit", "Is every tracked file changed since the start committed?",
      "git status + task record", "git add -A && git commit", 7, true),
    q("no-untracked", "commit", "Did no untracked, non-ignored file appear since the start?",
      "git status + task record", "commit, ignore or remove the new untracked files", 9, true),
    q("no-stash", "commit", "Is no stash entry made since the start left?",
      "stash reflog + task record", "apply or drop each stash entry made during the task, by its exact ref", 9, true),
    q("settled", "commit", "Is no merge, rebase, cherry-pick, revert or bisect in progress, and no path conflicted?",
      "git", "finish or abort the operation in progress, and resolve the conflicted paths", 7, false),
    q("pushed", "commit", "Is every commit on HEAD on its upstream (or on the trunk's remote-tracking branch)?",
      "git refs", "git push", 8, false),
    q("integrated", "integration", "Does the trunk reach HEAD, or hold its changes?",
      "git refs", "land HEAD's work on the trunk (merge, or merge its pull request)", 8, false),
    q("upstream-alive", "integration", "Does no local branch track an upstream that is gone?",
      "git config + refs", "git branch --unset-upstream BRANCH, or delete the branch once its work has landed", 9, false),
    q("no-new-debt", "closing", "Was no debt-baseline entry added since the start?",
      ".ai/repo/**/*-baseline.txt at the start and now", "take the added entries out of the baseline and fix what they permit", 5, true),
    q("nothing-accumulated", "closing", "Is no branch or linked worktree created since the start still there?",
      "task record snapshot + reflogs", "remove the branches and worktrees created during the task once their work has landed", 8, true),
    q("backlog-not-grown", "closing", "Is no pull request opened since the start still open?",
      "recorded forge observation", "merge or close the pull requests opened since the start, then majordomus forge refresh", 8, true),
    q("todos-done", "bookkeeping", "Is every todo declared for the task done?",
      "task ledger", "majordomus todo done N", 7, true),
    q("claims-released", "bookkeeping", "Is every issue the task claimed closed or released?",
      "task ledger + forge observation", "close the claimed issues, or majordomus issue release N", 6, true),
    q("filings-closed", "bookkeeping", "Is every issue the task filed closed, or a registered limitation?",
      "task ledger + forge observation", "close the filed issues, or register each as a limitation", 6, true),
    q("markers-live", "bookkeeping", "Does every LIMITATION marker added since the start name a live issue labelled limitation?",
      "change set + forge observation", "point each new LIMITATION marker at an open issue labelled limitation", 6, true),
    q("no-background-work", "bookkeeping", "Is no background process the task registered still running?",
      "task ledger + hook input", "wait for the background work to end, or stop it", 7, true),
    q("measurable", "bookkeeping", "Did the task make a commit or declare a todo?",
      "git + task ledger", "commit the work, or declare it: majordomus todo add TEXT", 9, true),
];

/// The built-in question with this id.
pub fn find(id: &str) -> Option<&'static QuestionDef> {
    QUESTIONS.iter().find(|q| q.id == id)
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
    fn the_default_caps_are_the_designs() {
        let caps: Vec<_> = QUESTIONS.iter().map(|q| format!("{}={}", q.id, q.cap)).collect();
        insta::assert_snapshot!(caps.join("\n"));
    }
}
