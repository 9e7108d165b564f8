// --input-file loaders: single_turn, multi_turn, random_pool, mooncake_trace, bailian_trace,
// burst_gpt_trace (CSV), raw_payload, inputs_json (given, or auto-detected as the CLI does;
// sagemaker_data_capture only so) and
// the ShareGPT JSON list. The loaders read a path,
// so each input is written to one scratch file. The first byte picks the format, so that seeds
// stay readable: '0' auto-detect, '1' single_turn, '2' multi_turn, '3' random_pool,
// '4' mooncake_trace, '5' bailian_trace, '6' sharegpt, '7' burst_gpt_trace, '8' raw_payload,
// '9' inputs_json, 'w' weka_trace (one JSON object, written as a .json file). DatasetFileError (a std::runtime_error
// naming file:line) is the documented refusal; anything else escaping is a finding (the CLI
// would print an unhelpful message or die).
#include <cstddef>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>

#include "config/input_config.h"
#include "custom_dataset.h"
#include "dataset_error.h"
#include "fuzz_util.h"
#include "sharegpt.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const char* const kTypes[] = {"",           "single_turn",   "multi_turn", "random_pool",
                                       "mooncake_trace", "bailian_trace", "sharegpt",
                                       "burst_gpt_trace", "raw_payload", "inputs_json"};
  const bool weka = data[0] == 'w';
  const std::string type = weka ? "weka_trace" : kTypes[(data[0] + 2u) % 10];  // '0'..'9' -> 0..9
  const std::string path = aiperf::fuzz::write_scratch(
      weka ? "input.json" : "input.jsonl", std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1));
  if (path.empty()) return 0;
  try {
    if (type == "sharegpt") {
      (void)aiperf::dataset::read_sharegpt(path);
    } else {
      aiperf::config::InputConfig in;
      in.input_file = path;
      in.custom_dataset_type = type.empty()
                                   ? aiperf::dataset::detect_custom_dataset_type(path)
                                   : aiperf::config::enum_from_string<aiperf::config::CustomDatasetType>(type, "type");
      in.osl_mean = 10;
      in.osl_stddev = 2;
      std::mt19937_64 rng(42);
      auto dataset = aiperf::dataset::load_custom_dataset(in, 4, rng);
      (void)aiperf::dataset::apply_output_lengths(dataset.conversations, in, rng);
      in.fixed_schedule = true;
      in.fixed_schedule_start_offset = 5;
      in.fixed_schedule_end_offset = 1000;
      for (const auto& conversation : dataset.conversations)
        for (const auto& turn : conversation.turns()) (void)aiperf::dataset::outside_fixed_schedule(in, turn);
    }
  } catch (const aiperf::dataset::DatasetFileError&) {
  }
  return 0;
}
