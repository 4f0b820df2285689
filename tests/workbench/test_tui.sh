#!/usr/bin/env bash
# The workbench end to end under tmux: pick Connect Four 5x4, play a whole
# game as the second player against the perfect opponent (following hints),
# check the board, move list, analysis values and the result on screen,
# resize the window mid-game (and too small), stop an analysis with Ctrl-C,
# open the value history, run the centre lesson to its end from the ':'
# command line (all seven columns in its analysis pane), and quit cleanly; then peg solitaire: a hint, the class
# overlay, and autoplay to a solution. Skipped (exit 77) without tmux.
set -u
. "$(dirname "$0")/tmux_lib.sh"
# start ARGS...: gsw in a fresh window g (its exit status goes to $tmp/exit)
start() {
  rm -f "$tmp/exit"
  open_window 100 30 \
    "env GSW_DB='$tmp/cache.sqlite' GSW_HISTORY='$tmp/history' LANG=C.UTF-8 TERM=xterm-256color '$gsw' $* --threads 1 --hash 16; echo \"exit=\$?\" >'$tmp/exit'; sleep 30"
}
# quit WHAT: q, and gsw exits 0 with the terminal given back
quit() {
  local w
  keys q
  for ((w = 0; w < 100; w++)); do [ -f "$tmp/exit" ] && break; sleep 0.1; done
  [ "$(cat "$tmp/exit" 2>/dev/null)" = "exit=0" ] || bad "$1 did not quit cleanly: $(cat "$tmp/exit" 2>/dev/null)"
}

start play
wait_for "Pick a game" 30 || bad "no game picker"
screen | grep -q "Connect Four" || bad "picker lists Connect Four"
# the picker's help (no game yet): every game's keys, each saying its games
keys '?'
wait_for "the board turned round (chess, checkers)" 10 || bad "the picker's help does not say which games F is for"
keys Escape
wait_for "Pick a game" 10 || bad "Esc did not close the picker's help"
# the picker's fourth entry is 5x4 (7x6, 6x5, 6x4, 5x4, ...)
keys Down Down Down Enter
wait_for "connect4:5x4" 20 || bad "5x4 did not open"
keys s   # play second: the perfect opponent opens
wait_for "^ perfect: " 60 || bad "the computer did not open"
wait_for "Analysis: Yellow to move" 30 || bad "analysis pane title"
wait_for " draw" 60 || bad "no proven values in the analysis pane"
moves=0
# stones on the board (its rows are at the top of the screen); keys are
# queued, so every step waits for the board itself to change before the
# next key: a screen read before gsw took a key shows the old turn
stones() { screen | head -12 | grep -o '[●○]' | wc -l; }
# wait_stones N: until the board holds N stones or the game is over
wait_stones() {
  local i
  for ((i = 0; i < 600; i++)); do
    local s; s=$(screen)
    echo "$s" | grep -q "Game over" && return 0
    [ "$(echo "$s" | head -12 | grep -o '[●○]' | wc -l)" -ge "$1" ] \
      && ! echo "$s" | grep -q "computer thinking" && return 0
    sleep 0.1
  done
  return 1
}
for ((k = 0; k < 12; k++)); do
  screen | grep -q "Game over" && break
  n0=$(stones)
  keys h
  wait_for "hint: " 60 || { bad "no hint"; break; }
  keys Enter
  wait_stones $((n0 + 1)) || { bad "the hinted move was not played"; break; }
  moves=$((moves + 1))
  if [ "$moves" -eq 3 ]; then   # resize mid-game: too small, then back
    T resize-window -t g -x 30 -y 10
    wait_for "too small" 10 || bad "too-small message"
    T resize-window -t g -x 100 -y 30
    wait_for "Moves" 10 || bad "screen back after resize"
  fi
  wait_stones $((n0 + 2)) || { bad "no reply"; break; }   # the reply (or the end)
  keys Escape
done
wait_for "Game over: a draw" 30 || bad "a perfect game on 5x4 ends in a draw"
screen | grep -q " 1\. " || bad "move list"
keys v
wait_for "Value history" 10 || bad "value history view"
wait_for "=  *draw" 60 || bad "value history values (the chart: = a proven draw)"
keys v
# the proof browser: the tree of the final position's predecessor
keys u
wait_for "Yellow to move\|Red to move" 10 || bad "undo at the end"
keys p
wait_for "Proof tree:" 60 || bad "proof browser"
keys f
wait_for "this node" 10 || bad "proof browser node"
keys x
keys '?'
wait_for "Keys" 10 || bad "help overlay"
# Connect Four's help: no other game's keys (a promotion, squares' numbers, the board turned round)
screen | grep -q "a promotion\|squares' numbers\|board turned round" && bad "Connect Four's help lists another game's keys"
screen | grep -q "1-9         play that move" || bad "Connect Four's help does not give the digit keys"
keys x
# the lesson, from the command line
keys : 'lesson connect4-centre' Enter
wait_for "Lesson 1/5" 20 || bad "lesson did not start"
keys C-c   # stops the (long) 7x6 analysis; gsw keeps running
wait_for "analysis stopped" 10 || bad "Ctrl-C did not stop the analysis"
wait_for "[ *]7     loss 40" 10 || bad "lesson: column 7 is missing from the analysis pane"
keys o
wait_for "in a lesson you play the side that begins each step" 10 || bad "o in a lesson does not say why not"
keys s
wait_for "in a lesson you play the side that begins each step" 10 || bad "s in a lesson does not say why not"
keys 4
wait_for "keeps the value" 20 || bad "lesson step 1 judgement"
keys n
wait_for "Lesson 2/5" 20 || bad "lesson step 2"
keys 3
wait_for "gives the value away" 20 || bad "lesson step 2 judgement"
keys n
wait_for "Lesson 3/5" 20 || bad "lesson step 3"
keys 4
wait_for "keeps the value" 30 || bad "lesson step 3 judgement"
keys n
wait_for "Lesson 4/5" 20 || bad "lesson step 4"
keys 4
wait_for "keeps the value" 30 || bad "lesson step 4 judgement"
keys n
wait_for "Lesson 5/5" 20 || bad "lesson step 5"
keys n
wait_for "Lesson complete" 20 || bad "lesson end"
quit gsw
[ -s "$tmp/history" ] || bad "command-line history not saved"
# peg solitaire: the hint names a jump, w plays a solution to the end
start play solitaire:triangle
wait_for "Analysis: can the goal be reached" 20 || bad "solitaire did not open"
wait_for "solvable" 60 || bad "solitaire: no values in the analysis pane"
# both first jumps valued (6-1 as 4-1's mirror image), and no move still
# marked as being worked on (" ..") once the work is done
wait_for "6-1 *solvable" 60 || bad "solitaire: 6-1 not valued"
wait_gone "solvable \.\." 20 || bad "solitaire: a move still marked as being solved after the analysis ended"
keys h
wait_for "hint: .*the goal can still be reached" 60 || bad "solitaire hint"
keys t
wait_for "1:[0-9]" 10 || bad "the class overlay's counts"
keys w
wait_for "Game over: solved" 60 || bad "autoplay did not solve the triangle"
quit "gsw (solitaire)"
[ "$fail" -eq 0 ] && echo "tui end-to-end ok"
exit "$fail"
