//! What the closing family asks: each question's text, the source that
//! answers it, its remedy, its default cap, and what each of its statuses
//! means (`majordomus explain`). The invariant's order is kept in
//! [`crate::question::QUESTIONS`].

use crate::answer::Status::{Exempt, Owed, Pass, Refused, Unknown};
use crate::question::{QuestionDef, QuestionId};

pub const NO_NEW_DEBT: QuestionDef = QuestionDef {
    id: QuestionId::NoNewDebt,
    stage: super::STAGE,
    question: "Was no debt-baseline entry added since the start?",
    source: ".ai/repo/**/*-baseline.txt at the start and now",
    remedy: "take the added entries out of the baseline and fix what they permit",
    cap: 5,
    needs_task: true,
    meanings: &[
        (Pass, "no debt-baseline entry was added since the start"),
        (Refused, "a baseline gained an entry since the start, committed or not: debt the change created and permitted itself"),
        (Unknown, "the baselines at the start or now could not be read, or there is no task record"),
    ],
};

pub const NOTHING_ACCUMULATED: QuestionDef = QuestionDef {
    id: QuestionId::NothingAccumulated,
    stage: super::STAGE,
    question: "Is no branch or linked worktree created since the start still there?",
    source: "task record snapshot + reflogs",
    remedy: "remove the branches and worktrees created during the task once their work has landed",
    cap: 8,
    needs_task: true,
    meanings: &[
        (Pass, "no branch or linked worktree created since the start still exists, here or in a submodule checked out here"),
        (Owed, "a branch or worktree created since the start (by anyone) is still there: remove it once its work has landed"),
        (Unknown, "the reflogs or the start snapshot could not be read, or there is no task record"),
        (Exempt, "every branch or worktree it names was acknowledged as not this task's work (majordomus ack), with the reason shown; one more brings it back"),
    ],
};

pub const BACKLOG_NOT_GROWN: QuestionDef = QuestionDef {
    id: QuestionId::BacklogNotGrown,
    stage: super::STAGE,
    question: "Is no pull request opened since the start still open?",
    source: "recorded forge observation (<commondir>/majordomus/forge.json)",
    remedy: "merge or close the pull requests opened since the start, then majordomus forge refresh",
    cap: 8,
    needs_task: true,
    meanings: &[
        (Pass, "the forge observation, taken since the start, shows no pull request opened since the start still open"),
        (Owed, "a pull request opened since the start is still open: merge or close it"),
        (
            Unknown,
            "no forge observation was recorded since the start (majordomus forge refresh), or the one recorded is not \
             the forge's word (typed in where the policy does not declare [forge] provider = \"recorded\", observed \
             through a gh or glab other than the one the task's start PATH finds), or there is no task record",
        ),
        (
            Exempt,
            "the policy declares no forge ([forge] provider = \"none\"), or sets none where every remote is a \
             directory on this machine, or exempts it, with its reason",
        ),
    ],
};
