#!/usr/bin/env bash
# regression-tested (the class of cases 436/480): a line that only turns a
# test off adds no test, and neither does a real test written under a
# switch that turns off its whole file, module, class or item, in the file
# as it is now, whatever the start held: `pytestmark = pytest.mark.skip`
# added beside a new `def test_sub`, or already there at the start; a new
# tests/it.rs opening `#![cfg(any())]`; `#[cfg(any())] mod m { #[test] .. }`;
# a new _test.go opening `//go:build ignore`; `#[cfg(all(test, any()))] mod
# tests` (implies `test` and never holds); a test added to a class under
# `@pytest.mark.skip`. None of them runs: owed. A switch that may hold
# (a platform condition read as letting it run here, `#[cfg(test)]`, a
# `//go:build integration` a gate may give) leaves the test counted.
source "$(dirname "$0")/../lib.sh" || exit 2

for variant in py-new-beside py-off-at-start rs-new-file rs-mod-cfg go-new-file rs-lib-all-any py-class \
  py-platform rs-cfg-test go-tag; do
  (
    cd "$(mktemp -d "$case_root/v.XXXXXX")"
    git init -q -b main .
    mkdir -p src tests
    echo 'def add(a, b): return a + b' > src/calc.py
    printf 'pub fn a() -> u8 { 1 }\n' > src/lib.rs
    case $variant in
      py-new-beside | py-platform) printf 'import pytest\n\ndef test_add():\n    assert 1 + 1 == 2\n' > tests/test_calc.py ;;
      py-off-at-start) printf 'import pytest\npytestmark = pytest.mark.skip\n\ndef test_add():\n    assert 1 + 1 == 2\n' > tests/test_calc.py ;;
      py-class) printf 'import pytest\n\n@pytest.mark.skip(reason="later")\nclass TestCalc:\n    def test_add(self):\n        assert 1 + 1 == 2\n' > tests/test_calc.py ;;
    esac
    commit_all "initial"
    md start "fix add" > /dev/null
    echo 'def add(a, b): return a - b' > src/calc.py
    case $variant in
      py-new-beside) printf 'import pytest\npytestmark = pytest.mark.skip\n\ndef test_add():\n    assert 1 + 1 == 2\n\ndef test_sub():\n    assert 2 - 1 == 1\n' > tests/test_calc.py ;;
      py-off-at-start) printf '\ndef test_sub():\n    assert 2 - 1 == 1\n' >> tests/test_calc.py ;;
      py-class) printf '\n    def test_sub(self):\n        assert 2 - 1 == 1\n' >> tests/test_calc.py ;;
      rs-new-file) printf '#![cfg(any())]\n#[test]\nfn adds() {\n    assert_eq!(1 + 1, 2);\n}\n' > tests/it.rs ;;
      rs-mod-cfg) printf '#[cfg(any())]\nmod m {\n    #[test]\n    fn adds() {\n        assert_eq!(1 + 1, 2);\n    }\n}\n' > tests/it.rs ;;
      go-new-file) printf '//go:build ignore\n\npackage calc\nimport "testing"\nfunc TestAdd(t *testing.T) {\n\tif 1+1 != 2 { t.Fatal("x") }\n}\n' > calc_test.go ;;
      rs-lib-all-any) printf 'pub fn a() -> u8 { 2 }\n\n#[cfg(all(test, any()))]\nmod tests {\n    #[test]\n    fn a_works() {\n        assert_eq!(super::a(), 2);\n    }\n}\n' > src/lib.rs ;;
      py-platform) printf 'import pytest, sys\npytestmark = pytest.mark.skipif(sys.platform == "no-such-os", reason="x")\n\ndef test_add():\n    assert 1 + 1 == 2\n\ndef test_sub():\n    assert 2 - 1 == 1\n' > tests/test_calc.py ;;
      rs-cfg-test) printf 'pub fn a() -> u8 { 2 }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn a_works() {\n        assert_eq!(super::a(), 2);\n    }\n}\n' > src/lib.rs ;;
      go-tag) printf '//go:build integration\n\npackage calc\nimport "testing"\nfunc TestAdd(t *testing.T) {\n\tif 1+1 != 2 { t.Fatal("x") }\n}\n' > calc_test.go ;;
    esac
    commit_all "fix, and a test ($variant)"
    case $variant in
      py-platform | rs-cfg-test | go-tag) expect_answer regression-tested pass "test" ;;
      *) expect_open regression-tested "test" owed ;;
    esac
  ) || failed="${failed-} $variant"
done
[ -z "${failed-}" ] || fail "false answer in:${failed}"
