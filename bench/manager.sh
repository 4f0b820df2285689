#!/usr/bin/env bash
# The proof-tree manager on Connect Four from the empty board: 6x5 to the
# end, and 7x6 for a time budget (resumable: run it again to go on from the
# stored tree). Prints time, tree size, leaves and the manager's overhead
# (bookkeeping and storage against solver time), from gsw's own report.
# Usage: bench/manager.sh [GSW_BINARY] [SECONDS_FOR_7x6] [WORKERS]
set -u
gsw=${1:-build/release/gsw}
secs=${2:-600}
workers=${3:-$(nproc)}
db=${GSW_BENCH_DB:-/tmp/gsw-manager-bench.sqlite}
echo "cache (holds the 7x6 tree between runs): $db"
for b in 6x5 7x6; do
  extra=""
  [ "$b" = 7x6 ] && extra="--time $((secs * 1000)) --resume"
  start=$(date +%s.%N)
  "$gsw" proof run connect4:$b "" --workers "$workers" --hash 512 --db "$db" $extra >/tmp/gsw-mb.out 2>/tmp/gsw-mb.err
  rc=$?
  end=$(date +%s.%N)
  printf '\nconnect4:%s  exit %d  %.1f s wall\n' "$b" "$rc" "$(echo "$end - $start" | bc)"
  grep -E "^(win\?|at least a draw\?):|resuming" /tmp/gsw-mb.err
  tail -1 /tmp/gsw-mb.err | grep -q "s: t=" && tail -1 /tmp/gsw-mb.err
  cat /tmp/gsw-mb.out
done
