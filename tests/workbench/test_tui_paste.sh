#!/usr/bin/env bash
# A FEN or a PGN pasted into the workbench (issue 55): tmux's paste-buffer
# -p marks the paste as a terminal does (ESC [200~ ... ESC [201~, once gsw
# asks for it); a FEN sets up its position, a PGN its game with the moves
# as history (u steps back), a text that is neither (garbage, a bad FEN, an
# illegal move) says why in the message area and changes nothing; a paste
# into the ':' line is the line's text; :paste FEN, :paste alone with the
# text typed after it (a blank line ends it, Esc cancels), :fen says the
# FEN and that it went to the clipboard; the paste mode is off once gsw has
# quit; ? lists them; on the picker a paste goes to the game highlighted.
# Skipped (exit 77) without tmux.
set -u
. "$(dirname "$0")/tmux_lib.sh"
board() { screen | head -11; }
# row PATTERN WHY: the board shows a row PATTERN, else WHY fails
row() { board | grep -q "$1" || bad "$2"; }
cmd() { keys : "$1" Enter; }
# paste TEXT: TEXT pasted as a terminal that brackets pastes does
paste() { T set-buffer -- "$1"; T paste-buffer -p -t g; }

# ---- on the picker: into the game highlighted ----
start_wh 100 30 play
wait_for "Pick a game" 30 || bad "the picker did not open"
keys Down Down Down Down   # Connect Four 4x4
paste 'not moves'
wait_for "paste: not a connect4:4x4 position nor moves" 10 || bad "a bad paste on the picker said nothing"
screen | grep -q "Pick a game" || bad "a bad paste left the picker"
paste '2233'
wait_for "pasted 4 plies from the start" 10 || bad "a paste on the picker did not set up the game highlighted"
screen | grep -q "connect4:4x4" || bad "the paste on the picker is not in Connect Four 4x4"
quit_gsw "the picker's paste"

open_window 100 30 "env GSW_DB='$tmp/cache.sqlite' GSW_HISTORY='$tmp/history' LANG=C.UTF-8 TERM=xterm-256color '$gsw' play chess --opponent human --threads 1 --hash 16; echo \"exit=\$?\" >'$tmp/exit'; cat -v >'$tmp/after'"
wait_for "White to move" 30 || bad "chess did not open"
keys a   # the analysis off: nothing to wait on (a waits its second: a move may begin with it)
wait_for "(off: press a)" 10 || bad "a did not turn the analysis off"
keys ?
wait_for "paste       a FEN or a PGN pasted sets it up (:paste \[TEXT\])   :fen  the FEN" 10 || bad "? does not list paste and :fen"
keys Escape
wait_gone "paste       a FEN or a PGN" 10 || bad "the help did not close"

# ---- a FEN ----
paste 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3'
wait_for "pasted a position (FEN)" 10 || bad "the FEN paste was not set up"
row "^  6  \. \. ♞ \. \. \. \. \." "the pasted FEN's knight is not on c6"
row "^  3  \. \. \. \. \. ♘ \. \." "the pasted FEN's knight is not on f3"
screen | grep -q "White to move" || bad "the pasted FEN's side to move"

# ---- a PGN: its moves as history ----
paste "$(printf '[Event "paste"]\n[White "a"]\n[Black "b"]\n\n1. d4 d5 2. c4 e6\n3. Nc3 *\n')"
wait_for "pasted a game (PGN) of 5 plies" 10 || bad "the PGN paste was not set up"
screen | grep -q "1\. d4 *d5" || bad "the PGN's moves are not in the move list"
screen | grep -q "3\. Nc3" || bad "the PGN's last move is not in the move list"
row "^  3  \. \. ♘ \. \. \. \. \." "the PGN's last move Nc3 is not on the board"
screen | grep -q "Black to move" || bad "Black is not to move after the PGN"
keys u
wait_for "^  3  \. \. \. \. \. \. \. \." 10 || bad "u did not take Nc3 back"
screen | grep -q "White to move" || bad "White is not to move after u"
keys u
wait_for "^  6  \. \. \. \. \. \. \. \." 10 || bad "a second u did not take e6 back"

# ---- neither: said in a line, nothing changes ----
before=$(board)
paste 'not a position at all'
wait_for "paste: neither a FEN nor a PGN of chess:standard" 10 || bad "garbage was not refused"
[ "$(board)" = "$before" ] || bad "garbage changed the board"
paste 'rnbqkbnr/pppppppp/8/8 x KQkq - 0 1'
wait_for "bad FEN" 10 || bad "a malformed FEN was not refused with the FEN's reason"
[ "$(board)" = "$before" ] || bad "a malformed FEN changed the board"
paste "$(printf '1. e4 e5\n2. Ke3 *\n')"
wait_for "Ke3" 10 || bad "a PGN with an illegal move was not refused naming it"
[ "$(board)" = "$before" ] || bad "a PGN with an illegal move changed the board"
screen | grep -q "1\. d4 *d5" || bad "a refused paste changed the move list"

# ---- a paste into the ':' line is its text ----
keys :
wait_for "^:" 10 || bad "the ':' line did not open"
paste 'new chess 8/8/8/4k3/8/8/4P3/4K3'
wait_for "^:new chess 8/8/8/4k3/8/8/4P3/4K3" 10 || bad "the paste is not the ':' line's text"
screen | grep -q "pasted a position" && bad "a paste into the ':' line was set up as a position"
keys Escape
wait_gone "^:new chess" 10 || bad "Esc did not close the ':' line"

# ---- :paste FEN, :fen ----
cmd 'paste 4k3/8/8/8/8/8/3PP3/4K3 b - - 0 1'
wait_for "pasted a position (FEN)" 10 || bad ":paste FEN was not set up"
row "^  2  \. \. \. ♙ ♙ \. \. \." ":paste FEN's pawns"
screen | grep -q "Black to move" || bad ":paste FEN's side to move"
cmd 'fen'
wait_for "^ 4k3/8/8/8/8/8/3PP3/4K3 b - - 0 1" 10 || bad ":fen did not show the FEN"
screen | grep -q "FEN copied to the clipboard, where the terminal allows it" || bad ":fen did not say the clipboard"

# ---- :paste alone: the text typed after it, to a blank line; Esc cancels ----
cmd 'paste'
wait_for "paste: type or paste the text" 10 || bad ":paste alone did not ask for the text"
keys -l 'rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1'
keys Enter
wait_for "(1 line so far)" 10 || bad ":paste did not count the line typed"
keys Enter
wait_for "pasted a position (FEN)" 10 || bad ":paste alone: the blank line did not set the text up"
row "^  3  \. \. \. \. \. ♘ \. \." ":paste alone: the typed FEN's knight"
before=$(board)
cmd 'paste'
wait_for "paste: type or paste the text" 10 || bad ":paste alone (again) did not ask for the text"
keys -l '8/8/8'
keys Escape
wait_for "paste cancelled: nothing changed" 10 || bad "Esc did not cancel :paste"
[ "$(board)" = "$before" ] || bad "a cancelled :paste changed the board"

# ---- once gsw has quit, the terminal no longer brackets pastes ----
quit_gsw "the paste test"
paste 'after'
keys Enter
for ((i = 0; i < 50; i++)); do grep -q after "$tmp/after" 2>/dev/null && break; sleep 0.1; done
grep -q "after" "$tmp/after" || bad "the paste after gsw quit did not arrive: $(cat -v "$tmp/after" 2>/dev/null)"
grep -q "200~" "$tmp/after" && bad "the paste mode is still on after gsw quit: $(cat "$tmp/after")"

exit $fail
