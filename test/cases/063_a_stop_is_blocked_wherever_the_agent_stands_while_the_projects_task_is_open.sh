# The stop hook finds the project's open task from wherever the agent
# stands: a subdirectory, a linked worktree made inside the project
# (.worktrees/x) or outside it, a submodule, a scratch repository `git
# init`ed inside the project. Each stop is blocked, the reason naming the
# task and where it is; a task of the agent's own place is named too.
source "$(dirname "$0")/../lib.sh" || exit 2

echo "hello" > README
commit_all "initial"

# A submodule, from a repository of its own.
git init -q -b main "$case_root/lib"
git -C "$case_root/lib" commit -q --allow-empty -m "lib"
git -c protocol.file.allow=always submodule add -q "$case_root/lib" vendor/lib 2>/dev/null
commit_all "the submodule"

expect_run 0 md start "add a greeting"
echo 'fn greet() {}' > greet.rs
project=$(pwd -P)

stop() { # stop CWD [AGENT]: the hook's answer, run from a directory with no repository
  local payload
  payload=$(printf '{"session_id":"s-%s","cwd":"%s","hook_event_name":"Stop","stop_hook_active":false}' "$RANDOM" "$1")
  out=$(cd "$case_root" && printf '%s' "$payload" | "$MAJORDOMUS" hook stop --agent "${2:-claude}" 2>/dev/null)
}
field() { printf '%s' "${out:-{\}}" | python3 -c 'import json,sys; print(json.load(sys.stdin).get(sys.argv[1], ""))' "$1"; }
expect_block_naming() { # expect_block_naming WHERE TEXT...: blocked, the reason containing each TEXT
  local where=$1
  shift
  [ "$(field decision)" = "block" ] || fail "$where: expected a block"
  local reason
  reason=$(field reason)
  for text in "$@"; do
    case "$reason" in *"$text"*) ;; *) fail "$where: the reason lacks '$text'" ;; esac
  done
}

mkdir -p src/deep
stop "$project/src/deep"
expect_block_naming "a subdirectory" 'the task "add a greeting" is not done' "greet.rs"

git worktree add -q -b side .worktrees/x
stop "$project/.worktrees/x"
expect_block_naming "a linked worktree inside" "the task \"add a greeting\" in $project (the main worktree of $project/.worktrees/x)" "greet.rs"
stop "$project/.worktrees/x" codex
expect_block_naming "a linked worktree inside, for Codex" "the task \"add a greeting\" in $project"

git worktree add -q -b far "$case_root/far"
stop "$case_root/far"
expect_block_naming "a linked worktree outside" "in $project (the main worktree of $(cd "$case_root/far" && pwd -P))"

stop "$project/vendor/lib"
expect_block_naming "a submodule" "in $project (the repository around $project/vendor/lib)"

mkdir scratch
git -C scratch init -q
stop "$project/scratch"
expect_block_naming "a scratch repository" "in $project (the repository around $project/scratch)"

# A task of the scratch repository's own is asked too: both are named.
(cd scratch && "$MAJORDOMUS" start "scratch work" >/dev/null)
stop "$project/scratch"
expect_block_naming "both tasks" 'the task "scratch work" is not' 'the task "add a greeting" in '"$project"

# With the project's work done and the scratch task finished, the stop goes through.
(cd scratch && "$MAJORDOMUS" finish --outcome blocked >/dev/null)
expect_run 0 md finish --outcome blocked
stop "$project/.worktrees/x"
[ -z "$out" ] || fail "no task is active anywhere, so the stop goes through silently"
