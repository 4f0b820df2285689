#!/usr/bin/env bash
# gsw shell driven from a file of commands gives the expected transcript
# (tests/data/workbench/shell.out; the record's Date line varies and is dropped),
# reports a bad command on stderr with its line number and stops there
# (the lines after it would open and solve another board), and exits 2.
set -u
gsw=${GSW_BIN:?}
data=${GSW_TEST_DATA:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$gsw" shell connect4:4x4 --no-cache <"$data/workbench/shell.in" >"$tmp/out" 2>"$tmp/err"
rc=$?
fail=0
[ "$rc" -eq 2 ] || { echo "FAIL: exit $rc, expected 2 (a bad command in the script)"; fail=1; }
grep -v '^\[Date ' "$tmp/out" >"$tmp/out2"
if ! diff -u "$data/workbench/shell.out" "$tmp/out2"; then echo "FAIL: transcript differs"; fail=1; fi
grep -q '^gsw: line 15: column 9 is out of range 1-4 (the script stops here)$' "$tmp/err" || { echo "FAIL: stderr: $(cat "$tmp/err")"; fail=1; }
[ "$(wc -l <"$tmp/err")" -eq 1 ] || { echo "FAIL: stderr is not one line"; fail=1; }
# the issue's case: a failed "new" must not leave the next line solving the
# empty 7x6 board (the shell's default game)
printf 'new nosuch\nsolve\n' | timeout 20 "$gsw" shell --no-cache >"$tmp/o" 2>"$tmp/e"
rc=$?
[ "$rc" -eq 2 ] && [ ! -s "$tmp/o" ] && grep -q 'line 1: unknown game' "$tmp/e" || { echo "FAIL: a failed new went on (exit $rc): $(cat "$tmp/o" "$tmp/e")"; fail=1; }
# a solve in the shell stores the position's own value, not only its moves'
printf 'new connect4:5x4\nsolve\n' | "$gsw" shell --db "$tmp/c.sqlite" >/dev/null 2>&1
"$gsw" solve connect4:5x4 "" --json --db "$tmp/c.sqlite" >"$tmp/o" 2>/dev/null
grep -q '"source":"cache"' "$tmp/o" && grep -q '"value":"draw"' "$tmp/o" || { echo "FAIL: the shell's solve did not store the position: $(cat "$tmp/o")"; fail=1; }
# a lesson on the empty 7x6 board: no endless solve on entry; the published
# values, said to be that, until a proof (here a stored row) replaces them
start=$(date +%s)
printf 'lesson connect4-centre\nanalyze\n' | timeout 60 "$gsw" shell --no-cache >"$tmp/o" 2>"$tmp/e"
took=$(( $(date +%s) - start ))
[ "$took" -le 15 ] && grep -q '^4 *win 41 (published)' "$tmp/o" || { echo "FAIL: the centre lesson's analysis (${took} s): $(tail -5 "$tmp/o")"; fail=1; }
"$gsw" solve connect4 4 --time 20 --db "$tmp/l.sqlite" >/dev/null 2>&1   # a row for the position after 4 ...
sqlite3 "$tmp/l.sqlite" "update solved set lo = -29960, hi = -29960"      # ... proven: Yellow loses in 40 plies
printf 'lesson connect4-centre\nanalyze\n' | timeout 60 "$gsw" shell --db "$tmp/l.sqlite" >"$tmp/o" 2>"$tmp/e"
grep -q '^4 *win 41 (+1)$' "$tmp/o" && grep -q '^3 *draw (published)' "$tmp/o" && grep -q '1 of 7 checked' "$tmp/o" \
  || { echo "FAIL: the lesson did not take the stored proof: $(tail -9 "$tmp/o")"; fail=1; }
# the shell's solve reports progress on stderr, and Ctrl-C prints what is proven
# (emptied first: an earlier run's progress in the file would send the signal
# before gsw runs, to the forked shell that ignores it)
: >"$tmp/e"
printf 'solve\n' | "$gsw" shell connect4 44 --no-cache >"$tmp/o" 2>"$tmp/e" &
pid=$!
for _ in $(seq 1 600); do grep -q ' M nodes' "$tmp/e" 2>/dev/null && break; sleep 0.1; done
kill -INT $pid
wait $pid
grep -Eq 's, (no win|no loss|at least|at most|nothing proven).* M nodes' "$tmp/e" && grep -q '^proven so far: ' "$tmp/o" \
  || { echo "FAIL: shell solve progress / Ctrl-C: $(cat "$tmp/o" "$tmp/e")"; fail=1; }
# gsw shell FILE runs the file as a script
"$gsw" shell connect4:4x4 "$data/workbench/shell.in" --no-cache >"$tmp/out" 2>"$tmp/err"
rc=$?
grep -v '^\[Date ' "$tmp/out" >"$tmp/out2"
[ "$rc" -eq 2 ] && diff -q "$data/workbench/shell.out" "$tmp/out2" >/dev/null && grep -q 'shell.in:15: column 9 is out of range' "$tmp/err" \
  || { echo "FAIL: gsw shell FILE (exit $rc): $(cat "$tmp/err")"; fail=1; }
# no prompt is echoed when stdin is not a terminal
grep -q 'gsw>' "$tmp/out" && { echo "FAIL: a prompt was echoed"; fail=1; }
# gsw with no terminal says how to script it
"$gsw" </dev/null >"$tmp/o" 2>"$tmp/e"
rc=$?
[ "$rc" -eq 2 ] && grep -q 'gsw shell' "$tmp/e" || { echo "FAIL: gsw without a tty: exit $rc, $(cat "$tmp/e")"; fail=1; }
"$gsw" play connect4 </dev/null >"$tmp/o" 2>"$tmp/e"
[ $? -eq 2 ] && grep -q 'gsw shell' "$tmp/e" || { echo "FAIL: gsw play without a tty"; fail=1; }
# a lesson's published values in the one order (the Fourth Position's six
# wins above its five draws, 20-24 among them), and a step after the learner
# left the line says the lesson goes back to it
printf 'lesson checkers-fourth\nanalyze\n12-16\n' | timeout 60 "$gsw" shell --no-cache >"$tmp/o" 2>"$tmp/e"
order=$(grep -E '^[0-9]+-[0-9]+ +(win|draw)' "$tmp/o" | awk '{print $2}' | uniq | tr '\n' ' ')
[ "$order" = "win draw " ] || { echo "FAIL: the Fourth Position's values not wins first: $order"; fail=1; }
printf 'lesson checkers-longest\n1-5\nnext\n' | timeout 60 "$gsw" shell --no-cache >"$tmp/o" 2>"$tmp/e"
grep -q "Back to the lesson's line: you played 1-5, the lesson goes on after 8-11" "$tmp/o" \
  || { echo "FAIL: leaving a lesson's line is not said: $(tail -5 "$tmp/o")"; fail=1; }
# lessons are listed
"$gsw" lesson >"$tmp/o" 2>&1 && grep -q 'connect4-centre' "$tmp/o" || { echo "FAIL: gsw lesson: $(cat "$tmp/o")"; fail=1; }
"$gsw" lesson nosuch </dev/null >"$tmp/o" 2>"$tmp/e"
[ $? -eq 2 ] && grep -q 'nosuch' "$tmp/e" || { echo "FAIL: gsw lesson nosuch"; fail=1; }
# every shipped lesson opens: its game, positions and moves check
for name in $("$gsw" lesson --json | jq -r '.lessons[].name' 2>/dev/null); do
  printf 'lesson %s\n' "$name" | "$gsw" shell --no-cache --dir "$tmp/no-egdb" >"$tmp/o" 2>"$tmp/e"
  grep -q "^Lesson .*step 1 of" "$tmp/o" && ! grep -qi 'error\|\.lesson:[0-9]' "$tmp/o" "$tmp/e" ||
    { echo "FAIL: lesson $name does not open: $(cat "$tmp/e" | head -3)"; fail=1; }
done
"$gsw" lesson --json | jq -e '.lessons | length >= 8' >/dev/null || { echo "FAIL: lesson --json lists $("$gsw" lesson --json | jq '.lessons | length') lessons"; fail=1; }
# a proof beyond the budget (--nodes) names the command that searches
# without one, which runs as printed (here with a budget of its own)
printf 'proof\n' | "$gsw" shell checkers 'B:WK18,26:BK3,5,6' --nodes 20000 --no-cache >"$tmp/o" 2>"$tmp/e"
cmdline=$(grep -o "gsw proof show checkers:english 'B:WK18,26:BK3,5,6'" "$tmp/e")
[ -n "$cmdline" ] && grep -q 'no proof tree within 20000 nodes' "$tmp/e" ||
  { echo "FAIL: proof beyond the budget: $(cat "$tmp/o" "$tmp/e")"; fail=1; }
"$gsw" proof show checkers:english 'B:WK18,26:BK3,5,6' --nodes 20000 --no-cache >"$tmp/o" 2>"$tmp/e"
[ $? -eq 1 ] && grep -q 'budget' "$tmp/e" || { echo "FAIL: the command printed does not run: $(cat "$tmp/e")"; fail=1; }
[ "$fail" -eq 0 ] && echo "shell transcript ok"
exit "$fail"
