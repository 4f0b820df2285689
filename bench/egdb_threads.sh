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
#   bench/egdb_threads.sh [--unit SLICE] [--threads "1 2 4 8 16"] [--dir DIR] [--memory GB]
#                         [--vs OTHER_GSW [--runs N]] [BUILD_DIR]
# Each rebuild first deletes the files of the unit's slice and of its
# colour-reversed partner (4K0C-3K0C.bxwx and 3K0C-4K0C.bxwx), in both
# metrics. pos_per_s is the unit's positions over the process's wall time.
# --memory GB is passed to every build (issue 56 item 3 measures at 5).
# --vs OTHER_GSW: another build of gsw rebuilt the same way in turn (A B A B,
# N pairs at each thread count, default 3), each pair's wall-time ratio
# printed, and their median: A is BUILD_DIR's gsw, B OTHER_GSW.
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
keep= memory= other= runs=3
while [ $# -gt 0 ]; do
  case $1 in
    --unit) unit=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --dir) keep=$2; shift 2 ;;
    --memory) memory=$2; shift 2 ;;
    --vs) other=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
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
mem=()
[ -n "$memory" ] && mem=(--memory "$memory")
"$gsw" egdb build checkers "$unit" --metric dtw --dir "$dir" "${mem[@]}" >/dev/null 2>&1
# the colour-reversed partner: the two sides' materials and rows swapped
partner=$(echo "$unit" | sed -E 's/^([0-9]+K[0-9]+C)-([0-9]+K[0-9]+C)\.b(.)w(.)$/\2-\1.b\4w\3/')
clear_unit() { rm -f "$dir"/checkers/*/"$unit".egdb "$dir"/checkers/*/"$partner".egdb; }
# one rebuild by GSW at T threads: its --json in $tmp/out, the process's wall seconds on stdout
rebuild() {
  local g=$1 t=$2 s e
  clear_unit
  s=$(date +%s.%N)
  "$g" egdb build checkers "$unit" --metric dtw --dir "$dir" --threads "$t" "${mem[@]}" --json 2>/dev/null >"$tmp/out"
  e=$(date +%s.%N)
  awk -v s="$s" -v e="$e" 'BEGIN { printf "%.3f\n", e - s }'
}
echo "cores here: $(nproc)"
if [ -n "$other" ]; then
  [ -x "$other" ] || { echo "no such gsw: $other" >&2; exit 1; }
  printf '%7s %5s %10s %10s %8s %12s %12s\n' threads pair A_wall_s B_wall_s A/B A_pos_per_s B_pos_per_s
  for t in $threads; do
    : >"$tmp/ratios"
    for r in $(seq 1 "$runs"); do
      a=$(rebuild "$gsw" "$t"); n=$(jq .positions "$tmp/out")
      b=$(rebuild "$other" "$t")
      awk -v t="$t" -v r="$r" -v a="$a" -v b="$b" -v n="$n" 'BEGIN {
        printf "%7d %5d %10.2f %10.2f %8.4f %12.0f %12.0f\n", t, r, a, b, a / b, n / a, n / b }'
      awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f\n", a / b }' >>"$tmp/ratios"
    done
    sort -g "$tmp/ratios" | awk -v t="$t" '{ x[NR] = $1 } END {
      m = NR % 2 ? x[(NR + 1) / 2] : (x[NR / 2] + x[NR / 2 + 1]) / 2
      printf "%7d median A/B %.4f (min %.4f, max %.4f, %d pairs)\n", t, m, x[1], x[NR], NR }'
  done
  exit 0
fi
printf '%7s %9s %12s %9s %9s %9s %9s %9s %12s %12s %10s\n' threads wall_s pos_per_s init_s prop_s check_s between_s write_s busy_min_s busy_max_s wait_s
for t in $threads; do
  wall=$(rebuild "$gsw" "$t")
  jq -r --arg t "$t" --arg w "$wall" '
    . as $r | .engine as $e |
    [$t, ($w | tonumber), (.positions / ($w | tonumber)), ($e.init_ms / 1000), ($e.propagate_ms / 1000),
     ($e.check_ms / 1000), ((.solve_ms - $e.init_ms - $e.propagate_ms - $e.check_ms) / 1000), (.write_ms / 1000),
     ([$e.threads[].busy_ms] | min / 1000), ([$e.threads[].busy_ms] | max / 1000),
     ([$e.threads[].wait_ms] | add / 1000)] | @tsv' "$tmp/out" |
    awk -F'\t' '{ printf "%7d %9.2f %12.0f %9.2f %9.2f %9.2f %9.2f %9.2f %12.2f %12.2f %10.2f\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11 }'
  jq -r '"        nodes per thread: " + ([.engine.threads[].nodes | tostring] | join(" "))' "$tmp/out"
done
