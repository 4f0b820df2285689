#!/usr/bin/env bash
# Chess tablebases (issue 16): build time, CPU, peak memory and size on disk
# of each ending, distance to mate, each in a fresh folder (so the times
# include what the ending needs: KPK builds KQK, KRK, KBK and KNK too), then
# the whole set of 3-piece and 4-piece endings the issue names together.
# The published longest mates are checked on the way (FACTS.md). No public
# program runs beside it: Syzygy and Nalimov tables are probed, not built,
# by the engines Debian ships.
#
#   bench/chess_egdb.sh [--kqkr] [BUILD_DIR]     # default build/release
# Run from the repository root after `make release`. Uses a temporary folder.
set -eu
kqkr=0
[ "${1:-}" = "--kqkr" ] && { kqkr=1; shift; }
dir=${1:-build/release}
gsw=$dir/gsw
[ -x "$gsw" ] || { echo "build first: make release (no $gsw)" >&2; exit 1; }
command -v jq >/dev/null || { echo "needs jq" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-8s %10s %10s %10s %10s %10s %14s %8s %8s\n' ending wall_s cpu_s peak_MB disk_MB files positions mate want
declare -A want=([KQK]=10 [KRK]=16 [KPK]=28 [KBBK]=19 [KBNK]=33 [KQKR]=35)
run() {   # ENDING
  local e=$1 d=$tmp/$1
  /usr/bin/time -f "%e %U %S %M" -o "$tmp/t" "$gsw" egdb stats chess "$e" --dir "$d" --json >"$tmp/out" 2>"$tmp/err" ||
    { echo "$e: failed: $(tail -1 "$tmp/err")" >&2; return 1; }
  read -r wall usr sys rss <"$tmp/t"
  printf '%-8s %10.1f %10.1f %10.0f %10.1f %10d %14s %8s %8s\n' "$e" "$wall" \
    "$(awk -v a="$usr" -v b="$sys" 'BEGIN{print a+b}')" "$(awk -v k="$rss" 'BEGIN{print k/1024}')" \
    "$(du -sk "$d" | awk '{print $1/1024}')" "$(find "$d" -name '*.egdb' | wc -l)" \
    "$(jq -r .positions "$tmp/out")" "$(jq -r .longest_mate_moves "$tmp/out")" "${want[$e]}"
}
for e in KQK KRK KPK KBBK KBNK; do run "$e"; done
[ "$kqkr" -eq 1 ] && run KQKR
echo
echo "longest mates: FACTS.md (KQK 10, KRK 16, KBBK 19, KBNK 33, KPK 28 moves); KQKR's 35 is the commonly published figure"
