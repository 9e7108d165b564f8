// parquet_bench: reads a Parquet file into rows (read_parquet_rows) and prints rows, seconds,
// rows/s and the process's peak RSS; repeats to take the best time. The 1M-row flat file of
// docs/datasets.md comes from tests/data/parquet/make_bench_file.py.
// Usage: parquet_bench FILE.parquet [repeats]
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <exception>

#include "parquet/parquet_reader.h"
#include "time/clock.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: parquet_bench FILE.parquet [repeats]\n");
    return 2;
  }
  const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
  try {
    const std::string bytes = aiperf::parquet::read_parquet_file(argv[1]);
    double best = 1e300;
    size_t rows = 0;
    for (int i = 0; i < repeats; ++i) {
      const auto t0 = aiperf::steady_now_ns();
      const auto out = aiperf::parquet::parse_parquet_rows(bytes, argv[1]);
      const auto t1 = aiperf::steady_now_ns();
      rows = out.size();
      best = std::min(best, static_cast<double>(t1 - t0) / 1e9);
    }
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    std::printf("%zu rows, %zu bytes: %.3f s (best of %d), %.0f rows/s, peak RSS %ld MB\n", rows, bytes.size(), best,
                repeats, static_cast<double>(rows) / best, ru.ru_maxrss / 1024);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
