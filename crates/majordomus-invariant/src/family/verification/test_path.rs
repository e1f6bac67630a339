//! What a test path is (README.md, the `regression-tested` row of the
//! questions table): the rule `regression-tested` counts a change to a test
//! by, and the only paths the verification readings ask whether they are
//! gone.

/// [`is_test_path`] for a path as bytes (one that is not UTF-8 judged by
/// its name with those bytes replaced).
pub fn is_test(path: &majordomus_records::RepoPath) -> bool {
    is_test_path(&String::from_utf8_lossy(path.as_bytes()))
}

/// Whether a path is a test by the usual conventions: a `test`, `tests`,
/// `spec` or `__tests__` directory, or a `test_*`, `*_test`, `*.test.*`,
/// `*.spec.*` file name.
pub fn is_test_path(path: &str) -> bool {
    const DIRS: [&str; 8] = ["test", "tests", "spec", "specs", "__tests__", "testdata", "testing", "e2e"];
    let mut parts = path.split('/').peekable();
    while let Some(part) = parts.next() {
        if parts.peek().is_some() {
            if DIRS.contains(&part) {
                return true;
            }
            continue;
        }
        let stem = part.split('.').next().unwrap_or(part);
        return stem.starts_with("test_")
            || stem.ends_with("_test")
            || stem.ends_with("_tests")
            || stem.ends_with("_spec")
            || part.contains(".test.")
            || part.contains(".spec.");
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_paths_are_recognised_by_the_usual_conventions() {
        for p in [
            "tests/it.rs",
            "src/foo/tests/x.rs",
            "pkg/parser_test.go",
            "test_parser.py",
            "web/a.test.ts",
            "spec/models/user_spec.rb",
        ] {
            assert!(is_test_path(p), "{p}");
        }
        for p in ["src/lib.rs", "README.md", "contest.rs", "src/testing_utils_prod.rs"] {
            assert!(!is_test_path(p), "{p}");
        }
    }
}
