#!/usr/bin/env bash
# gsw match: a 2-game node-limited seeded match against `gsw uci` ending
# with exit 0, a line per game, the score line and a PGN whose games gsw
# reads back (the shell's load); --json; an openings file (a FEN and a
# move list); opponents that crash, hang or play an illegal move lose
# (never a hang); Ctrl-C stops with the score so far; bad arguments exit 2
# with one line. With the argument "stockfish" (the Release-only entry):
# a short seeded match against /usr/games/stockfish at low strength (skips
# with 77 when it is not installed). Needs GSW_BIN (set by ctest).
set -u
. "$(dirname "$0")/../cli/cli_lib.sh"
cd "$tmp" || exit 1

# (never "+inf" nor a score after no game: a bound when every game went one way)
final='^gsw .* vs .*: ([0-9]+-[0-9]+-[0-9]+ \(W-D-L\), score [0-9.]+%, Elo difference ([<>] [-+][0-9]+ \(every game (won|lost)\)|[-+][0-9]+ ± [0-9]+ \(95%\)|[-+][0-9]+ \(too few games for a margin\))|no game finished)$'

# check_pgn FILE GAMES: the tags, and every game read back by gsw shell's load
check_pgn() {
    local f=$1 games=$2
    same "$(grep -c '^\[White "' "$f")" "$games" "$f: a White tag per game"
    same "$(grep -c '^\[Black "' "$f")" "$games" "$f: a Black tag per game"
    same "$(grep -cE '^\[Result "(1-0|0-1|1/2-1/2)"\]' "$f")" "$games" "$f: a Result tag per game"
    rm -f g_*.pgn
    awk '/^\[Event / { n++ } { print > sprintf("g_%d.pgn", n) }' "$f"
    local i plies
    for ((i = 1; i <= games; i++)); do
        printf 'load g_%d.pgn\n' "$i" >load.txt
        if "$gsw" shell chess load.txt --no-cache >lo 2>&1 && grep -q "loaded g_$i.pgn (" lo; then ok
        else bad "$f: game $i does not read back: $(head -c 300 lo)"; fi
        plies=$(sed -n "s/^loaded g_$i.pgn (\([0-9]*\) plies).*/\1/p" lo)
        grep -q "^\[Round \"$i\"\]" "g_$i.pgn" || continue
        grep -qE "^game $i/$games: .* $plies plies" progress 2>/dev/null && ok ||
            bad "$f: game $i: $plies plies read back, not what the match said: $(grep "^game $i/" progress)"
    done
}

if [ "${1:-}" = stockfish ]; then
    sf=/usr/games/stockfish
    [ -x "$sf" ] || { echo "no $sf: skipped"; exit 77; }
    expect 0 "match against stockfish" -- "$gsw" match chess --engine "$sf" --option UCI_LimitStrength=true \
        --option UCI_Elo=1350 --games 2 --nodes 20000 --seed 5 --pgn sf.pgn --concurrency 2
    cp out progress
    cat out
    same "$(grep -c '^game [12]/2: ' out)" 2 "stockfish: a line per game"
    has_re out "$final" "stockfish: the score line"
    has_re out 'Stockfish' "stockfish: its name from id name"
    check_pgn sf.pgn 2
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit
fi

# ---- gsw against gsw uci: 2 games, nodes, seeded ----
expect 0 "gsw vs gsw uci" -- "$gsw" match chess --engine "$gsw uci" --games 2 --nodes 3000 --seed 7 --pgn m.pgn
cp out progress
has_re out '^gsw .* vs gsw .*: 2 games, 3000 nodes a move, 1 at once, seed 7' "the header line"
same "$(grep -cE '^game [12]/2: .* (1-0|0-1|1/2-1/2) \(.*, [0-9]+ plies; .*\); gsw .* [0-9]+-[0-9]+-[0-9]+$' out)" 2 \
    "a progress line per game"
has_re out "$final" "the final score line"
[ -s m.pgn ] && ok || bad "m.pgn written"
check_pgn m.pgn 2
grep -q '^\[White "gsw [^"]*"\]' m.pgn && grep -q '^\[Black "gsw [^"]*(uci)"\]' m.pgn && ok || bad "players named"
# the same seed, the same openings
expect 0 "same seed" -- "$gsw" match chess --engine "$gsw uci" --games 2 --nodes 3000 --seed 7 --pgn m2.pgn
same "$(sed -n 's/.*plies; \(.*\)); .*/\1/p' out | sort -u)" "$(sed -n 's/.*plies; \(.*\)); .*/\1/p' progress | sort -u)" \
    "the seed picks the openings"

# no --pgn: the games go to the data folder beside the cache, named by the
# time, and the last line says where (they used to land in the folder gsw
# was started from as match.pgn, overwritten by the next match)
mkdir -p nopgn
( cd nopgn && GSW_DB="$tmp/data/cache.sqlite" "$gsw" match chess --engine "$gsw uci" --games 1 --nodes 300 --seed 1 \
    >../out 2>../err )
pgnf=$(sed -n 's/^games in //p' out)
case $pgnf in "$tmp"/data/matches/match-*.pgn) ok ;; *) bad "no --pgn: games in '$pgnf': $(cat out err)" ;; esac
[ -s "$pgnf" ] && [ -z "$(ls nopgn)" ] && ok || bad "no --pgn: the PGN is not where said, or cwd got a file: $(ls nopgn)"

# "gsw" with no gsw on the PATH: this very program
expect 0 "--engine \"gsw uci\"" -- env PATH=/usr/bin:/bin "$gsw" match chess --engine "gsw uci" --games 1 --nodes 300 \
    --seed 1 --pgn self.pgn
has_re out '^game 1/1: ' "gsw uci by name"

# ---- --json: one document ----
expect 0 "--json" -- "$gsw" match chess --engine "$gsw uci" --games 2 --nodes 1000 --seed 3 --pgn j.pgn --json \
    --concurrency 2 --ours-option PawnValue=110 --ours-option Hash=8 --option Hash=8
python3 - "$tmp/out" <<'EOF' && ok || bad "--json: $(head -c 400 "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["wins"] + d["draws"] + d["losses"] == 2 == d["played"] == d["games"], d
assert 0 <= d["score"] <= 1 and len(d["results"]) == 2 and d["interrupted"] is False, d
assert "values=110" in d["ours"], d["ours"]
for r in d["results"]:
    assert r["result"] in ("1-0", "0-1", "1/2-1/2") and r["plies"] > 0
EOF
has_re err "$final" "--json: the score line on stderr"

# ---- an openings file: a FEN and a move list ----
cat >open.txt <<'EOF'
# a rook ending
8/5k2/8/8/8/2K5/R7/8 w - - 0 1

# Sicilian
1. e4 c5 2. Nf3 d6
EOF
expect 0 "--openings" -- "$gsw" match chess --engine "$gsw uci" --games 4 --nodes 1000 --seed 1 --openings open.txt \
    --pgn o.pgn --concurrency 2
cp out progress
has_re out '4 games.*2 openings from open.txt' "the openings counted"
has_re out 'a rook ending' "the opening named"
same "$(grep -c '^\[FEN "8/5k2/8/8/8/2K5/R7/8 w - - 0 1"\]' o.pgn)" 2 "the FEN opening's games start there"
check_pgn o.pgn 4

# ---- games that repeat: at a fixed node count one opening, with the same
# colours, gives the same game again; the Elo counts each game once ----
head -2 open.txt >one.txt
expect 0 "one opening, 4 games" -- "$gsw" match chess --engine "$gsw uci" --games 4 --nodes 1000 --seed 1 \
    --openings one.txt --pgn r.pgn --json
same "$(jq -r '.played, .distinct' out | tr '\n' ' ')" "4 2 " "--json: 2 of the 4 games differ"
has_re err 'only 2 of the 4 games differ \([0-9]-[0-9]-[0-9]\): the Elo counts each once' \
    "the score line says the games repeat"
expect 0 "two openings, 4 games" -- "$gsw" match chess --engine "$gsw uci" --games 4 --nodes 1000 --seed 1 \
    --openings open.txt --pgn r2.pgn --json
same "$(jq -r '.distinct' out)" 4 "--json: 4 games from 2 openings all differ"

# ---- opponents that misbehave lose, with the reason ----
cat >fake.sh <<'EOF'
#!/bin/bash
# a UCI engine that misbehaves when asked to move: crash, hang or illegal
while read -r cmd rest; do
    case $cmd in
        uci) echo "id name Fake $1"; echo "option name Foo type spin default 1 min 0 max 9"; echo uciok ;;
        isready) echo readyok ;;
        go) case $1 in crash) exit 3 ;; illegal) echo "bestmove a1a1" ;; hang) ;; esac ;;
        quit) exit 0 ;;
    esac
done
EOF
chmod +x fake.sh
for kind in crash illegal; do
    expect 0 "$kind" -- "$gsw" match chess --engine "./fake.sh $kind" --games 2 --movetime 20 --seed 1 --pgn f.pgn \
        --option Foo=2
    has_re out "^game 1/2: .*(crashed|illegal move)" "$kind: a loss for it, with the reason"
    has_re out "^gsw .* vs Fake $kind: 2-0-0" "$kind: both games lost"
done
s=$(date +%s)
expect 0 "hang" -- timeout 60 "$gsw" match chess --engine "./fake.sh hang" --games 1 --movetime 10 --seed 1 --pgn f.pgn
has_re out "no bestmove within" "hang: a loss for it"
same "$(( $(date +%s) - s < 30 ))" 1 "hang: no hang"

# ---- Ctrl-C: stops, with the score so far ----
"$gsw" match chess --engine "$gsw uci" --games 40 --movetime 10 --seed 2 --pgn c.pgn --concurrency 2 >cc 2>ce &
mpid=$!
sleep 2
kill -INT "$mpid"
s=$(date +%s)
wait "$mpid"
same "$?" 1 "Ctrl-C: exit 1"
same "$(( $(date +%s) - s < 5 ))" 1 "Ctrl-C: stops at once"
has_re cc "$final" "Ctrl-C: the score so far"
has_re ce 'interrupted: [0-9]+ of 40 games played' "Ctrl-C: said"

# ---- ours held to a level (UCI_LimitStrength with UCI_Elo, as gsw uci's):
# named in the PGN; at a fixed node count the games are the same again
# without it and differ with it (level 1 searches 2 plies)
for lv in full full2 lvl; do
    extra=()
    [ $lv = lvl ] && extra=(--ours-option UCI_LimitStrength=true --ours-option UCI_Elo=1560)
    [ $lv = full2 ] && extra=(--ours-option UCI_Elo=1560)   # (no LimitStrength: the full engine)
    expect 0 "match at a level ($lv)" -- "$gsw" match chess --engine "$gsw uci" --games 2 --nodes 3000 --seed 5 \
        --pgn "$tmp/$lv.pgn" "${extra[@]}"
    grep -v '^\[' "$tmp/$lv.pgn" >"$tmp/$lv.moves"
done
has_re lvl.pgn '"gsw [^"]* \(level 1\)"' "the level named in the PGN"
hasnt_lvl=$(grep -c 'level' "$tmp/full2.pgn")
same "$hasnt_lvl" 0 "UCI_Elo without UCI_LimitStrength: the full engine"
cmp -s "$tmp/full.moves" "$tmp/full2.moves" && ok || bad "the full engine's games repeat at a fixed node count"
cmp -s "$tmp/full.moves" "$tmp/lvl.moves" && bad "level 1 played the full engine's games" || ok
expect 2 "ours UCI_Elo out of range" -- "$gsw" match chess --engine "$gsw uci" --ours-option UCI_Elo=99
has_re err 'UCI_Elo=99: expected a whole number from 1560 to 2310' "ours UCI_Elo: the range said"
expect 2 "ours UCI_LimitStrength not a boolean" -- "$gsw" match chess --engine "$gsw uci" --ours-option UCI_LimitStrength=2
# UseNetwork=false: our side plays with the evaluation by terms, named so,
# and its games at a fixed node count are not the network's
expect 0 "ours UseNetwork=false" -- "$gsw" match chess --engine "$gsw uci" --games 2 --nodes 3000 --seed 4 \
    --ours-option UseNetwork=false --pgn "$tmp/terms.pgn"
grep -q '^\[White "gsw [^"]* (terms)"\]' "$tmp/terms.pgn" && ok || bad "UseNetwork=false: the PGN names our side (terms)"
expect 0 "ours UseNetwork=true" -- "$gsw" match chess --engine "$gsw uci" --games 2 --nodes 3000 --seed 4 \
    --ours-option UseNetwork=true --pgn "$tmp/net.pgn"
[ "$(grep -v '^\[' "$tmp/terms.pgn")" != "$(grep -v '^\[' "$tmp/net.pgn")" ] && ok || bad "UseNetwork: the terms played the network's games"
# a piece value set to its default keeps the network, as gsw uci's setoption does
expect 0 "ours PawnValue at its default" -- "$gsw" match chess --engine "$gsw uci" --games 2 --nodes 3000 --seed 4 \
    --ours-option PawnValue=100 --pgn "$tmp/dflt.pgn"
[ "$(grep -v '^\[' "$tmp/dflt.pgn")" = "$(grep -v '^\[' "$tmp/net.pgn")" ] && ok || bad "PawnValue=100: not the network's games"
grep -q '^\[White "gsw [^"(]*"\]' "$tmp/dflt.pgn" && ok || bad "PawnValue=100: the PGN names our side as a variant"
expect 2 "ours UseNetwork not a boolean" -- "$gsw" match chess --engine "$gsw uci" --ours-option UseNetwork=2

# ---- our side reads gsw's tablebases (--dir), as gsw uci does: from KQK,
# both sides perfect, each game is the tablebase's mate in 7 (13 plies;
# the heuristic engine alone took 25), and nothing is built
"$gsw" egdb build chess KQK --dir "$tmp/eg" >/dev/null 2>&1
echo '8/8/8/4k3/8/8/8/3QK3 w - - 0 1' >kqk.txt
expect 0 "match from KQK with the tablebases" -- "$gsw" match chess --engine "$gsw uci --dir $tmp/eg" --games 2 \
    --nodes 2000 --openings kqk.txt --dir "$tmp/eg" --pgn "$tmp/kqk.pgn"
same "$(grep -c '^game [12]/2: .* 1-0 (checkmate, 13 plies' "$tmp/out")" 2 "both games mate in 13 plies"
same "$(find "$tmp/eg" -name 'K*.egdb' | sed 's|.*/||' | sort -u | tr '\n' ' ')" "KK.egdb KQK.egdb " "nothing built"

# ---- bad arguments: exit 2, one line ----
expect 2 "no engine" -- "$gsw" match chess --games 2
has_re err 'needs --engine' "no engine: named"
expect 2 "no game" -- "$gsw" match --engine "$gsw uci"
expect 2 "not chess" -- "$gsw" match checkers --engine "$gsw uci"
expect 2 "movetime and nodes" -- "$gsw" match chess --engine "$gsw uci" --movetime 10 --nodes 100
expect 2 "no such program" -- "$gsw" match chess --engine "/nonexistent/engine" --games 1
expect 2 "not UCI" -- "$gsw" match chess --engine "true" --games 1
has_re err 'does not speak UCI' "not UCI: named"
expect 2 "option without =" -- "$gsw" match chess --engine "$gsw uci" --option Hash
expect 2 "unknown engine option" -- "$gsw" match chess --engine "$gsw uci" --option Bogus=1 --games 1
has_re err 'no option "Bogus"' "unknown engine option: named"
expect 2 "unknown ours option" -- "$gsw" match chess --engine "$gsw uci" --ours-option Bogus=1
expect 2 "bad ours value" -- "$gsw" match chess --engine "$gsw uci" --ours-option PawnValue=x
expect 2 "bad games" -- "$gsw" match chess --engine "$gsw uci" --games 0
expect 2 "missing openings" -- "$gsw" match chess --engine "$gsw uci" --openings nothing.txt
printf 'e2e4 e7e5\ne2e4 e2e4\n' >badopen.txt
expect 2 "bad openings" -- "$gsw" match chess --engine "$gsw uci" --openings badopen.txt
has_re err 'line 2' "bad openings: the line named"
expect 2 "unwritable pgn" -- "$gsw" match chess --engine "$gsw uci" --games 1 --pgn /nonexistent/dir/x.pgn

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
