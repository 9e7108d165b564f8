// Load generator group (spec §2.1 "Load Generator").
#include "options.h"

namespace aiperf::cli {

void add_load_options(CLI::App& app, ProfileOptions& o) {
  auto& l = o.config.loadgen;
  const char* g = "Load Generator";
  add_optional(app, "--concurrency", l.concurrency, "Max concurrent sessions")->check(CLI::PositiveNumber)->group(g);
  add_optional(app, "--request-count,--num-requests", l.request_count, "Requests in the profiling phase")
      ->check(CLI::PositiveNumber)->group(g);
  add_optional(app, "--warmup-request-count,--num-warmup-requests", l.warmup_request_count, "Warmup requests")
      ->check(CLI::PositiveNumber)->group(g);
  add_optional(app, "--benchmark-duration", l.benchmark_duration, "Seconds to send requests")
      ->check(CLI::PositiveNumber)->group(g);
  add_optional(app, "--benchmark-grace-period", o.grace_period, "Seconds to wait for in-flight requests after the duration")
      ->check(CLI::NonNegativeNumber)->group(g);
  add_optional(app, "--request-rate", l.request_rate, "Target requests per second")->check(CLI::PositiveNumber)->group(g);
  add_optional(app, "--arrival-pattern,--request-rate-mode", o.arrival_pattern, "constant or poisson")
      ->check(CLI::IsMember({"constant", "poisson", "concurrency_burst"}))->group(g);
}

}  // namespace aiperf::cli
