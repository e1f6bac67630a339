# README, "The stop": the Stop payload's cwd is a submodule of the project, whose
# task is open: the superproject's task is found and the stop blocked.
source "$(dirname "$0")/../lib.sh" || exit 2

exempt_forge
git init -q -b main "$case_root/lib"
git -C "$case_root/lib" commit -q --allow-empty -m "lib"
echo hello > README
git -c protocol.file.allow=always submodule --quiet add "$case_root/lib" lib
commit_all "initial"
expect_run 0 md start "a greeting"
echo 'fn greet() {}' > greet.rs
expect_run 10 md check

stop_hook "$repo/lib"
[ "$(hook_decision)" = block ] || fail "a stop from the submodule went through while the superproject's task is open"
(cd lib && stop_hook "$repo/lib")
[ "$(hook_decision)" = block ] || fail "a stop run inside the submodule went through"
