#!/usr/bin/env bash
# Hostile caches, end to end: a read-only file or folder (reads work, other
# verbs say once that results won't be stored and go on), a cache path in a
# folder that does not exist (made), a cache another process holds locked
# (the wait is said at once; an answer is never lost to the lock), junk
# bytes (the message says how to go on). Read-only cases run as a user who
# cannot write the files: as root (who can write anything) they run under
# `setpriv` as nobody, or are skipped with a note. Needs GSW_BIN (set by
# ctest), GSW_TEST_DATA and sqlite3 (tools/install-deps.sh installs it).
set -u
. "$(dirname "$0")/cli_lib.sh"
export GSW_DB="$tmp/default.sqlite"
# run CMD...: stdout, stderr and the exit status in $tmp/out, $tmp/err, $rc
run() { "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; rc=$?; }
check() { if eval "$2"; then ok; else bad "$1 (exit $rc; out: $(head -c 300 "$tmp/out"); err: $(head -c 400 "$tmp/err"))"; fi; }
lines() { grep -c -- "$2" "$tmp/$1"; }

# ---- read-only ----
chmod 755 "$tmp"   # others may look in (mktemp made it 0700)
other=()
if [ "$(id -u)" -eq 0 ]; then
  if command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups "$gsw" games >/dev/null 2>&1; then
    other=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  else
    other=(skip)
  fi
fi
if [ "${other[0]:-}" = skip ]; then
  echo "note: running as root and cannot run gsw as nobody (setpriv, or the build is not readable by others): read-only cases skipped"
else
  ro="$tmp/ro"
  mkdir "$ro"
  "$gsw" solve connect4:4x4 "" --db "$ro/c.sqlite" >/dev/null 2>&1
  "$gsw" proof show connect4:4x4 "" --db "$ro/c.sqlite" --depth 1 >/dev/null 2>&1
  cp "$ro/c.sqlite" "$tmp/ro.orig"
  chmod 444 "$ro/c.sqlite"
  chmod 555 "$ro"
  as() { ${other[@]+"${other[@]}"} "$gsw" "$@" --db "$ro/c.sqlite"; }
  run as cache stats --json
  check "read-only: cache stats works" '[ $rc -eq 0 ] && grep -q "\"read_only\":true" "$tmp/out" && [ ! -s "$tmp/err" ]'
  run as cache check
  check "read-only: cache check works" '[ $rc -eq 0 ] && grep -q "^ok$" "$tmp/out" && [ ! -s "$tmp/err" ]'
  run as solve connect4:4x4 "" --json
  check "read-only: a cached answer is read, silently" '[ $rc -eq 0 ] && grep -q "\"source\":\"cache\"" "$tmp/out" && [ ! -s "$tmp/err" ]'
  run as proof show connect4:4x4 "" --depth 1
  check "read-only: a stored proof tree is read" '[ $rc -eq 0 ] && grep -q "(from the cache)" "$tmp/out" && [ "$(lines err "read-only")" -eq 0 ]'
  run as solve connect4:5x4 "" --json
  check "read-only: a new solve answers" '[ $rc -eq 0 ] && grep -q "\"value\":\"draw\"" "$tmp/out"'
  check "read-only: and says once that it won't be stored" \
    '[ "$(lines err "won.t be stored")" -eq 1 ] && grep -q "the file is read-only" "$tmp/err"'
  run as analyze connect4:4x4 12
  check "read-only: analyze (many solves) says it once" '[ $rc -eq 0 ] && [ "$(lines out "draw\|win\|loss")" -eq 4 ] && [ "$(lines err "won.t be stored")" -eq 1 ]'
  run as proof show connect4:4x4 1 --depth 1
  check "read-only: a new proof tree is shown, not claimed stored" \
    '[ $rc -eq 0 ] && ! grep -q "(stored)" "$tmp/out" && [ "$(lines err "won.t be stored")" -eq 1 ]'
  run as cache verify
  check "read-only: cache verify works" '[ $rc -eq 0 ] && grep -q "0 wrong" "$tmp/out"'
  run as cache verify --fix
  check "read-only: cache verify --fix says why it cannot" '[ $rc -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "read-only" "$tmp/err"'
  cmp -s "$ro/c.sqlite" "$tmp/ro.orig" && ok || bad "read-only: the file changed"
  [ "$(ls "$ro")" = "c.sqlite" ] && ok || bad "read-only: files were left beside it: $(ls "$ro")"
  # a file the user may write, in a folder it may not
  chmod 666 "$ro/c.sqlite"
  run as solve connect4:5x4 1 --json
  check "read-only folder: answers, says why once" \
    '[ $rc -eq 0 ] && grep -q "\"value\":" "$tmp/out" && [ "$(lines err "won.t be stored")" -eq 1 ] && grep -q "its folder is read-only" "$tmp/err"'
  # a read-only file in a folder it may write
  chmod 444 "$ro/c.sqlite"
  chmod 777 "$ro"
  run as solve connect4:5x4 2
  check "read-only file, open folder: answers, says it once" '[ $rc -eq 0 ] && grep -q "draw\|win\|loss" "$tmp/out" && [ "$(lines err "won.t be stored")" -eq 1 ]'
  cmp -s "$ro/c.sqlite" "$tmp/ro.orig" && ok || bad "read-only file: it changed"
  chmod 755 "$ro"
fi

# ---- a cache in a folder that does not exist yet ----
run env GSW_DB="$tmp/new/deeper/c.sqlite" "$gsw" solve connect4:4x4 ""
check "GSW_DB in a missing folder: the folder is made" '[ $rc -eq 0 ] && [ -s "$tmp/new/deeper/c.sqlite" ]'
run "$gsw" solve connect4:4x4 "" --db "$tmp/other/sub/c.sqlite" --json
check "--db in a missing folder: the folder is made" '[ $rc -eq 0 ] && [ -s "$tmp/other/sub/c.sqlite" ]'
run "$gsw" cache stats --db "$tmp/other/sub/c.sqlite" --json
check "... and the answer is in it" '[ $rc -eq 0 ] && grep -q "\"rows\":1" "$tmp/out"'
echo x >"$tmp/plain"
run "$gsw" solve connect4:4x4 "" --db "$tmp/plain/sub/c.sqlite"
check "a folder that cannot be made: one line naming it" '[ $rc -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "cannot create cache directory $tmp/plain" "$tmp/err"'

# ---- a lock held by another process ----
db="$tmp/locked.sqlite"
"$gsw" solve connect4:4x4 "" --db "$db" >/dev/null 2>&1
# hold_lock / release_lock: sqlite3 holds the cache's write lock meanwhile
hold_lock() {
  rm -f "$tmp/held" "$tmp/fifo"
  mkfifo "$tmp/fifo"
  sqlite3 "$db" <"$tmp/fifo" >/dev/null &
  holder=$!
  exec 7>"$tmp/fifo"
  printf "BEGIN IMMEDIATE;\nINSERT INTO gsw_meta VALUES ('lock', 1);\n.shell touch '%s'\n" "$tmp/held" >&7
  for _ in $(seq 200); do [ -e "$tmp/held" ] && return; sleep 0.05; done
  bad "the lock holder never started"
}
release_lock() {
  echo "ROLLBACK;" >&7
  exec 7>&-
  wait "$holder"
}
hold_lock
run "$gsw" cache stats --db "$db" --json
check "locked: cache stats reads at once" '[ $rc -eq 0 ] && grep -q "\"rows\":1" "$tmp/out"'
"$gsw" solve connect4:5x4 "" --db "$db" --json >"$tmp/out" 2>"$tmp/err" &
solver=$!
for _ in $(seq 100); do grep -q "waiting" "$tmp/err" && break; sleep 0.05; done
check "locked: the wait is said at once" '[ "$(lines err "waiting for the cache lock (another gsw is writing")" -eq 1 ] && [ -e /proc/$solver ]'
release_lock
wait "$solver"
rc=$?
check "locked: the answer, once the lock is free" '[ $rc -eq 0 ] && grep -q "\"value\":\"draw\"" "$tmp/out"'
run "$gsw" cache stats --db "$db" --json
check "locked: ... and it was stored" '[ $rc -eq 0 ] && grep -q "\"rows\":2" "$tmp/out"'
# held past the wait: the answer is printed, exit 0, what was not stored said
hold_lock
run env GSW_LOCK_MS=500 "$gsw" solve connect4:6x4 "" --db "$db" --json
check "locked past the wait: the answer, exit 0" '[ $rc -eq 0 ] && grep -q "\"value\":\"loss\"" "$tmp/out" && [ "$(wc -l <"$tmp/out")" -eq 1 ]'
check "locked past the wait: said, and what was lost" \
  'grep -q "waiting for the cache lock" "$tmp/err" && grep -q "still locked after 0.5 s" "$tmp/err" && grep -q "1 result was not stored" "$tmp/err"'
head -300 "${GSW_TEST_DATA:?}/connect4/Test_L3_R1" >"$tmp/batch"
run env GSW_LOCK_MS=500 "$gsw" solve connect4 --batch "$tmp/batch" --db "$db"
check "locked past the wait: a batch goes on without waiting again" \
  '[ $rc -eq 0 ] && grep -q "positions 300, mismatches 0" "$tmp/out" && [ "$(lines err "still locked after")" -eq 1 ] && grep -q "300 results were not stored" "$tmp/err"'
release_lock

# ---- junk bytes ----
head -c 5000 /dev/urandom >"$tmp/junk.sqlite"
cp "$tmp/junk.sqlite" "$tmp/junk.orig"
run "$gsw" solve connect4:4x4 "" --db "$tmp/junk.sqlite"
check "junk: exit 1, one line" '[ $rc -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -s "$tmp/out" ]'
check "junk: the way out named" 'grep -q -- "--no-cache" "$tmp/err" && grep -qF "mv $tmp/junk.sqlite $tmp/junk.sqlite.bad" "$tmp/err"'
cmp -s "$tmp/junk.sqlite" "$tmp/junk.orig" && ok || bad "junk: the file was modified"
run "$gsw" solve connect4:4x4 "" --db "$tmp/junk.sqlite" --no-cache
check "junk: --no-cache solves" '[ $rc -eq 0 ]'
mv "$tmp/junk.sqlite" "$tmp/junk.sqlite.bad"
run "$gsw" solve connect4:4x4 "" --db "$tmp/junk.sqlite"
check "junk: moved aside, a new cache" '[ $rc -eq 0 ] && [ -s "$tmp/junk.sqlite" ]'
run "$gsw" cache check --db "$tmp/junk.sqlite.bad"
check "junk: cache check names it too" '[ $rc -eq 1 ] && grep -q -- "--no-cache" "$tmp/err"'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
