#!/usr/bin/env bash
# The retrograde engine's rate by thread count (issue 34): one checkers unit
# rebuilt (distance to win, with its win/draw/loss) at 1, 2, 4, 8 and 16
# threads, its prerequisites built once first. For each: wall time,
# positions a second, the phases' wall times, and how the work divided
# between the threads (nodes each did, the busiest and idlest thread's busy
# time, and the time threads spent waiting at the ends of phases: the only
# wait, since work is handed out by one atomic add). Where the machine has
# fewer cores than threads the rate stops growing, but the division shows
# whether the work would spread.
#
#   bench/egdb_threads.sh [--unit SLICE] [--threads "1 2 4 8 16"] [--dir DIR] [BUILD_DIR]
# between_s: the engine's passes between its phases (sorting the exits by
# distance, the frontiers, the values out); write_s: encoding, compressing
# and syncing the files. The rest of wall_s is opening the prerequisites.
# SLICE defaults to 3K0C-3K0C.bxwx (18,123,840 positions; 6 pieces, about 20 s
# of prerequisites); 4K0C-3K0C.bxwx is a 7-piece unit of 235,609,920
# (its prerequisites take a few minutes; keep them with --dir). Run from the
# repository root after `make release`. Needs jq.
set -eu
unit=3K0C-3K0C.bxwx
threads="1 2 4 8 16"
keep=
while [ $# -gt 0 ]; do
  case $1 in
    --unit) unit=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --dir) keep=$2; shift 2 ;;
    *) break ;;
  esac
done
bdir=${1:-build/release}
gsw=$bdir/gsw
[ -x "$gsw" ] || { echo "build first: make release (no $gsw)" >&2; exit 1; }
command -v jq >/dev/null || { echo "needs jq" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dir=${keep:-$tmp/egdb}
echo "prerequisites of $unit in $dir ..." >&2
"$gsw" egdb build checkers "$unit" --metric dtw --dir "$dir" >/dev/null 2>&1
echo "cores here: $(nproc)"
printf '%7s %9s %12s %9s %9s %9s %9s %9s %12s %12s %10s\n' threads wall_s pos_per_s init_s prop_s check_s between_s write_s busy_min_s busy_max_s wait_s
for t in $threads; do
  rm -f "$dir"/checkers/*/"$unit".egdb
  "$gsw" egdb build checkers "$unit" --metric dtw --dir "$dir" --threads "$t" --json 2>/dev/null >"$tmp/out"
  jq -r --arg t "$t" '
    . as $r | .engine as $e |
    [$t, (.time_ms / 1000), (.positions / (.time_ms / 1000)), ($e.init_ms / 1000), ($e.propagate_ms / 1000),
     ($e.check_ms / 1000), ((.solve_ms - $e.init_ms - $e.propagate_ms - $e.check_ms) / 1000), (.write_ms / 1000),
     ([$e.threads[].busy_ms] | min / 1000), ([$e.threads[].busy_ms] | max / 1000),
     ([$e.threads[].wait_ms] | add / 1000)] | @tsv' "$tmp/out" |
    awk -F'\t' '{ printf "%7d %9.2f %12.0f %9.2f %9.2f %9.2f %9.2f %9.2f %12.2f %12.2f %10.2f\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11 }'
  jq -r '"        nodes per thread: " + ([.engine.threads[].nodes | tostring] | join(" "))' "$tmp/out"
done
