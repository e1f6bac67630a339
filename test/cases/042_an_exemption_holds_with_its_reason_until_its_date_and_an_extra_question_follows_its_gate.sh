# An exemption answers its question exempt, with its reason, until its date;
# once expired the real answer stands and says the exemption expired. A
# policy question answered by a gate follows the built-in ones, in the
# document and on the done line, with the gate's verdict.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p docs .ai/repo
echo '# guide' > docs/guide.md
cat > .ai/repo/majordomus.toml <<'TOML'
[gates.docs-check]
run = "grep -q updated docs/guide.md"
inputs = ["docs/**"]
required = false

[[questions]]
id = "documented"
stage = "documentation"
question = "Were the documents a reader needs updated?"
gate = "docs-check"

[[exempt]]
question = "regression-tested"
reason = "a documentation-only repository has no tests"
until = "2999-12-31"

[[exempt]]
question = "measurable"
reason = "nothing to measure yet"
until = 2000-01-01
TOML
commit_all "initial"
expect_run 0 md start "document the guide"

answer() { json_get .ai/local/state/gates.completion.json "[q for q in d['questions'] if q['id'] == '$1'][0]['$2']"; }

echo '# guide, edited' > docs/guide.md
expect_run 10 md check --json
[ "$(answer regression-tested status)" = exempt ] || fail "regression-tested: $(answer regression-tested status)"
[ "$(answer regression-tested evidence)" = "Exempt by the policy until 2999-12-31, for the reason it gives: \"a documentation-only repository has no tests\"." ] ||
  fail "evidence: $(answer regression-tested evidence)"
[ "$(answer measurable status)" = owed ] || fail "an expired exemption still exempts: $(answer measurable status)"
case "$(answer measurable evidence)" in
  *'expired on 2000-01-01, so it no longer exempts.') ;;
  *) fail "evidence: $(answer measurable evidence)" ;;
esac

# The extra question is last, and owed while its gate never reported
# (it is optional for gates-green, but the question asks for it).
last=$(json_get .ai/local/state/gates.completion.json 'd["questions"][-1]["id"]')
[ "$last" = documented ] || fail "the last question is $last"
[ "$(answer documented stage)" = documentation ] || fail "stage: $(answer documented stage)"
[ "$(answer documented status)" = owed ] || fail "documented: $(answer documented status)"
[ "$(answer gates-green status)" = pass ] || fail "gates-green counted an optional gate: $(answer gates-green status)"
expect_run 10 md check
expect_contains " measurable=owed documented=owed"

expect_run 10 md gate run docs-check
expect_run 10 md check
expect_contains " measurable=owed documented=refused"

echo '# guide, updated' > docs/guide.md
expect_run 0 md gate run docs-check
expect_run 10 md check
expect_not_contains "documented="

# An exemption of an extra question is allowed too; a cap may name it.
cat >> .ai/repo/majordomus.toml <<'TOML'

[caps]
documented = 3
TOML
expect_run 10 md check
expect_not_contains "documented="

# The task exempting its own question mid-task: the policy in force is the
# one the task started under, so the exemption exempts nothing for it,
# committed or not; the document names it, as a loosening not in force.
cat >> .ai/repo/majordomus.toml <<'TOML'

[[exempt]]
question = "committed"
reason = "later"
TOML
change() { json_get .ai/local/state/gates.completion.json "[c for c in d['policy']['changes'] if c['entry'] == '$1'][0]['$2']"; }
for step in uncommitted committed; do
  if [ "$step" = committed ]; then
    git add .ai/repo/majordomus.toml
    git commit -q -m "exempt committed"
    echo '# guide, updated again' > docs/guide.md
  fi
  expect_run 10 md check --json
  [ "$(answer committed status)" = owed ] || fail "$step: an exemption the task added exempted: $(answer committed status)"
  [ "$(change '[[exempt]] committed' in_force)" = False ] || fail "$step: the added exemption is said in force"
  [ "$(change '[[exempt]] committed' effect)" = looser ] || fail "$step: $(change '[[exempt]] committed' effect)"
  [ "$(answer regression-tested status)" = exempt ] || fail "$step: an exemption there at the start no longer holds"
  [ "$(answer regression-tested evidence)" = "Exempt by the policy until 2999-12-31, for the reason it gives: \"a documentation-only repository has no tests\"." ] ||
    fail "$step: evidence: $(answer regression-tested evidence)"
  expect_run 10 md check
  expect_contains "committed=owed"
  expect_contains "[[exempt]] committed: added since the start"
done
