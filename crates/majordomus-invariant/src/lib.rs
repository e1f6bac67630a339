//! The done invariant: its questions, grouped in families, each judged from
//! readings taken once; the completion score; the `gates.completion`
//! document.
//!
//! Data flows one way (ARCHITECTURE.md draws it): [`measure`] takes the
//! [`readings`] (all the I/O, with each family's `readings.rs`), [`done`]
//! hands each question to its family's judge (none), [`document`] assembles
//! what `check` writes and prints.

pub mod answer;
pub mod branch_cache;
pub mod deadline;
pub mod document;
pub mod done;
pub mod exemptions;
pub mod family;
pub mod id_cache;
pub mod in_force;
pub mod judgement;
pub mod measure;
pub mod orphans;
pub mod prose;
pub mod question;
pub mod readings;
pub mod restart;
pub mod runner;
pub mod score;
pub mod snapshot;
pub mod sweep;

#[cfg(test)]
mod fixtures;

pub use answer::{Answer, RemedyKind, Status};
pub use deadline::Deadline;
pub use document::Document;
pub use question::{QuestionDef, QuestionId, QUESTIONS};
pub use readings::Readings;
