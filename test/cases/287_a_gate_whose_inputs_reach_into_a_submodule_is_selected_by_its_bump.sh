# A gate whose inputs are `lib/**`, where lib is a submodule: the task
# moves lib to a commit that breaks the gate, records and pushes it. The
# superproject's change is the gitlink `lib`, which `lib/**` did not
# match, so the gate was not selected (and its inputs hash held no part
# of lib): gates-green passed over a gate that fails. A submodule's path
# is matched where the inputs reach beneath it, and its recorded commit
# is part of what a verdict covers.
source "$(dirname "$0")/../lib.sh" || exit 2

git init -q --bare -b main "$case_root/lib.git"
git clone -q "$case_root/lib.git" "$case_root/libseed" 2> /dev/null
(cd "$case_root/libseed" && echo good > status && git add status && git commit -qm l && git push -q origin HEAD:main)
exempt_forge
cat >> .ai/repo/majordomus.toml <<'TOML'
[gates.unit]
run = "grep -q good lib/status"
inputs = ["lib/**"]
TOML
git -c protocol.file.allow=always submodule add -q "$case_root/lib.git" lib
commit_all "initial"
with_origin
expect_run 0 md start "bump lib"
(cd lib && echo bad > status && git commit -qam "break" && git push -q origin HEAD:main)
mkdir -p tests
echo t > tests/a.rs
git add lib tests
git commit -qm "bump lib"
git push -q origin main
[ -z "$(git status --porcelain)" ] || fail "setup: the working tree is not clean"
expect_open gates-green "unit" "owed"
expect_run 10 md gate run unit
expect_open gates-green "unit" "refused"
expect_run 10 md check

# Back to a passing commit of lib: a run over it is green, and moving lib
# again makes that verdict stale.
(cd lib && echo good > status && git commit -qam "fix" && git push -q origin HEAD:main)
git add lib
git commit -qm "lib fixed"
git push -q origin main
expect_run 0 md gate run unit
expect_answer gates-green "pass" "unit"
(cd lib && echo "good again" > status && git commit -qam "more" && git push -q origin HEAD:main)
git add lib
git commit -qm "lib moved"
git push -q origin main
expect_open gates-green "unit" "owed"
