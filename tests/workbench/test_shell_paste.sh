#!/usr/bin/env bash
# paste and fen in `gsw shell`: paste FEN sets up the position (the board
# shown), paste alone reads the lines that follow (a PGN's blank line after
# its tags goes on; the next blank line, or the end of the input, ends it)
# with the moves as history; fen prints the FEN alone (no clipboard words:
# the shell has no terminal to hand it to); a text that is neither stops
# the script with one line on stderr, exit 2; help lists both.
set -u
. "$(dirname "$0")/../cli/cli_lib.sh"
# sh SCRIPT [ARGS...]: gsw shell with the script on stdin; out, err, rc
sh() {
  local script=$1
  shift
  printf '%b' "$script" | timeout 60 "$gsw" shell "$@" --no-cache --threads 1 --hash 16 --opponent human \
    >"$tmp/out" 2>"$tmp/err"
  rc=$?
}

sh 'paste r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\nfen\n' chess
same "$rc" 0 "paste FEN: exit ($(cat "$tmp/err"))"
has out "pasted a position (FEN)" "paste FEN said"
has_re out '^  6  r? *\.  \.  n  \.' "paste FEN: the board"
has_re out '^r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3$' "fen: the FEN alone on its line"
grep -q "clipboard" "$tmp/out" && bad "the shell's fen speaks of a clipboard" || ok

sh 'paste\n[Event "x"]\n[White "a"]\n\n1. e4 e5 2. Nf3\nNc6 3. Bb5 *\n\nfen\nundo 2\nfen\n' chess
same "$rc" 0 "paste alone: exit ($(cat "$tmp/err"))"
has out "pasted a game (PGN) of 5 plies" "paste alone: the PGN over lines, after its tags' blank line"
has_re out '^r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3$' "fen after the PGN"
has_re out '^rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2$' "undo 2 steps back through the PGN's moves"

sh 'paste\n1. d4 d5' chess   # to the end of the input
same "$rc" 0 "paste alone to the end of the input: exit ($(cat "$tmp/err"))"
has out "pasted a game (PGN) of 2 plies" "paste alone to the end of the input"

sh 'e4\npaste not a position at all\nfen\n' chess
same "$rc" 2 "garbage: exit"
[ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || bad "garbage: the error is not one line: $(cat "$tmp/err")"
has err "paste: neither a FEN nor a PGN of chess:standard" "garbage: the error says what was tried"
grep -q "pasted" "$tmp/out" && bad "garbage was set up: $(cat "$tmp/out")" || ok

sh 'paste 4453\nundo\nfen\n' connect4
same "$rc" 0 "Connect Four's moves: exit ($(cat "$tmp/err"))"
has out "pasted 4 plies from the start" "Connect Four's moves as history"
has_re out '^445$' "undo after Connect Four's pasted moves"

sh 'help\n' chess
has_re out '^paste +\[TEXT\] +set up a pasted FEN' "help lists paste"
has_re out '^fen +\[FEN\] +the position' "help lists fen"

# fen FEN sets the position up; a bad one is one line, and the script stops
sh 'fen 8/8/8/3k4/8/8/2r5/KQ6 w - - 0 1\nfen\n' chess
same "$rc" 0 "fen FEN: exit ($(cat "$tmp/err"))"
has out "set up a position (FEN)" "fen FEN: said"
has_re out '^8/8/8/3k4/8/8/2r5/KQ6 w - - 0 1$' "fen after fen FEN"
sh 'fen 8/8/8/3k4/8/8/2r5/KQ6 w - - 0 1 junk\nfen\n' chess
same "$rc" 2 "fen with a bad FEN: exit"
[ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || bad "fen with a bad FEN: the error is not one line: $(cat "$tmp/err")"
has err "bad FEN" "fen with a bad FEN: the error says so"

echo "paste shell: $pass ok, $fail failed"
[ "$fail" -eq 0 ]
