#!/usr/bin/env bash
# How good a teacher is: Stockfish scores the same positions at a few node
# counts and at a deep reference count, and this prints, for each teacher
# and for gsw's own static evaluations (the built-in network, and the
# evaluation by terms), the loss against the reference the way `gsw tune
# chess --eval` measures its fits (the mean squared difference of win
# probabilities 1 / (1 + e^(-cp / 400)), side to move's view) and the
# median difference in centipawns. A network fitted to a teacher's scores
# comes near that teacher at best: where the network is already as close
# to the reference as its teacher is, a deeper teacher, not more of the
# same positions, is what can lower its loss.
#
#   bench/chess_teacher.sh [-n N] [-t NODES,NODES...] [-r REF_NODES] [-b BUILD_DIR] POSITIONS
# POSITIONS: a FEN a line, or a `gsw tune chess --eval` folder's games.txt
# (its "game" lines skipped, the score after ';' dropped); N positions
# (default 1000) are taken evenly spread over it. Use positions the network
# was not trained on (games of another seed). Defaults: teachers at 300
# and 1000 nodes, the reference at 20000. Stockfish runs one thread with a
# 16 MB table, and its table is cleared before each position (ucinewgame),
# as no teacher then knows the positions before it. Needs
# /usr/games/stockfish and python3. Not part of ctest.
set -eu
n=1000 teachers=300,1000 ref=20000 build=build/release
while getopts "n:t:r:b:h" opt; do
  case $opt in
    n) n=$OPTARG ;; t) teachers=$OPTARG ;; r) ref=$OPTARG ;; b) build=$OPTARG ;;
    *) sed -n '2,21p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { sed -n '2,21p' "$0"; exit 2; }
static=$build/bench/bench_chess_static
sf=/usr/games/stockfish
[ -x "$static" ] || { echo "build first: make release (no $static)" >&2; exit 1; }
[ -x "$sf" ] || { echo "no $sf: apt-get install stockfish" >&2; exit 1; }
[ -r "$1" ] || { echo "cannot read $1" >&2; exit 1; }
python3 - "$static" "$sf" "$n" "$teachers" "$ref" "$1" "$(dirname "$0")" <<'EOF'
import math, re, subprocess, sys, statistics as st
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[7])
import stockfish
static, sf, n, teachers, ref, path = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5]), sys.argv[6]
try:
    teachers = [int(t) for t in teachers.split(',') if t]
except ValueError:
    sys.exit('-t: node counts separated by commas')
if n < 1 or ref < 1 or not teachers or min(teachers) < 1:
    sys.exit('-n, -t and -r take whole numbers from 1')
fens = []
for l in open(path):
    l = l.split(';')[0].strip()
    if l and not l.startswith('#') and not l.startswith('game ') and re.match(r'^[pnbrqkPNBRQK1-8/]+ [wb] ', l):
        fens.append(l)
if not fens:
    sys.exit('no positions in %s' % path)
step = max(1, len(fens) // n)
fens = fens[::step][:n]
p = subprocess.run([static], input='\n'.join(fens) + '\n', capture_output=True, text=True)
rows = p.stdout.splitlines()
if p.returncode or len(rows) != len(fens):
    sys.exit('bench_chess_static failed: %s' % p.stderr.strip()[:200])
keep = [i for i, r in enumerate(rows) if not r.startswith('error')]
ours = {'gsw network': [int(rows[i].split()[0]) for i in keep], 'gsw terms': [int(rows[i].split()[1]) for i in keep]}
fens = [fens[i] for i in keep]
eng = stockfish.Engine(sf)
def score(fen, nodes):   # no teacher knows the positions before it
    eng.newgame()
    return eng.score(fen, nodes)
print('%d positions of %s; the reference: Stockfish at %d nodes' % (len(fens), path, ref))
refs = [score(f, ref) for f in fens]
srcs = [('Stockfish %d nodes' % t, [score(f, t) for f in fens]) for t in teachers] + list(ours.items())
eng.quit()
wp = lambda cp: 1 / (1 + math.exp(-max(-4000, min(4000, cp)) / 400))
print('%-22s %14s %16s' % ('scores', 'loss vs ref', 'median |cp diff|'))
for name, v in srcs:
    loss = sum((wp(a) - wp(b)) ** 2 for a, b in zip(v, refs)) / len(refs)
    med = st.median(abs(max(-2000, min(2000, a)) - max(-2000, min(2000, b))) for a, b in zip(v, refs))
    print('%-22s %14.6f %16.0f' % (name, loss, med))
EOF
