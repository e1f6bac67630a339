#!/usr/bin/env bash
# A fix whose only new test line turns the test off (`raise
# unittest.SkipTest`, `pytest.importorskip`), or, inside a test item of a
# source file, a bare `return;` before the test's first line or only a
# comment (`// covers the fix`), is not tested: such a line asserts
# nothing (the class of case 436). A real assertion added still is, and so
# is a comment in a test path, where it can be the assertion itself (a UI
# test's `//~ ERROR` annotation) or expected output.
source "$(dirname "$0")/../lib.sh" || exit 2

py_test='import unittest\nclass T(unittest.TestCase):\n    def test_add(self):\n%b        self.assertEqual(1 + 1, 2)\n'
rs_lib='pub fn a() {%s}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn a_works() {\n%b        super::a();\n    }\n}\n'
for variant in skiptest importorskip return rust-comment assertion ui-annotation; do
  (
    cd "$(mktemp -d "$case_root/v.XXXXXX")"
    git init -q -b main .
    mkdir -p src tests
    echo 'def add(a, b): return a + b' > src/calc.py
    printf "$py_test" "" > tests/test_calc.py
    printf "$rs_lib" "" "" > src/lib.rs
    mkdir -p tests/ui
    printf 'fn main() {\n    let x = 1;\n    //~^ ERROR unused\n}\n' > tests/ui/unused.rs
    commit_all "initial"
    md start "fix add" > /dev/null
    echo 'def add(a, b): return a - b' > src/calc.py
    case $variant in
      skiptest) printf "$py_test" '        raise unittest.SkipTest("flaky")\n' > tests/test_calc.py ;;
      importorskip) printf "$py_test" '        pytest.importorskip("not_installed")\n' > tests/test_calc.py ;;
      ui-annotation) printf 'fn main() {\n    let x = 1;\n    //~^ ERROR unused variable\n}\n' > tests/ui/unused.rs ;;
      return) printf "$rs_lib" " " '        return;\n' > src/lib.rs ;;
      rust-comment) printf "$rs_lib" " " '        // regression: covers the sign fix\n' > src/lib.rs ;;
      assertion) printf "$py_test" '        self.assertEqual(add(2, 1), 3)\n' > tests/test_calc.py ;;
    esac
    commit_all "fix, and a test line ($variant)"
    if [ "$variant" = assertion ] || [ "$variant" = ui-annotation ]; then
      expect_answer regression-tested pass "test"
    else
      expect_open regression-tested "test" owed
    fi
  ) || fail "variant $variant"
done
