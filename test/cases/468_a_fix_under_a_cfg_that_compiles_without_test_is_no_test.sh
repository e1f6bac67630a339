#!/usr/bin/env bash
# A cfg predicate makes test-only code only where it implies `test`:
# `#[cfg(any(test, feature = "std"))]` (a no_std crate's gate on its
# std-only impls) or `#[cfg(any(test, debug_assertions))]` compiles its item
# whenever std is on or the build is a debug one, test or not, so a fix
# inside it is production code and no test. `test` implies it, `all(..)`
# when any member does, `any(..)` only when every member does, `not(..)`
# never. A test added under `#[cfg(all(test, feature = "std"))]`, or under
# `any(test, all(test, unix))`, is still one.
source "$(dirname "$0")/../lib.sh" || exit 2

for variant in 'any(test, feature = "std")' 'any(test, debug_assertions)' 'any(all(test, unix), windows)' \
  'all(test, feature = "std")' 'any(test, all(test, unix))'; do
  (
    cd "$(mktemp -d "$case_root/v.XXXXXX")"
    git init -q -b main .
    mkdir -p src
    cat > src/lib.rs <<RS
#![cfg_attr(not(feature = "std"), no_std)]

pub struct ParseError(pub u8);

#[cfg($variant)]
impl ParseError {
    pub fn describe(&self) -> u8 {
        self.0
    }
}
RS
    commit_all "initial"
    md start "fix describe" > /dev/null
    sed -i 's/        self.0$/        self.0.wrapping_add(1)/' src/lib.rs
    commit_all "fix describe"
    case $variant in
      all\(*|*all\(test,\ unix\)\)) expect_answer regression-tested pass "ParseError" ;;
      *) expect_open regression-tested "test" owed ;;
    esac
  ) || fail "variant $variant"
done
