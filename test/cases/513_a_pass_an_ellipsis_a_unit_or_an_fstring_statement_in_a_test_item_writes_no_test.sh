#!/usr/bin/env bash
# regression-tested (the class of cases 451 and 510: inside a test item of
# a source file, a line writes a test only where what it changed is code
# that runs), in the spellings of a statement that does nothing: an
# f-string with no placeholder (`f"covers the fix"`), a parenthesised
# string (`("covers the fix")`), `pass` or `...` added to a pytest function
# in src/calc.py (pytest.ini collects *.py), `();` added to a #[test] fn in
# src/lib.rs. Each runs and asserts nothing: owed. An f-string with a
# placeholder in an assert, or an asserted tuple, still writes a test.
source "$(dirname "$0")/../lib.sh" || exit 2

for variant in py-fstring py-paren py-pass py-ellipsis rs-unit py-fstring-asserted py-tuple-asserted; do
  (
    cd "$(mktemp -d "$case_root/v.XXXXXX")"
    git init -q -b main .
    mkdir -p src
    printf 'pub fn a() -> u8 { 1 }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn a_works() {\n        assert_eq!(super::a(), 1);\n    }\n}\n' > src/lib.rs
    printf '[pytest]\npython_files = *.py\n' > pytest.ini
    printf 'def add(a, b):\n    return a + b\n\ndef test_add():\n    assert add(1, 1) == 2\n' > src/calc.py
    commit_all "initial"
    md start "fix" > /dev/null
    fix='s/    return a + b/    return a - b/'
    case $variant in
      py-fstring) sed -i "$fix"'; s/^def test_add():/def test_add():\n    f"covers the fix"/' src/calc.py ;;
      py-paren) sed -i "$fix"'; s/^def test_add():/def test_add():\n    ("covers the fix")/' src/calc.py ;;
      py-pass) sed -i "$fix"'; s/^def test_add():/def test_add():\n    pass/' src/calc.py ;;
      py-ellipsis) sed -i "$fix"'; s/^def test_add():/def test_add():\n    .../' src/calc.py ;;
      rs-unit) sed -i 's/pub fn a() -> u8 { 1 }/pub fn a() -> u8 { 2 }/; s/        assert_eq!(super::a(), 1);/        ();\n        assert_eq!(super::a(), 1);/' src/lib.rs ;;
      py-fstring-asserted) sed -i "$fix"'; s/^def test_add():/def test_add():\n    assert f"{add(2, 1)}" == "1"/' src/calc.py ;;
      py-tuple-asserted) sed -i "$fix"'; s/^def test_add():/def test_add():\n    assert (add(2, 1), "sub") == (1, "sub")/' src/calc.py ;;
    esac
    commit_all "fix, and a line in the test ($variant)"
    case $variant in
      py-fstring-asserted | py-tuple-asserted) expect_answer regression-tested pass "test" ;;
      *) expect_open regression-tested "test" owed ;;
    esac
  ) || failed="${failed-} $variant"
done
[ -z "${failed-}" ] || fail "false answer in:${failed}"
