#!/usr/bin/env bash
# Checkers heuristic engine benchmark (issue 13): nodes per second and the
# depth the heuristic alpha-beta completes in one second from the opening,
# then nodes and nodes per second to fixed depths from the opening and three
# middlegame positions, with each row's nodes per second as a ratio to the
# opening's (the reference row, measured in the same invocation). Nodes per
# second are per CPU second (steady on a shared machine); the depth in one
# second is by the wall clock, as a player sees it.
#
#   bench/checkers_engine.sh [BUILD_DIR]     # default build/release; about 10 s
# Run from the repository root after `make release`.
set -eu
bin=${1:-build/release}/bench/bench_checkers_engine
[ -x "$bin" ] || { echo "build first: make release (no $bin)" >&2; exit 1; }

printf '%-34s %6s %11s %8s %8s %11s %6s\n' position depth nodes wall_ms cpu_ms nps ratio
ref=""
row() {   # NAME LIMIT POSITION
  local out
  out=$("$bin" "$2" 64 "$3") || { echo "$1: failed" >&2; return; }
  # depth D nodes N wall_ms W cpu_ms C nps R score S best M
  set -- "$1" $out
  local nps=${11}
  [ -n "$ref" ] || ref=$nps
  printf '%-34s %6s %11s %8s %8s %11s %6.2f\n' "$1" "$3" "$5" "$7" "$9" "$nps" \
    "$(awk -v a="$nps" -v b="$ref" 'BEGIN { print a / b }')"
}
row "opening, to depth 15 (reference)" d15 ""
for i in 1 2 3; do row "opening, 1 s (run $i)" 1000 ""; done
row "middlegame A, to depth 15" d15 "W:W18,21,22,23,24,25,26,27,28,29,31,32:B1,2,3,4,5,6,7,8,10,11,14,15"
row "middlegame B, to depth 15" d15 "B:W17,20,22,24,26,27,28,30,31:B2,3,5,6,9,10,11,13,16"
row "endgame with kings, to depth 15" d15 "W:W19,21,24,26,27,K2:B5,8,11,13,16,K30"
