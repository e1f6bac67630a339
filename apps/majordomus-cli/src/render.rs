//! The human text of `check`, rendered from the document alone.

use majordomus_gates::Document;

/// One block per open question (status, id, evidence, remedy), then the
/// done line.
pub fn check_text(doc: &Document) -> String {
    let width = doc.open().map(|a| a.id.len()).max().unwrap_or(0);
    let mut out = String::new();
    for a in doc.open() {
        out.push_str(&format!("{:<8} {:<width$}  {}\n", a.status.as_str(), a.id, a.evidence));
        out.push_str(&format!("{:<8} {:<width$}  remedy: {}\n", "", "", a.remedy));
    }
    out.push_str(&doc.done_line());
    out.push('\n');
    out
}
