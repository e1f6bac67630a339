//! The invocation a run was typed as, in the one form every session writes.
//!
//! A resumed session finds its run by comparing the invocation it was handed
//! with the one in the record, character for character. Whatever hands the
//! next session its invocation (a supervisor, a person retyping it, a script)
//! rebuilds the text from tokens and integers; if the record held
//! `--max 03` or two spaces, the rebuilt `--max 3` would not match and the
//! run would answer `mismatch` at its first cut. So the record holds only the
//! canonical form, and a non-canonical invocation is refused up front with
//! the canonical form shown, rather than accepted and lost later.
//!
//! Canonical means: tokens separated by exactly one space, no leading or
//! trailing space, `--flag=value` written as `--flag value`, and every
//! numeric value a plain integer (no sign, no leading zero). The budget flags
//! the record enforces are [`MAX`], [`MAX_FILED`] and [`HOURS`]; each takes
//! an integer and may appear once. Other tokens are the run's own business
//! and are kept as typed.

use std::fmt;

/// How many changes the run may land. Absent: no ceiling on merges.
pub const MAX: &str = "--max";
/// How many issues the run may file. Default [`DEFAULT_MAX_FILED`].
pub const MAX_FILED: &str = "--max-filed";
/// The whole-run bound, in hours since the run began. Default [`DEFAULT_HOURS`].
pub const HOURS: &str = "--hours";

/// The filings ceiling when the invocation names none.
pub const DEFAULT_MAX_FILED: u64 = 10;
/// The whole-run bound when the invocation names none.
pub const DEFAULT_HOURS: u64 = 8;

const BUDGET_FLAGS: [&str; 3] = [MAX, MAX_FILED, HOURS];

/// An invocation known to be in canonical form, with its budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invocation {
    text: String,
    limits: Limits,
}

/// The bounds an invocation declares (or the defaults it leaves in place).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// `--max`: how many changes may land; `None` when not declared.
    pub max_merged: Option<u64>,
    /// `--max-filed`, or [`DEFAULT_MAX_FILED`].
    pub max_filed: u64,
    /// `--hours`, or [`DEFAULT_HOURS`].
    pub hours: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvocationError {
    #[error("the invocation is empty")]
    Empty,
    #[error("the invocation is not in canonical form; write it as {canonical:?}")]
    NotCanonical { given: String, canonical: String },
    #[error("{flag} needs an integer after it")]
    MissingValue { flag: &'static str },
    #[error("{flag} takes a plain non-negative integer, not {value:?}")]
    NotAnInteger { flag: &'static str, value: String },
    #[error("{flag} appears more than once; a budget is declared once")]
    Repeated { flag: &'static str },
}

impl Invocation {
    /// Accepts `text` only when it is already canonical.
    pub fn parse(text: &str) -> Result<Self, InvocationError> {
        let (canonical, limits) = canonicalize(text)?;
        if canonical != text {
            return Err(InvocationError::NotCanonical { given: text.to_string(), canonical });
        }
        Ok(Self { text: canonical, limits })
    }

    /// The canonical form of `text`, whether or not it was written that way.
    pub fn canonical(text: &str) -> Result<String, InvocationError> {
        canonicalize(text).map(|(canonical, _)| canonical)
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }
}

impl fmt::Display for Invocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

fn canonicalize(text: &str) -> Result<(String, Limits), InvocationError> {
    let mut tokens: Vec<String> = Vec::new();
    for raw in text.split_whitespace() {
        match raw.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") && flag.len() > 2 && !value.is_empty() => {
                tokens.push(flag.to_string());
                tokens.push(value.to_string());
            }
            _ => tokens.push(raw.to_string()),
        }
    }
    if tokens.is_empty() {
        return Err(InvocationError::Empty);
    }

    let mut max_merged = None;
    let mut max_filed = None;
    let mut hours = None;
    let mut i = 0;
    while i < tokens.len() {
        let budget_flag = BUDGET_FLAGS.iter().copied().find(|f| *f == tokens[i]);
        let value_index = i + 1;
        match budget_flag {
            Some(flag) => {
                let Some(value) = tokens.get(value_index) else {
                    return Err(InvocationError::MissingValue { flag });
                };
                let n =
                    plain_integer(value).ok_or_else(|| InvocationError::NotAnInteger { flag, value: value.clone() })?;
                let slot = match flag {
                    MAX => &mut max_merged,
                    MAX_FILED => &mut max_filed,
                    _ => &mut hours,
                };
                if slot.replace(n).is_some() {
                    return Err(InvocationError::Repeated { flag });
                }
                tokens[value_index] = n.to_string();
                i += 2;
            }
            None => {
                // Any other flag's integer value is written plainly too, so
                // the whole string survives a rebuild from its integers.
                if tokens[i].starts_with("--") {
                    if let Some(n) = tokens.get(value_index).and_then(|v| plain_integer(v)) {
                        tokens[value_index] = n.to_string();
                        i += 2;
                        continue;
                    }
                }
                i += 1;
            }
        }
    }
    let limits =
        Limits { max_merged, max_filed: max_filed.unwrap_or(DEFAULT_MAX_FILED), hours: hours.unwrap_or(DEFAULT_HOURS) };
    Ok((tokens.join(" "), limits))
}

/// The value of an integer token written with optional `+` and leading
/// zeros; `None` when it is not one (or does not fit).
fn plain_integer(token: &str) -> Option<u64> {
    let digits = token.strip_prefix('+').unwrap_or(token);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_canonical_invocation_is_accepted_with_its_budget() {
        let inv = Invocation::parse("backlogrun --max 5 --idle 30").expect("canonical");
        assert_eq!(inv.as_str(), "backlogrun --max 5 --idle 30");
        assert_eq!(inv.limits(), Limits { max_merged: Some(5), max_filed: DEFAULT_MAX_FILED, hours: DEFAULT_HOURS });
    }

    #[test]
    fn a_leading_zero_is_refused_with_the_canonical_form_shown() {
        let err = Invocation::parse("backlogrun --max 03").expect_err("not canonical");
        assert_eq!(
            err,
            InvocationError::NotCanonical {
                given: "backlogrun --max 03".into(),
                canonical: "backlogrun --max 3".into()
            }
        );
        assert!(err.to_string().contains("\"backlogrun --max 3\""), "{err}");
    }

    #[test]
    fn extra_spaces_tabs_and_an_equals_sign_are_not_canonical() {
        for given in [
            "backlogrun  --max 3",
            " backlogrun --max 3",
            "backlogrun --max 3 ",
            "backlogrun\t--max 3",
            "backlogrun --max=3",
            "backlogrun --max +3",
        ] {
            assert_eq!(
                Invocation::parse(given),
                Err(InvocationError::NotCanonical { given: given.into(), canonical: "backlogrun --max 3".into() }),
                "{given:?}"
            );
        }
    }

    #[test]
    fn the_integer_of_any_flag_is_written_plainly_not_only_the_budgets() {
        assert_eq!(Invocation::canonical("backlogrun --idle 030").expect("ok"), "backlogrun --idle 30");
        // A number that is not a flag's value is an argument like any other.
        assert_eq!(Invocation::canonical("fullrun 007").expect("ok"), "fullrun 007");
    }

    #[test]
    fn every_budget_flag_is_read_and_the_defaults_fill_the_rest() {
        let inv = Invocation::parse("run --max-filed 2 --hours 1").expect("canonical");
        assert_eq!(inv.limits(), Limits { max_merged: None, max_filed: 2, hours: 1 });
        let bare = Invocation::parse("run").expect("canonical");
        assert_eq!(bare.limits(), Limits { max_merged: None, max_filed: 10, hours: 8 });
    }

    #[test]
    fn a_budget_flag_without_an_integer_is_refused() {
        assert_eq!(Invocation::parse("run --max"), Err(InvocationError::MissingValue { flag: MAX }));
        assert_eq!(
            Invocation::parse("run --hours -1"),
            Err(InvocationError::NotAnInteger { flag: HOURS, value: "-1".into() })
        );
        assert_eq!(
            Invocation::parse("run --max three"),
            Err(InvocationError::NotAnInteger { flag: MAX, value: "three".into() })
        );
        assert_eq!(
            Invocation::parse("run --max 99999999999999999999999"),
            Err(InvocationError::NotAnInteger { flag: MAX, value: "99999999999999999999999".into() })
        );
    }

    #[test]
    fn a_budget_declared_twice_is_refused() {
        assert_eq!(Invocation::parse("run --max 1 --max 2"), Err(InvocationError::Repeated { flag: MAX }));
    }

    #[test]
    fn an_empty_invocation_is_refused() {
        assert_eq!(Invocation::parse(""), Err(InvocationError::Empty));
        assert_eq!(Invocation::parse("   "), Err(InvocationError::Empty));
    }
}
