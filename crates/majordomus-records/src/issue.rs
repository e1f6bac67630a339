//! An issue as the ledger and the markers name it: a number, and the
//! repository it lives in when that is not this one.
//!
//! An issue is a (repository, number) pair: `12` is this repository's issue
//! 12, `owner/repo#12` another repository's, and a question about it goes to
//! its own repository. Another repository's issue is never shortened to a
//! bare number, so it cannot be mistaken for this repository's of the same
//! number.

use std::fmt;

/// An issue: its number, and its repository (`None`: this repository).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
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
                if !is_repository(repo) {
                    return Err(bad());
                }
                (Some(repo.to_string()), n)
            }
            None => (None, text),
        };
        let number: u64 = number.parse().map_err(|_| bad())?;
        if number == 0 {
            return Err(bad());
        }
        Ok(Self { repo, number })
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

/// Whether `text` has the shape `owner/name`.
pub fn is_repository(text: &str) -> bool {
    let ok = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    matches!(text.split_once('/'), Some((owner, name)) if ok(owner) && ok(name))
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
    fn this_repositorys_name_is_dropped_so_one_issue_has_one_name() {
        let named = IssueRef::parse("Me/Here#4").expect("valid");
        assert_eq!(named.relative_to(Some("me/here")), IssueRef::here(4));
        assert_eq!(named.relative_to(Some("me/other")), named);
        assert_eq!(named.relative_to(None), named);
    }
}
