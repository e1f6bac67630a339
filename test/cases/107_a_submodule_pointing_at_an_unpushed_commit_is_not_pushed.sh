# The superproject's recorded commit of a submodule changed
# since the start to a commit on none of the submodule's remote-tracking
# refs: the superproject points at work nobody else can fetch, so pushed
# is owed, naming the submodule.
source "$(dirname "$0")/../lib.sh" || exit 2

git init -q --bare -b main "$case_root/lib.git"
git clone -q "$case_root/lib.git" "$case_root/lib-seed" 2> /dev/null
git -C "$case_root/lib-seed" commit -q --allow-empty -m "lib"
git -C "$case_root/lib-seed" push -q origin main
echo base > README
git -c protocol.file.allow=always submodule --quiet add "$case_root/lib.git" lib
commit_all "initial"
with_origin
expect_run 0 md start "use a new lib function"

echo 'pub fn new() {}' > lib/new.rs
git -C lib add new.rs
git -C lib commit -q -m "lib: new"
git add lib
git commit -q -m "use lib's new function"
git push -q
expect_open pushed "lib" "owed"
expect_run 10 md check
