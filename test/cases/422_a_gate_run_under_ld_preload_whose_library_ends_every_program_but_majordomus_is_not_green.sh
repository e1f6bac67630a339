# The dynamic loader's variables are part of what a gate ran under:
# `LD_PRELOAD=exit0.so majordomus gate run unit`, a library whose
# constructor ends every program but majordomus itself with status 0 (the
# gate's /bin/sh among them, before it runs anything), records a pass that
# is named and not green; as at the start, the gate fails. Built with the C
# compiler the suite's build has (libgit2 needs one).
source "$(dirname "$0")/../lib.sh" || exit 2

cc=$(command -v cc || command -v gcc) || fail "a C compiler is needed (libgit2's build needs one too)"
cat > "$case_root/exit0.c" <<'C'
#include <string.h>
#include <unistd.h>
__attribute__((constructor)) static void end_at_once(void) {
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        if (strstr(exe, "majordomus") == NULL) _exit(0);
    }
}
C
"$cc" -shared -fPIC -o "$case_root/exit0.so" "$case_root/exit0.c" || fail "could not build the library"

unit_gate_policy
echo "fn a() {}" > src/lib.rs
commit_all "initial"
start_and_break_fix_a

LD_PRELOAD="$case_root/exit0.so" expect_run 0 md gate run unit
expect_open gates-green "unit|LD_PRELOAD|differs from the start" "owed"
expect_run 10 md check
expect_contains "env -u LD_PRELOAD majordomus gate run unit"

expect_run 10 md gate run unit
expect_status gates-green refused
