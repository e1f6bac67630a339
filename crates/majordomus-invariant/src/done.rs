//! The one place a question meets its judge: every built-in question of the
//! invariant, in order, dispatched to its family's judging, then the
//! acknowledgements and the policy's exemptions applied; then the policy's
//! extra questions.
//!
//! Nothing here or in a family's `judge.rs` performs I/O: what it knows, it
//! was handed in [`Readings`]. The rules every judge keeps:
//!
//! - A reading that was not taken is `unknown`, with the reason it gives.
//!   With nothing behind it, no question passes.
//! - What the repository already held at the start is inherited: named in
//!   the evidence, never counted against the task.
//! - Evidence is a sentence of what was read, never the status again; the
//!   `details` carry the same facts as data.

use majordomus_records::policy::{ExtraQuestion, Policy};

use crate::answer::{Answer, RemedyKind};
use crate::exemptions::exempted;
use crate::family::{bookkeeping, closing, commit, integration, scope, verification};
use crate::judgement::{with_task, Judgement};
use crate::question::{QuestionDef, QuestionId, QUESTIONS};
use crate::readings::Readings;

/// Answers every question of the invariant, in order: the built-in ones,
/// then the policy's extra questions; then the policy's exemptions, as of
/// `readings.today`.
pub fn answer_all(readings: &Readings, policy: &Policy) -> Vec<Answer> {
    let builtin = QUESTIONS.iter().map(|q| {
        let judged = crate::restart::name_previous(q.id, judge(q.id, readings), readings);
        let judged = bookkeeping::ack::acknowledge(q.id, judged, readings);
        let judged = crate::orphans::hold(q.id, judged, readings);
        finish(q, exempted(q.id.as_str(), judged, policy, readings))
    });
    let extra = policy.questions.iter().map(|q| extra(q, readings, policy));
    builtin.chain(extra).collect()
}

/// Answers every question under the policy in force (`src/in_force/`):
/// [`answer_all`] over it, then `gates-green` held open while the working
/// tree's policy cannot be read, and a failure under a gate's command the
/// policy file changed since said to be the start's command's.
pub fn answer_in_force(readings: &Readings, force: &crate::in_force::InForce) -> Vec<Answer> {
    let mut answers = answer_all(readings, &force.policy);
    crate::in_force::hold_open(&mut answers, force.finding.as_ref());
    crate::in_force::name_commands_in_force(&mut answers, force.finding.as_ref());
    answers
}

/// Judges one built-in question. The match is exhaustive: a question with
/// no judge does not compile. Those that need a task record get it, or
/// answer `unknown` saying there is none (`with_task`).
fn judge(id: QuestionId, r: &Readings) -> Judgement {
    use QuestionId as Q;
    let task = &r.task;
    match id {
        Q::Scoped => with_task(task, |t| scope::judge::scoped(t, r)),
        Q::GatesGreen => with_task(task, |_| verification::judge::gates_green(r)),
        Q::RegressionTested => with_task(task, |_| verification::judge::regression_tested(r)),
        Q::Committed => with_task(task, |_| commit::judge::committed(r)),
        Q::NoUntracked => with_task(task, |t| commit::judge::no_untracked(t, r)),
        Q::NoStash => with_task(task, |t| commit::judge::no_stash(t, r)),
        Q::Settled => commit::judge::settled(r),
        Q::Pushed => commit::judge::pushed(r),
        Q::Integrated => integration::judge::integrated(r),
        Q::UpstreamAlive => integration::judge::upstream_alive(r),
        Q::NoNewDebt => with_task(task, |_| closing::judge::no_new_debt(r)),
        Q::NothingAccumulated => with_task(task, |t| closing::judge::nothing_accumulated(t, r)),
        Q::BacklogNotGrown => with_task(task, |t| closing::judge::backlog_not_grown(t, r)),
        Q::TodosDone => with_task(task, |_| bookkeeping::judge::todos_done(r)),
        Q::ClaimsReleased => with_task(task, |_| bookkeeping::judge::claims_released(r)),
        Q::FilingsClosed => with_task(task, |_| bookkeeping::judge::filings_closed(r)),
        Q::MarkersLive => with_task(task, |_| bookkeeping::judge::markers_live(r)),
        Q::NoBackgroundWork => with_task(task, |_| bookkeeping::judge::no_background_work(r)),
        Q::Measurable => with_task(task, |_| bookkeeping::judge::measurable(r)),
    }
}

fn finish(q: &QuestionDef, v: Judgement) -> Answer {
    Answer {
        id: q.id.as_str().to_string(),
        stage: q.stage.to_string(),
        question: q.question.to_string(),
        status: v.status,
        evidence: v.evidence,
        source: q.source.to_string(),
        remedy_kind: if v.remedy.is_some() { v.remedy_kind } else { RemedyKind::Advice },
        remedy: v.remedy.unwrap_or_else(|| q.remedy.to_string()),
        details: v.details,
    }
}

/// A policy question: answered by its gate (`src/family/verification/extra.rs`),
/// then the policy's exemption of it, if any.
fn extra(q: &ExtraQuestion, r: &Readings, policy: &Policy) -> Answer {
    let judged = verification::extra::gate_question(q, r);
    verification::extra::finish_extra(q, exempted(&q.id, judged, policy, r))
}

#[cfg(test)]
mod tests;
