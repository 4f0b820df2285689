#!/usr/bin/env bash
# gsw tune chess --eval: the evaluation tuned from self-play positions. Bad
# options exit 2 with one line; a tiny run (--json read by python3) lowers
# the training loss and writes a header that compiles against ch.h with a
# weight for every index; the same seed on one thread plays the same games;
# a second call goes on to more games; a last game cut short is dropped and
# the file mended; a damaged games file is refused naming its line; Ctrl-C
# keeps the finished games; --rescore scores every position again by a UCI
# engine (gsw itself here) into rescored.txt, goes on after Ctrl-C or a game
# cut short, and refuses a file of other settings or damage; --net trains
# the evaluation network on the first run's scores (its training loss falls, no output
# bias as the engine evaluates it antisymmetrically, the same
# weights on one thread and two, a header that compiles against ch_nn.h).
# Needs GSW_BIN
# (set by ctest) and python3.
set -u
. "$(dirname "$0")/../cli/cli_lib.sh"
src=$(cd "${GSW_TEST_DATA:?}/../.." && pwd)
cd "$tmp" || exit 1
command -v python3 >/dev/null || { echo "FAIL: python3 is needed (tools/install-deps.sh installs it)"; exit 1; }

# games FILE: the game lines' numbers, sorted
games() { sed -n 's/^game \([0-9]*\) .*/\1/p' "$1" | sort -n | tr '\n' ' '; }

# ---- bad options: exit 2, one line ----
expect 2 "--eval with --population" -- "$gsw" tune chess --eval --out d --population 4
has_re err '--population is for the piece values' "--population: named"
expect 2 "--games without --eval" -- "$gsw" tune chess --out d --games 5
has_re err '--games is for --eval' "--games without --eval: named"
expect 2 "--eval on checkers" -- "$gsw" tune checkers --eval --out d
expect 2 "--eval without --out" -- "$gsw" tune chess --eval
expect 2 "--games 0" -- "$gsw" tune chess --eval --out d --games 0
expect 2 "--lambda 101" -- "$gsw" tune chess --eval --out d --lambda 101
[ ! -e d ] && ok || bad "nothing made for bad options"

# ---- a tiny run ----
expect 0 "a tiny run" -- "$gsw" tune chess --eval --out a --games 30 --nodes 300 --epochs 40 --seed 5 --threads 2 --json
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["games"] == 30 and d["nodes"] == 300 and d["epochs"] == 40 and not d["interrupted"], d
assert d["positions"] == d["train"] + d["held_out"] and d["train"] > 100 and d["held_out"] > 0, d
l = d["loss"]
assert l["train_after"] < l["train_before"], l
assert 0.1 < d["k"] < 4, d
' out && ok || bad "--json: the summary ($(head -c 400 out))"
same "$(games a/games.txt)" "$(seq -s ' ' 0 29) " "games 0..29, each once"
# every position with the search's score, White's view, within +-3000
same "$(grep -v '^[#g]' a/games.txt | grep -cvE '^[^;]+;-?[0-9]+$')" 0 "every position has its score"
same "$(grep -v '^[#g]' a/games.txt | awk -F';' '$2 > 3000 || $2 < -3000' | wc -l)" 0 "scores within +-3000"
same "$(head -1 a/games.txt)" "# gsw tune chess --eval: nodes 300 seed 5 random 4" "the header"
cc=$(command -v cc || command -v gcc || command -v clang || true)
if [ -n "$cc" ]; then
    printf '#include "games/chess/ch.h"\n#include "a/ch_eval_weights.h"\n_Static_assert(sizeof ch_eval_weights / sizeof *ch_eval_weights == CH_EW_N, "a weight for every index");\n' >w.c
    "$cc" -std=c17 -Wall -Wextra -Werror -fsyntax-only -I"$src" -I. w.c 2>cerr && ok || bad "the weights' header: $(head -c 400 cerr)"
    # one initialiser a weight: a header that lost or gained one fails
    sed 's/{-*[0-9]*, -*[0-9]*},//' a/ch_eval_weights.h >short.h
    printf '#include "games/chess/ch.h"\n#include "short.h"\n_Static_assert(sizeof ch_eval_weights / sizeof *ch_eval_weights == CH_EW_N, "");\n' >s.c
    ! "$cc" -std=c17 -fsyntax-only -I"$src" -I. s.c 2>/dev/null && ok || bad "the compile check can fail"
fi

# ---- the same seed, one thread: the same games ----
expect 0 "one thread" -- "$gsw" tune chess --eval --out b --games 30 --nodes 300 --epochs 0 --seed 5 --threads 1
python3 -c '
import sys
def blocks(p):
    out, cur = {}, None
    for line in open(p).read().split("\n")[1:]:
        if line.startswith("game "):
            cur = line.split()[1]; out[cur] = [line]
        elif line: out[cur].append(line)
    return out
a, b = blocks(sys.argv[1]), blocks(sys.argv[2])
assert a == b, [k for k in a if a[k] != b.get(k)][:3]
' a/games.txt b/games.txt && ok || bad "the same seed on 1 and 2 threads: the same games"

# ---- on to more games; a last game cut short; damage ----
expect 0 "more games" -- "$gsw" tune chess --eval --out a --games 36 --epochs 5
has out 'games 31 to 36 of 36' "more games: from 31"
same "$(games a/games.txt)" "$(seq -s ' ' 0 35) " "games 0..35"
expect 2 "other nodes" -- "$gsw" tune chess --eval --out a --games 36 --nodes 301
has_re err 'plays 300 nodes a move, not 301' "other nodes: named"
expect 2 "another seed" -- "$gsw" tune chess --eval --out a --games 36 --seed 6
expect 2 "other random plies" -- "$gsw" tune chess --eval --out a --games 36 --random-plies 2
has_re err 'plays 4 random plies, not 2' "other random plies: named"
expect 2 "too many random plies" -- "$gsw" tune chess --eval --out z --random-plies 41
cp a/games.txt whole.txt
printf 'game 99 1-0 3\n8/8/8/8/8/8/8/K1k5 w - - 0 1\n' >>a/games.txt
expect 0 "a game cut short" -- "$gsw" tune chess --eval --out a --games 36 --epochs 0
has_re err 'a last game cut short \([0-9]+ bytes\) was dropped' "cut short: said"
cmp -s a/games.txt whole.txt && ok || bad "cut short: the file mended"
mkdir -p c
{ head -3 whole.txt; echo junk; tail -n +4 whole.txt; } >c/games.txt
expect 2 "a junk line" -- "$gsw" tune chess --eval --out c --games 36
has_re err 'c/games.txt: line 4: bad FEN' "a junk line: named"
{ head -1 whole.txt; echo 'game 1 2-0 0'; tail -n +2 whole.txt; } >c/games.txt
expect 2 "a bad game line" -- "$gsw" tune chess --eval --out c --games 36
has_re err "c/games.txt: line 2: not a game's line" "a bad game line: named"
{ cat whole.txt; sed -n '/^game 0 /p' whole.txt | sed 's/ [0-9]*$/ 0/'; } >c/games.txt
expect 2 "a game twice" -- "$gsw" tune chess --eval --out c --games 36
has_re err 'game 0 is there twice' "a game twice: named"
sed '3s/;.*/;12x/' whole.txt >c/games.txt
expect 2 "a bad score" -- "$gsw" tune chess --eval --out c --games 36
has_re err "c/games.txt: line 3: the score after ';' is not a number" "a bad score: named"
sed '3s/;.*/;3001/' whole.txt >c/games.txt
expect 2 "a score out of range" -- "$gsw" tune chess --eval --out c --games 36
sed '3s/;.*//' whole.txt >c/games.txt
expect 0 "a position without its score (an older file)" -- "$gsw" tune chess --eval --out c --games 36 --epochs 1
sed '3s/.*/8\/8\/8\/9\/8\/8\/8\/K1k5 w - - 0 1/' whole.txt >c/games.txt
expect 2 "a bad FEN" -- "$gsw" tune chess --eval --out c --games 36
has_re err 'c/games.txt: line 3: ' "a bad FEN: named"
printf 'x\n' >c/games.txt
expect 2 "no header" -- "$gsw" tune chess --eval --out c --games 36
has_re err 'line 1: not a tune --eval header' "no header: named"

# ---- scored again by another UCI engine (--rescore): gsw itself at other nodes ----
mkdir -p r && head -1 whole.txt >r/games.txt && sed -n '/^game [0-7] /,$p' whole.txt | awk '/^game/{n++} n<=8' >>r/games.txt
same "$(grep -c '^game' r/games.txt)" 8 "rescore: 8 games"
eng="$gsw uci"
expect 2 "--rescore-nodes without --rescore" -- "$gsw" tune chess --eval --out r --rescore-nodes 5
expect 2 "--rescore without --eval" -- "$gsw" tune chess --out r --rescore "$eng"
expect 0 "rescore" -- "$gsw" tune chess --eval --out r --games 8 --epochs 5 --rescore "$eng" --rescore-nodes 150 --json
has_re err "8 games to score again by $gsw uci \(gsw [^)]*\) at 150 nodes a position" "rescore: said"
same "$(head -1 r/rescored.txt)" "# gsw tune chess --eval: nodes 300 seed 5 random 4 rescored 150 by $gsw uci" "rescore: the header"
same "$(grep -v '^#' r/rescored.txt | sed 's/;.*//' | sort)" "$(grep -v '^#' r/games.txt | sed 's/;.*//' | sort)" \
    "rescore: the same games and positions"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
r = d["rescored"]
# (K is searched within 0.05..4; the results of eight short games can
# ask for the bound itself, as they do since the exchange fix)
assert r["by"].endswith(" uci") and r["nodes"] == 150 and 0.05 < r["k"] <= 4, r
def scores(p):
    return [int(l.split(";")[1]) for l in open(p).read().split("\n") if ";" in l]
a, b = scores(sys.argv[2]), scores(sys.argv[3])
assert len(a) == len(b) > 100, (len(a), len(b))
assert a != b, "the same scores as the 300-node searches"
# White'"'"'s view both: where one side is clearly ahead, the signs agree
clear = [(x, y) for x, y in zip(a, b) if abs(x) >= 200]
assert clear and sum((x > 0) == (y > 0) for x, y in clear) >= 0.9 * len(clear), clear[:10]
' out r/games.txt r/rescored.txt && ok || bad "rescore: JSON and scores ($(head -c 300 out))"
cp r/rescored.txt rwhole.txt
expect 0 "rescore again" -- "$gsw" tune chess --eval --out r --games 8 --epochs 5 --rescore "$eng" --rescore-nodes 150
! grep -q "to score again" out err && ok || bad "rescore again: nothing to score"
cmp -s r/rescored.txt rwhole.txt && ok || bad "rescore again: the file kept"
expect 2 "rescore: other nodes" -- "$gsw" tune chess --eval --out r --games 8 --rescore "$eng" --rescore-nodes 151
has_re err 'rescored.txt holds the scores of ".* uci" at 150 nodes: give the same' "rescore: other nodes named"
# a last game cut short: dropped, scored again
head -n -3 rwhole.txt >r/rescored.txt
expect 0 "rescore: a last game cut short" -- "$gsw" tune chess --eval --out r --games 8 --epochs 1 --rescore "$eng" --rescore-nodes 150
has_re err 'a last game cut short \([0-9]+ bytes\) was dropped' "rescore cut short: said"
has_re out '1 game to score again' "rescore cut short: that game again"
same "$(grep -v '^#' r/rescored.txt | sed 's/;.*//' | sort)" "$(grep -v '^#' r/games.txt | sed 's/;.*//' | sort)" \
    "rescore cut short: whole again"
cmp -s r/rescored.txt rwhole.txt && ok || bad "rescore cut short: the game scored as in the unbroken run ($(diff r/rescored.txt rwhole.txt | head -4))"
sed '3s/;.*/;x/' rwhole.txt >r/rescored.txt
expect 2 "rescore: a damaged score" -- "$gsw" tune chess --eval --out r --games 8 --rescore "$eng" --rescore-nodes 150
has_re err "r/rescored.txt: line 3: the score after ';' is not a number" "rescore damaged: named"
sed '1s/ rescored.*//' rwhole.txt >r/rescored.txt
expect 2 "rescore: a file of gsw's own scores" -- "$gsw" tune chess --eval --out r --games 8 --rescore "$eng" --rescore-nodes 150
has_re err 'does not hold this folder.s games scored again' "rescore: not a rescored file, named"
rm r/rescored.txt
expect 2 "rescore: no such engine" -- "$gsw" tune chess --eval --out r --games 8 --rescore ./no-such-engine
[ ! -e r/rescored.txt ] && ok || bad "rescore: no such engine: no file made"
# Ctrl-C while scoring: what is scored is kept, and the same command goes on
"$gsw" tune chess --eval --out r --games 8 --epochs 1 --rescore "$eng" --rescore-nodes 20000 >rc 2>re &
tpid=$!
for _ in $(seq 600); do [ "$(grep -c '^game' r/rescored.txt 2>/dev/null || echo 0)" -ge 1 ] && break; sleep 0.1; done
kill -INT "$tpid"
wait "$tpid"
same "$?" 1 "rescore Ctrl-C: exit 1"
has_re re 'interrupted: the games scored again are kept in r/rescored.txt' "rescore Ctrl-C: said"
n=$(grep -c '^game' r/rescored.txt)
[ "$n" -ge 1 ] && [ "$n" -lt 8 ] && ok || bad "rescore Ctrl-C: $n games kept"
expect 0 "rescore on after Ctrl-C" -- "$gsw" tune chess --eval --out r --games 8 --epochs 1 --rescore "$eng" --rescore-nodes 20000
has_re out "$((8 - n)) games? to score again" "rescore on after Ctrl-C: the rest"

# ---- the evaluation network (--net): trained on a's scores, its header compiles ----
expect 2 "--net without --eval" -- "$gsw" tune chess --out r --net 16
expect 2 "--net 300" -- "$gsw" tune chess --eval --out r --games 8 --net 300
expect 2 "--net 12 (not a multiple of 8)" -- "$gsw" tune chess --eval --out n12 --net 12
has_re err 'a multiple of 8' "--net 12: said"
[ ! -e n12 ] && ok || bad "--net 12: refused before any game is played"
expect 0 "--net" -- "$gsw" tune chess --eval --out a --games 36 --net 16 --epochs 4 --threads 2 --json
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["hidden"] == 16 and d["epochs"] == 4 and not d["interrupted"], d
assert d["games"] == 36 and d["train"] > 1000 and d["held_out"] > 100 and d["rescored"] is None, d
l = d["loss"]
assert 0 < l["held_out_after"] < 0.25 and 0 < l["held_out_before"] < 0.25, l
assert 0 < l["builtin_held_out"] < 0.25, l
' out && ok || bad "--net --json ($(head -c 400 out))"
has_re err 'tune --net: epoch 4, loss' "--net: each epoch said"
# the fit learns: the training loss falls from the first epoch to the last (36 games hold out too
# few positions, 148, for the held-out loss to say so every time)
python3 -c '
import re, sys
l = [float(x) for x in re.findall(r"epoch \d+, loss ([0-9.]+)", open(sys.argv[1]).read())]
assert len(l) == 4 and l[3] < l[0] * 0.95, l
' err && ok || bad "--net: the training loss did not fall ($(grep -o 'epoch [0-9]*, loss [0-9.]*' err | tr '\n' ' '))"
grep -q '^#define CH_NN_B2 0$' a/ch_nn_weights.h && ok || bad "--net: trained antisymmetric, no output bias ($(grep CH_NN_B2 a/ch_nn_weights.h))"
cp a/ch_nn_weights.h net1.h
expect 0 "--net again, one thread" -- "$gsw" tune chess --eval --out a --games 36 --net 16 --epochs 4 --threads 1
cmp -s a/ch_nn_weights.h net1.h && ok || bad "--net: the same weights on 1 and 2 threads"
if [ -n "$cc" ]; then
    printf '#include "games/chess/ch_nn.h"\n#include "a/ch_nn_weights.h"\n_Static_assert(CH_NN_H == 16, "");\n_Static_assert(sizeof ch_nn_w1 / sizeof *ch_nn_w1 == CH_NN_IN * 16, "");\n_Static_assert(sizeof ch_nn_w2 / sizeof *ch_nn_w2 == 32, "");\nconst ch_nn_t n = { CH_NN_H, ch_nn_w1, ch_nn_b1, ch_nn_w2, CH_NN_B2 };\n' >n.c
    "$cc" -std=c17 -Wall -Wextra -Werror -fsyntax-only -I"$src" -I. n.c 2>cerr && ok || bad "the network header: $(head -c 400 cerr)"
fi

# ---- Ctrl-C keeps the finished games ----
"$gsw" tune chess --eval --out k --games 100000 --nodes 300 --seed 2 --threads 2 >kc 2>ke &
tpid=$!
for _ in $(seq 600); do [ "$(grep -c '^game' k/games.txt 2>/dev/null || echo 0)" -ge 3 ] && break; sleep 0.1; done
kill -INT "$tpid"
s=$(date +%s)
wait "$tpid"
same "$?" 1 "Ctrl-C: exit 1"
same "$(( $(date +%s) - s < 10 ))" 1 "Ctrl-C: stops soon"
has_re ke 'interrupted: the finished games are kept in k/games.txt' "Ctrl-C: said"
n=$(grep -c '^game' k/games.txt)
expect 0 "on after Ctrl-C" -- "$gsw" tune chess --eval --out k --games $((n + 12)) --epochs 1
has out "games $((n + 1)) to $((n + 12))" "on after Ctrl-C: the next games"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
