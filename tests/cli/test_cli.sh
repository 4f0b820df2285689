#!/usr/bin/env bash
# End-to-end tests of the CLI verbs: exit codes, one-line errors, JSON
# fields, the cache round trip, batch files, concurrent writers, a corrupt
# cache left untouched. Needs GSW_BIN (set by ctest) and GSW_TEST_DATA.
set -u
. "$(dirname "$0")/cli_lib.sh"
data=${GSW_TEST_DATA:?}

# expect CODE DESCRIPTION -- command...: exit code and (for errors) one stderr line
expect() {
  local code=$1 what=$2; shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" -ne "$code" ]; then bad "$what: exit $rc, expected $code ($(head -c 300 "$tmp/err"))"; return 1; fi
  if [ "$code" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -ne 1 ]; then bad "$what: error is not one line: $(cat "$tmp/err")"; return 1; fi
  ok
}
has() { grep -q -- "$2" "$tmp/$1" && ok || bad "$3: '$2' not in $1: $(head -c 400 "$tmp/$1")"; }

# games
expect 0 "games" -- "$gsw" games && has out "connect4" "games lists connect4"
expect 0 "games --json" -- "$gsw" games --json && has out '"name":"connect4"' "games json"
expect 0 "games: the menu" -- "$gsw" games && has out "menu: 7x6, 6x5, 6x4" "games: connect4's variants offered (the picker's list)"
expect 0 "games --json: the menu" -- "$gsw" games --json && has out '"menu":\["7x6","6x5"' "games json: the variants offered"

# solve: values, JSON fields, score convention
expect 0 "solve 4x4" -- "$gsw" solve connect4:4x4 "" --json --no-cache
for f in '"value":"draw"' '"plies":16' '"score":0' '"bound":"exact"' '"best":"' '"nodes":' '"time_ms":'; do
  has out "$f" "solve 4x4 json field $f"
done
[ "$(wc -l <"$tmp/out")" -eq 1 ] && ok || bad "json output is one document"
expect 0 "solve end-game line" -- "$gsw" solve connect4 2252576253462244111563365343671351441 --json --no-cache
has out '"score":-1' "reference score -1"
has out '"value":"loss"' "reference value loss"
expect 0 "solve middle line" -- "$gsw" solve connect4 5554224333234511764415115 --json --no-cache
has out '"score":4' "reference score 4"
expect 0 "startpos keyword" -- "$gsw" solve connect4:4x4 startpos --json --no-cache
has out '"plies":16' "startpos is the start"
expect 0 "finished position" -- "$gsw" solve connect4 1212121 --json --no-cache
has out '"plies":0' "finished position: 0 plies"
has out '"value":"loss"' "finished position is lost for the side to move"
expect 0 "wdl" -- "$gsw" solve connect4:5x4 "" --wdl --json --no-cache
has out '"value":"draw"' "wdl draw"

# the cache round trip
expect 0 "first solve" -- "$gsw" solve connect4 5554224333234511764415115 --json
has out '"source":"search"' "first solve searches"
expect 0 "second solve" -- "$gsw" solve connect4 5554224333234511764415115 --json
has out '"source":"cache"' "second solve from the cache"
has out '"score":4' "cached score"
expect 0 "mirrored solve" -- "$gsw" solve connect4 3334664555654377124473773 --json
has out '"source":"cache"' "mirror image answered from the cache"
expect 0 "cache stats" -- "$gsw" cache stats --json
has out '"hits":2' "cache stats count the hits"
has out '"rows":1' "cache stats count the rows"
expect 0 "cache check" -- "$gsw" cache check && has out "ok" "cache check ok"

# a budget spent: exit 1, the bounds proven so far kept; a second run resumes
expect 1 "budget spent" -- "$gsw" solve connect4 32751571231557 --nodes 20000 --threads 1 --json
has out '"at_least":"' "a partial proof gives its interval"
has out '"complete":false' "incomplete proof reported"
expect 0 "resumed solve" -- "$gsw" solve connect4 32751571231557 --threads 1 --json
has out '"complete":true' "resumed proof completes"
has out '"score":-3' "resumed proof gives the reference score"
# the budget is the whole solve's, however many threads search (each thread
# adds its nodes to the count every 4,096 of them: a little over it)
GSW_BOOKS= expect 1 "budget on two threads" -- "$gsw" solve connect4 444 --nodes 200000 --threads 2 --json --no-cache
n=$(sed -n 's/.*"nodes":\([0-9]*\).*/\1/p' "$tmp/out")
[ -n "$n" ] && [ "$n" -le 220000 ] && ok || bad "two threads kept to a 200,000-node budget: $n nodes"

# analyze
expect 0 "analyze" -- "$gsw" analyze connect4:4x4 "" --json --no-cache
[ "$(grep -o '"move":' "$tmp/out" | wc -l)" -eq 4 ] && ok || bad "analyze lists 4 moves"

# perft
expect 0 "perft" -- "$gsw" perft connect4 "" 4 && has out "^2401$" "perft 4 = 7^4"
expect 0 "perft finished" -- "$gsw" perft connect4 1212121 2 && has out "^0$" "no moves after the end"

# bad input: exit 2 and a one-line message naming the problem
expect 2 "column out of range" -- "$gsw" solve connect4 48 --no-cache && has err "out of range" "names the range"
expect 2 "full column" -- "$gsw" solve connect4 1111111 --no-cache && has err "full" "names the full column"
expect 2 "move after the end" -- "$gsw" solve connect4 12121212 --no-cache && has err "ended" "names the ended game"
expect 2 "unknown variant" -- "$gsw" solve connect4:banana --no-cache && has err "banana" "names the variant"
expect 2 "a board without squares" -- "$gsw" solve connect4:0x4 --no-cache && has err "has no squares" "says why"
expect 2 "a board too big" -- "$gsw" solve connect4:99x99 --no-cache && has err "(height+1) <= 128" "says the limit"
expect 2 "unknown game" -- "$gsw" solve chesss --no-cache && has err "chesss" "names the game"
expect 2 "bad character" -- "$gsw" solve connect4 "44x" --no-cache && has err "'x'" "names the character"
expect 2 "unknown verb" -- "$gsw" frobnicate && has err "frobnicate" "names the verb"
expect 2 "unknown option" -- "$gsw" solve connect4 --bogus && has err "bogus" "names the option"
expect 2 "bad hash" -- "$gsw" solve connect4 --hash -3 && has err "hash" "names the option"

# batch: checked whole before solving, mismatches exit 1
head -20 "$data/connect4/Test_L3_R1" >"$tmp/good"
expect 0 "batch" -- "$gsw" solve connect4 --batch "$tmp/good"
[ "$(grep -c . "$tmp/out")" -eq 21 ] && ok || bad "batch prints 20 lines and a summary"
has out "positions 20, mismatches 0" "batch summary"
expect 0 "batch stdin json" -- sh -c "\"$gsw\" solve connect4 --batch - --json < \"$tmp/good\""
has out '"summary":{"positions":20,' "batch json summary"
[ "$(wc -l <"$tmp/out")" -eq 1 ] && ok || bad "batch json is one document"
(head -3 "$tmp/good"; echo "4444444 3") >"$tmp/malformed"
expect 2 "malformed batch" -- "$gsw" solve connect4 --batch "$tmp/malformed" && has err ":4:" "names the line"
grep -c . "$tmp/out" | grep -q "^0$" && ok || bad "a malformed batch solves nothing"
(head -3 "$tmp/good"; echo "2252576253462244111563365343671351441 5") >"$tmp/wrong"
expect 1 "batch mismatch" -- "$gsw" solve connect4 --batch "$tmp/wrong" && has out "mismatches 1" "mismatch counted"
expect 2 "missing batch file" -- "$gsw" solve connect4 --batch "$tmp/nope"
# win/draw/loss answers (--wdl, df-pn) are held to the expected score's sign
expect 0 "batch --wdl" -- "$gsw" solve connect4 --batch "$tmp/good" --wdl
has out "positions 20, mismatches 0" "wins and losses match the scores' signs"
expect 0 "batch df-pn" -- "$gsw" solve connect4 --batch "$tmp/good" --algo dfpn
has out "positions 20, mismatches 0" "df-pn's answers match the scores' signs"
(head -2 "$tmp/good"; head -1 "$tmp/good" | awk '{print $1, -$2}') >"$tmp/flipped"
expect 1 "batch --wdl, a sign wrong" -- "$gsw" solve connect4 --batch "$tmp/flipped" --wdl
has out "mismatches 1" "the wrong sign counted"
# each line's budget: a line that spends it is said so, and the batch goes on
(head -1 "$data/connect4/Test_L1_R2"; head -2 "$tmp/good"; sed -n 2p "$data/connect4/Test_L1_R2") >"$tmp/hard"
expect 1 "batch --nodes" -- "$gsw" solve connect4 --batch "$tmp/hard" --nodes 3000 --no-cache
has err "2 of 4 positions not solved within the budget (--nodes)" "the lines left unsolved counted"
[ "$(grep -c "NOT SOLVED (budget spent)" "$tmp/out")" -eq 2 ] && ok || bad "each unsolved line said"
has out "positions 2, mismatches 0" "the easy lines still solved"
expect 1 "batch --nodes --json" -- "$gsw" solve connect4 --batch "$tmp/hard" --nodes 3000 --no-cache --json
has out '"unsolved":2,' "json counts them"
has out '"complete":false,"ok":null' "an unsolved line in json"
has out '"positions":2,' "json: the solved lines"

# two processes writing one cache at once both succeed
expect 0 "concurrent writers" -- sh -c "
  \"$gsw\" solve connect4 --batch \"$tmp/good\" --db \"$tmp/shared.sqlite\" >/dev/null & a=\$!
  \"$gsw\" solve connect4 --batch \"$data/connect4/Test_L2_R1\" --db \"$tmp/shared.sqlite\" >/dev/null & b=\$!
  wait \$a && wait \$b"
expect 0 "shared cache stats" -- "$gsw" cache stats --db "$tmp/shared.sqlite" --json
has out '"rows":1020' "both writers' rows are there"

# a corrupt cache: a clear error, exit 1, the file untouched
head -c 5000 /dev/urandom >"$tmp/corrupt.sqlite"
cp "$tmp/corrupt.sqlite" "$tmp/corrupt.orig"
expect 1 "corrupt cache" -- "$gsw" solve connect4 44 --db "$tmp/corrupt.sqlite"
[ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || bad "corrupt cache: one-line error"
cmp -s "$tmp/corrupt.sqlite" "$tmp/corrupt.orig" && ok || bad "corrupt cache file was modified"
expect 1 "corrupt cache check" -- "$gsw" cache check --db "$tmp/corrupt.sqlite"

# df-pn: the same values as alpha-beta; proof trees stored and read back
expect 0 "dfpn 6x4" -- "$gsw" solve connect4:6x4 "" --algo dfpn --json --no-cache
has out '"value":"loss"' "df-pn: 6x4 is lost for the first player"
has out '"algo":"dfpn"' "df-pn named in the JSON"
expect 0 "dfpn end-game line" -- "$gsw" solve connect4 2252576253462244111563365343671351441 --algo dfpn --no-cache --json
has out '"value":"loss"' "df-pn agrees with the reference line"
expect 0 "dfpn win" -- "$gsw" solve connect4:5x4 444 --algo dfpn --json --no-cache
has out '"value":"win","plies":null' "df-pn: a win with no distance"
grep -q '"proven"' "$tmp/out" && bad "a settled win reported as a partial proof" || ok
expect 0 "manager 5x4" -- "$gsw" solve connect4:5x4 "" --algo manager --json --no-cache --threads 2
has out '"value":"draw"' "manager: 5x4 is a draw"
has out '"algo":"manager"' "manager named in the JSON"
expect 0 "manager 6x4 1" -- "$gsw" solve connect4:6x4 1 --algo manager --json --no-cache
has out '"value":"win"' "manager: after a first move on 6x4 the second player wins"
expect 1 "proof run stopped" -- "$gsw" proof run connect4:6x5 "" --db "$tmp/mg.sqlite" --time 300 --hash 16
has err "resume" "a stopped run says how to go on"
# stopped with --json: one document saying what is proven (bound, proven)
"$gsw" proof run connect4:6x5 "" --db "$tmp/mg2.sqlite" --time 300 --hash 16 --json >"$tmp/out" 2>"$tmp/err"
has_re out '^\{.*"bound":"(lower|upper|unknown)","proven":\{"at_least":"[a-z]+","at_most":"[a-z]+"\}.*"complete":false\}$' \
  "proof run --json stopped: bound and proven"
expect 0 "proof run resumed" -- "$gsw" proof run connect4:6x5 "" --db "$tmp/mg.sqlite" --resume --hash 16
has err "resuming" "the stored tree is picked up"
has out "draw for the side to move" "6x5 is a draw"
expect 0 "dfpn goal win" -- "$gsw" solve connect4:5x4 "" --algo dfpn --goal win --json --no-cache
has out '"bound":"upper"' "no win on 5x4: at most a draw"
expect 0 "manager goal draw" -- "$gsw" solve connect4:5x4 "" --algo manager --goal draw --json --no-cache
has out '"bound":"lower"' "at least a draw on 5x4"
expect 2 "goal without a proof-number algorithm" -- "$gsw" solve connect4:5x4 "" --goal win --no-cache
expect 2 "unknown algorithm" -- "$gsw" solve connect4 "" --algo magic && has err "magic" "names the algorithm"
expect 0 "proof show" -- "$gsw" proof show connect4:4x4 "" --db "$tmp/proofs.sqlite" --depth 1
has out "at least a draw for the side to move; proof tree of" "proof show: the result"
has out "(stored)" "proof show: stored"
expect 0 "proof show again" -- "$gsw" proof show connect4:4x4 "" --db "$tmp/proofs.sqlite" --depth 1
has out "(from the cache)" "proof show: read back"
expect 0 "proof export dot" -- "$gsw" proof export connect4:4x4 "" --format dot --db "$tmp/proofs.sqlite"
has out "digraph proof" "dot export"
expect 0 "proof export json" -- "$gsw" proof export connect4:5x4 1 --format json --goal win --db "$tmp/proofs.sqlite"
has out '"result":"proven"' "json export: a corner start on 5x4 loses"
expect 2 "proof bad goal" -- "$gsw" proof show connect4:4x4 "" --goal maybe --no-cache
expect 2 "proof export needs a format" -- "$gsw" proof export connect4:4x4 "" --no-cache
# peg solitaire: solve (moves, boards, JSON), counts, fewest moves, players, bad boards
expect 0 "solitaire solve" -- "$gsw" solve solitaire:english --json
for f in '"solvable":true' '"jumps":31' '"solution":\["' '"moves":' '"time_ms":' '"final":".../.../......./...o.../......./.../..."'; do
  has out "$f" "solitaire json field $f"
done
[ "$(wc -l <"$tmp/out")" -eq 1 ] && ok || bad "solitaire json is one document"
expect 0 "solitaire text" -- "$gsw" solve solitaire && has out "solvable" "text verdict" && has out "d4" "hole names"
has out "^start" "boards printed"
expect 0 "french impossible" -- "$gsw" solve solitaire:french --json
has out '"solvable":false' "french centre impossible" && has out 'class' "reason names the class argument"
expect 0 "triangle min moves" -- "$gsw" solve solitaire:triangle,start=4,goal=any --min-moves --json
has out '"moves":9' "triangle 9 moves from hole 4" && has out '"minimal":true' "minimum proved"
expect 0 "triangle count" -- "$gsw" count solitaire:triangle --solutions --json
has out '"solutions":29760' "triangle corner solutions"
expect 0 "triangle positions" -- "$gsw" count solitaire:triangle --positions
has out "^total" "positions table"
printf '  o\n o o\no . o\n' >"$tmp/tri6.txt"
expect 0 "board file" -- "$gsw" solve solitaire --board "$tmp/tri6.txt" --json && has out '"solvable":' "board file solved"
printf 'oo.o\n' >"$tmp/line.txt"
expect 0 "line board" -- "$gsw" solve solitaire --board "$tmp/line.txt" --json
has out '"solution":\["a1-c1","d1-b1"\]' "line board solution"
expect 0 "position by vacant holes" -- "$gsw" solve solitaire:english,goal=any c4+d4 --json && has out '"solvable":' "vacant holes"
expect 0 "player" -- "$gsw" solve solitaire --player heuristic:classes --json && has out '"pegs_left":1' "class player ends with one peg"
expect 0 "bench players" -- "$gsw" bench solitaire:triangle --players
for p in table lookahead alternatives double classes; do has out "heuristic:$p" "bench lists $p"; done
printf 'ooo\n\n   ooo\n' >"$tmp/split.txt"
expect 2 "disconnected board" -- "$gsw" solve solitaire --board "$tmp/split.txt" && has err "disconnected" "names the disconnection"
printf '...\n...\n' >"$tmp/empty.txt"
expect 2 "no pegs" -- "$gsw" solve solitaire --board "$tmp/empty.txt" && has err "no pegs" "names the missing pegs"
expect 2 "unknown hole" -- "$gsw" solve solitaire:english,start=z9 && has err "z9" "names the hole"
expect 2 "unknown goal hole" -- "$gsw" solve solitaire:english,goal=k2 && has err "k2" "names the goal hole"
expect 2 "unknown position hole" -- "$gsw" solve solitaire q7 && has err "q7" "names the position's hole"
expect 2 "unknown board" -- "$gsw" solve solitaire:hexagon && has err "hexagon" "names the board"
expect 2 "missing board file" -- "$gsw" solve solitaire --board "$tmp/nope.txt" && has err "nope.txt" "names the file"
expect 2 "unknown player" -- "$gsw" solve solitaire --player heuristic:oracle && has err "oracle" "names the player"
expect 2 "count without a kind" -- "$gsw" count solitaire
expect 2 "count a two-player game" -- "$gsw" count checkers --positions && has err "one-player" "names the problem"
expect 1 "budget spent" -- "$gsw" solve solitaire:wiegleb,start=e1,goal=e1 --nodes 5000
[ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || bad "a spent budget is one line on stderr: $(cat -v "$tmp/err")"
has err "budget spent" "names the spent budget"
expect 0 "help lists count" -- "$gsw" help && has out "count" "help lists count"

# messages: counts as whole numbers with separators, extra arguments named,
# what is missing said, the version
expect 2 "hash too big" -- "$gsw" solve connect4 --hash 9999999 && has err "from 1 to 1,048,576" "the range as counts"
grep -q "e+0" "$tmp/err" && bad "a count printed in %g form: $(cat "$tmp/err")" || ok
expect 2 "nodes out of range" -- "$gsw" solve connect4 --nodes 0 && has err "from 1 to 1,000,000,000,000,000,000" "the nodes range"
expect 2 "threads not whole" -- "$gsw" solve connect4 --threads 1.5 && has err "whole number" "a whole number is asked for"
expect 2 "extra argument" -- "$gsw" solve connect4 44 x && has err "unexpected argument 'x'" "the extra argument named"
has err "usage: gsw solve" "then the usage"
expect 2 "extra perft argument" -- "$gsw" perft connect4 "" 3 x && has err "unexpected argument 'x'" "perft: the extra argument named"
expect 2 "extra games argument" -- "$gsw" games x && has err "unexpected argument 'x'" "games: the extra argument named"
expect 2 "extra shell argument" -- "$gsw" shell connect4 44 x && has err "unexpected argument 'x'" "shell: the extra argument named"
expect 2 "perft without a depth" -- "$gsw" perft connect4 && has err "perft needs a DEPTH" "the missing depth said"
expect 2 "perft with a position, no depth" -- "$gsw" perft connect4 startpos && has err "perft needs a DEPTH" "the missing depth said"
expect 0 "perft counts" -- "$gsw" perft connect4 "" 4 && has err "2,401" "perft's count with separators"
expect 0 "solve counts" -- "$gsw" solve connect4:5x4 "" --no-cache
grep -Eq "^[0-9]{1,3}(,[0-9]{3})+ nodes" "$tmp/err" && ok || bad "solve's node count with separators: $(cat "$tmp/err")"
version=$(sed -n 's/^project(gsw VERSION \([0-9.]*\).*/\1/p' "$data/../../CMakeLists.txt")
# the version, and the commit it was built from ("unknown" outside git)
expect 0 "--version" -- "$gsw" --version && has out "^gsw $version (commit [0-9a-z-]*)\$" "--version prints the project's version and commit"
expect 0 "version" -- "$gsw" version && has out "^gsw $version (commit [0-9a-z-]*)\$" "version prints it too"
expect 0 "help names the version" -- "$gsw" help && has out "gsw $version" "help names the version"

# analyze on a puzzle: every jump solvable or a dead end, as the workbench says
expect 0 "analyze solitaire" -- "$gsw" analyze solitaire:english
[ "$(grep -c "^[a-g][0-9]-.* solvable$" "$tmp/out")" -eq 4 ] && ok || bad "analyze solitaire: 4 solvable jumps: $(cat "$tmp/out")"
expect 0 "analyze french" -- "$gsw" analyze solitaire:french && has out "no solution: position class" "the reason"
[ "$(grep -c "^[a-g][0-9]-.* dead end$" "$tmp/out")" -eq 4 ] && ok || bad "analyze french: 4 dead ends: $(cat "$tmp/out")"
printf 'new solitaire:english,goal=any c4+d4+e4+d2\nanalyze\n' | "$gsw" shell --no-cache 2>/dev/null | grep -E "^[a-g][0-9]-" | sed 's/  */ /' >"$tmp/shell_an"
expect 0 "analyze matches the shell" -- "$gsw" analyze solitaire:english,goal=any c4+d4+e4+d2 --no-cache
grep -E "^[a-g][0-9]-" "$tmp/out" | sed 's/  */ /' >"$tmp/cli_an"
[ -s "$tmp/cli_an" ] && cmp -s "$tmp/shell_an" "$tmp/cli_an" && ok || bad "analyze and the shell's analyze differ: $(diff "$tmp/shell_an" "$tmp/cli_an" | head -5)"
expect 0 "help solve" -- "$gsw" help solve && has out "triangle" "solve help names the boards"
# a verb that draws a screen or speaks a protocol does not offer --json
for v in play shell uci; do
  expect 0 "$v --help" -- "$gsw" "$v" --help
  grep -q -- "--json" "$tmp/out" && bad "$v --help offers --json" || ok
done
expect 0 "solve --help" -- "$gsw" solve --help && has out "  --json: one JSON document on stdout" "solve --help offers --json"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
