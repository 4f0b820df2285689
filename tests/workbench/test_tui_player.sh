#!/usr/bin/env bash
# The workbench for a chess player (issue 55): F turns the board round (its
# labels with it; the cursor's arrows and a click still pick the square
# shown; checkers too; Connect Four says why not), the shell's flip; the
# analysis pane's best N engine lines (:lines N); a game on a clock (--clock)
# whose flag falls. Skipped (exit 77) without tmux.
set -u
. "$(dirname "$0")/tmux_lib.sh"
board() { screen | head -11; }
cmd() { keys : "$1" Enter; }
# click X Y: the first button pressed and released at screen column X, row Y (0-based), as
# xterm reports it in its SGR mode (xterm-256color's kmous)
click() { T send-keys -t g -l "$(printf '\033[<0;%d;%dM\033[<0;%d;%dm' $(($1 + 1)) $(($2 + 1)) $(($1 + 1)) $(($2 + 1)))"; }

# ---- F: the board turned round ----
start_wh 100 30 play chess --opponent human
wait_for "White to move" 30 || bad "chess did not open"
keys F
wait_for "^  1  ♖ ♘ ♗ ♔ ♕ ♗ ♘ ♖" 10 || bad "F did not put rank 1 at the top"
board | grep -q "^     h g f e d c b a" || bad "the files are not labelled h to a"
screen | grep -q "flip: on" || bad "F said nothing"
keys Up Up Up Up Up Up Enter   # the cursor starts on a8, shown bottom right: up to a2
wait_for "^  3  \. \. \. \. \. \. \. ∘" 10 || bad "a2's pawn is not selected (its a3 marked)"
keys Down Enter
wait_for "1\. a3" 10 || bad "Down from a2 (shown turned round) did not reach a3"
y=$(screen | grep -n "^  7 " | cut -d: -f1)   # black's h-pawn, shown on the left of rank 7's row
click 5 $((y - 1))
y5=$(screen | grep -n "^  5 " | cut -d: -f1)
click 5 $((y5 - 1))
wait_for "1\. a3 *h5" 10 || bad "clicks on h7 and h5 as shown did not play h5"
keys F
wait_for "^  7  ♟ ♟ ♟ ♟ ♟ ♟ ♟ \." 10 || bad "F again did not turn the board back"
keys a   # the analysis off: the worker rests, and the key line shows
wait_for "F flip   q quit" 10 || bad "the key line does not offer F"
keys ?
wait_for "F           flip" 10 || bad "the help does not list F"
keys Escape
cmd 'new connect4'
wait_for "Red to move" 10 || bad "Connect Four did not open"
wait_for "? help   q quit" 10 || bad "no key line on Connect Four"
screen | grep -q "F flip" && bad "the key line offers F on Connect Four"
keys F
wait_for "flip: not for this board" 10 || bad "F on Connect Four did not say why not"
quit_gsw "flip"

# ---- flip in the shell: the text board turned round, checkers too ----
printf 'flip\nnew checkers\nshow\nnew connect4\nflip\n' | GSW_DB="$tmp/cache.sqlite" "$gsw" shell chess --threads 1 --hash 16 >"$tmp/out" 2>&1
grep -q "^  1  R  N  B  K  Q  B  N  R $" "$tmp/out" || bad "shell flip: rank 1 is not at the top: $(cat "$tmp/out")"
grep -q "^     h  g  f  e  d  c  b  a $" "$tmp/out" || bad "shell flip: the files"
grep -m1 -E '^ +[wb] ' "$tmp/out" | grep -q w || bad "shell flip: checkers' white men are not at the top: $(cat "$tmp/out")"
grep -q "flip: not for this board" "$tmp/out" || bad "shell flip on Connect Four"

# ---- lines N: the engine's best N lines; what is proven stays in the list, proven ----
start_wh 100 30 play chess "'6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1'" --opponent human
wait_for "White to move" 30 || bad "the back-rank position did not open"
cmd 'lines 3'
wait_for "  4) ~[+-][0-9]\.[0-9][0-9] [KR][a-h][1-8] " 20 || bad "no third engine line (the list's 4th move: Ra8# is 1st)"
screen | grep -q "  2) ~[+-][0-9]\.[0-9][0-9] [KR][a-h][1-8] [a-hK]" || bad "the first engine line has no score or no line"
screen | grep -q ") .*Ra8" && bad "the proven mate Ra8# is among the engine's lines"
screen | grep -q "[ *]Ra8#  *mate in 1" || bad "the proven mate is not in the list as proven"
cmd 'lines 9'
wait_for "lines N: N from 0 to 8" 10 || bad "lines 9 was not refused"
cmd 'lines 1'
wait_gone "  2) ~" 10 || bad "lines 1 did not turn the lines off"
quit_gsw "lines"
printf 'lines 2\nanalyze\n' | GSW_DB="$tmp/cache.sqlite" "$gsw" shell chess --time 300 --threads 1 --hash 16 >"$tmp/out" 2>&1
grep -q "^line 1: ~[+-][0-9.]* [a-hNBRQK][a-h1-8x]* [a-hNBRQK]" "$tmp/out" || bad "shell lines: no first line: $(cat "$tmp/out")"
grep -q "^line 2: ~" "$tmp/out" || bad "shell lines: no second line"
grep -q "^line 3" "$tmp/out" && bad "shell lines 2 gave three"

exit $fail
