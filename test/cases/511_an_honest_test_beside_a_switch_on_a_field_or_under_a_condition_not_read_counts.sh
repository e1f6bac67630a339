#!/usr/bin/env bash
# README, "What counts as a test": a switch takes out of a run only what it
# encloses, and only where it is read as never holding here (test/cases/509).
# Two honest flows 509's first version refused, found by a probe of it: a
# `#[cfg(windows)]` on a struct's field was read as enclosing everything up
# to the next brace, the test module below it; and a class under
# `@pytest.mark.skipif(sys.version_info < (3, 8), ..)` (a condition not
# read, which may let it run) was taken as off. Both count now. And
# `#[cfg(false)]` (a cfg literal, stable since Rust 1.88) never holds.
source "$(dirname "$0")/../lib.sh" || exit 2

fresh() {
  cd "$case_root"
  git init -q -b main "$1" && cd "$1"
  mkdir -p src tests
}

# A field under a cfg, the test module after it.
fresh field
cat > src/lib.rs <<'RS'
pub fn a() -> u8 { 1 }

pub struct Opts {
    #[cfg(windows)]
    pub wide: bool,
    pub n: u8,
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_is_one() {
        assert_eq!(super::a(), 1);
    }
}
RS
commit_all "initial"
expect_run 0 md start "fix a"
sed -i 's/pub fn a() -> u8 { 1 }/pub fn a() -> u8 { 2 }/; s/assert_eq!(super::a(), 1);/assert_eq!(super::a(), 2);\n        assert_ne!(super::a(), 1);/' src/lib.rs
commit_all "fix a, with a test"
expect_answer regression-tested pass "test"

# A class gated on the interpreter's version, a test added to it.
fresh gated
echo 'def add(a, b): return a + b' > src/calc.py
printf 'import sys\nimport pytest\n\n@pytest.mark.skipif(sys.version_info < (3, 8), reason="needs 3.8")\nclass TestCalc:\n    def test_add(self):\n        assert 1 + 1 == 2\n' > tests/test_calc.py
commit_all "initial"
expect_run 0 md start "fix add"
echo 'def add(a, b): return a - b' > src/calc.py
printf '\n    def test_sub(self):\n        assert 2 - 1 == 1\n' >> tests/test_calc.py
commit_all "fix, and a test"
expect_answer regression-tested pass "test"

# `cfg(false)` never holds: the test under it is none.
fresh literal
printf 'pub fn a() -> u8 { 1 }\n' > src/lib.rs
commit_all "initial"
expect_run 0 md start "fix a"
printf 'pub fn a() -> u8 { 2 }\n\n#[cfg(false)]\nmod tests {\n    #[test]\n    fn a_works() {\n        assert_eq!(super::a(), 2);\n    }\n}\n' > src/lib.rs
commit_all "fix a, and a test"
expect_open regression-tested "cfg\(false\)" owed
