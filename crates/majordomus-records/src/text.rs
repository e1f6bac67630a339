//! Text that came from outside majordomus (a file the repository holds, a
//! record, the command line, a host's hook input), made safe to show and
//! bounded before it is kept.
//!
//! Two rules, each kept in one place:
//!
//! - **Every message that quotes input escapes its control characters**
//!   ([`escape`]): a newline in a gate id must not start a line of its own
//!   in an error (where it could pass for another problem, or a done line),
//!   and an ESC or OSC sequence must never reach a terminal, where it could
//!   retitle the window, hide text or worse. Rust's `{:?}` already escapes;
//!   text quoted any other way goes through here.
//! - **Nothing unbounded is kept or echoed** ([`check_len`], [`clamp`]): a
//!   record's field is refused on load past its bound, and what is echoed
//!   into evidence or an error is cut to a bound with the cut said, so a
//!   10 MB field cannot become a 130 MB document.

use std::borrow::Cow;

/// The most bytes of one field a record may hold where no tighter bound
/// applies: a path, a branch name, a description.
pub const MAX_FIELD: usize = 4096;

/// `s` with every control character written as an escape (`\n`, `\t`,
/// `\r`, `\x1b`, `\u{85}`), everything else as it is.
pub fn escape(s: &str) -> Cow<'_, str> {
    if !s.chars().any(char::is_control) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x80 && c.is_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// [`escape`] for a message of several lines: each line escaped, the line
/// breaks kept. For the last step before a terminal, where a message built
/// of lines (every problem of a policy, one a line) is printed whole.
pub fn escape_lines(s: &str) -> String {
    s.split('\n').map(|l| escape(l)).collect::<Vec<_>>().join("\n")
}

/// `s`, cut to at most `max` bytes (at a character boundary) with what
/// was cut said: `…(1234 more bytes)`.
pub fn clamp(s: &str, max: usize) -> Cow<'_, str> {
    if s.len() <= max {
        return Cow::Borrowed(s);
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    Cow::Owned(format!("{}…({} more bytes)", &s[..end], s.len() - end))
}

/// `Err` naming `field` when `value` is longer than `max` bytes.
pub fn check_len(field: &str, value: &str, max: usize) -> Result<(), String> {
    if value.len() > max {
        return Err(format!("its {field} is {} bytes long, more than the {max} it may be", value.len()));
    }
    Ok(())
}

/// Whether `s` is a git object id: 40 (SHA-1) or 64 (SHA-256) lowercase
/// hex digits.
pub fn is_object_id(s: &str) -> bool {
    // Through a table, and without stopping early: a task record holds an
    // id per branch, ten thousand in some repositories.
    matches!(s.len(), 40 | 64) && s.bytes().fold(true, |ok, b| ok & LOWER_HEX[usize::from(b)])
}

/// Whether each byte is a lowercase hexadecimal digit.
const LOWER_HEX: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = matches!(b as u8, b'0'..=b'9' | b'a'..=b'f');
        b += 1;
    }
    table
};

/// `Err` naming `field` unless `value` is an object id; what was found is
/// shown escaped and clamped.
pub fn check_object_id(field: &str, value: &str) -> Result<(), String> {
    if is_object_id(value) {
        return Ok(());
    }
    Err(format!("its {field} {:?} is not an object id (40 or 64 hex digits)", clamp(value, 80)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_and_the_rest_kept() {
        assert_eq!(escape("plain text, ünïcode"), "plain text, ünïcode");
        assert_eq!(escape("a\nb\tc\rd"), "a\\nb\\tc\\rd");
        assert_eq!(escape("\u{1b}]0;pwn\u{7}"), "\\x1b]0;pwn\\x07");
        assert_eq!(escape("\u{85}\u{9b}"), "\\u{85}\\u{9b}");
        assert_eq!(escape_lines("one \u{1b}[31m\ntwo"), "one \\x1b[31m\ntwo");
    }

    #[test]
    fn a_clamp_cuts_at_a_character_boundary_and_says_how_much() {
        assert_eq!(clamp("short", 10), "short");
        assert_eq!(clamp("abcdef", 3), "abc…(3 more bytes)");
        assert_eq!(clamp("ééé", 3), "é…(4 more bytes)");
    }

    #[test]
    fn object_ids_are_forty_or_sixty_four_lowercase_hex_digits() {
        assert!(is_object_id(&"a".repeat(40)));
        assert!(is_object_id(&"0".repeat(64)));
        for bad in ["", "abc", &"A".repeat(40), &"g".repeat(40), &"a".repeat(41), &"a".repeat(10_000)] {
            assert!(!is_object_id(bad), "{bad}");
        }
        let err = check_object_id("head", &"x".repeat(10_000_000)).expect_err("not an id");
        assert!(err.len() < 300, "the error echoes the whole field: {} bytes", err.len());
    }
}
