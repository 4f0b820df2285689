#!/usr/bin/env bash
# gsw tune chess. Quick (no argument): bad options and inputs exit 2 with
# one line (no game, not chess, no --out, bad numbers, --resume with no run
# or a corrupt, truncated or edited state file, options that contradict the
# stored run, a run already in the folder), a tiny real run (--json read by
# python3), the workbench's `tune DIR` chart and its errors. With the
# argument "release" (Release build only): a real generation of 6 at a
# small budget, its CSV rows and SVG, --resume on to generation 2, the same
# run on 1 thread in one go giving the same files, and Ctrl-C keeping the
# finished generations. Needs GSW_BIN (set by ctest) and python3.
set -u
. "$(dirname "$0")/../cli/cli_lib.sh"
cd "$tmp" || exit 1
command -v python3 >/dev/null || { echo "FAIL: python3 is needed (tools/install-deps.sh installs it)"; exit 1; }

header='generation,rank,id,origin,pawn,knight,bishop,rook,queen,raw_pawn,raw_knight,raw_bishop,raw_rook,raw_queen,games,wins,draws,losses,generation_games,generation_draws'

# check_csv FILE GEN N: the header, N rows of generation GEN ranked 1..N, pawn = 1000
check_csv() {
    local f=$1 gen=$2 n=$3
    [ -s "$f" ] && ok || { bad "$f: missing"; return; }
    same "$(head -1 "$f")" "$header" "$f: the header"
    same "$(tail -n +2 "$f" | wc -l)" "$n" "$f: a row per individual"
    same "$(tail -n +2 "$f" | cut -d, -f1 | sort -u)" "$gen" "$f: the generation column"
    same "$(tail -n +2 "$f" | cut -d, -f2 | tr '\n' ' ')" "$(seq -s ' ' 1 "$n") " "$f: ranks 1..$n in order"
    same "$(tail -n +2 "$f" | cut -d, -f5 | sort -u)" "1000" "$f: values normalised to pawn = 1000"
    # games = wins + draws + losses; the generation's games = half the sum of everyone's
    same "$(awk -F, 'NR > 1 && $15 != $16 + $17 + $18' "$f" | wc -l)" 0 "$f: games = wins + draws + losses"
    same "$(awk -F, 'NR > 1 { s += $15; g = $19 } END { print s == 2 * g }' "$f")" 1 "$f: the generation's game count"
}

# check_svg FILE: well-formed XML with a polyline per piece and line kind
check_svg() {
    [ -s "$1" ] && ok || { bad "$1: missing"; return; }
    python3 -c '
import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot()
assert r.tag.endswith("svg"), r.tag
n = sum(1 for e in r.iter() if e.tag.endswith("polyline"))
assert n == 10, n
' "$1" && ok || bad "$1: not the chart"
}

if [ "${1:-}" = release ]; then
    # ---- a real generation, resumed, and the same run in one go on one thread ----
    expect 0 "a generation" -- "$gsw" tune chess --out a --population 6 --generations 1 --nodes 500 --max-moves 60 \
        --seed 3 --threads 2
    has_re out '^generation 1/1: [0-9]+ games, [0-9]+ draws' "the generation's line"
    check_csv a/gen-0001.csv 1 6
    check_svg a/values.svg
    has_re out 'tune: 1 generation in' "the summary line"
    same "$(sed -n 's/^generation //p' a/state.txt)" 1 "the state: one generation finished"
    expect 0 "--resume to 2" -- "$gsw" tune chess --out a --resume --generations 2 --threads 2
    has_re out '^generation 2/2: ' "--resume: generation 2"
    check_csv a/gen-0002.csv 2 6
    check_svg a/values.svg
    same "$(sed -n 's/^generation //p' a/state.txt)" 2 "the state: two generations"
    expect 0 "in one go, one thread" -- "$gsw" tune chess --out b --population 6 --generations 2 --nodes 500 \
        --max-moves 60 --seed 3 --threads 1
    cmp -s a/gen-0001.csv b/gen-0001.csv && cmp -s a/gen-0002.csv b/gen-0002.csv && ok ||
        bad "the same seed gives the same run (2 threads and a resume, 1 thread in one go)"
    cmp -s a/state.txt b/state.txt && ok || bad "the same state"
    expect 0 "already done" -- "$gsw" tune chess --out a --resume
    has_re out 'finished already' "nothing more to do: said"
    # ---- Ctrl-C: the finished generations stay, --resume goes on ----
    "$gsw" tune chess --out c --population 6 --generations 200 --nodes 500 --max-moves 60 --seed 4 --threads 2 \
        >cc 2>ce &
    tpid=$!
    for _ in $(seq 600); do [ -s c/gen-0001.csv ] && break; sleep 0.1; done
    kill -INT "$tpid"
    s=$(date +%s)
    wait "$tpid"
    same "$?" 1 "Ctrl-C: exit 1"
    same "$(( $(date +%s) - s < 10 ))" 1 "Ctrl-C: stops soon"
    has_re ce 'interrupted in generation [0-9]+: the [0-9]+ finished generations? (is|are) kept in c' "Ctrl-C: said"
    done_gens=$(sed -n 's/^generation //p' c/state.txt)
    [ "$done_gens" -ge 1 ] && ok || bad "Ctrl-C: a finished generation kept ($done_gens)"
    expect 0 "--resume after Ctrl-C" -- "$gsw" tune chess --out c --resume --generations $((done_gens + 1))
    check_csv "c/gen-$(printf %04d $((done_gens + 1))).csv" $((done_gens + 1)) 6
    printf 'tune a\n' >chart.txt
    expect 0 "the chart in the shell" -- "$gsw" shell chess chart.txt --no-cache
    has_re out '\(generation\)$' "the chart's axis"
    has_re out '^generation 2: elite N [0-9]+ B [0-9]+ R [0-9]+ Q [0-9]+$' "the chart's figures"
    has_re out '^  median N [0-9]+ B [0-9]+ R [0-9]+ Q [0-9]+; [0-9]+ games, [0-9]+ draws$' "the chart's medians"
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit
fi

# ---- bad options: exit 2, one line ----
expect 2 "no game" -- "$gsw" tune --out d
has_re err 'needs a GAME' "no game: named"
expect 2 "no --out" -- "$gsw" tune chess
has_re err 'needs --out DIR' "no --out: named"
expect 2 "not chess" -- "$gsw" tune checkers --out d
expect 2 "a chess variant" -- "$gsw" tune chess:values=100,300,300,500,900 --out d
expect 2 "unknown game" -- "$gsw" tune nosuchgame --out d
expect 2 "population 1" -- "$gsw" tune chess --out d --population 1
has_re err '--population: bad value "1"' "population 1: named"
expect 2 "population missing" -- "$gsw" tune chess --out d --population
expect 2 "generations 0" -- "$gsw" tune chess --out d --generations 0
expect 2 "max-moves 0" -- "$gsw" tune chess --out d --max-moves 0
expect 2 "max-moves too many" -- "$gsw" tune chess --out d --max-moves 5000
expect 2 "nodes not a number" -- "$gsw" tune chess --out d --nodes lots
expect 2 "two games" -- "$gsw" tune chess checkers --out d
[ ! -e d ] && ok || bad "nothing made for bad options"
expect 2 "--resume with no run" -- "$gsw" tune chess --out d --resume
has_re err 'no run to continue' "--resume with no run: named"

# ---- a tiny real run: every game adjudicated right after its opening ----
expect 0 "a tiny run" -- "$gsw" tune chess --out t --population 3 --generations 2 --nodes 50 --max-moves 1 --seed 9 \
    --threads 2 --json
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["generations"] == 2 and d["population"] == 3 and d["seed"] == 9, d
assert len(d["history"]) == 2 and len(d["history"][1]["elite"]) == 5, d
assert d["history"][0]["elite"][0] == 1000, d
' out && ok || bad "--json: the summary document ($(head -c 300 out))"
check_csv t/gen-0001.csv 1 3
same "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["scale"])' out)" raw "a run's values are raw unless --relative"

# ---- --relative: only the ratios to a 100 cp pawn evolve; kept in the state ----
expect 0 "a relative run" -- "$gsw" tune chess --out rel --population 3 --generations 1 --nodes 50 --max-moves 1 --seed 4 --relative --json
same "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["scale"])' out)" relative "--relative is said"
grep -q '^meta scale relative$' rel/state.txt && ok || bad "--relative is kept in the state"
expect 0 "a relative run resumed" -- "$gsw" tune chess --out rel --generations 2 --resume --json
same "$(python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); print(d["scale"], d["resumed_from"])' out)" "relative 1" "--resume keeps --relative"
expect 2 "--relative on a raw run" -- "$gsw" tune chess --out t --resume --relative
has_re err 'uses raw values, not --relative' "--relative on a raw run: named"
check_csv t/gen-0002.csv 2 3
expect 2 "a run already there" -- "$gsw" tune chess --out t --seed 9
has_re err 'holds a tune run already' "a run already there: named"
expect 2 "--resume with another seed" -- "$gsw" tune chess --out t --resume --seed 10
has_re err 'has seed 9, not 10' "another seed: named"
expect 2 "--resume with another population" -- "$gsw" tune chess --out t --resume --population 4
expect 2 "--resume with other nodes" -- "$gsw" tune chess --out t --resume --nodes 51

# ---- corrupt state files: one line naming the file and what is wrong ----
good=$(cat t/state.txt; echo x)
good=${good%x}
mkdir -p s
printf '%s' "${good:0:200}" >s/state.txt
expect 2 "a truncated state" -- "$gsw" tune chess --out s --resume
has_re err 's/state.txt: .*truncated' "truncated: named"
printf '%s' "$good" | sed 's/^seed 9$/seed 8/' >s/state.txt
expect 2 "an edited state" -- "$gsw" tune chess --out s --resume
has_re err 's/state.txt: line [0-9]+: checksum mismatch' "edited: named"
printf 'junk\n' >s/state.txt
expect 2 "junk" -- "$gsw" tune chess --out s --resume
has_re err 's/state.txt: line 1: not a gsw evolution state' "junk: named"
printf '%s' "$good" | sed '/^ind /d' >s/state.txt
expect 2 "no individuals" -- "$gsw" tune chess --out s --resume
has_re err '0 individuals, population 3' "no individuals: named"
: >s/state.txt
expect 2 "an empty state" -- "$gsw" tune chess --out s --resume
printf '%s' "$good" >s/state.txt
expect 0 "a good state copied" -- "$gsw" tune chess --out s --resume --generations 3
has_re out '^generation 3/3: ' "a good state goes on"

# ---- the workbench's chart ----
printf 'tune t\n' >chart.txt
expect 0 "the chart" -- "$gsw" shell chess chart.txt --no-cache
has_re out '^t: 2 generations, population 3' "the chart's title"
has_re out '^ +0 \|' "the chart's zero"
has_re out '^generation 2: elite N' "the chart's figures"
printf 'tune nowhere\n' >chart.txt
expect 2 "the chart of no run" -- "$gsw" shell chess chart.txt --no-cache
has_re err 'no gsw tune run in nowhere' "no run: named"
sed -i '3s/.*/2,2,x/' t/gen-0002.csv
printf 'tune t\n' >chart.txt
expect 2 "a damaged CSV" -- "$gsw" shell chess chart.txt --no-cache
has_re err 't/gen-0002.csv line 3: a malformed row' "a damaged CSV: named"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
