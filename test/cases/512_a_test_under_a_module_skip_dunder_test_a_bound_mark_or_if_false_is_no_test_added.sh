#!/usr/bin/env bash
# regression-tested (the class of case 509: a test written under a switch
# that turns off what encloses it adds no test), in Python's other
# spellings of the switch: a module-level `pytest.skip("later",
# allow_module_level=True)` (pytest skips the whole module); a module-level
# `__test__ = False`, or one in the class the test is added to (pytest
# collects nothing from either); a skip mark bound to a name at module level
# (`later = pytest.mark.skip(reason=..)`, then `@later` on the class); a
# `def test_` under `if False:` (never defined). None of them runs: owed.
# What may run still counts: a module skip inside `if sys.version_info <
# (3, 8):` (a condition not read), `np = pytest.importorskip("json")`, a
# name bound to the skip and then rebound to another mark.
source "$(dirname "$0")/../lib.sh" || exit 2

for variant in module-skip dunder-module dunder-class alias if-false \
  skip-under-condition importorskip alias-rebound; do
  (
    cd "$(mktemp -d "$case_root/v.XXXXXX")"
    git init -q -b main .
    mkdir -p src tests
    echo 'def add(a, b): return a + b' > src/calc.py
    case $variant in
      module-skip) printf 'import pytest\npytest.skip("later", allow_module_level=True)\n\ndef test_add():\n    assert 1 + 1 == 2\n' > tests/test_calc.py ;;
      dunder-module) printf 'import pytest\n__test__ = False\n\ndef test_add():\n    assert 1 + 1 == 2\n' > tests/test_calc.py ;;
      dunder-class) printf 'class TestCalc:\n    __test__ = False\n\n    def test_add(self):\n        assert 1 + 1 == 2\n' > tests/test_calc.py ;;
      alias) printf 'import pytest\nlater = pytest.mark.skip(reason="later")\n\n@later\nclass TestCalc:\n    def test_add(self):\n        assert 1 + 1 == 2\n' > tests/test_calc.py ;;
      alias-rebound) printf 'import pytest\nlater = pytest.mark.skip(reason="later")\nlater = pytest.mark.slow\n\n@later\nclass TestCalc:\n    def test_add(self):\n        assert 1 + 1 == 2\n' > tests/test_calc.py ;;
      if-false) printf 'def test_add():\n    assert 1 + 1 == 2\n\nif False:\n    def test_mul():\n        assert 2 * 1 == 2\n' > tests/test_calc.py ;;
      skip-under-condition) printf 'import sys\nimport pytest\nif sys.version_info < (3, 8):\n    pytest.skip("old", allow_module_level=True)\n\ndef test_add():\n    assert 1 + 1 == 2\n' > tests/test_calc.py ;;
      importorskip) printf 'import pytest\njson = pytest.importorskip("json")\n\ndef test_add():\n    assert 1 + 1 == 2\n' > tests/test_calc.py ;;
    esac
    commit_all "initial"
    md start "fix add" > /dev/null
    echo 'def add(a, b): return a - b' > src/calc.py
    case $variant in
      dunder-class | alias | alias-rebound) printf '\n    def test_sub(self):\n        assert 2 - 1 == 1\n' >> tests/test_calc.py ;;
      if-false) printf '\n    def test_sub():\n        assert 2 - 1 == 1\n' >> tests/test_calc.py ;;
      *) printf '\ndef test_sub():\n    assert 2 - 1 == 1\n' >> tests/test_calc.py ;;
    esac
    commit_all "fix, and a test ($variant)"
    case $variant in
      skip-under-condition | importorskip | alias-rebound) expect_answer regression-tested pass "test" ;;
      *) expect_open regression-tested "test" owed ;;
    esac
  ) || failed="${failed-} $variant"
done
[ -z "${failed-}" ] || fail "false answer in:${failed}"
