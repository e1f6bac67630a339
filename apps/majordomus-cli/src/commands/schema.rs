//! `majordomus schema`: the JSON Schemas of what majordomus writes and reads.

use clap::{Args, ValueEnum};

use crate::out::Out;
use crate::{CliError, Exit};

/// Print the JSON Schemas (draft 2020-12) of the documents majordomus writes and reads.
///
/// completion: the gates.completion document (check --format json, and
/// .ai/local/state/gates.completion.json). forge: the forge observation
/// (.ai/local/state/forge.json, and what forge record takes). With no
/// document named, both, as one schema bundle: each under `$defs`, with its
/// own `$id`.
#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// Which document (both when none is named).
    #[arg(value_enum)]
    pub document: Option<SchemaDocument>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SchemaDocument {
    Completion,
    Forge,
}

pub fn cmd_schema(args: SchemaArgs) -> Result<Exit, CliError> {
    let text = match args.document {
        Some(SchemaDocument::Completion) => majordomus_invariant::document::JSON_SCHEMA.to_string(),
        Some(SchemaDocument::Forge) => majordomus_records::forge::JSON_SCHEMA.to_string(),
        None => bundle()?,
    };
    let mut stdout = Out::lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()?;
    Ok(Exit::Ok)
}

/// Both schemas in one compound schema document, as draft 2020-12 allows:
/// embedded resources under `$defs`, each keeping its `$id`.
fn bundle() -> Result<String, CliError> {
    let parse = |name: &str, text: &str| {
        serde_json::from_str::<serde_json::Value>(text)
            .map_err(|e| CliError::internal(format!("the built-in {name} schema is not JSON"), e))
    };
    let doc = serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:majordomus:schema:bundle:v1",
        "title": "majordomus documents",
        "description": "The JSON Schemas of the documents majordomus writes and reads; `majordomus schema completion` or `majordomus schema forge` prints one alone.",
        "$defs": {
            "completion": parse("completion", majordomus_invariant::document::JSON_SCHEMA)?,
            "forge": parse("forge", majordomus_records::forge::JSON_SCHEMA)?,
        },
    });
    let mut text =
        serde_json::to_string_pretty(&doc).map_err(|e| CliError::internal("cannot encode the schemas", e))?;
    text.push('\n');
    Ok(text)
}
