//! Every record parser, fed damaged records: a property suite (proptest,
//! with a fixed seed, so a run is the same run every time).
//!
//! What a reliability campaign found by hand (byte flips, truncation, NUL,
//! invalid UTF-8, numbers past u64, dates out of range, deep nesting,
//! hostile lines) is kept here as properties over each parser: the policy,
//! the task record, the ledger, a debt baseline, the forge observation, the
//! completion document, the hook's record, the host's hook payload, the
//! carry record. For each:
//!
//! - no input panics;
//! - what it refuses, it refuses with a clear error: a sentence, of bounded
//!   length, with no control character in it (nothing unbounded is echoed,
//!   nothing reaches a terminal raw);
//! - what it accepts is within its bounds (a damaged record never smuggles
//!   an unbounded field through);
//! - damage never reads as more than the record said: a record cut short is
//!   an error (the ledger: only its whole lines before the cut), and a
//!   completion document read back claims a pass only where its questions
//!   all agree.
//!
//! The case counts ([`CASES`]) keep the whole suite to a few thousand cases
//! and a few seconds on two cores; README's Reliability paragraph states them.

use std::path::Path;

use majordomus_carry::CarryRecord;
use majordomus_invariant::Document;
use majordomus_records::forge::Observation;
use majordomus_records::hook::HookState;
use majordomus_records::ledger::{self, Entry, Event};
use majordomus_records::task::TaskRecord;
use majordomus_records::Policy;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

/// Damaged inputs tried per parser (nine parsers).
const CASES: u32 = 400;

fn config() -> Config {
    Config {
        cases: CASES,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(0x6d61_6a6f_7264_6f6d),
        max_shrink_iters: 4096,
        ..Config::default()
    }
}

/// One kind of damage a file meets.
#[derive(Debug, Clone)]
enum Damage {
    /// A byte xor'ed with a mask.
    Flip(usize, u8),
    /// The file cut short at a byte.
    Cut(usize),
    /// Bytes inserted: NUL, 0xff, quotes, braces, newlines, ESC, anything.
    Insert(usize, Vec<u8>),
    /// Bytes removed.
    Delete(usize, usize),
    /// A hostile token spliced in: a number past u64, a date at year 0 or
    /// 9999, an escaped NUL, invalid UTF-8.
    Splice(usize, &'static [u8]),
    /// The whole wrapped in arrays, this deep.
    Nest(usize),
    /// One byte repeated many times: a line of hundreds of kilobytes.
    Stretch(usize, u8, usize),
}

const TOKENS: [&[u8]; 12] = [
    b"99999999999999999999999",
    b"-1",
    b"1e999",
    b"18446744073709551616",
    b"null",
    b"\"0000-01-01T00:00:00Z\"",
    b"\"9999-12-31T23:59:59Z\"",
    b"\"\\u0000\"",
    b"\xff\xfe\xc3",
    b"[]",
    b"{}",
    b"\"\\u001b]0;pwn\\u0007\"",
];

fn one_damage() -> impl Strategy<Value = Damage> {
    let byte = prop_oneof![Just(0u8), Just(0xff), Just(b'"'), Just(b'{'), Just(b'\n'), Just(0x1b), any::<u8>()];
    prop_oneof![
        (any::<usize>(), 1u8..=255).prop_map(|(i, x)| Damage::Flip(i, x)),
        any::<usize>().prop_map(Damage::Cut),
        (any::<usize>(), prop::collection::vec(byte, 1..8)).prop_map(|(i, b)| Damage::Insert(i, b)),
        (any::<usize>(), 1usize..16).prop_map(|(i, n)| Damage::Delete(i, n)),
        (any::<usize>(), prop::sample::select(TOKENS.to_vec())).prop_map(|(i, t)| Damage::Splice(i, t)),
        (1usize..3000).prop_map(Damage::Nest),
        (any::<usize>(), any::<u8>(), 1usize..200_000).prop_map(|(i, b, n)| Damage::Stretch(i, b, n)),
    ]
}

fn damage() -> impl Strategy<Value = Vec<Damage>> {
    prop::collection::vec(one_damage(), 1..4)
}

fn apply(original: &[u8], damage: &[Damage]) -> Vec<u8> {
    let mut b = original.to_vec();
    for d in damage {
        let at = |i: usize, len: usize| if len == 0 { 0 } else { i % (len + 1) };
        match d {
            Damage::Flip(i, x) if !b.is_empty() => {
                let i = i % b.len();
                b[i] ^= x;
            }
            Damage::Flip(..) => {}
            Damage::Cut(i) => b.truncate(at(*i, b.len())),
            Damage::Insert(i, bytes) => {
                let i = at(*i, b.len());
                b.splice(i..i, bytes.iter().copied());
            }
            Damage::Delete(i, n) => {
                let i = at(*i, b.len());
                let end = (i + n).min(b.len());
                b.drain(i..end);
            }
            Damage::Splice(i, token) => {
                let i = at(*i, b.len());
                b.splice(i..i, token.iter().copied());
            }
            Damage::Nest(depth) => {
                let mut nested = vec![b'['; *depth];
                nested.extend_from_slice(&b);
                nested.extend(std::iter::repeat(b']').take(*depth));
                b = nested;
            }
            Damage::Stretch(i, byte, n) => {
                let i = at(*i, b.len());
                b.splice(i..i, std::iter::repeat(*byte).take(*n));
            }
        }
    }
    b
}

/// A clear error: a sentence, bounded, with no control character.
fn assert_clear(what: &str, err: &str) {
    assert!(!err.trim().is_empty(), "{what}: an empty error");
    assert!(err.len() <= 6000, "{what}: an error of {} bytes echoes its input", err.len());
    assert!(!err.chars().any(char::is_control), "{what}: an error with a raw control character: {err:?}");
}

fn chain(e: &dyn std::error::Error) -> String {
    majordomus_records::task::error_chain(e)
}

// ---- the valid records the damage starts from ------------------------------

const OID: &str = "0123456789abcdef0123456789abcdef01234567";

fn task_record() -> Vec<u8> {
    let record = serde_json::json!({
        "schema": "majordomus/task/v1", "id": "20261130T100000Z-1a2b", "task": "fix the parser",
        "scope": ["src/parser"], "issues": ["12", "acme/tools#7"],
        "started_at": "2026-11-30T10:00:00Z", "head": OID, "branch": "main",
        "snapshot": {
            "dirty": [{"path": "src/a.rs", "index": OID, "worktree": null}],
            "untracked": [{"path": "notes.txt", "worktree": OID}],
            "branches": {"main": OID}, "worktrees": {"wt": "/tmp/wt"},
            "stashes": [OID], "unpushed": [OID],
            "baselines": {".ai/repo/debt-baseline.txt": ["src/a.rs:unwrap"]}
        },
        "owner": {"pid": 42, "start_time": 7}
    });
    serde_json::to_vec_pretty(&record).expect("json")
}

fn ledger_text() -> Vec<u8> {
    let at = "2026-11-30T10:00:00Z";
    let entries = [
        Event::TodoAdd { n: 1, text: "parse the header".into() },
        Event::GateRun {
            gate: "unit".into(),
            exit: 0,
            duration_ms: 5,
            commit: Some(OID.into()),
            inputs_hash: "ab12".into(),
            timed_out: false,
            environment: None,
        },
        Event::Claim { issue: "acme/tools#7".into() },
        Event::Background { pid: 4242, start_time: Some(9), what: Some("the build".into()), marker: None },
        Event::Ack {
            question: "no-untracked".into(),
            why: "a peer's notes".into(),
            evidence: vec!["n.txt".into()],
            content: Default::default(),
        },
        Event::TodoDone { n: 1 },
    ];
    let mut out = Vec::new();
    for event in entries {
        serde_json::to_writer(&mut out, &Entry { at: at.into(), task: Some("t".into()), event }).expect("json");
        out.push(b'\n');
    }
    out
}

const POLICY: &str = r#"[trunk]
remote = "origin"
branch = "main"

[gates.unit]
run = "cargo test --workspace"
inputs = ["crates/**", "Cargo.lock"]
timeout_seconds = 1800

[[questions]]
id = "documented"
stage = "documentation"
question = "Were the documents a reader needs updated?"
gate = "unit"

[[exempt]]
question = "backlog-not-grown"
reason = "this repository has no forge"
until = "2027-01-01"

[caps]
pushed = 8

[hook]
block_limit = 3
budget_ms = 20000

[forge]
max_age_minutes = 60

[markers]
scan = ["src"]
"#;

const FORGE: &str = r#"{"schema":"majordomus/forge/v1","observed_at":"2025-11-30T10:00:00Z","repository":"o/r",
"pull_requests":[{"number":12,"title":"t","author":"a","head":"b","created_at":"2025-11-30T09:00:00Z","state":"open"}],
"issues":[{"repository":"o/r","number":3,"state":"open","labels":["limitation"],"is_pull_request":false,"title":"x"}]}"#;

const HOOK_STATE: &str = r#"{"schema": "majordomus/hook/v1", "task": "t-1", "blocks": 2,
"done_line": "done: committed=owed", "fingerprint": "head=a index=b", "worktree": "0123456789abcdef",
"session_id": "s", "at": "2026-11-30T10:00:00Z"}"#;

const PAYLOAD: &str = r#"{"session_id": "abc", "cwd": "/tmp/x", "hook_event_name": "Stop", "stop_hook_active": false,
"last_assistant_message": "done", "background_tasks": [{"id": "b1", "status": "running", "description": "cargo test"},
{"task_id": "a3", "command": "npm run dev"}, {"status": "killed"}]}"#;

const CARRY: &str = r#"{"schema": "majordomus/carry/v1", "invocation": "backlogrun --max 5",
"owner": {"pid": 7, "start_time": 99, "boot_id": null}, "started_at": "2026-11-30T10:00:00Z",
"merged": 1, "filed": 0, "cuts": 0, "handed_off": false}"#;

const BASELINE: &str = "# debt\nsrc/a.rs:unwrap\n\n  src/b.rs:expect  \n";

fn completion() -> Vec<u8> {
    use majordomus_invariant::{Answer, Status};
    let answer = |id: &str, status| Answer {
        id: id.into(),
        stage: "s".into(),
        question: "q?".into(),
        status,
        evidence: "e".into(),
        source: "src".into(),
        remedy: "r".into(),
        remedy_kind: majordomus_invariant::RemedyKind::Advice,
        details: serde_json::json!({}),
    };
    let questions = vec![answer("committed", Status::Owed), answer("pushed", Status::Pass)];
    let doc = Document::new(chrono::Utc::now(), "/r".into(), None, None, questions, 7);
    serde_json::to_vec_pretty(&doc).expect("json")
}

/// `bytes` cut into lines wherever a reader of a list ends one: `\n`, a
/// lone `\r` (Python's and Java's text readers), and the other breaks
/// Python's `str::splitlines` knows (VT, FF, U+001C to U+001E, U+0085,
/// U+2028, U+2029), as a baseline's entries are read (test/cases/639).
fn lines_as_readers_end_them(bytes: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let (mut start, mut i) = (0, 0);
    while i < bytes.len() {
        let width = match &bytes[i..] {
            [b'\n' | 0x0b..=0x0d | 0x1c..=0x1e, ..] => 1,
            [0xc2, 0x85, ..] => 2,
            [0xe2, 0x80, 0xa8 | 0xa9, ..] => 3,
            _ => 0,
        };
        if width == 0 {
            i += 1;
            continue;
        }
        out.push(&bytes[start..i]);
        i += width;
        start = i;
    }
    out.push(&bytes[start..]);
    out
}

/// Whether a record cut at `k` lost more than white space at its end.
fn cut_short(bytes: &[u8], k: usize) -> bool {
    k < bytes.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(0, |i| i + 1)
}

// ---- the properties --------------------------------------------------------

proptest! {
    #![proptest_config(config())]

    #[test]
    fn a_damaged_policy_is_read_or_refused_with_clear_problems(d in damage()) {
        let text = String::from_utf8_lossy(&apply(POLICY.as_bytes(), &d)).into_owned();
        let builtin: Vec<&str> = majordomus_invariant::QUESTIONS.iter().map(|q| q.id.as_str()).collect();
        if let Err(e) = Policy::parse(Path::new("majordomus.toml"), &text, &builtin) {
            for p in e.problems() {
                assert_clear("policy", &p.message);
            }
            assert_clear("policy", &chain(&e).replace('\n', " "));
        }
    }

    #[test]
    fn a_damaged_task_record_is_refused_clearly_or_read_within_its_bounds(d in damage()) {
        let original = task_record();
        let bytes = apply(&original, &d);
        match majordomus_records::json::parse::<TaskRecord>(&bytes) {
            Ok(record) => prop_assert!(record.check().is_ok()),
            Err(reason) => assert_clear("task record", &reason),
        }
        if let Some(Damage::Cut(i)) = d.first().filter(|_| d.len() == 1) {
            let k = i % (original.len() + 1);
            if cut_short(&original, k) {
                prop_assert!(majordomus_records::json::parse::<TaskRecord>(&original[..k]).is_err());
            }
        }
    }

    #[test]
    fn a_damaged_ledger_never_loses_or_invents_a_whole_line_silently(d in damage()) {
        let original = ledger_text();
        let path = Path::new("ledger.jsonl");
        let whole = ledger::parse(path, &original).expect("the original").entries;
        let bytes = apply(&original, &d);
        match ledger::parse(path, &bytes) {
            Err(e) => assert_clear("ledger", &chain(&e)),
            Ok(read) => {
                for entry in &read.entries {
                    prop_assert!(entry.check().is_ok());
                }
                if let Some(torn) = read.torn {
                    prop_assert!(torn.bytes > 0);
                }
                // Entries are only ever read from whole lines, or a last line that is whole.
                let lines = bytes.split(|b| *b == b'\n').filter(|l| !l.iter().all(u8::is_ascii_whitespace)).count();
                prop_assert!(read.entries.len() + usize::from(read.torn.is_some()) == lines);
            }
        }
        if let Some(Damage::Cut(i)) = d.first().filter(|_| d.len() == 1) {
            let k = i % (original.len() + 1);
            let read = ledger::parse(path, &original[..k]).expect("a cut ledger is its whole lines");
            let kept = original[..k].iter().filter(|b| **b == b'\n').count();
            prop_assert_eq!(&read.entries[..], &whole[..kept]);
        }
    }

    #[test]
    fn a_damaged_baseline_gives_trimmed_entries_from_its_own_lines(d in damage()) {
        let bytes = apply(BASELINE.as_bytes(), &d);
        // As the reader trims a line: as text where it is UTF-8, else its ASCII whitespace.
        let trimmed = |l: &[u8]| -> Vec<u8> {
            match std::str::from_utf8(l) {
                Ok(t) => t.trim().as_bytes().to_vec(),
                Err(_) => l.trim_ascii().to_vec(),
            }
        };
        let lines = lines_as_readers_end_them(&bytes);
        for entry in majordomus_readings::baselines::entries(&bytes) {
            prop_assert!(!entry.is_empty() && trimmed(&entry) == entry);
            prop_assert!(lines_as_readers_end_them(&entry).len() == 1, "no line break inside an entry");
            prop_assert!(!entry.starts_with(b"#"));
            let from_a_line = lines.iter().any(|l| {
                trimmed(l) == entry || trimmed(l.strip_prefix("\u{feff}".as_bytes()).unwrap_or(l)) == entry
            });
            prop_assert!(from_a_line);
        }
    }

    #[test]
    fn a_damaged_forge_observation_is_refused_clearly_or_read(d in damage()) {
        let now = chrono::DateTime::parse_from_rfc3339("2026-11-30T10:00:00Z").expect("time").to_utc();
        let bytes = apply(FORGE.as_bytes(), &d);
        let text = String::from_utf8_lossy(&bytes);
        if let Err(e) = Observation::parse_at(Path::new("forge.json"), &text, now) {
            assert_clear("forge observation", &chain(&e));
        }
        if let Some(Damage::Cut(i)) = d.first().filter(|_| d.len() == 1) {
            let k = i % (FORGE.len() + 1);
            if cut_short(FORGE.as_bytes(), k) {
                prop_assert!(Observation::parse_at(Path::new("f"), &FORGE[..k], now).is_err());
            }
        }
    }

    #[test]
    fn a_damaged_completion_document_never_reads_as_more_complete_than_its_questions(d in damage()) {
        let original = completion();
        let bytes = apply(&original, &d);
        match Document::parse(&bytes) {
            Ok(doc) => {
                let settled = !doc.questions.is_empty() && doc.questions.iter().all(|q| q.status.is_settled());
                prop_assert_eq!(doc.complete, settled);
                prop_assert_eq!(doc.score == 10, settled);
            }
            Err(reason) => assert_clear("completion document", &reason),
        }
    }

    #[test]
    fn a_damaged_hook_record_is_refused_clearly_or_read_within_its_bounds(d in damage()) {
        let bytes = apply(HOOK_STATE.as_bytes(), &d);
        if let Err(reason) = majordomus_records::json::parse::<HookState>(&bytes) {
            assert_clear("hook record", &reason);
        }
    }

    #[test]
    fn a_damaged_hook_payload_never_makes_the_hook_record_what_the_ledger_refuses(d in damage()) {
        use majordomus_cli::commands::hook::protocol::StopPayload as Payload;
        use majordomus_cli::commands::hook::background::running_tasks;
        let bytes = apply(PAYLOAD.as_bytes(), &d);
        if let Ok(payload) = serde_json::from_slice::<Payload>(&bytes) {
            let tasks = running_tasks(payload.background_tasks.as_deref().unwrap_or(&[]));
            let entry = Entry { at: "2026-11-30T10:00:00Z".into(), task: Some("t".into()), event: Event::AgentBackground { tasks } };
            prop_assert!(entry.check().is_ok(), "{:?}", entry.check());
        }
    }

    #[test]
    fn a_damaged_carry_record_is_refused_clearly_never_a_fresh_start(d in damage()) {
        let bytes = apply(CARRY.as_bytes(), &d);
        if let Err(reason) = CarryRecord::from_slice(&bytes) {
            assert_clear("carry record", &reason);
        }
        if let Some(Damage::Cut(i)) = d.first().filter(|_| d.len() == 1) {
            let k = i % (CARRY.len() + 1);
            if cut_short(CARRY.as_bytes(), k) {
                prop_assert!(CarryRecord::from_slice(&CARRY.as_bytes()[..k]).is_err());
            }
        }
    }
}

#[test]
fn the_valid_records_the_damage_starts_from_are_valid() {
    let builtin: Vec<&str> = majordomus_invariant::QUESTIONS.iter().map(|q| q.id.as_str()).collect();
    Policy::parse(Path::new("p"), POLICY, &builtin).expect("policy");
    majordomus_records::json::parse::<TaskRecord>(&task_record()).expect("task record");
    assert_eq!(ledger::parse(Path::new("l"), &ledger_text()).expect("ledger").entries.len(), 6);
    Observation::parse_at(Path::new("f"), FORGE, chrono::Utc::now()).expect("forge");
    Document::parse(&completion()).expect("completion");
    majordomus_records::json::parse::<HookState>(HOOK_STATE.as_bytes()).expect("hook record");
    serde_json::from_str::<majordomus_cli::commands::hook::protocol::StopPayload>(PAYLOAD).expect("payload");
    CarryRecord::from_slice(CARRY.as_bytes()).expect("carry record");
    assert_eq!(
        majordomus_readings::baselines::entries(BASELINE.as_bytes()),
        [b"src/a.rs:unwrap".to_vec(), b"src/b.rs:expect".to_vec()]
    );
}
