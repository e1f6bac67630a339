//! What majordomus writes and reads of its own: the task record, the policy,
//! the ledger; the atomic writes that keep a reader from ever seeing half a
//! file, reached without following a symbolic link ([`confined`]); the one
//! lock ([`lock`]), the one way to load a JSON record ([`json`]) and to
//! quote outside text ([`text`]).
//!
//! Nothing in this crate reads the repository's history or judges anything:
//! it only knows where the tool's own files live and what shape they have.

pub mod atomic;
pub mod confined;
pub mod forge;
pub mod hook;
pub mod issue;
pub mod json;
pub mod ledger;
pub mod lines;
pub mod lock;
pub mod names;
pub mod paths;
pub mod policy;
pub mod reading_at_start;
pub mod regular;
pub mod repo_path;
pub mod started_in;
pub mod task;
pub mod text;

pub use atomic::{create_atomic, write_atomic};
pub use confined::PlaceError;
pub use paths::StatePaths;
pub use policy::{Policy, PolicyError};
pub use repo_path::RepoPath;
pub use task::{TaskError, TaskRecord, TaskState};
