#!/usr/bin/env bash
# regression-tested: a line is read as turning a test off only by what it
# does in its file's language (the class of case 480, read too widely
# there). A runner's name must reach the skip directly, through the
# runner's own names (`pytest.mark.skipif`, `it.only`), not through a call
# of anything else (Rust's `t.iter().skip(1)` on a local `t`); an option
# key counts only in the options of the test call itself (`{ only: ['a'] }`
# as an argument of the function under test is none); and a conditional
# skip on the line that declares its test or case (`pytest.param(..,
# marks=pytest.mark.skipif(COND, ..))`, `it('x', { skip: COND }, ..)`)
# turns it off unless COND is read as false where the check runs (a
# literal, or the platform compared with a string): `sys.platform ==
# "win32"` adds a case that runs here. Each honest line read `owed` ("None
# of the 3 paths ... is a test path with content of its own"); each passes
# now. One of each form that does turn the test off here (`skipif` of a
# condition that holds here, `#[ignore]`, `{ only: true }`, `{ skip:
# process.platform !== 'win32' }`) stays owed, naming the line it read so.
source "$(dirname "$0")/../lib.sh" || exit 2

for variant in pytest-param-skipif rust-t-iter-skip js-oneline-only-option node-test-skip-conditional \
  pytest-param-skipif-holds rust-ignore js-only-option node-test-skip-holds; do
  (
    cd "$(mktemp -d "$case_root/v.XXXXXX")"
    git init -q -b main .
    mkdir -p src tests test
    printf 'def add(a, b):\n    return a + b\n' > src/calc.py
    printf 'import pytest\nfrom calc import add\n\n\n@pytest.mark.parametrize(\n    ("a", "b", "want"),\n    [\n        (1, 1, 2),\n    ],\n)\ndef test_add(a, b, want):\n    assert add(a, b) == want\n' > tests/test_calc.py
    printf 'pub fn toks(s: &str) -> Vec<&str> { s.split(" ").collect() }\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn splits() {\n        let t = toks("a b c");\n        assert_eq!(t.len(), 3);\n    }\n}\n' > src/lib.rs
    printf "const assert = require('node:assert')\nconst { pick } = require('../src/pick')\n\nit('picks', () => assert.deepEqual(pick({ a: 1 }, {}), { a: 1 }))\n" > test/pick.js
    printf "exports.pick = (o, opts) => o\n" > src/pick.js
    commit_all initial
    md start "fix" > /dev/null
    param='        pytest.param("1", "2", 3, marks=pytest.mark.skipif(sys.platform %s "win32", reason="x")),'
    case $variant in
      pytest-param-skipif | pytest-param-skipif-holds)
        # A case that runs on every platform but Windows (or, held, only there).
        echo 'def add(a, b): return int(a) + int(b)' > src/calc.py
        op='=='; [ "$variant" = pytest-param-skipif-holds ] && op='!='
        sed -i "8a\\$(printf "$param" "$op")" tests/test_calc.py ;;
      rust-t-iter-skip)
        # The fix, and one assertion more in the existing test, on its local `t`.
        sed -i 's/s.split(" ").collect()/s.split(" ").filter(|t| !t.is_empty()).collect()/' src/lib.rs
        sed -i 's/        assert_eq!(t.len(), 3);/        assert_eq!(t.iter().skip(1).next(), Some(\&"b"));/' src/lib.rs ;;
      rust-ignore)
        sed -i 's/s.split(" ").collect()/s.split(" ").filter(|t| !t.is_empty()).collect()/' src/lib.rs
        sed -i 's/^    #\[test\]$/    #[test]\n    #[ignore]/' src/lib.rs ;;
      js-oneline-only-option)
        echo "exports.pick = (o, opts) => opts.only ? Object.fromEntries(opts.only.map((k) => [k, o[k]])) : o" > src/pick.js
        echo "it('picks only the keys asked for', () => assert.deepEqual(pick({ a: 1, b: 2 }, { only: ['a'] }), { a: 1 }))" >> test/pick.js ;;
      js-only-option)
        echo "exports.pick = (o, opts) => opts.only ? Object.fromEntries(opts.only.map((k) => [k, o[k]])) : o" > src/pick.js
        echo "it('picks', { only: true }, () => assert.deepEqual(pick({ a: 1 }, {}), { a: 1 }))" >> test/pick.js ;;
      node-test-skip-conditional)
        echo "exports.pick = (o, opts) => ({ ...o })" > src/pick.js
        echo "it('copies', { skip: process.platform === 'win32' }, () => assert.notStrictEqual(pick({ a: 1 }, {}), {}))" >> test/pick.js ;;
      node-test-skip-holds)
        echo "exports.pick = (o, opts) => ({ ...o })" > src/pick.js
        echo "it('copies', { skip: process.platform !== 'win32' }, () => assert.notStrictEqual(pick({ a: 1 }, {}), {}))" >> test/pick.js ;;
    esac
    commit_all "fix, and a test line ($variant)"
    case $variant in
      pytest-param-skipif | node-test-skip-conditional | js-oneline-only-option)
        expect_answer regression-tested pass "touches 1 test path" ;;
      rust-t-iter-skip) expect_answer regression-tested pass "adds or edits test code in 1 file: src/lib.rs" ;;
      pytest-param-skipif-holds) expect_open regression-tested 'tests/test_calc.py:9 `pytest\.param' owed ;;
      rust-ignore) expect_open regression-tested 'src/lib.rs:8 `#\[ignore\]`' owed ;;
      js-only-option | node-test-skip-holds) expect_open regression-tested 'test/pick.js:5 `it\(' owed ;;
    esac
  ) || fail "variant $variant"
done
