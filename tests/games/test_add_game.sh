#!/usr/bin/env bash
# A game added from scratch, as docs/ARCHITECTURE.md ("Adding a game") says:
# in a copy of the source tree the template tests/data/add_game/tictactoe/
# becomes the folder games/tictactoe/, and games/registry.c gets the
# game's two lines (its header's include, its game_t in the list); nothing
# else in the tree changes. The copy builds with cmake, and the game is in
# `gsw games`, `gsw solve` proves its positions, and the generic self-test,
# the generic fuzz target (replay_game_text) and the differential test
# cover it. Then a bug planted in the game's move text is caught by the
# self-test and the fuzz target. A full build: label slow
# (ctest -L slow -R test_add_game). CC picks the compiler (default gcc),
# GSW_JOBS the build's jobs (default 2).
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DATA=${GSW_TEST_DATA:-$ROOT/tests/data}
work=$(mktemp -d "${TMPDIR:-/tmp}/gsw-add-game.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
src=$work/src build=$work/build
fails=0
ok() { :; }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
die() { echo "FAIL: $*"; exit 1; }

# ---- the copy, and the game added to it
mkdir -p "$src"
tar -C "$ROOT" --exclude=./build --exclude=./.git -cf - . | tar -C "$src" -xf - || die "copying the tree"
[ ! -e "$src/games/tictactoe" ] || die "the tree already has games/tictactoe"
cp -r "$DATA/add_game/tictactoe" "$src/games/tictactoe" || die "copying the template"
reg=$src/games/registry.c
awk '
    /^#include "games\// { last = NR }
    { line[NR] = $0 }
    END {
        for (i = 1; i <= NR; i++) {
            if (inlist && line[i] ~ /^[ \t]*NULL,/) { print "    &tictactoe_game,"; inlist = 0 }
            print line[i]
            if (i == last) print "#include \"games/tictactoe/ttt.h\""
            if (line[i] ~ /gsw_games\[\] = \{/) inlist = 1
        }
    }' "$ROOT/games/registry.c" >"$reg" || die "editing games/registry.c"
# the whole change: the new folder and two added lines in the registry
changed=$(diff -rq --exclude=build --exclude=.git "$ROOT" "$src" 2>&1)
want="Files $ROOT/games/registry.c and $src/games/registry.c differ
Only in $src/games: tictactoe"
[ "$changed" = "$want" ] || bad "the copy differs from the tree by more than the game: $changed"
added=$(diff "$ROOT/games/registry.c" "$reg" | grep -c '^>')
removed=$(diff "$ROOT/games/registry.c" "$reg" | grep -c '^<')
[ "$added" = 2 ] && [ "$removed" = 0 ] || bad "games/registry.c: $added lines added, $removed removed (want 2 and 0)"
grep -q '^    &tictactoe_game,$' "$reg" && grep -q '^#include "games/tictactoe/ttt.h"$' "$reg" \
    || die "the registry lines were not added: $(cat "$reg")"

# ---- the build
echo "building the copy in $build"
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER="${CC:-gcc}" -DGSW_WERROR=ON \
    >"$work/cmake.log" 2>&1 || { tail -30 "$work/cmake.log"; die "cmake configure"; }
targets="gsw test_game_generic replay_game_text test_differential"
# shellcheck disable=SC2086
cmake --build "$build" -j "${GSW_JOBS:-2}" --target $targets >"$work/build.log" 2>&1 \
    || { tail -40 "$work/build.log"; die "the build"; }
bin() { find "$build" -name "$1" -type f -perm -u+x | head -1; }
gsw=$(bin gsw) generic=$(bin test_game_generic) replay=$(bin replay_game_text) diff_test=$(bin test_differential)
for b in "$gsw" "$generic" "$replay" "$diff_test"; do [ -x "$b" ] || die "a built program is missing ($targets)"; done
export GSW_DB=$work/cache.db GSW_BOOKS=

# ---- gsw games, gsw solve
"$gsw" games >"$work/games.txt" 2>&1 || bad "gsw games failed"
grep -q '^tictactoe ' "$work/games.txt" || bad "gsw games does not list tictactoe: $(cat "$work/games.txt")"
# solve POSITION VALUE [BEST]: gsw solve tictactoe POSITION --json says value (and best)
solve() {
    local out
    out=$("$gsw" solve tictactoe "$1" --json 2>"$work/err") || { bad "gsw solve tictactoe '$1': $(cat "$work/err")"; return; }
    echo "$out" | grep -q "\"value\":\"$2\"" || bad "gsw solve tictactoe '$1': not a $2: $out"
    [ -z "${3:-}" ] || echo "$out" | grep -q "\"best\":\"$3\"" || bad "gsw solve tictactoe '$1': best is not $3: $out"
}
solve "" draw
solve "xx.oo...." win 3
solve "xx.oo...x" win 6
solve "xx.o....." loss
"$gsw" solve tictactoe "xxx......" --json >/dev/null 2>&1
[ $? -eq 2 ] || bad "gsw solve tictactoe with a position X cannot reach: not refused with exit 2"

# ---- the generic self-test
"$generic" >"$work/generic.txt" 2>&1 || { tail -20 "$work/generic.txt"; bad "the generic self-test failed"; }
grep -q '^\[ variant  \] tictactoe:3x3$' "$work/generic.txt" || bad "the generic self-test does not cover tictactoe:3x3"

# ---- the generic fuzz target: its list, and an input that picks the game
GSW_FUZZ_LIST=1 "$replay" /dev/null >"$work/fuzz.txt" 2>&1 || bad "replay_game_text failed: $(cat "$work/fuzz.txt")"
grep -q '^tictactoe:3x3$' "$work/fuzz.txt" || bad "the generic fuzz target does not list tictactoe:3x3: $(cat "$work/fuzz.txt")"
index=$(grep -c '^[a-z]' "$work/games.txt")   # the games before it, as gsw games lists the registry
index=$((index - 1))
[ "$(grep '^[a-z]' "$work/games.txt" | tail -1 | cut -d' ' -f1)" = tictactoe ] || bad "tictactoe is not the registry's last game"
printf "\\$(printf %03o "$index")\\000x...o....\\n3\\n5\\n" >"$work/input"
"$replay" "$work/input" >"$work/fuzz_run.txt" 2>&1 || bad "replay_game_text on a tictactoe input: $(cat "$work/fuzz_run.txt")"

# ---- the differential test, its boards cut to the new game
GSW_DIFF_BOARDS=tictactoe "$diff_test" >"$work/diff.txt" 2>&1 || { tail -20 "$work/diff.txt"; bad "the differential test failed"; }
grep -q '^\[ positions \] tictactoe:3x3 ' "$work/diff.txt" || bad "the differential test does not cover tictactoe:3x3"

# ---- a bug in the game's move text (it writes the next cell): caught by both
sed -i 's|snprintf(buf, n, "%u", (unsigned)m + 1);|snprintf(buf, n, "%u", (unsigned)m % 8 + 2);|' "$src/games/tictactoe/tictactoe.c"
grep -q 'm % 8 + 2' "$src/games/tictactoe/tictactoe.c" || die "planting the bug"
cmake --build "$build" -j "${GSW_JOBS:-2}" --target test_game_generic replay_game_text >"$work/build2.log" 2>&1 \
    || { tail -40 "$work/build2.log"; die "the rebuild"; }
if "$generic" >"$work/generic2.txt" 2>&1; then bad "the generic self-test passes a game whose move text is wrong"; fi
if "$replay" "$work/input" >"$work/fuzz2.txt" 2>&1; then bad "the generic fuzz target passes a game whose move text is wrong"; fi
grep -q 'tictactoe:3x3' "$work/fuzz2.txt" || bad "the fuzz target's abort does not name tictactoe:3x3: $(cat "$work/fuzz2.txt")"

[ "$fails" -eq 0 ] || { echo "$fails failures"; exit 1; }
echo "test_add_game: a game added as a folder and a registry line builds, solves and is tested"
