//! The policy in force: one test per key of the policy (what is stricter,
//! what loosens), then where the start's policy is read from.

use std::path::Path;

use majordomus_records::paths::POLICY_FILE;
use majordomus_records::policy::Policy;
use majordomus_records::task::{PolicyAtStart, TaskRecord, TaskState};
use majordomus_testkit::TestRepo;

use super::stricter::merge;
use super::*;

fn policy(text: &str) -> Policy {
    Policy::parse(Path::new(POLICY_FILE), text, &crate::question::builtin_ids()).expect("a valid policy")
}

/// The policy in force from two texts, and each change as `(entry, in force)`.
fn merged(start: &str, now: &str) -> (Policy, Vec<(String, bool)>) {
    let (p, changes) = merge(&policy(start), &policy(now));
    (p, changes.into_iter().map(|c| (c.entry, c.in_force)).collect())
}

fn entries(changes: &[(String, bool)]) -> Vec<(&str, bool)> {
    changes.iter().map(|(e, f)| (e.as_str(), *f)).collect()
}

const GATE: &str = "[gates.unit]\nrun = \"cargo test\"\ninputs = [\"src/**\"]\n";

#[test]
fn the_same_policy_changes_nothing() {
    let text = format!("{GATE}\n[[exempt]]\nquestion = \"pushed\"\nreason = \"r\"\n[caps]\npushed = 4\n");
    let (p, changes) = merged(&text, &text);
    assert_eq!(p, policy(&text));
    assert!(changes.is_empty(), "{changes:?}");
}

#[test]
fn forge_provider_asking_less_or_another_forge_keeps_the_starts_and_asking_more_is_in_force() {
    use majordomus_records::policy::Provider;
    let forge = |p: &str| format!("[forge]\nprovider = \"{p}\"\n");
    let (p, c) = merged("", &forge("none"));
    assert_eq!((p.provider(), entries(&c)), (None, vec![("[forge] provider", false)]));
    let (p, c) = merged(&forge("github"), &forge("recorded"));
    assert_eq!((p.provider(), entries(&c)), (Some(Provider::Github), vec![("[forge] provider", false)]));
    let (p, c) = merged(&forge("github"), &forge("gitlab"));
    assert_eq!((p.provider(), entries(&c)), (Some(Provider::Github), vec![("[forge] provider", false)]));
    let (p, c) = merged(&forge("none"), &forge("recorded"));
    assert_eq!((p.provider(), entries(&c)), (Some(Provider::Recorded), vec![("[forge] provider", true)]));
    let (p, c) = merged("", &forge("github"));
    assert_eq!((p.provider(), c.len()), (Some(Provider::Github), 0), "the default named is no change");
}

#[test]
fn no_forge_declared_where_the_repository_has_no_remote_nor_had_one_is_in_force_and_nothing_else_is() {
    use super::stricter::{merge_at, Place};
    use majordomus_records::policy::Provider;
    let forge = |p: &str| policy(&format!("[forge]\nprovider = \"{p}\"\n"));
    let remote_less = Place { remote_less: true, ..Place::default() };
    let (p, c) = merge_at(&policy(""), &forge("none"), remote_less);
    assert_eq!(p.provider(), Some(Provider::None));
    assert_eq!((c.len(), c[0].effect, c[0].in_force), (1, Effect::Neutral, true), "{c:?}");
    assert!(c[0].sentence().contains("no remote, nor had one at the start"), "{}", c[0].sentence());
    // Only `none`: typed-in observations still ask less, remote or not.
    let (p, c) = merge_at(&policy(""), &forge("recorded"), remote_less);
    assert_eq!((p.provider(), c[0].in_force), (None, false));
    // A repository with a remote, now or at the start: a loosening as ever.
    let (p, c) = merge_at(&policy(""), &forge("none"), Place::default());
    assert_eq!((p.provider(), c[0].in_force), (None, false));
}

#[test]
fn no_forge_declared_in_place_of_the_default_where_every_remote_is_on_this_machine_is_in_force() {
    use super::stricter::{merge_at, Place};
    use majordomus_records::policy::Provider;
    let forge = |p: &str| policy(&format!("[forge]\nprovider = \"{p}\"\n"));
    let local = Place { on_this_machine: true, ..Place::default() };
    let (p, c) = merge_at(&policy(""), &forge("none"), local);
    assert_eq!(p.provider(), Some(Provider::None));
    assert_eq!((c.len(), c[0].effect, c[0].in_force), (1, Effect::Neutral, true), "{c:?}");
    assert!(c[0].sentence().contains("directory on this machine"), "{}", c[0].sentence());
    // A forge the start named stays the start's: only the default gives way.
    let (p, c) = merge_at(&forge("github"), &forge("none"), local);
    assert_eq!((p.provider(), c[0].in_force), (Some(Provider::Github), false));
    let (p, c) = merge_at(&policy(""), &forge("recorded"), local);
    assert_eq!((p.provider(), c[0].in_force), (None, false));
}

#[test]
fn tests_paths_added_are_not_counted_and_removed_ones_are_gone() {
    let (p, c) = merged("[tests]\npaths = [\"qa\"]\n", "[tests]\npaths = [\"qa\", \"**\"]\n");
    assert_eq!((p.tests.expect("tests").paths, entries(&c)), (vec!["qa".to_string()], vec![("[tests] paths", false)]));
    let (p, c) = merged("[tests]\npaths = [\"qa\", \"checks\"]\n", "[tests]\npaths = [\"qa\"]\n");
    assert_eq!((p.tests.expect("tests").paths, entries(&c)), (vec!["qa".to_string()], vec![("[tests] paths", true)]));
    let (p, _) = merged("", "[tests]\npaths = [\"**\"]\n");
    assert_eq!(p.tests, None);
    // Test items by file and marker: one added is a loosening, one dropped in force.
    let items = |list: &str| format!("[tests]\nitems = [{list}]\n");
    let sds = "{ paths = \"sds.c\", marker = \"test_cond(\" }";
    let (p, c) = merged("", &items(sds));
    assert_eq!((p.tests, entries(&c)), (None, vec![("[tests] items", false)]));
    let (p, c) = merged(&items(sds), &items("{ paths = [\"sds.c\", \"*.c\"], marker = \"test_cond(\" }"));
    assert_eq!(
        (p.tests.expect("tests").items[0].paths.clone(), entries(&c)),
        (vec!["sds.c".to_string()], vec![("[tests] items", false)])
    );
    let (p, c) = merged(&items(sds), &items("{ paths = \"sds.c\", marker = \"test\" }"));
    assert_eq!(
        (p.tests.expect("tests").items, entries(&c)),
        (vec![], vec![("[tests] items", false), ("[tests] items", true)])
    );
    let (p, c) = merged(&items(sds), "");
    assert_eq!((p.tests.expect("tests").items, entries(&c)), (vec![], vec![("[tests] items", true)]));
}

#[test]
fn trunk_any_repointing_loosens_and_the_starts_stays() {
    let (p, c) = merged("", "[trunk]\nremote = \"origin\"\nbranch = \"feature\"\n");
    assert_eq!(p.trunk, None);
    assert_eq!(entries(&c), [("[trunk]", false)]);
    let (p, c) = merged("[trunk]\nbranch = \"main\"\n", "");
    assert_eq!(p.trunk.and_then(|t| t.branch).as_deref(), Some("main"));
    assert_eq!(entries(&c), [("[trunk]", false)]);
    let (_, c) = merged("[trunk]\n", "");
    assert!(c.is_empty(), "an empty [trunk] is no trunk: {c:?}");
}

#[test]
fn gates_added_are_in_force_and_removed_ones_stay() {
    let (p, c) = merged("", GATE);
    assert!(p.gates.contains_key("unit"));
    assert_eq!(entries(&c), [("[gates.unit]", true)]);
    let (p, c) = merged(GATE, "");
    assert_eq!(p.gates["unit"].run, "cargo test");
    assert_eq!(entries(&c), [("[gates.unit]", false)]);
}

#[test]
fn gate_run_changed_keeps_the_starts_command() {
    let (p, c) = merged(GATE, &GATE.replace("cargo test", "true"));
    assert_eq!(p.gates["unit"].run, "cargo test");
    assert_eq!(entries(&c), [("[gates.unit] run", false)]);
}

#[test]
fn gate_inputs_are_the_union_and_narrowing_loosens() {
    // Widened, the gate is selected too (test/cases/475): named once for
    // what it covers and once for being selected.
    let (p, c) = merged(GATE, &GATE.replace("[\"src/**\"]", "[\"nothing/**\"]"));
    assert_eq!(p.gates["unit"].inputs, ["src/**", "nothing/**"]);
    assert!(p.gates["unit"].always);
    assert_eq!(
        entries(&c),
        [("[gates.unit] inputs", false), ("[gates.unit] inputs", true), ("[gates.unit] inputs", true)]
    );
    let (p, c) = merged(GATE, &GATE.replace("[\"src/**\"]", "[\"src/**\", \"Cargo.lock\"]"));
    assert_eq!(p.gates["unit"].inputs, ["src/**", "Cargo.lock"]);
    assert!(p.gates["unit"].always);
    assert_eq!(entries(&c), [("[gates.unit] inputs", true), ("[gates.unit] inputs", true)]);
    // Only narrowed, it is not selected by that.
    let (p, _) = merged(&GATE.replace("[\"src/**\"]", "[\"src/**\", \"Cargo.lock\"]"), GATE);
    assert!(!p.gates["unit"].always);
}

#[test]
fn gate_required_and_always_hold_if_either_side_says_so() {
    let (p, c) = merged(GATE, &format!("{GATE}required = false\n"));
    assert!(p.gates["unit"].required);
    assert_eq!(entries(&c), [("[gates.unit] required", false)]);
    let (p, c) = merged(&format!("{GATE}required = false\n"), GATE);
    assert!(p.gates["unit"].required);
    assert_eq!(entries(&c), [("[gates.unit] required", true)]);
    let (p, c) = merged(&format!("{GATE}always = true\n"), &format!("{GATE}always = false\n"));
    assert!(p.gates["unit"].always);
    assert_eq!(entries(&c), [("[gates.unit] always", false)]);
    let (p, c) = merged(GATE, &format!("{GATE}always = true\n"));
    assert!(p.gates["unit"].always);
    assert_eq!(entries(&c), [("[gates.unit] always", true)]);
}

#[test]
fn gate_timeout_the_shorter_is_in_force_and_none_is_unbounded() {
    let with = |s: u32| format!("{GATE}timeout_seconds = {s}\n");
    let t = |start: &str, now: &str| {
        let (p, c) = merged(start, now);
        (p.gates["unit"].timeout_seconds, entries(&c).first().map(|(_, f)| *f))
    };
    assert_eq!(t(&with(60), &with(30)), (Some(30), Some(true)));
    assert_eq!(t(GATE, &with(30)), (Some(30), Some(true)));
    assert_eq!(t(&with(60), &with(600)), (Some(60), Some(false)));
    assert_eq!(t(&with(60), GATE), (Some(60), Some(false)));
}

const QUESTION: &str = "[gates.docs]\nrun = \"true\"\ninputs = [\"docs/**\"]\n[gates.other]\nrun = \"true\"\n\n[[questions]]\nid = \"documented\"\nstage = \"documentation\"\nquestion = \"Documented?\"\ngate = \"docs\"\n";

#[test]
fn questions_added_are_asked_removed_ones_still_are_and_a_new_gate_loosens() {
    let gates_only = "[gates.docs]\nrun = \"true\"\ninputs = [\"docs/**\"]\n[gates.other]\nrun = \"true\"\n";
    let (p, c) = merged(gates_only, QUESTION);
    assert_eq!(p.questions.len(), 1);
    assert_eq!(entries(&c), [("[[questions]] documented", true)]);
    let (p, c) = merged(QUESTION, gates_only);
    assert_eq!(p.questions[0].id, "documented");
    assert_eq!(entries(&c), [("[[questions]] documented", false)]);
    let (p, c) = merged(QUESTION, &QUESTION.replace("gate = \"docs\"", "gate = \"other\""));
    assert_eq!(p.questions[0].gate, "docs");
    assert_eq!(entries(&c), [("[[questions]] documented", false)]);
    let (p, c) = merged(QUESTION, &QUESTION.replace("Documented?", "Were the documents updated?"));
    assert_eq!(p.questions[0].question, "Were the documents updated?");
    assert_eq!(entries(&c), [("[[questions]] documented", true)]);
}

#[test]
fn exemptions_added_exempt_nothing_removed_ones_no_longer_exempt_and_the_sooner_end_holds() {
    let ex = |until: &str| format!("[[exempt]]\nquestion = \"measurable\"\nreason = \"r\"\n{until}");
    let (p, c) = merged("", &ex(""));
    assert!(p.exempt.is_empty());
    assert_eq!(entries(&c), [("[[exempt]] measurable", false)]);
    let (p, c) = merged(&ex(""), "");
    assert!(p.exempt.is_empty());
    assert_eq!(entries(&c), [("[[exempt]] measurable", true)]);
    let until = |p: &Policy| p.exempt[0].until.map(|d| d.to_string());
    let (p, c) = merged(&ex("until = 2000-01-01\n"), &ex("until = 2999-01-01\n"));
    assert_eq!((until(&p).as_deref(), entries(&c)), (Some("2000-01-01"), vec![("[[exempt]] measurable", false)]));
    let (p, c) = merged(&ex("until = 2000-01-01\n"), &ex(""));
    assert_eq!((until(&p).as_deref(), entries(&c)), (Some("2000-01-01"), vec![("[[exempt]] measurable", false)]));
    let (p, c) = merged(&ex("until = 2999-01-01\n"), &ex("until = 2030-01-01\n"));
    assert_eq!((until(&p).as_deref(), entries(&c)), (Some("2030-01-01"), vec![("[[exempt]] measurable", true)]));
    let (p, c) = merged(&ex(""), &ex("until = 2030-01-01\n"));
    assert_eq!((until(&p).as_deref(), entries(&c)), (Some("2030-01-01"), vec![("[[exempt]] measurable", true)]));
    let (p, c) = merged(&ex(""), &ex("").replace("\"r\"", "\"another\""));
    assert_eq!((p.exempt[0].reason.as_str(), entries(&c)), ("another", vec![("[[exempt]] measurable", true)]));
}

#[test]
fn caps_the_lower_is_in_force_and_raising_or_removing_loosens() {
    let (p, c) = merged("", "[caps]\ncommitted = 9\n");
    assert_eq!((p.caps["committed"], entries(&c)), (7, vec![("[caps] committed", false)]));
    let (p, c) = merged("", "[caps]\ncommitted = 2\n");
    assert_eq!((p.caps["committed"], entries(&c)), (2, vec![("[caps] committed", true)]));
    let (p, c) = merged("[caps]\ncommitted = 2\n", "");
    assert_eq!((p.caps["committed"], entries(&c)), (2, vec![("[caps] committed", false)]));
    let (_, c) = merged("[caps]\ncommitted = 7\n", "");
    assert!(c.is_empty(), "a cap equal to the built-in one taken away changes nothing: {c:?}");
}

#[test]
fn markers_scan_and_extensions_are_the_union_and_exclusions_the_intersection() {
    let m = |body: &str| format!("[markers]\n{body}\n");
    // Each change is named for markers-live, then for filings-closed, which
    // reads the register the other way round.
    let (p, c) = merged("", &m("scan = [\"docs\"]"));
    let markers = p.markers.expect("a register");
    assert_eq!(markers.scan.expect("scan"), ["src", "crates", "apps", "docs"]);
    let both = |entry: &'static str| vec![(entry, false), (entry, true), (entry, true), (entry, false)];
    assert_eq!(entries(&c), both("[markers] scan"));
    let (p, c) = merged("", &m("extensions = [\"md\"]"));
    assert_eq!(p.markers.and_then(|m| m.extensions).expect("extensions"), ["rs", "sh", "py", "ts", "md"]);
    assert_eq!(entries(&c), both("[markers] extensions"));
    let (p, c) = merged("", &m("exclude = [\"src\", \"**/test/**\"]"));
    assert_eq!(p.markers.and_then(|m| m.exclude).expect("exclude"), ["**/test/**"]);
    assert_eq!(entries(&c), both("[markers] exclude"));
    let (p, c) = merged("", &m("pattern = \"TODO\\\\((#\\\\d+)\\\\)\""));
    assert_eq!(p.markers.expect("register").pattern, None, "the start's (default) pattern stays");
    assert_eq!(entries(&c), [("[markers] pattern", false)]);
}

#[test]
fn a_filing_is_settled_by_what_both_registers_scan_and_neither_excludes() {
    let m = |body: &str| format!("[markers]\n{body}\n");
    let (p, _) = merged(&m("scan = [\"src\"]"), &m("scan = [\"src\", \"docs\"]\nextensions = [\"rs\", \"md\"]"));
    let live = p.markers.clone().expect("a register");
    assert_eq!(live.scan.expect("scan"), ["src", "docs"]);
    let filings = p.filing_register().expect("the register of filings");
    assert_eq!(filings.scan.as_deref(), Some(&["src".to_string()][..]));
    assert_eq!(filings.extensions.as_deref(), Some(&["rs".to_string()][..]), "md is the task's");
    let (p, _) = merged(&m("exclude = [\"gen/**\"]"), &m("exclude = [\"vendor/**\"]"));
    let filings = p.filing_register().expect("the register of filings");
    assert_eq!(filings.exclude.as_deref(), Some(&["gen/**".to_string(), "vendor/**".to_string()][..]));
    assert_eq!(p.markers.and_then(|m| m.exclude).expect("exclude"), Vec::<String>::new());
    // A directory under one the start scanned is scanned by both.
    let (p, _) = merged(&m("scan = [\".\"]"), &m("scan = [\"src/\", \"docs\"]"));
    let filings = p.filing_register().expect("the register of filings");
    assert_eq!(filings.scan.as_deref(), Some(&["src".to_string(), "docs".to_string()][..]));
    let (p, _) = merged(&m("scan = [\"src\"]"), &m("scan = [\"src/parse\", \"docs\"]"));
    assert_eq!(p.filing_register().and_then(|f| f.scan.clone()).expect("scan"), ["src/parse"]);
    // The same register is the one register, for both questions.
    let (p, c) = merged(&m("scan = [\"src\"]"), &m("scan = [\"src\"]"));
    assert!(c.is_empty() && p.filing_markers.is_none() && p.filing_register() == p.markers.as_ref());
}

#[test]
fn hook_block_limit_the_higher_and_budget_the_lower_hold_and_auto_start_is_taken() {
    let (p, c) = merged("[hook]\nblock_limit = 3\n", "[hook]\nblock_limit = 1\n");
    assert_eq!((p.hook.block_limit, entries(&c)), (3, vec![("[hook] block_limit", false)]));
    let (p, c) = merged("[hook]\nblock_limit = 3\n", "[hook]\nblock_limit = 5\n");
    assert_eq!((p.hook.block_limit, entries(&c)), (5, vec![("[hook] block_limit", true)]));
    let (p, c) = merged("", "[hook]\nbudget_ms = 500\nauto_start = true\n");
    assert_eq!((p.hook.budget_ms, p.hook.auto_start), (500, true));
    assert_eq!(entries(&c), [("[hook] budget_ms", true), ("[hook] auto_start", true)]);
    // A budget raised past the one the host's timeout was sized to is not
    // in force: the host would kill the hook before it answered.
    let (p, c) = merged("[hook]\nbudget_ms = 1000\n", "[hook]\nbudget_ms = 120000\n");
    assert_eq!((p.hook.budget_ms, entries(&c)), (1000, vec![("[hook] budget_ms", false)]));
    let (p, c) = merged("", "[hook]\nbudget_ms = 120000\n");
    assert_eq!((p.hook.budget_ms, entries(&c)), (20_000, vec![("[hook] budget_ms", false)]));
}

#[test]
fn forge_max_age_the_shorter_holds_and_none_is_any_age() {
    let age = |p: &Policy| p.forge.as_ref().and_then(|f| f.max_age_minutes);
    let (p, c) = merged("[forge]\nmax_age_minutes = 30\n", "[forge]\nmax_age_minutes = 600\n");
    assert_eq!((age(&p), entries(&c)), (Some(30), vec![("[forge] max_age_minutes", false)]));
    let (p, c) = merged("[forge]\nmax_age_minutes = 30\n", "");
    assert_eq!((age(&p), entries(&c)), (Some(30), vec![("[forge] max_age_minutes", false)]));
    let (p, c) = merged("", "[forge]\nmax_age_minutes = 30\n");
    assert_eq!((age(&p), entries(&c)), (Some(30), vec![("[forge] max_age_minutes", true)]));
}

fn task(head: Option<String>, kept: Option<Option<&str>>) -> TaskState {
    let mut r = TaskRecord { head, ..majordomus_testkit::task_record() };
    r.snapshot.policy = kept.map(|t| PolicyAtStart { text: t.map(str::to_string) });
    TaskState::Active(Box::new(r))
}

#[test]
fn without_a_task_the_working_trees_policy_is_the_policy_and_its_problems_are_refused() {
    let t = TestRepo::with_commit();
    t.write(POLICY_FILE, GATE);
    let got = read(None, t.path(), &TaskState::None).expect("valid");
    assert_eq!((got.policy, got.finding), (policy(GATE), None));
    t.write(POLICY_FILE, "nonsense\n");
    assert!(read(None, t.path(), &TaskState::None).is_err());
}

#[test]
fn the_starts_policy_is_the_kept_text_else_the_start_commits_file_else_said_unknown() {
    let t = TestRepo::with_commit();
    t.write(POLICY_FILE, GATE);
    t.commit_all("a gate");
    let repo = majordomus_readings::open(t.path()).expect("open");
    t.write(POLICY_FILE, "");
    // The kept text: the gate removed since is still in force.
    let got = read(Some(&repo), t.path(), &task(Some(t.head()), Some(Some(GATE)))).expect("read");
    assert!(got.policy.gates.contains_key("unit"));
    let finding = got.finding.expect("a finding");
    assert!(finding.start.starts_with("the task record"), "{}", finding.start);
    assert_eq!(finding.loosenings().count(), 1);
    // No text kept (an older record): the start commit's file.
    let got = read(Some(&repo), t.path(), &task(Some(t.head()), None)).expect("read");
    assert!(got.policy.gates.contains_key("unit"));
    assert!(got.finding.expect("finding").start.starts_with("the start commit"));
    // Kept as "no policy file": the defaults, so the gate is not in force.
    let got = read(Some(&repo), t.path(), &task(Some(t.head()), Some(None))).expect("read");
    assert!(got.policy.gates.is_empty());
    // Neither: said, and the defaults stand for it.
    t.write(POLICY_FILE, "[[exempt]]\nquestion = \"pushed\"\nreason = \"r\"\n");
    let got = read(Some(&repo), t.path(), &task(None, None)).expect("read");
    assert!(got.policy.exempt.is_empty(), "an exemption is not in force against an unknown start");
    let finding = got.finding.expect("finding");
    assert!(finding.start.starts_with("not known: the task record predates"), "{}", finding.start);
}

#[test]
fn a_working_tree_policy_that_does_not_parse_leaves_the_starts_in_force_and_holds_gates_green_open() {
    let t = TestRepo::with_commit();
    t.write(POLICY_FILE, format!("{GATE}this line is not toml\n").as_str());
    let got = read(None, t.path(), &task(Some(t.head()), Some(Some(GATE)))).expect("read");
    assert_eq!(got.policy, policy(GATE));
    let finding = got.finding.expect("finding");
    assert!(finding.unreadable.as_deref().is_some_and(|w| w.contains("majordomus.toml")), "{finding:?}");
    let mut answers = vec![crate::answer::sample("gates-green", Status::Pass)];
    hold_open(&mut answers, Some(&finding));
    assert_eq!(answers[0].status, Status::Refused);
    assert!(answers[0].evidence.contains("no longer reads as a policy"), "{}", answers[0].evidence);
    assert_eq!(answers[0].details["measured"]["status"], "pass");
}

#[test]
fn a_text_changed_with_nothing_it_decides_is_still_named() {
    let t = TestRepo::with_commit();
    t.write(POLICY_FILE, &format!("# a comment\n{GATE}"));
    let got = read(None, t.path(), &task(Some(t.head()), Some(Some(GATE)))).expect("read");
    let finding = got.finding.expect("finding");
    assert_eq!(finding.changes.len(), 1);
    assert_eq!((finding.changes[0].entry.as_str(), finding.changes[0].in_force), (POLICY_FILE, true));
}

#[test]
fn a_policy_edit_uncommitted_at_the_start_is_the_starts_until_the_task_commits_it() {
    let t = TestRepo::with_commit();
    t.write(POLICY_FILE, GATE);
    t.commit_all("a gate");
    let start = t.head();
    // A peer's loosening, uncommitted at the start: kept as the start's text.
    let loosened = GATE.replace("cargo test", "true");
    t.write(POLICY_FILE, &loosened);
    // Told from the kept text, not from the snapshot's dirty list (here
    // empty, as where a bit hid the edit from `git status`).
    let state = task(Some(start.clone()), Some(Some(&loosened)));
    let repo = majordomus_readings::open(t.path()).expect("open");
    let got = read(Some(&repo), t.path(), &state).expect("read");
    assert_eq!(got.policy.gates["unit"].run, "true", "left uncommitted, it is the start's");
    // Committed by the task: compared with the start commit's, a loosening not in force.
    t.commit_all("tidy");
    let got = read(Some(&repo), t.path(), &state).expect("read");
    assert_eq!(got.policy.gates["unit"].run, "cargo test");
    let finding = got.finding.expect("a finding");
    assert!(finding.start.contains("uncommitted at the start that the task has committed since"), "{}", finding.start);
    assert_eq!(finding.loosenings().count(), 1);
}

#[test]
fn a_policy_edit_uncommitted_at_the_start_and_thrown_away_or_rewritten_since_is_not_the_starts() {
    let t = TestRepo::with_commit();
    t.write(POLICY_FILE, GATE);
    t.commit_all("a gate");
    let loosened = GATE.replace("cargo test", "true");
    let state = task(Some(t.head()), Some(Some(&loosened)));
    let repo = majordomus_readings::open(t.path()).expect("open");
    let run = |now: &str| {
        t.write(POLICY_FILE, now);
        read(Some(&repo), t.path(), &state).expect("read")
    };
    // Still held, with more beside it: the start's.
    let got = run(&format!("{loosened}[caps]\ncommitted = 5\n"));
    assert_eq!(got.policy.gates["unit"].run, "true");
    // Thrown away, or undone beside another change: the start commit's file.
    for now in [GATE.to_string(), format!("{GATE}[caps]\ncommitted = 5\n")] {
        let got = run(&now);
        assert_eq!(got.policy.gates["unit"].run, "cargo test", "{now}");
        let finding = got.finding.expect("a finding");
        assert!(finding.start.contains("that the working tree no longer holds"), "{}", finding.start);
    }
}

#[test]
fn a_policy_file_linked_in_a_commit_is_read_through_the_link_inside_the_tree_only() {
    let t = TestRepo::with_commit();
    t.write("config/majordomus.toml", GATE);
    std::fs::create_dir_all(t.path().join(".ai/repo")).expect("mkdir");
    std::os::unix::fs::symlink("../../config/majordomus.toml", t.path().join(POLICY_FILE)).expect("link");
    t.commit_all("a linked policy");
    let repo = majordomus_readings::open(t.path()).expect("open");
    assert_eq!(in_commit(&repo, &t.head(), "the start commit"), Ok(Some(GATE.to_string())));
    // A record without the kept text reads the target, not the link's text.
    let got = read(Some(&repo), t.path(), &task(Some(t.head()), None)).expect("read");
    assert!(got.policy.gates.contains_key("unit"));
    // A leading directory that is a link is followed too.
    std::fs::remove_dir_all(t.path().join(".ai/repo")).expect("rm");
    t.write("shared/majordomus.toml", GATE);
    std::os::unix::fs::symlink("../shared", t.path().join(".ai/repo")).expect("link");
    t.commit_all("a linked directory");
    assert_eq!(in_commit(&repo, &t.head(), "the start commit"), Ok(Some(GATE.to_string())));
    // Outside the tree, relative or absolute, or a loop: refused, naming the link.
    for target in ["../../../elsewhere.toml", "/etc/majordomus.toml", "majordomus.toml"] {
        std::fs::remove_file(t.path().join(".ai/repo")).expect("rm");
        std::fs::create_dir_all(t.path().join(".ai/repo")).expect("mkdir");
        std::os::unix::fs::symlink(target, t.path().join(POLICY_FILE)).expect("link");
        t.commit_all(target);
        let why = in_commit(&repo, &t.head(), "the start commit").expect_err(target);
        assert!(why.contains("symbolic link"), "{target}: {why}");
        std::fs::remove_dir_all(t.path().join(".ai/repo")).expect("rm");
        std::os::unix::fs::symlink("../shared", t.path().join(".ai/repo")).expect("link");
    }
    // A link inside the tree to nothing it holds: no policy file.
    std::fs::remove_file(t.path().join(".ai/repo")).expect("rm");
    std::fs::create_dir_all(t.path().join(".ai/repo")).expect("mkdir");
    std::os::unix::fs::symlink("../../nowhere.toml", t.path().join(POLICY_FILE)).expect("link");
    t.commit_all("a link to nothing");
    assert_eq!(in_commit(&repo, &t.head(), "the start commit"), Ok(None));
}

#[test]
fn no_remote_is_read_from_the_start_snapshot_and_the_repository_both() {
    use majordomus_records::policy::Provider;
    use majordomus_records::task::RemoteAtStart;
    let t = TestRepo::with_commit();
    t.write(POLICY_FILE, "[forge]\nprovider = \"none\"\n");
    let repo = majordomus_readings::open(t.path()).expect("open");
    let with_remotes = |remotes: Option<Vec<&str>>| {
        let TaskState::Active(mut r) = task(Some(t.head()), Some(None)) else { unreachable!() };
        r.snapshot.remotes = remotes.map(|names| {
            names
                .into_iter()
                .map(|n| {
                    (
                        n.to_string(),
                        RemoteAtStart {
                            url: "../o.git".into(),
                            push_url: None,
                            fetch: None,
                            url_leads: None,
                            push_url_leads: None,
                            gh_resolved: None,
                            glab_resolved: None,
                            urls: None,
                            push_urls: None,
                            beyond_refspecs: None,
                        },
                    )
                })
                .collect()
        });
        TaskState::Active(r)
    };
    let provider = |repo: Option<&majordomus_readings::Repo>, task: &TaskState| {
        read(repo, t.path(), task).expect("read").policy.provider()
    };
    // None now, none at the start: the declaration holds.
    assert_eq!(provider(Some(&repo), &with_remotes(Some(vec![]))), Some(Provider::None));
    // A remote at the start (removed since), or a record that kept none, or
    // the repository not opened: a loosening, the start's provider holds.
    assert_eq!(provider(Some(&repo), &with_remotes(Some(vec!["origin"]))), None);
    assert_eq!(provider(Some(&repo), &with_remotes(None)), None);
    assert_eq!(provider(None, &with_remotes(Some(vec![]))), None);
    // A remote added since.
    let _origin = t.with_origin();
    let repo = majordomus_readings::open(t.path()).expect("open");
    assert_eq!(provider(Some(&repo), &with_remotes(Some(vec![]))), None);
}

#[test]
fn beside_the_tasks_own_change_only_what_their_version_adds_in_strictness_is_taken() {
    use super::stricter::Place;
    let at =
        |text: &str, from: &str| AtStart { policy: policy(text), from: from.into(), text: Some(Some(text.into())) };
    let lint = "[gates.lint]\nrun = \"lint\"\ninputs = [\"src/**\"]\n";
    // A gate they added is taken; the task's removal of it is then a loosening.
    let start = with_their_strictness(at(GATE, "kept"), at(&format!("{GATE}\n{lint}"), "theirs"), Place::default());
    assert!(start.from.starts_with("kept, with what theirs adds in strictness"), "{}", start.from);
    let (_, changes) = stricter::merge_at(&start.policy, &policy(GATE), Place::default());
    assert!(changes.iter().any(|c| c.entry == "[gates.lint]" && !c.in_force), "{changes:?}");
    // Their loosening alone: the start's, as it was.
    let looser = GATE.replace("cargo test", "true");
    let start = with_their_strictness(at(GATE, "kept"), at(&looser, "theirs"), Place::default());
    assert_eq!((start.policy, start.from.as_str()), (policy(GATE), "kept"));
}
