#!/usr/bin/env bash
# gsw solve --time T ends within T of the process's start, whole: start-up,
# the proof, the heuristic line after a proof that ran out, closing. The
# start positions of chess and checkers (no proof in a second) with
# --time 1000 must end in under 1.8 s of wall time (about 1.0 s on an idle
# machine, the deadline being wall time: load adds little; 2.0 s and more
# when the heuristic line had a budget of its own), and still
# show the heuristic line. SIGTERM half a second into a --time 10000 solve
# exits 1 saying "interrupted", not "budget spent". With no budget at all
# a solve says, after a while, that it may not end, and its progress.
# Needs GSW_BIN (set by ctest).
set -u
. "$(dirname "$0")/cli_lib.sh"

bound_ms=1800
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

for game in chess checkers; do
  t0=$(now_ms)
  "$gsw" solve "$game" "" --time 1000 --no-cache --threads 1 >"$tmp/out" 2>"$tmp/err" </dev/null
  rc=$? t1=$(now_ms)
  same "$rc" 1 "$game --time 1000: exit status (no proof in a second)"
  [ $((t1 - t0)) -lt $bound_ms ] && ok || bad "$game --time 1000 took $((t1 - t0)) ms of wall time (bound $bound_ms)"
  has out "heuristic:" "$game --time 1000: the heuristic line within the budget"
  has err "budget spent" "$game --time 1000: said"
done

for game in chess checkers; do
  "$gsw" solve "$game" "" --time 10000 --no-cache --threads 1 >"$tmp/out" 2>"$tmp/err" </dev/null &
  pid=$!
  sleep 0.5
  kill -TERM "$pid"
  wait "$pid"
  rc=$?
  same "$rc" 1 "$game: SIGTERM mid-solve: exit status"
  has err "interrupted" "$game: SIGTERM mid-solve"
  grep -q "budget" "$tmp/err" && bad "$game: SIGTERM mid-solve said a budget: $(cat "$tmp/err")" || ok
done

# no budget where proofs are out of reach: a solve still going after a
# while says so and shows its progress (as analyze does), even off a terminal
for game in chess checkers; do
  "$gsw" solve "$game" "" --no-cache --threads 1 >"$tmp/out" 2>"$tmp/nb-$game" </dev/null &
  pid=$!
  for ((i = 0; i < 100; i++)); do grep -q "searching" "$tmp/nb-$game" 2>/dev/null && break; sleep 0.1; done
  kill -TERM "$pid"
  wait "$pid"
  cp "$tmp/nb-$game" "$tmp/err"
  has err "$game: proofs are out of reach from most positions: this solve has no budget" "$game: no budget: said"
  has_re err "^  [0-9.]+ s: .*; searching$" "$game: no budget: its progress"
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
