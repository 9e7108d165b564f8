// Load generator section of RunConfig (AIPerf "Load Generator" options).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "config/json_optional.h"

namespace aiperf::config {

struct LoadConfig {
  std::optional<uint32_t> concurrency;
  std::optional<uint64_t> request_count;
  std::optional<uint64_t> warmup_request_count;
  std::optional<double> benchmark_duration;
  double benchmark_grace_period = 30;
  std::optional<double> request_rate;
  std::string arrival_pattern = "concurrency_burst";
  std::optional<uint64_t> conversation_num;
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(LoadConfig, concurrency, request_count, warmup_request_count,
                                                benchmark_duration, benchmark_grace_period, request_rate,
                                                arrival_pattern, conversation_num)

}  // namespace aiperf::config
