#!/usr/bin/env bash
# Connect Four: gsw's solver against Pascal Pons's and Christophe
# Steininger's, side by side in one invocation, interleaved, best of several
# runs. Fetches nothing: the references are built outside the repo.
#
#   bench/connect4.sh PONS_BINARY [STEININGER_BINARY [STEININGER_WEAK_BINARY]]
#                     [--quick] [--empty] [--runs N] [--empty-runs N]
#
# PONS_BINARY: Pons's c4solver (run where no 7x6.book is, so without his
# book). STEININGER_BINARY: Steininger's c4 as built (strong mode, his
# defaults: all cores, 1 GB); STEININGER_WEAK_BINARY: the same built with
# SOLVE_STRONGLY = false in src/c4.cpp (win/draw/loss only). "-" skips one.
#
# Protocols, the same for every program:
#   sets:  each reference test set (tests/data/connect4), as whole
#          processes: `gsw solve connect4 --batch FILE --hash 64` (a fresh
#          cache file each run, no shipped book: GSW_BOOKS=) against Pons's
#          solver reading the same move strings on stdin; best of --runs
#          (default 3), A B A B. Pons's scores are checked against the file.
#   solve: when PONS_BINARY's folder holds his sources, bench/pons_harness.cpp
#          is built against them: the solve call alone, the table cleared
#          before each position, mean microseconds and nodes per position,
#          against `gsw ... --clear-hash` (gsw's own timing of the call).
#   empty: (--empty) the empty 7x6 board, exact: `gsw solve connect4 ""
#          --hash 1024 --threads 2 --json` (fresh cache, no book) against
#          Steininger's strong binary, and `--wdl` against his weak one,
#          whole processes, best of --empty-runs (default 1), interleaved.
# The beginning sets are sampled (--quick samples harder; GSW_BENCH_SETS=
# "SET:STEP:LIMIT ..." picks sets and samples). GSW_BINARY overrides gsw.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
usage="usage: bench/connect4.sh PONS_BINARY [STEININGER_BINARY [STEININGER_WEAK_BINARY]] [--quick] [--empty] [--runs N] [--empty-runs N]"
quick=0 empty=0 runs=3 eruns=1
bins=()
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --empty) empty=1 ;;
    --runs) runs=${2:?$usage}; shift ;;
    --empty-runs) eruns=${2:?$usage}; shift ;;
    -*) [ "$1" = - ] && bins+=("-") || { echo "unknown option $1" >&2; echo "$usage" >&2; exit 2; } ;;
    *) bins+=("$1") ;;
  esac
  shift
done
[ ${#bins[@]} -ge 1 ] || { echo "$usage" >&2; exit 2; }
abspath() { [ "$1" = - ] && echo - || echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
pons=$(abspath "${bins[0]}")
stein=$(abspath "${bins[1]:--}")
weak=$(abspath "${bins[2]:--}")
for b in "$pons" "$stein" "$weak"; do
  [ "$b" = - ] || [ -x "$b" ] || { echo "not an executable: $b" >&2; exit 2; }
done
gsw=${GSW_BINARY:-$here/build/release/gsw}
[ -x "$gsw" ] || make -C "$here" release >/dev/null
data=$here/tests/data/connect4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"   # no opening book here
export GSW_BOOKS=
export GSW_DB=$work/cache.sqlite

harness=""
srcdir=$(dirname "$pons")
if [ -f "$srcdir/Solver.hpp" ] && [ -f "$srcdir/Solver.cpp" ]; then
  g++ -std=c++11 -O3 -DNDEBUG -I"$srcdir" "$here/bench/pons_harness.cpp" "$srcdir/Solver.cpp" -o harness
  harness=$work/harness
fi

# set:sample-step:limit
if [ -n "${GSW_BENCH_SETS:-}" ]; then
  sets=$GSW_BENCH_SETS   # e.g. "Test_L3_R1:1:1000 Test_L1_R1:1:1000"
elif [ $quick = 1 ]; then
  sets="Test_L3_R1:1:1000 Test_L2_R1:1:1000 Test_L2_R2:5:200 Test_L1_R1:1:1000 Test_L1_R2:20:50 Test_L1_R3:100:5"
else
  sets="Test_L3_R1:1:1000 Test_L2_R1:1:1000 Test_L2_R2:1:1000 Test_L1_R1:1:1000 Test_L1_R2:5:200 Test_L1_R3:100:10"
fi

now() { date +%s%N; }
mean_col() { awk -v c="$1" '{ s += $c; n++ } END { if (n) printf "%.1f", s / n; else print "nan" }' "$2"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "nan" }'; }
# best WALL_NS_SO_FAR NEW_NS: the smaller
best() { [ "$1" = 0 ] || [ "$2" -lt "$1" ] && echo "$2" || echo "$1"; }
fresh() { rm -f "$GSW_DB" "$GSW_DB-wal" "$GSW_DB-shm"; }

echo "process: best of $runs whole runs (gsw --hash 64, fresh cache, no book; Pons on stdin)"
printf "%-11s %5s | %-30s | %-28s | %s\n" set n "process ms/pos: gsw pons ratio" "solve us/pos: gsw pons ratio" "nodes/pos: gsw pons ratio"
for spec in $sets; do
  IFS=: read -r name step limit <<<"$spec"
  awk -v s="$step" -v l="$limit" '(NR - 1) % s == 0 && k < l { print; k++ }' "$data/$name" >lines
  cut -d' ' -f1 lines >moves
  n=$(wc -l <lines)
  gbest=0 rbest=0
  for ((r = 0; r < runs; r++)); do
    fresh
    t0=$(now); "$gsw" solve connect4 --batch lines --hash 64 >gsw_proc; t1=$(now)
    "$pons" <moves >ref_proc 2>/dev/null; t2=$(now)
    gbest=$(best "$gbest" $(( t1 - t0 )))
    rbest=$(best "$rbest" $(( t2 - t1 )))
  done
  # gsw checks its scores itself (a mismatch fails the batch); Pons's against the file
  paste -d' ' moves <(awk '{ print $NF }' ref_proc) | cmp -s - <(awk '{ print $1, $2 }' lines) \
    || echo "warning: Pons's scores differ from $name" >&2
  gp=$(awk -v t="$gbest" -v n="$n" 'BEGIN { printf "%.3f", t / 1e6 / n }')
  rp=$(awk -v t="$rbest" -v n="$n" 'BEGIN { printf "%.3f", t / 1e6 / n }')
  fresh
  "$gsw" solve connect4 --batch lines --hash 64 --no-cache --clear-hash | grep -v '^positions' >gsw_solve
  gs=$(mean_col 4 gsw_solve); gn=$(mean_col 3 gsw_solve)
  rs=nan rn=nan
  if [ -n "$harness" ]; then
    "$harness" <lines >ref_solve
    rs=$(mean_col 4 ref_solve); rn=$(mean_col 3 ref_solve)
  fi
  printf "%-11s %5d | %8s %8s %8s     | %9s %9s %6s   | %9s %9s %6s\n" "$name" "$n" "$gp" "$rp" "$(ratio "$gp" "$rp")" \
    "$gs" "$rs" "$(ratio "$gs" "$rs")" "$gn" "$rn" "$(ratio "$gn" "$rn")"
done
echo "(ratio = gsw / Pons; below 1 means gsw is faster)"

if [ $empty = 1 ]; then
  echo
  echo "empty 7x6 board, whole processes, best of $eruns (first player wins on stone 41: score +1)"
  sec() { awk -v t="$1" 'BEGIN { printf "%.1f", t / 1e9 }'; }
  for mode in exact wdl; do
    ref=$stein; [ $mode = wdl ] && ref=$weak
    gflag=""; [ $mode = wdl ] && gflag=--wdl
    gbest=0 sbest=0
    for ((r = 0; r < eruns; r++)); do
      fresh
      t0=$(now); "$gsw" solve connect4 "" --hash 1024 --threads 2 $gflag --json >gsw_empty 2>gsw_empty.err; t1=$(now)
      gbest=$(best "$gbest" $(( t1 - t0 )))
      if [ "$ref" != - ]; then
        t0=$(now); "$ref" </dev/null >st_empty 2>&1 || true; t1=$(now)
        sbest=$(best "$sbest" $(( t1 - t0 )))
      fi
    done
    gv=$(sed -E 's/.*"value":"([a-z]*)".*"plies":([0-9]*).*"nodes":([0-9]*).*/\1 \2, \3 nodes/' gsw_empty)
    sv=$( [ "$ref" != - ] && tr '\r' '\n' <st_empty | grep -E 'Final' | tr -s ' ' | tr '\n' ' ' || echo "-")
    printf "%-5s gsw %7s s (%s) | Steininger %7s s (%s) | ratio %s\n" "$mode" "$(sec "$gbest")" "$gv" \
      "$( [ "$ref" != - ] && sec "$sbest" || echo -)" "$sv" "$( [ "$ref" != - ] && ratio "$gbest" "$sbest" || echo -)"
  done
fi
