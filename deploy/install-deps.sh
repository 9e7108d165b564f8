#!/usr/bin/env bash
# Installs every Debian 12 package the build, the tests and the benchmarks need.
# Idempotent: packages already present are skipped; `apt-get update` runs at most once.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config git
  libboost1.81-dev libssl-dev
  libzmq3-dev cppzmq-dev
  nlohmann-json3-dev libcli11-dev
  libprotobuf-dev protobuf-compiler libgrpc++-dev protobuf-compiler-grpc
  libpcre2-dev libutf8proc-dev libsentencepiece-dev
  libpng-dev libjpeg62-turbo-dev libmp3lame-dev zlib1g-dev libsnappy-dev libzstd-dev
  libcairo2-dev fonts-dejavu-core chromium-headless-shell
  prometheus-cpp-dev libyaml-cpp-dev libgoogle-perftools-dev
  catch2
  wrk curl procps tmux file iproute2 openssl
  ffmpeg
  python3 python3-venv libb64-0d
  docker-compose dpkg-dev
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
