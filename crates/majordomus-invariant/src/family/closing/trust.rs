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

use majordomus_records::forge::Observation;
use majordomus_records::policy::Provider;

/// Why `obs` is not the forge's word under the policy's `provider`, or
/// `None` when it is.
pub fn untrusted(obs: &Observation, provider: Option<Provider>) -> Option<String> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use majordomus_records::forge::{Provenance, FORGE_SCHEMA};

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
                file: Some("typed.json".into()),
                remotes_since_start: Some(vec![]),
            }),
        }
    }

    #[test]
    fn an_observation_under_remotes_changed_since_the_start_is_not_believed() {
        let mut obs = observed("gh", Some("/bin/gh"), Some("/bin/gh"), true);
        if let Some(p) = obs.provenance.as_mut() {
            p.remotes_since_start = Some(vec!["upstream added (https://github.com/someone/empty)".into()]);
        }
        let why = untrusted(&obs, None).expect("not believed");
        assert!(why.contains("upstream added"), "{why}");
        if let Some(p) = obs.provenance.as_mut() {
            p.remotes_since_start = None;
        }
        assert!(untrusted(&obs, None).expect("not believed").contains("older majordomus"));
    }

    #[test]
    fn an_observation_through_the_starts_program_is_believed() {
        assert_eq!(untrusted(&observed("gh", Some("/bin/gh"), Some("/bin/gh"), true), None), None);
        let glab = observed("glab", Some("/bin/glab"), Some("/bin/glab"), true);
        assert_eq!(untrusted(&glab, Some(Provider::Gitlab)), None);
    }

    #[test]
    fn a_typed_observation_counts_only_where_the_policy_says_observations_are_recorded() {
        let typed = observed("recorded", None, None, false);
        let why = untrusted(&typed, None).expect("not the forge's word");
        assert!(why.contains("typed in (majordomus forge record typed.json)"), "{why}");
        assert_eq!(untrusted(&typed, Some(Provider::Recorded)), None);
    }

    #[test]
    fn another_program_another_forge_or_no_start_path_is_not_the_forges_word() {
        let why = untrusted(&observed("gh", Some("/liar/gh"), Some("/bin/gh"), true), None).expect("another gh");
        assert!(why.contains("/liar/gh") && why.contains("PATH the task started under finds /bin/gh"), "{why}");
        let why = untrusted(&observed("gh", Some("/liar/gh"), None, true), None).expect("no gh at the start");
        assert!(why.contains("finds no gh"), "{why}");
        let why = untrusted(&observed("gh", Some("/bin/gh"), Some("/bin/gh"), true), Some(Provider::Gitlab))
            .expect("the wrong forge");
        assert!(why.contains("GitLab"), "{why}");
        let why = untrusted(&observed("gh", Some("/bin/gh"), None, false), None).expect("no start PATH");
        assert!(why.contains("does not hold the PATH"), "{why}");
        let mut old = observed("gh", None, None, false);
        old.provenance = None;
        assert!(untrusted(&old, None).expect("no provenance").contains("does not say how it was made"));
    }
}
