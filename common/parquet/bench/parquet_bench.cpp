// parquet_bench: reads a Parquet file into rows (parse_parquet_rows) and prints rows, wall and
// CPU seconds (the CPU figure holds on a shared, loaded host), rows/s and the process's peak RSS;
// repeats to take the best time. The 1M-row flat file of
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
    double best = 1e300, best_cpu = 1e300;
    size_t rows = 0;
    auto cpu_s = [] {
      rusage ru{};
      getrusage(RUSAGE_SELF, &ru);
      return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
             static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
    };
    for (int i = 0; i < repeats; ++i) {
      const double c0 = cpu_s();
      const auto t0 = aiperf::steady_now_ns();
      {
        const auto out = aiperf::parquet::parse_parquet_rows(bytes, argv[1]);
        rows = out.size();
        const auto t1 = aiperf::steady_now_ns();
        best = std::min(best, static_cast<double>(t1 - t0) / 1e9);
        best_cpu = std::min(best_cpu, cpu_s() - c0);
      }
    }
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    std::printf("%zu rows, %zu bytes: %.3f s wall, %.3f s CPU (best of %d), %.0f rows/s, peak RSS %ld MB\n", rows,
                bytes.size(), best, best_cpu, repeats, static_cast<double>(rows) / best, ru.ru_maxrss / 1024);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
