#!/usr/bin/env bash
# The source tree's layout rules (issue 32), checked with bash, awk, coreutils
# and binutils' nm only (CI machines are bare Debian: mawk, no python):
#   1. no .c/.h file over 1,000 lines; no top folder over 30% of all lines
#   2. no knot of modules (strongly connected component) over 3 modules,
#      a module being one .c with its .h; A depends on B when A's files
#      include B's header or A's object calls a function B's object defines
#   3. no file-scope prototype of another file's function in a .c file
#   4. the workbench calls no CLI verb code (cli/ beyond cli.c, opts.c, json.c)
#   5. every header opens with a comment saying what the module is for
#   6. every verb's options are declared: each `cli_verb_t verb_X = {...}`
#      names its option tables (.opts =), and no option is parsed by hand
#      (no strcmp/strncmp against a "-x" or "--x" literal outside cli/opts.c,
#      the parser driven by the declarations, and check/main.c: the separate
#      checker links nothing of cli/ and reads its own two options)
#   7. the solver door (solve/solver.c) calls no cache_ function: it keeps
#      its proofs through the sources' store operation
#   8. no setenv, unsetenv or putenv outside tests: settings travel as
#      arguments, not through the environment
#   9. the separate checker (BUILD_DIR/gsw-check, docs/CERTIFICATE.md) holds
#      no symbol that the objects of gsw's searches (core/ab.c, ab_think.c,
#      dfpn.c, manager.c, puzzle.c, retro.c, retro_part.c, evolve.c, tt.c),
#      of solve/ or of the cache (db/cache.c) define
# Counted: .c and .h outside tests/ bench/ tools/ data/ lessons/ docs/ and
# build folders; rule 3 spares tests/ (not counted at all).
#
# Usage: check_layout.sh [--report|--strict] [BUILD_DIR]
#        check_layout.sh --self-test [CC]
# BUILD_DIR: a built build tree; its objects (<build>/<folder>/CMakeFiles/
# *.dir/**/*.c.o) give the call edges of rules 2 and 4 (without it those are
# skipped). Failures are fatal (exit 1) with --strict or GSW_LAYOUT_STRICT set
# (not 0); otherwise, and always with --report, the check reports and exits 0.
# --self-test builds tiny trees in a temporary folder and shows each rule
# passing and failing (object rules too when CC, default cc, compiles).
set -u
export LC_ALL=C

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
NM=${NM:-nm}

MAX_FILE_LINES=1000
MAX_FOLDER_PCT=30
MAX_KNOT=3
# folders holding no product code, or code that is not counted
SKIP_TOP=" tests bench tools data lessons docs build "
# cli/ files the workbench may use: the shared table/option/JSON helpers
CLI_SHARED=" cli/cli.c cli/opts.c cli/json.c "

# An awk lexer shared by the programs below: lex(line) returns the line with
# comments, string and character literals blanked (block comments carry over
# lines in the global incomment; reset per file by the caller).
AWK_LEX='
function lex(s,    out, i, n, c, d, q) {
    out = ""; n = length(s)
    for (i = 1; i <= n; i++) {
        c = substr(s, i, 1)
        if (incomment) {
            if (c == "*" && substr(s, i + 1, 1) == "/") { incomment = 0; i++; out = out " " }
            continue
        }
        d = substr(s, i + 1, 1)
        if (c == "/" && d == "*") { incomment = 1; i++; out = out " "; continue }
        if (c == "/" && d == "/") break
        if (c == "\"" || c == "\047") {
            q = c
            for (i++; i <= n; i++) {
                c = substr(s, i, 1)
                if (c == "\\") { i++; continue }
                if (c == q) break
            }
            out = out q q
            continue
        }
        out = out c
    }
    return out
}
'

# ---------------------------------------------------------------- the checks

# check_tree ROOT [BUILD]: prints the tables and FAIL lines; returns the
# number of failures (capped at 255).
check_tree() {
    local root=$1 build=${2:-} tmp
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/gsw_layout.XXXXXX") || return 255
    local fails=0

    # the counted files, relative to root
    (
        cd "$root" || exit 1
        for d in * .[!.]*; do
            [ -e "$d" ] || continue
            if [ -d "$d" ]; then
                case "$SKIP_TOP" in *" $d "*) continue ;; esac
                case "$d" in .* | build* | CMakeFiles) continue ;; esac
                # a build tree made inside the source tree, whatever its name
                [ -e "$d/CMakeCache.txt" ] && continue
                find "$d" \( -name CMakeFiles -o -name '.*' ! -name . \) -prune -o \( -name '*.c' -o -name '*.h' \) -type f -print
            else
                case "$d" in *.c | *.h) echo "$d" ;; esac
            fi
        done
    ) | sed 's|^\./||' | sort > "$tmp/files"
    local -a files
    mapfile -t files < "$tmp/files"
    if [ ${#files[@]} -eq 0 ]; then
        echo "FAIL: no .c or .h files under $root"
        rm -rf "$tmp"
        return 1
    fi

    # rule 1: lines per file and per top folder
    echo "== lines per top folder (.c and .h; limit ${MAX_FOLDER_PCT}% each, $MAX_FILE_LINES per file)"
    (cd "$root" && awk -v maxf="$MAX_FILE_LINES" -v maxp="$MAX_FOLDER_PCT" '
        FNR == 1 { f = FILENAME; nf++; name[nf] = f; lines[f] = 0 }
        { lines[f] = FNR }
        END {
            for (i = 1; i <= nf; i++) {
                f = name[i]
                top = f; if (index(f, "/")) top = substr(f, 1, index(f, "/") - 1); else top = "(top)"
                if (!(top in tl)) { nt++; tops[nt] = top; tl[top] = 0; tf[top] = 0 }
                tl[top] += lines[f]; tf[top]++; total += lines[f]
            }
            for (i = 1; i <= nt; i++) {
                t = tops[i]
                printf "  %-12s %4d files %7d lines %5.1f%%\n", t, tf[t], tl[t], total ? 100 * tl[t] / total : 0
            }
            printf "  %-12s %4d files %7d lines\n", "total", nf, total
            for (i = 1; i <= nf; i++) if (lines[name[i]] > maxf)
                printf "FAIL lines: %s has %d lines (limit %d)\n", name[i], lines[name[i]], maxf
            for (i = 1; i <= nt; i++) if (total && 100 * tl[tops[i]] > maxp * total)
                printf "FAIL lines: top folder %s/ holds %.1f%% of the lines (limit %d%%)\n", tops[i], 100 * tl[tops[i]] / total, maxp
        }' "${files[@]}") > "$tmp/r1"
    cat "$tmp/r1"

    # the modules: a path less its extension
    sed 's/\.[ch]$//' "$tmp/files" | sort -u > "$tmp/modules"

    # rule 2, includes: "A B" when A's .c or .h includes B's header
    (cd "$root" && awk '
        NR == FNR { mod[$0] = 1; next }
        {
            if (!match($0, /^[ \t]*#[ \t]*include[ \t]*"[^"]*"/)) next
            s = substr($0, RSTART, RLENGTH); sub(/^[^"]*"/, "", s); sub(/"$/, "", s)
            if (s !~ /\.h$/) next
            b = s; sub(/\.h$/, "", b)
            a = FILENAME; sub(/\.[ch]$/, "", a)
            if ((b in mod) && a != b) print a, b, "include", FILENAME
        }' "$tmp/modules" "${files[@]}") > "$tmp/edges"

    # the objects: "module symbol type" for each built source file of the tree
    : > "$tmp/syms"
    local have_objs=0
    if [ -n "$build" ]; then
        if [ ! -d "$build" ]; then
            echo "FAIL objects: build folder $build does not exist"
            fails=$((fails + 1))
        else
            find "$build" -path '*/CMakeFiles/*.dir/*' -name '*.c.o' -type f | sort > "$tmp/objs"
            # object -> source: <build>/<dir>/CMakeFiles/<t>.dir/<rest>.c.o -> <dir>/<rest>.c
            awk -v b="$build" '
                NR == FNR { src[$0] = 1; next }
                {
                    o = $0; r = substr(o, length(b) + 2)
                    i = index(r, "CMakeFiles/"); if (!i) next
                    dir = substr(r, 1, i - 1); rest = substr(r, i + 11)
                    j = index(rest, ".dir/"); if (!j) next
                    s = dir substr(rest, j + 5); sub(/\.o$/, "", s)
                    if (s in src) print o, s
                }' "$tmp/files" "$tmp/objs" > "$tmp/objmap"
            if [ ! -s "$tmp/objmap" ]; then
                echo "FAIL objects: no objects of the source tree under $build (is it built?)"
                fails=$((fails + 1))
            else
                have_objs=1
                while read -r o s; do
                    m=${s%.c}
                    "$NM" -P "$o" 2>/dev/null | awk -v m="$m" '$2 == "T" || $2 == "U" { print m, $1, $2 }'
                done < "$tmp/objmap" > "$tmp/syms"
                # calls: "A B" when A's object uses a function B's object defines
                awk '
                    NR == FNR { if ($3 == "T" && !($2 in def)) def[$2] = $1; next }
                    $3 == "U" && ($2 in def) && def[$2] != $1 { print $1, def[$2], "call", $2 }
                ' "$tmp/syms" "$tmp/syms" >> "$tmp/edges"
            fi
        fi
    fi

    # rule 2: strongly connected components (Tarjan)
    echo "== knots of modules (strongly connected components; limit $MAX_KNOT modules)"
    [ -n "$build" ] && [ "$have_objs" = 1 ] || echo "  (includes only: no build folder, calls not counted)"
    awk -v max="$MAX_KNOT" '
        function strong(v,    i, w, k) {
            idx[v] = low[v] = ++counter
            stack[++sp] = v; onst[v] = 1
            for (i = 1; i <= nadj[v]; i++) {
                w = adj[v, i]
                if (!(w in idx)) { strong(w); if (low[w] < low[v]) low[v] = low[w] }
                else if (onst[w] && idx[w] < low[v]) low[v] = idx[w]
            }
            if (low[v] == idx[v]) {
                ncomp++; k = 0
                do { w = stack[sp--]; onst[w] = 0; comp[ncomp, ++k] = w; cof[w] = ncomp } while (w != v)
                csize[ncomp] = k
            }
        }
        NR == FNR { nmod++; mods[nmod] = $1; next }
        {
            if (($1 SUBSEP $2) in seen) next
            seen[$1, $2] = 1; adj[$1, ++nadj[$1]] = $2; why[$1, $2] = $3 " " $4
        }
        END {
            for (i = 1; i <= nmod; i++) if (!(mods[i] in idx)) strong(mods[i])
            # the components by size, largest first (selection: few are big)
            for (i = 1; i <= ncomp; i++) order[i] = i
            for (i = 1; i <= ncomp; i++) for (j = i + 1; j <= ncomp; j++)
                if (csize[order[j]] > csize[order[i]]) { t = order[i]; order[i] = order[j]; order[j] = t }
            hist = ""
            for (i = 1; i <= ncomp; i++) cnt[csize[i]]++
            for (s = csize[order[1]]; s >= 1; s--) if (cnt[s]) hist = hist sprintf(" %dx%d", cnt[s], s)
            printf "  %d modules, %d components; sizes (count x modules):%s\n", nmod, ncomp, hist
            shown = 0
            for (i = 1; i <= ncomp && shown < 5; i++) {
                c = order[i]; if (csize[c] < 2) break
                shown++
                line = ""
                for (k = 1; k <= csize[c]; k++) line = line " " comp[c, k]
                printf "  %d modules:%s\n", csize[c], line
            }
            for (i = 1; i <= ncomp; i++) {
                c = order[i]; if (csize[c] <= max) break
                line = ""
                for (k = 1; k <= csize[c]; k++) line = line " " comp[c, k]
                printf "FAIL knot: %d modules depend on each other (limit %d):%s\n", csize[c], max, line
                # the edges inside it, to say where to cut
                for (k = 1; k <= csize[c]; k++) {
                    v = comp[c, k]
                    for (e = 1; e <= nadj[v]; e++) { w = adj[v, e]; if (cof[w] == c)
                        printf "      %s -> %s (%s)\n", v, w, why[v, w] }
                }
            }
        }' "$tmp/modules" "$tmp/edges" > "$tmp/r2"
    cat "$tmp/r2"

    # rule 3: file-scope prototypes in .c files (tests/ are never counted)
    local -a cfiles=()
    local f
    for f in "${files[@]}"; do case "$f" in *.c) cfiles+=("$f") ;; esac; done
    if [ ${#cfiles[@]} -gt 0 ]; then
        (cd "$root" && awk "$AWK_LEX"'
            function unattr(s,    i, j, n, depth, c) {
                # drop __attribute__((...)) and __asm__(...) (balanced parentheses)
                while (match(s, /__attribute__[ \t]*\(|__asm__[ \t]*\(|__asm[ \t]*\(/)) {
                    i = RSTART; j = RSTART + RLENGTH - 1; depth = 1; n = length(s)
                    for (j++; j <= n && depth > 0; j++) {
                        c = substr(s, j, 1)
                        if (c == "(") depth++
                        else if (c == ")") depth--
                    }
                    s = substr(s, 1, i - 1) " " substr(s, j)
                }
                return s
            }
            function judge(stmt, line,    p, pre, name, rest) {
                stmt = unattr(stmt)
                gsub(/[ \t]+/, " ", stmt); sub(/^ /, "", stmt)
                if (stmt ~ /^(typedef|_Static_assert|static_assert)([^A-Za-z0-9_]|$)/) return
                if (stmt ~ /(^|[^A-Za-z0-9_])static([^A-Za-z0-9_]|$)/) return
                p = index(stmt, "("); if (!p) return
                pre = substr(stmt, 1, p - 1)
                if (index(pre, "=")) return
                if (!match(pre, /[A-Za-z_][A-Za-z0-9_]* ?$/)) return
                name = substr(pre, RSTART, RLENGTH); sub(/ $/, "", name)
                rest = substr(pre, 1, RSTART - 1)
                if (rest !~ /[A-Za-z0-9_*]/) return    # a macro at file scope, no type
                if (name ~ /^(sizeof|_Alignof|alignof|_Alignas|typeof|__typeof__|_Generic)$/) return
                printf "FAIL prototype: %s:%d declares %s() at file scope; put it in the header of the file that defines it\n", FILENAME, line, name
            }
            FNR == 1 { incomment = 0; depth = 0; stmt = ""; start = 0; cont = 0 }
            {
                s = lex($0)
                if (cont) { cont = ($0 ~ /\\$/); next }     # a preprocessor line goes on
                if (s ~ /^[ \t]*#/) { cont = ($0 ~ /\\$/); next }
                n = length(s)
                for (i = 1; i <= n; i++) {
                    c = substr(s, i, 1)
                    if (c == "{") { if (depth == 0) stmt = ""; depth++; continue }
                    if (c == "}") { if (depth > 0) depth--; if (depth == 0) stmt = ""; continue }
                    if (depth > 0) continue
                    if (c == ";") { if (stmt ~ /[^ \t]/) judge(stmt, start); stmt = ""; continue }
                    if (stmt !~ /[^ \t]/ && c !~ /[ \t]/) start = FNR
                    stmt = stmt c
                }
                stmt = stmt " "
            }' "${cfiles[@]}") > "$tmp/r3"
        cat "$tmp/r3"
    else
        : > "$tmp/r3"
    fi

    # rule 4: the workbench and the CLI's verbs
    : > "$tmp/r4"
    local -a wfiles=()
    for f in "${files[@]}"; do case "$f" in workbench/*) wfiles+=("$f") ;; esac; done
    local -a verbfiles=()
    for f in "${files[@]}"; do
        case "$f" in cli/*.c) case "$CLI_SHARED" in *" $f "*) ;; *) verbfiles+=("$f") ;; esac ;; esac
    done
    # the cli_ functions the verb files define (from the source, and the objects)
    : > "$tmp/verbfns"
    if [ ${#verbfiles[@]} -gt 0 ]; then
        (cd "$root" && awk "$AWK_LEX"'
            FNR == 1 { incomment = 0 }
            { s = lex($0) }
            s ~ /^[A-Za-z_]/ && s !~ /^static[ \t]/ && s !~ /;[ \t]*$/ && match(s, /(^|[^A-Za-z0-9_])cli_[A-Za-z0-9_]*[ \t]*\(/) {
                n = substr(s, RSTART, RLENGTH); sub(/^[^c]*/, "", n); sub(/[ \t]*\($/, "", n); print n
            }' "${verbfiles[@]}") >> "$tmp/verbfns"
    fi
    awk '$1 ~ /^cli\// && $3 == "T" && $2 ~ /^cli_/ { m = $1 ".c"; if (index(shared, " " m " ") == 0) print $2 }' \
        shared="$CLI_SHARED" "$tmp/syms" >> "$tmp/verbfns"
    echo proof_obtain >> "$tmp/verbfns"
    sort -u -o "$tmp/verbfns" "$tmp/verbfns"
    if [ ${#wfiles[@]} -gt 0 ]; then
        (cd "$root" && awk "$AWK_LEX"'
            NR == FNR { bad[$1] = 1; next }
            FNR == 1 { incomment = 0 }
            {
                s = lex($0)
                while (match(s, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
                    n = substr(s, RSTART, RLENGTH); sub(/[ \t]*\($/, "", n)
                    if ((n in bad) && substr(s, RSTART - 1, 1) !~ /[A-Za-z0-9_]/)
                        printf "FAIL workbench: %s:%d uses %s(), CLI verb code\n", FILENAME, FNR, n
                    s = substr(s, RSTART + RLENGTH)
                }
            }' "$tmp/verbfns" "${wfiles[@]}") >> "$tmp/r4"
    fi
    # objects: workbench objects using functions of cli/ objects past the shared ones
    awk -v shared="$CLI_SHARED" '
        NR == FNR { if ($3 == "T" && $1 ~ /^cli\// && index(shared, " " $1 ".c ") == 0) def[$2] = $1; next }
        $1 ~ /^workbench\// && $3 == "U" && ($2 in def) {
            printf "FAIL workbench: %s.o calls %s() of %s.c, CLI verb code\n", $1, $2, def[$2]
        }' "$tmp/syms" "$tmp/syms" >> "$tmp/r4"
    cat "$tmp/r4"

    # rule 5: every header opens with a comment
    local -a hfiles=()
    for f in "${files[@]}"; do case "$f" in *.h) hfiles+=("$f") ;; esac; done
    : > "$tmp/r5"
    if [ ${#hfiles[@]} -gt 0 ]; then
        (cd "$root" && awk '
            FNR == 1 { if (prev != "" && !done) bad(prev); prev = FILENAME; done = 0 }
            function bad(f) { printf "FAIL header: %s does not open with a comment saying what the module is for\n", f }
            done || !NF { next }
            { done = 1; if ($0 !~ /^[ \t]*\/\*/) bad(FILENAME) }
            END { if (prev != "" && !done) bad(prev) }' "${hfiles[@]}") > "$tmp/r5"
        # (an empty header has no first line: it is caught by the count below)
        for f in "${hfiles[@]}"; do
            [ -s "$root/$f" ] || echo "FAIL header: $f does not open with a comment saying what the module is for"
        done >> "$tmp/r5"
        cat "$tmp/r5"
    fi

    # rule 6: every verb's options declared
    local -a cfiles=()
    for f in "${files[@]}"; do case "$f" in *.c) cfiles+=("$f") ;; esac; done
    : > "$tmp/r6"
    if [ ${#cfiles[@]} -gt 0 ]; then
        (cd "$root" && awk '
            FNR == 1 { if (verb != "") bad_verb(); verb = ""; incomment = 0 }
            function bad_verb() { printf "FAIL options: %s:%d: %s declares no options (.opts =)\n", vfile, vline, verb }
            $0 ~ /^[ \t]*(const[ \t]+)?cli_verb_t[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*=[ \t]*\{/ {
                verb = $0; sub(/^[ \t]*(const[ \t]+)?cli_verb_t[ \t]+/, "", verb); sub(/[ \t]*=.*/, "", verb)
                vfile = FILENAME; vline = FNR; opts = 0
            }
            verb != "" && /\.opts[ \t]*=/ { opts = 1 }
            verb != "" && /^[ \t]*\}[ \t]*;/ { if (!opts) bad_verb(); verb = "" }
            FILENAME != "cli/opts.c" && FILENAME != "check/main.c" && /str(n)?cmp[ \t]*\([^;]*"--?[A-Za-z]/ {
                printf "FAIL options: %s:%d parses an option by hand (options come from the verb'"'"'s declaration, cli/opts.c)\n", FILENAME, FNR
            }
            END { if (verb != "") bad_verb() }' "${cfiles[@]}") > "$tmp/r6"
        cat "$tmp/r6"
    fi

    # rules 7 and 8: calls found in the lexed text (comments and strings blanked)
    : > "$tmp/r7"
    local -a chfiles=()
    for f in "${files[@]}"; do case "$f" in *.c | *.h) chfiles+=("$f") ;; esac; done
    if [ ${#chfiles[@]} -gt 0 ]; then
        (cd "$root" && awk "$AWK_LEX"'
            FNR == 1 { incomment = 0 }
            {
                s = lex($0)
                if (FILENAME == "solve/solver.c" && match(s, /(^|[^A-Za-z0-9_])cache_[A-Za-z0-9_]*[ \t]*\(/)) {
                    n = substr(s, RSTART, RLENGTH); sub(/^[^c]*/, "", n); sub(/[ \t]*\($/, "", n)
                    printf "FAIL door: %s:%d calls %s(); the solver keeps its proofs through the sources (store)\n", FILENAME, FNR, n
                }
                if (match(s, /(^|[^A-Za-z0-9_])(setenv|unsetenv|putenv)[ \t]*\(/)) {
                    n = substr(s, RSTART, RLENGTH); sub(/^[^a-z]*/, "", n); sub(/[ \t]*\($/, "", n)
                    printf "FAIL environment: %s:%d calls %s(); pass the setting as an argument\n", FILENAME, FNR, n
                }
            }' "${chfiles[@]}") > "$tmp/r7"
        cat "$tmp/r7"
    fi

    # rule 9: the checker's executable against the forbidden objects' symbols
    : > "$tmp/r9"
    if [ "$have_objs" = 1 ] && [ -e "$build/gsw-check" ]; then
        echo "== the separate checker (gsw-check) links none of the searches, solve/ or the cache"
        awk '$2 ~ /^(core\/(ab|ab_think|dfpn|manager|puzzle|retro|retro_part|evolve|tt)\.c|solve\/.*\.c|db\/cache\.c)$/' \
            "$tmp/objmap" > "$tmp/forbid"
        while read -r o s; do
            "$NM" -P --defined-only "$o" 2>/dev/null | awk -v s="$s" '$2 ~ /^[TDBRVW]$/ { print $1, s }'
        done < "$tmp/forbid" | sort -u > "$tmp/forbid_syms"
        "$NM" -P --defined-only "$build/gsw-check" 2>/dev/null | awk '$2 ~ /^[TDBRVW]$/ { print $1 }' | sort -u > "$tmp/check_syms"
        if [ ! -s "$tmp/check_syms" ]; then
            echo "FAIL checker: $build/gsw-check has no symbols to compare (stripped?)" > "$tmp/r9"
        else
            awk 'NR == FNR { have[$1] = 1; next } ($1 in have) { printf "FAIL checker: gsw-check holds %s, defined by %s\n", $1, $2 }' \
                "$tmp/check_syms" "$tmp/forbid_syms" > "$tmp/r9"
        fi
        echo "  $(wc -l < "$tmp/forbid") forbidden objects, $(wc -l < "$tmp/forbid_syms") symbols; $(grep -c '^FAIL' "$tmp/r9") in gsw-check"
        cat "$tmp/r9"
    fi

    local n
    n=$(cat "$tmp/r1" "$tmp/r2" "$tmp/r3" "$tmp/r4" "$tmp/r5" "$tmp/r6" "$tmp/r7" "$tmp/r9" | grep -c '^FAIL')
    fails=$((fails + n))
    echo "== $fails layout failure(s)"
    rm -rf "$tmp"
    [ "$fails" -gt 255 ] && fails=255
    return "$fails"
}

# ---------------------------------------------------------------- self-test

# pad FILE N: comment lines appended until FILE has N lines
pad() {
    local f=$1 n=$2 have
    have=$(awk 'END { print NR }' "$f" 2>/dev/null || echo 0)
    [ -e "$f" ] || have=0
    awk -v k=$((n - have)) 'BEGIN { for (i = 0; i < k; i++) print "/* padding */" }' >> "$f"
}

# put ROOT PATH TEXT: a file of the fixture tree
put() {
    mkdir -p "$(dirname "$1/$2")"
    printf '%s\n' "$3" > "$1/$2"
}

# a clean tree: six folders of even size, a knot of three modules (by
# includes), the forms of file-scope statement that are no prototype, and a
# workbench using the CLI's shared helpers only
clean_tree() {
    local t=$1
    put "$t" core/a.h '/* Module a: one third of the knot. */
#include "games/b.h"
int a_fn(void);'
    put "$t" core/a.c '/* a */
#include "core/a.h"
#include <stdio.h>

static int helper(int x);          /* a static forward declaration */
static int (*hook)(int) = 0;        /* a function pointer */
typedef int op_fn(int);             /* a function type */
int (*table[2])(int);
_Static_assert(sizeof(int) >= 2, "int");
extern const char *const names[];
struct s { int (*f)(int); int g; };
/* int commented_out(void); */
const char *text = "int in_a_string(void);";
#define MACRO(x) int x(void);
__attribute__((unused)) static int unused_one(void) { return 0; }
static int helper(int x) { return x + (hook ? hook(x) : 0); }
int a_fn(void)
{
    int local_decl(void);          /* block scope: not counted */
    return helper(1) + b_fn();
}'
    pad "$t/core/a.c" "$MAX_FILE_LINES"
    put "$t" games/b.h '/* Module b. */
#include "db/c.h"
int b_fn(void);'
    put "$t" games/b.c '#include "games/b.h"
int b_fn(void) { return c_fn(); }'
    pad "$t/games/b.c" 900
    put "$t" db/c.h '
/*
 * Module c: closes the knot.
 */
int c_fn(void);'
    put "$t" db/c.c '#include "db/c.h"
#include "core/a.h"
int c_fn(void) { return 0; }'
    pad "$t/db/c.c" 900
    put "$t" solve/d.h '/* d, a lone header */
int d_fn(void);'
    pad "$t/solve/d.h" 900
    put "$t" cli/cli.h '/* The shared helpers of the CLI. */
int cli_table(void);'
    put "$t" cli/cli.c '#include "cli/cli.h"
int cli_table(void) { return 1; }'
    put "$t" cli/go_cmd.c '#include "cli/cli.h"
#include <string.h>
int cli_go(int argc)
{
    return argc + cli_table() + !strcmp("go", "-");
}
int proof_obtain(void) { return 0; }
typedef struct cli_verb { const char *name; const int *opts; } cli_verb_t;
static const int go_opts[] = { 0 };
const cli_verb_t verb_go = {
    "go", .opts = go_opts
};'
    put "$t" cli/opts.c '#include <string.h>
int opts_is_help(const char *a) { return !strcmp(a, "--help"); }'
    pad "$t/cli/go_cmd.c" 900
    put "$t" workbench/w.h '/* The workbench. */
int w_fn(void);'
    put "$t" workbench/w.c '#include "workbench/w.h"
#include "cli/cli.h"
/* proof_obtain() and cli_go() named in a comment are no call */
int w_fn(void) { return cli_table(); }'
    pad "$t/workbench/w.c" 900
    put "$t" main.c 'int main(void) { return 0; }'
    # outside the count: tests and a build tree's sources
    put "$t" tests/t.c 'int proto_in_a_test(void);'
    pad "$t/tests/t.c" 5000
    put "$t" build/gen.c 'int generated(void);'
}

# the object fixtures: compiled when a compiler is there
objects() {
    local t=$1 cc=$2 src o
    for src in $(cd "$t" && find . -name '*.c' ! -path './tests/*' ! -path './build/*' | sed 's|^\./||'); do
        o="$t/build/${src%%/*}/CMakeFiles/fx.dir/${src#*/}.o"
        [ "${src%%/*}" = "$src" ] && o="$t/build/CMakeFiles/fx.dir/$src.o"
        mkdir -p "$(dirname "$o")"
        "$cc" -c -O0 -I"$t" "$t/$src" -o "$o" 2>"$t/cc.err" || { cat "$t/cc.err"; return 1; }
    done
}

self_test() {
    local cc=${1:-${CC:-cc}} base t out rc failed=0 have_cc=1
    base=$(mktemp -d "${TMPDIR:-/tmp}/gsw_layout_self.XXXXXX") || exit 1
    # shellcheck disable=SC2064
    trap "rm -rf '$base'" EXIT
    command -v "$cc" >/dev/null 2>&1 && command -v "$NM" >/dev/null 2>&1 || have_cc=0

    # expect NAME WANT_RC PATTERN [BUILD]: run the check on $t
    expect() {
        local name=$1 want=$2 pat=$3 b=${4:-}
        out=$(check_tree "$t" $b 2>&1); rc=$?
        if { [ "$want" = 0 ] && [ "$rc" != 0 ]; } || { [ "$want" != 0 ] && [ "$rc" = 0 ]; } ||
           { [ -n "$pat" ] && ! grep -qE -- "$pat" <<<"$out"; }; then
            echo "self-test FAIL: $name (exit $rc, want ${want/1/nonzero}${pat:+, output matching /$pat/})"
            sed 's/^/    | /' <<<"$out"
            failed=1
        else
            echo "self-test ok: $name"
            [ -n "${GSW_LAYOUT_VERBOSE:-}" ] && sed 's/^/    | /' <<<"$out"
        fi
    }
    fresh() { t="$base/$1"; rm -rf "$t"; mkdir -p "$t"; clean_tree "$t"; }

    fresh clean
    expect "a clean tree with a knot of 3 passes" 0 '3 modules: '
    if [ "$have_cc" = 1 ]; then
        objects "$t" "$cc" || failed=1
        expect "the same with its objects passes" 0 '^  [0-9]+ modules, ' "$t/build"
    fi

    fresh knot4
    put "$t" solve/d.h '/* d, now in the knot */
#include "core/a.h"
int d_fn(void);'
    put "$t" db/c.h '/* c */
#include "solve/d.h"
int c_fn(void);'
    expect "a knot of 4 modules (includes) fails" 1 '^FAIL knot: 4 modules'

    fresh long
    pad "$t/games/b.c" $((MAX_FILE_LINES + 1))
    expect "a file of $((MAX_FILE_LINES + 1)) lines fails" 1 "^FAIL lines: games/b.c has $((MAX_FILE_LINES + 1)) lines"

    fresh heavy
    put "$t" db/more.c '/* more */'
    pad "$t/db/more.c" 1000
    put "$t" db/more2.c '/* more */'
    pad "$t/db/more2.c" 1000
    expect "a top folder over ${MAX_FOLDER_PCT}% fails" 1 '^FAIL lines: top folder db/'

    fresh proto
    put "$t" games/e.c '/* e */
#include "games/b.h"
const char *
e_name(int which,
       int how);
static int e_fn(void) { return 0; }'
    put "$t" games/f.c 'extern int __attribute__((pure)) f_other(void);'
    expect "a prototype over three lines fails" 1 '^FAIL prototype: games/e.c:3 declares e_name\(\)'
    expect "an extern prototype with an attribute fails" 1 '^FAIL prototype: games/f.c:1 declares f_other\(\)'

    fresh header
    put "$t" games/g.h '#ifndef G_H
#define G_H
/* too late */
#endif'
    put "$t" games/empty.h ''
    expect "a header without an opening comment fails" 1 '^FAIL header: games/g.h '
    expect "an empty header fails" 1 '^FAIL header: games/empty.h '

    fresh door
    put "$t" solve/solver.c '/* the door: cache_put() in a comment is no call */
int solver_keep(void)
{
    int cache_put(int);
    return cache_put(1);
}'
    expect "the door calling cache_put fails" 1 '^FAIL door: solve/solver.c:5 calls cache_put\(\)'
    put "$t" solve/solver.c '/* the door */
int solver_keep(void) { return 0; }'
    expect "the door without cache_ calls passes" 0 ''

    fresh env
    put "$t" cli/o.c '/* setenv("X") in a comment, and in a "setenv(string)" is no call */
#include <stdlib.h>
void o_fn(void) { setenv ("GSW_EGDB", "d", 1); }'
    expect "a setenv outside tests fails" 1 '^FAIL environment: cli/o.c:3 calls setenv\(\)'

    fresh options
    put "$t" cli/stop_cmd.c '/* a verb without its options, one parsed by hand */
#include <string.h>
typedef struct cli_verb { const char *name; int (*run)(int); } cli_verb_t;
static int stop(int argc) { return argc; }
int stop_parse(const char *a) { return !strcmp(a, "--now") || !strncmp(a, "-q", 2); }
const cli_verb_t verb_stop = {
    "stop", stop
};'
    expect "a verb declaring no options fails" 1 '^FAIL options: cli/stop_cmd.c:6: verb_stop declares no options'
    expect "an option parsed by hand fails" 1 '^FAIL options: cli/stop_cmd.c:5 parses an option by hand'

    fresh verb
    put "$t" workbench/v.c '/* calls a CLI verb */
#include "workbench/w.h"
int v_fn(void)
{
    int cli_go(int argc), proof_obtain(void);
    return cli_go(0) + proof_obtain();
}'
    expect "the workbench calling a cli_ verb function fails" 1 '^FAIL workbench: workbench/v.c:6 uses cli_go\(\)'
    expect "the workbench calling proof_obtain fails" 1 '^FAIL workbench: workbench/v.c:6 uses proof_obtain\(\)'

    if [ "$have_cc" = 1 ]; then
        # calls alone (block-scope declarations: no include edges)
        fresh calls
        put "$t" core/p.c 'void p(void) { void q(void); q(); }'
        put "$t" games/q.c 'void q(void) { void r(void); r(); }'
        put "$t" db/r.c 'void r(void) { void s(void); s(); }'
        put "$t" solve/s.c 'void s(void) { void p(void); p(); }'
        objects "$t" "$cc" || failed=1
        expect "a knot of 4 by calls passes without the objects" 0 ''
        expect "a knot of 4 by calls fails with the objects" 1 '^FAIL knot: 4 modules' "$t/build"

        fresh verbobj
        put "$t" cli/go_cmd.c '#include "cli/cli.h"
int go_helper(void) { return cli_table(); }'
        put "$t" workbench/v.c 'int v_fn(void) { int go_helper(void); return go_helper(); }'
        objects "$t" "$cc" || failed=1
        expect "a workbench object calling a verb file's function fails" 1 \
            '^FAIL workbench: workbench/v.o calls go_helper\(\) of cli/go_cmd.c' "$t/build"

        # the separate checker: a search's symbol in gsw-check fails, the rules' pass
        fresh checker
        put "$t" core/tt.c 'int tt_probe(int k) { return k + 1; }'
        put "$t" check/rules.h '/* The rules of the checker. */
int rules_moves(int k);'
        put "$t" check/rules.c '#include "check/rules.h"
int rules_moves(int k) { return k * 2; }'
        objects "$t" "$cc" || failed=1
        "$cc" -o "$t/build/gsw-check" "$t/main.c" "$t/check/rules.c" -I"$t" 2>"$t/cc.err" || { cat "$t/cc.err"; failed=1; }
        expect "a checker of the rules alone passes" 0 '' "$t/build"
        "$cc" -o "$t/build/gsw-check" "$t/main.c" "$t/check/rules.c" "$t/core/tt.c" -I"$t" 2>"$t/cc.err" || { cat "$t/cc.err"; failed=1; }
        expect "a checker holding a search's symbol fails" 1 '^FAIL checker: gsw-check holds tt_probe, defined by core/tt.c' "$t/build"

        fresh nobuild
        expect "a build folder without objects fails" 1 '^FAIL objects: no objects' "$t/build"
    else
        echo "self-test: no compiler ($cc) or nm: the object rules are not exercised"
    fi

    if [ "$failed" = 0 ]; then echo "self-test passed"; exit 0; fi
    echo "self-test FAILED"
    exit 1
}

# ---------------------------------------------------------------- main

mode=check
case "${1:-}" in
    --self-test) shift; self_test "$@" ;;
    --report) mode=report; shift ;;
    --strict) mode=strict; shift ;;
    -h | --help) sed -n '2,23p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
build=${1:-}
[ -n "$build" ] && build=$(cd "$build" 2>/dev/null && pwd || echo "$build")
if [ "$mode" = check ] && [ -n "${GSW_LAYOUT_STRICT:-}" ] && [ "${GSW_LAYOUT_STRICT}" != 0 ]; then
    mode=strict
fi
echo "layout of $ROOT${build:+ (objects of $build)}"
check_tree "$ROOT" "$build"
rc=$?
if [ "$rc" != 0 ] && [ "$mode" != strict ]; then
    if [ "$mode" = check ]; then
        echo "(not strict: GSW_LAYOUT_STRICT=1 makes these failures fatal)"
    fi
    exit 0
fi
[ "$rc" = 0 ] && exit 0
exit 1
