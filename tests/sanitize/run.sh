#!/usr/bin/env bash
# Sanitizer runs (part of .ci/run):
#   ASan + UBSan (preset asan, build-asan/): every unit test and every end-to-end test (the whole
#     multi-process pipeline: profiles, outputs, load modes, datasets, faults, process death,
#     signals, multi-run, the mesh, the UIs), ~3 min of tests on 2 cores;
#   TSan (preset tsan, build-tsan/): every test of a component that runs threads: the HTTP
#     client (its io threads against a server thread), the event bus (CURVE mesh with its ZAP
#     handler thread), the reactor (live metrics, worker monitor), the worker's ZeroMQ watch
#     (messages pushed from other threads), the controller's HTTP API server thread, the
#     telemetry scraper thread, the network-latency prober's thread and the mock server's io threads.
# Every process writes its sanitizer reports to one folder (log_path), children of children
# included, since the tests' `aiperf` spawns its services: a test whose processes produced a
# report fails even if the process it checks exited as expected, and so does this script.
#
#   tests/sanitize/run.sh [asan|tsan]...   (default: both)
set -euo pipefail
cd "$(dirname "$0")/../.."
kinds=("$@")
[ ${#kinds[@]} -gt 0 ] || kinds=(asan tsan)

reports=$(mktemp -d /tmp/aiperf-sanitize-XXXXXX)
supp="$PWD/tests/sanitize"
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:detect_leaks=1:log_path=$reports/asan:strip_path_prefix=$PWD/"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$reports/ubsan:suppressions=$supp/ubsan.supp"
export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"  # else a matched suppression writes a file (read as a report)
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:log_path=$reports/tsan:suppressions=$supp/tsan.supp"

check_reports() {
  local found
  found=$(find "$reports" -type f | head -20)
  if [ -n "$found" ]; then
    echo "sanitize: reports from $1:"
    for f in $found; do echo "---- $f"; head -60 "$f"; done
    exit 1
  fi
}

for kind in "${kinds[@]}"; do
  start=$(date +%s)
  cmake --preset "$kind" >/dev/null
  case "$kind" in
    asan)
      ninja -C build-asan
      built=$(date +%s)
      ctest --test-dir build-asan -L unit -j2 --output-on-failure --timeout 600
      check_reports "unit tests (asan)"
      ctest --test-dir build-asan -L e2e -j2 --output-on-failure --timeout 900
      check_reports "end-to-end tests (asan)"
      ;;
    tsan)
      targets=(http_client_test http_url_test curve_mesh_test mesh_keys_test zmq_watch_test live_metrics_test
               worker_monitor_test controller_api_test telemetry_test test_mock_server network_probe_test)
      ninja -C build-tsan "${targets[@]}"
      built=$(date +%s)
      for t in "${targets[@]}"; do
        echo "== $t (tsan)"
        build-tsan/bin/"$t"
      done
      check_reports "tests (tsan)"
      ;;
    *) echo "usage: tests/sanitize/run.sh [asan|tsan]..." >&2; exit 2 ;;
  esac
  echo "sanitize $kind: build $((built - start)) s, tests $(($(date +%s) - built)) s, no report"
done
rm -rf "$reports"
