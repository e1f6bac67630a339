//! The scope family: `scoped`. A task may declare the paths it works in
//! (`majordomus start --scope`); every path changed since the start must
//! lie inside them. It reads nothing of its own: the change set since the
//! start is shared by every family (see [`crate::readings::Readings`]).

pub mod judge;
pub mod questions;

/// The stage the documents name for this family's questions.
pub const STAGE: &str = "scope";
