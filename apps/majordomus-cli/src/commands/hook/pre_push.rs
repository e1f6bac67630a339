//! The git pre-push hook: what `majordomus hook install --git` writes, and
//! `majordomus hook pre-push`, which it runs.

use std::path::{Path, PathBuf};

use clap::Args;
use majordomus_invariant::{Document, Status};

use crate::evaluate::{evaluate, write_document};
use crate::out::{self, errln, outln};
use crate::workspace::Workspace;
use crate::{CliError, Exit};

/// Refuse a push while gates-green is refused (what the pre-push hook runs).
///
/// It runs no gate: it answers the done invariant as `majordomus check
/// --json` does and reads gates-green's status. Exit 10 (git then refuses
/// the push) while it is refused, with its evidence and remedy; 0 otherwise,
/// and 0 when majordomus cannot answer at all (it says why on stderr).
#[derive(Debug, Args)]
pub struct PrePushArgs {
    /// The remote's name, as git passes it.
    pub remote: Option<String>,
    /// The remote's URL, as git passes it.
    pub url: Option<String>,
}

pub fn cmd_hook_pre_push(cwd: &Path, args: PrePushArgs) -> Result<Exit, CliError> {
    // What `check --json` does: answer the invariant and write the document.
    let doc = match Workspace::open(cwd)
        .and_then(|ws| evaluate(&ws).and_then(|doc| write_document(&ws, &doc).map(|()| doc)))
    {
        Ok(doc) => doc,
        Err(e) => {
            errln!("majordomus pre-push: gates-green cannot be read ({}); this push was not checked", e.chain());
            return Ok(Exit::Ok);
        }
    };
    match refusal(&doc, args.remote.as_deref()) {
        Some(text) => {
            out::err_text(&text);
            Ok(Exit::NotDone)
        }
        None => Ok(Exit::Ok),
    }
}

/// Why the push is refused, when gates-green is refused.
pub fn refusal(doc: &Document, remote: Option<&str>) -> Option<String> {
    let gates = doc.questions.iter().find(|q| q.id == "gates-green" && q.status == Status::Refused)?;
    let to = remote.map(|r| format!(" to {r}")).unwrap_or_default();
    Some(format!(
        "majordomus pre-push: the push{to} is refused: gates-green is refused.\n  {}\n  remedy: {}\n",
        crate::render::escape_text(&gates.evidence),
        crate::render::escape_text(&gates.remedy)
    ))
}

// ---- installing it ---------------------------------------------------------

/// The line that marks a pre-push hook as majordomus's own.
pub const PRE_PUSH_MARKER: &str = "# majordomus pre-push hook";

/// Where the pre-push hook it replaces is kept, and called from.
pub const CHAINED: &str = "pre-push.majordomus-chained";

/// The pre-push hook: the hook it replaced first (same arguments, same
/// refs on standard input), then majordomus's answer for gates-green.
pub fn pre_push_script(bin: &str) -> String {
    format!(
        r#"#!/bin/sh
{PRE_PUSH_MARKER}, installed by `majordomus hook install --git`.
# Refuses a push while the done invariant's gates-green question is refused.
# It runs no gate: `majordomus hook pre-push` reads gates-green's status as
# `majordomus check --json` gives it. A pre-push hook that was here before was
# moved to {CHAINED} and runs first, with the same arguments and input.
md={bin}
hooks_dir=$(dirname "$0")
chained="$hooks_dir/{CHAINED}"
if [ -x "$chained" ]; then
  refs=$(mktemp) || exit 1
  trap 'rm -f "$refs"' EXIT
  cat >"$refs"
  "$chained" "$@" <"$refs" || exit $?
fi
if ! command -v "$md" >/dev/null 2>&1; then
  echo "majordomus pre-push: $md not found; this push was not checked" >&2
  exit 0
fi
"$md" hook pre-push "$@" </dev/null
"#,
        bin = super::install::shell_quote(bin)
    )
}

/// The directory git runs hooks from: `core.hooksPath` when set (relative
/// to the working tree root), else the common git directory's `hooks/`.
pub fn hooks_dir(ws: &Workspace) -> Result<PathBuf, CliError> {
    let config = ws.repo.git.config().map_err(|e| CliError::internal("cannot read git's configuration", e))?;
    match config.get_path("core.hooksPath") {
        Ok(p) if p.is_absolute() => Ok(p),
        Ok(p) => Ok(ws.repo.root().join(p)),
        Err(e) if e.code() == git2::ErrorCode::NotFound => Ok(ws.repo.common_dir().join("hooks")),
        Err(e) => Err(CliError::internal("cannot read core.hooksPath", e)),
    }
}

/// `hook install --git`: writes the pre-push hook running `bin` (default:
/// this executable), moving a foreign hook there aside to be chained.
pub fn install_git(ws: &Workspace, bin: Option<&str>, dry_run: bool) -> Result<Exit, CliError> {
    let dir = hooks_dir(ws)?;
    let hook = dir.join("pre-push");
    let chained = dir.join(CHAINED);
    let bin = match bin {
        Some(b) => b.to_string(),
        None => std::env::current_exe().ok().map_or_else(|| "majordomus".to_string(), |p| p.display().to_string()),
    };
    let script = pre_push_script(&bin);
    let present = std::fs::symlink_metadata(&hook).is_ok();
    let existing = if present {
        Some(std::fs::read(&hook).map_err(|e| CliError::internal(format!("cannot read {}", hook.display()), e))?)
    } else {
        None
    };
    let ours =
        existing.as_deref().is_some_and(|b| b.windows(PRE_PUSH_MARKER.len()).any(|w| w == PRE_PUSH_MARKER.as_bytes()));
    if ours && existing.as_deref() == Some(script.as_bytes()) {
        outln!("{} is already majordomus's pre-push hook; nothing to change", hook.display())?;
        return Ok(Exit::Ok);
    }
    let chain = present && !ours;
    if chain && std::fs::symlink_metadata(&chained).is_ok() {
        return Err(CliError::Usage(format!(
            "{} is another program's pre-push hook and {} already exists: move one of them aside by hand; nothing was changed",
            hook.display(),
            chained.display()
        )));
    }
    if dry_run {
        if chain {
            outln!("would move {} to {}", hook.display(), chained.display())?;
        }
        outln!("would write {}:", hook.display())?;
        out::text(&script)?;
        return Ok(Exit::Ok);
    }
    // Reached without following a link below the repository or the common
    // git directory; a hook already there that is a link is moved (or
    // replaced) as a link, never written through.
    let (base, below) = hooks_place(ws, &dir);
    let hooks = majordomus_records::confined::open_dir(&base, &below, true).map_err(crate::workspace::place_error)?;
    if chain {
        hooks.rename("pre-push", CHAINED).map_err(crate::workspace::place_error)?;
        outln!("moved the pre-push hook that was there to {}; it runs first", chained.display())?;
    }
    hooks
        .replace("pre-push", script.as_bytes(), majordomus_records::confined::Perm::Exactly(0o755))
        .map_err(crate::workspace::place_error)?;
    outln!(
        "{} {}: refuses a push while gates-green is refused",
        if ours { "updated" } else { "installed" },
        hook.display()
    )?;
    Ok(Exit::Ok)
}

/// The trusted directory the hooks directory `dir` is reached from, and the
/// path below it: the common git directory or the working tree's root when
/// `dir` lies below one of them (so no link below them is followed), else
/// `dir` itself, as `core.hooksPath` names it (the person's own setting).
fn hooks_place(ws: &Workspace, dir: &Path) -> (PathBuf, PathBuf) {
    let plain = |rel: &Path| rel.components().all(|c| matches!(c, std::path::Component::Normal(_)));
    for base in [ws.repo.common_dir(), ws.repo.root()] {
        if let Ok(rel) = dir.strip_prefix(base) {
            if plain(rel) {
                return (base.to_path_buf(), rel.to_path_buf());
            }
        }
    }
    (dir.to_path_buf(), PathBuf::new())
}

#[cfg(test)]
mod tests {
    use majordomus_invariant::Answer;

    use super::*;

    fn doc(status: Status) -> Document {
        let gates = Answer {
            id: "gates-green".into(),
            stage: "verification".into(),
            question: "q?".into(),
            status,
            evidence: "The gate unit failed (exit 101) over the current inputs.".into(),
            source: "s".into(),
            remedy: "majordomus gate run unit".into(),
            remedy_kind: majordomus_invariant::RemedyKind::Command,
            details: serde_json::json!({}),
        };
        Document::new(chrono::Utc::now(), "/r".into(), None, None, vec![gates], 5)
    }

    #[test]
    fn only_a_refused_gates_green_refuses_the_push() {
        let text = refusal(&doc(Status::Refused), Some("origin")).expect("refused");
        assert!(
            text.contains("the push to origin is refused")
                && text.contains("exit 101")
                && text.contains("majordomus gate run unit"),
            "{text}"
        );
        for status in [Status::Pass, Status::Owed, Status::Unknown, Status::Exempt] {
            assert_eq!(refusal(&doc(status), None), None, "{status}");
        }
    }

    #[test]
    fn the_pre_push_script_carries_its_marker_and_calls_the_chained_hook_first() {
        let script = pre_push_script("/x/majordomus");
        assert!(script.starts_with("#!/bin/sh\n# majordomus pre-push hook"));
        assert!(script.contains("md=/x/majordomus\n"));
        let chained = script.find("\"$chained\" \"$@\"").expect("chained call");
        let ours = script.find("\"$md\" hook pre-push").expect("our call");
        assert!(chained < ours);
    }
}
