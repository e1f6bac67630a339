//! JavaScript's and TypeScript's test items: the blocks test runners
//! (Jest, Vitest, Mocha, node:test, Jasmine) run, `describe(`, `it(` and
//! `test(` calls, each from its name to its closing parenthesis. A chain
//! such as `describe.each(table)(...)`, `it.only(...)` or `test.skip(...)`
//! is one. A name reached through a dot (`re.test(s)`, `this.it(...)`) is a
//! method, not a test. The source is masked first: comments, string and
//! template literals and regular expressions (told from division by the
//! token before them, the usual heuristic) become blanks.

use super::{ident_byte, line_of, matching, TestItem};

/// The names of the calls that are tests.
pub const CALLS: [&str; 3] = ["describe", "it", "test"];

/// Reads a JavaScript or TypeScript file's test items.
pub fn read(text: &str) -> Vec<TestItem> {
    let code = mask(text.as_bytes());
    let mut items = Vec::new();
    let mut i = 0;
    while i < code.len() {
        let Some(name) = CALLS.iter().find(|n| code[i..].starts_with(n.as_bytes())) else {
            i += 1;
            continue;
        };
        let before = previous_significant(&code, i);
        let boundary = (i == 0 || !ident_byte(code[i - 1]) && code[i - 1] != b'$') && before != Some(b'.');
        let mut j = i + name.len();
        if !boundary || code.get(j).is_some_and(|&b| ident_byte(b) || b == b'$') {
            i = j;
            continue;
        }
        // `.each`, `.only`, `.skip`, `.concurrent.each`: a chain of names.
        loop {
            let k = skip_space(&code, j);
            if code.get(k) != Some(&b'.') {
                break;
            }
            let start = skip_space(&code, k + 1);
            let end = start + code[start..].iter().take_while(|&&b| ident_byte(b)).count();
            if end == start {
                break;
            }
            j = end;
        }
        // One call, or two (`.each(table)(name, fn)`); a template tag
        // (`each`...``) is masked to blanks and needs no more.
        let mut end = None;
        for _ in 0..2 {
            let k = skip_space(&code, j);
            if code.get(k) != Some(&b'(') {
                break;
            }
            match matching(&code, k) {
                Some(close) => {
                    end = Some(close);
                    j = close + 1;
                }
                None => break,
            }
        }
        if let Some(close) = end {
            items.push(TestItem {
                first: line_of(&code, i), last: line_of(&code, close), label: format!("{name}(…)")
            });
            // Nested describe/it blocks are items too: keep scanning inside.
        }
        i += name.len();
    }
    items
}

/// Whether a runner runs the tests of this file, which is no test path (a
/// `*.test.js`, a `__tests__/` or `test/` file is one, and is counted by
/// its path): vitest's in-source tests, in a file that guards them with
/// `import.meta.vitest`, or a file `node --test` collects by its name when
/// given none (`test.js`, `test-*.js`, `*-test.js`, in `.js`, `.cjs`,
/// `.mjs` and, stripping types, `.ts`, `.cts`, `.mts`). Any other file's
/// `describe(`, `it(` or `test(` is a call of its own function as far as
/// the runners' defaults go (`describe(user, (u) => ...)`:
/// test/cases/481), as a Python file pytest's rules do not collect holds no
/// test (test/cases/469); a repository whose runner collects other files
/// names them in `[tests] paths`.
pub fn collected(path: &str, text: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let stem = match name.rsplit_once('.') {
        Some((stem, "js" | "cjs" | "mjs" | "ts" | "cts" | "mts")) => Some(stem),
        _ => None,
    };
    let by_name = stem.is_some_and(|s| s == "test" || s.starts_with("test-") || s.ends_with("-test"));
    by_name || in_source(text)
}

/// Whether the file holds vitest's in-source guard, `import.meta.vitest`,
/// as code (not in a comment or a string).
fn in_source(text: &str) -> bool {
    let code = mask(text.as_bytes());
    code.windows(b"import.meta.vitest".len()).enumerate().any(|(i, w)| {
        w == b"import.meta.vitest"
            && (i == 0 || !ident_byte(code[i - 1]))
            && !code.get(i + w.len()).is_some_and(|&b| ident_byte(b))
    })
}

fn skip_space(code: &[u8], mut i: usize) -> usize {
    while i < code.len() && code[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// The last byte before `i` that is not white space.
fn previous_significant(code: &[u8], i: usize) -> Option<u8> {
    code[..i].iter().rev().find(|b| !b.is_ascii_whitespace()).copied()
}

/// The source with comments and the insides of literals made blanks
/// (newlines kept).
pub fn mask(src: &[u8]) -> Vec<u8> {
    let mut out = src.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for b in &mut out[from.min(src.len())..to.min(src.len())] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    };
    let mut i = 0;
    while i < src.len() {
        let b = src[i];
        if b == b'/' && src.get(i + 1) == Some(&b'/') {
            let end = src[i..].iter().position(|&c| c == b'\n').map_or(src.len(), |p| i + p);
            blank(&mut out, i, end);
            i = end;
        } else if b == b'/' && src.get(i + 1) == Some(&b'*') {
            let end = src[i + 2..].windows(2).position(|w| w == b"*/").map_or(src.len(), |p| i + 2 + p + 2);
            blank(&mut out, i, end);
            i = end;
        } else if b == b'"' || b == b'\'' || b == b'`' {
            let mut j = i + 1;
            while j < src.len() && src[j] != b {
                if b != b'`' && src[j] == b'\n' {
                    break;
                }
                j += if src[j] == b'\\' { 2 } else { 1 };
            }
            blank(&mut out, i + 1, j);
            i = j + 1;
        } else if b == b'/' && regex_may_start(src, i) {
            let mut j = i + 1;
            let mut class = false;
            while j < src.len() && src[j] != b'\n' {
                match src[j] {
                    b'\\' => j += 1,
                    b'[' => class = true,
                    b']' => class = false,
                    b'/' if !class => break,
                    _ => {}
                }
                j += 1;
            }
            if src.get(j) == Some(&b'/') {
                blank(&mut out, i + 1, j);
                i = j + 1;
            } else {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    out
}

/// Whether a `/` at `i` opens a regular expression rather than dividing:
/// after an operator, an opening bracket, a comma or a keyword such as
/// `return`, not after a value.
fn regex_may_start(src: &[u8], i: usize) -> bool {
    let mut j = i;
    while j > 0 && src[j - 1].is_ascii_whitespace() {
        j -= 1;
    }
    if j == 0 {
        return true;
    }
    let prev = src[j - 1];
    if b"(,=:[!&|?{};+-*%<>~^".contains(&prev) {
        return true;
    }
    let word_start = src[..j].iter().rposition(|&b| !ident_byte(b)).map_or(0, |p| p + 1);
    matches!(&src[word_start..j], b"return" | b"typeof" | b"case" | b"in" | b"of" | b"void" | b"yield" | b"await")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(text: &str) -> Vec<(usize, usize)> {
        read(text).into_iter().map(|i| (i.first, i.last)).collect()
    }

    #[test]
    fn describe_it_and_test_blocks_are_items_nested_or_chained() {
        let src = "import { add } from './add';\n\ndescribe('add', () => {\n  it('adds', () => {\n    expect(add(1, 1)).toBe(2);\n  });\n});\n\ntest.each([[1, 2]])('adds %i', (a, b) => {\n  expect(add(a, 0)).toBe(a);\n});\n";
        assert_eq!(items(src), [(3, 7), (4, 6), (9, 11)]);
    }

    #[test]
    fn a_method_named_test_and_words_in_strings_comments_and_regexes_are_not_tests() {
        let src = "const ok = /test(/.test(s);\n// test('x', () => {})\nconst t = \"it(\";\nconst n = a / test / b;\nconst tmpl = `describe(${x})`;\nlatest(1);\nthis.it(2);\n";
        assert!(items(src).is_empty(), "{:?}", items(src));
    }

    #[test]
    fn only_a_file_a_runner_collects_holds_tests_outside_test_paths() {
        let own = "function describe(user, format) {\n  return format(user);\n}\n";
        assert!(!collected("src/user.js", own), "a function of its own named describe");
        assert!(!collected("src/user.js", "// if (import.meta.vitest) {\nconst s = 'import.meta.vitest';\n"));
        assert!(collected("src/twice.ts", "if (import.meta.vitest) {\n}\n"));
        assert!(collected("lib/test.mjs", ""));
        assert!(collected("lib/test-parse.js", ""));
        assert!(collected("lib/parse-test.cts", ""));
        assert!(!collected("lib/contest.js", ""));
        assert!(!collected("lib/test-parse.jsx", ""), "node --test collects no .jsx by default");
    }

    #[test]
    fn vitest_in_source_tests_are_seen_in_a_source_file() {
        let src = "export const add = (a, b) => a + b;\n\nif (import.meta.vitest) {\n  const { it, expect } = import.meta.vitest;\n  it('adds', () => {\n    expect(add(1, 2)).toBe(3);\n  });\n}\n";
        assert_eq!(items(src), [(5, 7)]);
    }
}
