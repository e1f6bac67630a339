//! What majordomus writes and reads of its own: the task record, the policy,
//! and the atomic writes that keep a reader from ever seeing half a file.
//!
//! Nothing in this crate reads the repository's history or judges anything:
//! it only knows where the tool's own files live and what shape they have.

pub mod atomic;
pub mod forge;
pub mod hook;
pub mod issue;
pub mod ledger;
pub mod paths;
pub mod policy;
pub mod reading_at_start;
pub mod repo_path;
pub mod task;

pub use atomic::{create_atomic, write_atomic};
pub use paths::StatePaths;
pub use policy::{Policy, PolicyError};
pub use repo_path::RepoPath;
pub use task::{TaskError, TaskRecord, TaskState};
