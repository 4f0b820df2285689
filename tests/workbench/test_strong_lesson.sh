#!/usr/bin/env bash
# The connect4-strong lesson's figures: every number written in digits in its
# text is checked, the 5x4 ones against gsw count and gsw strong build (run
# here), the 7x6 ones against tests/data/connect4/a212693.txt; every 5x4 move
# value against gsw analyze (and the strong solution's), the 7x6 step's
# against connect4-centre's published ones. The data file itself: its sum is
# the published total, and plies 0-6 agree with a brute-force enumeration.
# gsw lesson lists the lesson, and gsw shell steps through it, each expected
# move keeping the value. The searches (analyze, the shell) use caches away
# from the strong solution, so they check it too. Needs GSW_BIN (set by
# ctest) and python3.
set -u
. "$(dirname "$0")/../cli/cli_lib.sh"
command -v python3 >/dev/null || { echo "no python3"; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)
lesson=$here/../../lessons/connect4-strong.lesson
centre=$here/../../lessons/connect4-centre.lesson
data=${GSW_TEST_DATA:-$here/../data}/connect4/a212693.txt

# ---- the program's 5x4 figures ----
"$gsw" count connect4:5x4 --json >"$tmp/count.json" 2>"$tmp/count.err" </dev/null &   # beside the build
cpid=$!
expect 0 "strong build 5x4" -- "$gsw" strong build connect4:5x4 --dir "$tmp/strong" --json && cp "$tmp/out" "$tmp/strong.json"
wait $cpid
same "$?" 0 "count 5x4: $(head -c 400 "$tmp/count.err")"

# ---- the lesson is listed, and gsw shell steps through it ----
expect 0 "lesson --json" -- "$gsw" lesson --json
same "$(python3 -c "import json,sys; d=json.load(open('$tmp/out')); print(any(l['name'] == 'connect4-strong' for l in d['lessons']))")" \
  True "gsw lesson --json lists connect4-strong"
python3 - "$lesson" >"$tmp/script" <<'EOF'
import sys
# lesson NAME, then at each step: analyze where it has 5x4 values (the
# solver checks them), its first expected move, next
print("lesson connect4-strong")
for block in open(sys.argv[1]).read().split("\nstep:")[1:]:
    lines = block.splitlines()
    if any(l.startswith("values:") for l in lines) and not any(l.startswith("game:") for l in lines):
        print("analyze")
    for line in lines:
        if line.startswith("expect:"):
            print(line.split()[1])
    print("next")
EOF
timeout 120 "$gsw" shell --no-cache --db "$tmp/shell/cache.sqlite" <"$tmp/script" >"$tmp/shell.out" 2>"$tmp/shell.err"
rc=$?
same "$rc" 0 "gsw shell through the lesson: $(tail -3 "$tmp/shell.err")"
same "$(grep -c 'keeps the value\|: the game is over, won\.' "$tmp/shell.out")" "$(grep -c '^expect:' "$lesson")" "every expected move keeps the value"
same "$(grep -c 'published values agree with the solver' "$tmp/shell.out")" "$(grep -c '^analyze$' "$tmp/script")" \
  "the solver proves every 5x4 step's values: $(grep -E 'published values|DISAGREES' "$tmp/shell.out")"
same "$(grep -c 'DISAGREES' "$tmp/shell.out")" 0 "no published value disagrees with the solver: $(grep DISAGREES "$tmp/shell.out")"
has shell.out "Lesson complete" "the lesson runs to its end"

# ---- every figure ----
r=$(python3 - "$lesson" "$centre" "$data" "$tmp" "$gsw" <<'EOF'
import json, re, subprocess, sys
lesson, centre, data, tmp, gsw = sys.argv[1:]
fails = []
def check(cond, what):
    if not cond: fails.append(what)

def steps_of(path):
    """[{game, position, text, values, expect}] of a lesson file."""
    out, game = [], None
    for line in open(path):
        line = line.rstrip("\n")
        if not line.strip() or line.startswith("#") or ":" not in line: continue
        k, v = (s.strip() for s in line.split(":", 1))
        if k == "step": out.append({"game": game, "position": "", "text": "", "values": {}, "expect": []})
        elif not out:
            if k == "game": game = v
        elif k == "game": out[-1]["game"] = v
        elif k == "position": out[-1]["position"] = "" if v == "startpos" else v
        elif k in ("say", "right"): out[-1]["text"] += v + "\n"
        elif k == "values": out[-1]["values"] = dict(t.split("=") for t in v.split())
        elif k == "expect": out[-1]["expect"] = v.replace(",", " ").split()
    return out

steps, W, H = steps_of(lesson), 5, 4
cnt = {r["ply"]: r["positions"] for r in json.load(open(f"{tmp}/count.json"))["per_ply"]}
cj = json.load(open(f"{tmp}/count.json"))
term = {r["ply"]: r["terminal"] for r in cj["per_ply"]}
sp = {r["ply"]: r for r in json.load(open(f"{tmp}/strong.json"))["plies"]}
won, drawn, lost = ({p: sp[p][k] for p in sp} for k in ("won", "drawn", "lost"))
a = {}
for line in open(data):
    if line.strip() and not line.startswith("#"):
        p, n = line.split(); a[int(p)] = int(n)

# the two programs agree, and the data file is the published table
check(all(cnt[p] == sp[p]["total"] and term[p] == sp[p]["terminal"] for p in cnt) and len(cnt) == len(sp) == W * H + 1,
      "gsw count and gsw strong build disagree on the 5x4 counts")
check(sorted(a) == list(range(43)) and sum(a.values()) == 4531985219092, "a212693.txt: not plies 0-42 summing to 4,531,985,219,092")

def gswj(*args):
    return json.loads(subprocess.run([gsw, *args], capture_output=True, text=True, check=True).stdout)
def analyze(pos):   # {move: "W9"/"D"/"L8"} by a search without the strong solution
    j = gswj("analyze", "connect4:5x4", pos, "--no-cache", "--db", f"{tmp}/indep/cache.sqlite", "--json")
    return {m["move"]: m["value"][0].upper() + ("" if m["value"] == "draw" else str(m["plies"])) for m in j["moves"]}
def query(pos):     # {move: "W"/"D"/"L"} from the strong solution; and the position's own
    j = gswj("strong", "query", "connect4:5x4", pos, "--dir", f"{tmp}/strong", "--json")
    return {m["move"]: m["value"][0].upper() for m in j["moves"]}, j["value"]
def board(moves):   # the set of (column, height, colour) after MOVES
    h, b = [0] * 9, set()
    for i, ch in enumerate(moves):
        c = int(ch); b.add((c, h[c], i % 2)); h[c] += 1
    return b

# ---- every step's move values ----
centre_start = next(s for s in steps_of(centre) if s["position"] == "")
an = {}
for i, st in enumerate(steps, 1):
    if st["game"] == "connect4:7x6":
        check(not st["values"] or st["values"] == centre_start["values"], f"step {i}: 7x6 values {st['values']} are not connect4-centre's {centre_start['values']}")
        continue
    check(st["game"] == "connect4:5x4", f"step {i}: game {st['game']}")
    an[i] = analyze(st["position"])
    if st["values"]:
        check(st["values"] == an[i], f"step {i} ({st['position']}): values {st['values']}, gsw analyze {an[i]}")
        q, _ = query(st["position"])
        check({m: v[0] for m, v in st["values"].items()} == q, f"step {i}: values {st['values']}, strong query {q}")
        best = max("LDW".index(v[0]) for v in st["values"].values())
        check(sorted(st["expect"]) == sorted(m for m, v in st["values"].items() if "LDW".index(v[0]) == best),
              f"step {i}: expected moves {st['expect']} are not the best ones of {st['values']}")

# ---- every number in the text ----
def moves_with(i, o): return tuple(sorted(int(m) for m, v in an[i].items() if v[0] == o))
def plies(i, m): return int(an[i][str(m)][1:])
def pct(x, y): return round(100 * x / y, 1)
Ttot, Wtot, Dtot, Ltot = sum(cnt.values()), sum(won.values()), sum(drawn.values()), sum(lost.values())
peak = max(cnt, key=cnt.get)
apeak = max(a, key=a.get)
first_four = min(p for p in term if term[p])
step76 = next(i for i, s in enumerate(steps, 1) if s["game"] == "connect4:7x6" and s["expect"])   # the first move asked
ply1_won = tuple(sorted(int(m) for m, v in an[1].items() if v[0] == "L"))   # Red's first moves that lose
n = "([0-9][0-9,.]*)"
claims = {   # step: [(pattern, the numbers its groups must read)]
  1: [(rf"board of {n} columns and {n} rows", (W, H)),
      (rf"Columns {n}, {n} and {n} keep the draw", moves_with(1, "D")),
      (rf"edge columns {n} and {n} lose, on the {n}th stone", moves_with(1, "L") + (plies(1, 1),)),
      (rf"\(step {n}\)", (step76,))],
  2: [(rf"After one stone there are {n} positions", (cnt[1],)),
      (rf"after two there are {n}, five times five", (W * W,)),
      (rf"with {n}, {n} and {n} positions", (a[0], a[1], a[2])),
      (rf"Of the {n} positions after one stone, {n} are won for Yellow \(after {n} or {n}\) and {n} are drawn",
       (cnt[1], won[1]) + ply1_won + (drawn[1],)),
      (rf"Of the {n} after two stones, {n} are drawn and {n} are lost for Red \(after {n} {n} and {n} {n}\)",
       (cnt[2], drawn[2], lost[2], 1, 2, 5, 4)),
      (rf"in column {n}\. Find", (int(steps[1]["position"]),)),
      (rf"column {n} is the only winning reply; the win comes on the {n}th stone", moves_with(2, "W") + (1 + plies(2, 2),))],
  3: [(rf"there are {n} positions, not the {n} move sequences", (cnt[3], W ** 3)),
      (rf"Red {n}, Yellow {n}, Red {n} gives this board, and so does Red {n}, Yellow {n}, Red {n}", (1, 2, 3, 3, 2, 1)),
      (rf"the third ply has {n} positions", (a[3],)),
      (rf"{n} x \({n} \+ {n} x \({n}/{n} \+ {n}\)\) = {n}", (7, 7, 6, 5, 2, 2, a[3])),
      (rf"{n} x \({n} \+ {n} x \({n}/{n} \+ {n}\)\), gives {n}", (5, 5, 4, 3, 2, 2, cnt[3])),
      (rf"counts are {n} on 5x4 \(of {n} sequences\) and {n} on 7x6 \(of {n}\)", (cnt[4], W ** 4, a[4], 7 ** 4)),
      (rf"at ply {n} \(Yellow to move\) {n} of the {n} positions are won and none is lost", (3, won[3], cnt[3])),
      (rf"at ply {n} \(Red to move\) {n} of the {n} are won, {n} drawn and {n} lost", (4, won[4], cnt[4], drawn[4], lost[4]))],
  4: [(rf"{n} positions at ply {n}, {n} at ply {n}, and a peak of {n} at ply {n} \(ply {n} has nearly as many, {n}\)",
       (cnt[7], 7, cnt[10], 10, cnt[peak], peak, peak + 1, cnt[peak + 1])),
      (rf"to {n} at ply {n}, the full boards", (cnt[W * H], W * H)),
      (rf"this position, at ply {n},", (len(steps[3]["position"]),))],
  5: [(rf"first appear at ply {n}, with Red's fourth stone: {n} of the {n} positions at ply {n} are games already over",
       (first_four, term[first_four], cnt[first_four], first_four)),
      (rf"Over the whole game {n} of the {n} positions on 5x4, {n}%", (cj["terminal"], cj["total"], pct(cj["terminal"], cj["total"]))),
      (rf"three stones in column {n}", (1,)),
      (rf"four in column {n}", moves_with(5, "W")),
      (rf"complete column {n} at once", (2,))],
  6: [(rf"At ply {n} one cell is left", (W * H - 1,)),
      (rf"Of the {n} positions at ply {n}, {n} are won \(the last stone makes four\), {n} drawn and {n} lost",
       (cnt[19], 19, won[19], drawn[19], lost[19])),
      (rf"gsw count gives {n} terminal positions at ply {n} too", (term[19], 19)),
      (rf"At ply {n} the board is full: of the {n} full boards, {n} are drawn and {n} lost", (20, cnt[20], drawn[20], lost[20]))],
  7: [(rf"Over all {n} plies the {n} positions split almost in thirds: {n} are won for the side to move \({n}%\), {n} drawn \({n}%\) and {n} lost \({n}%\)",
       (len(cnt), Ttot, Wtot, pct(Wtot, Ttot), Dtot, pct(Dtot, Ttot), Ltot, pct(Ltot, Ttot))),
      (rf"At ply {n}, for example, {n} of the {n} positions are won, {n} drawn and {n} lost", (10, won[10], cnt[10], drawn[10], lost[10])),
      (rf"This position, at ply {n}, has all three", (len(steps[6]["position"]),)),
      (rf"column {n} wins, on the {n}th stone\. Columns {n} and {n} only draw; {n} and {n} lose",
       moves_with(7, "W") + (len(steps[6]["position"]) + plies(7, 3),) + moves_with(7, "D") + moves_with(7, "L"))],
  8: [(rf"{n} positions at ply {n}, a peak of {n} at ply {n}, and {n} full boards at ply {n}",
       (a[26], 26, a[apeak], apeak, a[42], 42)),
      (rf"In all 7x6 has {n} positions over its {n} plies, against {n} over {n} on 5x4", (sum(a.values()), len(a), Ttot, len(cnt)))],
  9: [(rf"only by the centre column, on stone {n}", (int(steps[step76 - 1]["values"]["4"][1:]),))],
}
# the facts stated in words (no digits to find)
check(won[2] == 0, "ply 2: none is won for Red")
check(lost[3] == 0, "ply 3: none is lost")
check(won[20] == 0, "ply 20: none is won")
check(lost[19] == term[19], "ply 19: the lost positions are the terminal ones")
check(query("12")[1] == "loss" and query("54")[1] == "loss", "1 2 and 5 4 are lost for Red")
check(steps[2]["position"] == "123" and board("123") == board("321"), "step 3: 123 and 321 are one position")
check(7 * (7 + 6 * (5 / 2 + 2)) == a[3] and 5 * (5 + 4 * (3 / 2 + 2)) == cnt[3], "the OEIS sum")
check(0.7 <= peak / (W * H) <= 0.8 and 0.7 <= apeak / 42 <= 0.8, "peaks about three quarters through")
check(0.18 <= cj["terminal"] / cj["total"] <= 0.22, "about one in five ended by a four")
check(W * H - len(steps[3]["position"]) == 5, "step 4: five empty cells")
check(steps[4]["position"][0::2] == "111" and steps[4]["position"][1::2] == "222", "step 5: Red's three in column 1, Yellow's in 2")
check(len(steps[5]["position"]) == W * H - 1, "step 6: one cell left")
check(list(map(len, (moves_with(7, "W"), moves_with(7, "D"), moves_with(7, "L")))) == [1, 2, 2], "step 7: one wins, two draw, two lose")
check(moves_with(1, "W") == () and len(moves_with(1, "D")) == 3 and
      [v[0] for v in steps[step76 - 1]["values"].values()].count("W") == 1, "step 9: no win and three draws on 5x4, one win on 7x6")
check(max(steps[step76 - 1]["values"], key=lambda m: "LDW".index(steps[step76 - 1]["values"][m][0])) == "4", "7x6: the centre wins")
check(a[0] == 1 and a[1] == 7 and a[2] == 7 * 7 and cnt[2] == W * W, "w, w squared")

num = lambda s: float(s.replace(",", "")) if "." in s else int(s.replace(",", ""))
for i, st in enumerate(steps, 1):
    text, covered = st["text"], set()
    for pat, want in claims.get(i, []):
        ms = list(re.finditer(pat, text))
        if not ms:
            fails.append(f"step {i}: no '{pat}' in the text"); continue
        for m in ms:
            got = tuple(num(g.rstrip(",.")) for g in m.groups())
            check(got == tuple(want), f"step {i}: '{m.group(0)}' reads {got}, the program gives {tuple(want)}")
            for k in range(1, len(m.groups()) + 1): covered.update(range(m.start(k), m.end(k)))
    # a number no claim reads is a figure nobody checks
    bare = re.sub(r"\b\d+x\d+\b", lambda m: " " * len(m.group(0)), text)   # board names
    for t in re.finditer(r"(?<![\w,.])\d[\d,]*(\.\d+)?", bare):
        check(t.start() in covered, f"step {i}: the number '{t.group(0)}' (…{text[max(0, t.start() - 30):t.end() + 10]}…) is not checked")
    check(not re.search(r"\b(?!5x4\b|7x6\b)\d+x\d+\b", text), f"step {i}: a board other than 5x4 and 7x6")
print("ok" if not fails else "\n".join(fails))
EOF
)
same "$r" ok "the lesson's figures"

# ---- 7x6, plies 0-6: the data file against a brute-force enumeration ----
r=$(python3 - "$data" <<'EOF'
import sys
W, H, N = 7, 6, 6
a = [int(l.split()[1]) for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
def four(cells, c, r, p):
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        n = 1
        for s in (1, -1):
            x, y = c + s * dc, r + s * dr
            while 0 <= x < W and 0 <= y < H and cells.get((x, y)) == p:
                n += 1; x += s * dc; y += s * dr
        if n >= 4: return True
    return False
level, counts = {frozenset(): False}, [1]   # position -> ended by a four
for ply in range(N):
    nxt = {}
    for pos, ended in level.items():
        if ended: continue            # a four: counted, not continued
        cells, h = dict(pos), [0] * W
        for (x, y) in cells: h[x] = max(h[x], y + 1)
        for c in range(W):
            if h[c] < H:
                q = pos | {((c, h[c]), ply % 2)}
                if q not in nxt:
                    cells[(c, h[c])] = ply % 2
                    nxt[q] = four(cells, c, h[c], ply % 2)
                    del cells[(c, h[c])]
    level = nxt
    counts.append(len(level))
print("ok" if counts == a[:N + 1] else f"enumerated {counts}, the file {a[:N + 1]}")
EOF
)
same "$r" ok "7x6 plies 0-6 enumerated"

echo "test_strong_lesson: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
