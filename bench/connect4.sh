#!/usr/bin/env bash
# Connect Four: gsw's solver against a reference solver, side by side, in one
# invocation. Fetches nothing.
#
#   bench/connect4.sh REFERENCE_BINARY [--quick] [--empty]
#
# REFERENCE_BINARY is Pascal Pons's command-line solver (c4solver, built
# without its opening book: no 7x6.book in the working directory). If its
# directory also holds its sources (Solver.hpp), bench/pons_harness.cpp is
# built against them to time the solve call alone with the table cleared
# before each position and to count its nodes.
# Protocols, each the same for both programs:
#   process: the whole program over the whole file (start-up included, the
#            table kept from one position to the next), mean ms per position;
#   solve:   the solve call only, table cleared before each position: mean
#            microseconds and mean nodes per position (needs the sources).
# The beginning sets are sampled (--quick samples harder; GSW_BENCH_SETS="SET:STEP:LIMIT ..."
# picks sets and samples). --empty also times
# the empty 7x6 board for both, and for Steininger's solver when
# STEININGER_BINARY is set (run as "$STEININGER_BINARY $STEININGER_ARGS").
# gsw uses --hash 80 (MB; the reference's table holds 2^24 entries of 5
# bytes, about 80 MB) and one thread, except on the empty board (all cores,
# GSW_EMPTY_HASH MB, default 1024).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
ref=${1:?usage: bench/connect4.sh REFERENCE_BINARY [--quick] [--empty]}
shift
quick=0 empty=0
for a in "$@"; do
  case $a in --quick) quick=1 ;; --empty) empty=1 ;; *) echo "unknown option $a" >&2; exit 2 ;; esac
done
ref=$(cd "$(dirname "$ref")" && pwd)/$(basename "$ref")
[ -x "$ref" ] || { echo "not an executable: $ref" >&2; exit 2; }
gsw=$here/build/release/ui/gsw
[ -x "$gsw" ] || make -C "$here" release >/dev/null
data=$here/tests/data/connect4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"   # no opening book here

harness=""
srcdir=$(dirname "$ref")
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

printf "%-11s %5s | %-28s | %-28s | %s\n" set n "process ms/pos: gsw ref ratio" "solve us/pos: gsw ref ratio" "nodes/pos: gsw ref ratio"
for spec in $sets; do
  IFS=: read -r name step limit <<<"$spec"
  awk -v s="$step" -v l="$limit" '(NR - 1) % s == 0 && k < l { print; k++ }' "$data/$name" >lines
  cut -d' ' -f1 lines >moves
  n=$(wc -l <lines)
  t0=$(now); "$gsw" solve connect4 --batch lines --hash 80 --threads 1 >gsw_proc; t1=$(now)
  "$ref" <moves >ref_proc 2>/dev/null; t2=$(now)
  # the reference's scores must agree with the file
  paste -d' ' moves <(awk '{ print $NF }' ref_proc) | cmp -s - <(awk '{ print $1, $2 }' lines) \
    || echo "warning: reference scores differ from $name" >&2
  gp=$(awk -v t=$(( t1 - t0 )) -v n="$n" 'BEGIN { printf "%.3f", t / 1e6 / n }')
  rp=$(awk -v t=$(( t2 - t1 )) -v n="$n" 'BEGIN { printf "%.3f", t / 1e6 / n }')
  "$gsw" solve connect4 --batch lines --hash 80 --threads 1 --clear-hash | grep -v '^positions' >gsw_solve
  gs=$(mean_col 4 gsw_solve); gn=$(mean_col 3 gsw_solve)
  rs=nan rn=nan
  if [ -n "$harness" ]; then
    "$harness" <lines >ref_solve
    rs=$(mean_col 4 ref_solve); rn=$(mean_col 3 ref_solve)
  fi
  printf "%-11s %5d | %8s %8s %8s   | %9s %9s %6s   | %9s %9s %6s\n" "$name" "$n" "$gp" "$rp" "$(ratio "$gp" "$rp")" \
    "$gs" "$rs" "$(ratio "$gs" "$rs")" "$gn" "$rn" "$(ratio "$gn" "$rn")"
done
echo "(ratio = gsw / reference; below 1 means gsw is faster)"

if [ $empty = 1 ]; then
  echo
  echo "empty 7x6 board (first player wins on stone 41: score 1)"
  t0=$(now); "$gsw" solve connect4 "" --hash "${GSW_EMPTY_HASH:-1024}" --no-cache --json >gsw_empty; t1=$(now)
  echo "gsw:         $(awk -v t=$(( t1 - t0 )) 'BEGIN { printf "%.1f s", t / 1e9 }')  $(cat gsw_empty)"
  t0=$(now); echo "" | "$ref" >ref_empty 2>/dev/null; t1=$(now)
  ge=$(( t1 - t0 ))
  echo "reference:   $(awk -v t="$ge" 'BEGIN { printf "%.1f s", t / 1e9 }')  score $(awk '{ print $NF }' ref_empty)"
  if [ -n "${STEININGER_BINARY:-}" ]; then
    t0=$(now); $STEININGER_BINARY ${STEININGER_ARGS:-} </dev/null >st_empty 2>&1 || true; t1=$(now)
    echo "steininger:  $(awk -v t=$(( t1 - t0 )) 'BEGIN { printf "%.1f s", t / 1e9 }')  $(tr '\r' '\n' <st_empty | grep -E 'Final|Total' | tr -s ' ' | tr '\n' ' ')"
  fi
fi
