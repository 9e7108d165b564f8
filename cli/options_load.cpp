// Load generator group (spec §2.1 "Load Generator").
#include <algorithm>
#include <cmath>

#include "log/log.h"
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
  add_optional(app, "--benchmark-grace-period", o.load.grace_period, "Seconds to wait for in-flight requests after the duration")
      ->check(CLI::NonNegativeNumber)->group(g);
  add_optional(app, "--request-rate", l.request_rate, "Target requests per second")->check(CLI::PositiveNumber)->group(g);
  add_optional(app, "--arrival-pattern,--request-rate-mode", o.load.arrival_pattern, "constant or poisson")
      ->check(CLI::IsMember({"constant", "poisson", "concurrency_burst"}))->group(g);
}

void finalize_load_options(ProfileOptions& o) {
  auto& l = o.config.loadgen;
  if (l.request_count && l.conversation_num)
    throw OptionError("--request-count and --conversation-num cannot both be set");
  if (o.load.grace_period && !l.benchmark_duration)
    throw OptionError("--benchmark-grace-period requires --benchmark-duration");
  if (o.load.grace_period) l.benchmark_grace_period = *o.load.grace_period;
  const bool bounded = l.request_count || l.conversation_num || l.benchmark_duration;
  if (l.request_rate) {
    l.arrival_pattern = o.load.arrival_pattern.value_or("poisson");
    if (l.arrival_pattern == "concurrency_burst")
      throw OptionError("--arrival-pattern concurrency_burst cannot be used with --request-rate");
    if (!bounded) l.request_count = 10;
  } else {
    l.arrival_pattern = "concurrency_burst";
    if (!l.concurrency) {
      AIPERF_LOG(kWarning) << "no --concurrency or --request-rate given; using --concurrency 1";
      l.concurrency = 1;
    }
    if (!bounded) l.request_count = std::max<uint64_t>(10, 2ull * *l.concurrency);
  }
  if (l.conversation_num && !l.request_count) {
    // Sessions run their turns; with single-turn synthetic data one session = one request.
    l.request_count = *l.conversation_num * static_cast<uint64_t>(std::max(1.0, std::round(o.config.input.turn_mean)));
  }
  if (l.concurrency && l.request_count && *l.concurrency > *l.request_count)
    throw OptionError("--concurrency (" + std::to_string(*l.concurrency) + ") cannot be greater than --request-count (" +
                      std::to_string(*l.request_count) + ")");
}

}  // namespace aiperf::cli
