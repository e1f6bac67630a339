//! "Stricter", key by key: how the policy the task started under and the
//! working tree's policy make the policy in force, and which changes are
//! named as loosenings (README.md, "The policy in force", has the table).
//!
//! Every function takes the working tree's value apart with an exhaustive
//! pattern, so a key added to the policy does not compile until it is
//! given a rule here. A key whose two values cannot be ordered (a gate's
//! command, the trunk, the marker pattern) keeps the start's value: a
//! change to it is taken as a loosening, since nothing can show it is not.

use std::collections::{BTreeMap, BTreeSet};

use indexmap::IndexMap;

use majordomus_records::policy::{
    marker_defaults, Exemption, ExtraQuestion, Forge, Gate, HookPolicy, Markers, Policy, Provider, TestItems, Tests,
    Trunk,
};

use super::{Change, Effect};

/// What the repository itself shows that a key's rule takes into account.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Place {
    /// No remote is configured now, nor was at the task's start (the
    /// snapshot's remotes, read as none only where it kept them): no forge
    /// could be asked of the task's work, whatever the policy says.
    pub remote_less: bool,
    /// Every remote is a directory on this machine, now and at the task's
    /// start (`in_force::remotes_on_this_machine`), so no forge holds its
    /// pull requests. Read only where the working tree declares no forge.
    pub on_this_machine: bool,
}

/// The policy in force, from the start's and the working tree's, and every
/// change between them.
pub fn merge(start: &Policy, now: &Policy) -> (Policy, Vec<Change>) {
    merge_at(start, now, Place::default())
}

/// [`merge`], where the repository shows what `place` says.
pub fn merge_at(start: &Policy, now: &Policy, place: Place) -> (Policy, Vec<Change>) {
    // `filing_markers` is no key of a file: it is what this merge makes.
    let Policy { trunk, gates, questions, exempt, caps, markers, hook, forge, tests, filing_markers: _ } = now;
    let mut c = Vec::new();
    let (markers, filing_markers) = self::markers(&start.markers, markers, &mut c);
    let policy = Policy {
        trunk: self::trunk(&start.trunk, trunk, &mut c),
        gates: self::gates(&start.gates, gates, &mut c),
        questions: self::questions(&start.questions, questions, &mut c),
        exempt: self::exempt(&start.exempt, exempt, &mut c),
        caps: self::caps(&start.caps, caps, &mut c),
        markers,
        hook: self::hook(&start.hook, hook, &mut c),
        forge: self::forge(&start.forge, forge, place, &mut c),
        tests: self::tests(&start.tests, tests, &mut c),
        filing_markers,
    };
    (policy, c)
}

/// `[trunk]`: which branch is the trunk is a fact, not a degree of
/// strictness; any change repoints `integrated` and `pushed` and is not in
/// force. The start's stays.
pub(crate) fn trunk(start: &Option<Trunk>, now: &Option<Trunk>, c: &mut Vec<Change>) -> Option<Trunk> {
    let plain = |t: &Option<Trunk>| t.clone().filter(|t| t.remote.is_some() || t.branch.is_some());
    if plain(start) != plain(now) {
        c.push(Change::new(
            "[trunk]",
            format!("points the trunk at {} instead of {}", trunk_words(now), trunk_words(start)),
            Effect::Looser,
        ));
    }
    start.clone()
}

fn trunk_words(t: &Option<Trunk>) -> String {
    match t.as_ref().map(|t| (t.remote.as_deref(), t.branch.as_deref())) {
        None | Some((None, None)) => "the trunk found without the policy (the remote's default branch)".into(),
        Some((Some(r), Some(b))) => format!("{r}/{b}"),
        Some((None, Some(b))) => format!("the branch {b}"),
        Some((Some(r), None)) => format!("the default branch of {r}"),
    }
}

/// `[gates]`: a gate added is in force; one removed stays, as the start
/// declared it. Of a gate in both, key by key: `run` cannot be ordered (the
/// start's stays); `inputs` are the union (a gate selected by more changes,
/// its verdict covering more files, is stricter); `required` and `always`
/// hold if either says so; `timeout_seconds` is the shorter (none is
/// unbounded).
pub(crate) fn gates(
    start: &IndexMap<String, Gate>,
    now: &IndexMap<String, Gate>,
    c: &mut Vec<Change>,
) -> IndexMap<String, Gate> {
    let mut out = IndexMap::new();
    for (id, s) in start {
        match now.get(id) {
            None => {
                c.push(Change::new(format!("[gates.{id}]"), "removed since the start", Effect::Looser));
                out.insert(id.clone(), s.clone());
            }
            Some(n) => {
                out.insert(id.clone(), gate(id, s, n, c));
            }
        }
    }
    for (id, n) in now {
        if !start.contains_key(id) {
            c.push(Change::new(format!("[gates.{id}]"), "added since the start", Effect::Stricter));
            out.insert(id.clone(), n.clone());
        }
    }
    out
}

fn gate(id: &str, start: &Gate, now: &Gate, c: &mut Vec<Change>) -> Gate {
    let Gate { run, inputs, required, always, timeout_seconds } = now;
    let entry = |key: &str| format!("[gates.{id}] {key}");
    if *run != start.run {
        c.push(Change::new(
            entry("run"),
            format!("changed from `{}` to `{run}` (the start's command runs and judges)", start.run),
            Effect::Looser,
        ));
    }
    let inputs = union(&start.inputs, inputs, &entry("inputs"), "selects and covers", c);
    // Widened, its verdict is hashed over more files: a failure recorded
    // over the start's inputs no longer matches the inputs now, and a gate
    // no change selects would pass with its failure still on the tree. So
    // a gate whose inputs grew is selected, and runs over them.
    let widened = inputs.len() > start.inputs.len();
    if widened && !start.always && !*always {
        c.push(Change::new(
            entry("inputs"),
            "widened, so the gate is selected: its verdict over the inputs now is owed",
            Effect::Stricter,
        ));
    }
    let always_in_force =
        either(start.always, *always, &entry("always"), "no longer always selected; it still is", "always selected", c);
    Gate {
        run: start.run.clone(),
        inputs,
        required: either(
            start.required,
            *required,
            &entry("required"),
            "made optional; it stays required",
            "made required",
            c,
        ),
        always: always_in_force || widened,
        timeout_seconds: lower(start.timeout_seconds, *timeout_seconds, &entry("timeout_seconds"), "seconds", c),
    }
}

/// `[[questions]]`: a question added is asked at once; one removed is still
/// asked; one answered by another gate than at the start keeps the start's
/// gate (a gate cannot be ordered). A new wording or stage is taken as it
/// is: it decides nothing.
pub(crate) fn questions(start: &[ExtraQuestion], now: &[ExtraQuestion], c: &mut Vec<Change>) -> Vec<ExtraQuestion> {
    let mut out = Vec::new();
    for s in start {
        let entry = format!("[[questions]] {}", s.id);
        match now.iter().find(|n| n.id == s.id) {
            None => {
                c.push(Change::new(entry, "removed since the start; it is still asked", Effect::Looser));
                out.push(s.clone());
            }
            Some(n) => {
                let ExtraQuestion { id: _, stage, question, gate } = n;
                if *gate != s.gate {
                    c.push(Change::new(
                        entry,
                        format!("answered by the gate {gate} instead of {}; the start's gate answers it", s.gate),
                        Effect::Looser,
                    ));
                    out.push(s.clone());
                    continue;
                }
                if *stage != s.stage || *question != s.question {
                    c.push(Change::new(entry, "its wording or stage changed", Effect::Neutral));
                }
                out.push(n.clone());
            }
        }
    }
    for n in now {
        if !start.iter().any(|s| s.id == n.id) {
            c.push(Change::new(format!("[[questions]] {}", n.id), "added since the start", Effect::Stricter));
            out.push(n.clone());
        }
    }
    out
}

/// `[[exempt]]`: an exemption added exempts nothing for this task; one
/// removed no longer exempts; of one in both, the one that ends sooner is
/// in force (no `until` is for ever), so a date moved later or taken away
/// leaves the start's. A new reason with the same date is taken: it is
/// only shown.
pub(crate) fn exempt(start: &[Exemption], now: &[Exemption], c: &mut Vec<Change>) -> Vec<Exemption> {
    let mut out = Vec::new();
    for s in start {
        let entry = format!("[[exempt]] {}", s.question);
        let Some(n) = now.iter().find(|n| n.question == s.question) else {
            c.push(Change::new(entry, "removed since the start", Effect::Stricter));
            continue;
        };
        let Exemption { question: _, reason, until } = n;
        let day = |d: &Option<chrono::NaiveDate>| d.map_or_else(|| "no end".to_string(), |d| d.to_string());
        match (s.until, *until) {
            (a, b) if a == b => {
                if *reason != s.reason {
                    c.push(Change::new(entry, format!("its reason is now {reason:?}"), Effect::Neutral));
                }
                out.push(n.clone());
            }
            (Some(a), Some(b)) if b < a => {
                c.push(Change::new(entry, format!("ends sooner: {a} became {b}"), Effect::Stricter));
                out.push(n.clone());
            }
            (None, Some(b)) => {
                c.push(Change::new(entry, format!("given an end, {b}"), Effect::Stricter));
                out.push(n.clone());
            }
            (a, b) => {
                c.push(Change::new(
                    entry,
                    format!("extended: its end, {}, became {}; the start's end holds", day(&a), day(&b)),
                    Effect::Looser,
                ));
                out.push(s.clone());
            }
        }
    }
    for n in now {
        if !start.iter().any(|s| s.question == n.question) {
            c.push(Change::new(
                format!("[[exempt]] {}", n.question),
                format!("added since the start (reason: {:?}); it exempts nothing for this task", n.reason),
                Effect::Looser,
            ));
        }
    }
    out
}

/// `[caps]`: the lower cap of each question is in force (a lower cap holds
/// the score lower while the question is open); a cap raised, or taken
/// away where the start's was below the built-in one, is not.
pub(crate) fn caps(
    start: &BTreeMap<String, u8>,
    now: &BTreeMap<String, u8>,
    c: &mut Vec<Change>,
) -> BTreeMap<String, u8> {
    let ids: BTreeSet<&String> = start.keys().chain(now.keys()).collect();
    let mut out = BTreeMap::new();
    for id in ids {
        let built_in = crate::score::cap_of(id, &BTreeMap::new());
        let (s, n) = (start.get(id).copied().unwrap_or(built_in), now.get(id).copied().unwrap_or(built_in));
        let entry = format!("[caps] {id}");
        if n > s {
            let how = match now.get(id) {
                Some(_) => format!("raised from {s} to {n}"),
                None => format!("taken away: it was {s}, the built-in cap is {n}"),
            };
            c.push(Change::new(entry, how, Effect::Looser));
        } else if n < s {
            c.push(Change::new(entry, format!("lowered from {s} to {n}"), Effect::Stricter));
        }
        out.insert(id.clone(), s.min(n));
    }
    out
}

/// `[markers]`: one register read by two questions in opposite
/// directions. For `markers-live` a register that scans more holds more
/// markers to account, so it scans the union of the directories and of the
/// extensions and excludes only what both exclude. For `filings-closed` a
/// register that scans more settles more filings (a label and a marker in
/// a scanned file register an open issue as a limitation), so the register
/// a filing is settled by scans only what both scan and excludes what
/// either excludes (`Policy::filing_markers`). Each change is named once for
/// each question, stricter for the one and looser for the other. A pattern
/// changed keeps the start's for both. Each key left out is its default on
/// either side. Returns the register for `markers-live` and, where the two
/// differ from the start's, the one for `filings-closed`.
pub(crate) fn markers(
    start: &Option<Markers>,
    now: &Option<Markers>,
    c: &mut Vec<Change>,
) -> (Option<Markers>, Option<Markers>) {
    if start == now {
        return (start.clone(), None);
    }
    let (s, n) = (start.clone().unwrap_or_default(), now.clone().unwrap_or_default());
    let Markers { pattern, scan, extensions, exclude } = n;
    let listed = |v: Option<Vec<String>>, default: &[&str]| v.unwrap_or_else(|| strings(default));
    let default_pattern = || marker_defaults::PATTERN.to_string();
    let (s_pattern, n_pattern) =
        (s.pattern.clone().unwrap_or_else(default_pattern), pattern.unwrap_or_else(default_pattern));
    if s_pattern != n_pattern {
        c.push(Change::new(
            "[markers] pattern",
            format!("changed from `{s_pattern}` to `{n_pattern}`; the start's pattern is the one read"),
            Effect::Looser,
        ));
    }
    let kept = |merged: Vec<String>, then: &Option<Vec<String>>, default: &[&str]| {
        (then.is_some() || merged != strings(default)).then_some(merged)
    };
    let (s_scan, n_scan) = (listed(s.scan.clone(), &marker_defaults::SCAN), listed(scan, &marker_defaults::SCAN));
    let (s_ext, n_ext) =
        (listed(s.extensions.clone(), &marker_defaults::EXTENSIONS), listed(extensions, &marker_defaults::EXTENSIONS));
    let (s_excl, n_excl) =
        (listed(s.exclude.clone(), &marker_defaults::EXCLUDE), listed(exclude, &marker_defaults::EXCLUDE));
    register_list(&s_scan, &n_scan, "[markers] scan", "scans", c);
    register_list(&s_ext, &n_ext, "[markers] extensions", "scans files ending in", c);
    exclusions(&s_excl, &n_excl, c);
    let live = Markers {
        pattern: s.pattern.clone(),
        scan: kept(joined(&s_scan, &n_scan), &s.scan, &marker_defaults::SCAN),
        extensions: kept(joined(&s_ext, &n_ext), &s.extensions, &marker_defaults::EXTENSIONS),
        exclude: kept(common(&s_excl, &n_excl), &s.exclude, &marker_defaults::EXCLUDE),
    };
    let filings = Markers {
        pattern: s.pattern.clone(),
        scan: Some(within_both(&s_scan, &n_scan)),
        extensions: Some(common(&s_ext, &n_ext)),
        exclude: Some(joined(&s_excl, &n_excl)),
    };
    (Some(live), Some(filings))
}

/// The changes to one scanned list of the register (`scan`, `extensions`),
/// named for each question: what the working tree added is stricter for
/// `markers-live` and looser for `filings-closed`; what it dropped, the
/// other way round.
fn register_list(start: &[String], now: &[String], entry: &str, verb: &str, c: &mut Vec<Change>) {
    let dropped: Vec<&String> = start.iter().filter(|s| !now.contains(s)).collect();
    let added: Vec<&String> = now.iter().filter(|n| !start.contains(n)).collect();
    if !dropped.is_empty() {
        let what = quoted(&dropped);
        c.push(Change::new(
            entry,
            format!("narrowed: no longer {verb} {what}; markers-live still does"),
            Effect::Looser,
        ));
        c.push(Change::new(
            entry,
            format!("narrowed: no longer {verb} {what}, so no marker there settles a filing (filings-closed)"),
            Effect::Stricter,
        ));
    }
    if !added.is_empty() {
        let what = quoted(&added);
        c.push(Change::new(entry, format!("widened: also {verb} {what}, for markers-live"), Effect::Stricter));
        c.push(Change::new(
            entry,
            format!(
                "widened: also {verb} {what}; a marker settles a filing (filings-closed) only where the start's \
                 register scanned too"
            ),
            Effect::Looser,
        ));
    }
}

/// The changes to the register's exclusions, named for each question: an
/// exclusion added is looser for `markers-live` and stricter for
/// `filings-closed`; one taken away, the other way round.
fn exclusions(start: &[String], now: &[String], c: &mut Vec<Change>) {
    let entry = "[markers] exclude";
    let dropped: Vec<&String> = start.iter().filter(|s| !now.contains(s)).collect();
    let added: Vec<&String> = now.iter().filter(|n| !start.contains(n)).collect();
    if !added.is_empty() {
        let what = quoted(&added);
        c.push(Change::new(
            entry,
            format!("widened: now also excludes {what}; not excluded for markers-live in this task"),
            Effect::Looser,
        ));
        c.push(Change::new(
            entry,
            format!("widened: now also excludes {what}, so no marker there settles a filing (filings-closed)"),
            Effect::Stricter,
        ));
    }
    if !dropped.is_empty() {
        let what = quoted(&dropped);
        c.push(Change::new(entry, format!("narrowed: no longer excludes {what}, for markers-live"), Effect::Stricter));
        c.push(Change::new(
            entry,
            format!(
                "narrowed: no longer excludes {what}; for filings-closed they stay excluded in this task, so a marker \
                 there settles no filing"
            ),
            Effect::Looser,
        ));
    }
}

/// Both lists, the start's order first, each once.
fn joined(start: &[String], now: &[String]) -> Vec<String> {
    let added = now.iter().filter(|n| !start.contains(n));
    start.iter().chain(added).cloned().collect()
}

/// What both lists hold, the start's order.
fn common(start: &[String], now: &[String]) -> Vec<String> {
    start.iter().filter(|s| now.contains(s)).cloned().collect()
}

/// The directories both lists of scanned directories cover: each of either
/// list that the other covers (a directory covers itself and what is under
/// it; `.` or the empty name, all of the tree). The start scanning `.` and
/// the working tree `src` is `src`.
fn within_both(start: &[String], now: &[String]) -> Vec<String> {
    let bare = |d: &String| d.trim_matches('/').to_string();
    let covers = |outer: &str, inner: &str| {
        outer.is_empty()
            || outer == "."
            || inner == outer
            || inner.strip_prefix(outer).is_some_and(|r| r.starts_with('/'))
    };
    let (start, now): (Vec<String>, Vec<String>) = (start.iter().map(bare).collect(), now.iter().map(bare).collect());
    let mut out: Vec<String> = Vec::new();
    let taken = start.iter().filter(|s| now.iter().any(|n| covers(n, s)));
    let taken = taken.chain(now.iter().filter(|n| start.iter().any(|s| covers(s, n))));
    for d in taken {
        if !out.contains(d) {
            out.push(d.clone());
        }
    }
    out
}

/// `[hook]`: the higher `block_limit` is in force (more blocks before a
/// stop is let through). The lower `budget_ms` is: the stop hook's watch
/// answers by the budget in force (and a grace), and `hook install` sized
/// the host's timeout to the budget then, so a budget raised past that
/// timeout would have the host kill the hook first, and a killed hook lets
/// the stop through (test/cases/516); a lower one only cuts readings off
/// sooner, and a reading cut off is `unknown`, which blocks. `auto_start`
/// decides nothing a question answers (it acts only where no task is
/// active), so the working tree's is taken.
pub(crate) fn hook(start: &HookPolicy, now: &HookPolicy, c: &mut Vec<Change>) -> HookPolicy {
    let HookPolicy { block_limit, budget_ms, auto_start } = now;
    let limit = match block_limit.cmp(&start.block_limit) {
        std::cmp::Ordering::Less => {
            c.push(Change::new(
                "[hook] block_limit",
                format!(
                    "lowered from {} to {block_limit}; the stop is still blocked {} times in a row",
                    start.block_limit, start.block_limit
                ),
                Effect::Looser,
            ));
            start.block_limit
        }
        std::cmp::Ordering::Greater => {
            c.push(Change::new(
                "[hook] block_limit",
                format!("raised from {} to {block_limit}", start.block_limit),
                Effect::Stricter,
            ));
            *block_limit
        }
        std::cmp::Ordering::Equal => *block_limit,
    };
    let budget = match budget_ms.cmp(&start.budget_ms) {
        std::cmp::Ordering::Greater => {
            c.push(Change::new(
                "[hook] budget_ms",
                format!(
                    "raised from {} to {budget_ms}; the stop hook still answers within {} ms (and its grace), \
                     inside the host's timeout `hook install` sized to it",
                    start.budget_ms, start.budget_ms
                ),
                Effect::Looser,
            ));
            start.budget_ms
        }
        std::cmp::Ordering::Less => {
            c.push(Change::new(
                "[hook] budget_ms",
                format!("lowered from {} to {budget_ms} (a reading it cuts off is unknown)", start.budget_ms),
                Effect::Stricter,
            ));
            *budget_ms
        }
        std::cmp::Ordering::Equal => *budget_ms,
    };
    if *auto_start != start.auto_start {
        c.push(Change::new("[hook] auto_start", format!("is now {auto_start}"), Effect::Neutral));
    }
    HookPolicy { block_limit: limit, budget_ms: budget, auto_start: *auto_start }
}

/// `[forge]`: the shorter `max_age_minutes` is in force (an older
/// observation answers nothing); none is any age. A `provider` that asks
/// more of the forge's word is in force (no forge, then typed-in
/// observations, then a forge's own program); one that asks less, or
/// another forge, keeps the start's. Except `none` where the repository
/// has no remote, nor had one at the start (`place`): there no forge's
/// program can observe the task's work, so the start's provider could only
/// ever leave `backlog-not-grown` unknown, and declaring none, as its
/// remedy says, takes away nothing that could be answered. It is in force
/// at once, so that a task (or a task continued: test/cases/222) in a
/// repository with no forge is not held open for good by the default.
/// The same for `none` in place of the default (no provider at the start)
/// where every remote is a directory on this machine, now and at the start
/// (`place`): the default answers as `none` there (test/cases/517).
pub(crate) fn forge(start: &Option<Forge>, now: &Option<Forge>, place: Place, c: &mut Vec<Change>) -> Option<Forge> {
    if start == now {
        return start.clone();
    }
    let max_age = |f: &Option<Forge>| f.as_ref().and_then(|f| f.max_age_minutes);
    let Forge { max_age_minutes, provider } = now.clone().unwrap_or_default();
    let age = lower(max_age(start), max_age_minutes, "[forge] max_age_minutes", "minutes", c);
    let then = start.as_ref().and_then(|f| f.provider);
    let name = |p: Option<Provider>| p.map_or("github (the default)", Provider::as_str);
    // How much a provider asks of an observation before it counts.
    let rank = |p: Option<Provider>| match p {
        Some(Provider::None) => 0,
        Some(Provider::Recorded) => 1,
        None | Some(Provider::Github) | Some(Provider::Gitlab) => 2,
    };
    let forge_of = |p: Option<Provider>| match p {
        Some(Provider::Gitlab) => Some(Provider::Gitlab),
        None | Some(Provider::Github) => Some(Provider::Github),
        other => other,
    };
    let provider = if forge_of(then) == forge_of(provider) {
        provider
    } else if place.remote_less && provider == Some(Provider::None) {
        c.push(Change::new(
            "[forge] provider",
            format!(
                "changed from {} to none, where the repository has no remote, nor had one at the start, so no forge \
                 could observe the task's work",
                name(then)
            ),
            Effect::Neutral,
        ));
        provider
    } else if place.on_this_machine && then.is_none() && provider == Some(Provider::None) {
        c.push(Change::new(
            "[forge] provider",
            "changed from github (the default) to none, where every remote is a directory on this machine, now and \
             at the start, so no forge holds the task's pull requests (the default answers as none here)",
            Effect::Neutral,
        ));
        provider
    } else if rank(provider) > rank(then) {
        c.push(Change::new(
            "[forge] provider",
            format!("changed from {} to {}", name(then), name(provider)),
            Effect::Stricter,
        ));
        provider
    } else {
        c.push(Change::new(
            "[forge] provider",
            format!("changed from {} to {}; the start's forge is the one asked", name(then), name(provider)),
            Effect::Looser,
        ));
        then
    };
    Some(Forge { max_age_minutes: age, provider })
}

/// `[tests] paths`: only globs the start held count (a glob added makes
/// more changes count as tested); one taken away is in force. `[tests]
/// items` the same way, by each file glob and marker declared together.
pub(crate) fn tests(start: &Option<Tests>, now: &Option<Tests>, c: &mut Vec<Change>) -> Option<Tests> {
    if start == now {
        return start.clone();
    }
    let then = start.clone().unwrap_or_default();
    let Tests { paths, items } = now.clone().unwrap_or_default();
    let added: Vec<&String> = paths.iter().filter(|p| !then.paths.contains(p)).collect();
    let dropped: Vec<&String> = then.paths.iter().filter(|p| !paths.contains(p)).collect();
    if !added.is_empty() {
        c.push(Change::new(
            "[tests] paths",
            format!("widened: also counts {} as tests; the start's globs are the ones read", quoted(&added)),
            Effect::Looser,
        ));
    }
    if !dropped.is_empty() {
        c.push(Change::new(
            "[tests] paths",
            format!("narrowed: no longer counts {} as tests", quoted(&dropped)),
            Effect::Stricter,
        ));
    }
    let kept: Vec<String> = then.paths.iter().filter(|p| paths.contains(p)).cloned().collect();
    let kept_items = test_items(&then.items, &items, c);
    start.is_some().then_some(Tests { paths: kept, items: kept_items })
}

/// `[tests] items`, read as pairs of a file glob and a marker: only the
/// pairs the start declared count (a pair added, a file or a marker, makes
/// more lines count as tests: test/cases/518); one taken away is in force.
fn test_items(start: &[TestItems], now: &[TestItems], c: &mut Vec<Change>) -> Vec<TestItems> {
    let pairs = |items: &[TestItems]| -> Vec<(String, String)> {
        items.iter().flat_map(|i| i.paths.iter().map(|p| (p.clone(), i.marker.clone()))).collect()
    };
    let (then, now) = (pairs(start), pairs(now));
    let words = |list: Vec<&(String, String)>| {
        list.iter().map(|(path, marker)| format!("`{marker}` in `{path}`")).collect::<Vec<_>>().join(", ")
    };
    let added: Vec<&(String, String)> = now.iter().filter(|p| !then.contains(p)).collect();
    let dropped: Vec<&(String, String)> = then.iter().filter(|p| !now.contains(p)).collect();
    if !added.is_empty() {
        c.push(Change::new(
            "[tests] items",
            format!(
                "widened: also counts a line holding {} as a test item; the start's declarations are the ones read",
                words(added)
            ),
            Effect::Looser,
        ));
    }
    if !dropped.is_empty() {
        c.push(Change::new(
            "[tests] items",
            format!("narrowed: no longer counts a line holding {} as a test item", words(dropped)),
            Effect::Stricter,
        ));
    }
    start
        .iter()
        .filter_map(|i| {
            let paths: Vec<String> =
                i.paths.iter().filter(|p| now.contains(&((*p).clone(), i.marker.clone()))).cloned().collect();
            (!paths.is_empty()).then(|| TestItems { paths, marker: i.marker.clone() })
        })
        .collect()
}

/// The union of two lists, the start's order first; what the working tree
/// dropped is named as a loosening, what it added as stricter.
fn union(start: &[String], now: &[String], entry: &str, verb: &str, c: &mut Vec<Change>) -> Vec<String> {
    let dropped: Vec<&String> = start.iter().filter(|s| !now.contains(s)).collect();
    let added: Vec<&String> = now.iter().filter(|n| !start.contains(n)).collect();
    if !dropped.is_empty() {
        c.push(Change::new(
            entry,
            format!("narrowed: no longer {verb} {}; the start's still are", quoted(&dropped)),
            Effect::Looser,
        ));
    }
    if !added.is_empty() {
        c.push(Change::new(entry, format!("widened: also {verb} {}", quoted(&added)), Effect::Stricter));
    }
    start.iter().chain(added).cloned().collect()
}

/// A flag that holds if either side says so.
fn either(start: bool, now: bool, entry: &str, dropped: &str, added: &str, c: &mut Vec<Change>) -> bool {
    match (start, now) {
        (true, false) => c.push(Change::new(entry, dropped, Effect::Looser)),
        (false, true) => c.push(Change::new(entry, added, Effect::Stricter)),
        _ => {}
    }
    start || now
}

/// The lower of two limits, `None` being no limit at all.
fn lower(start: Option<u64>, now: Option<u64>, entry: &str, unit: &str, c: &mut Vec<Change>) -> Option<u64> {
    match (start, now) {
        (a, b) if a == b => a,
        (Some(a), Some(b)) if b < a => {
            c.push(Change::new(entry, format!("lowered from {a} to {b} {unit}"), Effect::Stricter));
            Some(b)
        }
        (None, Some(b)) => {
            c.push(Change::new(entry, format!("set to {b} {unit}"), Effect::Stricter));
            Some(b)
        }
        (Some(a), Some(b)) => {
            c.push(Change::new(entry, format!("raised from {a} to {b} {unit}; {a} holds"), Effect::Looser));
            Some(a)
        }
        (Some(a), None) => {
            c.push(Change::new(entry, format!("taken away (it was {a} {unit}); {a} holds"), Effect::Looser));
            Some(a)
        }
        (None, None) => None,
    }
}

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn quoted(items: &[&String]) -> String {
    items.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", ")
}
