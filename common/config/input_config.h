// Input section of RunConfig (AIPerf "Input", ISL/OSL, Prompt, Conversation options).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config/json_optional.h"

namespace aiperf::config {

struct InputConfig {
  nlohmann::json extra_inputs = nlohmann::json::object();
  std::vector<std::pair<std::string, std::string>> headers;
  std::optional<uint64_t> random_seed;
  double isl_mean = 550;                        // --synthetic-input-tokens-mean
  double isl_stddev = 0;
  std::optional<double> osl_mean;               // --output-tokens-mean (unset: no max tokens)
  double osl_stddev = 0;
  uint32_t batch_size = 1;                      // --batch-size-text
  uint32_t num_dataset_entries = 100;
  double turn_mean = 1, turn_stddev = 0;
  double turn_delay_mean = 0, turn_delay_stddev = 0, turn_delay_ratio = 1;
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(InputConfig, extra_inputs, headers, random_seed, isl_mean,
                                                isl_stddev, osl_mean, osl_stddev, batch_size, num_dataset_entries,
                                                turn_mean, turn_stddev, turn_delay_mean, turn_delay_stddev,
                                                turn_delay_ratio)

}  // namespace aiperf::config
