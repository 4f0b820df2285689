#!/usr/bin/env bash
# Rough edges a player met in the workbench (issue 53, items 6 and 7), under
# tmux: w plays at its pace in checkers (no 15 s wait for a proof) and every
# move message names its mover; o offers every heuristic level; the picker's
# footer names the opponent the highlighted game starts with; a wrong typed
# move is refused once; q right after a save does not ask; no "working" on
# the status line once the game is over; at 74x15 the turn lines stay on
# screen. Waits on the screen, never on blind sleeps. Skipped (exit 77)
# without tmux.
set -u
. "$(dirname "$0")/tmux_lib.sh"
# start W H ARGS...: gsw in a fresh window g (its exit status goes to $tmp/exit)
start() { start_wh "$@"; }
# exited [SECONDS]: until gsw has exited (0) or the time is up (1)
exited() {
  local i
  for ((i = 0; i < ${1:-10} * 10; i++)); do [ -f "$tmp/exit" ] && return 0; sleep 0.1; done
  return 1
}
status() { screen | tail -1; }

# ---- w in checkers: a move at its pace, each message naming its mover ----
start 120 40 play checkers
wait_for "Black to move" 30 || bad "checkers did not open"
keys -l 11-15
wait_for "^ heuristic:5: " 60 || bad "the computer's reply does not name it (heuristic:5: MOVE)"
sleep 1   # (the analysis of the position runs a while: w must not wait for its 15 s)
t0=$(date +%s)
keys w
wait_for "a move every 0.7 s" 10 || bad "w does not say its pace"
wait_for "^ you (w): [0-9]*[-x][0-9]* (engine move: no proof within 0.7 s)" 10 \
  || bad "w: no move of yours within 10 s, named and with its pace"
wait_for "^ heuristic:5: .*$" 30 || bad "w: the opponent's reply is not named"
# three of yours in a short while (today: 15 s, then 3 s each)
for ((i = 0; i < 150; i++)); do
  [ "$(screen | grep -c '^ you (w): ')" -ge 2 ] && break
  sleep 0.1
done
keys x
wait_for "autoplay stopped" 10 || bad "a key does not stop autoplay"
took=$(( $(date +%s) - t0 ))
n=$(screen | grep -c '^ *[0-9]*\. [0-9]')
[ "$took" -le 25 ] && [ "$n" -ge 3 ] || bad "w: too slow ($took s, $n move rows)"
screen | grep -q "gsw plays" && bad "a move message without its mover"
# o: every heuristic level in turn (heuristic:5, then 6, not 7)
keys o
wait_for "opponent: heuristic:6" 10 || bad "o skipped a heuristic level"
# q right after a save: nothing is lost, nothing asked
keys : 'save roughgame' Enter
wait_for 'saved as "roughgame"' 10 || bad "save"
keys q
exited 10 || bad "q after a save did not quit"
grep -q "exit=0" "$tmp/exit" 2>/dev/null || bad "q after a save: $(cat "$tmp/exit" 2>/dev/null)"

# ---- a wrong typed move, refused once ----
start 120 40 play checkers
wait_for "Black to move" 30 || bad "checkers did not open (2)"
keys -l 22-18
wait_for 'no legal move begins with "22-18"' 10 || bad "the refusal does not name the move typed"
[ "$(screen | grep -c 'no legal move begins')" -eq 1 ] || bad "a wrong move refused more than once"
screen | grep -q "1\. " && bad "a refused move's keys played a move"
# after it, a right move plays
sleep 1.2
keys -l 11-15
wait_for "1\. 11-15" 10 || bad "a move after the refused one did not play"
keys q
wait_for "quit?" 10 && keys y
exited 10 || bad "did not quit"

# ---- the picker's footer: the opponent each game starts with ----
start 120 40 play
wait_for "Pick a game" 30 || bad "the picker did not open"
status_line() { screen | grep "Opponent:"; }
status_line | grep -q "Opponent: perfect" || bad "Connect Four: the footer does not say perfect: $(status_line)"
found=0
for ((i = 0; i < 40 && !found; i++)); do
  keys Down
  sleep 0.2
  status_line | grep -q "Opponent: heuristic:5" && found=1
done
[ "$found" -eq 1 ] || bad "no game's footer says heuristic:5 (checkers)"
keys Enter
wait_for "opponent: heuristic:5" 20 || bad "the game the footer named heuristic:5 starts with another"
screen | head -1 | grep -q "checkers" || bad "the footer's heuristic:5 was not checkers"
keys q
exited 10 || bad "did not quit (picker)"

# ---- no "working" once the game is over (the history fills in quietly) ----
printf '[Event "fool"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n' >"$tmp/fool.pgn"
start 120 40 play --file "'$tmp/fool.pgn'"
wait_for "Game over" 30 || bad "the fool's mate did not end the game: $(status)"
for ((i = 0; i < 30; i++)); do
  status | grep -q "working" && { bad "the status line says working after the game ended"; break; }
  sleep 0.1
done
keys q
exited 10 || bad "did not quit (chess)"

# ---- 74x15: the turn lines stay on screen ----
start 74 15 play checkers "'B:W18,24,27,28:B11,12,20,K22'"
wait_for "Black to move" 30 || bad "74x15: no Black to move"
screen | grep -q "A capture is compulsory" || bad "74x15: the compulsory capture is not said"
screen | grep -q "^ Your move: " || bad "74x15: the one message row left shows not even the welcome's first line"
keys q
exited 10 || bad "did not quit (74x15)"
exit $fail
