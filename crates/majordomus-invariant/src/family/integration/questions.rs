//! What the integration family asks: each question's text, the source that
//! answers it, its remedy, its default cap, and what each of its statuses
//! means (`majordomus explain`). The invariant's order is kept in
//! [`crate::question::QUESTIONS`].

use crate::answer::Status::{Exempt, Owed, Pass, Unknown};
use crate::question::{QuestionDef, QuestionId};

pub const INTEGRATED: QuestionDef = QuestionDef {
    id: QuestionId::Integrated,
    stage: super::STAGE,
    question: "Does the trunk reach HEAD, or hold its changes?",
    source: "git refs",
    remedy: "land HEAD's work on the trunk (merge, or merge its pull request)",
    cap: 8,
    needs_task: false,
    meanings: &[
        (Pass, "the trunk (the one recorded at the start, read where its remote-tracking ref counts as evidence) reaches HEAD, or holds every change HEAD made with the same content and mode at its tip, or held them at a commit since the merge base (squash-merged) and has not undone them since"),
        (Owed, "the trunk neither reaches HEAD nor holds its changes (a mode included), or undid a squash merge of them: land the work"),
        (Unknown, "no trunk was found, its ref is not evidence of its remote, a grafts file rewrites history, or the refs could not be read"),
        (Exempt, "HEAD has no commit yet"),
    ],
};

pub const UPSTREAM_ALIVE: QuestionDef = QuestionDef {
    id: QuestionId::UpstreamAlive,
    stage: super::STAGE,
    question: "Does no local branch track an upstream that is gone?",
    source: "git config + refs",
    remedy: "git branch --unset-upstream BRANCH, or delete the branch once its work has landed",
    cap: 9,
    needs_task: false,
    meanings: &[
        (Pass, "no local branch tracks an upstream that went since the start (one already gone at the start is named, not counted)"),
        (
            Owed,
            "a local branch tracks an upstream that is gone (or exists only by a ref made by hand since the start): unset it, or delete the branch once its work has landed",
        ),
        (Unknown, "the branches could not be read"),
    ],
};
