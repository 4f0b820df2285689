#!/usr/bin/env bash
# Payne's Fourth Position (1756) from the 7-piece perfect-play databases
# (opt-in, hours on 2 cores; resumable): Black kings on 20 and 23, men on
# 21 and 22; White kings on 31 and 32, a man on 30. Trice & Dodgen: a win in
# 81 plies with Black to move, a draw with White to move (the published
# line replays legally with either a man or a king on 21 and on 22; these
# values single out two men). Builds what the position reaches in
# GSW_PAYNE_DIR (default: a folder kept between runs, so a stopped run
# resumes), then probes. Needs GSW_BIN and jq.
set -u
gsw=${GSW_BIN:?}
command -v jq >/dev/null || { echo "no jq"; exit 77; }
dir=${GSW_PAYNE_DIR:-${TMPDIR:-/tmp}/gsw-payne-egdb}
b='B:WK31,K32,30:BK20,K23,21,22'
w='W:WK31,K32,30:BK20,K23,21,22'
"$gsw" egdb build checkers --for "$b" --metric dtw --dir "$dir" || exit 1
fail=0
got=$("$gsw" egdb probe checkers "$b" --dir "$dir" --json | jq -r '"\(.value) \(.plies)"')
[ "$got" = "win 81" ] || { echo "FAIL: Black to move: $got, published win 81"; fail=1; }
got=$("$gsw" egdb probe checkers "$w" --dir "$dir" --json | jq -r .value)
[ "$got" = "draw" ] || { echo "FAIL: White to move: $got, published draw"; fail=1; }
# the published line's first moves are perfect: each keeps the value
got=$("$gsw" egdb probe checkers "$b" --dir "$dir" --json | jq -r .best)
[ "$got" = "22-25" ] || echo "note: the databases' first best move is $got (the published line plays 22-25)"
exit $fail
