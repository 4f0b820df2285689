#!/usr/bin/env bash
# I/O errors: a full disk (a 256 KB tmpfs) under the cache while a batch of
# solves and a proof-tree manager run write to it, and under an endgame
# database build (then resumed: files identical to an unbroken build's, as
# after a kill -9), and the cache file removed,
# then replaced by junk, under a running workbench. Each ends with one clear
# line and a clean stop (or goes on without storing), never a crash, and the
# cache file is never left damaged; a replacement file is never written to.
# The full-disk part needs to mount a tmpfs (root): skipped with a note
# otherwise; the workbench part needs tmux. Needs GSW_BIN, GSW_TEST_DATA.
set -u
. "$(dirname "$0")/../cli/cli_lib.sh"
data=${GSW_TEST_DATA:?}
command -v jq >/dev/null || { echo "no jq"; exit 77; }
run() { "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; rc=$?; }
check() { if eval "$2"; then ok; else bad "$1 (exit $rc; out: $(tail -c 300 "$tmp/out"); err: $(head -c 400 "$tmp/err"))"; fi; }

# --- a full disk ---
fs="$tmp/small"
mkdir -p "$fs"
if mount -t tmpfs -o size=256k tmpfs "$fs" 2>/dev/null; then
  trap 'umount "$fs" 2>/dev/null; kill $(jobs -p) 2>/dev/null; rm -rf "$tmp"' EXIT
  db="$fs/c.sqlite"
  # a batch: the answers stand, one line says results are not stored, the file is whole.
  # Its cheap results are written together at the end (about 60 KB with the log):
  # a filler leaves room to make the cache file but not to write them.
  head -c 150000 /dev/zero >"$fs/filler"
  run "$gsw" solve connect4:5x4 --batch "$data/crash/positions_5x4.txt" --db "$db" --threads 1 --hash 16
  check "full disk, batch: every answer, exit 0" '[ $rc -eq 0 ] && grep -q "positions 300, mismatches 0" "$tmp/out"'
  check "full disk, batch: one line on stderr, saying the disk is full" '[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "disk is full" "$tmp/err"'
  run "$gsw" cache check --db "$db"
  check "full disk, batch: the cache is whole" '[ $rc -eq 0 ]'
  # one solve: the answer is printed, a failure to store it said at most once
  run "$gsw" solve connect4:5x4 1422315541552 --db "$db"
  check "full disk, solve: the answer stands" '[ $rc -eq 0 ] && grep -q "loss in 6 plies" "$tmp/out" && [ "$(grep -c "disk is full" "$tmp/err")" -le 1 ]'
  # the manager: its tree cannot be stored, so it stops cleanly, and resumes once there is room
  rm -f "$db" "$db-wal" "$db-shm" "$fs/filler"
  head -c 200000 /dev/zero >"$fs/filler"
  run env GSW_SAVE_MS=20 "$gsw" proof run connect4:6x5 6 --workers 1 --hash 16 --db "$db"
  check "full disk, manager: a clean stop (exit 1, one line)" '[ $rc -eq 1 ] && [ "$(grep -c "^gsw: " "$tmp/err")" -eq 1 ] && grep -q "disk is full" "$tmp/err"'
  rm -f "$fs/filler"
  if [ -f "$db" ]; then
    run "$gsw" cache check --db "$db"
    check "full disk, manager: the cache is whole" '[ $rc -eq 0 ]'
  fi
  run "$gsw" proof run connect4:6x5 6 --workers 1 --hash 16 --db "$db" --resume
  check "full disk, manager: with room again it ends" '[ $rc -eq 0 ] && grep -q "draw for the side to move" "$tmp/out"'
  # an endgame database build: a clean stop naming the full disk, nothing half-written left, and
  # a resumed build elsewhere gives files byte-identical to one that never stopped
  umount "$fs"
  mount -t tmpfs -o size=1m tmpfs "$fs"
  run "$gsw" egdb build checkers --pieces 4 --metric dtw --dir "$fs/e" --threads 2
  check "full disk, egdb build: exit 1, one line saying the disk is full" \
    '[ $rc -eq 1 ] && [ "$(grep -c "^gsw: " "$tmp/err")" -eq 1 ] && grep -q "disk is full.*build again to resume" "$tmp/err"'
  check "full disk, egdb build: no half-written file" '[ -z "$(find "$fs/e" -name "*.tmp")" ]'
  cp -r "$fs/e" "$tmp/e-resumed"
  run "$gsw" egdb build checkers --pieces 4 --metric dtw --dir "$tmp/e-resumed" --json
  check "full disk, egdb build: resumed with room, the finished files reused" '[ $rc -eq 0 ] && [ "$(jq -r ".reused > 100" "$tmp/out")" = true ]'
  run "$gsw" egdb build checkers --pieces 4 --metric dtw --dir "$tmp/e-ref" --threads 1
  check "full disk, egdb build: the resumed files equal an unbroken build's" 'diff -r -x MANIFEST "$tmp/e-ref" "$tmp/e-resumed" >/dev/null'
  check "full disk, egdb build: the resumed folder's MANIFEST lists every file" \
    '[ "$(grep -c "^file " "$tmp/e-resumed/checkers/dtw/MANIFEST")" = "$(ls "$tmp/e-resumed/checkers/dtw" | grep -c "\.egdb$")" ]'
  # kill -9 in the middle of a unit: it is lost, nothing else, and the files come out the same
  "$gsw" egdb build checkers --pieces 4 --metric dtw --dir "$tmp/e-killed" >/dev/null 2>&1 &
  pid=$!
  # (finished files only: a slice being written is X.egdb.tmp, and counting it
  # let the kill come with exactly 400 finished, which the check below refuses;
  # up to 60 s: on a loaded machine 5 s was too short, and the kill came first)
  for ((i = 0; i < 1200; i++)); do
    [ "$(find "$tmp/e-killed/checkers/dtw" -name '*.egdb' 2>/dev/null | wc -l)" -gt 400 ] && break
    sleep 0.05
  done
  kill -9 $pid
  wait $pid 2>/dev/null
  run "$gsw" egdb build checkers --pieces 4 --metric dtw --dir "$tmp/e-killed" --json
  check "kill -9, egdb build: resumed" '[ $rc -eq 0 ] && [ "$(jq -r ".reused > 400 and .built > 0" "$tmp/out")" = true ]'
  check "kill -9, egdb build: the files equal an unbroken build's, no temporary file left" \
    'diff -r -x MANIFEST "$tmp/e-ref" "$tmp/e-killed" >/dev/null'
  check "kill -9, egdb build: the MANIFEST lists every file (those the killed build had not listed, by the resumed one)" \
    '[ "$(grep -c "^file " "$tmp/e-killed/checkers/wld/MANIFEST")" = "$(ls "$tmp/e-killed/checkers/wld" | grep -c "\.egdb$")" ]'
else
  echo "note: cannot mount a tmpfs here (not root?): the full-disk cases are skipped"
fi

# --- the cache file removed, then replaced, under a running workbench ---
if command -v tmux >/dev/null; then
  db="$tmp/tui.sqlite"
  T() { tmux -S "$tmp/tmux.sock" "$@"; }
  . "$(dirname "$0")/../workbench/tmux_window.sh"
  tmux_window "$tmp/tmux.sock" 100 30 \
    "env GSW_DB='$db' LANG=C.UTF-8 TERM=xterm-256color '$gsw' play connect4:5x4 --side both --threads 1 --hash 16 2>'$tmp/tui.err'; echo \"exit=\$?\" >'$tmp/exit'; sleep 30"
  wait_screen() { local i; for ((i = 0; i < 200; i++)); do T capture-pane -p -t g | grep -q -- "$1" && return 0; sleep 0.1; done; return 1; }
  wait_screen "Red to move" && ok || bad "the workbench did not start"
  T send-keys -t g 3
  wait_screen "Yellow to move" && ok || bad "no move before the file went"
  rm -f "$db" "$db-wal" "$db-shm"   # removed under it
  T send-keys -t g 3
  wait_screen "Red to move" && ok || bad "the workbench stopped after its cache file was removed"
  head -c 5000 /dev/urandom >"$db"   # replaced by junk
  sum=$(cksum <"$db")
  T send-keys -t g 2
  wait_screen "Yellow to move" && ok || bad "the workbench stopped after its cache file was replaced"
  T send-keys -t g u
  sleep 1
  T send-keys -t g q
  sleep 0.3
  T send-keys -t g y
  for _ in $(seq 1 50); do [ -f "$tmp/exit" ] && break; sleep 0.1; done
  [ "$(cat "$tmp/exit" 2>/dev/null)" = "exit=0" ] && ok || bad "the workbench did not quit cleanly: $(cat "$tmp/exit" 2>/dev/null) $(cat "$tmp/tui.err")"
  [ "$(cksum <"$db")" = "$sum" ] && ok || bad "the file that replaced the cache was written to"
  T kill-server 2>/dev/null
fi
echo "io_errors.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
