//! Whether a recorded forge observation is the forge's word. An
//! observation is a file majordomus wrote, and how it was made is recorded
//! in it (`majordomus_records::forge::Provenance`): observed through the
//! forge's own program (`gh`, `glab`), found on the PATH the task started
//! under, or typed in with `majordomus forge record`. What the forge said
//! counts; what the worker typed in counts only where the repository
//! declared so (`[forge] provider = "recorded"`); what another program on
//! another PATH said counts for nothing. Every question that reads the
//! observation (`backlog-not-grown`, `claims-released`, `filings-closed`,
//! `markers-live`) takes it through here: one it cannot believe is a
//! reading not taken, with why.

use majordomus_records::forge::{Observation, Provenance};
use majordomus_records::policy::Provider;
use majordomus_records::task::{RemoteAtStart, TaskRecord};
use std::collections::BTreeMap;

/// Why `obs` is not the forge's word under the policy's `provider` for the
/// task `reader` (the one asking), or `None` when it is.
///
/// The observation is one for every worktree, and what its provenance says
/// of "the start" is the start of the task active at the refresh: a task
/// reading an observation another task's refresh made (in another
/// worktree, started under another PATH or after a remote was added) judges
/// it against its own start, from the program the refresh ran and the
/// remotes it found ([`judged_by_reader`]).
///
/// Made however it was, an observation is this task's evidence only when
/// it is of the repository the task started against ([`another_repository`]).
pub fn untrusted(obs: &Observation, provider: Option<Provider>, reader: Option<&TaskRecord>) -> Option<String> {
    how_made(obs, provider, reader).or_else(|| reader.and_then(|r| another_repository(obs, provider, r)))
}

/// Why the way `obs` was made does not make it the forge's word (see
/// [`untrusted`]), or `None`.
fn how_made(obs: &Observation, provider: Option<Provider>, reader: Option<&TaskRecord>) -> Option<String> {
    let Some(p) = &obs.provenance else {
        return Some(
            "the forge observation does not say how it was made (written by an older majordomus, or by hand): \
             majordomus forge refresh records one that does"
                .into(),
        );
    };
    let program = |name: &str| match name {
        "glab" => "glab (GitLab)",
        _ => "gh (GitHub)",
    };
    match (p.by.as_str(), provider) {
        ("recorded", Some(Provider::Recorded)) => None,
        ("recorded", _) => Some(format!(
            "the forge observation was typed in ({}), not observed: a typed observation counts only where the policy \
             declares [forge] provider = \"recorded\"",
            match &p.file {
                Some(f) => format!("majordomus forge record {f}"),
                None => "majordomus forge record".into(),
            }
        )),
        ("gh", Some(Provider::Gitlab)) | ("glab", None | Some(Provider::Github)) => Some(format!(
            "the forge was observed through {}, while the policy declares {}",
            program(&p.by),
            match provider {
                Some(Provider::Gitlab) => "GitLab ([forge] provider = \"gitlab\")",
                _ => "GitHub (no [forge] provider, or \"github\")",
            }
        )),
        (by @ ("gh" | "glab"), _) if made_by_another(p, reader).is_some() => {
            made_by_another(p, reader).and_then(|r| judged_by_reader(by, p, r))
        }
        (by @ ("gh" | "glab"), _) if !p.start_path_known => Some(format!(
            "the task record does not hold the PATH the task started under, so the {by} the observation was made \
             through cannot be told from another: start the task again with this majordomus"
        )),
        (by @ ("gh" | "glab"), _) if p.program != p.program_at_start => Some(format!(
            "the forge was observed through {}, which the PATH of majordomus forge refresh found, while the PATH the \
             task started under finds {}: an observation through another program is not the forge's word (run \
             majordomus forge refresh under the task's PATH)",
            p.program.as_deref().unwrap_or(by),
            p.program_at_start.as_deref().map_or_else(|| format!("no {by}"), str::to_string)
        )),
        (by @ ("gh" | "glab"), _) if p.program_written_since_start.is_some() => Some(format!(
            "the forge was observed through {}, and {} was written since the task started: a {by} put in place \
             during the task, on the start's PATH or not, is not the start's, nor the forge's word (remove it, \
             or run majordomus forge refresh through the {by} the task started with)",
            p.program.as_deref().unwrap_or(by),
            p.program_written_since_start.as_deref().unwrap_or(by),
        )),
        (by @ ("gh" | "glab"), _) => match &p.remotes_since_start {
            None => Some(format!(
                "the forge observation does not say whether the remotes {by} resolved the repository from were the \
                 start's (an older majordomus made it): majordomus forge refresh records one that does"
            )),
            Some(changed) if !changed.is_empty() => Some(format!(
                "the forge was observed through {by} under remotes changed since the task started ({}): {by} answers \
                 for the repository the remotes name, so this may be another repository's word; put the remotes \
                 back as they were and run majordomus forge refresh",
                majordomus_records::text::escape(&changed.join(", "))
            )),
            Some(_) => None,
        },
        (other, _) => {
            Some(format!("the forge observation says it was made by {other:?}, which majordomus never writes"))
        }
    }
}

/// Why `obs` is not evidence for the task `r`: it is of another
/// repository than the one `r` started against ([`start_repository`]).
/// The remotes' URLs can stay the start's while the forge's program
/// answers for another repository: `gh repo set-default` (a remote's
/// `gh-resolved`) picks one, a fork's remotes leave two to choose from,
/// and a bare `#9` in a marker or claim is asked of whichever repository
/// answered (test/cases/476, 477). Where the start names no repository (no
/// observation then, no remote naming one on a forge), there is nothing
/// to hold it to.
fn another_repository(obs: &Observation, provider: Option<Provider>, r: &TaskRecord) -> Option<String> {
    let program = match (obs.provenance.as_ref().map(|p| p.by.as_str()), provider) {
        (Some("glab"), _) | (_, Some(Provider::Gitlab)) => "glab",
        _ => "gh",
    };
    let (started, whence) = start_repository(r, program)?;
    if started.eq_ignore_ascii_case(&obs.repository) {
        return None;
    }
    Some(format!(
        "the forge observation is of {}, while this task started against {started} ({whence}): an observation of \
         another repository is not this task's evidence ({program} answers for the repository its default-repository \
         setting names, remote.<name>.{program}-resolved, which {program} repo set-default writes, before those the \
         remotes name); undo the setting (git config --unset remote.<name>.{program}-resolved, or {program} repo \
         set-default {started}) and run majordomus forge refresh",
        majordomus_records::text::escape(&obs.repository)
    ))
}

/// The repository the task `r` started against, and how that is known:
/// the one the forge observation its start held was of; else the one its
/// start's remotes name, resolved as `program` resolves them
/// ([`resolved_from`]). `None`: the start named none.
fn start_repository(r: &TaskRecord, program: &str) -> Option<(String, String)> {
    if let Some(o) = &r.snapshot.open_pull_requests {
        return Some((o.repository.clone(), "the forge observation its start held".into()));
    }
    resolved_from(r.snapshot.remotes.as_ref()?, program)
}

/// The repository `program` (`gh`, `glab`) answers for under `remotes`,
/// as it resolves one: of the remotes whose URL names a repository on a
/// host (a local path names none), ranked `upstream`, then `github`
/// (`gitlab`), then `origin`, then the rest, the first whose
/// default-repository setting is set decides (`base`: its own
/// repository; `OWNER/REPO`: that one); else the first.
fn resolved_from(remotes: &BTreeMap<String, RemoteAtStart>, program: &str) -> Option<(String, String)> {
    let (own, key) = if program == "glab" { ("gitlab", "glab-resolved") } else { ("github", "gh-resolved") };
    let rank = |name: &str| match name {
        "upstream" => 0,
        n if n == own => 1,
        "origin" => 2,
        _ => 3,
    };
    let mut named: Vec<(&String, &RemoteAtStart, String)> =
        remotes.iter().filter_map(|(n, r)| Some((n, r, repository_of(&r.url, program)?))).collect();
    named.sort_by_key(|(n, _, _)| rank(n));
    for (name, remote, repository) in &named {
        let setting = if program == "glab" { &remote.glab_resolved } else { &remote.gh_resolved };
        match setting.as_deref() {
            Some("base") => {
                return Some((
                    repository.clone(),
                    format!("the remote {name}, as remote.{name}.{key} chose at its start"),
                ))
            }
            Some(other) if !other.is_empty() => {
                return Some((other.to_string(), format!("remote.{name}.{key} at its start")));
            }
            _ => {}
        }
    }
    named.first().map(|(name, _, repository)| (repository.clone(), format!("the remote {name} at its start")))
}

/// The `owner/name` (glab: the whole project path) a remote URL names on
/// a host: `https://github.com/acme/widgets.git`, `git@github.com:acme/widgets`,
/// `ssh://git@host/acme/widgets`. `None` for a local path or `file://`.
fn repository_of(url: &str, program: &str) -> Option<String> {
    let path = match url.split_once("://") {
        Some((scheme, _)) if scheme.eq_ignore_ascii_case("file") => return None,
        Some((_, rest)) => rest.split_once('/')?.1,
        // git's scp-like form: a colon before any slash.
        None => match url.split_once(':') {
            Some((host, path)) if !host.is_empty() && !host.contains('/') => path,
            _ => return None,
        },
    };
    let path = path.trim_matches('/');
    let path = path.strip_suffix(".git").unwrap_or(path);
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    match parts.as_slice() {
        [_, _, ..] if program == "glab" => Some(parts.join("/")),
        [owner, name, ..] => Some(format!("{owner}/{name}")),
        _ => None,
    }
}

/// The task asking, when the observation was made under another task's
/// refresh.
fn made_by_another<'a>(p: &Provenance, reader: Option<&'a TaskRecord>) -> Option<&'a TaskRecord> {
    reader.filter(|r| p.task.as_deref().is_some_and(|t| t != r.id))
}

/// Why an observation another task's refresh made through `by` is not the
/// forge's word for the task `r`: the program it ran is not the one `r`'s
/// start PATH finds, or the remotes it found are not `r`'s start's.
fn judged_by_reader(by: &str, p: &Provenance, r: &TaskRecord) -> Option<String> {
    let Some(env) = r.snapshot.gate_environment.as_ref() else {
        return Some(format!(
            "the forge observation was made under another task's refresh, and this task's record does not hold              the PATH it started under, so the {by} it ran cannot be told from another: start the task again with              this majordomus"
        ));
    };
    let path = env.get("PATH").cloned().flatten().unwrap_or_default();
    let found = majordomus_readings::process::find_on(std::ffi::OsStr::new(&path), by);
    let here = found.as_ref().map(|p| p.display().to_string());
    // The start is kept to the second: a program written within it is
    // taken for the start's.
    let started = r.started_at().map(|t| t.timestamp() + 1).unwrap_or(i64::MIN);
    if let Some(written) = found.as_deref().and_then(|f| majordomus_readings::process::written_since(f, started)) {
        return Some(format!(
            "the forge observation was made under another task's refresh through {}, and {} was written since this \
             task started: a {by} put in place during the task is not the forge's word",
            p.program.as_deref().unwrap_or(by),
            written.display()
        ));
    }
    if p.program != here {
        return Some(format!(
            "the forge observation was made under another task's refresh ({}) through {}, while the PATH this              task started under finds {}: an observation through another program is not the forge's word (run              majordomus forge refresh here, under this task's PATH)",
            majordomus_records::text::escape(p.task.as_deref().unwrap_or_default()),
            p.program.as_deref().unwrap_or(by),
            here.unwrap_or_else(|| format!("no {by}"))
        ));
    }
    let (Some(seen), Some(start)) = (&p.remotes, &r.snapshot.remotes) else {
        return Some(format!(
            "the forge observation was made under another task's refresh, and does not say which remotes {by}              resolved the repository from, or this task's record does not hold the remotes at its start: run              majordomus forge refresh here"
        ));
    };
    let mut changed: Vec<String> = Vec::new();
    for (name, then) in start {
        match seen.get(name) {
            None => changed.push(format!("{name} absent")),
            Some(s) if (&s.url, &s.push_url) != (&then.url, &then.push_url) => {
                changed.push(format!("{name} at {}", s.url));
            }
            Some(_) => {}
        }
    }
    changed.extend(seen.iter().filter(|(n, _)| !start.contains_key(*n)).map(|(n, s)| format!("{n} added ({})", s.url)));
    if changed.is_empty() {
        return None;
    }
    Some(format!(
        "the forge observation was made under another task's refresh, under remotes other than this task's          start's ({}): {by} answers for the repository the remotes name, so this may be another repository's          word; with the remotes as this task started, run majordomus forge refresh here",
        majordomus_records::text::escape(&changed.join(", "))
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use majordomus_records::forge::{Provenance, RemoteSeen, FORGE_SCHEMA};

    fn observed(by: &str, program: Option<&str>, at_start: Option<&str>, known: bool) -> Observation {
        Observation {
            schema: FORGE_SCHEMA.into(),
            observed_at: "2026-11-30T10:00:00Z".into(),
            repository: "o/r".into(),
            pull_requests: vec![],
            issues: vec![],
            provenance: Some(Provenance {
                by: by.into(),
                program: program.map(Into::into),
                program_at_start: at_start.map(Into::into),
                start_path_known: known,
                program_written_since_start: None,
                file: Some("typed.json".into()),
                remotes_since_start: Some(vec![]),
                task: None,
                remotes: None,
            }),
        }
    }

    #[test]
    fn an_observation_under_remotes_changed_since_the_start_is_not_believed() {
        let mut obs = observed("gh", Some("/bin/gh"), Some("/bin/gh"), true);
        if let Some(p) = obs.provenance.as_mut() {
            p.remotes_since_start = Some(vec!["upstream added (https://github.com/someone/empty)".into()]);
        }
        let why = untrusted(&obs, None, None).expect("not believed");
        assert!(why.contains("upstream added"), "{why}");
        if let Some(p) = obs.provenance.as_mut() {
            p.remotes_since_start = None;
        }
        assert!(untrusted(&obs, None, None).expect("not believed").contains("older majordomus"));
    }

    /// A task started with `remotes` (name, URL, gh-resolved) and, where
    /// given, an observation of `observed` held at its start.
    fn started_with(remotes: &[(&str, &str, Option<&str>)], observed: Option<&str>) -> TaskRecord {
        let remotes: serde_json::Map<String, serde_json::Value> = remotes
            .iter()
            .map(|(n, url, resolved)| ((*n).to_string(), serde_json::json!({ "url": url, "gh_resolved": resolved })))
            .collect();
        let open = observed
            .map(|r| serde_json::json!({ "observed_at": "2026-11-30T09:00:00Z", "repository": r, "numbers": [] }));
        serde_json::from_value(serde_json::json!({
            "schema": "majordomus/task/v1", "id": "t-1", "task": "t", "started_at": "2026-11-30T09:00:00Z",
            "head": null, "branch": "main",
            "snapshot": { "remotes": remotes, "open_pull_requests": open }
        }))
        .expect("a task record")
    }

    #[test]
    fn an_observation_of_another_repository_than_the_starts_is_not_evidence() {
        let obs = observed("gh", Some("/bin/gh"), Some("/bin/gh"), true); // of o/r
        let fork = [("origin", "git@github.com:me/r.git", None), ("upstream", "https://github.com/o/r.git", None)];
        assert_eq!(untrusted(&obs, None, Some(&started_with(&fork, None))), None, "upstream names o/r");
        let why =
            untrusted(&obs, None, Some(&started_with(&fork, Some("acme/widgets")))).expect("the start's observation");
        assert!(why.contains("of o/r, while this task started against acme/widgets"), "{why}");
        // gh-resolved at the start decides, as gh lets it.
        let chosen =
            [("origin", "git@github.com:me/r.git", Some("base")), ("upstream", "https://github.com/o/r.git", None)];
        let why = untrusted(&obs, None, Some(&started_with(&chosen, None))).expect("the fork chosen at the start");
        assert!(why.contains("started against me/r") && why.contains("gh-resolved"), "{why}");
        let named = [("origin", "ssh://git@github.com/o/r", Some("O/R"))];
        assert_eq!(untrusted(&obs, None, Some(&started_with(&named, None))), None, "names compared without case");
        // A start naming no repository on a forge holds it to none.
        let local = [("origin", "../origin.git", None), ("backup", "file:///srv/r.git", None)];
        assert_eq!(untrusted(&obs, None, Some(&started_with(&local, None))), None);
    }

    #[test]
    fn a_remote_url_names_the_repository_gh_or_glab_reads_from_it() {
        for (url, gh, glab) in [
            ("https://github.com/acme/widgets.git", Some("acme/widgets"), Some("acme/widgets")),
            ("git@gitlab.com:group/sub/proj.git", Some("group/sub"), Some("group/sub/proj")),
            ("ssh://git@host:22/acme/widgets/", Some("acme/widgets"), Some("acme/widgets")),
            ("/srv/git/widgets.git", None, None),
            ("../origin.git", None, None),
            ("file:///srv/acme/widgets.git", None, None),
            ("https://github.com/acme", None, None),
        ] {
            assert_eq!(repository_of(url, "gh").as_deref(), gh, "{url}");
            assert_eq!(repository_of(url, "glab").as_deref(), glab, "{url}");
        }
    }

    #[test]
    fn an_observation_through_the_starts_program_is_believed() {
        assert_eq!(untrusted(&observed("gh", Some("/bin/gh"), Some("/bin/gh"), true), None, None), None);
        let glab = observed("glab", Some("/bin/glab"), Some("/bin/glab"), true);
        assert_eq!(untrusted(&glab, Some(Provider::Gitlab), None), None);
    }

    #[test]
    fn a_typed_observation_counts_only_where_the_policy_says_observations_are_recorded() {
        let typed = observed("recorded", None, None, false);
        let why = untrusted(&typed, None, None).expect("not the forge's word");
        assert!(why.contains("typed in (majordomus forge record typed.json)"), "{why}");
        assert_eq!(untrusted(&typed, Some(Provider::Recorded), None), None);
    }

    #[test]
    fn another_program_another_forge_or_no_start_path_is_not_the_forges_word() {
        let why = untrusted(&observed("gh", Some("/liar/gh"), Some("/bin/gh"), true), None, None).expect("another gh");
        assert!(why.contains("/liar/gh") && why.contains("PATH the task started under finds /bin/gh"), "{why}");
        let why = untrusted(&observed("gh", Some("/liar/gh"), None, true), None, None).expect("no gh at the start");
        assert!(why.contains("finds no gh"), "{why}");
        let why = untrusted(&observed("gh", Some("/bin/gh"), Some("/bin/gh"), true), Some(Provider::Gitlab), None)
            .expect("the wrong forge");
        assert!(why.contains("GitLab"), "{why}");
        let why = untrusted(&observed("gh", Some("/bin/gh"), None, false), None, None).expect("no start PATH");
        assert!(why.contains("does not hold the PATH"), "{why}");
        let mut old = observed("gh", None, None, false);
        old.provenance = None;
        assert!(untrusted(&old, None, None).expect("no provenance").contains("does not say how it was made"));
    }

    #[test]
    fn an_observation_another_tasks_refresh_made_is_judged_against_the_readers_own_start() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("tempdir");
        let gh = dir.path().join("gh");
        std::fs::write(&gh, "#!/bin/sh\n").expect("write");
        std::fs::set_permissions(&gh, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        // The gh was written before the reader started (its start is after
        // every file here), as a gh installed before a task is.
        let reader_started = |at: &str| -> TaskRecord {
            serde_json::from_value(serde_json::json!({
                "schema": "majordomus/task/v1", "id": "reader", "task": "t", "started_at": at,
                "head": null, "branch": "main",
                "snapshot": { "remotes": { "origin": { "url": "https://github.com/o/r.git" } },
                              "gate_environment": { "PATH": dir.path() } }
            }))
            .expect("a task record")
        };
        let reader = reader_started("2099-11-30T09:00:00Z");
        let gh = gh.display().to_string();
        // Made by another task, which judged it against its own start (an upstream there already).
        let mut obs = observed("gh", Some(&gh), Some(&gh), true);
        let seen = |extra: bool| {
            let mut remotes = std::collections::BTreeMap::new();
            remotes
                .insert("origin".to_string(), RemoteSeen { url: "https://github.com/o/r.git".into(), push_url: None });
            if extra {
                let url = "https://github.com/someone/empty.git".to_string();
                remotes.insert("upstream".to_string(), RemoteSeen { url, push_url: None });
            }
            Some(remotes)
        };
        if let Some(p) = obs.provenance.as_mut() {
            p.task = Some("peek".into());
            p.remotes = seen(true);
        }
        let why = untrusted(&obs, None, Some(&reader)).expect("other remotes than the reader's start's");
        assert!(why.contains("upstream added (https://github.com/someone/empty.git)"), "{why}");
        if let Some(p) = obs.provenance.as_mut() {
            p.remotes = seen(false);
        }
        assert_eq!(untrusted(&obs, None, Some(&reader)), None, "the reader's gh, the reader's remotes");
        let earlier = reader_started("2026-11-30T09:00:00Z");
        let why = untrusted(&obs, None, Some(&earlier)).expect("a gh written since the reader started");
        assert!(why.contains("was written since this task started"), "{why}");
        if let Some(p) = obs.provenance.as_mut() {
            p.program = Some("/liar/gh".into());
            p.program_at_start = Some("/liar/gh".into());
        }
        let why = untrusted(&obs, None, Some(&reader)).expect("another gh than the reader's start finds");
        assert!(why.contains("/liar/gh") && why.contains(&gh), "{why}");
        if let Some(p) = obs.provenance.as_mut() {
            p.task = Some("reader".into());
        }
        assert_eq!(untrusted(&obs, None, Some(&reader)), None, "the reader's own refresh judged itself");
    }
}
