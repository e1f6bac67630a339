//! `majordomus schema`: the JSON Schemas of what majordomus writes and reads.

use std::io::Write;

use clap::{Args, ValueEnum};

use crate::{CliError, Exit};

/// Print the JSON Schema (draft 2020-12) of a document majordomus writes or reads.
///
/// completion: the gates.completion document (check --format json, and
/// .ai/local/state/gates.completion.json). forge: the forge observation
/// (.ai/local/state/forge.json, and what forge record takes).
#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// Which document.
    #[arg(value_enum)]
    pub document: SchemaDocument,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SchemaDocument {
    Completion,
    Forge,
}

pub fn cmd_schema(args: SchemaArgs) -> Result<Exit, CliError> {
    let text = match args.document {
        SchemaDocument::Completion => majordomus_gates::document::JSON_SCHEMA,
        SchemaDocument::Forge => majordomus_records::forge::JSON_SCHEMA,
    };
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()?;
    Ok(Exit::Ok)
}
