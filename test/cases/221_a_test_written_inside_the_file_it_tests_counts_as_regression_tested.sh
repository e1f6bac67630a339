# A change counts as tested when it adds or edits test code, wherever the
# language writes it: a #[test] in a Rust file's #[cfg(test)] module, a
# test function in a file pytest's own configuration collects, an it(...)
# block in a JavaScript source file, a path the policy's [tests] paths
# names. An edit outside test items does not count, and `explain` lists
# exactly what counts in this repository.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p src pkg web checks
cat > src/lib.rs <<'RS'
pub fn add(a: u8, b: u8) -> u8 {
    a + b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(add(1, 1), 2);
    }
}
RS
printf '[tool.pytest.ini_options]\npython_files = ["check_*.py"]\n' > pyproject.toml
printf 'def helper():\n    return 1\n\n\ndef test_helper():\n    assert helper() == 1\n' > pkg/check_api.py
printf 'export const twice = (n) => n * 2;\n\nif (import.meta.vitest) {\n  const { it, expect } = import.meta.vitest;\n  it("doubles", () => {\n    expect(twice(2)).toBe(4);\n  });\n}\n' > web/twice.js
printf 'true\n' > checks/smoke.sh
mkdir -p .ai/repo && printf '[tests]\npaths = ["checks"]\n' > .ai/repo/majordomus.toml
commit_all "initial"
expect_run 0 md start "work in place"

# Code outside any test item: owed, saying where to look.
sed -i 's/    a + b/    a.wrapping_add(b)/' src/lib.rs
expect_run 10 md check
expect_contains "regression-tested=owed"
expect_contains "majordomus explain regression-tested"

# A test added inside the #[cfg(test)] module: tested, the item named.
sed -i 's/        assert_eq!(add(1, 1), 2);/        assert_eq!(add(1, 1), 2);\n        assert_eq!(add(255, 1), 0);/' src/lib.rs
[ "$(status_of regression-tested)" = pass ] || fail "an inline Rust test did not count"
json_get "$case_root/doc.json" "[q for q in d['questions'] if q['id'] == 'regression-tested'][0]['evidence']" | grep -q 'src/lib.rs (fn adds (#\[test\]))' ||
  fail "the Rust test item is not named: $(cat "$case_root/doc.json")"
git checkout -q src/lib.rs

# pytest's configuration here collects check_*.py: a test function edited there counts, a helper does not.
sed -i 's/    return 1/    return 2/' pkg/check_api.py
[ "$(status_of regression-tested)" = owed ] || fail "a helper's edit counted as a test"
sed -i 's/    assert helper() == 1/    assert helper() == 2/' pkg/check_api.py
[ "$(status_of regression-tested)" = pass ] || fail "a pytest test function in a collected file did not count"
git checkout -q pkg/check_api.py

# A Vitest in-source test block.
sed -i 's/toBe(4)/toBe(2 * 2)/' web/twice.js
[ "$(status_of regression-tested)" = pass ] || fail "an it() block in a source file did not count"
git checkout -q web/twice.js

# A path the policy (as it was at the start) declares a test.
echo 'exit 0' >> checks/smoke.sh
[ "$(status_of regression-tested)" = pass ] || fail "a path [tests] paths names did not count"

expect_run 0 md explain regression-tested
expect_contains "What counts as a test here:"
expect_contains "the policy's [tests] paths match: checks"
expect_contains "pyproject.toml [tool.pytest.ini_options]): in files matching check_*.py"
expect_contains "#[cfg(test)]"
expect_contains "describe(, it( and test( blocks"
