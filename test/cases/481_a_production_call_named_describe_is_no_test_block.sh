#!/usr/bin/env bash
# regression-tested reads JavaScript test blocks outside test paths only in
# a file a runner collects: vitest's in-source tests (guarded by
# `import.meta.vitest`, test/cases/221) or a file `node --test` collects by
# its name (`test-*.js`, `*-test.js`, `test.js`), as Python's are read only
# in files pytest's rules collect (469). A fix edited inside a production
# call of the file's own `describe(user, (u) => ...)` in src/user.js, no
# test written, read `pass` (a test block, `describe(…)`): owed. An
# assertion added to lib/test-calc.js, which `node --test` runs though it
# is no test path by name, still counts.
source "$(dirname "$0")/../lib.sh" || exit 2

mkdir -p src lib
cat > src/user.js <<'JS'
function describe(user, format) {
  return format(user);
}
module.exports = (user) => describe(user, (u) => {
  return u.name;
});
JS
printf 'const test = require("node:test");\nconst assert = require("node:assert");\ntest("adds", () => {\n  assert.equal(1 + 1, 2);\n});\n' > lib/test-calc.js
start_on_origin

sed -i 's/return u.name;/return u.name.trim();/' src/user.js
commit_all "the fix, no test"
git push -q origin main
expect_open regression-tested "src/user.js|test" owed

sed -i 's/  assert.equal(1 + 1, 2);/  assert.equal(1 + 1, 2);\n  assert.equal(2 - 1, 1);/' lib/test-calc.js
commit_all "a test"
git push -q origin main
expect_answer regression-tested pass "lib/test-calc.js"
