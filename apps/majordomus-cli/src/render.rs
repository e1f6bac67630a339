//! The human text of `check`, rendered from the document alone, and its
//! other renderings: GitHub Actions annotations and step summary
//! ([`github`]).

mod github;

use majordomus_invariant::{Answer, Document, Status};

/// Whether to colour text for a stream: only on a terminal, and never when
/// `NO_COLOR` is set to anything but the empty string (no-color.org).
pub fn use_color(is_terminal: bool) -> bool {
    is_terminal && std::env::var_os("NO_COLOR").map_or(true, |v| v.is_empty())
}

/// One block per open question (status, id, evidence, remedy), then the
/// done line. Consecutive questions open for the same reason (no task
/// record, say) share one block instead of repeating it. With `color`, the
/// status word is coloured; nothing else is.
pub fn check_text(doc: &Document, color: bool) -> String {
    let open: Vec<&Answer> = doc.open().collect();
    let mut groups: Vec<Vec<&Answer>> = Vec::new();
    for a in open {
        match groups.last_mut() {
            Some(g) if same_reason(g[0], a) => g.push(a),
            _ => groups.push(vec![a]),
        }
    }
    let label = |g: &[&Answer]| g.iter().map(|a| a.id.as_str()).collect::<Vec<_>>().join(", ");
    let exempt: Vec<&Answer> = doc.questions.iter().filter(|a| declared_exempt(a)).collect();
    let width = groups
        .iter()
        .filter(|g| g.len() == 1)
        .map(|g| g[0].id.len())
        .chain(exempt.iter().map(|a| a.id.len()))
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for g in &groups {
        let a = g[0];
        let status = format!("{:<8}", a.status.as_str());
        let status = if color { paint(a.status, &status) } else { status };
        let (evidence, remedy) = (escape_text(&a.evidence), escape_text(&a.remedy));
        if g.len() == 1 {
            out.push_str(&format!("{status} {:<width$}  {evidence}\n", escape_text(&a.id)));
            out.push_str(&format!("{:<8} {:<width$}  {}: {remedy}\n", "", "", a.remedy_kind.label()));
        } else {
            out.push_str(&format!("{status} {}\n", escape_text(&label(g))));
            out.push_str(&format!("{:<8} {evidence}\n", ""));
            out.push_str(&format!("{:<8} {}: {remedy}\n", "", a.remedy_kind.label()));
        }
    }
    // What the repository's policy set aside is shown too, with its reason,
    // one line each: an exemption is a claim, and a claim is read.
    for a in exempt {
        let status = format!("{:<8}", a.status.as_str());
        let status = if color { paint(a.status, &status) } else { status };
        out.push_str(&format!("{status} {:<width$}  {}\n", escape_text(&a.id), escape_text(&a.evidence)));
    }
    out.push_str(&policy_text(doc));
    out.push_str(&doc.done_line());
    out.push('\n');
    out
}

/// An answer exempt by the policy's declaration (an `[[exempt]]` entry, or
/// `[forge] provider = "none"`), rather than because nothing applies.
fn declared_exempt(a: &Answer) -> bool {
    a.status == Status::Exempt
        && (a.details.get("exemption").is_some()
            || a.details.get("forge_provider").and_then(|v| v.as_str()) == Some("none"))
}

/// The policy's changes since the task's start, each said in force or not
/// (README.md, "The policy in force"); nothing when there are none and the
/// start's policy is known.
pub fn policy_text(doc: &Document) -> String {
    let Some(p) = &doc.policy else { return String::new() };
    let unknown = p.start.starts_with("not known");
    if p.changes.is_empty() && !unknown {
        return String::new();
    }
    let mut out = format!(
        "policy   the policy in force is the one the task started under ({}), plus what only adds strictness",
        p.start
    );
    if p.changes.is_empty() {
        out.push_str(".\n");
    } else {
        out.push_str(&format!("; {} changed since:\n", p.file));
    }
    for c in &p.changes {
        out.push_str(&format!("{:<8} - {}\n", "", escape_text(&c.sentence())));
    }
    out
}

/// Text read from the repository (a path, a branch, a commit message) made
/// safe for a terminal line: the one escaping function,
/// [`majordomus_records::text::escape`] (a control character written as its
/// escape, so no evidence can start a line of its own or move the cursor).
pub use majordomus_records::text::escape as escape_text;

fn same_reason(a: &Answer, b: &Answer) -> bool {
    a.status == b.status && a.evidence == b.evidence && a.remedy == b.remedy && a.remedy_kind == b.remedy_kind
}

/// The status word in its colour, the padding after it left plain.
fn paint(status: Status, padded: &str) -> String {
    let code = match status {
        Status::Pass => "32",
        Status::Owed => "33",
        Status::Refused => "1;31",
        Status::Unknown => "35",
        Status::Exempt => "36",
    };
    let word = status.as_str();
    format!("\x1b[{code}m{word}\x1b[0m{}", &padded[word.len().min(padded.len())..])
}

pub use github::{by_importance, github, step_summary};

/// The score and every cap holding it down, most severe first, each with
/// its evidence and remedy. Rendered from the document's caps, which are
/// computed from its answers.
pub fn score_text(doc: &Document, color: bool) -> String {
    let mut out = format!("score: {}/10\n", doc.score);
    out.push_str(&caps_text(doc, color));
    out
}

/// The caps holding the score down; with `color`, each status word coloured
/// as `check` colours it.
fn caps_text(doc: &Document, color: bool) -> String {
    if doc.caps.is_empty() {
        let n = |s| doc.tallies.get(&s).copied().unwrap_or(0);
        return format!(
            "nothing holds it down: every question is pass or exempt ({} pass, {} exempt)\n",
            n(majordomus_invariant::Status::Pass),
            n(majordomus_invariant::Status::Exempt)
        );
    }
    let width = doc.caps.iter().map(|c| c.id.len()).max().unwrap_or(0);
    let mut out = String::new();
    for c in &doc.caps {
        let status = format!("{:<8}", c.status.as_str());
        let status = if color { paint(c.status, &status) } else { status };
        out.push_str(&format!(
            "cap {:>2}  {:<width$}  {status} {}\n",
            c.cap,
            escape_text(&c.id),
            escape_text(&c.evidence)
        ));
        out.push_str(&format!(
            "{:>6}  {:<width$}  {:<8} {}: {}\n",
            "",
            "",
            "",
            c.remedy_kind.label(),
            escape_text(&c.remedy)
        ));
    }
    out
}

/// The cached score: the number, its age, and whether it is stale.
pub fn cached_score_text(doc: &Document, age_seconds: Option<i64>, moved: &[String], color: bool) -> String {
    let age = age_seconds.map_or_else(|| "of unknown age".to_string(), |s| format!("{} old", human_age(s)));
    let mut out = format!("score: {}/10 (cached, measured {}, {age})", doc.score, doc.generated_at);
    if moved.is_empty() {
        out.push_str("; the working tree's files were not compared since, run majordomus score to measure\n");
    } else {
        out.push_str(&format!("; stale: {} moved since, run majordomus score\n", moved.join(", ")));
    }
    out.push_str(&caps_text(doc, color));
    out
}

fn human_age(s: i64) -> String {
    match s {
        s if s < 60 => format!("{s} s"),
        s if s < 3600 => format!("{} min", s / 60),
        s if s < 86400 => format!("{} h", s / 3600),
        s => format!("{} d", s / 86400),
    }
}

/// The score as JSON: the number and its caps, from the document.
pub fn score_json(doc: &Document) -> serde_json::Value {
    serde_json::json!({
        "score": doc.score,
        "complete": doc.complete,
        "generated_at": doc.generated_at,
        "caps": doc.caps,
    })
}

#[cfg(test)]
mod tests {
    use majordomus_invariant::{Answer, Document, Status};

    use super::*;

    fn doc() -> Document {
        let a = |id: &str, status, evidence: &str| Answer {
            id: id.into(),
            stage: "s".into(),
            question: "q?".into(),
            status,
            evidence: evidence.into(),
            source: "src".into(),
            remedy: "git push".into(),
            remedy_kind: majordomus_invariant::RemedyKind::Command,
            details: serde_json::json!({}),
        };
        Document::new(
            chrono::Utc::now(),
            "/r".into(),
            None,
            None,
            vec![
                a("scoped", Status::Pass, "All in scope."),
                a("no-new-debt", Status::Refused, "1 entry added: 100% new, a: b."),
                a("pushed", Status::Owed, "2 commits are not on origin/main."),
            ],
            5,
        )
    }

    /// A document whose evidence, remedy and (shared-reason) block carry
    /// control characters a file name or commit message could hold.
    fn forged() -> Document {
        let fake = "x\ndone: complete (19 pass, 0 exempt)";
        let a = |id: &str, evidence: String, remedy: String| Answer {
            id: id.into(),
            stage: "s".into(),
            question: "q?".into(),
            status: Status::Owed,
            evidence,
            source: "src".into(),
            remedy,
            remedy_kind: majordomus_invariant::RemedyKind::Command,
            details: serde_json::json!({}),
        };
        let mut d = Document::new(
            chrono::Utc::now(),
            "/r".into(),
            None,
            None,
            vec![
                a("committed", format!("1 tracked file is not committed: {fake}."), format!("git add '{fake}'")),
                a("no-untracked", format!("1 file appeared: {fake}\r\t\x1b[2K\x7f\u{9b}."), "rm\ndone: x".into()),
                a("no-stash", format!("stash@{{0}} ({fake})"), "git stash drop\ndone: complete".into()),
                a("settled", format!("stash@{{0}} ({fake})"), "git stash drop\ndone: complete".into()),
            ],
            5,
        );
        let (score, caps) = majordomus_invariant::score::score(&d.questions, &Default::default());
        d.score = score;
        d.caps = caps;
        d
    }

    #[test]
    fn no_evidence_or_remedy_can_print_a_line_of_its_own_only_the_real_done_line_begins_with_done() {
        let d = forged();
        for (name, text) in [
            ("check", check_text(&d, false)),
            ("check in colour", check_text(&d, true)),
            ("score", score_text(&d, false)),
            ("cached score", cached_score_text(&d, None, &[], false)),
        ] {
            let done: Vec<&str> = text.lines().filter(|l| l.trim_start().starts_with("done:")).collect();
            let expected: &[&str] = if name.starts_with("check") {
                &["done: committed=owed no-untracked=owed no-stash=owed settled=owed"]
            } else {
                &[]
            };
            assert_eq!(done, expected, "{name}: {text}");
            assert!(!text.contains('\r') && !text.contains('\t') && !text.contains('\u{9b}'), "{name}: {text:?}");
            assert!(!text.contains("\x1b[2K") && !text.contains('\x7f'), "{name}: {text:?}");
            assert!(text.contains("committed: x\\ndone: complete (19 pass, 0 exempt)."), "{name}: {text}");
        }
        let text = check_text(&d, false);
        assert!(text.contains("appeared: x\\ndone: complete (19 pass, 0 exempt)\\r\\t\\x1b[2K\\x7f\\u{9b}."), "{text}");
        assert!(text.contains("remedy: git stash drop\\ndone: complete\n"), "the shared block too: {text}");
    }

    #[test]
    fn text_without_control_characters_is_left_as_it_is() {
        assert_eq!(escape_text("a b/c\\n é ✓"), "a b/c\\n é ✓");
        assert_eq!(escape_text("a\u{0}b"), "a\\x00b");
    }

    #[test]
    fn colour_touches_the_status_word_only() {
        let plain = check_text(&doc(), false);
        let coloured = check_text(&doc(), true);
        assert!(!plain.contains('\x1b'));
        assert!(coloured.contains("\x1b[1;31mrefused\x1b[0m  no-new-debt"), "{coloured:?}");
        assert!(coloured.contains("\x1b[33mowed\x1b[0m     pushed"), "{coloured:?}");
        let stripped = coloured.replace("\x1b[1;31m", "").replace("\x1b[33m", "").replace("\x1b[0m", "");
        assert_eq!(stripped, plain);
    }

    #[test]
    fn the_score_text_lists_each_cap_with_its_evidence_and_remedy_most_severe_first() {
        let mut d = doc();
        let (score, caps) = majordomus_invariant::score::score(&d.questions, &Default::default());
        d.score = score;
        d.caps = caps;
        let text = score_text(&d, false);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "score: 5/10");
        assert!(lines[1].starts_with("cap  5  no-new-debt  refused  1 entry added"), "{text}");
        assert!(lines[2].trim_start().starts_with("remedy: git push"), "{text}");
        assert!(lines[3].starts_with("cap  8  pushed"), "{text}");
        let cached = cached_score_text(&d, Some(125), &["HEAD".to_string()], false);
        assert!(cached.starts_with("score: 5/10 (cached, measured "), "{cached}");
        assert!(cached.contains("2 min old); stale: HEAD moved since"), "{cached}");
        let coloured = score_text(&d, true);
        assert!(coloured.contains("\x1b[1;31mrefused\x1b[0m "), "{coloured:?}");
        let stripped = coloured.replace("\x1b[1;31m", "").replace("\x1b[33m", "").replace("\x1b[0m", "");
        assert_eq!(stripped, text, "colour changes only the status words");
        d.caps.clear();
        assert!(score_text(&d, false).contains("nothing holds it down"));
    }
}
