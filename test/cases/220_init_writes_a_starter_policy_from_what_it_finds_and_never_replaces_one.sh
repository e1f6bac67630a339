# A new user's first command: `majordomus init` writes a starter policy from
# the files at the root (a Cargo workspace and a Go module here) and its
# remotes (none here: no forge), prints it,
# and it is a policy every command accepts. Run again it changes nothing; a
# policy the user edited is kept, and `--force` prints the difference before
# writing. `--hooks claude,git` installs the hooks through `hook install`.
source "$(dirname "$0")/../lib.sh" || exit 2

printf '[workspace]\nmembers = ["a"]\n' > Cargo.toml
mkdir -p a/src tests && echo 'fn main() {}' > a/src/main.rs && echo '' > tests/it.rs
echo 'module example.com/x' > go.mod
commit_all "initial"

expect_run 0 md init
expect_contains "wrote .ai/repo/majordomus.toml:"
expect_contains '[gates.cargo-test]'
expect_contains 'run = "cargo test --workspace"'
expect_contains '[gates.go-test]'
expect_contains 'run = "go test ./..."'
# No remote: no forge, said once.
expect_contains 'provider = "none"'
expect_contains 'majordomus start'
[ -f .ai/repo/majordomus.toml ] || fail "no policy was written"
grep -qx 'inputs = \["\*\*"\]' .ai/repo/majordomus.toml || fail "every file is not the gate's inputs"
grep -q '^#   inputs = .*"\*\*/\*.rs"' .ai/repo/majordomus.toml || fail "the Rust sources are not offered as narrower inputs"
# The policy written is one every command reads: the gates are listed.
expect_run 0 md gate list
expect_contains "cargo-test"
expect_contains "go-test"

# Again: nothing to change.
expect_run 0 md init
expect_contains "already holds what init would write"

# A policy the user edited is never replaced without --force.
sed -i 's/timeout_seconds = 1800/timeout_seconds = 600/' .ai/repo/majordomus.toml
cp .ai/repo/majordomus.toml "$case_root/edited"
expect_run 0 md init
expect_contains "kept .ai/repo/majordomus.toml"
cmp -s .ai/repo/majordomus.toml "$case_root/edited" || fail "init replaced an edited policy"
expect_run 0 md init --force --dry-run
expect_contains "-timeout_seconds = 600"
expect_contains "+timeout_seconds = 1800"
cmp -s .ai/repo/majordomus.toml "$case_root/edited" || fail "--dry-run wrote"
expect_run 0 md init --force
expect_contains "-timeout_seconds = 600"
expect_contains "replaced .ai/repo/majordomus.toml"
grep -q 'timeout_seconds = 1800' .ai/repo/majordomus.toml || fail "--force did not write the starter"

# With hooks: the agent's settings and git's pre-push hook, as hook install writes them.
expect_run 0 md init --hooks claude,git
expect_contains "added a Stop hook to .claude/settings.json"
grep -q 'majordomus hook stop --agent claude' .claude/settings.json || fail "no stop hook in .claude/settings.json"
[ -x .git/hooks/pre-push ] || fail "no pre-push hook"

# Nothing recognised: a policy saying so, with an example to fill in.
rm -rf "$case_root/empty" && git init -q "$case_root/empty" && cd "$case_root/empty"
expect_run 0 md init
expect_contains "No test command was recognised here"
expect_run 0 md gate list
# A remote on GitLab: its forge is observed through glab.
rm .ai/repo/majordomus.toml
git remote add origin https://gitlab.example.com/group/sub/project.git
expect_run 0 md init --dry-run
expect_contains 'provider = "gitlab"'
[ ! -e .ai/repo/majordomus.toml ] || fail "--dry-run wrote the policy"
