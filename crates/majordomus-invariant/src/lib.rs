//! The done invariant: the questions, the one place a reading becomes an
//! answer ([`done`]), the completion score and the `gates.completion`
//! document.
//!
//! Data flows one way: [`measure`] takes the readings (all the I/O), [`done`]
//! judges them (none), [`document`] assembles what `check` writes and prints.

pub mod answer;
pub mod bookkeeping;
pub mod closing;
pub mod document;
pub mod done;
pub mod exemptions;
pub mod measure;
pub mod question;
pub mod runner;
pub mod score;
pub mod sweep;
pub mod verification;

pub use answer::{Answer, Status};
pub use document::Document;
pub use question::{QuestionDef, QUESTIONS};
