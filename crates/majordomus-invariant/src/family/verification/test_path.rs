//! What a test path is (README.md, the `regression-tested` row of the
//! questions table): the rule `regression-tested` counts a change to a test
//! by, and the only paths the verification readings ask whether they are
//! gone. The usual conventions, and the globs the policy's `[tests] paths`
//! adds; test code inside other files is `test_code/`'s.

use majordomus_readings::inputs::Matcher;
use majordomus_records::policy::{TestItems, Tests};

/// The path rule in force: the conventions, and the policy's globs; and
/// the test items the policy declares inside files of languages not read
/// here (`[tests] items`).
#[derive(Debug, Clone, Default)]
pub struct TestRules {
    /// The policy's `[tests] paths`, as written.
    pub globs: Vec<String>,
    matcher: Option<Matcher>,
    /// The policy's `[tests] items`, as written.
    pub items: Vec<TestItems>,
    /// Each of `items`' globs compiled, with its marker.
    item_matchers: Vec<(Matcher, String)>,
}

impl TestRules {
    /// The conventions and `globs` (already checked when the policy was
    /// read; one that does not compile here adds nothing, which errs towards
    /// owed, never a pass).
    pub fn new(globs: &[String]) -> Self {
        let matcher = if globs.is_empty() { None } else { Matcher::new(globs).ok() };
        Self { globs: globs.to_vec(), matcher, items: Vec::new(), item_matchers: Vec::new() }
    }

    /// The rules of a policy's `[tests]` (the one in force, under a task).
    /// A declaration whose globs do not compile here, or whose marker is
    /// empty, declares nothing (the policy's reading refused both already).
    pub fn of(tests: Option<&Tests>) -> Self {
        let Some(tests) = tests else { return Self::default() };
        let mut rules = Self::new(&tests.paths);
        rules.items = tests.items.clone();
        rules.item_matchers = tests
            .items
            .iter()
            .filter(|i| !i.marker.trim().is_empty())
            .filter_map(|i| Some((Matcher::new(&i.paths).ok()?, i.marker.clone())))
            .collect();
        rules
    }

    /// The markers the policy declares test items by in the file at `path`.
    pub fn markers_of(&self, path: &str) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for (matcher, marker) in &self.item_matchers {
            if !out.contains(&marker.as_str()) && matcher.is_match(path) {
                out.push(marker);
            }
        }
        out
    }

    /// Whether a path is a test by the conventions or by the policy.
    pub fn is_test_path(&self, path: &str) -> bool {
        is_test_path(path) || self.matcher.as_ref().is_some_and(|m| m.is_match(path))
    }

    /// [`TestRules::is_test_path`] for a path as bytes (one that is not
    /// UTF-8 judged by its name with those bytes replaced).
    pub fn is_test(&self, path: &majordomus_records::RepoPath) -> bool {
        self.is_test_path(&String::from_utf8_lossy(path.as_bytes()))
    }
}

/// The directories whose contents are tests by convention, in any case
/// (Swift's packages keep theirs in `Tests/`, .NET's solutions in `Test/`
/// or `Tests/`, LLVM its unit tests in `unittests/`).
pub const DIRS: [&str; 9] = ["test", "tests", "spec", "specs", "__tests__", "testdata", "testing", "e2e", "unittests"];

/// The endings, after a dot, of a directory that is a test project by
/// convention, in any case: .NET's `Parser.Tests/`, `App.UnitTests/`.
pub const PROJECT_SUFFIXES: [&str; 4] = ["test", "tests", "unittests", "integrationtests"];

/// Whether a directory's name is a test directory by convention: one of
/// [`DIRS`], or a project named `NAME.` and one of [`PROJECT_SUFFIXES`],
/// in any case.
fn is_test_dir(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    DIRS.contains(&lower.as_str())
        || lower.rsplit_once('.').is_some_and(|(project, end)| !project.is_empty() && PROJECT_SUFFIXES.contains(&end))
}
/// The file names that are tests by convention (as `explain` shows them):
/// `FooTest`, `FooTests` and `FooSpec` are the JVM's, .NET's, PHPUnit's and
/// XCTest's (`ParserTest.java`, `ParserTests.swift`, Spock's
/// `ParserSpec.groovy`), `TestFoo` and `FooTestCase` Maven Surefire's,
/// `FooIT` and `FooITCase` its Failsafe's integration tests, `foo_unittest`
/// GoogleTest's in Chromium's and LLVM's trees.
pub const NAMES: [&str; 14] = [
    "test_*",
    "*_test",
    "*_tests",
    "*_unittest",
    "*_spec",
    "*.test.*",
    "*.spec.*",
    "*Test",
    "*Tests",
    "*Spec",
    "*TestCase",
    "*IT",
    "*ITCase",
    "Test*",
];

/// Whether a file's stem ends in one of the words a test class is named
/// by, written as a word of its own after another (`ParserTest`,
/// `HttpClientTests`, `ParserSpec`, `ParserTestCase`, `ParserIT`): the
/// word after a lowercase letter or a digit; or begins with `Test` as a
/// word of its own before another (`TestParser`: an uppercase letter
/// after it). A stem that is only the word (`Tests.cs`) or where it is
/// part of another word (`Latest`, `Contest`, `Testament`, `SPLIT`) is
/// none.
fn is_test_class_name(stem: &str) -> bool {
    let ends = ["Test", "Tests", "Spec", "TestCase", "IT", "ITCase"].iter().any(|word| {
        stem.strip_suffix(word)
            .and_then(|before| before.bytes().last())
            .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    });
    ends || stem.strip_prefix("Test").and_then(|after| after.bytes().next()).is_some_and(|b| b.is_ascii_uppercase())
}

/// The extensions of prose, which a test file's name does not make a test
/// (`docs/test_plan.md`, `notes/e2e_test.txt`).
const PROSE: [&str; 7] = ["md", "markdown", "rst", "txt", "adoc", "org", "html"];

/// The extensions of documents, which are prose about tests wherever they
/// lie, a test directory too (`tests/README.md`, a `tests/TODO.md` saying
/// a test is still to write). A `.txt` or `.html` file in a test directory
/// is test data (an expected output), as any other file there; a project
/// whose tests' fixtures are documents names them in `[tests] paths`.
const DOCUMENTS: [&str; 5] = ["md", "markdown", "rst", "adoc", "org"];

/// Whether a path is a document by its extension ([`DOCUMENTS`]): prose
/// for people, which no tool reads as a list of its own (a test, or a
/// baseline followed by its entries: `closing::readings::follow`).
pub fn is_document(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.rsplit_once('.').is_some_and(|(_, e)| DOCUMENTS.contains(&e.to_ascii_lowercase().as_str()))
}

/// [`is_test_path`] for a path as bytes (one that is not UTF-8 judged by
/// its name with those bytes replaced).
pub fn is_test(path: &majordomus_records::RepoPath) -> bool {
    is_test_path(&String::from_utf8_lossy(path.as_bytes()))
}

/// Whether a path is a test by the usual conventions: a `test`, `tests`,
/// `spec` or `__tests__` directory (in any case: `Tests/`), a test project's
/// (`Parser.Tests/`), or a file name of [`NAMES`].
pub fn is_test_path(path: &str) -> bool {
    if is_document(path) {
        return false;
    }
    let mut parts = path.split('/').peekable();
    while let Some(part) = parts.next() {
        if parts.peek().is_some() {
            if is_test_dir(part) {
                return true;
            }
            continue;
        }
        // A document is prose about tests, never one (`docs/test_plan.md`):
        // the names tell a test file, not a file about testing.
        let extension = part.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
        if extension.is_some_and(|e| PROSE.contains(&e.as_str())) {
            return false;
        }
        let stem = part.split('.').next().unwrap_or(part);
        return stem.starts_with("test_")
            || stem.ends_with("_test")
            || stem.ends_with("_tests")
            || stem.ends_with("_unittest")
            || stem.ends_with("_spec")
            || is_test_class_name(stem)
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
        for p in [
            "src/main/java/org/x/ParserTest.java",
            "app/src/ParserTests.kt",
            "Sources/ParserTests.swift",
            "lib/ParserSpec.groovy",
            "src/Http2ClientTest.php",
            "base/strings/string_util_unittest.cc",
            "src/main/java/org/x/TestParser.java",
            "src/ParserTestCase.java",
            "src/ParserIT.java",
            "src/Parser2ITCase.kt",
        ] {
            assert!(is_test_path(p), "a test class's or a unit test's file name: {p}");
        }
        for p in [
            "Tests/LibTests/LibTests.swift",
            "test/Parser.Tests/ParserTests.cs",
            "src/Parser.Tests/ParserTests.cs",
            "src/App.UnitTests/AppTests.cs",
            "Test/FooTest.java",
            "Spec/Models/User.rb",
            "App.IntegrationTests/Api.cs",
            "unittests/ADT/StringRefTest.cpp",
            "llvm/unittests/Support/Path.cpp",
        ] {
            assert!(is_test_path(p), "a test directory in another case, or a test project: {p}");
        }
        for p in [
            "src/Tests.cs",
            "src/Contest/main.c",
            "src/.tests/x.rs",
            "src/Latest/x.rs",
            "src/Parser.Testing.Tools/x.cs",
            "api.spec/openapi.yaml",
            "src/Latest.java",
            "src/Contest.kt",
            "src/TEST.c",
            "src/Spec.scala",
            "src/Inspect.java",
            "src/unittest_helpers.cc",
            "src/Testament.java",
            "src/Test.java",
            "src/TESTS.c",
            "src/SPLIT.c",
            "src/IT.java",
            "src/Testing.java",
        ] {
            assert!(!is_test_path(p), "{p}");
        }
        for p in ["src/lib.rs", "README.md", "contest.rs", "src/testing_utils_prod.rs", "docs/test_plan.md"] {
            assert!(!is_test_path(p), "{p}");
        }
        for p in ["docs/parser_spec.rst", "notes/e2e_test.txt", "a.test.html"] {
            assert!(!is_test_path(p), "{p}");
        }
        for p in ["tests/README.md", "spec/TODO.markdown", "tests/unit/notes.rst", "e2e/PLAN.adoc"] {
            assert!(!is_test_path(p), "a document in a test directory: {p}");
        }
        for p in ["tests/fixtures/expected.txt", "testdata/page.html", "tests/data.json"] {
            assert!(is_test_path(p), "test data: {p}");
        }
    }

    #[test]
    fn the_policys_globs_add_test_paths_to_the_conventions() {
        let rules = TestRules::new(&["checks/**/*.sh".to_string(), "qa".to_string()]);
        assert!(rules.is_test_path("checks/unit/a.sh") && rules.is_test_path("qa/x.txt"));
        assert!(rules.is_test_path("tests/it.rs"), "the conventions still hold");
        assert!(!rules.is_test_path("src/lib.rs") && !rules.is_test_path("checks/a.rs"));
        assert!(!TestRules::default().is_test_path("qa/x.txt"));
    }
}
