#!/usr/bin/env bash
# Regenerates golden-<name>.jsonl for the tokenizer.json files here with HuggingFace tokenizers
# (Rust, npm tokenizers@0.23.2). Line i belongs to the text of line i of the shared corpus
# tests/data/tokenizer/golden-qwen3.jsonl (texts are not repeated here):
#   "ids": encode(text, add_special_tokens=false)
#   "decoded": decode(ids, skip_special_tokens=true)
# wordpiece-8k-uncased is wordpiece-8k with BertNormalizer lowercase=true (strip_accents null,
# so accents are stripped too); golden_test.cpp applies the same change.
# Needs node and the npm registry. Usage: make_golden.sh (from any directory)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ref="$here/../../../bench/tokenizers/hf_reference.mjs"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm install --silent --no-audit --no-fund tokenizers@0.23.2 >/dev/null)
export TOKENIZERS_NODE_MODULES="$work/node_modules"
python3 -c 'import json,sys
for l in open(sys.argv[1]): print(json.dumps({"text": json.loads(l)["text"]}))' \
  "$here/../../../data/tokenizer/golden-qwen3.jsonl" > "$work/corpus.jsonl"
python3 -c 'import json,sys
j = json.load(open(sys.argv[1])); j["normalizer"]["lowercase"] = True
json.dump(j, open(sys.argv[2], "w"), ensure_ascii=False)' \
  "$here/wordpiece-8k/tokenizer.json" "$work/wordpiece-8k-uncased.json"
for name in unigram-8k wordpiece-8k wordpiece-8k-uncased; do
  tok="$here/$name/tokenizer.json"
  [[ -f "$tok" ]] || tok="$work/$name.json"
  node "$ref" encode "$tok" < "$work/corpus.jsonl" > "$work/$name.ids"
  python3 -c 'import json,sys
for l in open(sys.argv[1]): print(json.dumps({"ids": json.loads(l)["ids"], "skip_special_tokens": True}))' \
    "$work/$name.ids" > "$work/$name.dec-in"
  node "$ref" decode "$tok" < "$work/$name.dec-in" > "$work/$name.dec"
  python3 - "$work/corpus.jsonl" "$work/$name.ids" "$work/$name.dec" > "$here/golden-$name.jsonl" <<'PY'
import json, sys
texts, ids, decs = ([json.loads(l) for l in open(p, encoding="utf-8")] for p in sys.argv[1:])
for t, i, d in zip(texts, ids, decs):
    print(json.dumps({"ids": i["ids"], "decoded": d["text"]}, ensure_ascii=False))
PY
done
