#!/usr/bin/env bash
# Wrong answers kept out, end to end: df-pn batches whose roots change side,
# cache rows planted wrong (crossing bounds, a false exact value, a false best
# move, damaged proof-tree and manager-tree blobs) either repaired by the next
# solve or caught by `gsw cache verify`, and a shell killed with SIGTERM in the
# middle of an analysis keeping what it proved. Needs GSW_BIN and sqlite3.
set -u
. "$(dirname "$0")/cli_lib.sh"
db="$tmp/c.sqlite"
check() { if eval "$2"; then ok; else bad "$1"; fi; }
q() { sqlite3 "$db" "$1"; }

# 1. df-pn over a batch: the table outlives each root, whose side to move changes
printf '5131\nstartpos\n1422315541552\n' >"$tmp/b.txt"
for algo in dfpn ab manager; do
  "$gsw" solve connect4:5x4 --batch "$tmp/b.txt" --no-cache --algo $algo >"$tmp/out" 2>"$tmp/err"
  check "batch --algo $algo: the last line loses (score -1)" '[ "$(awk "NR==3{print \$2}" "$tmp/out")" = -1 ]'
done
"$gsw" solve connect4:5x4 --batch "$tmp/b.txt" --db "$db" --algo dfpn --clear-hash >/dev/null 2>&1
"$gsw" solve connect4:5x4 1422315541552 --db "$db" --json >"$tmp/out" 2>/dev/null
check "a df-pn batch stores the true value" 'grep -q "\"value\":\"loss\"" "$tmp/out"'

# --clear-hash empties the df-pn table too: the same line twice costs the same nodes
printf '1422315541552\n1422315541552\n' >"$tmp/twice.txt"
"$gsw" solve connect4:5x4 --batch "$tmp/twice.txt" --no-cache --algo dfpn --clear-hash >"$tmp/out" 2>/dev/null
check "--clear-hash clears the df-pn table" '[ "$(awk "NR==1{print \$3}" "$tmp/out")" = "$(awk "NR==2{print \$3}" "$tmp/out")" ]'

# 2. a planted row with a false draw bound: the solve notices, drops it, stores the truth
rm -f "$db"*
pos=1422315541552
"$gsw" solve connect4:5x4 $pos --db "$db" >/dev/null 2>&1
key=$(q "select hex(key) from solved where variant='5x4'")
q "update solved set lo=0, hi=29999 where variant='5x4' and hex(key)='$key'"
"$gsw" solve connect4:5x4 $pos --db "$db" >"$tmp/out" 2>"$tmp/err"
check "false bounds: the right value" 'grep -q "loss in 6 plies" "$tmp/out"'
check "false bounds: said on stderr" 'grep -q "contradict" "$tmp/err"'
check "false bounds: the row repaired" '[ "$(q "select lo||\",\"||hi from solved where hex(key)=\"$key\"")" = "-29994,-29994" ]'
# a false upper bound, and bounds the game's own rule out
q "update solved set lo=-29999, hi=-29996 where hex(key)='$key'"
"$gsw" solve connect4:5x4 $pos --db "$db" --json >"$tmp/out" 2>"$tmp/err"
check "false upper bound: the right value" 'grep -q "\"plies\":6" "$tmp/out" && grep -q contradict "$tmp/err"'

# 3. a false exact value is answered from the cache, so verify must catch it
q "update solved set lo=0, hi=0 where hex(key)='$key'"
"$gsw" analyze connect4:5x4 --db "$db" >/dev/null 2>&1
"$gsw" cache verify --db "$db" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "verify: a false exact value is reported (exit 1)" '[ $rc -eq 1 ] && grep -q "stored draw, but the value is loss in 6 plies" "$tmp/out"'
check "verify: the other rows agree" 'grep -q "1 wrong" "$tmp/out"'
"$gsw" cache verify connect4:5x4 --db "$db" --fix --json >"$tmp/out" 2>"$tmp/err"; rc=$?
check "verify --fix --json: one document, the row deleted, exit 0" \
  '[ $rc -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] && grep -q "\"deleted\":1" "$tmp/out"'
check "verify --fix: the row is gone" '[ "$(q "select count(*) from solved where hex(key)=\"$key\"")" = 0 ]'
# a false best move
best_key=$(q "select hex(key) from solved where best is not null and lo > 0 limit 1")
if [ -n "$best_key" ]; then
  q "update solved set best=(best + 1) % 5 where hex(key)='$best_key'"
  "$gsw" cache verify --db "$db" >"$tmp/out" 2>&1; rc=$?
  check "verify: a false best move is reported" '[ $rc -eq 1 ] && grep -q "but that move gets" "$tmp/out"'
  "$gsw" cache verify --db "$db" --fix >/dev/null 2>&1
fi
"$gsw" cache verify --db "$db" --sample 2 >"$tmp/out" 2>&1; rc=$?
check "verify --sample: a clean cache passes" '[ $rc -eq 0 ] && grep -q "0 wrong" "$tmp/out"'
# junk where a key should be
q "insert into solved (game, variant, key, lo, hi) values ('connect4', '5x4', x'ffffffffffffffff', 0, 0)"
"$gsw" cache verify --db "$db" >"$tmp/out" 2>&1; rc=$?
check "verify: a key that is no position is reported" '[ $rc -eq 1 ] && grep -q "no connect4 position" "$tmp/out"'

# 4. damaged proof trees: cut short, or with a move that is not legal, are proved again
"$gsw" proof show connect4:5x4 14 --db "$db" >"$tmp/good" 2>/dev/null
q "update proof_tree set nodes=substr(nodes, 1, 24)"
"$gsw" proof show connect4:5x4 14 --db "$db" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "a proof tree cut short is proved again" '[ $rc -eq 0 ] && ! grep -q "from the cache" "$tmp/out" && [ "$(head -1 "$tmp/out" | cut -d, -f1)" = "$(head -1 "$tmp/good" | cut -d, -f1)" ]'
q "update proof_tree set nodes=x'000000000100000001000000' || x'09000000' || substr(nodes, 17)"
"$gsw" proof show connect4:5x4 14 --db "$db" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "a proof tree with an illegal move is proved again" '[ $rc -eq 0 ] && ! grep -q "from the cache" "$tmp/out"'
"$gsw" proof show connect4:5x4 14 --db "$db" >"$tmp/out" 2>"$tmp/err"
check "the tree proved again was stored whole" 'grep -q "from the cache" "$tmp/out"'
# a manager tree whose first child's move is not legal: --resume refuses it
"$gsw" proof run connect4:6x5 6 --workers 1 --db "$db" --time 300 >/dev/null 2>&1   # stopped by its budget, stored
if [ "$(q "select count(*) from manager_tree")" != 0 ]; then
  q "update manager_tree set nodes=substr(nodes, 1, 32) || x'09000000' || substr(nodes, 37)"
  "$gsw" proof run connect4:6x5 6 --workers 1 --db "$db" --resume >"$tmp/out" 2>"$tmp/err"; rc=$?
  check "a damaged manager tree is refused on resume" '[ $rc -eq 1 ] && grep -q "damaged" "$tmp/err"'
else
  bad "the killed manager run saved no tree"
fi

# 5. SIGTERM in the middle of an analysis: what was proven is in the cache
# (the shell prints the analysis when it ends, stopped or not)
rm -f "$db"*
mkfifo "$tmp/in"
"$gsw" shell connect4 4444 --db "$db" <"$tmp/in" >"$tmp/out" 2>"$tmp/err" &
pid=$!
exec 3>"$tmp/in"
echo analyze >&3
sleep 3
kill -TERM $pid
wait $pid; rc=$?
exec 3>&-
# (exact values only: a proof stopped part way prints its bounds, "win"
# alone or "draw or loss 36+", and stores those, not a value)
proven=$(grep -cE "^[0-9]+ +(win [0-9]+|loss [0-9]+|draw)( \(|$)" "$tmp/out")
check "SIGTERM: the shell ends (exit 1) saying what it kept" '[ $rc -eq 1 ] && grep -q "terminated" "$tmp/err"'
check "SIGTERM: the stopped solve's bounds are in the cache" '[ "$(q "select count(*) from solved")" -ge 1 ]'
check "SIGTERM: every proven move is in the cache ($proven printed)" \
  '[ "$proven" -eq 0 ] || [ "$(q "select count(*) from solved where lo = hi")" -ge 1 ]'

echo "test_wrong_answers: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
