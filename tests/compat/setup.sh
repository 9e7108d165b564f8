#!/usr/bin/env bash
# Installs the reference tools into cached virtual environments outside the repository and prints
# their versions. Reused when present: an environment is rebuilt only when its lock file changed.
#
#   AIPERF_COMPAT_CACHE (default ~/.cache/aiperf-compat) holds:
#     aiperf-0.13.0/       aiperf==0.13.0 with every dependency pinned (requirements-aiperf-0.13.0.txt)
#     genai-perf-0.0.16/   genai-perf==0.0.16 and perf_analyzer (requirements-genai-perf-0.0.16.txt)
#     bin/ref-aiperf, bin/ref-genai-perf, bin/ref-perf-analyzer   wrappers that set PATH/LD_LIBRARY_PATH
#
# perf_analyzer: the PyPI package `perf-analyzer` 0.1.0 is a placeholder without the binary. The
# binary ships in tritonclient's manylinux wheels; 2.51.0 is the newest whose binary runs on
# Debian 12's glibc 2.36 (2.52+ need glibc 2.38). It links libb64 (Debian libb64-0d) and
# libcudart.so.12 (PyPI nvidia-cuda-runtime-cu12; no GPU is needed to load it).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cache="${AIPERF_COMPAT_CACHE:-$HOME/.cache/aiperf-compat}"
mkdir -p "$cache/bin"

python="${AIPERF_COMPAT_PYTHON:-python3}"
if ! "$python" -c 'import sys, venv, ensurepip; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
  echo "compat setup: needs Python >= 3.11 with venv and ensurepip (Debian: apt-get install python3-venv)" >&2
  exit 1
fi

# make_env NAME LOCKFILE: a venv at $cache/NAME holding exactly the pinned set of LOCKFILE.
make_env() {
  local name="$1" lock="$here/$2" dir="$cache/$1"
  local want; want="$(sha256sum "$lock" | cut -d' ' -f1)"
  if [ -f "$dir/.lock-sha256" ] && [ "$(cat "$dir/.lock-sha256")" = "$want" ]; then
    return 0
  fi
  echo "compat setup: creating $dir (a few minutes, once)" >&2
  rm -rf "$dir"
  "$python" -m venv "$dir"
  "$dir/bin/pip" install -q --disable-pip-version-check --upgrade pip >/dev/null
  # Every package is pinned in the lock, dependencies included, so nothing floats.
  "$dir/bin/pip" install -q --disable-pip-version-check --no-deps -r "$lock"
  echo "$want" >"$dir/.lock-sha256"
}

make_env aiperf-0.13.0 requirements-aiperf-0.13.0.txt
make_env genai-perf-0.0.16 requirements-genai-perf-0.0.16.txt

gp="$cache/genai-perf-0.0.16"
cudart="$(dirname "$(find "$gp" -name 'libcudart.so.12' -print -quit)")"
cat >"$cache/bin/ref-aiperf" <<EOF
#!/bin/sh
exec "$cache/aiperf-0.13.0/bin/aiperf" "\$@"
EOF
cat >"$cache/bin/ref-genai-perf" <<EOF
#!/bin/sh
export PATH="$gp/bin:\$PATH" LD_LIBRARY_PATH="$cudart\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
exec "$gp/bin/genai-perf" "\$@"
EOF
cat >"$cache/bin/ref-perf-analyzer" <<EOF
#!/bin/sh
export LD_LIBRARY_PATH="$cudart\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
exec "$gp/bin/perf_analyzer" "\$@"
EOF
chmod +x "$cache/bin/ref-aiperf" "$cache/bin/ref-genai-perf" "$cache/bin/ref-perf-analyzer"

if ! "$cache/bin/ref-perf-analyzer" --version >/dev/null 2>&1; then
  echo "compat setup: perf_analyzer does not start; missing libraries:" >&2
  LD_LIBRARY_PATH="$cudart" ldd "$gp/bin/perf_analyzer" | grep 'not found' >&2 || true
  echo "  (Debian: apt-get install libb64-0d)" >&2
  exit 1
fi

echo "reference: aiperf $("$cache/bin/ref-aiperf" --version 2>/dev/null | tail -1)"
echo "reference: genai-perf $("$cache/bin/ref-genai-perf" --version 2>/dev/null | awk '{print $NF}' | tail -1)"
echo "reference: $("$cache/bin/ref-perf-analyzer" --version 2>&1 | head -1)"
echo "reference: python $("$cache/aiperf-0.13.0/bin/python" -c 'import platform; print(platform.python_version())')"
echo "AIPERF_COMPAT_BIN=$cache/bin"
