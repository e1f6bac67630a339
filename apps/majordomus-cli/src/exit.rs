//! Exit codes (a contract) and the errors that map onto them.

use std::process::ExitCode;

/// The exit codes of every command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Complete, passed, done.
    Ok = 0,
    /// A usage or configuration error.
    Usage = 2,
    /// Not complete, or a gate failed.
    NotDone = 10,
    /// An internal error.
    Internal = 13,
    /// A task is already active here.
    TaskActive = 15,
}

impl From<Exit> for ExitCode {
    fn from(e: Exit) -> Self {
        ExitCode::from(e as u8)
    }
}

/// What can stop a command before it gives its answer.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Bad input from the person at the keyboard: exit 2, nothing changed.
    #[error("{0}")]
    Usage(String),
    /// A configuration file that cannot be used: exit 2.
    #[error(transparent)]
    Policy(#[from] majordomus_records::PolicyError),
    /// A task is already active: exit 15.
    #[error("{0}")]
    TaskActive(String),
    /// Stdout was closed under us (out.rs): not an error.
    #[error("broken pipe")]
    BrokenPipe,
    /// Anything else: exit 13.
    #[error("{context}")]
    Internal {
        context: String,
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

impl CliError {
    pub fn internal(context: impl Into<String>, source: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        CliError::Internal { context: context.into(), source: source.into() }
    }

    pub fn exit(&self) -> Exit {
        match self {
            CliError::Usage(_) | CliError::Policy(_) => Exit::Usage,
            CliError::TaskActive(_) => Exit::TaskActive,
            CliError::BrokenPipe => Exit::Ok,
            CliError::Internal { .. } => Exit::Internal,
        }
    }

    /// The message and its causes, each once.
    pub fn chain(&self) -> String {
        majordomus_records::task::error_chain(self)
    }
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        // Not a broken pipe from stdout: those are read in out.rs, where
        // the stream is known; here EPIPE is as much a failure as any.
        CliError::internal("input/output failed", e)
    }
}
