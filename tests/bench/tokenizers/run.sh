#!/usr/bin/env bash
# Tokenizer throughput, ours vs HuggingFace's Rust library, on the same 1 MiB texts.
# Not a test. Usage: tests/bench/tokenizers/run.sh <tokdata dir> [build dir]
#   <tokdata dir>  holds corpus.jsonl and qwen3/ gpt2/ mistral/ cl100k-hf/ tiktoken/
#   [build dir]    where tokenizer_bench was built (default: build)
# english = /usr/share/common-licenses texts repeated to 1 MiB; mixed = the corpus strings
# (code, CJK, emoji, 5000-character runs) concatenated and repeated to 1 MiB.
set -euo pipefail
tokdata=$(realpath "${1:?usage: run.sh <tokdata dir> [build dir]}")
here=$(cd "$(dirname "$0")" && pwd)
build=$(realpath "${2:-$here/../../../build}")
bench="$build/bin/tokenizer_bench"
[[ -x "$bench" ]] || { echo "run.sh: $bench not built (ninja -C $build tokenizer_bench)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm install --silent --no-audit --no-fund tokenizers@0.23.2 >/dev/null)
export TOKENIZERS_NODE_MODULES="$work/node_modules"

python3 - "$tokdata/corpus.jsonl" "$work" <<'PY'
import glob, json, sys
size = 1 << 20
def fill(parts):
    text = "".join(parts)
    out = text
    while len(out.encode()) < size:
        out += text
    return out.encode()[:size].decode("utf-8", "ignore")
english = [open(f, encoding="utf-8", errors="ignore").read() for f in sorted(glob.glob("/usr/share/common-licenses/*")) if not f.endswith(".gz")]
mixed = [json.loads(l)["text"] for l in open(sys.argv[1], encoding="utf-8") if l.strip()]
open(sys.argv[2] + "/english.txt", "w", encoding="utf-8").write(fill(english))
open(sys.argv[2] + "/mixed.txt", "w", encoding="utf-8").write(fill(mixed))
PY

texts=(english="$work/english.txt" mixed="$work/mixed.txt")
# The WordPiece (BERT-style) and Unigram (T5-style) files are the small test models.
models="$here/../../common/tokenizer/data"
for t in qwen3 gpt2 mistral cl100k-hf "$models/wordpiece-8k" "$models/unigram-8k"; do
  dir=$t
  [[ -d "$dir" ]] || dir="$tokdata/$t"
  echo "== $(basename "$t"): HF tokenizers (Rust) 0.23.2"
  node "$here/bench_rust.mjs" "$dir/tokenizer.json" "${texts[@]}"
  echo "== $(basename "$t"): aiperf"
  "$bench" --text "${texts[0]}" --text "${texts[1]}" "$dir" | tail -n +2
done
echo "== cl100k_base.tiktoken: aiperf (tiktoken encode_ordinary)"
"$bench" --text "${texts[0]}" --text "${texts[1]}" "$tokdata/tiktoken/cl100k_base.tiktoken" | tail -n +2
