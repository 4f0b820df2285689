#!/usr/bin/env bash
# Peg solitaire benchmark: gsw's times (and peak memory) for the issue's
# goals, and, with --reference, robinhouston/solitaire's `seq` (reachable
# English positions per jump count) built under /tmp, side by side with
# gsw's count of the same positions, with ratios.
#
#   bench/solitaire.sh                      # gsw only (about 1.5 minutes)
#   bench/solitaire.sh --reference DIR      # DIR: a checkout of robinhouston/solitaire
#                                           # (about 20 more minutes, ~14 GB)
# Run from the repository root after `make release`.
set -eu
gsw=${GSW_BIN:-build/release/gsw}
ref=""
if [ "${1:-}" = "--reference" ]; then ref=${2:?--reference DIR}; fi
[ -x "$gsw" ] || { echo "build first: make release" >&2; exit 1; }
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (GNU time)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run NAME GOAL_SECONDS -- command...: one table row (wall seconds, peak MB, goal)
row() {
  local name=$1 goal=$2; shift 3
  /usr/bin/time -f "%e %M" -o "$tmp/t" "$@" >"$tmp/out" 2>"$tmp/err" || { echo "$name: failed: $(tail -1 "$tmp/err")"; return; }
  read -r s kb <"$tmp/t"
  printf "%-44s %10.3f s %8.0f MB   goal < %s s  %s\n" "$name" "$s" "$((kb / 1024))" "$goal" \
    "$(awk -v s="$s" -v g="$goal" 'BEGIN { print (s < g) ? "ok" : "MISSED" }')"
  echo "$s" >"$tmp/last_s"
  echo "$kb" >"$tmp/last_kb"
}

echo "gsw peg solitaire benchmark ($(nproc) cores; $(uname -m)); one core each"
row "solve english (centre to centre)" 0.010 -- "$gsw" solve solitaire:english --json
grep -o '"time_ms":[0-9.]*' "$tmp/out" | sed 's/^/    search only: /'
row "prove french centre impossible" 1 -- "$gsw" solve solitaire:french --json
row "count english solutions" 30 -- "$gsw" count solitaire:english --solutions
sed 's/^/    /' "$tmp/out"
row "fewest moves, english (proof)" 60 -- "$gsw" solve solitaire:english --min-moves --json
grep -o '"moves":[0-9]*' "$tmp/out" | sed 's/^/    /'
row "count english reachable positions" 1260 -- "$gsw" count solitaire:english --positions
tail -1 "$tmp/out" | sed 's/^/    /'
gs=$(cat "$tmp/last_s") gkb=$(cat "$tmp/last_kb")

if [ -n "$ref" ]; then
  rm -rf /tmp/gsw-ref-solitaire && mkdir -p /tmp/gsw-ref-solitaire
  cp "$ref"/*.c "$ref"/*.h "$ref"/Makefile /tmp/gsw-ref-solitaire/
  # its Makefile builds with -g only (as published); -fcommon: moves.h defines a global that GCC 10+ rejects twice
  make -s -C /tmp/gsw-ref-solitaire seq CFLAGS="-g -fcommon" >/dev/null
  row "reference: robinhouston/solitaire seq" 99999 -- /tmp/gsw-ref-solitaire/seq
  rs=$(cat "$tmp/last_s") rkb=$(cat "$tmp/last_kb")
  awk -v gs="$gs" -v rs="$rs" -v gkb="$gkb" -v rkb="$rkb" \
    'BEGIN { printf "reachable positions: gsw %.1f s, %.0f MB; reference %.1f s, %.0f MB; time ratio %.1fx, memory ratio %.1fx\n", gs, gkb / 1024, rs, rkb / 1024, rs / gs, rkb / gkb }'
else
  echo "reference (issue figure, same machine kind): robinhouston/solitaire seq, about 21 min and 13.7 GB"
  awk -v gs="$gs" -v gkb="$gkb" \
    'BEGIN { printf "reachable positions: gsw %.1f s, %.0f MB; ratio to 21 min: %.0fx faster, to 13.7 GB: %.0fx less memory\n", gs, gkb / 1024, 1260 / gs, 13.7 * 1024 * 1024 / gkb }'
fi
