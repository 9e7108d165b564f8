#!/usr/bin/env bash
# Builds a real llama.cpp server and a tiny model for the real-server tests, cached outside the
# repository; reused when present. Prints the cache directory.
#
# Where llama.cpp comes from: PyPI's llama-cpp-python sdist (pinned below, sha256-checked) vendors the
# whole llama.cpp tree at a fixed commit, and PyPI is reachable where GitHub is not. We build its
# native `llama-server` (the C++ server users run, with its quirks: `timings`, /metrics, slots), not
# the Python wrapper. A few minutes on 2 cores, once.
#
#   AIPERF_REAL_SERVER_CACHE (default ~/.cache/aiperf-real-server) holds:
#     llama.cpp-<ver>/bin/llama-server     the server
#     venv/                                 Python with the `gguf` package (pinned), to write the model
#     models/tiny-gpt2-vocab.gguf           random weights, GPT-2's vocabulary (make_model.py)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cache="${AIPERF_REAL_SERVER_CACHE:-$HOME/.cache/aiperf-real-server}"
ver=0.3.36
sha=832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e
gguf_ver=0.19.0
numpy_ver=2.4.6
mkdir -p "$cache"

for tool in cmake ninja c++ python3; do
  command -v "$tool" >/dev/null || { echo "real-server setup: needs $tool (deploy/install-deps.sh installs it)" >&2; exit 1; }
done

if [ ! -x "$cache/venv/bin/python" ] || ! "$cache/venv/bin/python" -c "import gguf" 2>/dev/null; then
  rm -rf "$cache/venv"
  python3 -m venv "$cache/venv"
  "$cache/venv/bin/pip" install -q --disable-pip-version-check "gguf==$gguf_ver" "numpy==$numpy_ver"
fi

server="$cache/llama.cpp-$ver/bin/llama-server"
if [ ! -x "$server" ]; then
  echo "real-server setup: building llama-server from llama-cpp-python $ver's vendored llama.cpp (minutes, once)" >&2
  work="$(mktemp -d "$cache/build.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  "$cache/venv/bin/pip" download -q --disable-pip-version-check --no-deps --no-binary=:all: \
    -d "$work" "llama-cpp-python==$ver"
  echo "$sha  $work/llama_cpp_python-$ver.tar.gz" | sha256sum -c --quiet
  tar -xzf "$work/llama_cpp_python-$ver.tar.gz" -C "$work"
  # No web UI (it would be downloaded), no HTTPS/curl (loopback only), portable CPU code, -O1:
  # the test model is tiny, so the server's speed does not matter and its build time does (CI).
  cmake -S "$work/llama_cpp_python-$ver/vendor/llama.cpp" -B "$work/build" -G Ninja -Wno-dev \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS_RELEASE="-O1 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
    -DBUILD_SHARED_LIBS=OFF -DGGML_NATIVE=OFF \
    -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF \
    -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF >"$work/configure.log" 2>&1 \
    || { tail -30 "$work/configure.log" >&2; exit 1; }
  ninja -C "$work/build" llama-server >"$work/build.log" 2>&1 || { tail -30 "$work/build.log" >&2; exit 1; }
  mkdir -p "$cache/llama.cpp-$ver/bin"
  cp "$work/build/bin/llama-server" "$server.tmp" && mv "$server.tmp" "$server"
fi

model="$cache/models/tiny-gpt2-vocab.gguf"
stamp="$(sha256sum "$here/make_model.py" | cut -c1-16)"
if [ ! -f "$model" ] || [ "$(cat "$model.stamp" 2>/dev/null)" != "$stamp" ]; then
  mkdir -p "$cache/models"
  "$cache/venv/bin/python" "$here/make_model.py" "$here/../../common/tokenizer/data/gpt2/tokenizer.json" "$model.tmp"
  mv "$model.tmp" "$model"
  echo "$stamp" >"$model.stamp"
fi
echo "$cache"
