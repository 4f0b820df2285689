#!/usr/bin/env bash
# The analysis pane's time to its first and last value on three positions
# per game (bench/pane_time.c), no cache, this machine's cores.
# Usage: bench/pane_time.sh [CAP_MS] [OTHER_BENCH_PANE_TIME]
# With a second program (the same bench built from another commit), the two
# run in turn, A B A B, and the table gives each one's best of two runs.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
a=$here/build/release/bench/bench_pane_time
[ -x "$a" ] || cmake --build "$here/build/release" --target bench_pane_time -j2 >/dev/null
cap=${1:-20000}
b=${2:-}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
"$a" "$cap" >a1
if [ -z "$b" ]; then cat a1; exit 0; fi
"$b" "$cap" >b1
"$a" "$cap" >a2
"$b" "$cap" >b2
# the proven count is the last field, kept aside; "(cap)": the job was stopped at the cap
for f in a1 a2 b1 b2; do awk 'NR > 1 { s = ($0 ~ /stopped/) ? " (cap)" : ""; sub(/ \(stopped at the cap\)/, ""); pr = $NF; $NF = ""; print $0 "|" pr s }' "$f" >"$f.t"; done
printf '%-20s %-58s %12s %12s %12s %12s %s\n' game position "first this" "first other" "last this" "last other" "proven this/other"
paste -d'#' a1.t a2.t b1.t b2.t | awk -F'#' '{
  for (k = 1; k <= 4; k++) { split($k, p, "|"); n = split(p[1], w, " "); F[k] = w[n-1] + 0; L[k] = w[n] + 0; P[k] = p[2]; head = "" ; for (i = 1; i <= n - 2; i++) head = head w[i] " "; H = head }
  split(H, g, " "); pos = substr(H, length(g[1]) + 2); sub(/ $/, "", pos)
  fa = F[1] < F[2] ? F[1] : F[2]; la = L[1] < L[2] ? L[1] : L[2]; fb = F[3] < F[4] ? F[3] : F[4]; lb = L[3] < L[4] ? L[3] : L[4]
  printf "%-20s %-58s %12.1f %12.1f %12.1f %12.1f %s / %s\n", g[1], pos, fa, fb, la, lb, P[1], P[3] }'
