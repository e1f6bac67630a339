//! The question families: one folder per stage of the invariant, each
//! holding everything about its questions.
//!
//! A family's folder has, as far as it needs them:
//! - `mod.rs`: why the family exists, and its part of
//!   [`Readings`](crate::readings::Readings);
//! - `questions.rs`: what each question asks, its source, remedy, cap, and
//!   what each of its statuses means;
//! - `readings.rs`: taking its readings (the I/O; the readings themselves
//!   live in `majordomus-readings`);
//! - `judge.rs`: its questions judged from the readings, with their
//!   remedies (no I/O);
//! - tests beside each.
//!
//! The stage a document names (`"stage": "commit"`) is the folder's name.
//! How a new question is added is in ARCHITECTURE.md.

pub mod bookkeeping;
pub mod closing;
pub mod commit;
pub mod integration;
pub mod scope;
pub mod verification;
