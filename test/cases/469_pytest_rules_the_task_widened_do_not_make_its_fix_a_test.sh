#!/usr/bin/env bash
# regression-tested reads Python test items by pytest's collection rules as
# the start commit held them; a configuration the task adds or edits may
# narrow them, never widen them. A `pytest.ini` committed with
# `python_files = *.py` and `python_functions = *`, a new `pytest.toml`
# (which pytest reads before the start's pyproject.toml) or the start's
# pyproject.toml edited to say the same, does not make the task's fix in
# src/calc.py a test item. Where the start's rules collect `check_*.py`
# files and `check` functions, a check added in src/check_calc.py (no test
# path) is still a test, whatever the task's configuration.
source "$(dirname "$0")/../lib.sh" || exit 2

for variant in pytest-ini pytest-toml-over-pyproject pyproject-widened honest; do
  (
    cd "$(mktemp -d "$case_root/v.XXXXXX")"
    git init -q -b main .
    mkdir -p src tests
    printf 'def add(a, b):\n    return a + b\n' > src/calc.py
    printf 'from src.calc import add\n\ndef test_add():\n    assert add(1, 2) == 3\n' > tests/test_calc.py
    printf '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n' > pyproject.toml
    if [ "$variant" = honest ]; then
      printf '[tool.pytest.ini_options]\npython_files = ["check_*.py", "test_*.py"]\npython_functions = ["check", "test"]\n' > pyproject.toml
    fi
    commit_all "initial"
    md start "fix add" > /dev/null
    printf 'def add(a, b):\n    total = a + b\n    return total\n' > src/calc.py
    case $variant in
      pytest-ini) printf '[pytest]\ntestpaths = tests\npython_files = *.py\npython_functions = *\n' > pytest.ini ;;
      pytest-toml-over-pyproject) printf '[pytest]\npython_files = ["*.py"]\npython_functions = ["*"]\n' > pytest.toml ;;
      pyproject-widened) printf '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npython_files = ["*.py"]\npython_functions = ["*"]\n' > pyproject.toml ;;
      honest)
        # a check module beside the code, as the start's rules collect it
        printf 'from src.calc import add\n\ndef check_add_totals():\n    assert add(2, 2) == 4\n' > src/check_calc.py
        printf '[pytest]\npython_files = *.py\npython_functions = *\n' > pytest.ini ;;
    esac
    commit_all "fix add; collect more"
    case $variant in
      honest) expect_answer regression-tested pass "check_add_totals" ;;
      *) expect_open regression-tested "test" owed ;;
    esac
  ) || fail "variant $variant"
done
