#!/usr/bin/env bash
# Concurrency: four gsw processes solve and write one cache at once (each a
# batch of the same 300 positions, in its own order) while a workbench
# (the TUI, under tmux) plays on the same file. Afterwards every position's
# value is in the cache, equal to what the batches printed, the cache
# passes its check, and no "database is locked" failure reached anyone.
# Needs GSW_BIN, GSW_TEST_DATA, sqlite3; the TUI part is skipped without tmux.
set -u
. "$(dirname "$0")/../cli/cli_lib.sh"
data=${GSW_TEST_DATA:?}
db="$tmp/shared.sqlite"
pos="$data/crash/positions_5x4.txt"
for i in 1 2 3 4; do   # four orders of the same positions
  case $i in
    1) cat "$pos" ;; 2) tac "$pos" ;; 3) sort "$pos" ;; 4) sort -r "$pos" ;;
  esac >"$tmp/batch$i"
done
tui=0
if command -v tmux >/dev/null; then
  tui=1
  . "$(dirname "$0")/../workbench/tmux_window.sh"
  tmux_window "$tmp/tmux.sock" 100 30 \
    "env GSW_DB='$db' LANG=C.UTF-8 TERM=xterm-256color '$gsw' play connect4:5x4 --threads 1 --hash 16 2>'$tmp/tui.err'; echo \"exit=\$?\" >'$tmp/tui.exit'; sleep 30"
fi
for i in 1 2 3 4; do
  "$gsw" solve connect4:5x4 --batch "$tmp/batch$i" --db "$db" --threads 1 --hash 16 >"$tmp/out$i" 2>"$tmp/err$i" &
done
if [ "$tui" -eq 1 ]; then   # the person plays meanwhile: columns 3, 2, 4, undo, ...
  for k in 3 2 4 u 1 5 u u 3; do sleep 0.3; tmux -S "$tmp/tmux.sock" send-keys -t g "$k"; done
fi
rcs=""
for i in 1 2 3 4; do wait %$i 2>/dev/null; rcs="$rcs $?"; done
wait
for i in 1 2 3 4; do
  [ "$(tail -1 "$tmp/out$i" | grep -c 'positions 300, mismatches 0')" -eq 1 ] && ok || bad "batch $i did not finish: $(tail -2 "$tmp/out$i") $(cat "$tmp/err$i")"
  grep -qi "locked" "$tmp/err$i" && ! grep -q "^gsw: waiting for the cache lock" "$tmp/err$i" && bad "batch $i: $(grep -i locked "$tmp/err$i")" || ok
done
if [ "$tui" -eq 1 ]; then
  screen=$(tmux -S "$tmp/tmux.sock" capture-pane -p -t g)
  echo "$screen" | grep -q "connect4:5x4" && ok || bad "the workbench is gone: $screen"
  echo "$screen" | grep -qi "locked\|error" && bad "the workbench shows: $(echo "$screen" | grep -i 'locked\|error')" || ok
  tmux -S "$tmp/tmux.sock" send-keys -t g q y
  # gsw ends before its window does: a window killed while gsw exits can
  # catch the sanitizers' leak check halfway and leave gsw spinning
  for ((w = 0; w < 200; w++)); do [ -f "$tmp/tui.exit" ] && break; sleep 0.1; done
  [ "$(cat "$tmp/tui.exit" 2>/dev/null)" = "exit=0" ] && ok || bad "the workbench did not quit cleanly: $(cat "$tmp/tui.exit" 2>/dev/null)"
  tmux -S "$tmp/tmux.sock" kill-server 2>/dev/null
fi
# every position's value is stored and equals what the batches printed
awk '{print $1, $2}' "$tmp/out1" | head -n 300 | sort -u >"$tmp/want"
"$gsw" solve connect4:5x4 --batch "$pos" --db "$db" --threads 1 >"$tmp/again" 2>&1
awk '{print $1, $2}' "$tmp/again" | head -n 300 | sort -u >"$tmp/got"
diff -q "$tmp/want" "$tmp/got" >/dev/null && ok || bad "the values read back differ from the batches'"
# ... from the cache: a batch of them costs no search
nodes=$(awk 'NR <= 300 { n += $3 } END { print n + 0 }' "$tmp/again")
[ "$nodes" -eq 0 ] && ok || bad "$nodes nodes searched: not every result was stored"
"$gsw" cache check --db "$db" >"$tmp/check" 2>&1 && ok || bad "cache check: $(cat "$tmp/check")"
echo "concurrent.sh: 4 writers and a workbench on one cache; $pass passed, $fail failed"
[ "$fail" -eq 0 ]
