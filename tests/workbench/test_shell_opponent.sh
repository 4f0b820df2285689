#!/usr/bin/env bash
# The perfect opponent where proofs are out of reach (issue 33): in
# checkers and chess from the start no proof comes within its time, so it
# plays the engine's move and says so, and autoplay does the same for the
# person; it never stops with "stopped" alone. Its time is set by
# `opponent perfect:MS` and by --time, and `gsw play --help` says what each
# opponent means.
set -u
gsw=${GSW_BIN:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# GAME SCRIPT [ARGS...]: gsw shell GAME with the script on stdin; out, err, rc
sh() {
  local game=$1 script=$2
  shift 2
  printf '%b' "$script" | timeout 120 "$gsw" shell "$game" "$@" --no-cache --threads 1 --hash 16 >"$tmp/out" 2>"$tmp/err"
  rc=$?
}

for game in checkers chess; do
  sh "$game" 'opponent perfect:500\nautoplay 3\n'
  [ "$rc" -eq 0 ] || bad "$game: exit $rc: $(cat "$tmp/out" "$tmp/err")"
  grep -q '^opponent: perfect:500$' "$tmp/out" || bad "$game: the opponent's time not shown: $(cat "$tmp/out")"
  [ "$(grep -c '^you (autoplay): .* (engine move: no proof within 0.7 s)$' "$tmp/out")" -eq 3 ] \
    || bad "$game: autoplay 3 did not play 3 moves at its pace, named as yours: $(cat "$tmp/out")"
  [ "$(grep -c '^perfect:500: .*(perfect where proven; engine move: no proof within 0.5 s)$' "$tmp/out")" -ge 3 ] \
    || bad "$game: the computer's engine moves not said: $(cat "$tmp/out")"
  grep -q 'stopped' "$tmp/out" && bad "$game: stopped: $(cat "$tmp/out")"
done

# --time sets the opponent's time too
sh checkers 'opponent perfect\n11-15\n' --time 400
[ "$rc" -eq 0 ] || bad "--time: exit $rc: $(cat "$tmp/err")"
grep -q '^opponent: perfect:400$' "$tmp/out" || bad "--time: not the opponent's time: $(cat "$tmp/out")"
grep -q '^perfect:400: .*no proof within 0.4 s)$' "$tmp/out" || bad "--time: no engine move: $(cat "$tmp/out")"

# a lesson's summary ("play on against the perfect opponent") gets replies,
# and undo takes the learner back past the reply
sh checkers 'lesson checkers-endgame\nnext\nnext\nmove 28-24\nundo\nshow\n'
[ "$rc" -eq 0 ] || bad "lesson: exit $rc: $(cat "$tmp/out" "$tmp/err")"
grep -q '^perfect: ' "$tmp/out" || bad "lesson checkers-endgame step 3: no reply: $(cat "$tmp/out")"
tail -1 "$tmp/out" | grep -q 'ply 0;' || bad "lesson: undo did not go back past the reply: $(tail -1 "$tmp/out")"
sh chess 'lesson chess-krk\nnext\nnext\nnext\nnext\nnext\nmove Rb3+\n'
grep -q '^perfect: ' "$tmp/out" || bad "lesson chess-krk step 6: no reply: $(cat "$tmp/out" "$tmp/err")"
# its mate in 1: the lesson checks that the move mates, and refuses another
sh chess 'lesson chess-krk\nnext\nnext\nnext\nmove Rb8#\n'
grep -q '^Rb8# is checkmate: the game is over, won\.$' "$tmp/out" || bad "lesson chess-krk: the mate in 1 not checked: $(cat "$tmp/out")"
sh chess 'lesson chess-krk\nnext\nnext\nnext\nmove Rf1\n'
grep -q "^The lesson's move: Rb8#" "$tmp/out" && ! grep -q 'checkmate' "$tmp/out" \
  || bad "lesson chess-krk: a move that does not mate passed: $(cat "$tmp/out")"
# a step that asks for a move is judged, not answered
sh checkers 'lesson checkers-endgame\nmove 28-24\n'
grep -q '^perfect: ' "$tmp/out" && bad "lesson step 1: answered a move the lesson judges: $(cat "$tmp/out")"

# the usage says what each opponent means
"$gsw" play --help >"$tmp/out" 2>&1
for w in 'perfect\[:MS\]' 'imperfect:P' 'giveback:N' 'heuristic:L' 'human' '--time MS'; do
  grep -q -- "$w" "$tmp/out" || bad "play --help lacks $w: $(cat "$tmp/out")"
done
# autoplay then export: a record of the moves played, its players named
for g in chess checkers; do
  rm -f "$tmp/ap.rec"
  printf 'new %s\nopponent human\nautoplay 4\nexport %s\n' "$g" "$tmp/ap.rec" \
    | USER=ann timeout 120 "$gsw" shell --no-cache --threads 1 --hash 16 --time 300 >"$tmp/out" 2>"$tmp/err"
  moves=$(grep '^1\.' "$tmp/ap.rec" 2>/dev/null | sed 's/[0-9]*\. //g; s/ \*$//' | wc -w)
  [ "$moves" -eq 4 ] || bad "$g: autoplay 4 then export: $moves moves in the record: $(cat "$tmp/ap.rec" "$tmp/err" 2>/dev/null | head -c 400)"
  grep -q '^\[White "ann"\]' "$tmp/ap.rec" && grep -q '^\[Black "ann"\]' "$tmp/ap.rec" \
    || bad "$g: the exported record does not name the players: $(grep '^\[' "$tmp/ap.rec" | head -8)"
done
printf 'new chess\nopponent heuristic:1\ne4\nexport %s\n' "$tmp/h.rec" \
  | USER=ann timeout 120 "$gsw" shell --no-cache --threads 1 --hash 16 >"$tmp/out" 2>"$tmp/err"
grep -q '^\[White "ann"\]' "$tmp/h.rec" && grep -q '^\[Black "gsw, heuristic:1"\]' "$tmp/h.rec" \
  || bad "a game against heuristic:1: the players are not named: $(grep '^\[' "$tmp/h.rec" 2>/dev/null | head -8)"
# a player changed during the game: the record names each that played
printf 'opponent heuristic:1\nside first\n11-15\nopponent heuristic:2\n15x22\nexport %s\n' "$tmp/two.rec" \
  | USER=ann timeout 120 "$gsw" shell checkers --no-cache --threads 1 --hash 16 >"$tmp/out" 2>"$tmp/err"
grep -q '^\[Black "ann"\]' "$tmp/two.rec" && grep -q '^\[White "gsw, heuristic:1; gsw, heuristic:2"\]' "$tmp/two.rec" \
  || bad "two opponents: not both named: $(grep '^\[' "$tmp/two.rec" 2>/dev/null | head -8) $(cat "$tmp/err")"
# autoplay's pace: said, and set with pace MS
printf 'autoplay 1 pace 300\n' | timeout 60 "$gsw" shell checkers --no-cache --threads 1 --hash 16 >"$tmp/out" 2>&1
grep -q '^you (autoplay): .*no proof within 0.3 s)$' "$tmp/out" || bad "autoplay pace 300: $(cat "$tmp/out")"
printf 'autoplay pace x\n' | timeout 60 "$gsw" shell checkers --no-cache >"$tmp/out" 2>&1
grep -q 'autoplay \[N\] \[pace MS\]' "$tmp/out" || bad "autoplay pace x: not refused: $(cat "$tmp/out")"
exit $fail
