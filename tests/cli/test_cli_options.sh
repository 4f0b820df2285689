#!/usr/bin/env bash
# Options declared by their verbs (issue 52): every verb's options come from
# its declaration (gsw help --json lists them), and
#   - README.md's "Every verb's options" names exactly those, verb by verb,
#     and every `gsw VERB ... --OPTION` README shows (code blocks and spans)
#     is one VERB declares;
#   - every option the test scripts give a verb is one it declares;
#   - gsw VERB --help and gsw help VERB [--json] list exactly the declaration;
#   - every declared option is accepted (gsw VERB --OPTION VALUE --help: 0);
#   - any other option is refused with one line naming the verb, the option
#     and where to look (gsw games --threads 3: exit 2,
#     "gsw games: no option --threads (gsw games --help)"), stdout empty.
# Needs GSW_BIN (set by ctest) and python3.
set -u
. "$(dirname "$0")/cli_lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
command -v python3 >/dev/null || { echo "FAIL: python3 is needed (tools/install-deps.sh installs it)"; exit 1; }

# the issue's example, exactly
expect 2 "games --threads 3" -- "$gsw" games --threads 3
same "$(cat "$tmp/err")" "gsw games: no option --threads (gsw games --help)" "the one line"
[ -s "$tmp/out" ] && bad "games --threads 3: stdout not empty" || ok
expect 2 "games --threads 3 --resume" -- "$gsw" games --threads 3 --resume
expect 2 "solve --bogus" -- "$gsw" solve connect4 --bogus
same "$(cat "$tmp/err")" "gsw solve: no option --bogus (gsw solve --help)" "an unknown option"
# bad values keep their texts
expect 2 "--threads 0" -- "$gsw" solve connect4 --threads 0
has err 'gsw: --threads: bad value "0" (expected a whole number from 1 to 256)' "a bad value said"
expect 2 "--algo" -- "$gsw" solve connect4 --algo foo
has err 'gsw: --algo: unknown algorithm "foo" (ab, dfpn, manager)' "a bad --algo said"
expect 2 "--time needs a value" -- "$gsw" solve connect4 --time
has err "gsw: --time needs a value" "a missing value said"
expect 2 "--option without =" -- "$gsw" match chess --engine x --option foo
has err "gsw: --option foo: expected NAME=VALUE" "a bad NAME=VALUE said"
expect 2 "--json on play" -- "$gsw" play --json
has err "--json does not apply to gsw play" "--json on the workbench: why"
expect 0 "help --json" -- "$gsw" help --json
cp "$tmp/out" "$tmp/decl.json"

python3 - "$gsw" "$tmp" "$root" <<'EOF'
import json, os, re, subprocess, sys
gsw, tmp, root = sys.argv[1:4]
fails = []
def bad(msg): fails.append(msg)
def run(*args):
    p = subprocess.run([gsw, *args], stdin=subprocess.DEVNULL, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr

verbs = {v["name"]: v for v in json.load(open(os.path.join(tmp, "decl.json")))["verbs"]}
decl = {name: [o["name"] for o in v["options"]] for name, v in verbs.items()}
if len(verbs) < 19: bad("gsw help --json lists %d verbs" % len(verbs))
for name, opts in decl.items():
    if len(set(opts)) != len(opts): bad("%s declares an option twice: %s" % (name, opts))

# README: the per-verb list, both ways
readme = open(os.path.join(root, "README.md")).read()
m = re.search(r"^### Every verb's options\n(.*?)(?=^#)", readme, re.S | re.M)
if not m:
    bad("README.md has no section \"### Every verb's options\"")
    listed = {}
else:
    listed = {}
    for line in m.group(1).splitlines():
        lm = re.match(r"- `gsw (\w+)`: (.*)", line)
        if lm: listed[lm.group(1)] = set(re.findall(r"`--([a-z][a-z-]*)", lm.group(2)))
for name, opts in decl.items():
    if name not in listed: bad("README lists no options for gsw %s" % name); continue
    for o in opts:
        if o not in listed[name]: bad("README: gsw %s: --%s is declared but not listed" % (name, o))
    for o in listed[name] - set(opts): bad("README: gsw %s: --%s is listed but not declared" % (name, o))
for name in set(listed) - set(decl): bad("README lists options for gsw %s, which is no verb" % name)

# README and the test scripts: every `gsw VERB ... --OPTION` shown uses a declared option
def uses(text, where):
    # refusals shown on purpose: an expected exit 2, a "no option" line, --json where it does not apply
    if re.search(r"expect 2|refused |no option|same \"\$\?\" 2", text): return
    # each command: from "gsw VERB" to the end of the segment (a comment, a pipe, ;, &&)
    for seg in re.split(r"\s#\s|\s#$|\|\||\||;|&&|\)|`", text):
        cm = re.search(r"""(?:^|[\s"'(/{])\$?\{?gsw\}?"?\s+([a-z]+)\b(?![\\"])(.*)""", seg)
        if not cm or cm.group(1) not in decl: continue
        verb, rest = cm.group(1), cm.group(2)
        rest = re.sub(r'"[^"]*"', '""', rest)   # a quoted argument (an engine command) is one value
        for o in re.findall(r"(?:^|\s)--([a-z][a-z-]*)", rest):
            if o == "json" and o not in decl[verb]: continue   # refused on purpose (play, shell, uci)
            if o != "help" and o not in decl[verb]: bad("%s: gsw %s --%s: not declared (%s)" % (where, verb, o, seg.strip()[:120]))
code = re.findall(r"```[a-z]*\n(.*?)```", readme, re.S)
for block in code:
    for line in block.splitlines(): uses(line, "README")
for span in re.findall(r"`(gsw [^`]*)`", readme): uses(span, "README")
for line in readme.splitlines():
    if line.startswith("    "): uses(line, "README")
for d, _, files in os.walk(os.path.join(root, "tests")):
    for f in files:
        if not f.endswith(".sh") or f == "test_cli_options.sh": continue
        path = os.path.join(d, f)
        for n, line in enumerate(open(path, errors="replace"), 1):
            uses(line.rstrip("\n"), "%s:%d" % (os.path.relpath(path, root), n))

# help: the text and JSON list exactly the declaration
for name, v in verbs.items():
    rc, out, err = run(name, "--help")
    if rc: bad("gsw %s --help: exit %d" % (name, rc)); continue
    shown = re.findall(r"^  --([a-z][a-z-]*)", out.split("\noptions:\n", 1)[-1], re.M)
    if [o for o in shown if o != "help"] != decl[name]: bad("gsw %s --help lists %s, declared %s" % (name, shown, decl[name]))
    for o in v["options"]:
        line = "  --%s%s: %s" % (o["name"], " " + o["value"] if o["value"] else "", o["help"])
        if line not in out.splitlines(): bad("gsw %s --help: no line %r" % (name, line))
    rc2, out2, _ = run("help", name)
    if rc2 or out2 != out: bad("gsw help %s differs from gsw %s --help" % (name, name))
    for args in (["help", name, "--json"], [name, "--help", "--json"] if "json" in decl[name] else None):
        if not args: continue
        rc, out, err = run(*args)
        try: d = json.loads(out)
        except ValueError: bad("gsw %s: not JSON: %r" % (" ".join(args), out[:200])); continue
        if rc or [o["name"] for o in d.get("options", [])] != decl[name]: bad("gsw %s: options differ" % " ".join(args))

# every declared option is accepted; every other is refused in one line
def value(o):
    k = o["kind"]
    if k == "flag": return []
    if k in ("int", "number", "u64"): return ["2"]
    if k == "list": return ["A=1"]
    return [o["value"].split("|")[0] if "|" in o["value"] else "x"]
every = {}
for v in verbs.values():
    for o in v["options"]: every.setdefault(o["name"], o)
for name, v in verbs.items():
    for o in v["options"]:
        rc, out, err = run(name, "--" + o["name"], *value(o), "--help")
        if rc: bad("gsw %s --%s %s --help: exit %d: %s" % (name, o["name"], " ".join(value(o)), rc, err.strip()))
    for oname, o in sorted(every.items()):
        if oname in decl[name]: continue
        rc, out, err = run(name, "--" + oname, *value(o))
        want = "gsw %s: no option --%s (gsw %s --help)\n" % (name, oname, name)
        if oname == "json" and rc == 2 and "--json does not apply to gsw %s: " % name in err and err.count("\n") == 1: continue
        if rc != 2 or err != want or out: bad("gsw %s --%s: exit %d, stderr %r, expected %r" % (name, oname, rc, err, want))

for f in fails: print("FAIL: " + f)
print("options checked: %d verbs, %d options" % (len(verbs), len(every)))
sys.exit(1 if fails else 0)
EOF
[ $? -eq 0 ] && ok || bad "the declarations, README and the tests' options disagree (above)"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
