#!/usr/bin/env bash
# Our aiperf against a real llama.cpp server: builds the server and a tiny model once (cached,
# tests/real_server/setup.sh), then runs tests/real_server/llama_server.py. Exit 1 if a check failed.
#
#   tests/real_server/run.sh
#   AIPERF_BUILD_DIR (default ./build) holds bin/aiperf; built if missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
build="${AIPERF_BUILD_DIR:-build}"
[ -x "$build/bin/aiperf" ] || bash deploy/build.sh
cache="$(bash tests/real_server/setup.sh)"
exec python3 tests/real_server/llama_server.py --aiperf "$build/bin/aiperf" \
  --server "$cache/llama.cpp-0.3.36/bin/llama-server" --model "$cache/models/tiny-gpt2-vocab.gguf"
