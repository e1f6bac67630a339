//! Standard output and standard error: the one place the command line
//! writes to either, so that no write can panic.
//!
//! `println!` panics when its write fails, and a reader that stops early
//! makes it fail: `majordomus explain pushed | head -1` closes the pipe after
//! one line, the next write gets EPIPE (Rust's runtime ignores SIGPIPE), and
//! the command ended as an internal error (exit 13) with a panic on stderr.
//! Here every write to stdout returns `Result<(), CliError>`: a closed pipe
//! is [`CliError::BrokenPipe`], which `main` (lib.rs) turns into a quiet exit
//! 0, as git and ripgrep do: the reader had what it wanted. Any other failure
//! (a full disk behind a redirection) is an error that names stdout, exit 13.
//! A write to stderr never fails the command: a message nobody can read is
//! dropped, and the command's answer (its exit code, its stdout) stands.
//!
//! The workspace's clippy lints keep it so: `print_stdout` and `print_stderr`
//! (Cargo.toml) refuse `print!`, `println!`, `eprint!` and `eprintln!`, and
//! clippy.toml's `disallowed-methods` refuses `std::io::stdout` and
//! `std::io::stderr` everywhere but here. [`outln!`] and [`errln!`] take
//! their place.

#![allow(clippy::disallowed_methods)]

use std::fmt;
use std::io::{self, IsTerminal, Write};

use crate::{CliError, Exit};

/// Standard output, locked for a run of writes. Its `write_fmt` is
/// inherent, so `writeln!(out, ...)?` returns a [`CliError`].
#[derive(Debug)]
pub struct Out(io::StdoutLock<'static>);

impl Out {
    pub fn lock() -> Out {
        Out(io::stdout().lock())
    }

    pub fn write_fmt(&mut self, args: fmt::Arguments<'_>) -> Result<(), CliError> {
        self.0.write_fmt(args).map_err(failed)
    }

    pub fn write_all(&mut self, bytes: &[u8]) -> Result<(), CliError> {
        self.0.write_all(bytes).map_err(failed)
    }

    pub fn flush(&mut self) -> Result<(), CliError> {
        self.0.flush().map_err(failed)
    }
}

/// What a failed write to stdout means: the reader left (quiet), or stdout
/// cannot take the output (an error that says so).
pub fn failed(e: io::Error) -> CliError {
    if e.kind() == io::ErrorKind::BrokenPipe {
        CliError::BrokenPipe
    } else {
        CliError::internal("cannot write to standard output", e)
    }
}

/// The exit of a command whose exit code is its verdict (`check`, `score`,
/// `sweep`, `carry`), kept when the reader left early: `check | head -1`
/// stops reading, not measuring, so work not done must not exit 0 for it.
pub fn keeping(verdict: Exit, written: Result<(), CliError>) -> Result<Exit, CliError> {
    match written {
        Ok(()) | Err(CliError::BrokenPipe) => Ok(verdict),
        Err(e) => Err(e),
    }
}

/// One line on stdout (what [`outln!`] calls).
pub fn line(args: fmt::Arguments<'_>) -> Result<(), CliError> {
    let mut out = Out::lock();
    out.write_fmt(format_args!("{args}\n"))?;
    out.flush()
}

/// Text on stdout as it is (its own newlines), flushed.
pub fn text(text: &str) -> Result<(), CliError> {
    let mut out = Out::lock();
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// One line on stderr (what [`errln!`] calls); a failure is dropped.
pub fn err_line(args: fmt::Arguments<'_>) {
    let _ = io::stderr().lock().write_fmt(format_args!("{args}\n"));
}

/// Text on stderr as it is; a failure is dropped.
pub fn err_text(text: &str) {
    let mut err = io::stderr().lock();
    let _ = err.write_all(text.as_bytes()).and_then(|()| err.flush());
}

pub fn stdout_is_terminal() -> bool {
    io::stdout().is_terminal()
}

pub fn stderr_is_terminal() -> bool {
    io::stderr().is_terminal()
}

/// `println!` that returns `Result<(), CliError>` instead of panicking.
macro_rules! outln {
    () => {
        $crate::out::line(format_args!(""))
    };
    ($($arg:tt)*) => {
        $crate::out::line(format_args!($($arg)*))
    };
}

/// `eprintln!` that never panics and never fails the command.
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::out::err_line(format_args!($($arg)*))
    };
}

pub(crate) use {errln, outln};
