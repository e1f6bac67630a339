//! `majordomus todo`: the task's todos, kept in the ledger.

use std::path::Path;

use clap::{Args, Subcommand};
use majordomus_records::ledger::Event;

use crate::out::outln;
use crate::render::escape_text;
use crate::workspace::Workspace;
use crate::{CliError, Exit};

/// Declare the task's work as todos, mark them done, list them.
///
/// A todo not done holds `todos-done` owed; declaring one makes a task
/// with no commit yet measurable. Only the active task's todos count.
#[derive(Debug, Args)]
pub struct TodoArgs {
    #[command(subcommand)]
    pub action: TodoAction,
}

#[derive(Debug, Subcommand)]
pub enum TodoAction {
    /// Declare a todo for the task; prints its number.
    Add {
        /// What is to be done.
        #[arg(required = true, num_args = 1..)]
        text: Vec<String>,
    },
    /// Mark todo N done.
    Done {
        /// The todo's number, as `todo add` and `todo list` print it.
        n: u32,
    },
    /// List the task's todos.
    List,
}

pub fn cmd_todo(cwd: &Path, args: TodoArgs) -> Result<Exit, CliError> {
    let ws = Workspace::open(cwd)?;
    let task = ws.active_task("a todo")?;
    // Held from the read to the append: two `todo add` at once must not
    // both read the same last number.
    let _lock = match args.action {
        TodoAction::List => None,
        _ => Some(ws.lock_ledger()?),
    };
    let book = ws.book(&task)?;
    match args.action {
        TodoAction::Add { text } => {
            let text = text.join(" ").trim().to_string();
            if text.is_empty() {
                return Err(CliError::Usage("a todo needs a text: majordomus todo add \"what is to be done\"".into()));
            }
            let n = book.todos.iter().map(|t| t.n).max().unwrap_or(0) + 1;
            ws.append(&task, Event::TodoAdd { n, text: text.clone() })?;
            outln!("todo {n} added: {}", escape_text(&text))?;
        }
        TodoAction::Done { n } => {
            let Some(todo) = book.todos.iter().find(|t| t.n == n) else {
                let known: Vec<String> = book.todos.iter().map(|t| t.n.to_string()).collect();
                return Err(CliError::Usage(if known.is_empty() {
                    format!("the task has no todo {n}: it declared none (majordomus todo add TEXT)")
                } else {
                    format!("the task has no todo {n}; its todos are {}", known.join(", "))
                }));
            };
            if todo.done {
                outln!("todo {n} was already done: {}", escape_text(&todo.text))?;
            } else {
                ws.append(&task, Event::TodoDone { n })?;
                outln!("todo {n} done: {}", escape_text(&todo.text))?;
            }
        }
        TodoAction::List => {
            if book.todos.is_empty() {
                outln!("no todo declared for {:?}", task.task)?;
            }
            for t in &book.todos {
                outln!("{:>3} [{}] {}", t.n, if t.done { "x" } else { " " }, escape_text(&t.text))?;
            }
        }
    }
    Ok(Exit::Ok)
}
