//! `check` in GitHub Actions: workflow-command annotations on standard
//! output, and a Markdown summary for the job's page.
//!
//! A CI reader should meet what matters first, as the agent does in the
//! stop hook's reason: the open questions go most important first (lowest
//! cap, then invariant order, [`by_importance`]). An annotation names a
//! file (`file=`, and `line=` where known) when the answer's details name a
//! path, so GitHub shows it beside the code. GitHub shows at most 10 error
//! and 10 warning annotations of a step; past that the rest of a level is
//! folded into one last annotation of that level that counts and names
//! them, so nothing open is silently dropped.
//!
//! When `GITHUB_STEP_SUMMARY` names a file, `check` appends [`step_summary`]
//! to it: the done line, the score, and a table of the open questions with
//! their evidence and remedy.

use majordomus_invariant::{score, Answer, Document, Status};
use serde_json::Value;

/// The annotations of one level GitHub shows per step.
pub const SHOWN_PER_LEVEL: usize = 10;

/// The open questions, most important first: the lowest cap, then the
/// invariant order (the order the stop hook names them in). The caps are
/// the document's own (the policy's overrides applied); a document that
/// carries none is ordered by the built-in caps.
pub fn by_importance(doc: &Document) -> Vec<&Answer> {
    let open: Vec<&Answer> = doc.open().collect();
    let caps = if doc.caps.len() == open.len() {
        doc.caps.clone()
    } else {
        score::score(&doc.questions, &Default::default()).1
    };
    let mut ordered: Vec<&Answer> = caps.iter().filter_map(|c| open.iter().find(|a| a.id == c.id).copied()).collect();
    // Anything the caps did not name keeps its place after them.
    ordered.extend(open.iter().filter(|a| !caps.iter().any(|c| c.id == a.id)).copied());
    ordered
}

/// GitHub Actions workflow commands: one annotation per open question
/// (`::error` for refused, `::warning` for owed and unknown), most
/// important first, folded past [`SHOWN_PER_LEVEL`] of a level; then the
/// done line as plain text.
pub fn github(doc: &Document) -> String {
    let ordered = by_importance(doc);
    let level = |a: &Answer| if a.status == Status::Refused { "error" } else { "warning" };
    let count = |l: &str| ordered.iter().filter(|a| level(a) == l).count();
    let mut shown = std::collections::BTreeMap::<&str, usize>::new();
    let mut folded: Vec<(&str, Vec<&Answer>)> = Vec::new();
    let mut out = String::new();
    for a in &ordered {
        let l = level(a);
        let n = shown.entry(l).or_default();
        // A level with more than fits keeps its last place for the fold.
        if count(l) > SHOWN_PER_LEVEL && *n >= SHOWN_PER_LEVEL - 1 {
            match folded.iter_mut().find(|(f, _)| *f == l) {
                Some((_, list)) => list.push(a),
                None => folded.push((l, vec![a])),
            }
            continue;
        }
        *n += 1;
        let mut properties = Vec::new();
        if let Some((file, line)) = location(a) {
            properties.push(format!("file={}", escape_property(&file)));
            if let Some(line) = line {
                properties.push(format!("line={line}"));
            }
        }
        properties.push(format!("title={}", escape_property(&format!("majordomus: {} is {}", a.id, a.status))));
        let message = format!("{}\n{}: {}", a.evidence, a.remedy_kind.label(), a.remedy);
        out.push_str(&format!("::{l} {}::{}\n", properties.join(","), escape_data(&message)));
    }
    for (l, rest) in folded {
        let ids: Vec<String> = rest.iter().map(|a| format!("{}={}", a.id, a.status)).collect();
        let title = format!("majordomus: {} more open", rest.len());
        let message = format!(
            "GitHub shows {SHOWN_PER_LEVEL} {l}s a step, so these {} are folded here: {}.\nrun majordomus check for each one's evidence and remedy",
            rest.len(),
            ids.join(" ")
        );
        out.push_str(&format!("::{l} title={}::{}\n", escape_property(&title), escape_data(&message)));
    }
    out.push_str(&doc.done_line());
    out.push('\n');
    out
}

/// The file (repository-relative) and line an open answer's details name
/// first, where they name one: the path outside the scope, uncommitted,
/// untracked or conflicted, the baseline that grew, the marker refused, the
/// path the trunk lacks.
pub fn location(answer: &Answer) -> Option<(String, Option<u64>)> {
    let d = &answer.details;
    let first = |key: &str| d.get(key).and_then(Value::as_array).and_then(|l| l.first()).and_then(Value::as_str);
    let path = match answer.id.as_str() {
        "scoped" => first("outside"),
        "committed" => first("uncommitted"),
        "no-untracked" => first("untracked"),
        "settled" => first("conflicted"),
        "integrated" => first("missing"),
        "no-new-debt" => d.get("baselines").and_then(Value::as_array).and_then(|rows| {
            rows.iter()
                .find(|r| r.get("added").and_then(Value::as_array).is_some_and(|a| !a.is_empty()))
                .and_then(|r| r.get("path"))
                .and_then(Value::as_str)
        }),
        "markers-live" => {
            let marker = d.get("markers").and_then(Value::as_array).and_then(|ms| {
                ms.iter().find(|m| !matches!(m.get("status").and_then(Value::as_str), Some("pass" | "exempt")))
            })?;
            let path = marker.get("path").and_then(Value::as_str)?;
            return Some((path.to_string(), marker.get("line").and_then(Value::as_u64)));
        }
        _ => None,
    }?;
    Some((path.to_string(), None))
}

/// The Markdown `check` appends to `GITHUB_STEP_SUMMARY`: the done line,
/// the score, and each open question (most important first) with its
/// evidence and remedy.
pub fn step_summary(doc: &Document) -> String {
    let heading = if doc.complete { "done" } else { "not done" };
    let mut out = format!("## majordomus: {heading}\n\n`{}`\n\nScore: **{}/10**\n", cell(&doc.done_line()), doc.score);
    let ordered = by_importance(doc);
    if !ordered.is_empty() {
        out.push_str("\n| question | status | evidence | remedy |\n|---|---|---|---|\n");
        for a in ordered {
            out.push_str(&format!(
                "| `{}` | {} | {} | {} |\n",
                cell(&a.id),
                a.status,
                cell(&a.evidence),
                cell(&a.remedy)
            ));
        }
    }
    out.push('\n');
    out
}

/// Text made safe for one Markdown table cell: no line breaks, no `|`, no
/// backtick that would end a code span, no control character.
fn cell(s: &str) -> String {
    super::escape_text(&s.replace("\r\n", " ").replace(['\n', '\r'], " ")).replace('|', "\\|").replace('`', "'")
}

/// A workflow command's message: `%`, CR and LF are escaped.
fn escape_data(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// A workflow command's property value: the message's escapes, and `:` and `,`.
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn a(id: &str, status: Status, evidence: &str, details: Value) -> Answer {
        Answer {
            id: id.into(),
            stage: "s".into(),
            question: "q?".into(),
            status,
            evidence: evidence.into(),
            source: "src".into(),
            remedy: "git push".into(),
            remedy_kind: majordomus_invariant::RemedyKind::Command,
            details,
        }
    }

    fn doc(answers: Vec<Answer>) -> Document {
        let mut d = Document::new(chrono::Utc::now(), "/r".into(), None, None, answers, 5);
        let (score, caps) = score::score(&d.questions, &Default::default());
        d.score = score;
        d.caps = caps;
        d
    }

    #[test]
    fn annotations_go_most_important_first_errors_for_refused_naming_the_file_then_the_done_line() {
        let d = doc(vec![
            a("scoped", Status::Pass, "All in scope.", json!({})),
            a("committed", Status::Owed, "1 file: src/a,b.rs.", json!({ "uncommitted": ["src/a,b.rs"] })),
            a("pushed", Status::Owed, "2 commits are not on origin/main.", json!({})),
            a(
                "no-new-debt",
                Status::Refused,
                "1 entry added: 100% new, a: b.",
                json!({ "baselines": [{ "path": ".ai/repo/old-baseline.txt", "added": [] }, { "path": ".ai/repo/lint-baseline.txt", "added": ["x"] }] }),
            ),
            a(
                "markers-live",
                Status::Refused,
                "LIMITATION(#9) names a closed issue.",
                json!({ "markers": [{ "path": "src/ok.rs", "line": 3, "status": "pass" }, { "path": "src/lib.rs", "line": 42, "status": "refused" }] }),
            ),
        ]);
        let text = github(&d);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines,
            [
                "::error file=.ai/repo/lint-baseline.txt,title=majordomus%3A no-new-debt is refused::1 entry added: 100%25 new, a: b.%0Aremedy: git push",
                "::error file=src/lib.rs,line=42,title=majordomus%3A markers-live is refused::LIMITATION(#9) names a closed issue.%0Aremedy: git push",
                "::warning file=src/a%2Cb.rs,title=majordomus%3A committed is owed::1 file: src/a,b.rs.%0Aremedy: git push",
                "::warning title=majordomus%3A pushed is owed::2 commits are not on origin/main.%0Aremedy: git push",
                "done: committed=owed pushed=owed no-new-debt=refused markers-live=refused",
            ]
        );
    }

    #[test]
    fn past_ten_of_a_level_the_rest_fold_into_one_last_annotation_that_counts_them() {
        let mut answers: Vec<Answer> =
            (0..13).map(|i| a(&format!("extra-{i:02}"), Status::Owed, "owed", json!({}))).collect();
        answers.extend((0..3).map(|i| a(&format!("hard-{i}"), Status::Refused, "refused", json!({}))));
        let text = github(&doc(answers));
        let warnings: Vec<&str> = text.lines().filter(|l| l.starts_with("::warning")).collect();
        let errors: Vec<&str> = text.lines().filter(|l| l.starts_with("::error")).collect();
        assert_eq!((warnings.len(), errors.len()), (SHOWN_PER_LEVEL, 3), "{text}");
        assert!(warnings[8].contains("extra-08 is owed"), "{text}");
        assert_eq!(
            warnings[9],
            "::warning title=majordomus%3A 4 more open::GitHub shows 10 warnings a step, so these 4 are folded here: \
             extra-09=owed extra-10=owed extra-11=owed extra-12=owed.%0Arun majordomus check for each one's evidence and remedy"
        );
        let exactly: Vec<Answer> =
            (0..10).map(|i| a(&format!("extra-{i:02}"), Status::Owed, "owed", json!({}))).collect();
        let text = github(&doc(exactly));
        assert_eq!(text.lines().filter(|l| l.starts_with("::warning")).count(), 10);
        assert!(!text.contains("more open"), "ten fit: {text}");
    }

    #[test]
    fn the_step_summary_is_a_table_of_the_open_questions_most_important_first() {
        let d = doc(vec![
            a("pushed", Status::Owed, "2 commits | not `pushed`\nyet.", json!({})),
            a("no-new-debt", Status::Refused, "1 entry added.", json!({})),
        ]);
        assert_eq!(
            step_summary(&d),
            "## majordomus: not done\n\n`done: pushed=owed no-new-debt=refused`\n\nScore: **5/10**\n\n\
             | question | status | evidence | remedy |\n|---|---|---|---|\n\
             | `no-new-debt` | refused | 1 entry added. | git push |\n\
             | `pushed` | owed | 2 commits \\| not 'pushed' yet. | git push |\n\n"
        );
        let complete = doc(vec![a("scoped", Status::Pass, "ok", json!({}))]);
        assert_eq!(
            step_summary(&complete),
            "## majordomus: done\n\n`done: complete (1 pass, 0 exempt)`\n\nScore: **10/10**\n\n"
        );
    }
}
