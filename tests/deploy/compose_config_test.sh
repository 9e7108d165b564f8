#!/usr/bin/env bash
# `docker-compose config` accepts deploy/docker-compose.yml (schema, interpolation, secrets)
# and resolves the three services. No image is built and no daemon is contacted.
set -euo pipefail
compose_file=$1
if ! command -v docker-compose >/dev/null; then
  echo "docker-compose is not installed: run deploy/install-deps.sh" >&2
  exit 1
fi
# Defaults only: the user's AIPERF_* environment must not change what is validated.
unset AIPERF_IMAGE AIPERF_MODEL AIPERF_CONCURRENCY AIPERF_REQUEST_COUNT AIPERF_WORKERS AIPERF_MESH_KEYS
docker-compose -f "$compose_file" config --quiet
services=$(docker-compose -f "$compose_file" config --services | sort | tr '\n' ' ')
if [ "$services" != "controller mock-server worker " ]; then
  echo "unexpected services: '$services'" >&2
  exit 1
fi
resolved=$(docker-compose -f "$compose_file" config)
# Interpolated defaults: two remote workers, the secret mounted from deploy/mesh-keys.
grep -q -- "- --workers-remote" <<<"$resolved"
grep -A1 -- "- --workers-remote" <<<"$resolved" | grep -qx -- "    - '2'"
grep -qE "file: .*/deploy/mesh-keys$" <<<"$resolved"
echo "compose config ok: $services"
