#!/usr/bin/env bash
# regression-tested: a line that only turns a test off adds no test (the
# class of cases 436 and 451), in every runner's words, not only in the
# forms a list of prefixes held. The fix beside Go's `t.Skip("flaky")` or a
# `//go:build ignore` atop the _test.go, pytest's module-level `pytestmark
# = pytest.mark.skip`, `pytest.xfail(..)` in a body or `@mark.skip`, Rust's
# inner `#![cfg(any())]` atop tests/it.rs or `#[cfg_attr(.., ignore)]` over
# an inline test, vitest's `it.skipIf(true)(`, node:test's `{ skip: true }`,
# `it.only(` (every other test of the file off), or RSpec's `xit "adds" do`
# read `pass: The change touches 1 test path`. Each is owed; a test written
# beside the same words (a `.skip(1)` of an iterator in a Rust test, a test
# named "a skip: case", a Go assertion) still passes.
source "$(dirname "$0")/../lib.sh" || exit 2

go_test='package calc\nimport "testing"\n%bfunc TestAdd(t *testing.T) {\n%b\tif 1+1 != 2 { t.Fatal("x") }\n}\n'
py_test='import pytest\nfrom pytest import mark\n%b\n%bdef test_add():\n%b    assert 1 + 1 == 2\n'
rs_it='%b#[test]\nfn adds() {\n%b    assert_eq!(1 + 1, 2);\n}\n'
rs_lib='pub fn a() {%s}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n%b    fn a_works() {\n%b        super::a();\n    }\n}\n'
js_test='%s("adds", %s() => {\n  expect(1 + 1).toBe(2);\n});\n%b'
rb_spec='describe "calc" do\n  %s "adds" do\n    expect(1 + 1).to eq(2)\n  end\nend\n'

for variant in go-skip go-build-ignore pytestmark pytest-xfail mark-skip rust-inner-cfg rust-cfg-attr-ignore \
  vitest-skipif node-skip-option it-only rspec-xit go-assertion rust-iterator-skip js-test-named-skip; do
  (
    cd "$(mktemp -d "$case_root/v.XXXXXX")"
    git init -q -b main .
    mkdir -p src tests web spec
    echo 'def add(a, b): return a + b' > src/calc.py
    printf "$go_test" "" "" > calc_test.go
    printf "$py_test" "" "" "" > tests/test_calc.py
    printf "$rs_it" "" "" > tests/it.rs
    printf "$rs_lib" "" "" "" > src/lib.rs
    printf "$js_test" it "" "" > web/calc.test.js
    printf "$rb_spec" it > spec/calc_spec.rb
    commit_all "initial"
    md start "fix add" > /dev/null
    echo 'def add(a, b): return a - b' > src/calc.py
    case $variant in
      go-skip) printf "$go_test" "" '\tt.Skip("flaky")\n' > calc_test.go ;;
      go-build-ignore) printf "$go_test" '//go:build ignore\n\n' "" > calc_test.go ;;
      pytestmark) printf "$py_test" 'pytestmark = pytest.mark.skip\n' "" "" > tests/test_calc.py ;;
      pytest-xfail) printf "$py_test" "" "" '    pytest.xfail("later")\n' > tests/test_calc.py ;;
      mark-skip) printf "$py_test" "" '@mark.skip\n' "" > tests/test_calc.py ;;
      rust-inner-cfg) printf "$rs_it" '#![cfg(any())]\n' "" > tests/it.rs ;;
      rust-cfg-attr-ignore) printf "$rs_lib" " " '    #[cfg_attr(not(miri), ignore)]\n' "" > src/lib.rs ;;
      vitest-skipif) printf "$js_test" 'it.skipIf(true)' "" "" > web/calc.test.js ;;
      node-skip-option) printf "$js_test" test '{ skip: true }, ' "" > web/calc.test.js ;;
      it-only) printf "$js_test" it.only "" "" > web/calc.test.js ;;
      rspec-xit) printf "$rb_spec" xit > spec/calc_spec.rb ;;
      go-assertion) printf "$go_test" "" '\tif 2-1 != 1 { t.Fatal("sub") }\n' > calc_test.go ;;
      rust-iterator-skip)
        printf "$rs_lib" " " "" '        assert_eq!([1, 2].iter().skip(1).count(), 1);\n' > src/lib.rs ;;
      js-test-named-skip) printf "$js_test" it "" 'it("a skip: case", () => {\n  expect(2 - 1).toBe(1);\n});\n' > web/calc.test.js ;;
    esac
    commit_all "fix, and a test line ($variant)"
    case $variant in
      go-assertion | rust-iterator-skip | js-test-named-skip) expect_answer regression-tested pass "test" ;;
      *) expect_open regression-tested "test" owed ;;
    esac
  ) || fail "variant $variant"
done
