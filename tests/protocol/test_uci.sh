#!/usr/bin/env bash
# gsw uci: a scripted session (uci, isready, position with moves, go depth,
# a FEN, go infinite then stop, setoption, malformed input, quit) with
# well-formed replies: uciok, readyok, info lines with depth, score, nodes,
# nps and pv, legal bestmoves (each played back through gsw uci); a
# mate in one scores "mate 1"; an infinite search holds its bestmove until
# stop and answers isready meanwhile; bad arguments exit 2. Needs GSW_BIN.
set -u
. "$(dirname "$0")/../cli/cli_lib.sh"
cd "$tmp" || exit 1

has() { grep -qE -- "$2" "$tmp/$1" && ok || bad "$3: /$2/ not in $1: $(head -c 600 "$tmp/$1")"; }
hasnt() { grep -qE -- "$2" "$tmp/$1" && bad "$3: /$2/ in $1" || ok; }
same() { [ "$1" = "$2" ] && ok || bad "$3: got '$1', expected '$2'"; }

mate1='6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1'
{
    echo uci
    echo isready
    echo "position startpos moves e2e4 e7e5"
    echo "go depth 6"
    echo "position fen $mate1"
    echo "go depth 4"
    echo "position startpos moves d2d4"
    echo "go infinite"
    sleep 0.5
    echo stop
    echo "setoption name PawnValue value 120"
    echo "setoption name Hash value 16"
    echo isready
    echo "position fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    echo "go nodes 3000"
    echo "position fen garbage"
    echo "position startpos moves e2e4 e2e4"
    echo "go wtime 2000 btime 2000 winc 10 binc 10"
    echo "frobnicate the engine"
    echo "go movetime 100"
    echo quit
} | timeout 60 "$gsw" uci >out 2>err
same "$?" 0 "the session ends with quit, exit 0"
has out "^id name gsw $("$gsw" --version | sed "s/^gsw //; s/ (commit .*//")\$" "id name carries the version"
has out '^id author ' "id author"
has out '^option name Hash type spin default [0-9]+ min 1 max [0-9]+$' "Hash option"
for v in Pawn Knight Bishop Rook Queen; do
    has out "^option name ${v}Value type spin default [0-9]+ min 1 max [0-9]+$" "$v value option"
done
has out '^uciok$' "uciok"
has out '^Unknown command: frobnicate$' "an unknown command is answered, once"
same "$(grep -c '^Unknown command' out)" 1 "only the unknown command is answered so"
same "$(grep -c '^readyok$' out)" 2 "readyok per isready"
same "$(grep -c '^bestmove ' out)" 6 "a bestmove per go"
info='^info depth [0-9]+ score (cp -?[0-9]+|mate -?[0-9]+) nodes [0-9]+ nps [0-9]+ time [0-9]+ pv( [a-h][1-8][a-h][1-8][qrbn]?)+$'
same "$(grep '^info depth' out | grep -cvE "$info")" 0 "every info line well formed: $(grep '^info depth' out | grep -vE "$info" | head -2)"
has out '^info depth 6 ' "go depth 6 reaches depth 6"
same "$(awk '/^bestmove/ { exit } /^info depth 7 / { n++ } END { print n + 0 }' out)" 0 "go depth 6 stops there"
has out '^info depth [0-9]+ score mate 1 .* pv a1a8' "mate in one: score mate 1"
has out '^bestmove a1a8' "mate in one: the mating move"
has out '^info string position: bad FEN' "a bad FEN is named"
has out '^info string position: move e2e4' "an illegal move is named"
hasnt err . "nothing on stderr"
# a node budget too small for a first depth still gets that depth, with its
# score (a GUI, or gsw tune --rescore, reads a score before every bestmove)
tactical='4r1k1/2R2pb1/2n3pp/3bp3/3p1B2/4PN1P/3K1PP1/r4B1R w - - 0 25'
printf 'position fen %s\ngo nodes 1\n' "$tactical" | timeout 30 "$gsw" uci >tiny 2>&1
has tiny '^info depth 1 score cp -?[0-9]+ nodes [0-9]+ .* pv [a-h][1-8][a-h][1-8]' "go nodes 1: depth 1 and its score"
has tiny '^bestmove [a-h][1-8][a-h][1-8]' "go nodes 1: a bestmove"
grep -qE '^bestmove [a-h][1-8][a-h][1-8][qrbn]?( ponder [a-h][1-8][a-h][1-8][qrbn]?)?$' out && ok || bad "bestmove format"

# every bestmove is legal where it was asked: played back through gsw uci
mapfile -t bms < <(grep '^bestmove ' out | awk '{ print $2 }')
pos=("startpos moves e2e4 e7e5" "fen $mate1 moves" "startpos moves d2d4"
     "fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3 moves" "startpos moves e2e4"
     "startpos moves e2e4")
same "${#bms[@]}" 6 "six bestmoves to check"
for i in "${!bms[@]}"; do
    printf 'position %s %s\nd\nquit\n' "${pos[$i]}" "${bms[$i]}" | timeout 10 "$gsw" uci >back 2>&1
    grep -q '^info string fen ' back && ! grep -q 'info string position' back && ok ||
        bad "bestmove ${bms[$i]} is not legal after '${pos[$i]}': $(cat back)"
done

# mated in one: a negative mate score; no legal move: bestmove 0000
printf 'position fen k7/8/1K6/8/8/8/8/7R b - - 0 1\ngo depth 4\nposition fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\ngo depth 2\nquit\n' |
    timeout 20 "$gsw" uci >mated 2>&1
has mated '^info depth [0-9]+ score mate -1 .* pv a8b8 h1h8' "mated in one: score mate -1"
has mated '^bestmove 0000$' "stalemate: bestmove 0000"

# go infinite: no bestmove before stop; isready answered during the search
mkfifo in
"$gsw" uci <in >inf 2>&1 &
upid=$!
exec 3>in
printf 'position startpos\ngo infinite\n' >&3
sleep 1
same "$(grep -c '^bestmove' inf)" 0 "go infinite: no bestmove before stop"
printf 'isready\n' >&3
sleep 0.3
same "$(grep -c '^readyok' inf)" 1 "isready answered during a search"
printf 'stop\n' >&3
sleep 0.5
same "$(grep -c '^bestmove [a-h][1-8][a-h][1-8]' inf)" 1 "stop: the bestmove"
printf 'quit\n' >&3
exec 3>&-
wait "$upid"
same "$?" 0 "quit after stop: exit 0"

# the end of input quits, stopping an infinite search
printf 'position startpos\ngo infinite\n' | timeout 10 "$gsw" uci >eof 2>&1
same "$?" 0 "end of input: exit 0"
has eof '^bestmove ' "end of input: the infinite search's bestmove"

# go depth 6 from the start answers within a second (Release)
s=$(date +%s%N)
printf 'position startpos\ngo depth 6\n' | timeout 20 "$gsw" uci >d6 2>&1
ms=$(( ($(date +%s%N) - s) / 1000000 ))
has d6 '^info depth 6 ' "go depth 6 from the start (the end of input waits for it)"
has d6 '^bestmove ' "go depth 6 from the start: bestmove"
t6=$(sed -n 's/^info depth 6 .* time \([0-9]*\) .*/\1/p' d6)
same "$(( ${t6:-99999} < 1000 ))" 1 "go depth 6 from the start within a second (searched in ${t6:-?} ms)"
echo "go depth 6 from the start: searched in ${t6:-?} ms, $ms ms for the whole process"

# the options a GUI sets: Threads, MultiPV, UCI_LimitStrength/UCI_Elo; the
# Hash default is the one --help names
for o in 'Threads type spin default 1 min 1 max [0-9]+' 'MultiPV type spin default 1 min 1 max [0-9]+' \
         'UCI_LimitStrength type check default false' 'UCI_Elo type spin default [0-9]+ min [0-9]+ max [0-9]+'; do
    has out "^option name $o\$" "option $o"
done
hash_uci=$(sed -n 's/^option name Hash type spin default \([0-9]*\) .*/\1/p' out)
hash_cli=$("$gsw" solve --help 2>&1 | grep -o 'transposition table, default [0-9]*' | grep -o '[0-9]*$')
same "$hash_uci" "${hash_cli:-none}" "one Hash default (uci $hash_uci, --help ${hash_cli:-none})"

# MultiPV 3: three lines a depth, best first, each with its own first move
printf 'setoption name MultiPV value 3\nposition startpos moves e2e4\ngo depth 5\n' |
    timeout 60 "$gsw" uci >mpv 2>&1
for k in 1 2 3; do has mpv "^info depth 5 multipv $k score cp -?[0-9]+ .* pv " "MultiPV: line $k at depth 5"; done
same "$(grep -c '^info depth 5 multipv' mpv)" 3 "MultiPV: three lines at depth 5"
firsts=$(grep '^info depth 5 multipv' mpv | sed 's/.* pv \([a-h1-8qrbn]*\).*/\1/' | sort -u | wc -l)
same "$firsts" 3 "MultiPV: three different first moves"
scores=$(grep '^info depth 5 multipv' mpv | sed 's/.* score cp \(-\?[0-9]*\) .*/\1/' | tr '\n' ' ')
read -r s1 s2 s3 <<<"$scores"
[ "${s1:-0}" -ge "${s2:-1}" ] && [ "${s2:-0}" -ge "${s3:-1}" ] && ok || bad "MultiPV: scores not best first: $scores"
best1=$(sed -n 's/^info depth 5 multipv 1 .* pv \([a-h1-8qrbn]*\).*/\1/p' mpv)
has mpv "^bestmove $best1( |\$)" "MultiPV: bestmove is line 1's first move"
printf 'setoption name MultiPV value 0\nsetoption name Threads value x\nquit\n' | timeout 10 "$gsw" uci >badopt 2>&1
has badopt '^info string MultiPV: expected a whole number from 1 to' "MultiPV 0 refused"
has badopt '^info string Threads: expected a whole number from 1 to' "Threads x refused"

# UseNetwork: the evaluation network (the default), or false: the evaluation
# by terms; switched back, the network's value again
has out '^option name UseNetwork type check default true$' "option UseNetwork"
printf 'position startpos moves e2e4\ngo depth 1\nsetoption name UseNetwork value false\nposition startpos moves e2e4\ngo depth 1\nsetoption name UseNetwork value true\nposition startpos moves e2e4\ngo depth 1\nsetoption name UseNetwork value 2\nquit\n' |
    timeout 20 "$gsw" uci >net 2>&1
nets=$(sed -n 's/^info depth 1 score cp \(-*[0-9]*\) .*/\1/p' net | tr '\n' ' ')
read -r n1 n2 n3 n4 <<<"$nets"
[ -n "$n3" ] && [ -z "${n4:-}" ] && [ "$n1" != "$n2" ] && [ "$n1" = "$n3" ] && ok ||
    bad "UseNetwork: the network's, the terms', the network's value: $nets"
has net '^info string UseNetwork: expected true or false' "UseNetwork 2 refused"

# Threads 2: the same depth, a legal move
printf 'setoption name Threads value 2\nposition startpos moves e2e4 e7e5\ngo depth 8\n' |
    timeout 60 "$gsw" uci >thr 2>&1
has thr '^info depth 8 ' "Threads 2: depth 8"
bm=$(sed -n 's/^bestmove \([a-h1-8qrbn]*\).*/\1/p' thr)
printf 'position startpos moves e2e4 e7e5 %s\nd\nquit\n' "$bm" | timeout 10 "$gsw" uci >back 2>&1
grep -q 'info string position' back && bad "Threads 2: bestmove $bm illegal" || ok

# UCI_LimitStrength: UCI_Elo picks a level, which bounds depth and time
printf 'setoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value 1560\nposition startpos\ngo movetime 5000\nsetoption name UCI_Elo value 99\nsetoption name UCI_Elo value 1960\nquit\n' |
    timeout 20 "$gsw" uci >lim 2>&1
has lim '^info string UCI_Elo 1560: level 1, rated about 1560 \(depth 2, 200 ms a move at most\)' "UCI_Elo 1560: level 1 said"
has lim '^info string UCI_Elo 1960: level 3, rated about 1870 \(depth 6, 600 ms' "UCI_Elo 1960: the strongest level not above it"
hasnt lim '^info depth [3-9]' "level 1 searches 2 plies at most"
tl=$(sed -n 's/^info depth [0-9]* .* time \([0-9]*\).*/\1/p' lim | tail -1)
same "$(( ${tl:-99999} < 400 ))" 1 "level 1 within its 200 ms, not go's 5 s (${tl:-?} ms)"
has lim '^info string UCI_Elo: expected a whole number from' "UCI_Elo out of range refused"

# Move Overhead: listed; kept back from a movetime (the whole session's
# wall time: 3 s less 20 ms by default, less 1,400 ms when set); out of
# range refused
has out '^option name Move Overhead type spin default 20 min 0 max 5000$' "Move Overhead option"
mo_ms() {
    local t0 t1
    t0=$(date +%s%N)
    printf '%bposition startpos\ngo movetime 3000\nucinewgame\nquit\n' "$1" | timeout 20 "$gsw" uci >mo 2>&1
    t1=$(date +%s%N)
    echo $(( (t1 - t0) / 1000000 ))
}
t_def=$(mo_ms '')
t_1400=$(mo_ms 'setoption name Move Overhead value 1400\n')
same "$(( t_def >= 2900 ))" 1 "the default overhead keeps the movetime near 3 s ($t_def ms)"
same "$(( t_1400 >= 1500 && t_1400 < 2600 ))" 1 "Move Overhead 1400 keeps 1.4 s of it back ($t_1400 ms)"
has mo '^bestmove [a-h]' "Move Overhead 1400: still a move"
printf 'setoption name Move Overhead value 5001\nsetoption name Move Overhead value -1\nquit\n' | timeout 10 "$gsw" uci >mo 2>&1
same "$(grep -c '^info string Move Overhead: expected a whole number of milliseconds from 0 to 5000$' mo)" 2 \
    "Move Overhead out of range refused"

# go mate N goes through the mate prover: the mates of tests/data (3 moves
# or fewer) at their length, for the mating and the mated side; one less
# finds none (proven); a position with no mate within 3 says so
while IFS=';' read -r mate fen what; do
    case $mate in '#'*|'') continue ;; esac
    abs=${mate#-}
    [ "$abs" -le 3 ] || continue
    n=$([ "$mate" = 0 ] && echo 3 || echo "$abs")
    printf 'position fen %s\ngo mate %s\n' "$fen" "$n" | timeout 60 "$gsw" uci >mt 2>&1
    if [ "$mate" = 0 ]; then
        has mt '^info string no mate within 3 moves for either side' "$what: none within 3"
        has mt '^bestmove [a-h]' "$what: still a move"
        continue
    fi
    has mt "^info depth [0-9]+ score mate $mate nodes [0-9]+ nps [0-9]+ time [0-9]+ pv " "$what: go mate $n scores mate $mate"
    first=$(sed -n 's/^info depth .* score mate .* pv \([a-h1-8qrbn]*\).*/\1/p' mt)
    has mt "^bestmove $first( |\$)" "$what: bestmove is the line's first move"
    if [ "$mate" -gt 1 ]; then
        printf 'position fen %s\ngo mate %s\n' "$fen" $((mate - 1)) | timeout 60 "$gsw" uci >mt2 2>&1
        has mt2 "^info string no mate within $((mate - 1)) moves" "$what: no mate in $((mate - 1))"
    fi
done <"${GSW_TEST_DATA:?}/chess/mates.txt"

# gsw's own tablebases (--dir, else $GSW_EGDB): a root they hold is
# answered at once with its mate distance and the tablebase's move, the
# same move as solve's; an ending not built is never built (UCI runs on the
# clock); a file no MANIFEST vouches for is refused in an info string
kqk='8/8/8/4k3/8/8/8/3QK3 w - - 0 1'
"$gsw" egdb build chess KQK --dir "$tmp/eg" >/dev/null 2>&1
same "$?" 0 "KQK built"
sb=$("$gsw" solve chess "$kqk" --dir "$tmp/eg" --json | sed -n 's/.*"best":"\([^"]*\)".*/\1/p')
same "$sb" Qd7 "solve: Qd7 from the tablebase"
for how in dir env; do
    if [ $how = dir ]; then printf 'position fen %s\ngo movetime 3000\n' "$kqk" | timeout 30 "$gsw" uci --dir "$tmp/eg" >tb 2>&1
    else printf 'position fen %s\ngo movetime 3000\n' "$kqk" | GSW_EGDB="$tmp/eg" timeout 30 "$gsw" uci >tb 2>&1; fi
    has tb '^info depth 1 score mate 7 nodes 0 time [0-9]+ tbhits 1 pv d1d7$' "$how: mate 7 from the tablebase"
    has tb '^info string win in 13 plies \(the endgame databases\)$' "$how: the source said"
    has tb '^bestmove d1d7$' "$how: solve's move (Qd7)"
done
printf 'position fen 8/8/8/4k3/8/8/8/3RK3 w - - 0 1\ngo movetime 300\nposition fen 8/8/8/4k3/8/8/8/3RK3 w - - 0 1 moves e1e2\ngo movetime 100\n' \
    | timeout 30 "$gsw" uci --dir "$tmp/eg" >tb 2>&1
has tb '^bestmove [a-h][1-8][a-h][1-8]' "KRK, not built: the engine's move"
same "$(find "$tmp/eg" -name 'KRK*' | wc -l)" 0 "KRK not built by UCI"
has tb "^info string the KRK tablebase is not built \\(answering from search\\): gsw egdb build chess KRK --dir $tmp/eg\$" \
    "KRK, not built: said, with the command that builds it"
same "$(grep -c 'not built' "$tmp/tb")" 1 "said once, not at each move"
printf 'position fen %s\ngo movetime 100\n' "$kqk" | timeout 30 "$gsw" uci --dir "$tmp/eg" >tb 2>&1
hasnt tb 'not built' "KQK, built: nothing said"
mkdir -p "$tmp/eg2" && cp -r "$tmp/eg/chess" "$tmp/eg2/" && rm -f "$tmp"/eg2/chess/*/MANIFEST
printf 'position fen %s\ngo movetime 300\n' "$kqk" | timeout 30 "$gsw" uci --dir "$tmp/eg2" >tb 2>tberr
has tb '^info string .*has no MANIFEST to vouch for KQK.egdb: refused' "an unvouched file refused in an info string"
hasnt tb 'tbhits' "and not read"
same "$(wc -c <tberr)" 0 "nothing on stderr"

# bad arguments: exit 2, one line
"$gsw" uci extra </dev/null >o 2>e
same "$?" 2 "gsw uci extra: exit 2"
same "$(wc -l <e)" 1 "one line: $(cat e)"
"$gsw" uci --json </dev/null >o 2>e
same "$?" 2 "gsw uci --json: exit 2"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
