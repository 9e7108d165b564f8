#!/usr/bin/env bash
# Coverage-guided fuzzing of every parser of outside bytes (tests/fuzz/, docs/contributing.md
# "Fuzzing"). Builds the libFuzzer targets with clang into build-fuzz/ (ASan + UBSan, every
# library instrumented for coverage), runs each for a fixed budget on a scratch copy of its seed
# corpus (tests/fuzz/corpus/<name>/ is never written), and prints one table: executions,
# exec/s, coverage (cov: edges, ft: features), corpus size and the result. Exits 1 on any
# finding; the crashing input is kept under build-fuzz/findings/<name>/, each run's libFuzzer
# output in build-fuzz/logs/<name>.log.
#
#   tests/bench/fuzz.sh                    # 10 M executions per target
#   tests/bench/fuzz.sh --seconds 20       # or a time budget per target (both: whichever first)
#   tests/bench/fuzz.sh --only sse,jinja   # some targets
#   tests/bench/fuzz.sh --no-build         # reuse build-fuzz/ as it is (--build-only: no runs)
#
# Needs clang and libFuzzer's runtime: apt-get install -y clang libclang-rt-14-dev (Debian 12).
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD

RUNS=""
SECONDS_BUDGET=""
ONLY=""
BUILD=1
BUILD_DIR=$ROOT/build-fuzz
MAX_LEN=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --runs) RUNS=$2; shift 2 ;;
    --seconds) SECONDS_BUDGET=$2; shift 2 ;;
    --only) ONLY=$2; shift 2 ;;
    --no-build) BUILD=0; shift ;;
    --build-only) BUILD=2; shift ;;
    --build-dir) BUILD_DIR=$2; shift 2 ;;
    --max-len) MAX_LEN=$2; shift 2 ;;  # default: libFuzzer's (4096, or the largest seed)
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (see --help)"; exit 2 ;;
  esac
done
# Neither given: 10 M executions. --seconds alone: no execution cap.
[[ -z "$RUNS" && -z "$SECONDS_BUDGET" ]] && RUNS=10000000

TARGETS=()
for f in tests/fuzz/*_fuzz.cpp; do
  name=$(basename "$f" _fuzz.cpp)
  if [[ -n "$ONLY" && ",$ONLY," != *",$name,"* ]]; then continue; fi
  TARGETS+=("$name")
done
[[ ${#TARGETS[@]} -gt 0 ]] || { echo "no target matches --only $ONLY"; exit 2; }

# clang and libFuzzer: a one-line fuzzer must link and run.
if ! command -v clang++ >/dev/null || ! command -v clang >/dev/null; then
  echo "clang is not installed: apt-get install -y clang libclang-rt-14-dev"
  exit 2
fi
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' > "$probe/p.cpp"
if ! clang++ -fsanitize=fuzzer,address,undefined "$probe/p.cpp" -o "$probe/p" 2>"$probe/err" ||
   ! "$probe/p" -runs=1 >/dev/null 2>&1; then
  cat "$probe/err"
  echo "libFuzzer does not link or run: apt-get install -y clang libclang-rt-14-dev"
  exit 2
fi

if [[ $BUILD != 0 ]]; then
  if [[ ! -f $BUILD_DIR/build.ninja ]]; then
    mkdir -p "$BUILD_DIR"
    # AIPERF_SANITIZE instruments every target with ASan + UBSan (no recovery) and turns
    # tcmalloc off; fuzzer-no-link adds coverage to the libraries without a second main.
    # CMAKE_BUILD_TYPE=Fuzz has no flags of its own, so -O1 -g stay as given.
    CC=clang CXX=clang++ cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Fuzz \
      -DCMAKE_C_FLAGS="-O1 -g -fsanitize=fuzzer-no-link" -DCMAKE_CXX_FLAGS="-O1 -g -fsanitize=fuzzer-no-link" \
      -DAIPERF_SANITIZE=address,undefined -DAIPERF_FUZZ=ON >"$BUILD_DIR/configure.log" 2>&1 ||
      { cat "$BUILD_DIR/configure.log"; echo "cmake failed"; exit 2; }
  fi
  nice ninja -C "$BUILD_DIR" "${TARGETS[@]/%/_fuzz}" || { echo "build failed"; exit 2; }
  [[ $BUILD == 2 ]] && exit 0
fi

# Scratch (corpus copies, and the files the loader targets write per input) on tmpfs when there
# is one: on a disk, open/truncate per execution halves the rate of the file-loader targets.
scratch_root=${TMPDIR:-/tmp}
[[ -d /dev/shm && -w /dev/shm ]] && scratch_root=/dev/shm
SCRATCH=$(mktemp -d "$scratch_root/aiperf-fuzz.XXXXXX")
trap 'rm -rf "$probe" "$SCRATCH"' EXIT
FINDINGS=$BUILD_DIR/findings
echo "budget per target: ${RUNS:+$RUNS executions }${SECONDS_BUDGET:+$SECONDS_BUDGET s}; max_len ${MAX_LEN:-default}; scratch $SCRATCH"

rows=()
failed=0
for name in "${TARGETS[@]}"; do
  bin=$BUILD_DIR/bin/${name}_fuzz
  [[ -x $bin ]] || { rows+=("$name|-|-|-|-|-|not built"); failed=1; continue; }
  work=$SCRATCH/$name
  mkdir -p "$work/corpus" "$FINDINGS/$name"
  cp -r "tests/fuzz/corpus/$name/." "$work/corpus/" 2>/dev/null || true
  args=(-print_final_stats=1 -timeout=10 -rss_limit_mb=2048
        -artifact_prefix="$FINDINGS/$name/" -close_fd_mask=1)
  [[ -n "$RUNS" ]] && args+=(-runs="$RUNS")
  [[ -n "$MAX_LEN" ]] && args+=(-max_len="$MAX_LEN")
  [[ -n "$SECONDS_BUDGET" ]] && args+=(-max_total_time="$SECONDS_BUDGET")
  dict=tests/fuzz/dict/$name.dict
  [[ -f $dict ]] && args+=(-dict="$dict")
  log=$work/log
  echo "== $name ($(date +%H:%M:%S)) log $log"
  (cd "$work" && TMPDIR=$work UBSAN_OPTIONS=print_stacktrace=1:${UBSAN_OPTIONS:-} \
     "$bin" "${args[@]}" "$work/corpus" >"$log" 2>&1)
  rc=$?
  mkdir -p "$BUILD_DIR/logs" && cp "$log" "$BUILD_DIR/logs/$name.log"  # the scratch goes at exit
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  # The last status line: "#N  DONE|pulse|NEW ... cov: X ft: Y corp: U/B ...".
  status=$(grep -E '^#[0-9]+' "$log" | grep ' cov: ' | tail -1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$status")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$status")
  corp=$(sed -n 's/.* corp: \([0-9]*\/[0-9]*[a-zA-Z]*\).*/\1/p' <<<"$status")
  if [[ $rc == 0 ]]; then
    result=ok
  else
    failed=1
    artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
    kind=$(grep -m1 -oE 'ERROR: (AddressSanitizer|libFuzzer|UndefinedBehaviorSanitizer)[^(]*|runtime error|deadly signal|out-of-memory|timeout' "$log" | head -1)
    result="FAIL rc=$rc ${kind:-} ${artifact:-no artifact}"
    cp "$log" "$FINDINGS/$name/log.txt"
    grep -m1 -A12 -E 'ERROR:|runtime error|==ERROR|terminate called' "$log" | sed 's/^/    /'
  fi
  rows+=("$name|${execs:--}|${rate:--}|${cov:--}|${ft:--}|${corp:--}|$result")
done

echo
printf '%-18s %12s %8s %7s %7s %14s  %s\n' target executions exec/s cov ft corpus result
for row in "${rows[@]}"; do
  IFS='|' read -r n e r c f p res <<<"$row"
  printf '%-18s %12s %8s %7s %7s %14s  %s\n' "$n" "$e" "$r" "$c" "$f" "$p" "$res"
done
exit $failed
