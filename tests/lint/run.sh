#!/usr/bin/env bash
# Lint of what changed since tests/lint/base (a commit): clang-format on the changed lines of
# C++ files (.clang-format), then clang-tidy (.clang-tidy) on the changed lines of changed .cpp
# files. Code older than the base was written before these checks and is not reformatted
# wholesale; `--all` runs clang-tidy on every .cpp file instead (about 25 min on 2 cores), which
# is how the base is moved forward.
#
#   tests/lint/run.sh [--all] [--fix]   (needs build/compile_commands.json: deploy/build.sh)
#   --fix: rewrite the changed lines in place instead of failing on them (format only)
set -euo pipefail
cd "$(dirname "$0")/../.."
all=0
fix=0
for a in "$@"; do
  case "$a" in
    --all) all=1 ;;
    --fix) fix=1 ;;
    *) echo "usage: tests/lint/run.sh [--all] [--fix]" >&2; exit 2 ;;
  esac
done
base=$(tr -d '[:space:]' < tests/lint/base)
paths=(cli common services proto tests)
# The linters are a test tool, not a build dependency: installed here, not by deploy/install-deps.sh.
if ! command -v clang-format-14 >/dev/null || ! command -v clang-tidy-14 >/dev/null; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends clang-format-14 clang-tidy-14
fi
[ -f build/compile_commands.json ] || { echo "lint: no build/compile_commands.json (run deploy/build.sh)" >&2; exit 1; }
status=0

echo "== clang-format: lines changed since ${base:0:10}"
if [ "$fix" = 1 ]; then
  git-clang-format-14 --binary clang-format-14 --extensions cpp,h --quiet "$base" -- "${paths[@]}" || true
else
  out=$(git-clang-format-14 --binary clang-format-14 --extensions cpp,h --diff "$base" -- "${paths[@]}" || true)
  if [ -n "$out" ] && ! grep -q "^no modified files to format\|^clang-format did not modify any files" <<<"$out"; then
    echo "$out"
    echo "lint: the lines above are not formatted as .clang-format says (tests/lint/run.sh --fix rewrites them)"
    status=1
  fi
fi

# clang-tidy reads the compile commands without the precompiled headers GCC built (clang cannot
# read GCC's .gch); every file includes what it uses, so it parses without them. A unity batch
# (CMake's Unity/unity_N_cxx.cxx) becomes one entry per source file it includes, with the batch's
# flags, so every file is checked on its own.
db=$(mktemp -d /tmp/aiperf-lint-XXXXXX)
trap 'rm -rf "$db"' EXIT
python3 - "$db" <<'EOF'
import json, re, sys
out = []
for e in json.load(open("build/compile_commands.json")):
    e["command"] = re.sub(r" -include \S+cmake_pch\.hxx", "", e["command"]).replace("/usr/bin/ccache ", "")
    if not re.search(r"/Unity/unity_\d+_cxx\.cxx$", e["file"]):
        out.append(e)
        continue
    for member in re.findall(r'^#include "(.+\.cpp)"$', open(e["file"]).read(), re.M):
        out.append({**e, "file": member, "command": e["command"].replace(e["file"], member)})
json.dump(out, open(sys.argv[1] + "/compile_commands.json", "w"))
EOF

if [ "$all" = 1 ]; then
  echo "== clang-tidy: every .cpp file"
  git ls-files -- 'cli/*.cpp' 'common/*.cpp' 'services/*.cpp' \
    | xargs -P"$(nproc)" -n8 clang-tidy-14 -p "$db" --quiet --extra-arg=-Wno-unknown-warning-option \
        --warnings-as-errors='*' || status=1
else
  echo "== clang-tidy: lines changed since ${base:0:10}"
  git diff -U0 "$base" -- 'cli/*.cpp' 'common/*.cpp' 'services/*.cpp' \
    | clang-tidy-diff-14.py -p1 -path "$db" -j"$(nproc)" -quiet -clang-tidy-binary clang-tidy-14 \
        -extra-arg=-Wno-unknown-warning-option 2>&1 | tee "$db/tidy.log"
  if grep -qE "(warning|error):" "$db/tidy.log"; then
    echo "lint: clang-tidy findings above (.clang-tidy lists the checks)"
    status=1
  fi
fi
exit $status
