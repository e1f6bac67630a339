# Seen on rust-lang/cargo: `majordomus start --scope src/cargo/util`, a
# directory the project no longer has, started silently; every edit was
# then out of scope, and once started a scope only grows (a finish and a
# start continue the task, keeping it: test/cases/340). The start says which
# scope path names nothing in the working tree, and only those.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p crates/util
echo 'pub fn a() {}' > crates/util/lib.rs
exempt_forge
commit_all "initial"
expect_run 0 md start "tidy util" --scope src/cargo/util --scope crates/util
expect_contains "scope: src/cargo/util names nothing in the working tree yet"
expect_not_contains "scope: crates/util names nothing"
