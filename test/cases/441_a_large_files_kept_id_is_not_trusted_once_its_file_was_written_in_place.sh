#!/usr/bin/env bash
# A large file's blob id is kept between checks by its stamp (inode, size,
# change and modification times), so that a dataset left in the tree is
# not hashed at every check. Written in place since (the same size, its
# modification time put back with `touch -r`), the file's change time
# moved: the kept id is not trusted, the file is read again, and the
# inherited file the task changed is the task's.
source "$(dirname "$0")/../lib.sh" || exit 2

echo base > README
exempt_forge
commit_all "initial"
head -c 2097152 /dev/zero > data.bin
touch -r README data.bin.ref 2>/dev/null || cp -p README data.bin.ref
touch -r data.bin data.bin.ref
echo data.bin.ref >> .git/info/exclude
sleep 2.1
expect_run 0 md start "a feature"
expect_answer no-untracked pass "already untracked at the start"
grep -q "majordomus.large-files-cache/1" .ai/local/state/large-files.cache || fail "the large file's id was not kept"

printf 'the task' | dd of=data.bin bs=1 seek=1000 conv=notrunc status=none
touch -r data.bin.ref data.bin
expect_open no-untracked "data.bin" owed
