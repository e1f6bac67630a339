//! What the commit family asks: each question's text, the source that
//! answers it, its remedy, its default cap, and what each of its statuses
//! means (`majordomus explain`). The invariant's order is kept in
//! [`crate::question::QUESTIONS`].

use crate::answer::Status::{Exempt, Owed, Pass, Unknown};
use crate::question::{QuestionDef, QuestionId, UNREAD_WITHOUT_TASK};

pub const COMMITTED: QuestionDef = QuestionDef {
    id: QuestionId::Committed,
    stage: super::STAGE,
    question: "Is every tracked file changed since the start committed?",
    source: "git status + task record",
    remedy: "commit the tracked files changed since the start, and only those: git commit -- PATH...",
    cap: 7,
    needs_task: true,
    meanings: &[
        (Pass, "no tracked file changed since the start is uncommitted (files already dirty at the start and untouched since are named, not counted)"),
        (Owed, "a tracked file changed since the start is not committed; the evidence names it"),
        (Unknown, UNREAD_WITHOUT_TASK),
        (Exempt, "every path it names was acknowledged as not this task's work (majordomus ack), with the reason shown; one more brings it back"),
    ],
};

pub const NO_UNTRACKED: QuestionDef = QuestionDef {
    id: QuestionId::NoUntracked,
    stage: super::STAGE,
    question: "Did no untracked, non-ignored file appear since the start?",
    source: "git status + task record",
    remedy: "commit, ignore or remove the new untracked files",
    cap: 9,
    needs_task: true,
    meanings: &[
        (Pass, "no untracked, non-ignored file appeared since the start"),
        (Owed, "an untracked file appeared since the start: commit, ignore or remove it"),
        (Unknown, UNREAD_WITHOUT_TASK),
        (Exempt, "every path it names was acknowledged as not this task's work (majordomus ack), with the reason shown; one more brings it back"),
    ],
};

pub const NO_STASH: QuestionDef = QuestionDef {
    id: QuestionId::NoStash,
    stage: super::STAGE,
    question: "Is no stash entry made since the start left?",
    source: "stash reflog + task record",
    remedy: "apply or drop each stash entry made during the task, by its exact ref",
    cap: 9,
    needs_task: true,
    meanings: &[
        (Pass, "no stash entry made since the start remains, here or in a submodule checked out here"),
        (Owed, "a stash entry made since the start remains (in a submodule: the evidence names it): apply or drop it by its exact ref"),
        (Unknown, UNREAD_WITHOUT_TASK),
    ],
};

pub const SETTLED: QuestionDef = QuestionDef {
    id: QuestionId::Settled,
    stage: super::STAGE,
    question: "Is no merge, rebase, am session, cherry-pick, revert or bisect in progress, and no path conflicted?",
    source: "git",
    remedy: "finish or abort the operation in progress, and resolve the conflicted paths",
    cap: 7,
    needs_task: false,
    meanings: &[
        (Pass, "git status would report no merge, rebase, am session, cherry-pick, revert or bisect in progress (the sequencer read too), and no path is conflicted"),
        (Owed, "an operation is in progress or a path is conflicted: finish or abort it"),
        (Unknown, "git's state could not be read; the evidence says why"),
    ],
};

pub const PUSHED: QuestionDef = QuestionDef {
    id: QuestionId::Pushed,
    stage: super::STAGE,
    question: "Is every commit this worktree made since the start (on any branch, or in a submodule it moved) on a remote?",
    source: "git refs + reflogs + task record",
    remedy: "push HEAD's branch and each branch named to the remote: git push -u REMOTE BRANCH",
    cap: 8,
    needs_task: false,
    meanings: &[
        (Pass, "every commit made since the start on HEAD, and on another branch by this worktree, is on a remote-tracking ref that counts as evidence (its remote was there at the start with the same URL, and the ref moved only by a fetch or push of it), or its change is on the trunk (squash- or rebase-merged, the branch deleted on the forge); each submodule whose commit changed points at a commit its remote holds, and no branch or ref of a submodule checked out here made or moved since the start holds a commit its remote lacks"),
        (Owed, "a commit made since the start is on no remote: the evidence names the branch (or submodule) and the commits; refs not counted are named too"),
        (Unknown, "the refs could not be compared: no remote-tracking ref counts, a grafts file rewrites history, the start commit is missing, or the task record does not hold the remotes at the start"),
        (Exempt, "the repository has no remote and had none at the start, or HEAD has no commit yet"),
    ],
};
