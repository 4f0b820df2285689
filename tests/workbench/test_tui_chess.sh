#!/usr/bin/env bash
# Chess in the workbench under tmux, as a chess player uses it (80x24):
# a promotion asks which piece (a knight by its key, the queen by Enter, Esc
# cancels); the squares a selected piece can reach are marked (en passant,
# castling on the king's square g1/c1, a capture); moves typed in SAN and
# UCI at the ':' line (O-O, e8c8), an illegal one answered in one line; the
# analysis pane's mate in 1 and scores in pawns; the heuristic opponent
# mating; the end of a game said with its reason (checkmate, stalemate,
# insufficient material, the 50-move rule, threefold repetition); --ascii
# --mono letters; the opponent key offering perfect too (it plays the
# engine's move where no proof comes in its time); moves typed at the board
# without ':' (e4, Nf3, a6, O-O), a and h alone keeping their commands;
# a 120x40 window and a tiny one; a tablebase built on demand shows its
# progress on the status line; a game begun with Black to move lists
# Black's moves in Black's column. Skipped (exit 77) without tmux.
set -u
. "$(dirname "$0")/tmux_lib.sh"
start() { start_wh "$@"; }
quit() { quit_gsw "$@"; }
board() { screen | head -11; }
cmd() { keys : "$1" Enter; }

# ---- a tablebase built on demand says how far it has got ----
# (KBNK: with the board's symmetry folded KRK builds in a tenth of a second,
# too quick to be seen; KBNK takes seconds, under ASan some 20)
start 100 30 play chess "'8/8/8/3k4/8/8/8/1NB1K3 w - - 0 1'" --opponent human
wait_for "building the KBNK tablebase: \[[0-9]/[0-9]\] .*%" 60 || bad "the KBNK build's progress is not on the status line"
wait_for "Kd2 *mate in 30" 180 || bad "the KBNK tablebase did not answer"
quit "the tablebase build"

# ---- a promotion: which piece? ----
start 80 24 play chess "'4k3/1P6/8/8/8/8/6K1/8 w - - 0 1'" --opponent human
wait_for "chess:standard" 30 || bad "chess did not open"
wait_for "White to move" 10 || bad "no turn under the board"
screen | grep -q "(K[a-h][1-8])\.  ? for help" || bad "the welcome says moves are typed at the board"
keys Down Right Enter   # the cursor starts on a8: the pawn on b7
wait_for "^  8  \. ∘ \. \. ♚" 10 || bad "b8 is not marked for the pawn"
keys Up Enter
wait_for "choose: q) b8=Q+  r) b8=R+  b) b8=B  n) b8=N  (Enter: b8=Q+" 10 || bad "no promotion prompt"
keys n
wait_for "1\. b8=N" 10 || bad "the knight promotion was not played"
board | grep -q "^  8  \. ♘ \. \. ♚" || bad "no knight on b8"
wait_for "(insufficient" 10 || bad "K+N v K: insufficient material not said"
screen | grep -q "Game over: a draw" || bad "the dead position is not a draw"
keys u
wait_for "^  7  \. ♙" 10 || bad "undo"
keys Down Enter Up Enter   # (the cursor stayed on b8)
wait_for "choose: q)" 10 || bad "no prompt the second time"
keys Escape
wait_gone "choose: q)" 10 || bad "Esc did not cancel the choice"
board | grep -q "^  7  \. ♙" || bad "the pawn moved on Esc"
keys Down Enter Up Enter
wait_for "choose: q)" 10 || bad "no prompt the third time"
keys Enter
wait_for "1\. b8=Q+" 10 || bad "Enter did not promote to a queen"
board | grep -q "^  8  \. ♕ \. \. ♚" || bad "no queen on b8"
screen | grep -q "Check: the king must" || bad "the check is not said"

# ---- marks: en passant, a capture, castling; moves typed at the ':' line ----
cmd 'new chess r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1'
wait_for "White to move" 10 || bad "the castling position"
keys Down Down Down Right Right Right Right Enter   # from a8: the pawn on e5
wait_for "^  6  \. \. \. ∘ ∘ \. \. \." 10 || bad "e6 and the en-passant square d6 are not marked"
keys Escape
keys Down Down Down Down Left Left Left Left Enter # the rook on a1
wait_for "^  8 ×♜" 10 || bad "the rook on a8 is not marked as a capture"
keys Escape
keys Right Right Right Right Enter                 # the king on e1
wait_for "^  1  ♖ \. ∘ ∘ ♔ ∘ ∘ ♖" 10 || bad "the king's squares (c1 and g1 for castling) are not marked"
keys Escape
cmd 'exd6'
wait_for "1\. exd6" 10 || bad "exd6 (SAN, en passant) typed at the : line"
board | grep -q "^  5  \. \. \. \. \. \. \. \." || bad "en passant did not take the pawn on d5"
cmd 'e8c8'
wait_for "1\. exd6 *O-O-O" 10 || bad "e8c8 (UCI) did not castle long"
board | grep -q "^  8  \. \. ♚ ♜ \. \. \. ♜" || bad "O-O-O: the king and rook"
keys Enter Right Right Enter                       # the king (the cursor is on e1), then g1: castles
wait_for "2\. O-O" 10 || bad "a click on g1 did not castle"
board | grep -q "^  1  ♖ \. \. \. \. ♖ ♔ \." || bad "O-O: the rook is not on f1"
cmd 'Kd9'
wait_for 'bad move "Kd9"' 10 || bad "a bad move is not answered"
cmd 'Qd1'
wait_for 'illegal move "Qd1" in this position' 10 || bad "an illegal move is not answered"

# ---- the analysis pane: mate in 1, pawns; the game's end ----
cmd 'new chess 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1'
wait_for "Ra8# *mate in 1" 30 || bad "the pane does not show mate in 1"
wait_for " ~+[0-9]*\.[0-9][0-9]" 30 || bad "the pane's heuristic scores are not in pawns"
cmd 'Ra8#'
wait_for "White wins" 10 || bad "Ra8# did not win"
screen | grep -q "(checkmate)" || bad "checkmate is not said"
cmd 'new chess 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1'
wait_for "(stalemate)" 10 || bad "stalemate is not said"
cmd 'new chess 7k/8/8/8/8/8/8/R6K w - - 99 80'
wait_for "White to move" 10 || bad "the 50-move position"
cmd 'Ra2'
wait_for "(50-move rule)" 10 || bad "the 50-move rule is not said"
cmd 'new chess'
wait_for "White to move" 10 || bad "the start position"
for m in Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8; do cmd "$m"; sleep 0.2; done
wait_for "(threefold" 20 || bad "threefold repetition is not said"
# a big window and a tiny one
T resize-window -t g -x 120 -y 40
wait_for "Moves" 10 || bad "120x40"
board | grep -q "^  8  ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜" || bad "the board at 120x40"
T resize-window -t g -x 40 -y 12
wait_for "too small" 10 || bad "no too-small message"
T resize-window -t g -x 80 -y 24
wait_for "Moves" 10 || bad "the screen did not come back"
quit "gsw (promotion, marks, ends)"

# ---- the heuristic opponent mates ----
start 80 24 play chess "'6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1'" --opponent heuristic:1 --side second
wait_for "^ heuristic:1: Ra8#" 30 || bad "the heuristic opponent did not mate in one"
wait_for "(checkmate)" 10 || bad "its checkmate is not said"
quit "gsw (heuristic mate)"

# ---- a game begun with Black to move: Black's moves in Black's column ----
start 80 24 play chess "'1K6/8/8/8/8/3k4/8/6r1 b - - 0 60'" --opponent heuristic:1 --side second
wait_for "Black to move" 30 || bad "the Black-to-move position did not open"
cmd Kc4
wait_for "  1\. \.\.\. *Kc4" 10 || bad "Black's first move is not in Black's column (1. ... Kc4)"
wait_for "  2\. K[a-c][7-8] " 30 || bad "White's reply does not open the second row"
quit "gsw (Black moves first)"

# ---- --ascii --mono: letters; the opponent key ----
start 80 24 play chess --ascii --mono
wait_for "chess:standard" 30 || bad "chess --ascii did not open"
board | grep -q "^  8  r n b q k b n r" || bad "ascii: Black's pieces"
board | grep -q "^  2  P P P P P P P P" || bad "ascii: White's pawns"
board | grep -q "^  1  R N B Q K B N R" || bad "ascii: White's pieces"
keys Down Down Down Down Down Down Right Right Right Right Enter   # from a8: the pawn on e2
wait_for "^  4  \. \. \. \. + \. \. \." 10 || bad "ascii: e4 is not marked"
keys Up Up Enter
wait_for "1\. e4" 10 || bad "ascii: e2-e4 by keys"
wait_for "^ heuristic:3: " 60 || bad "the default opponent did not reply"
keys o
wait_for "opponent: heuristic:4" 10 || bad "o: heuristic:4 (every level in turn)"
keys o o o o o o
wait_for "opponent: human" 10 || bad "o: on to human"
keys o
wait_for "opponent: perfect" 10 || bad "o: after human comes perfect (an engine move where no proof comes in time)"
quit "gsw --ascii"

# ---- a finished game's value history: scores (~) where no proof, the mate
# proven; then the worker rests (it used to prove every past position) ----
printf '[Event "t"]\n[Result "1-0"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n' >"$tmp/scholar.pgn"
start 100 30 play chess --file "$tmp/scholar.pgn"
wait_for "Game over: White wins" 30 || bad "the PGN's mate is not said"
keys v
wait_for "Value history" 10 || bad "v: no value history"
wait_for "4\\. *Qxf7# .*|#* *mate in 1" 60 || bad "the history: Qxf7# is not mate in 1"
wait_for "1\\. *e4 .*~[+-][0-9]*\\.[0-9][0-9]" 60 || bad "the history: e4 has no engine score (~)"
wait_for "3\\.\\.\\. *Nf6 .*~\\?mated in" 60 || bad "the history: Nf6 does not allow the mate in 1"
wait_gone "working:" 60 || bad "the worker still works on a finished game"
quit "the value history"

# ---- moves typed at the board, no ':' (SAN); a, h alone keep their commands ----
start 80 24 play chess --opponent human
wait_for "chess:standard" 30 || bad "chess did not open (typed moves)"
wait_for "White to move" 10 || bad "typed moves: no turn"
keys e 4
wait_for "1\. e4" 10 || bad "e4 typed at the board"
keys e 5
wait_for "1\. e4 *e5" 10 || bad "e5 typed at the board"
keys N f 3
wait_for "2\. Nf3" 10 || bad "Nf3 typed at the board (f inside a move is no command)"
keys N c 6 B b 5
wait_for "3\. Bb5" 10 || bad "Bb5 typed at the board (b inside a move)"
keys a
wait_for "a_  (a move if its next character follows" 5 || bad "a waits a second to see whether a move follows"
wait_for "(off: press a)" 5 || bad "a alone, after its second: the analysis pane goes off"
keys a 6
wait_for "3\. Bb5 *a6" 10 || bad "a6 typed at the board (a then a digit)"
keys B x c 6
wait_for "4\. Bxc6" 10 || bad "Bxc6 typed at the board"
keys d x c 6 O - O
wait_for "4\. Bxc6 *dxc6" 10 || bad "dxc6 typed at the board"
wait_for "5\. O-O" 10 || bad "O-O typed at the board"
keys h
wait_for "hint: " 10 || bad "h alone, after its second: a hint"
keys '?'
wait_for "e4 Nf3 O-O" 5 || bad "? does not say how moves are typed"
screen | grep -q "Chess: a piece, then its target" || bad "? does not say chess's kind of move"
screen | grep -q "q r b n     a promotion" || bad "? does not give chess's promotion keys"
screen | grep -q "F           the board turned round" || bad "? does not give the key that turns the board"
screen | grep -q "squares' numbers" && bad "? in chess lists checkers' squares' numbers"
screen | grep -q "1-9  \|type both digits" && bad "? in chess offers digit keys, which begin no chess move"
keys Escape
keys f 7 f 6   # UCI at the board, begun by a command key (f: follow)
wait_for "5\. O-O *f6" 10 || bad "f7f6 (UCI) typed at the board"
# the check sign and Enter typed after a move are the move's: Ra8# Enter
# neither turns square numbers on (#) nor says "the game is over"
cmd 'new chess 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1'
wait_for "White to move" 10 || bad "the mate-in-one position"
keys R a 8 '#' Enter
wait_for "Game over: White wins" 10 || bad "Ra8# typed"
sleep 0.5
screen | grep -q "b8\.\|square numbers: on" && bad "the # of Ra8# turned square numbers on"
screen | grep -q "the game is over" && bad "the Enter after Ra8# was taken as a command"
quit "typed moves"

# a tablebase the analysis was building stops with the game: the mate
# leaves no build behind (it went on for minutes, for a finished game)
start 100 30 play chess --opponent human
wait_for "White to move" 30 || bad "chess did not open (a finished game's build)"
cmd 'new chess k7/8/1K6/8/8/8/p6Q/8 w - - 0 1'
wait_for "building the KQKP tablebase" 60 || bad "the analysis does not build KQKP"
keys Q h 8
wait_for "Game over: White wins" 10 || bad "Qh8# typed"
wait_gone "building the" 10 || bad "the KQKP build goes on after the game: $(screen | tail -1)"
quit "a finished game's build"
[ "$fail" -eq 0 ] && echo "chess tui ok"
exit "$fail"
