//! Running a forge's command-line program (`gh`, `glab`) the one way both
//! are run: found on PATH by majordomus itself and run by that absolute
//! path (so what ran is what the observation's provenance names), with
//! every inherited `GIT_*` variable cleared (a `GIT_DIR` meant for
//! something else cannot point it at another repository) but those naming
//! the configuration files git reads, prompts, pagers,
//! colour and update notices off, standard input closed, in the working
//! tree's root. Its exit is checked; what it prints is the caller's to parse.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A forge's program, where it was found, and the directory it runs in.
#[derive(Debug, Clone)]
pub struct Tool {
    /// `gh` or `glab`, as the messages name it.
    pub name: &'static str,
    /// Where to install it, for the message when it is missing.
    pub install: &'static str,
    /// The absolute path it runs from; `None`: PATH finds no such program.
    pub program: Option<PathBuf>,
    pub dir: PathBuf,
}

#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    #[error("{name} was not found on PATH: install it ({install}), or declare the forge in .ai/repo/majordomus.toml ([forge] provider = \"github\", \"gitlab\", \"none\" or \"recorded\")")]
    NotFound { name: &'static str, install: &'static str },
    #[error("could not run {name} {args}")]
    Spawn {
        name: &'static str,
        args: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{name} {args} failed ({status}): {message}")]
    Failed { name: &'static str, args: String, status: String, message: String },
    #[error("{name} {args} answered what its manual does not describe: {reason}")]
    Unexpected { name: &'static str, args: String, reason: String },
}

impl ToolError {
    /// The program is missing: a setup problem (exit 2), not an internal error.
    pub fn is_setup(&self) -> bool {
        matches!(self, ToolError::NotFound { .. })
    }
}

/// The first executable regular file called `name` on a PATH value, as a
/// shell would find it (the readings' own: a task reading an observation
/// finds the program its start's PATH finds the same way).
pub use majordomus_readings::process::find_on;

/// The variables that point a forge's program at another repository or
/// host than the working tree's remotes name, taken out of its environment.
const ELSEWHERE: [&str; 5] = ["GH_REPO", "GH_HOST", "GITLAB_HOST", "GL_HOST", "REMOTE_ALIAS"];

/// The `GIT_*` variables kept in the program's environment: the files
/// git's configuration is read from. The user's git and majordomus read
/// the files these name (`majordomus_readings::config::as_git_reads`), and
/// the remotes the start recorded were read through them; cleared, the git
/// gh and glab run would read `~/.config/git/config` or `/etc/gitconfig`
/// instead, where a `url.<base>.insteadOf` the task's git never sees
/// could point the program at another repository (test/cases/476).
const SAME_CONFIGURATION: [&str; 3] = ["GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM"];

/// The output of a run that exited 0, or its exit status and what it said.
pub type Ran = Result<Vec<u8>, (String, String)>;

impl Tool {
    /// `name` as this process's PATH finds it, run in `dir`.
    pub fn from_path(name: &'static str, install: &'static str, dir: &Path) -> Self {
        let program = std::env::var_os("PATH").and_then(|p| find_on(&p, name));
        Self { name, install, program, dir: dir.to_path_buf() }
    }

    /// The program's path as the provenance records it.
    pub fn program_shown(&self) -> Option<String> {
        self.program.as_ref().map(|p| p.display().to_string())
    }

    /// Runs the program with `args` (and `env` beside the settings every
    /// run gets); its stdout when it exits 0.
    pub fn run(&self, args: &[&str], env: &[(&str, &str)]) -> Result<Ran, ToolError> {
        let shown = args.join(" ");
        let program = self.program.as_ref().ok_or(ToolError::NotFound { name: self.name, install: self.install })?;
        let mut cmd = Command::new(program);
        cmd.args(args).current_dir(&self.dir).stdin(Stdio::null());
        for (key, _) in std::env::vars_os() {
            let name = key.to_string_lossy();
            if name.starts_with("GIT_") && !SAME_CONFIGURATION.contains(&name.as_ref()) {
                cmd.env_remove(key);
            }
        }
        // Each of these makes the program answer for another repository than
        // the one the working tree's remotes name (`GH_REPO`, glab's
        // `REMOTE_ALIAS`) or ask another host for it (`GH_HOST`, glab's
        // `GITLAB_HOST` and `GL_HOST`, where a project of the same path may
        // hold no pull request): an observation of someone else's
        // repository is not this one's (test/cases/283, 403).
        for var in ELSEWHERE {
            cmd.env_remove(var);
        }
        cmd.env("NO_COLOR", "1");
        for (k, v) in env {
            cmd.env(k, v);
        }
        let out = match cmd.output() {
            Ok(o) => o,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(ToolError::NotFound { name: self.name, install: self.install })
            }
            Err(source) => return Err(ToolError::Spawn { name: self.name, args: shown, source }),
        };
        if out.status.success() {
            return Ok(Ok(out.stdout));
        }
        let status = match out.status.code() {
            Some(c) => format!("exit {c}"),
            None => "killed by a signal".to_string(),
        };
        let mut message = String::from_utf8_lossy(&out.stderr).trim().to_string();
        if message.is_empty() {
            message = String::from_utf8_lossy(&out.stdout).trim().to_string();
        }
        if message.is_empty() {
            message = "it said nothing".into();
        }
        Ok(Err((status, message)))
    }

    /// Runs the program and parses its stdout as JSON of type `T`.
    pub fn json<T: serde::de::DeserializeOwned>(&self, args: &[&str], env: &[(&str, &str)]) -> Result<T, ToolError> {
        let shown = args.join(" ");
        match self.run(args, env)? {
            Ok(stdout) => serde_json::from_slice(&stdout).map_err(|e| self.unexpected(&shown, e.to_string())),
            Err((status, message)) => Err(ToolError::Failed { name: self.name, args: shown, status, message }),
        }
    }

    pub fn unexpected(&self, args: &str, reason: String) -> ToolError {
        ToolError::Unexpected { name: self.name, args: args.to_string(), reason }
    }

    pub fn failed(&self, args: &str, (status, message): (String, String)) -> ToolError {
        ToolError::Failed { name: self.name, args: args.to_string(), status, message }
    }
}

#[cfg(test)]
mod tests {
    use std::ffi::OsStr;
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    #[test]
    fn a_program_is_found_as_a_shell_finds_it_the_first_executable_file_on_path() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        std::fs::create_dir_all(&a).expect("mkdir");
        std::fs::create_dir_all(b.join("gh")).expect("a directory named gh is not gh");
        std::fs::write(a.join("gh"), "#!/bin/sh\n").expect("write");
        let path = std::env::join_paths([b.as_path(), a.as_path()]).expect("join");
        assert_eq!(find_on(&path, "gh"), None, "not executable");
        std::fs::set_permissions(a.join("gh"), std::fs::Permissions::from_mode(0o755)).expect("chmod");
        assert_eq!(find_on(&path, "gh"), Some(a.join("gh")));
        assert_eq!(find_on(OsStr::new(""), "gh"), None);
    }
}
