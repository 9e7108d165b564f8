#!/usr/bin/env bash
# Installs missing packages, then configures and builds everything into ./build (Release with
# debug info). Incremental: a second run only rebuilds what changed (ccache helps clean builds).
set -euo pipefail
cd "$(dirname "$0")/.."
bash deploy/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C build -j"$(nproc)"
