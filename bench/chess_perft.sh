#!/usr/bin/env bash
# Chess perft speed: gsw against Debian's Stockfish (and any other perft
# program), side by side, in one invocation, timed as whole processes.
#
#   bench/chess_perft.sh [REFERENCE_BINARY ...]
#
# Positions: the start position at depth 6 and Kiwipete at depth 5 (set
# CH_BENCH_DEPTHS="7 6" for others; RUNS=N repeats, default 3, best taken).
# gsw: `gsw perft chess FEN DEPTH` (one thread, no hash table, bulk
# counting at the last ply). Stockfish: `position fen F` / `go perft D`
# piped in, one thread, its own bulk counting. Each REFERENCE_BINARY runs
# as `BINARY FEN DEPTH` (the interface of ellxor/perft, a PEXT-based perft
# that uses every core) and its count is the number after "Result:" or
# "Nodes searched:", else its last number. Every count is checked against the others
# and against the published one; a mismatch exits 1.
#
# Ratios are reference time / gsw time: above 1, gsw is faster.
#
# References used for the closing note (built outside the repository):
#   fetch github:ellxor/perft, then
#   g++ -std=c++20 -O3 -fno-exceptions -fno-rtti -march=native src/unity_build.cc -o perft-ref
#   bench/chess_perft.sh /path/to/perft-ref
#
# gsw is build/release/gsw (made if missing), or $GSW; Stockfish is
# $STOCKFISH or /usr/games/stockfish (skipped if absent).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
gsw=${GSW:-$here/build/release/gsw}
if [ ! -x "$gsw" ]; then
  cmake -S "$here" -B "$here/build/release" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$here/build/release" -j2 --target gsw >/dev/null
fi
sf=${STOCKFISH:-/usr/games/stockfish}
[ -x "$sf" ] || { echo "note: no Stockfish at $sf (apt-get install stockfish): gsw alone" >&2; sf=""; }
runs=${RUNS:-3}
read -r d_start d_kiwi <<<"${CH_BENCH_DEPTHS:-6 5}"

start="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
kiwi="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
declare -A published=(
  ["start 5"]=4865609 ["start 6"]=119060324 ["start 7"]=3195901860
  ["kiwi 4"]=4085603 ["kiwi 5"]=193690690 ["kiwi 6"]=8031647685
)

now() { date +%s.%N; }
# best wall time of $runs runs of a command; its output's count in $count
timed() {
  local best="" t0 t1 out
  for _ in $(seq "$runs"); do
    t0=$(now); out=$("$@" 2>/dev/null); t1=$(now)
    local t; t=$(echo "$t1 - $t0" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
  done
  count=$(printf '%s\n' "$out" | grep -oE '(Result:|Nodes searched:)[^0-9]*[0-9]+' | grep -oE '[0-9]+$' | tail -1 || true)
  [ -n "$count" ] || count=$(printf '%s\n' "$out" | grep -oE '[0-9]+' | tail -1)
  secs=$best
}
sf_perft() { printf 'position fen %s\ngo perft %s\nquit\n' "$1" "$2" | "$sf"; }

status=0
printf '%-8s %5s %14s %10s' position depth nodes "gsw s"
[ -n "$sf" ] && printf ' %12s %9s' "stockfish s" "sf/gsw"
for r in "$@"; do printf ' %12s %9s' "$(basename "$r") s" "ref/gsw"; done
echo
for which in start kiwi; do
  if [ $which = start ]; then fen=$start d=$d_start; else fen=$kiwi d=$d_kiwi; fi
  timed "$gsw" perft chess "$fen" "$d"
  g_count=$count g_secs=$secs
  want=${published["$which $d"]:-}
  if [ -n "$want" ] && [ "$g_count" != "$want" ]; then echo "gsw: $which depth $d: $g_count, published $want" >&2; status=1; fi
  printf '%-8s %5s %14s %10.3f' "$which" "$d" "$g_count" "$g_secs"
  if [ -n "$sf" ]; then
    timed sf_perft "$fen" "$d"
    [ "$count" = "$g_count" ] || { echo "stockfish: $which depth $d: $count, gsw $g_count" >&2; status=1; }
    printf ' %12.3f %9.2f' "$secs" "$(echo "$secs / $g_secs" | bc -l)"
  fi
  for r in "$@"; do
    timed "$r" "$fen" "$d"
    [ "$count" = "$g_count" ] || { echo "$r: $which depth $d: $count, gsw $g_count" >&2; status=1; }
    printf ' %12.3f %9.2f' "$secs" "$(echo "$secs / $g_secs" | bc -l)"
  done
  echo
done
exit $status
