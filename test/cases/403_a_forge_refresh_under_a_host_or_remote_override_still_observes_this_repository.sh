#!/usr/bin/env bash
# `GITLAB_HOST=gitlab.example.org majordomus forge refresh` (or `GL_HOST`,
# or `REMOTE_ALIAS` naming another remote): glab reads them and then asks
# another GitLab instance, or another remote's project, for `:fullpath`;
# an empty project of the same path there has no merge request open, so
# backlog-not-grown read pass while this project's !5 was open. As gh runs
# without GH_REPO (test/cases/283), the forge's program runs without the
# variables that point it at another host or remote (GH_HOST too): the
# observation is of the project the working tree's remote names.
source "$(dirname "$0")/../lib.sh" || exit 2

fake="$case_root/fake-glab"
mkdir -p "$fake/bin"
cat > "$fake/bin/glab" <<'GLAB'
#!/usr/bin/env bash
dir=$(dirname "$0")/..
[ "$1" = api ] || { echo "unknown command \"$1\" for \"glab\"" >&2; exit 1; }
elsewhere=${GITLAB_HOST-}${GL_HOST-}${REMOTE_ALIAS-}
case "$2" in
  "projects/:fullpath") echo '{"id":7,"path_with_namespace":"group/widgets"}' ;;
  "projects/:fullpath/merge_requests?state=opened&per_page=100&page=1")
    if [ -n "$elsewhere" ]; then echo '[]'; else cat "$dir/mrs.json"; fi ;;
  *) echo "glab: 404 Not Found (HTTP 404)" >&2; exit 1 ;;
esac
GLAB
chmod +x "$fake/bin/glab"
export PATH="$fake/bin:$PATH"
echo '[]' > "$fake/mrs.json"

echo base > README
mkdir -p .ai/repo && printf '[forge]\nprovider = "gitlab"\n' > .ai/repo/majordomus.toml
commit_all "initial"
with_origin
git remote add upstream "$case_root/origin.git"
expect_run 0 md start "a feature"
opened=$(python3 -c "import datetime; print((datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(minutes=1)).strftime('%Y-%m-%dT%H:%M:%SZ'))")
printf '[{"iid":5,"title":"my feature","author":{"username":"me"},"source_branch":"feature","created_at":"%s","state":"opened"}]\n' "$opened" > "$fake/mrs.json"
expect_run 0 md forge refresh
expect_open backlog-not-grown "!5|#5" owed

for var in GITLAB_HOST=gitlab.example.org GL_HOST=gitlab.example.org REMOTE_ALIAS=upstream; do
  env "$var" "$MAJORDOMUS" forge refresh > /dev/null 2>&1 || true
  expect_open backlog-not-grown "!5|#5" owed
done
expect_run 10 md check
