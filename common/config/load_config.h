// Load generator section of RunConfig (AIPerf "Load Generator" options, spec §2.1, §3).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config/agentic_replay_config.h"
#include "config/config_enum.h"
#include "config/json_optional.h"

namespace aiperf::config {

// How a phase paces its requests. The CLI takes constant, poisson, gamma and concurrency_burst
// (--arrival-pattern); it sets fixed_schedule (trace replay) and user_centric_rate itself.
enum class ArrivalPattern { kConstant, kPoisson, kGamma, kConcurrencyBurst, kFixedSchedule, kUserCentricRate };
constexpr auto enum_names(ArrivalPattern) {
  using E = ArrivalPattern;
  return std::array{EnumName<E>{E::kConstant, "constant"},
                    EnumName<E>{E::kPoisson, "poisson"},
                    EnumName<E>{E::kGamma, "gamma"},
                    EnumName<E>{E::kConcurrencyBurst, "concurrency_burst"},
                    EnumName<E>{E::kFixedSchedule, "fixed_schedule"},
                    EnumName<E>{E::kUserCentricRate, "user_centric_rate"}};
}
AIPERF_CONFIG_ENUM_JSON(ArrivalPattern, "arrival_pattern")

// Settings one credit phase (warmup or profiling) runs with.
struct PhaseLoad {
  std::optional<uint32_t> concurrency;
  std::optional<uint32_t> prefill_concurrency;
  std::optional<double> request_rate;
  ArrivalPattern arrival_pattern = ArrivalPattern::kConcurrencyBurst;
  double arrival_smoothness = 1.0;                     // gamma shape
  std::optional<double> concurrency_ramp_duration;     // seconds
  std::optional<double> prefill_concurrency_ramp_duration;
  std::optional<double> request_rate_ramp_duration;
  std::optional<uint32_t> num_users;                   // set = user-centric rate at request_rate
  // --request-rate-series: (time_s, qps) control points, strictly increasing in time; the rate
  // follows them piecewise-linearly from the end of any rate ramp (empty = a fixed rate).
  std::vector<std::pair<double, double>> request_rate_series;
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(PhaseLoad, concurrency, prefill_concurrency, request_rate,
                                                arrival_pattern, arrival_smoothness, concurrency_ramp_duration,
                                                prefill_concurrency_ramp_duration, request_rate_ramp_duration,
                                                num_users, request_rate_series)

struct LoadConfig {
  std::optional<uint32_t> concurrency;
  std::optional<uint64_t> request_count;
  std::optional<uint64_t> warmup_request_count;
  std::optional<double> benchmark_duration;
  double benchmark_grace_period = 30;
  std::optional<double> request_rate;
  std::optional<double> user_centric_rate;             // with num_users: user-centric mode
  std::optional<uint32_t> num_users;
  ArrivalPattern arrival_pattern = ArrivalPattern::kConcurrencyBurst;
  std::optional<uint64_t> conversation_num;
  // Resolved per-phase settings (finalize_load_options fills them; services read only these
  // and the counts/durations above).
  PhaseLoad profiling;
  PhaseLoad warmup;
  std::optional<double> warmup_duration;
  std::optional<uint64_t> num_warmup_sessions;
  std::optional<double> warmup_grace_period;           // unset = infinite
  std::optional<double> request_cancellation_rate;     // percent (0, 100]
  double request_cancellation_delay = 0;               // seconds after the request was sent
  // --failed-request-threshold: cancel the run once errors / records of the profiling phase
  // exceed this ratio, after max(concurrency, 10) records (the records service checks it).
  std::optional<double> failed_request_threshold;
  bool burst_phase_starts = false;     // agentic replay: phase starts in bursts
  AgenticReplayConfig agentic_replay;  // --scenario's timing mode
  ScenarioOutcome scenario;            // --scenario, --unsafe-override
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(LoadConfig, concurrency, request_count, warmup_request_count,
                                                benchmark_duration, benchmark_grace_period, request_rate,
                                                user_centric_rate, num_users, arrival_pattern, conversation_num,
                                                profiling, warmup, warmup_duration, num_warmup_sessions,
                                                warmup_grace_period, request_cancellation_rate,
                                                request_cancellation_delay, failed_request_threshold,
                                                burst_phase_starts, agentic_replay, scenario)

}  // namespace aiperf::config
