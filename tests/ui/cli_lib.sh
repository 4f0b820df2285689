# Sourced by the CLI tests: gsw (GSW_BIN, set by ctest), a temporary folder
# removed at the end (with anything a test made read-only, and any child
# left running), GSW_DB inside it, and the counters: ok, bad MESSAGE.
gsw=${GSW_BIN:?}
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
export GSW_DB="$tmp/cache.sqlite"
pass=0 fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
