#!/usr/bin/env bash
# Where a match was lost: Stockfish at full strength scores every position
# of the games in a PGN (bench/chess_strength.sh keeps them in OUT/sf_ELO.pgn)
# at a fixed node count, and this prints, for gsw and for its opponent, the
# average loss a move in centipawns (how much Stockfish's score fell with
# the move, within +-400 of even, each loss capped at 500) by phase of the
# game, how the games' scores ran from gsw's side, and gsw's largest drops.
# The games are read with gsw's own PGN reader (gsw shell: paste, fen, undo).
#
#   bench/chess_moveloss.sh [-n NODES] [-s SKIP] [-l] [-b BUILD_DIR] GAMES.pgn [MORE.pgn ...]
# Defaults: 40000 nodes a position (about 0.1 s here), skip the first 8
# plies (the openings file's random moves: neither side chose them), every
# game; -l: the games gsw lost only. Needs /usr/games/stockfish and python3.
# Not part of ctest.
set -eu
nodes=40000 skip=8 lost=0 build=build/release
while getopts "n:s:lb:h" opt; do
  case $opt in
    n) nodes=$OPTARG ;; s) skip=$OPTARG ;; l) lost=1 ;; b) build=$OPTARG ;;
    *) sed -n '2,15p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { sed -n '2,15p' "$0"; exit 2; }
gsw=$build/gsw
sf=/usr/games/stockfish
[ -x "$gsw" ] || { echo "build first: make release (no $gsw)" >&2; exit 1; }
[ -x "$sf" ] || { echo "no $sf: apt-get install stockfish" >&2; exit 1; }
for f in "$@"; do [ -r "$f" ] || { echo "cannot read $f" >&2; exit 1; }; done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$gsw" "$sf" "$nodes" "$skip" "$lost" "$work" "$(dirname "$0")" "$@" <<'EOF'
import re, subprocess, sys, statistics as st, collections
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[7])
import stockfish
gsw, sf, nodes, skip, lost_only, work = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == '1', sys.argv[6]
games = []
for f in sys.argv[8:]:
    for g in open(f).read().split('[Event ')[1:]:
        tag = lambda k: (re.search(r'\[%s "([^"]*)"' % k, g) or [None, ''])[1]
        us_white = tag('White').startswith('gsw')
        if not us_white and not tag('Black').startswith('gsw'):
            continue
        r = {'1-0': 1, '0-1': -1, '1/2-1/2': 0}.get(tag('Result'))
        if r is None:
            continue
        r = r if us_white else -r
        if lost_only and r != -1:
            continue
        parts = g.split('\n\n', 1)
        if len(parts) < 2:
            continue
        body = re.sub(r'\{[^}]*\}', ' ', parts[1])
        body = re.sub(r'\s+(1-0|0-1|1/2-1/2|\*)\s*$', '', body.strip()).replace('\n', ' ')
        sans = [t for t in body.split() if not re.match(r'^\d+\.+$', t)]
        # the record pasted whole (its tags give a start other than the usual),
        # then every position from the end back to the start: fen, then undo
        record = ('[Event ' + g).strip().replace('\n\n\n', '\n\n')
        script = 'paste\n' + record + '\n\n' + 'fen\nundo\n' * len(sans) + 'fen\n'
        p = subprocess.run([gsw, 'shell', 'chess', '--opponent', 'human'], input=script, capture_output=True, text=True,
                           env={'GSW_DB': work + '/cache.sqlite', 'HOME': work, 'PATH': '/usr/bin:/bin'})
        fens = [l for l in p.stdout.splitlines() if re.match(r'^[pnbrqkPNBRQK1-8/]+ [wb] ', l)][::-1]
        if len(fens) != len(sans) + 1:
            print('skipped a game gsw could not read back: %s' % p.stderr.strip()[:120], file=sys.stderr)
            continue
        games.append((us_white, r, sans, fens))
if not games:
    sys.exit('no games of gsw to read')
eng = stockfish.Engine(sf, hash_mb=64)
score = lambda fen: eng.score(fen, nodes)
def phase(fen):   # by the pieces other than kings and pawns
    n = sum(fen.split()[0].count(c) for c in 'nbrqNBRQ')
    return '1 ten pieces or more' if n >= 10 else '2 six to nine' if n >= 6 else '3 five or fewer'
loss = {0: collections.defaultdict(list), 1: collections.defaultdict(list)}   # 0 gsw, 1 its opponent
run = collections.defaultdict(list)
drops = []
wdl = collections.Counter()
for gi, (us_white, r, sans, fens) in enumerate(games):
    wdl[r] += 1
    eng.newgame()
    ev = []   # from gsw's side
    for fen in fens:
        s = score(fen)
        ev.append(s if (fen.split()[1] == 'w') == us_white else -s)
    for k in range(skip, len(ev) - 1):
        ours = (fens[k].split()[1] == 'w') == us_white
        d = ev[k] - ev[k + 1] if ours else ev[k + 1] - ev[k]
        if abs(ev[k]) <= 400:
            loss[0 if ours else 1][phase(fens[k])].append(max(0, min(500, d)))
        if ours and ev[k] > -250 and ev[k + 1] < 200 and d >= 150:   # (a won game still won is no drop)
            drops.append((d, gi + 1, k, sans[k], fens[k], ev[k], ev[k + 1]))
    for k in (skip, 16, 24, 32, 40, 60, 80):
        if k < len(ev):
            run[k].append(max(-1000, min(1000, ev[k])))
    print('game %d/%d scored' % (gi + 1, len(games)), file=sys.stderr, flush=True)
eng.quit()
print('%d games of gsw (W-D-L %d-%d-%d), Stockfish at %d nodes a position, from ply %d'
      % (len(games), wdl[1], wdl[0], wdl[-1], nodes, skip))
print('average loss a move (cp; positions within +-400, a loss capped at 500):')
print('  %-20s %18s %18s' % ('phase', 'gsw', 'opponent'))
for p in sorted(set(loss[0]) | set(loss[1])):
    a, b = loss[0].get(p, []), loss[1].get(p, [])
    f = lambda x: '%6.1f (%5d moves)' % (st.mean(x), len(x)) if x else '-'
    print('  %-20s %18s %18s' % (p[2:], f(a), f(b)))
allm = lambda side: [x for v in loss[side].values() for x in v]
if allm(0) and allm(1):
    print('  %-20s %18s %18s' % ('all', '%6.1f' % st.mean(allm(0)), '%6.1f' % st.mean(allm(1))))
print("Stockfish's score from gsw's side, median over the games, by ply:")
print('  ' + '  '.join('%d: %+d' % (k, st.median(v)) for k, v in sorted(run.items())))
print("gsw's moves that dropped 150 cp or more, from a position not yet lost (-250) to one no longer won (+200): %d;"
      " the largest:" % len(drops))
for d in sorted(drops, reverse=True)[:10]:
    print('  game %d ply %d %s: %+d -> %+d  (%s)' % (d[1], d[2], d[3], d[5], d[6], d[4]))
EOF
