# The closing questions (README.md, "The closing questions") are answered by measurement, in a
# disposable repository: an entry added to a debt baseline refuses, committed
# or not, and taking it out answers; a branch and a worktree created since
# the start are owed and named until both are gone; a checkout that never
# observed the forge is unknown; and check names each by id and status on
# the done line.
source "$(dirname "$0")/../lib.sh" || exit 2

done_line() { printf '%s\n' "$out" | tail -n 1; }
expect_in_done_line() {
  case " $(done_line) " in *" $1 "*) ;; *) fail "expected '$1' on the done line" ;; esac
}
expect_nothing_on_done_line_for() {
  case " $(done_line) " in *" $1="*) fail "expected no '$1=' on the done line" ;; *) ;; esac
}

mkdir -p .ai/repo/rust
printf '# permitted for now\nsrc/a.rs: unwrap\nsrc/b.rs: expect\nsrc/c.rs: todo\n' > .ai/repo/lint-baseline.txt
printf 'left-pad 0.0.1\nis-odd 1.0.0\n' > .ai/repo/rust/deps-baseline.txt
# The forge's observations are typed in here (forge record), as the policy says.
printf '[forge]\nprovider = "recorded"\n' > .ai/repo/majordomus.toml
echo "hello" > README
commit_all "initial"
lint_at_start=$(cat .ai/repo/lint-baseline.txt)

expect_run 0 md start "tidy the parser"

# Nothing added yet; the forge was never observed.
expect_run 10 md check
expect_nothing_on_done_line_for no-new-debt
expect_nothing_on_done_line_for nothing-accumulated
expect_in_done_line backlog-not-grown=unknown
expect_contains "The forge was never observed"

# An entry added to a baseline refuses, uncommitted...
echo 'src/d.rs: panic' >> .ai/repo/lint-baseline.txt
expect_run 10 md check
expect_in_done_line no-new-debt=refused
expect_contains '.ai/repo/lint-baseline.txt (3 entries then, 4 now; added `src/d.rs: panic`)'
# ...and committed.
commit_all "permit a panic"
expect_run 10 md check
expect_in_done_line no-new-debt=refused
# Shrinking another baseline does not pay for it.
printf 'left-pad 0.0.1\n' > .ai/repo/rust/deps-baseline.txt
expect_run 10 md check
expect_in_done_line no-new-debt=refused
git checkout -q -- .ai/repo/rust/deps-baseline.txt
# One entry taken out and another put in is caught.
printf '%s\n' "$lint_at_start" | sed 's/src\/c.rs: todo/src\/e.rs: dbg/' > .ai/repo/lint-baseline.txt
expect_run 10 md check
expect_in_done_line no-new-debt=refused
expect_contains 'added `src/e.rs: dbg`'
# Taking the added entry out answers the question again once committed:
# until then HEAD's commit still holds it (test/cases/461).
printf '%s\n' "$lint_at_start" > .ai/repo/lint-baseline.txt
expect_run 10 md check
expect_in_done_line no-new-debt=refused
expect_contains "HEAD's commit holds \`src/d.rs: panic\`"
commit_all "take the panic out"
expect_run 10 md check
expect_nothing_on_done_line_for no-new-debt
# A baseline moved elsewhere is compared with its former self.
git mv .ai/repo/lint-baseline.txt .ai/repo/rust/clippy-baseline.txt
echo 'src/f.rs: allow(dead_code)' >> .ai/repo/rust/clippy-baseline.txt
expect_run 10 md check
expect_in_done_line no-new-debt=refused
expect_contains "moved from .ai/repo/lint-baseline.txt"
git mv .ai/repo/rust/clippy-baseline.txt .ai/repo/lint-baseline.txt
printf '%s\n' "$lint_at_start" > .ai/repo/lint-baseline.txt
# A baseline that appears for the first time records debt already there.
mkdir -p .ai/repo/audit
printf 'CVE-2026-0001\n' > .ai/repo/audit/security-baseline.txt
expect_run 10 md check
expect_nothing_on_done_line_for no-new-debt
commit_all "back as it was, and the audit's baseline"

# A branch and a worktree created since the start are owed and named...
git branch side
git worktree add -q "$case_root/wt"
expect_run 10 md check
expect_in_done_line nothing-accumulated=owed
expect_contains "worktree wt at $case_root/wt, branch side, branch wt."
expect_contains "3 local branches and 1 linked worktree now"
# ...until both are gone.
git worktree remove "$case_root/wt"
expect_run 10 md check
expect_in_done_line nothing-accumulated=owed
expect_contains "branch side, branch wt."
expect_not_contains "worktree wt at"
git branch -q -D side wt
expect_run 10 md check
expect_nothing_on_done_line_for nothing-accumulated

# An observation from before the task answers nothing about it.
observe() {
  cat > "$case_root/forge.json" <<JSON
{"schema": "majordomus/forge/v1", "observed_at": "$1", "repository": "acme/widgets",
 "pull_requests": [{"number": 41, "title": "older work", "author": "ann", "head": "old", "created_at": "2020-01-01T00:00:00Z", "state": "open"},
                   {"number": 42, "title": "$2", "author": "bob", "head": "new", "created_at": "$3", "state": "open"}]}
JSON
  expect_run 0 md forge record "$case_root/forge.json"
}
now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
observe "2020-01-02T00:00:00Z" "a change" "2020-01-01T12:00:00Z"
expect_run 10 md check
expect_in_done_line backlog-not-grown=unknown
expect_contains "before the task started"
# A pull request opened since the start and still open is owed.
observe "$now" "tidy the lexer too" "$now"
expect_run 10 md check
expect_in_done_line backlog-not-grown=owed
expect_contains '#42 "tidy the lexer too" by bob'
expect_contains "2 pull requests open on acme/widgets now"
observe "$now" "a change" "2020-01-01T12:00:00Z"
expect_run 10 md check
expect_nothing_on_done_line_for backlog-not-grown

# check names each question that is neither pass nor exempt, by id and
# status, on the done line, and no other.
echo 'src/g.rs: unsafe' >> .ai/repo/lint-baseline.txt
git branch again
expect_run 10 md check
python3 - "$(done_line)" .ai/local/state/gates.completion.json <<'PY'
import json, sys
line, doc = sys.argv[1], json.load(open(sys.argv[2]))
assert line.startswith("done: "), line
named = line[len("done: "):].split(" ")
want = [f'{q["id"]}={q["status"]}' for q in doc["questions"] if q["status"] not in ("pass", "exempt")]
assert named == want, (named, want)
status = {q["id"]: q["status"] for q in doc["questions"]}
assert status["no-new-debt"] == "refused" and status["nothing-accumulated"] == "owed", status
assert status["backlog-not-grown"] == "pass", status
PY

# The task's own branch is among what it leaves until the work has landed
# and the branch is gone, though the branch was made before the task began:
# in a repository of its own, as a start here would continue the task left
# open above (test/cases/335).
expect_run 0 md finish --outcome partial
git init -q -b main "$case_root/feature-repo"
cd "$case_root/feature-repo"
echo "hello" > README
commit_all "initial"
git switch -q -c feature
expect_run 0 md start "land the feature"
expect_run 10 md check
expect_in_done_line nothing-accumulated=owed
expect_contains "branch feature (the task's own branch, checked out here)"
expect_contains "git switch --detach main && git branch -d feature"
echo "the feature" > FEATURE
commit_all "the feature"
git switch -q main
git merge -q --ff-only feature
expect_run 10 md check
expect_in_done_line nothing-accumulated=owed
expect_contains "branch feature (the task's own branch) was there at the start"
git branch -q -d feature
expect_run 10 md check
expect_nothing_on_done_line_for nothing-accumulated
