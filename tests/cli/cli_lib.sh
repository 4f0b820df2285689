# Sourced by the CLI tests: gsw (GSW_BIN, set by ctest), a temporary folder
# removed at the end (with anything a test made read-only, and any child
# left running), GSW_DB inside it, the counters (ok, bad MESSAGE) and the
# checks most scripts share: expect, has, has_re, same.
gsw=${GSW_BIN:?}
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
export GSW_DB="$tmp/cache.sqlite"
pass=0 fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect CODE DESCRIPTION -- COMMAND...: its exit code is CODE (stdout in
# $tmp/out, stderr in $tmp/err, no stdin); an error is one line
expect() {
  local code=$1 what=$2; shift 3
  "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  local rc=$?
  if [ "$rc" -ne "$code" ]; then bad "$what: exit $rc, expected $code ($(head -c 400 "$tmp/err"))"; return 1; fi
  if [ "$code" -ne 0 ] && [ "$(wc -l <"$tmp/err")" -ne 1 ]; then bad "$what: error is not one line: $(cat "$tmp/err")"; return 1; fi
  ok
}
# has FILE TEXT WHAT: $tmp/FILE holds TEXT (fixed); has_re: an extended regex
has() { grep -qF -- "$2" "$tmp/$1" && ok || bad "$3: '$2' not in $1: $(head -c 400 "$tmp/$1")"; }
has_re() { grep -qE -- "$2" "$tmp/$1" && ok || bad "$3: /$2/ not in $1: $(head -c 600 "$tmp/$1")"; }
same() { [ "$1" = "$2" ] && ok || bad "$3: got '$1', expected '$2'"; }
