#!/usr/bin/env bash
# Crash safety: gsw killed with SIGKILL at random moments, KILLS times each
# (default 50), during
#   1. a proof-tree manager run, resumed after every kill until it ends: its
#      result must equal an uninterrupted run's;
#   2. a burst of solves writing the cache (a batch of 300 positions);
#   3. games being saved (a shell script that plays and saves, again and again).
# After every kill `gsw cache check` must pass and every row committed before
# the kill must still be there, unchanged or tighter (rows are read from the
# file by a second process while gsw runs, so what it read was committed).
# Usage: crash.sh [KILLS]; needs GSW_BIN, GSW_TEST_DATA and sqlite3.
# GSW_CRASH_SEED repeats a run's kill times.
set -u
gsw=${GSW_BIN:?}
data=${GSW_TEST_DATA:?}
kills=${1:-50}
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$tmp"' EXIT
seed=${GSW_CRASH_SEED:-$(date +%s)}
RANDOM=$seed
echo "crash.sh: $kills kills per case, seed $seed (GSW_CRASH_SEED repeats it)"
fail=0 survived=0 lost=0 checked=0
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
export GSW_DB="$tmp/unused.sqlite"

# run_killed MS CMD...: start CMD, kill it with SIGKILL after MS ms (unless it
# ended first: then return its exit status; 137 means killed)
run_killed() {
  local ms=$1; shift
  "$@" >/dev/null 2>"$tmp/stderr" &
  local pid=$!
  sleep "$(printf '0.%03d' "$ms")"
  kill -KILL $pid 2>/dev/null
  wait $pid 2>/dev/null
}

# check_db DB WHAT: the cache passes its check, and the rows of the snapshot
# taken before the kill are all there, no looser
check_db() {
  local db=$1 what=$2
  "$gsw" cache check --db "$db" >"$tmp/check" 2>&1 || bad "$what: gsw cache check: $(head -c 300 "$tmp/check")"
  [ -s "$tmp/snap" ] || return 0
  checked=$((checked + $(wc -l <"$tmp/snap")))
  sqlite3 "$db" "select game, variant, hex(key), lo, hi from solved" >"$tmp/after" 2>&1 || { bad "$what: cannot read"; return; }
  local missing
  missing=$(awk -F'|' 'NR == FNR { lo[$1"|"$2"|"$3] = $4; hi[$1"|"$2"|"$3] = $5; next }
                       { k = $1"|"$2"|"$3; if (!(k in lo) || lo[k] < $4 || hi[k] > $5) n++ }
                       END { print n + 0 }' "$tmp/after" "$tmp/snap")
  if [ "$missing" -ne 0 ]; then lost=$((lost + missing)); bad "$what: $missing rows committed before the kill are lost or looser"; fi
}

# snapshot DB: the rows committed so far (read by another process)
snapshot() { sqlite3 "$1" "select game, variant, hex(key), lo, hi from solved" >"$tmp/snap" 2>/dev/null || : >"$tmp/snap"; }

# --- 1. the manager, killed and resumed until it ends ---
whole=$("$gsw" proof run connect4:6x5 6 --workers 1 --hash 16 --no-cache 2>/dev/null)
[ -n "$whole" ] || bad "the uninterrupted manager run printed nothing"
db="$tmp/manager.sqlite"
k=0 rounds=0 result=""
while [ "$k" -lt "$kills" ] && [ "$rounds" -lt $((kills * 4)) ]; do
  rounds=$((rounds + 1))
  snapshot "$db"
  resume=""; [ -f "$db" ] && resume=--resume
  run_killed $((30 + RANDOM % 300)) env GSW_SAVE_MS=20 "$gsw" proof run connect4:6x5 6 --workers 1 --hash 16 --db "$db" $resume
  rc=$?
  if [ "$rc" -eq 137 ]; then
    k=$((k + 1)); survived=$((survived + 1))
    check_db "$db" "manager kill $k"
  elif [ "$rc" -eq 0 ]; then   # it finished: its result, then start over for more kills
    result=$("$gsw" proof run connect4:6x5 6 --workers 1 --hash 16 --db "$db" --resume 2>/dev/null)
    [ "$result" = "$whole" ] || bad "manager: the resumed run says '$result', the uninterrupted one '$whole'"
    rm -f "$db" "$db-wal" "$db-shm"
  else
    bad "manager: exit $rc ($(head -c 300 "$tmp/stderr"))"
    rm -f "$db" "$db-wal" "$db-shm"
  fi
done
if [ -f "$db" ]; then   # the last one, to its end
  result=$("$gsw" proof run connect4:6x5 6 --workers 1 --hash 16 --db "$db" --resume 2>/dev/null)
  [ "$result" = "$whole" ] || bad "manager: the resumed run says '$result', the uninterrupted one '$whole'"
fi
echo "manager: $k kills survived"

# --- 2. a burst of solves writing the cache ---
db="$tmp/solves.sqlite"
k=0
while [ "$k" -lt "$kills" ]; do
  "$gsw" solve connect4:5x4 --batch "$data/crash/positions_5x4.txt" --db "$db" --threads 1 --hash 16 >/dev/null 2>&1 &
  pid=$!
  sleep "$(printf '0.%03d' $((20 + RANDOM % 250)))"
  snapshot "$db"
  sleep "$(printf '0.%03d' $((RANDOM % 50)))"
  kill -KILL $pid 2>/dev/null
  wait $pid 2>/dev/null
  k=$((k + 1)); survived=$((survived + 1))
  check_db "$db" "solves kill $k"
  [ $((k % 10)) -eq 0 ] && rm -f "$db" "$db-wal" "$db-shm"   # now and then from an empty cache
done
echo "solves: $k kills survived"

# --- 3. games being saved ---
db="$tmp/saved.sqlite"
for i in $(seq 1 40); do printf 'new connect4:5x4\n3\n2\nsave g%d\n4\nsave g%d\n' "$i" "$i"; done >"$tmp/save.in"
k=0
while [ "$k" -lt "$kills" ]; do
  "$gsw" shell --db "$db" --hash 16 <"$tmp/save.in" >/dev/null 2>&1 &
  pid=$!
  sleep "$(printf '0.%03d' $((20 + RANDOM % 200)))"
  sqlite3 "$db" "select name, moves from saved_game" >"$tmp/saved_before" 2>/dev/null || : >"$tmp/saved_before"
  snapshot "$db"
  kill -KILL $pid 2>/dev/null
  wait $pid 2>/dev/null
  k=$((k + 1)); survived=$((survived + 1))
  check_db "$db" "saves kill $k"
  while IFS='|' read -r name moves; do   # every game saved before the kill loads, moves and all
    printf 'load %s\nhistory\n' "$name" | "$gsw" shell --db "$db" >"$tmp/load" 2>&1 \
      || { bad "saves kill $k: the saved game $name does not load: $(head -c 200 "$tmp/load")"; lost=$((lost + 1)); }
  done <"$tmp/saved_before"
  [ $((k % 10)) -eq 0 ] && rm -f "$db" "$db-wal" "$db-shm"
done
echo "saves: $k kills survived"

echo "crash.sh: $survived kills survived; $checked rows committed before a kill checked, $lost lost; $fail failures"
[ "$fail" -eq 0 ]
