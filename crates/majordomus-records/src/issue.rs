//! An issue as the ledger and the markers name it: a number, and the
//! repository it lives in when that is not this one.
//!
//! An issue is a (repository, number) pair: `12` is this repository's issue
//! 12, `owner/repo#12` another repository's, and a question about it goes to
//! its own repository. Another repository's issue is never shortened to a
//! bare number, so it cannot be mistaken for this repository's of the same
//! number.
//!
//! Repository names are compared as GitHub does, without regard to case:
//! `Acme/Tools#3` and `acme/tools#3` are one issue. The spelling given is
//! kept for display.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};

/// An issue: its number, and its repository (`None`: this repository).
/// Equality, order and hash take the repository without regard to case.
#[derive(Debug, Clone)]
pub struct IssueRef {
    /// `owner/name`, or `None` for this repository.
    pub repo: Option<String>,
    pub number: u64,
}

impl IssueRef {
    pub fn here(number: u64) -> Self {
        Self { repo: None, number }
    }

    /// Parses `12`, `#12` or `owner/repo#12`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let text = text.trim();
        let bad = || format!("{text:?} is not an issue: give a number (12, #12) or owner/repo#12");
        let (repo, number) = match text.rsplit_once('#') {
            Some(("", n)) => (None, n),
            Some((repo, n)) => {
                if let Err(why) = check_repository(repo) {
                    return Err(format!("{text:?} is not an issue: {why}"));
                }
                (Some(repo.to_string()), n)
            }
            None => (None, text),
        };
        let number: u64 = match number.parse() {
            Ok(n) => n,
            Err(_) if !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()) => {
                return Err(format!("{text:?} is not an issue: the number is too large (at most {})", u64::MAX))
            }
            Err(_) => return Err(bad()),
        };
        if number == 0 {
            return Err(bad());
        }
        Ok(Self { repo, number })
    }

    /// What equality, order and hash compare: the repository lowercased.
    fn key(&self) -> (Option<String>, u64) {
        (self.repo.as_ref().map(|r| r.to_ascii_lowercase()), self.number)
    }

    /// The form the ledger stores: `12`, or `owner/repo#12`.
    pub fn to_ledger(&self) -> String {
        match &self.repo {
            Some(r) => format!("{r}#{}", self.number),
            None => self.number.to_string(),
        }
    }

    /// The repository this issue lives in, given this repository's name.
    pub fn repository<'a>(&'a self, here: &'a str) -> &'a str {
        self.repo.as_deref().unwrap_or(here)
    }

    /// The same issue, with a repository that names this one dropped, so
    /// `#12` and `me/here#12` are one issue.
    pub fn relative_to(&self, here: Option<&str>) -> Self {
        match (&self.repo, here) {
            (Some(r), Some(h)) if r.eq_ignore_ascii_case(h) => Self::here(self.number),
            _ => self.clone(),
        }
    }
}

/// `#12`, or `owner/repo#12`.
impl fmt::Display for IssueRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.repo {
            Some(r) => write!(f, "{r}#{}", self.number),
            None => write!(f, "#{}", self.number),
        }
    }
}

impl PartialEq for IssueRef {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for IssueRef {}

impl PartialOrd for IssueRef {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for IssueRef {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key().cmp(&other.key())
    }
}

impl Hash for IssueRef {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

/// Whether `text` is a repository GitHub could name: `owner/name`.
pub fn is_repository(text: &str) -> bool {
    check_repository(text).is_ok()
}

/// `owner/name` as GitHub allows them: an owner of at most 39 letters,
/// digits and single hyphens, neither first nor last; a name of at most 100
/// letters, digits, `-`, `_` and `.`, other than `.` and `..`. The error
/// says what is wrong.
pub fn check_repository(text: &str) -> Result<(), String> {
    let Some((owner, name)) = text.split_once('/') else {
        return Err(format!("{text:?} is not owner/repo"));
    };
    if owner.is_empty()
        || owner.len() > 39
        || !owner.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        || owner.starts_with('-')
        || owner.ends_with('-')
        || owner.contains("--")
    {
        return Err(format!(
            "{owner:?} is not a GitHub owner (at most 39 letters, digits and single hyphens, not first or last)"
        ));
    }
    if name.is_empty()
        || name.len() > 100
        || name == "."
        || name == ".."
        || !name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return Err(format!(
            "{name:?} is not a GitHub repository name (at most 100 letters, digits, '-', '_' and '.', not . or ..)"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_other_repositories_issues_parse_and_print_back() {
        assert_eq!(IssueRef::parse("12"), Ok(IssueRef::here(12)));
        assert_eq!(IssueRef::parse("#12"), Ok(IssueRef::here(12)));
        let other = IssueRef::parse("acme/tools#7").expect("valid");
        assert_eq!(other.repo.as_deref(), Some("acme/tools"));
        assert_eq!(other.to_string(), "acme/tools#7");
        assert_eq!(other.to_ledger(), "acme/tools#7");
        assert_eq!(IssueRef::here(12).to_ledger(), "12");
        assert_eq!(IssueRef::here(12).to_string(), "#12");
    }

    #[test]
    fn what_is_not_an_issue_is_refused() {
        for bad in ["", "#", "x", "0", "-3", "acme#3", "a/b/c#3", "acme/tools#", "12abc"] {
            assert!(IssueRef::parse(bad).is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn owners_and_names_github_would_refuse_are_not_issues() {
        let long_owner = format!("{}/x#1", "a".repeat(40));
        let long_name = format!("o/{}#1", "a".repeat(101));
        for bad in [
            "owner/..#1",
            "owner/.#1",
            "./x#1",
            "../x#1",
            "-acme/x#1",
            "acme-/x#1",
            "ac--me/x#1",
            "ac_me/x#1",
            "ac.me/x#1",
            "acme/to ols#1",
            "acme/tools!#1",
            long_owner.as_str(),
            long_name.as_str(),
        ] {
            assert!(IssueRef::parse(bad).is_err(), "{bad:?} parsed");
        }
        let longest = format!("{}/{}#1", "a".repeat(39), "b".repeat(100));
        for good in ["a-b/c.d_e-f#1", "A1/.github#2", "acme/..x#3", longest.as_str()] {
            assert!(IssueRef::parse(good).is_ok(), "{good:?} refused");
        }
        let err = IssueRef::parse("owner/..#1").expect_err("refused");
        assert!(err.contains("not a GitHub repository name"), "{err}");
    }

    #[test]
    fn one_repository_spelled_in_two_cases_is_one_issue_shown_as_given() {
        let upper = IssueRef::parse("OWNER/Repo#3").expect("valid");
        let lower = IssueRef::parse("owner/repo#3").expect("valid");
        assert_eq!(upper, lower);
        assert_eq!(upper.cmp(&lower), Ordering::Equal);
        let set: std::collections::HashSet<IssueRef> = [upper.clone(), lower].into_iter().collect();
        assert_eq!(set.len(), 1);
        assert_eq!(upper.to_string(), "OWNER/Repo#3");
        assert_ne!(upper, IssueRef::parse("owner/repo#4").expect("valid"));
        assert_ne!(upper, IssueRef::parse("owner/other#3").expect("valid"));
    }

    #[test]
    fn a_number_too_large_is_said_to_be_too_large() {
        assert_eq!(IssueRef::parse("18446744073709551615"), Ok(IssueRef::here(u64::MAX)));
        for big in ["18446744073709551616", "#99999999999999999999999", "acme/tools#99999999999999999999999"] {
            let err = IssueRef::parse(big).expect_err("too large");
            assert!(err.contains("too large"), "{big}: {err}");
        }
        let err = IssueRef::parse("12x").expect_err("not a number");
        assert!(!err.contains("too large"), "{err}");
    }

    #[test]
    fn this_repositorys_name_is_dropped_so_one_issue_has_one_name() {
        let named = IssueRef::parse("Me/Here#4").expect("valid");
        assert_eq!(named.relative_to(Some("me/here")), IssueRef::here(4));
        assert_eq!(named.relative_to(Some("me/other")), named);
        assert_eq!(named.relative_to(None), named);
    }
}
