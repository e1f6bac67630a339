# Where the stop's cwd holds no task (a directory in no repository, or a
# repository of its own), the stop hook also asks the directory it runs in
# and CLAUDE_PROJECT_DIR: the project's open task blocks the stop, the
# reason saying where it was found.
source "$(dirname "$0")/../lib.sh" || exit 2

echo "hello" > README
commit_all "initial"
expect_run 0 md start "add a greeting"
echo 'fn greet() {}' > greet.rs
project=$(pwd -P)

mkdir "$case_root/nowhere"
git init -q "$case_root/other"
payload() { printf '{"session_id":"s-%s","cwd":"%s","hook_event_name":"Stop","stop_hook_active":false}' "$RANDOM" "$1"; }
field() { printf '%s' "${out:-{\}}" | python3 -c 'import json,sys; print(json.load(sys.stdin).get(sys.argv[1], ""))' "$1"; }

# The hook runs in the project; the payload names a directory in no repository.
out=$(payload "$case_root/nowhere" | "$MAJORDOMUS" hook stop 2>/dev/null)
[ "$(field decision)" = "block" ] || fail "the hook's own directory holds the open task"
case "$(field reason)" in *"the task \"add a greeting\" in $project (where the hook's own directory is) is not done"*) ;; *) fail "the task is named, and where" ;; esac

# The hook runs outside any repository, the payload names another
# repository: CLAUDE_PROJECT_DIR leads to the project.
out=$(cd "$case_root/nowhere" && payload "$case_root/other" | CLAUDE_PROJECT_DIR="$project" "$MAJORDOMUS" hook stop 2>/dev/null)
[ "$(field decision)" = "block" ] || fail "CLAUDE_PROJECT_DIR names the project"
case "$(field reason)" in *"in $project (where CLAUDE_PROJECT_DIR is)"*) ;; *) fail "the reason says where the task was found" ;; esac

# Without it, nothing there concerns a task: the stop goes through.
out=$(cd "$case_root/nowhere" && payload "$case_root/other" | "$MAJORDOMUS" hook stop 2>/dev/null)
[ -z "$out" ] || fail "no place holds a task, so the stop goes through silently"
