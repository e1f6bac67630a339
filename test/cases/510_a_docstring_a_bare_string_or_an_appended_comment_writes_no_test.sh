#!/usr/bin/env bash
# regression-tested (the class of case 451: inside a test item of a source
# file, a line only a comment writes no test), in its other spellings: a
# line writes a test only where what it changed is code that runs. A
# docstring added atop a test function (one line or several), a bare string
# statement (`"covers the fix"` in a vitest in-source `it(`, `"covers the
# fix";` in a #[test] fn), `#[doc = "covers the fix"]` over a #[test] fn,
# or a comment appended to an existing assert line (`// covers the fix`,
# `# covers the fix`) runs and asserts nothing: owed. An assertion edited
# on the same line as a new comment, or a string that is a value the test
# asserts, still writes one.
source "$(dirname "$0")/../lib.sh" || exit 2

for variant in py-docstring py-docstring-lines js-str rs-str rs-doc rs-trailing py-trailing \
  rs-edited-and-comment py-string-value; do
  (
    cd "$(mktemp -d "$case_root/v.XXXXXX")"
    git init -q -b main .
    mkdir -p src
    printf 'pub fn a() -> u8 { 1 }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn a_works() {\n        assert_eq!(super::a(), 1);\n    }\n}\n' > src/lib.rs
    printf '[pytest]\npython_files = *.py\n' > pytest.ini
    printf 'def add(a, b):\n    return a + b\n\ndef test_add():\n    assert add(1, 1) == 2\n' > src/calc.py
    printf 'export const add = (a, b) => a + b\nif (import.meta.vitest) {\n  const { it, expect } = import.meta.vitest\n  it("adds", () => {\n    expect(add(1, 1)).toBe(2)\n  })\n}\n' > src/add.js
    commit_all "initial"
    md start "fix" > /dev/null
    case $variant in
      py-docstring) sed -i 's/    return a + b/    return a - b/; s/^def test_add():/def test_add():\n    """Regression test for the fix."""/' src/calc.py ;;
      py-docstring-lines) sed -i 's/    return a + b/    return a - b/; s/^def test_add():/def test_add():\n    """Regression test\n    for the fix.\n    """/' src/calc.py ;;
      js-str) sed -i 's/=> a + b/=> a - b/; s/  it("adds", () => {/  it("adds", () => {\n    "covers the fix"/' src/add.js ;;
      rs-str) sed -i 's/pub fn a() -> u8 { 1 }/pub fn a() -> u8 { 2 }/; s/        assert_eq!(super::a(), 1);/        "covers the fix";\n        assert_eq!(super::a(), 1);/' src/lib.rs ;;
      rs-doc) sed -i 's/pub fn a() -> u8 { 1 }/pub fn a() -> u8 { 2 }/; s/    fn a_works() {/    #[doc = "covers the fix"]\n    fn a_works() {/' src/lib.rs ;;
      rs-trailing) sed -i 's/pub fn a() -> u8 { 1 }/pub fn a() -> u8 { 2 }/; s/        assert_eq!(super::a(), 1);/        assert_eq!(super::a(), 1); \/\/ covers the fix/' src/lib.rs ;;
      py-trailing) sed -i 's/    return a + b/    return a - b/; s/    assert add(1, 1) == 2/    assert add(1, 1) == 2  # covers the fix/' src/calc.py ;;
      rs-edited-and-comment) sed -i 's/pub fn a() -> u8 { 1 }/pub fn a() -> u8 { 2 }/; s/        assert_eq!(super::a(), 1);/        assert_eq!(super::a(), 2); \/\/ covers the fix/' src/lib.rs ;;
      py-string-value) sed -i 's/    return a + b/    return str(a - b)/; s/    assert add(1, 1) == 2/    assert add(1, 1) == (\n        "0"\n    )/' src/calc.py ;;
    esac
    commit_all "fix, and a line in the test ($variant)"
    case $variant in
      rs-edited-and-comment | py-string-value) expect_answer regression-tested pass "test" ;;
      *) expect_open regression-tested "test" owed ;;
    esac
  ) || failed="${failed-} $variant"
done
[ -z "${failed-}" ] || fail "false answer in:${failed}"
