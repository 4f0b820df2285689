#!/usr/bin/env bash
# Checkers in the workbench under tmux: open `gsw play checkers`, see the
# board, toggle the square numbers, type a move, see the computer reply,
# walk the cursor over the dark squares and enter a quiet move with arrows,
# see a compulsory capture flagged (and a plain move refused), enter a
# double jump square by square, undo it, draw by threefold repetition, the
# perfect opponent's engine move where no proof comes in time, the
# analysis pane in men and best first, the
# lesson's first step, a too-small window's message, and quit. Skipped
# (exit 77) without tmux.
set -u
. "$(dirname "$0")/tmux_lib.sh"
# start ARGS...: gsw in a fresh window g (its exit status goes to $tmp/exit);
# the server of the last window may still be exiting, so it tries again
start() { start_wh 100 30 "$@"; }
quit() { quit_gsw "$@"; }
board() { screen | head -11; }
# the board's cells drawn in reverse video (the cursor; the selected piece
# too), one a line, spaces trimmed: "5●" is the cursor on square 5 with the
# numbers shown, its number inside the cell
reversed() {
  T capture-pane -p -e -t g | sed -n 2,11p | awk '
    function flush() { gsub(/^ +| +$/, "", out); if (out != "") print out; out = "" }
    { s = $0
      while ((i = index(s, "\033[")) > 0) {
        if (rev) out = out substr(s, 1, i - 1)
        s = substr(s, i + 2); j = index(s, "m"); n = split(substr(s, 1, j - 1), p, ";"); s = substr(s, j + 1)
        if (n == 0) { p[1] = "0"; n = 1 }
        was = rev
        for (k = 1; k <= n; k++) {
          if (p[k] == "38" || p[k] == "48") { k += p[k + 1] == "5" ? 2 : 4; continue }
          if (p[k] == "" || p[k] == "0" || p[k] == "27") rev = 0
          else if (p[k] == "7") rev = 1
        }
        if (was && !rev) flush()
      }
      if (rev) out = out s
    }'
}
# wait_cursor CELL: until CELL is drawn in reverse video
wait_cursor() {
  local i
  for ((i = 0; i < 100; i++)); do reversed | grep -qx -- "$1" && return 0; sleep 0.1; done
  return 1
}

start play checkers
wait_for "checkers:english" 30 || bad "checkers did not open"
wait_for "Black to move" 10 || bad "no turn under the board"
[ "$(board | grep -o '●' | wc -l)" -eq 12 ] || bad "twelve black men"
[ "$(board | grep -o '○' | wc -l)" -eq 12 ] || bad "twelve white men"
screen | grep -q "type it (9-13)" || bad "the welcome says moves can be typed"
# the analysis pane: scores in men, best first, its unit named
wait_for "~ heuristic, not proven: in men" 30 || bad "the pane does not name its unit (men)"
wait_for "^ .* [0-9]*-[0-9]*  *~[-+][0-9]\.[0-9][0-9]" 10 || bad "the pane's scores are not in men (~+0.00)"
scores=$(screen | sed -n 's/^.* [0-9][0-9]*-[0-9][0-9]* *~\([-+][0-9]*\.[0-9][0-9]\)$/\1/p')
sorted=$(printf '%s\n' $scores | sort -g -r)
[ -n "$scores" ] && [ "$(printf '%s\n' $scores)" = "$sorted" ] || bad "the pane's moves are not best first: $(echo $scores)"
# square numbers on request, and off again
keys '#'
wait_for " 1●" 10 || bad "square 1 numbered"
board | grep -q "32○" || bad "square 32 numbered"
keys '#'
wait_gone "32○" 10 || bad "numbers off again"
keys '#'
wait_for "32○" 10 || bad "numbers on again"
# a move typed; the computer (a heuristic player) answers
keys -l 11-15
wait_for "1\. 11-15" 10 || bad "11-15 typed"
wait_for "^ heuristic:5: " 60 || bad "the computer did not reply"
wait_for "Black to move" 60 || bad "Black's turn again"
keys : 'opponent human' Enter
wait_for "opponent: human" 10 || bad "opponent human"
# the arrows reach every dark square: from square 1 Down goes to the
# diagonal neighbour on the next row (5; not 9, skipping a row), and a
# quiet move is entered with arrows and Enter alone (9-13)
keys : 'new checkers' Enter
wait_gone "1\. 11-15" 10 || bad "a new game"
wait_cursor "1●" || bad "the cursor does not start on square 1 (reversed: $(reversed | tr '\n' ' '))"
keys Down
wait_cursor "5●" || bad "Down from 1 did not reach 5 (reversed: $(reversed | tr '\n' ' '))"
[ "$(reversed | wc -l)" -eq 1 ] || bad "the cursor is not one cell (reversed: $(reversed | tr '\n' ' '))"
keys Right Right Right
wait_cursor "8●" || bad "Right along the row did not reach 8"
keys Left Left Left Down
wait_cursor "9●" || bad "Down from 5 did not reach 9"
keys Enter Down
wait_cursor "13.*" || bad "Down from 9 did not reach 13"
keys Enter
wait_for "1\. 9-13" 10 || bad "9-13 was not entered with the arrows"
board | grep -q "13●" || bad "the man did not land on 13"
# a position with a double jump that forks after the first jump
keys : 'new checkers B:W6,14,15:B1' Enter
wait_for "A capture is compulsory" 10 || bad "the compulsory capture is not flagged"
wait_for "1x10x17" 20 || bad "the analysis pane lists the captures"
keys -l 1-5; keys Enter   # a plain move is refused, with the reason
wait_for "a capture is compulsory (1x10x17 1x10x19)" 10 || bad "a plain move was not refused"
# the first digit of no legal move: said at once, with the moves there are
keys -l 6
wait_for 'no legal move begins with "6" (legal: 1x10x17 1x10x19)' 10 || bad "a digit that begins no move is not answered"
# square by square: the cursor starts on square 1; 10 is two rows down
# (Down Down: 5, 9) and right, 19 the same again (14, 18, 19)
keys Enter
keys Down Down Right Enter
wait_for "move 1x10\.\.\." 10 || bad "the first jump did not wait for the next square"
keys Down Down Right Enter
wait_for "1\. 1x10x19" 10 || bad "the double jump was not played"
board | grep -q "19●" || bad "the man did not land on 19"
board | grep -q " 1●" && bad "square 1 still holds the man"
keys u
wait_for " 1●" 10 || bad "undo did not bring the man back"
wait_for "A capture is compulsory" 10 || bad "the flag is back after undo"
# typed: from and last square
keys -l 1x17
wait_for "1\. 1x10x17" 10 || bad "1x17 typed"
# typed without separators: 11017 spells 1x10x17, 2824 28-24
keys u
wait_for " 1●" 10 || bad "undo before the squeezed capture"
keys -l 11017
for i in $(seq 50); do board | grep -q "17●" && break; sleep 0.2; done
board | grep -q "17●" || bad "11017 typed (1x10x17 without separators)"
keys : 'new checkers B:WK1:BK28,K32' Enter
wait_for "Black to move" 10 || bad "a kings ending"
keys -l 2824
wait_for "1\. 28-24" 10 || bad "2824 typed (28-24 without its dash)"
# threefold repetition: two kings shuffle
keys : 'new checkers B:WK32:BK1' Enter
wait_for "White to move\|Black to move" 10 || bad "kings position"
for m in 1-5 32-28 5-1 28-32 1-5 32-28 5-1 28-32; do
  keys -l "$m"
  sleep 0.2
done
wait_for "Game over: a draw (threefold" 20 || bad "threefold repetition did not end the game"
screen | grep -q "^ repetition)" || bad "the reason under the board"
keys u
wait_gone "Game over" 10 || bad "undo after the draw"
# a window too small for the board says so, and the board comes back
T resize-window -t g -x 40 -y 12
wait_for "too small" 10 || bad "too-small message"
T resize-window -t g -x 100 -y 30
wait_for "Moves" 10 || bad "screen back after resize"
quit gsw
# the perfect opponent from the start: no proof within its time, so the
# engine's move, said so (it used to wait for ever)
start play checkers --opponent perfect:300
wait_for "Moves" 20 || bad "checkers against perfect:300 did not open"
keys : '11-15' Enter
wait_for "engine move" 30 || bad "perfect: no engine move after 11-15: $(screen | tail -5)"
quit "gsw (perfect)"
# the lesson's first step: the capture, typed
start lesson checkers-shot
wait_for "Lesson 1/5" 20 || bad "the lesson did not open"
wait_for "A capture is compulsory" 10 || bad "lesson: flag"
wait_for "published values agree" 30 || bad "lesson: values not proven"
keys -l 10x17
wait_for "10x17 wins at once: the game is over, won" 20 || bad "lesson step 1 judgement"
keys n
wait_for "Lesson 2/5" 20 || bad "lesson step 2"
# best first also where some moves hold proven bounds that straddle a draw
# (shown by their heuristic score): the ~ scores fall down the pane
wait_for "15-18 *~" 30 || bad "lesson step 2: heuristic scores"
sleep 3
scores=$(screen | grep -oE '[0-9]+-[0-9]+ +~[-+][0-9]+\.[0-9]+' | sed 's/.*~//' | tr -d '.+' | tr '\n' ' ')
sorted=$(printf '%s\n' $scores | sort -rn | tr '\n' ' ')
[ -n "$scores" ] && [ "$scores" = "$sorted" ] || bad "lesson step 2: heuristic moves not best first: $scores"
keys -l 14-18
wait_for "Right: the shot" 20 || bad "lesson step 2 judgement"
quit "gsw (lesson)"
# a lesson opened with --dir reads those databases: two kings each, a win
# in 49 plies that no search proves within a lesson step's 1.5 s
"$gsw" egdb build checkers --for 'B:WK2,K4:BK3,K7' --metric dtw --dir "$tmp/kings" >/dev/null 2>&1 || bad "egdb build for the lesson"
cat >"$tmp/kings.lesson" <<'EOF2'
title: two kings each
game: checkers
step: one move wins
position: B:WK2,K4:BK3,K7
values: 7-10=W49 3-8=D 7-11=D
expect: 7-10
EOF2
start lesson "$tmp/kings.lesson" --dir "$tmp/kings"
wait_for "Lesson 1/1" 20 || bad "the file lesson did not open"
wait_for "published values agree with the solver (3 checked)" 30 || bad "lesson --dir: the databases' values not read"
quit "gsw (lesson)"
[ "$fail" -eq 0 ] && echo "checkers tui ok"
exit "$fail"
