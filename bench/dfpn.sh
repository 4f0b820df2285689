#!/usr/bin/env bash
# df-pn against alpha-beta on the Connect Four reference sets: for each set
# (sampled), both solve every position to win/draw/loss in one batch each;
# prints how many df-pn finished within its node budget, how many agree with
# alpha-beta, and the ratios of mean time, mean nodes and nodes per second.
# Usage: bench/dfpn.sh [GSW_BINARY] [NODE_BUDGET]
set -eu
gsw=${1:-build/release/gsw}
budget=${2:-20000000}
data=tests/data/connect4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-11s %5s %6s %6s %12s %12s %12s %12s %7s %7s %7s\n' set n done agree ab_us dfpn_us ab_nodes dfpn_nodes t_ratio n_ratio nps_ratio
for spec in Test_L3_R1:1 Test_L2_R1:5 Test_L2_R2:20 Test_L1_R1:20; do
  set_=${spec%%:*} step=${spec##*:}
  awk -v s="$step" 'NR % s == 1 || s == 1 {print $1}' "$data/$set_" >"$tmp/in"
  "$gsw" solve connect4 --batch "$tmp/in" --wdl --threads 1 --hash 64 >"$tmp/ab" 2>/dev/null || true
  "$gsw" solve connect4 --batch "$tmp/in" --algo dfpn --threads 1 --hash 64 --nodes "$budget" >"$tmp/pn" 2>/dev/null || true
  # per line: MOVES SCORE NODES US; score signs compared
  paste -d' ' <(grep -v '^positions' "$tmp/ab") <(grep -v '^positions' "$tmp/pn") | awk -v set="$set_" '
    { n++; if (NF >= 8) { done++; s1 = ($2 > 0) - ($2 < 0); s2 = ($6 > 0) - ($6 < 0); if (s1 == s2) agree++;
        abn += $3; abt += $4; pnn += $7; pnt += $8 } }
    END { if (!done) done = 1;
      printf "%-11s %5d %6d %6d %12.1f %12.1f %12.1f %12.1f %7.2f %7.2f %7.2f\n", set, n, done, agree,
        abt / done, pnt / done, abn / done, pnn / done, pnt / abt, pnn / abn, (pnn / pnt) / (abn / abt) }'
done
