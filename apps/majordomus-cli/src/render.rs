//! The human text of `check`, rendered from the document alone.

use majordomus_gates::{Answer, Document};

/// One block per open question (status, id, evidence, remedy), then the
/// done line. Consecutive questions open for the same reason (no task
/// record, say) share one block instead of repeating it.
pub fn check_text(doc: &Document) -> String {
    let open: Vec<&Answer> = doc.open().collect();
    let mut groups: Vec<Vec<&Answer>> = Vec::new();
    for a in open {
        match groups.last_mut() {
            Some(g) if same_reason(g[0], a) => g.push(a),
            _ => groups.push(vec![a]),
        }
    }
    let label = |g: &[&Answer]| g.iter().map(|a| a.id.as_str()).collect::<Vec<_>>().join(", ");
    let width = groups.iter().filter(|g| g.len() == 1).map(|g| g[0].id.len()).max().unwrap_or(0);
    let mut out = String::new();
    for g in &groups {
        let a = g[0];
        if g.len() == 1 {
            out.push_str(&format!("{:<8} {:<width$}  {}\n", a.status.as_str(), a.id, a.evidence));
            out.push_str(&format!("{:<8} {:<width$}  remedy: {}\n", "", "", a.remedy));
        } else {
            out.push_str(&format!("{:<8} {}\n", a.status.as_str(), label(g)));
            out.push_str(&format!("{:<8} {}\n", "", a.evidence));
            out.push_str(&format!("{:<8} remedy: {}\n", "", a.remedy));
        }
    }
    out.push_str(&doc.done_line());
    out.push('\n');
    out
}

fn same_reason(a: &Answer, b: &Answer) -> bool {
    a.status == b.status && a.evidence == b.evidence && a.remedy == b.remedy
}
