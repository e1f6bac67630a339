#!/usr/bin/env bash
# regression-tested: a runner reached through the name its file imports it
# under turns a test off as surely as through its own name (the class of
# 480 and 489, whose runner names were matched only as written). The test
# files import pytest as `pt`, unittest as `ut`, pytest's `mark` as `m`,
# vitest's `it` as `check`, node:test's `test` as `t2` and vitest whole as
# `T` before the start; the fix adds only `@pt.mark.skip`, `@ut.skip(..)`,
# `pt.skip(..)` in the body, `@m.xfail`, `check.skip(`, `t2.skip(` or
# `T.it.skip(` over the one test, and each read `pass: The change touches
# 1 test path`. Likewise a parameter list emptied: pytest skips
# `@pytest.mark.parametrize("x", [])` ("got empty parameter set") and
# `test.each([])` declares no test. Each is owed, naming the line; a case
# added through the alias (`@pt.mark.parametrize("x", [1, 2])`) and a new
# test through `check(` still pass.
source "$(dirname "$0")/../lib.sh" || exit 2

py_test='import pytest\nimport pytest as pt\nimport unittest as ut\nfrom pytest import mark as m\n\n\n%b@pytest.mark.parametrize("x", %s)\ndef test_add(x):\n%b    assert x + 1 == 2\n'
vi_test="import { it as check } from 'vitest';\nimport * as T from 'vitest';\nimport assert from 'node:assert';\n\n%s('adds', () => {\n  assert.equal(1 + 1, 2);\n});\n%b"
nt_test="const { test: t2 } = require('node:test');\nconst assert = require('node:assert');\n\n%s('adds', () => {\n  assert.equal(1 + 1, 2);\n});\n"
each_test="import { test } from 'vitest';\n\ntest.each(%s)('adds %%i', (n) => {\n  expect(n + 1).toBe(2);\n});\n"

for variant in pt-mark-skip ut-skip pt-skip-in-body m-xfail vitest-it-alias-skip node-test-alias-skip \
  vitest-namespace-skip empty-parametrize empty-each honest-pt-parametrize honest-check-test; do
  (
    cd "$(mktemp -d "$case_root/v.XXXXXX")"
    git init -q -b main .
    mkdir -p src tests web test
    echo 'def add(a, b): return a + b' > src/calc.py
    printf "$py_test" "" "[1]" "" > tests/test_calc.py
    printf "$vi_test" check "" > web/calc.test.js
    printf "$nt_test" t2 > test/calc.js
    printf "$each_test" "[1]" > web/each.test.js
    commit_all "initial"
    md start "fix add" > /dev/null
    echo 'def add(a, b): return a - b' > src/calc.py
    case $variant in
      pt-mark-skip) printf "$py_test" '@pt.mark.skip\n' "[1]" "" > tests/test_calc.py ;;
      ut-skip) printf "$py_test" '@ut.skip("later")\n' "[1]" "" > tests/test_calc.py ;;
      pt-skip-in-body) printf "$py_test" "" "[1]" '    pt.skip("later")\n' > tests/test_calc.py ;;
      m-xfail) printf "$py_test" '@m.xfail\n' "[1]" "" > tests/test_calc.py ;;
      vitest-it-alias-skip) printf "$vi_test" check.skip "" > web/calc.test.js ;;
      node-test-alias-skip) printf "$nt_test" t2.skip > test/calc.js ;;
      vitest-namespace-skip) printf "$vi_test" T.it.skip "" > web/calc.test.js ;;
      empty-parametrize) printf "$py_test" "" "[]" "" > tests/test_calc.py ;;
      empty-each) printf "$each_test" "[]" > web/each.test.js ;;
      honest-pt-parametrize)
        printf "$py_test" '@pt.mark.parametrize("y", [1, 2])\n' "[1]" "" > tests/test_calc.py ;;
      honest-check-test)
        printf "$vi_test" check "\ncheck('subtracts', () => {\n  assert.equal(2 - 1, 1);\n});\n" > web/calc.test.js ;;
    esac
    commit_all "fix, and a test line ($variant)"
    case $variant in
      pt-mark-skip) expect_open regression-tested 'tests/test_calc.py:7 `@pt\.mark\.skip`' owed ;;
      ut-skip) expect_open regression-tested 'tests/test_calc.py:7 `@ut\.skip' owed ;;
      pt-skip-in-body) expect_open regression-tested 'tests/test_calc.py:9 `pt\.skip' owed ;;
      m-xfail) expect_open regression-tested 'tests/test_calc.py:7 `@m\.xfail`' owed ;;
      vitest-it-alias-skip | vitest-namespace-skip) expect_open regression-tested 'web/calc\.test\.js:5 `' owed ;;
      node-test-alias-skip) expect_open regression-tested 'test/calc\.js:4 `t2\.skip' owed ;;
      empty-parametrize) expect_open regression-tested 'tests/test_calc.py:7 `@pytest\.mark\.parametrize' owed ;;
      empty-each) expect_open regression-tested 'web/each\.test\.js:3 `test\.each' owed ;;
      honest-pt-parametrize | honest-check-test) expect_answer regression-tested pass "touches 1 test path" ;;
    esac
  ) || fail "variant $variant"
done
