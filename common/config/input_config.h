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
  // --input-file: absolute path; custom_dataset_type is the given or auto-detected format
  // (single_turn, multi_turn, random_pool, mooncake_trace), empty for synthetic data.
  std::string input_file;
  std::string custom_dataset_type;
  std::string dataset_sampling_strategy;        // empty = the loader's default
  std::optional<uint32_t> isl_block_size;       // tokens per hash_id block (mooncake: 512)
  // Fixed schedule (AIPerf "Input" group): replay turn timestamps. Enabled explicitly or
  // automatically for mooncake traces whose lines carry timestamps. The loader drops turns
  // whose timestamp lies outside [start_offset, end_offset]; the timing service uses
  // start_offset (or the first timestamp, with auto_offset) as time zero.
  bool fixed_schedule = false;
  bool fixed_schedule_auto_offset = false;
  std::optional<uint64_t> fixed_schedule_start_offset;  // ms
  std::optional<uint64_t> fixed_schedule_end_offset;    // ms
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(InputConfig, extra_inputs, headers, random_seed, isl_mean,
                                                isl_stddev, osl_mean, osl_stddev, batch_size, num_dataset_entries,
                                                turn_mean, turn_stddev, turn_delay_mean, turn_delay_stddev,
                                                turn_delay_ratio, input_file, custom_dataset_type,
                                                dataset_sampling_strategy, isl_block_size, fixed_schedule,
                                                fixed_schedule_auto_offset, fixed_schedule_start_offset,
                                                fixed_schedule_end_offset)

}  // namespace aiperf::config
