#!/usr/bin/env bash
# Install, build, run the whole test suite (unit + end-to-end) with CTest, under AddressSanitizer
# and UndefinedBehaviorSanitizer (tests/sanitize/run.sh asan: build-asan/, any finding fails): the
# suite is compiled once, in the tree that checks the most. The product as users run it (-O2,
# warnings as errors) is built into build/ first; the reference and real-server checks use it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash deploy/build.sh aiperf aiperf-mock-server

# Every external command the tests call, with the Debian package that provides it: a missing one
# is named here instead of failing deep inside a test.
missing=()
for pair in ip:iproute2 ss:iproute2 ps:procps file:file openssl:openssl curl:curl wrk:wrk \
            tmux:tmux chromium-headless-shell:chromium-headless-shell dpkg-deb:dpkg cpack:cmake timeout:coreutils python3:python3 \
            ffmpeg:ffmpeg ffprobe:ffmpeg; do
  command -v "${pair%%:*}" >/dev/null 2>&1 || missing+=("${pair%%:*} (apt-get install ${pair#*:})")
done
if [ ${#missing[@]} -gt 0 ]; then
  printf 'test.sh: missing command: %s\n' "${missing[@]}" >&2
  exit 1
fi

bash tests/sanitize/run.sh asan
