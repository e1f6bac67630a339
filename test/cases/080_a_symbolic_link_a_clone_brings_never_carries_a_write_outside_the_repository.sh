# A clone brings whatever its commits hold, symbolic links included, even
# where majordomus keeps its own state. Each link below is force-added in a
# commit and cloned, pointing outside the repository; every command that
# would create, append to, lock or replace a file through it is refused
# with exit 2 naming the link, and nothing outside changes. The same holds
# for the common git directory's carry files, and for an agent's settings
# file linked outside the repository (a link inside it is written through).
source "$(dirname "$0")/../lib.sh" || exit 2

outside="$case_root/outside"
mkdir -p "$outside"
: > "$outside/victim.jsonl"
printf '{"mine": true}\n' > "$outside/settings.json"

mkdir -p .ai/repo
cat > .ai/repo/majordomus.toml <<'TOML'
[gates.unit]
run = "true"
always = true
TOML
echo "hello" > README
commit_all "initial"

# expect_outside_untouched: the outside directory holds exactly what it did.
expect_outside_untouched() {
  local listing
  listing=$(cd "$outside" && ls -A | tr '\n' ' ')
  [ "$listing" = "settings.json victim.jsonl " ] || fail "something was written outside: $listing"
  [ ! -s "$outside/victim.jsonl" ] || fail "the outside ledger was appended to: $(cat "$outside/victim.jsonl")"
  [ "$(cat "$outside/settings.json")" = '{"mine": true}' ] || fail "the outside settings changed"
}

# clone_with LINK TARGET: a fresh clone of a commit holding LINK -> TARGET.
clone_with() {
  local link=$1 target=$2 src="$case_root/src-$RANDOM" dst
  git clone -q "$repo" "$src"
  mkdir -p "$src/$(dirname "$link")"
  ln -s "$target" "$src/$link"
  git -C "$src" add -f "$link"
  git -C "$src" commit -q -m "a link at $link"
  dst="$case_root/clone-$RANDOM"
  git clone -q "$src" "$dst"
  [ -L "$dst/$link" ] || fail "the clone did not bring the link $link"
  cd "$dst"
}

# The ledger itself: gate run (before running anything), todo add, issue
# claim and a stop hook reporting background work.
clone_with .ai/local/state/ledger.jsonl "$outside/victim.jsonl"
expect_run 0 md start "work"
sleep 60 & worker=$!
for cmd in "gate run unit" "todo add a thing" "issue claim 3" "bg add $worker"; do
  # shellcheck disable=SC2086
  expect_run 2 md $cmd
  expect_contains ".ai/local/state/ledger.jsonl is a symbolic link (to $outside/victim.jsonl)"
  expect_contains "nothing was written"
done
out=$(printf '{"hook_event_name": "Stop", "background_tasks": [{"id": "b1", "status": "running"}]}' | md hook stop)
expect_contains "ledger.jsonl is a symbolic link"
kill "$worker"
expect_outside_untouched

# The archive directory (in the common git directory) linked outside:
# finish refuses, and the task record stays.
clone_with .ai/local/state/archive "$outside"
mkdir -p .git/majordomus
ln -s "$outside" .git/majordomus/archive
expect_run 0 md start "work"
expect_run 2 md finish --outcome failed
expect_contains "archive is a symbolic link"
[ -f .ai/local/state/task.json ] || fail "the task record went, though nothing was archived"
rm .git/majordomus/archive
expect_outside_untouched

# The ledger's lock, dangling: todo add would create it wherever it points.
clone_with .ai/local/state/ledger.lock "$outside/made.lock"
expect_run 0 md start "work"
expect_run 2 md todo add a thing
expect_contains ".ai/local/state/ledger.lock is a symbolic link (to $outside/made.lock)"
expect_outside_untouched

# A directory on the way: every write, check's own document included.
clone_with .ai/local "$outside"
expect_run 2 md start "work"
expect_contains ".ai/local is a symbolic link (to $outside)"
expect_run 2 md check
expect_outside_untouched

# The carry files in the common git directory (no clone brings those, but
# whoever can write there is refused all the same).
cd "$repo"
for link in majordomus majordomus/carry.lock majordomus/carry-history.jsonl; do
  rm -rf .git/majordomus
  if [ "$link" = majordomus ]; then ln -s "$outside" .git/majordomus; else mkdir -p .git/majordomus && ln -s "$outside/made" ".git/$link"; fi
  sleep 60 & owner=$!
  if [ "$link" = majordomus/carry-history.jsonl ]; then
    expect_run 0 md carry begin "run --max 1" --owner "$owner"
    expect_run 2 md carry end
  else
    expect_run 2 md carry begin "run --max 1" --owner "$owner"
  fi
  kill "$owner"
  expect_contains "$link is a symbolic link"
  expect_outside_untouched
done
rm -rf .git/majordomus

# An agent's settings linked outside: refused, naming where the link leads.
clone_with .claude/settings.json "$outside/settings.json"
expect_run 2 md hook install --agent claude
expect_contains "leads through a symbolic link to $(cd "$outside" && pwd -P)/settings.json, outside this repository"
expect_outside_untouched
# Linked inside the repository: written through, and said so.
rm .claude/settings.json
echo '{}' > shared-settings.json
ln -s ../shared-settings.json .claude/settings.json
expect_run 0 md hook install --agent claude
expect_contains "leads through a symbolic link to shared-settings.json"
grep -q "majordomus hook stop" shared-settings.json || fail "the settings inside the repository were not written through the link"
expect_outside_untouched
