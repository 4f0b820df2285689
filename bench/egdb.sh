#!/usr/bin/env bash
# Checkers endgame databases (issue 14): build times and peak memory for
# every slice of 1-5 pieces, win/draw/loss and distance to win (target:
# under 5 minutes on 2 cores), optionally of 1-6 pieces win/draw/loss
# (--six; target: under 45 minutes), then the probe rate from a cold and a
# warm block cache (target: over a million a second). Published builders
# for comparison (no public program to run beside it): Cake built the 6-piece
# databases in a few hours in 2002, KingsRow in a couple of hours.
#
#   bench/egdb.sh [--six] [BUILD_DIR]      # default build/release
# Run from the repository root after `make release`. Uses a temporary folder.
set -eu
six=0
[ "${1:-}" = "--six" ] && { six=1; shift; }
dir=${1:-build/release}
gsw=$dir/gsw
probe=$dir/bench/bench_egdb_probe
[ -x "$gsw" ] && [ -x "$probe" ] || { echo "build first: make release (no $gsw or $probe)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-34s %10s %10s %12s %10s\n' build wall_s cpu_s peak_MB disk_MB
run() {   # NAME DIR ARGS...
  local name=$1 d=$2; shift 2
  /usr/bin/time -f "%e %U %S %M" -o "$tmp/t" "$gsw" egdb build checkers "$@" --dir "$d" >/dev/null 2>"$tmp/err" ||
    { echo "$name: failed: $(tail -1 "$tmp/err")" >&2; return 1; }
  read -r wall usr sys rss <"$tmp/t"
  printf '%-34s %10.1f %10.1f %12.0f %10.0f\n' "$name" "$wall" "$(awk -v a="$usr" -v b="$sys" 'BEGIN{print a+b}')" \
    "$(awk -v k="$rss" 'BEGIN{print k/1024}')" "$(du -sm "$d" | cut -f1)"
}
run "1-5 pieces, wld" "$tmp/wld" --pieces 5 --metric wld
run "1-5 pieces, dtw (writes wld too)" "$tmp/dtw" --pieces 5 --metric dtw
[ "$six" -eq 1 ] && run "1-6 pieces, wld" "$tmp/wld6" --pieces 6 --metric wld
echo
echo "probes (one thread, random 5-piece positions, either side to move, 1 GB block cache):"
"$probe" "$tmp/dtw" 5 2000000 1024
