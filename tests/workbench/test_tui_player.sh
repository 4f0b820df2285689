#!/usr/bin/env bash
# The workbench for a chess player (issue 55): F turns the board round (its
# labels with it; the cursor's arrows and a click still pick the square
# shown; checkers too; Connect Four says why not), the shell's flip; the
# analysis pane's best N engine lines (:lines N), proven moves kept out of
# them; a game on a clock (--clock): the engine keeps to its time, a flag
# falls (a loss; a draw against a lone king), undo puts the times back,
# :clock starts a fresh one; turned round, the clock of the side at the
# foot comes first; a window too small holds the person's clock.
# Skipped (exit 77) without tmux.
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
wait_for "F           the board turned round" 10 || bad "the help does not list F"
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
screen | grep -q "[0-9]) [^ ]* Ra8" && bad "the proven mate Ra8# is among the engine's lines"
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

# ---- --clock: the engine keeps to its time, a flag falls, undo puts the times back ----
start_wh 100 30 play chess --clock 0:04+0
wait_for "White [0-4]\.[0-9]  Black 4\.0" 30 || bad "no clocks under the board"
cmd 'e4'
wait_for "1\. e4 *[a-hNBRQK]" 10 || bad "the engine did not answer on a 4 s clock"
screen | grep -q "Black [23]\.[0-9]" || bad "the engine spent more than a second of its 4 s on a move"
wait_for "Game over: Black wins" 10 || bad "White's flag did not fall"
screen | grep -q "(White out of time)" || bad "the game over does not say the time ran out"
screen | grep -qE "line: | ~[+-][0-9]+\.[0-9][0-9]" && bad "the game is over, yet the pane lists moves to play: $(screen)"
keys u
wait_for "White to move" 10 || bad "undo did not take the game back past the flag"
screen | grep -q "Game over" && bad "the game is still over after undo"
screen | grep -q "White [1-3]\.[0-9]" || bad "undo did not put White's time back"
quit_gsw "the clock"
start_wh 100 30 play chess "'4k3/8/8/8/8/8/8/R3K3 w - - 0 1'" --opponent human --clock 0:02+0
wait_for "Game over: a draw" 15 || bad "White's flag against a lone king: no draw"
screen | grep -q "White out of time, but Black cannot win" || bad "the draw does not say why"
cmd "export $tmp/flag.pgn"
wait_for "wrote .*flag.pgn" 10 || bad "export said nothing"
grep -q '^\[Result "1/2-1/2"\]' "$tmp/flag.pgn" || bad "the record of the flag's draw: $(cat "$tmp/flag.pgn")"
cmd 'clock 0:03+0'
wait_for "clock 0:03+0: White 3.0, Black 3.0" 10 || bad ":clock did not start a fresh clock"
wait_for "White to move" 10 || bad "the game did not go on with a fresh clock"
quit_gsw "the clock's draw"
# turned round, the clock of the side at the board's foot comes first
start_wh 100 30 play chess --opponent human --clock 0:09+0
wait_for "White [0-9]\.[0-9]  Black 9\.0" 30 || bad "no 9 s clocks under the board"
keys F
wait_for "Black 9\.0  White [0-9]\.[0-9]" 10 || bad "turned round, Black's clock (at the foot) is not first: $(screen | grep 'White [0-9]')"
quit_gsw "the clocks turned round"
# a window too small to show the board holds the person's clock (their keys are ignored)
start_wh 100 30 play chess --opponent human --clock 0:08+0
wait_for "White [5-8]\.[0-9]  Black 8\.0" 30 || bad "no 8 s clocks under the board"
T resize-window -t g -x 50 -y 14
wait_for "Your clock is stopped meanwhile" 10 || bad "the small window does not say the clock is stopped"
sleep 6   # (what is measured is the time that passes)
T resize-window -t g -x 100 -y 30
wait_for "White to move" 10 || bad "the board did not come back"
screen | grep -q "White [2-8]\.[0-9]  Black 8\.0" || bad "White's clock ran while the window was too small: $(screen | grep 'White [0-9]')"
screen | grep -q "Game over" && bad "White's flag fell while the window was too small"
quit_gsw "the held clock"
"$gsw" play chess --clock 5x3 >"$tmp/out" 2>&1 </dev/null
rc=$?
[ $rc -eq 2 ] && grep -q "a time control is MINUTES+SECONDS" "$tmp/out" || bad "--clock 5x3 was not refused (exit $rc): $(cat "$tmp/out")"

exit $fail
