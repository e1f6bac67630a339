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
use majordomus_records::task::TaskRecord;

/// Why `obs` is not the forge's word under the policy's `provider` for the
/// task `reader` (the one asking), or `None` when it is.
///
/// The observation is one for every worktree, and what its provenance says
/// of "the start" is the start of the task active at the refresh: a task
/// reading an observation another task's refresh made (in another
/// worktree, started under another PATH or after a remote was added) judges
/// it against its own start, from the program the refresh ran and the
/// remotes it found ([`judged_by_reader`]).
pub fn untrusted(obs: &Observation, provider: Option<Provider>, reader: Option<&TaskRecord>) -> Option<String> {
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
