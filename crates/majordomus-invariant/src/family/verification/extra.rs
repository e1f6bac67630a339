//! The policy's extra questions (`[[questions]]` in
//! `.ai/repo/majordomus.toml`): each is answered by one declared gate,
//! judged like `gates-green` for that gate alone, and follows the built-in
//! questions in the document.

use majordomus_readings::Unread;
use majordomus_records::policy::ExtraQuestion;

use super::judge::{
    gate_clause, gate_details, gate_state, no_change_matches, rerun_from_the_start, start_environment, Elsewhere,
    GateState,
};
use crate::answer::{Answer, RemedyKind, Status};
use crate::judgement::{without_task, Judgement};
use crate::prose::{sentence, shell_word};
use crate::readings::Readings;

/// A policy question answered by one gate: judged like gates-green for
/// that gate alone (its `required` flag aside: the question asks for it).
pub(crate) fn gate_question(q: &ExtraQuestion, r: &Readings) -> Judgement {
    if let Some(without) = without_task(&r.task) {
        return without;
    }
    let set = match &r.verification.gates {
        Ok(s) => s,
        Err(e) => return Judgement::unread(e),
    };
    let Some(g) = set.get(&q.gate) else {
        return Judgement::unread(&Unread::policy(format!(
            "the gate {} that answers this question was not among the gates read",
            q.gate
        )));
    };
    let start = start_environment(r);
    let details = gate_details(g, start);
    if !g.selected() && !g.known_failing() {
        let why = if set.changed == 0 {
            "nothing changed since the start and it is not marked always".to_string()
        } else if g.inputs.is_empty() {
            "it has no inputs and is not marked always".to_string()
        } else {
            format!("{} its inputs ({})", no_change_matches(set.changed), g.inputs.join(", "))
        };
        return Judgement::new(
            Status::Pass,
            format!("The gate {} is not selected, so it has nothing to answer: {why}.", g.id),
            details,
        );
    }
    let state = match &g.runs {
        Some(runs) => gate_state(runs, start),
        None => GateState::NeverReported,
    };
    let v = Judgement::new(state.status(), sentence(&format!("The gate {}", gate_clause(&g.id, &state))), details);
    match &state {
        _ if state.status() == Status::Refused => {
            v.remedy(format!("fix what the gate {} reports, then majordomus gate run {}", g.id, g.id))
        }
        GateState::Elsewhere { why: Elsewhere::Differs(d), .. } => {
            v.remedy(rerun_from_the_start(&d.iter().collect::<Vec<_>>(), &[g.id.as_str()]))
        }
        _ => v.command(format!("majordomus gate run {}", shell_word(&g.id))),
    }
}

pub(crate) fn finish_extra(q: &ExtraQuestion, v: Judgement) -> Answer {
    Answer {
        id: q.id.clone(),
        stage: q.stage.clone(),
        question: q.question.clone(),
        status: v.status,
        evidence: v.evidence,
        source: format!(".ai/repo/majordomus.toml + gate-run ledger (gate {})", q.gate),
        remedy_kind: if v.remedy.is_some() { v.remedy_kind } else { RemedyKind::Command },
        remedy: v.remedy.unwrap_or_else(|| format!("majordomus gate run {}", shell_word(&q.gate))),
        details: v.details,
    }
}
