#!/usr/bin/env bash
# The workbench's screens under tmux, where a new user found them wanting:
# Ctrl-C while the computer thinks (its move is offered, and a makes it),
# long command output and Tab's list in a scrollable pane, a board wider
# than nine columns (labels, two-digit columns; p2-n2 typed on 16 lettered
# columns), the picker's Esc and the
# question before quitting a game in progress, the result and the winning
# four at the end of a game, a window too small (the message whole, keys
# held back), a terminal that cannot draw (one line, no screen), and every
# move in a lesson's analysis pane, a corrupt cache (the offer to start
# without it). gsw writes nothing to stderr meanwhile.
# Skipped (exit 77) without tmux.
set -u
. "$(dirname "$0")/tmux_lib.sh"
T new-session -d -s keep -x 20 -y 5 "sleep 600"   # the server outlives every gsw window
# start [-x W -y H] [-t TERM] ARGS...: gsw in a fresh window g; its exit
# status goes to $tmp/exit and its stderr to $tmp/stderr
start() {
  local w=100 h=30 term=xterm-256color
  while :; do
    case "$1" in
      -x) w=$2; shift 2 ;; -y) h=$2; shift 2 ;; -t) term=$2; shift 2 ;; *) break ;;
    esac
  done
  rm -f "$tmp/exit"
  open_window "$w" "$h" \
    "env GSW_DB='$tmp/cache.sqlite' GSW_HISTORY='$tmp/history' LANG=C.UTF-8 TERM=$term '$gsw' $* --threads 1 --hash 16 2>>'$tmp/stderr'; echo \"exit=\$?\" >'$tmp/exit'; sleep 30"
}
wait_exit() {
  local w
  for ((w = 0; w < 100; w++)); do [ -f "$tmp/exit" ] && return 0; sleep 0.1; done
  return 1
}
# quit WHAT: q (y when asked), and gsw exits 0
quit() {
  local w
  keys q
  for ((w = 0; w < 100; w++)); do
    [ -f "$tmp/exit" ] && break
    screen | grep -q "(y/n)" && { keys y; wait_exit; break; }
    sleep 0.1
  done
  [ "$(cat "$tmp/exit" 2>/dev/null)" = "exit=0" ] || bad "$1 did not quit cleanly: $(cat "$tmp/exit" 2>/dev/null)"
}
# the board rows are at the top of the screen
board() { screen | sed -n '3,12p' | cut -c1-40; }
# rev_stones: the stones drawn in reverse video (the winning line)
rev_stones() {
  T capture-pane -e -p -t g | sed -n '3,12p' | awk '
    { line = $0; rev = 0
      while ((i = index(line, "\033[")) > 0) {
        seg = substr(line, 1, i - 1); line = substr(line, i + 2)
        if (rev) n += gsub(/●|○/, "", seg)
        j = index(line, "m"); np = split(substr(line, 1, j - 1), p, ";"); line = substr(line, j + 1)
        if (np == 0) rev = 0
        for (k = 1; k <= np; k++) {
          if (p[k] == "38" || p[k] == "48") { k += (p[k + 1] == "5") ? 2 : 4; continue }
          if (p[k] == "" || p[k] == "0" || p[k] == "27") rev = 0
          if (p[k] == "7") rev = 1
        }
      }
      if (rev) n += gsub(/●|○/, "", line) }
    END { print n + 0 }'
}

# --- Ctrl-C while the computer thinks; a 10-column board ---
start play connect4:10x4
wait_for "Red to move" 30 || bad "10x4 did not open"
keys a   # the analysis pane off: only the computer's move runs
wait_for "off: press a" 10 || bad "analysis pane off"
keys : 'opponent heuristic:9' Enter   # thinks for 1.8 s a move
wait_for "opponent: heuristic:9" 10 || bad "opponent heuristic:9"
board | grep -q " 9 10" || bad "column labels 9 and 10 run together"
stopped=0
for ((try = 0; try < 3 && !stopped; try++)); do   # Ctrl-C must come while it thinks
  keys 5
  wait_for "computer thinking" 10 || { bad "the computer did not think"; break; }
  keys C-c
  wait_for "computer's move stopped\|heuristic:9: " 10 || { bad "Ctrl-C: neither stopped nor played"; break; }
  if screen | grep -q "computer's move stopped"; then stopped=1; else keys u; wait_for "Red to move$" 10; fi
done
if [ "$stopped" = 1 ]; then
  screen | grep -q "computer thinking" && bad "stopped, yet the screen says the computer is thinking"
  screen | grep -q "a lets it move" || bad "the stopped move is not offered"
  keys a
  wait_for "heuristic:9: " 20 || bad "a did not let the computer move"
  wait_for "Red to move$" 10 || bad "Red's turn after the computer's move"
else
  bad "Ctrl-C never came while the computer thought"
fi
keys : 'side both' Enter
wait_for "you: both sides" 10 || bad "side both"
keys 1 0   # column ten, typed
wait_for " 2\. 10\( \|$\)" 10 || bad "two-digit column 10"
keys 1     # column one: on a ten-column board it waits for a second digit
wait_for "move 1_" 10 || bad "a typed 1 does not wait for a second digit"
wait_for " 2\. 10 *1 *$" 10 || bad "a pause did not end the number"
keys 1 Enter
wait_for " 3\. 1 *$" 10 || bad "Enter did not end the number"
# --- long output: a pane, scrolled, closed with q ---
T resize-window -t g -x 100 -y 16
keys : help Enter
wait_for "lines 1-12 of" 10 || bad ":help is not in a scrollable pane"
screen | grep -q "^ new .*start a game" || bad ":help lost its first line"
keys NPage NPage NPage   # (three pages: :help outgrew two)
wait_for "^ quit  *leave" 10 || bad "PgDn did not scroll :help to its end"
top=$(screen | grep -o "lines [0-9]*-" | tr -dc 0-9)
keys Up
wait_for "lines $((top - 1))-" 10 || bad "Up did not scroll"
keys q
wait_gone "lines [0-9]*-" 10 || bad "q did not close the pane"
wait_for "Moves" 10 || bad "the game is not back after the pane"
keys : 'new ' Tab Tab
wait_for "solitaire:triangle" 10 || bad "Tab's list lost its last candidates"
screen | grep -q "connect4:3x3" || bad "Tab's list lost its first candidates"
keys Escape
wait_gone "solitaire:triangle" 10 || bad "Esc did not close the list with the line"
T resize-window -t g -x 100 -y 30
wait_for " 3\. 1\( \|$\)" 10 || bad "the screen is not back after resizing"
# --- the picker's Esc; q asks before leaving a game in progress ---
keys g
wait_for "Pick a game" 10 || bad "g did not open the picker"
keys Escape
wait_for " 3\. 1\( \|$\)" 10 || bad "Esc in the picker did not go back to the game"
keys q
wait_for "quit? .*(y/n)" 10 || bad "q did not ask about the game in progress"
keys n
wait_for "not quitting" 10 || bad "n did not keep the game"
[ -f "$tmp/exit" ] && bad "gsw quit on n"
keys n
wait_for "a new game? .*(y/n)" 10 || bad "n did not ask about the game in progress"
keys x
wait_for "the game goes on" 10 || bad "a key other than y did not keep the game"
screen | grep -q " 3\. 1" || bad "the game was discarded on a no"
keys u
wait_gone "the game goes on" 10 || bad "u did not clear the stale message"
quit "gsw (10x4)"

# --- a board of 16 lettered columns: p begins p2-n2 (it opened the proof
# browser: p was a command key no move could begin with) ---
printf 'oooooooooooooooo\nooooooooooooo.oo\n' >"$tmp/wide16.txt"
start -x 120 play "solitaire:board=$tmp/wide16.txt"
wait_for "a piece, then its target" 30 || bad "the 16-column board did not open"
keys p 2 - n 2
wait_for " 1\. p2-n2" 10 || bad "p2-n2 typed on a board of 16 columns"
screen | grep -q "Proof tree\|proving" && bad "p opened the proof browser"
quit "gsw (16 columns)"

# --- the end of a game: the result beside the move list, the four marked ---
start play connect4:5x4 --side both
wait_for "Red to move" 30 || bad "5x4 did not open"
keys a 1 1 1 1 2 2 2 2 3 3 3 3 4   # Red's bottom row: 1 2 3 4
wait_for "Game over: Red wins" 10 || bad "no result"
screen | grep -q " 7\. 4 *$" || bad "the result overwrote the move list"
[ "$(rev_stones)" = 4 ] || bad "the winning four is not highlighted ($(rev_stones) stones are)"
quit "gsw (5x4, over)"

# --- a window too small: the message whole; keys ignored, and said so ---
start -x 30 -y 10 play connect4:5x4
wait_for "too small" 30 || bad "no too-small message"
msg=$(screen | tr '\n' ' ' | tr -s ' ')
for w in "window is too small" "need" "have 30x10" "keys are ignored" "q quits"; do
  echo "$msg" | grep -q "$w" || bad "the too-small message lost \"$w\""
done
keys 3 Enter
wait_for "key ignored" 10 || bad "keys in a too-small window are not said to be ignored"
T resize-window -t g -x 100 -y 30
wait_for "Moves" 10 || bad "the screen is not back after resizing"
[ "$(board | grep -o '[●○]' | wc -l)" -eq 0 ] || bad "a key played a move off the screen"
quit "gsw (too small)"

# --- a terminal that cannot draw: one line on stderr, nothing drawn ---
cp "$tmp/stderr" "$tmp/stderr.game"
: >"$tmp/stderr"
start -t dumb play connect4:5x4
wait_exit || bad "gsw under TERM=dumb did not exit"
[ "$(cat "$tmp/exit")" != "exit=0" ] || bad "TERM=dumb: exit status 0"
[ "$(wc -l <"$tmp/stderr")" -eq 1 ] && grep -q "gsw shell" "$tmp/stderr" \
  || { bad "TERM=dumb: not one line pointing to gsw shell"; cat "$tmp/stderr"; }
[ -z "$(screen | tr -d ' \n')" ] || bad "TERM=dumb: something was drawn"
: >"$tmp/stderr"

# --- a lesson's analysis pane lists all seven jumps ---
start lesson solitaire-classes
wait_for "Lesson 1/4" 30 || bad "the lesson did not open"
keys n
wait_for "Lesson 2/4" 20 || bad "lesson step 2"
for j in c4-c2 d4-f4 d4-b4 d4-d2 e4-e2 d5-f5 d5-b5; do
  wait_for "[ *]$j \(solvable\|dead end\)" 60 || bad "lesson step 2: the jump $j is not in the analysis pane"
done
quit "gsw (lesson)"

# --- text never cut: a lesson step longer than its pane says "more", and m
# shows all of it; at the minimum size (74x15) the pane stays clear of the
# message area, and the title ends at a word ---
start -x 80 -y 24 lesson chess-mate
wait_for "Lesson 1/5: Mate in 2" 30 || bad "chess-mate did not open"
wait_for "-- more: m reads the whole step --" 10 || bad "chess-mate step 1: the cut narration does not say more"
keys m
wait_for "follows its main line\." 10 || bad "m: the step's second paragraph is not in the pager"
keys q
wait_gone "The lesson step and the messages" 10 || bad "m: the pager did not close"
quit "gsw (lesson, 80x24)"
start -x 74 -y 15 lesson chess-mate
wait_for "Lesson 1/5: Mate in 2" 30 || bad "chess-mate at 74x15 did not open"
screen | head -1 | grep -q 'lesson "A forced mate and its proof \.\.\.' || bad "74x15: the title is not ended at a word: $(screen | head -1)"
row=$(screen | grep "Find White")
case "$row" in *"Find White's first move. It gives up the queen." | *"Find White's first move. It gives up the queen. ") ;;
  *) bad "74x15: the message row is not clear of the pane: '$row'" ;; esac
screen | grep -q "more: m reads the whole step" || bad "74x15: the cut narration does not say more"
quit "gsw (lesson, 74x15)"

# --- a corrupt cache: the workbench offers to start without it, and leaves the file alone ---
head -c 3000 /dev/urandom >"$tmp/junk.sqlite"
sum=$(cksum <"$tmp/junk.sqlite")
rm -f "$tmp/exit"
open_window 100 30 "env GSW_DB='$tmp/junk.sqlite' LANG=C.UTF-8 TERM=xterm-256color '$gsw' play connect4:5x4 --threads 1 --hash 16; echo \"exit=\$?\" >'$tmp/exit'; sleep 30"
wait_for "Start without the cache" 20 || bad "a corrupt cache: no offer to start without it"
screen | grep -q "mv .*junk.sqlite.bad" || bad "a corrupt cache: the message does not say how to move it aside"
keys y Enter
wait_for "Red to move" 20 || bad "a corrupt cache: the game did not start without it"
# gsw ends before its window does: a window killed while gsw exits can catch
# the sanitizers' leak check halfway and leave gsw spinning with no terminal
quit "gsw (without the cache)"
[ "$(cksum <"$tmp/junk.sqlite")" = "$sum" ] || bad "a corrupt cache: the file was changed"
T kill-session -t g 2>/dev/null

cat "$tmp/stderr.game" "$tmp/stderr" >"$tmp/stderr.all"
[ -s "$tmp/stderr.all" ] && { bad "gsw wrote to stderr under the screen:"; cat "$tmp/stderr.all"; }
[ "$fail" -eq 0 ] && echo "tui screens ok"
exit "$fail"
