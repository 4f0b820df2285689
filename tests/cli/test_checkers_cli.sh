#!/usr/bin/env bash
# Checkers from the command line: perft counts (published, OEIS A133046),
# --divide summing to the total, --json fields; bad FENs and illegal moves
# exiting 2 with one line naming the problem; PDN records through the
# shell's load and export and gsw play --file. Needs GSW_BIN (set by ctest).
set -u
. "$(dirname "$0")/cli_lib.sh"


# ---- perft ----
expect 0 "perft 5" -- "$gsw" perft checkers 5 && same "$(cat "$tmp/out")" 7361 "perft 5 from the start"
expect 0 "perft startpos 6" -- "$gsw" perft checkers startpos 6 && same "$(cat "$tmp/out")" 36768 "perft 6"
expect 0 "perft FEN" -- "$gsw" perft checkers 'B:W25,26:B23' 2 && same "$(cat "$tmp/out")" 2 "crowning capture perft 2"
expect 0 "perft depth 0" -- "$gsw" perft checkers 0 && same "$(cat "$tmp/out")" 1 "perft 0"
expect 0 "perft --divide" -- "$gsw" perft checkers 4 --divide
same "$(awk 'NF == 2' "$tmp/out" | wc -l)" 7 "divide: one line per first move"
same "$(awk 'NF == 2 { s += $2 } END { print s }' "$tmp/out")" 1469 "divide: the lines sum to perft 4"
same "$(tail -n 1 "$tmp/out")" 1469 "divide: the total last"
has out "11-15 " "divide names the moves"
expect 0 "perft --divide ring" -- "$gsw" perft checkers 'B:W14,15,22,23:BK10' 1 --divide
has out "10x17x26x19x10 1" "divide: one way round the ring"
has out "10x19x26x17x10 1" "divide: the other way round"
expect 0 "perft --json" -- "$gsw" perft checkers 7 --json
same "$(jq -r '.nodes | (type == "number" and . == floor)' "$tmp/out")" true "json: nodes is an integer"
same "$(jq -r .nodes "$tmp/out")" 179740 "json: perft 7"
same "$(jq -r '.time_ms | type' "$tmp/out")" number "json: time_ms"
same "$(jq -r 'has("divide")' "$tmp/out")" false "json: no divide unless asked"
expect 0 "perft --json --divide" -- "$gsw" perft checkers 5 --json --divide
same "$(jq -r '.divide | length' "$tmp/out")" 7 "json divide: seven first moves"
same "$(jq -r '[.divide[].nodes] | add' "$tmp/out")" 7361 "json divide: sums to the total"
same "$(jq -r '.divide[] | select(.move == "9-13") | .nodes' "$tmp/out")" "$("$gsw" perft checkers 'W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,11,12,13' 4 2>/dev/null)" "json divide: 9-13's count is perft 4 after it"
expect 0 "perft --divide connect4" -- "$gsw" perft connect4:4x4 3 --divide
same "$(awk 'NF == 2 { s += $2 } END { print s }' "$tmp/out")" "$(tail -n 1 "$tmp/out")" "divide works for any game"

# ---- bad FENs: exit 2, one line naming the problem ----
while IFS='|' read -r fen msg; do
  expect 2 "perft $fen" -- "$gsw" perft checkers "$fen" 1 && has err "$msg" "perft $fen"
done <<'CASES'
B:W21,K:B1|"K" with no square after it
B:W33:B1|square 33 is outside 1-32
B:W21:B0|square 0 is outside 1-32
B:W21,21:B1|square 21 is given twice
B:W1:B5|a white man on 1, its own crowning row
B:W21:B30|a black man on 30, its own crowning row
X:W21:B1|unknown side to move "X"
B:W21:R1|unknown side letter 'R'
B:W21,:B1|a comma with no square
B:W2x:B1|"2x" is not a square number
CASES
expect 2 "solve bad FEN" -- "$gsw" solve checkers 'B:W21,22,22:B1' --no-cache && has err "square 22 is given twice" "solve names the square"
expect 2 "analyze bad FEN" -- "$gsw" analyze checkers 'B:W21:B1,K' --no-cache && has err '"K" with no square' "analyze names it"

# ---- illegal moves in the shell: exit 2 with the reason ----
expect 2 "shell illegal move" -- bash -c "printf 'move 9-15\n' | \"$gsw\" shell checkers --no-cache"
has err 'illegal move "9-15"' "the shell names the illegal move"
expect 2 "shell compulsory capture" -- bash -c "printf 'move 1-5\n' | \"$gsw\" shell checkers 'B:W18:B14,1' --no-cache"
has err "a capture is compulsory (14x23)" "the shell says a capture is compulsory"
# the first jump of a capture that must go on: how it goes on
expect 2 "shell 9x18 (the capture goes on)" -- bash -c "printf 'move 9x18\n' | \"$gsw\" shell checkers 'B:W14,22,23:B9' --no-cache"
has err "the capture must continue (9x18x25 or 9x18x27)" "the shell says the capture must continue"
expect 2 "shell ambiguous" -- bash -c "printf 'move 10x10\n' | \"$gsw\" shell checkers 'B:W14,15,22,23:BK10' --no-cache"
has err 'ambiguous move "10x10"' "the shell refuses an ambiguous from-to capture"

# ---- PDN: load and export in the shell ----
cd "$tmp" || exit 1
cat >game.pdn <<'PDN'
[Event "club night"]
[Black "A"]
[White "B"]
{ the Old Fourteenth, more or less }
1. 11-15 23-19 2. 8-11 $1 22-17! 3. 11-16? {a slip} 24-20 4. 16x23 27x11 5. 7x16 20x11 *
PDN
printf 'load game.pdn\nexport\nexport again.pdn\nload again.pdn\nexport\n' >script
expect 0 "shell load/export" -- "$gsw" shell checkers script --no-cache
has out "loaded game.pdn (10 plies)" "load reads the record"
has out "1. 11-15 23-19 2. 8-11 22-17 3. 11-16 24-20 4. 16x23 27x18x11 5. 7x16 20x11 *" "export writes the moves"
has out '[Event "' "export writes tags"
has out "wrote again.pdn" "export FILE"
has out "loaded again.pdn (10 plies)" "the export reads back"
same "$(grep -c '^1\. 11-15 23-19 2\. 8-11 22-17' "$tmp/out")" 2 "the same moves both times"
# a record from another start; the shell on Connect Four switches game by the extension
printf '[FEN "W:W18:B14,K1"]\n1... 18x9 2. 1-5 1-0\n' >setup.pdn
printf 'load ./setup.pdn\nexport\n' >script2
expect 0 "shell load FEN record" -- "$gsw" shell connect4 script2 --no-cache
has out "loaded ./setup.pdn (2 plies)" "a path loads a record"
has out '[FEN "W:W18:BK1,14"]' "export keeps the start"
has out '1... 18x9 2. 1-5 *' "export numbers White's first move 1..."
# bad records: exit 2, the problem and the move named
printf '1. 11-15 23-19\n2. 8-12 22-17 *\n' >bad.pdn
printf 'load bad.pdn\n' >script3
expect 2 "shell bad record" -- "$gsw" shell checkers script3 --no-cache
has err 'bad.pdn: PDN: line 2, move 2. 8-12: illegal move "8-12"' "the bad move named with its number"
printf 'load missing.pdn\n' >script4
expect 2 "shell missing record" -- "$gsw" shell checkers script4 --no-cache && has err "cannot read missing.pdn" "a missing file"
printf 'load some/dir/x.c4\n' >script5
expect 2 "shell no record format" -- "$gsw" shell connect4 script5 --no-cache && has err "has no game record format" "a game without records"
# a bare name still loads a saved game
printf 'move 11-15\nsave g1\nnew\nload g1\nexport\n' >script6
expect 0 "shell saved game" -- "$gsw" shell checkers script6 && has out "loaded \"g1\"" "a bare name is a saved game"
has out "1. 11-15 *" "the saved game exports as PDN"

# ---- gsw play --file: the record is read before the screen opens ----
expect 2 "play --file bad" -- "$gsw" play checkers --file bad.pdn && has err "move 2. 8-12" "play --file names the bad move"
expect 2 "play --file missing" -- "$gsw" play checkers --file nothing.pdn && has err "cannot read nothing.pdn: No such file or directory" "play --file: no file, and why"
# another game's record is refused, not a switch of game
printf '[Event "a"]\n[Result "*"]\n\n1. e4 e5 *\n' >chess1.pgn
expect 2 "play checkers --file chess1.pgn" -- "$gsw" play checkers --file chess1.pgn \
  && has err "chess1.pgn is a chess record (.pgn), not a checkers one (.pdn)" "play checkers --file F.pgn: refused"
# a record file with several games: the count said, --game N / load F #N picks one
cat game.pdn game.pdn >two.pdn
printf 'load two.pdn\nload two.pdn #2\nload two.pdn #3\n' | "$gsw" shell checkers --no-cache >"$tmp/out" 2>"$tmp/err"
has out "two.pdn holds 2 games: game 1 loaded" "load of a file with two games: the count"
has out "two.pdn holds 2 games: game 2 loaded" "load F #2"
has err "two.pdn holds 2 games: there is no game 3" "load F #3: no such game"
expect 2 "play --file two.pdn --game 3" -- "$gsw" play checkers --file two.pdn --game 3 && has err "there is no game 3" "play --game 3"
expect 2 "play --file and a position" -- "$gsw" play checkers 'B:W21:B1' --file game.pdn && has err "give one" "play --file with a position"
expect 2 "play --file unknown kind" -- "$gsw" play --file notes.txt && has err "no game reads records of that name (record files: .pdn for checkers, .pgn for chess)" "play --file: which files gsw reads"
expect 2 "play --file good, no terminal" -- "$gsw" play checkers --file game.pdn && has err "not a terminal" "a good record reaches the screen"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
