//! The majordomus binary run for real, in temporary repositories: one
//! integration-test binary, one module per area.

#![allow(clippy::unwrap_used)]

mod common;

mod check_format;
mod everyday;
mod hook_install;
mod hook_stop;
mod schema;
