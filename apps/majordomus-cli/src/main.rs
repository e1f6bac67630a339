//! `majordomus`: is this work done? Measured, not recalled.

use std::process::ExitCode;

fn main() -> ExitCode {
    majordomus_cli::main()
}
