# The task's Rust file marks its tests with a cfg predicate naming
# something outside ASCII (`#[cfg(all(größe, test))]`); its work is
# committed and not pushed. Reading the test items stepped through the
# predicate byte by byte and sliced the text in the middle of `ö`: the
# measurement panicked, `check` exited 13, and `hook stop`, which lets a
# stop through when majordomus crashes, let it through, "majordomus
# crashed while answering this stop". The predicate is read as bytes; and
# a crash while a task is asked no longer lets the stop through: it blocks
# once, saying why (a stop that comes of that block goes through).
source "$(dirname "$0")/../lib.sh"

echo base > README
exempt_forge
mkdir -p src
printf 'pub fn size() -> u32 {\n    1\n}\n' > src/lib.rs
commit_all "initial"
with_origin
expect_run 0 md start "the size"
printf 'pub fn size() -> u32 {\n    2\n}\n\n#[cfg(all(gr\xc3\xb6\xc3\x9fe, test))]\nmod tests {\n    #[test]\n    fn size_is_two() {\n        assert_eq!(super::size(), 2);\n    }\n}\n' > src/lib.rs
git commit -qam "the size is two"

expect_run 10 md check
expect_open pushed 'not on origin/main' owed
judge_answer regression-tested 'pass' 'size_is_two|mod tests'

stop_hook "$repo"
[ "$(hook_decision)" = "block" ] || fail "expected the stop to be blocked while the work is not pushed"
expect_contains "pushed"
