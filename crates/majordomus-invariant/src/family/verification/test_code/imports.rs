//! The names a test file binds by its imports, read so that a runner
//! reached through another name (`import pytest as pt` then
//! `@pt.mark.skip`, vitest's `import { it as check }` then `check.skip(`)
//! turns a test off as surely as through its own (test/cases/491).
//!
//! Read per language, from the file's whole text as it is now:
//!
//! - Python: `import X as Y` binds `Y` to `X`'s first name (`import
//!   unittest.case as uc`: `uc` is `unittest`); `from M import a as b`
//!   binds `b` to `a` (`from pytest import mark as m`, `from unittest
//!   import skip as later`), a parenthesised list across lines too;
//! - JavaScript: `import { a as b } from 'm'` and `const { a: b } =
//!   require('m')` (or `await import('m')`) bind `b` to `a`; `import * as
//!   T from 'm'` and `const T = require('m')` bind `T` to the module (a
//!   namespace, read through: `T.it.skip(`); a default import or whole
//!   `require` of a module whose default is its `test` (`node:test`,
//!   `ava`, `tape`) binds the name to `test`.
//!
//! What is not read: a name bound by an assignment (`pt = pytest`), or
//! inside a function.

use super::disabled::Dialect;

/// Modules whose default export is their `test` function.
const DEFAULT_IS_TEST: [&str; 3] = ["node:test", "ava", "tape"];

/// What a name a file's imports bind stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Bound {
    /// Another name (`pt` for `pytest`, `check` for `it`).
    Name(String),
    /// A module's namespace, whose members are read as the names they are
    /// (`T.it.skip(` as `it.skip(`).
    Namespace,
}

/// The names a file binds by its imports, each with what it stands for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Imports {
    bound: Vec<(String, Bound)>,
}

impl Imports {
    /// The names the file `text`, in `dialect`, binds by its imports: in
    /// every language read here where the dialect is none of them.
    pub fn of(text: &[u8], dialect: Dialect) -> Self {
        let text = String::from_utf8_lossy(text);
        let mut bound = Vec::new();
        for statement in statements(&text) {
            if matches!(dialect, Dialect::Python | Dialect::Any) {
                python(&statement, &mut bound);
            }
            if matches!(dialect, Dialect::Js | Dialect::Any) {
                js(&statement, &mut bound);
            }
        }
        Imports { bound }
    }

    /// What `name` stands for by the file's imports, where they bind it.
    pub fn of_name(&self, name: &str) -> Option<&Bound> {
        self.bound.iter().find(|(n, _)| n == name).map(|(_, b)| b)
    }

    /// The name `name` stands for (itself where no import binds it to
    /// another name).
    pub fn resolve<'a>(&'a self, name: &'a str) -> &'a str {
        match self.of_name(name) {
            Some(Bound::Name(to)) => to,
            _ => name,
        }
    }
}

/// The file's lines, each trimmed, with a bracket an import opens and
/// leaves open joined with the lines up to its close (at most 50), so a
/// parenthesised or braced list across lines is one statement.
fn statements(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut lines = text.lines().map(str::trim);
    while let Some(line) = lines.next() {
        let mut statement = line.to_string();
        let opens_import = ["import ", "from ", "const ", "let ", "var "].iter().any(|w| line.starts_with(w));
        if opens_import {
            for _ in 0..50 {
                if depth(&statement) == 0 {
                    break;
                }
                let Some(next) = lines.next() else { break };
                statement.push(' ');
                statement.push_str(next);
            }
        }
        out.push(statement);
    }
    out
}

/// How many brackets of `text` are left open.
fn depth(text: &str) -> i32 {
    text.chars().fold(0, |d, c| match c {
        '(' | '{' | '[' => d + 1,
        ')' | '}' | ']' => d - 1,
        _ => d,
    })
}

/// Python's `import X as Y, ...` and `from M import a as b, ...`.
fn python(statement: &str, bound: &mut Vec<(String, Bound)>) {
    let statement = statement.split('#').next().unwrap_or_default();
    if let Some(list) = statement.strip_prefix("import ") {
        for part in list.split(',') {
            if let Some((module, name)) = part.split_once(" as ") {
                let first = module.trim().split('.').next().unwrap_or_default();
                push(bound, name, Bound::Name(first.to_string()));
            }
        }
    } else if let Some(rest) = statement.strip_prefix("from ") {
        let Some((_, list)) = rest.split_once(" import ") else { return };
        for part in list.trim().trim_start_matches('(').trim_end_matches(')').split(',') {
            if let Some((what, name)) = part.split_once(" as ") {
                push(bound, name, Bound::Name(what.trim().to_string()));
            }
        }
    }
}

/// JavaScript's `import ... from 'm'` and `const ... = require('m')` (or
/// `await import('m')`).
fn js(statement: &str, bound: &mut Vec<(String, Bound)>) {
    let statement = statement.trim_end_matches(';').trim();
    if let Some(rest) = statement.strip_prefix("import ") {
        let Some((clause, module)) = rest.rsplit_once(" from ") else { return };
        let module = unquote(module);
        js_clause(clause.trim().trim_start_matches("type "), module, " as ", bound);
        return;
    }
    let Some(rest) = ["const ", "let ", "var "].iter().find_map(|w| statement.strip_prefix(w)) else { return };
    let Some((clause, value)) = rest.split_once('=') else { return };
    let value = value.trim().trim_start_matches("await ").trim();
    let Some(module) = value
        .strip_prefix("require(")
        .or_else(|| value.strip_prefix("import("))
        .and_then(|m| m.strip_suffix(')'))
        .map(unquote)
    else {
        return;
    };
    js_clause(clause.trim(), module, ":", bound);
}

/// An import's clause: a default name, `* as T`, and a braced list whose
/// renamings are written with `sep` (`as` in an import, `:` in a
/// destructuring).
fn js_clause(clause: &str, module: &str, sep: &str, bound: &mut Vec<(String, Bound)>) {
    let (outside, braced) = match (clause.find('{'), clause.rfind('}')) {
        (Some(open), Some(close)) if open < close => {
            (format!("{}{}", &clause[..open], &clause[close + 1..]), Some(&clause[open + 1..close]))
        }
        _ => (clause.to_string(), None),
    };
    for part in braced.into_iter().flat_map(|b| b.split(',')) {
        if let Some((what, name)) = part.split_once(sep) {
            push(bound, name, Bound::Name(what.trim().to_string()));
        }
    }
    for part in outside.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        if let Some(name) = part.strip_prefix('*').and_then(|p| p.trim().strip_prefix("as ")) {
            push(bound, name, Bound::Namespace);
        } else if DEFAULT_IS_TEST.contains(&module) {
            push(bound, part, Bound::Name("test".to_string()));
        } else if sep == ":" {
            push(bound, part, Bound::Namespace);
        }
    }
}

/// A module's name without its quotes.
fn unquote(module: &str) -> &str {
    module.trim().trim_matches(|c| c == '\'' || c == '"' || c == '`')
}

/// Binds `name` (trimmed) where it is one identifier.
fn push(bound: &mut Vec<(String, Bound)>, name: &str, to: Bound) {
    let name = name.trim();
    let ident = !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$');
    if ident && !matches!(&to, Bound::Name(n) if n == name) {
        bound.push((name.to_string(), to));
    }
}

#[cfg(test)]
mod tests {
    use super::{Bound, Dialect, Imports};

    fn name(s: &str) -> Option<Bound> {
        Some(Bound::Name(s.to_string()))
    }

    #[test]
    fn python_imports_bind_a_runner_or_its_members_to_another_name() {
        let text = "import os\nimport pytest as pt, unittest as ut\nimport unittest.case as uc\nfrom pytest import mark as m, param\nfrom unittest import (\n    skip as later,\n    TestCase,\n)\n";
        let imports = Imports::of(text.as_bytes(), Dialect::Python);
        assert_eq!(imports.of_name("pt").cloned(), name("pytest"));
        assert_eq!(imports.of_name("ut").cloned(), name("unittest"));
        assert_eq!(imports.of_name("uc").cloned(), name("unittest"));
        assert_eq!(imports.of_name("m").cloned(), name("mark"));
        assert_eq!(imports.of_name("later").cloned(), name("skip"));
        assert_eq!(imports.of_name("param"), None);
        assert_eq!(imports.resolve("os"), "os");
    }

    #[test]
    fn js_imports_and_requires_bind_a_runner_or_its_module_to_another_name() {
        let text = "import { it as check, expect } from 'vitest';\nimport * as T from \"vitest\"\nimport nt from 'node:test'\nconst { test: t2, describe } = require('node:test');\nconst {\n  it: spec,\n} = await import('vitest')\nconst V = require('vitest')\nimport lodash from 'lodash'\n";
        let imports = Imports::of(text.as_bytes(), Dialect::Js);
        assert_eq!(imports.of_name("check").cloned(), name("it"));
        assert_eq!(imports.of_name("T").cloned(), Some(Bound::Namespace));
        assert_eq!(imports.of_name("nt").cloned(), name("test"));
        assert_eq!(imports.of_name("t2").cloned(), name("test"));
        assert_eq!(imports.of_name("spec").cloned(), name("it"));
        assert_eq!(imports.of_name("V").cloned(), Some(Bound::Namespace));
        assert_eq!(imports.of_name("lodash"), None);
        assert_eq!(imports.of_name("describe"), None);
    }
}
