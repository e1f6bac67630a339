# A task started in a sparse checkout whose cone leaves out `.ai/`
# (`git clone --sparse`, then `git sparse-checkout set src`): the policy
# and the debt baselines are in the index, flagged skip-worktree, and not
# in the working tree. They were read from the working tree only, so the
# repository's gate was not in force ("no gate is declared") over a
# broken src/lib.rs, and a baseline brought back since (`git
# sparse-checkout add .ai`) with an entry appended was "new since the
# start", the entry uncounted. A file a sparse checkout keeps out of the
# working tree is read from the index: the gate is owed, the entry refused;
# in a partial clone that does not hold its content, neither is a pass:
# each names the content missing.
source "$(dirname "$0")/../lib.sh"

mkdir -p .ai/repo src
cat > .ai/repo/majordomus.toml <<'TOML'
[[exempt]]
question = "backlog-not-grown"
reason = "this repository has no forge"

[gates.unit]
run = "grep -q fixed src/lib.rs"
inputs = ["src/**"]
TOML
printf 'old-1\nold-2\n' > .ai/repo/lint-baseline.txt
echo fixed > src/lib.rs
commit_all "initial"
with_origin
git -C "$case_root/origin.git" config uploadpack.allowFilter true
cd "$case_root"
git clone -q --sparse "file://$case_root/origin.git" sparse
cd sparse
git sparse-checkout set src
[ ! -e .ai ] || fail "setup: .ai is in the sparse checkout"
expect_run 0 md start "work in src"
echo broken > src/lib.rs
git commit -qam "src/lib.rs changed"
expect_open gates-green "unit" "owed"
git sparse-checkout add .ai
echo new-debt >> .ai/repo/lint-baseline.txt
git commit -qam "an entry more"
expect_open no-new-debt "new-debt" "refused"

# A partial clone: the policy's content was never fetched.
cd "$case_root"
git clone -q --filter=blob:none --sparse "file://$case_root/origin.git" partial
cd partial
git sparse-checkout set src
expect_run 0 md start "work in src"
expect_contains "partial clone"
expect_open gates-green "outside the sparse checkout" "refused"
expect_also no-new-debt "partial clone" "unknown"
