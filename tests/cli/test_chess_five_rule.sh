#!/usr/bin/env bash
# Opt-in (label slow: KBNKN's 242 M indices, some minutes on 2 cores): a
# mate longer than the 50-move rule allows from a fresh clock. KBNKN's
# longest mate is 213 plies; from 8/8/8/8/8/8/1n5B/2K1N2k w (halfmove 0)
# the knight cannot be taken within 100 plies, so the rule draws; 60 moves
# down that mate's line, 8/8/1B2n3/8/6N1/5K2/8/5k2 w (mate in 77, 153
# plies) takes it in 93: a win under the rule, without its distance. A
# solve without a budget builds the distances to conversion it needs (the
# clock is at 0, so nothing else would ask for them) and answers from the
# tablebases, where it searched for ever before. Needs GSW_BIN and jq.
set -u
. "$(dirname "$0")/cli_lib.sh"
command -v jq >/dev/null || { echo "no jq"; exit 77; }
eg="$tmp/egdb"
val() { jq -r "$1" "$tmp/out" | tr '\n' ' ' | sed 's/ $//'; }

expect 0 "build KBNKN" -- "$gsw" egdb build chess KBNKN --dir "$eg"
expect 0 "solve, 153 plies" -- timeout 1800 "$gsw" solve chess '8/8/1B2n3/8/6N1/5K2/8/5k2 w - - 0 1' --dir "$eg" --no-cache --json
same "$(val '.value, .plies, .source, .nodes')" "win null egdb 0" "a win under the rule, from the tablebases"
same "$(val '.note')" "under the 50-move rule: converts in 93 plies; wins in 153 plies without it" "the note"
has err "building the KBNKN tablebase's distances to conversion" "the conversions were built for it"
expect 0 "solve, 213 plies" -- timeout 120 "$gsw" solve chess '8/8/8/8/8/8/1n5B/2K1N2k w - - 0 1' --dir "$eg" --no-cache --json
same "$(val '.value, .source, .nodes')" "draw egdb 0" "the longest mate: a draw by the rule"
same "$(val '.note')" "by the 50-move rule: no conversion in the 100 plies left; wins in 213 plies without it" \
    "the draw says why"
expect 0 "solve --no-line" -- "$gsw" solve chess '8/8/8/8/8/8/1n5B/2K1N2k w - - 0 1' --dir "$eg" --no-cache --no-line --json
same "$(val '.value, .plies')" "win 213" "--no-line: mate in 107"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
