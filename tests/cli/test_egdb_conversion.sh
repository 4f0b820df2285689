#!/usr/bin/env bash
# Win/draw/loss databases played with progress: probes prefer distance to
# win, then distance to conversion, then win/draw/loss; a root held in
# win/draw/loss files only gets its unit's distances to conversion built on
# demand (that unit alone, its files identical to a full dtc build); the
# winner converts soonest, the loser latest, so autoplay wins in exactly the
# conversion distance; a budgeted solve of a large unit says the command
# instead. Needs GSW_BIN and jq.
set -u
. "$(dirname "$0")/cli_lib.sh"
command -v jq >/dev/null || { echo "no jq"; exit 77; }

w="$tmp/wld" full="$tmp/full"
expect 0 "build 3 wld" -- "$gsw" egdb build checkers --pieces 3 --metric wld --dir "$w"
cp -r "$w" "$tmp/wld2"
pos='B:WK29:BK1,K2'   # 2K v 1K, Black to move: a win
expect 0 "probe wld" -- "$gsw" egdb probe checkers "$pos" --dir "$w" --json
same "$(jq -r '.value, .metric, (.plies|tostring), has("conversion_plies")' "$tmp/out" | tr '\n' ' ')" \
  "win wld null false " "a win/draw/loss file: the result, no distance"

# a solve without a budget builds the unit's distances to conversion
expect 0 "solve builds dtc" -- "$gsw" solve checkers "$pos" --dir "$w" --json
has err "building the distances to conversion of" "solve says what it builds"
same "$(jq -r .value "$tmp/out")" win "solve: a win"
n=$(ls "$w/checkers/dtc" | wc -l)
[ "$n" -ge 1 ] && [ "$n" -le 4 ] && ok || bad "only the position's unit is built ($n dtc files)"
expect 0 "probe dtc" -- "$gsw" egdb probe checkers "$pos" --dir "$w" --json
same "$(jq -r '.value, .metric' "$tmp/out" | tr '\n' ' ')" "win dtc " "probes prefer dtc to wld"
conv=$(jq -r .conversion_plies "$tmp/out")
[ "$conv" -gt 1 ] 2>/dev/null && ok || bad "conversion_plies: $conv"
expect 0 "probe text" -- "$gsw" egdb probe checkers "$pos" --dir "$w"
has out "in $conv plies" "probe says the conversion distance"

# the unit built alone equals the same unit of a full dtc build
expect 0 "full dtc build" -- "$gsw" egdb build checkers --pieces 3 --metric dtc --dir "$full"
for f in "$w"/checkers/dtc/*.egdb; do
  cmp -s "$f" "$full/checkers/dtc/$(basename "$f")" && ok || bad "$(basename "$f") differs from the full build's"
done
# every 2K v 1K position: its conversion distance is one more than its best
# move's (the winner's least, the loser's most), counted by probing the moves
expect 0 "analyze" -- "$gsw" analyze checkers "$pos" --dir "$full" --json
! grep -q "each move gets" "$tmp/err" && ok || bad "analyze speaks of a search budget where the databases answer every move"
best=$(jq '[.moves[] | select(.value == "win") | .conversion_plies] | min' "$tmp/out")
same "$best" "$conv" "the best move's conversion distance is the position's"

# autoplay: the winner converts soonest, the loser holds out longest, so the
# game lasts exactly the conversion distance (the capture ends it)
printf 'new checkers %s\nautoplay\nhistory\n' "$pos" | "$gsw" shell --dir "$w" >"$tmp/out" 2>"$tmp/err"
has out "Game over: Black wins." "autoplay from a win/draw/loss root wins"
plies=$(grep -cE '^ *[0-9]+\. ' "$tmp/out")
same "$plies" "$conv" "autoplay's plies equal the conversion distance"
has out "converts in" "history shows the conversion distances"

# probing a man's ending: a man's move is a conversion (1 ply)
man='B:WK29:BK1,6'
expect 0 "probe man" -- "$gsw" solve checkers "$man" --dir "$full" --json
expect 0 "analyze man" -- "$gsw" analyze checkers "$man" --dir "$full" --json
same "$(jq -r '[.moves[] | select(.move == "6-10") | .conversion_plies] | .[0]' "$tmp/out")" 1 \
  "a man's move converts at once"

# a budgeted solve does not build a large unit: it says the command
GSW_EGDB_DTC_QUICK=10 expect 0 "budgeted solve" -- "$gsw" solve checkers "$pos" --dir "$tmp/wld2" --time 2000 --json
has err "--metric dtc" "the budgeted solve names the build command"
[ ! -d "$tmp/wld2/checkers/dtc" ] && ok || bad "a budgeted solve built a unit past the quick size"
same "$(jq -r .value "$tmp/out")" win "it still answers from win/draw/loss"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
