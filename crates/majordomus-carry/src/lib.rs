//! The run budget of an unattended run, carried in a record rather than in a
//! conversation (README.md, "An unattended run's budget: `majordomus carry`").
//!
//! A run of many tasks is authorized once, with a budget: how many changes
//! it may land (`--max`), how many issues it may file (ten unless
//! `--max-filed` says otherwise), how long it may run (eight hours unless
//! `--hours` says otherwise). The run outlives its sessions: a session is
//! cut when its context fills, and the next one carries on. If the budget
//! lived in the session, every cut would reset it and the bound would bind
//! nothing. So it lives in a record in the repository's common git
//! directory, and every question about it — may I begin? may I go on? whose
//! run is this? — is answered from that record with a verdict word.
//!
//! The crate is pure logic around two small pieces of I/O:
//! - [`invocation`]: the canonical form a run's invocation is recorded in;
//! - [`owner`]: which process owns the run, by pid *and* start time (I/O: `/proc`);
//! - [`record`]: the record's shape;
//! - [`verdict`]: the words and what each means for the loop;
//! - [`decide`]: every verdict, decided from what was read (no I/O);
//! - [`budget`]: `go` or `stop`, from the record alone;
//! - [`store`]: where the record lives, its lock, atomic writes (I/O);
//! - [`ops`]: each request end to end.

pub mod budget;
pub mod decide;
pub mod invocation;
pub mod ops;
pub mod owner;
pub mod record;
pub mod store;
pub mod verdict;

pub use budget::BudgetReading;
pub use decide::{Decision, Found, Present, Refusal};
pub use invocation::{Invocation, InvocationError, Limits};
pub use ops::{Carry, CarryError};
pub use owner::{Owner, OwnerState, Probe, ProcFs, Process};
pub use record::CarryRecord;
pub use store::{LocateError, Store, StoreError};
pub use verdict::{Class, Verdict};
