// SPEED-Bench (AIPerf 0.13's speed_bench_* custom dataset types): JSONL rows
//   {"question_id": "<32 characters>", "category": "coding", "messages": [{"role", "content"}, ...]}
// as specdec_bench prepares them from nvidia/SPEED-Bench. One conversation per question_id (rows
// sharing one are joined), one turn per message with its role, sampled sequentially. A type names
// a split (qualitative, throughput_<isl>) and optionally one category of it; the loader keeps the
// rows of that category only. The file is always --input-file: AIPerf 0.13 downloads nothing for
// these types (the Hub's parquet holds placeholder turns that specdec_bench replaces).
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "config/input_config.h"
#include "custom_dataset.h"

namespace aiperf::dataset {

// The text AIPerf's SPEED-Bench rows carry in place of the prompts that must be fetched.
inline constexpr std::string_view kSpeedBenchPlaceholder =
    "FULL BENCHMARK DATA SHOULD BE FETCHED FROM THE SOURCE USING SPECDEC_BENCH";

struct SpeedBenchVariant {
  std::string_view split;     // "qualitative", "throughput_1k", ...: the split file is <split>.jsonl
  std::string_view category;  // "" = every row; else only rows of this category
};

// The split and category of a speed_bench_* type; nullopt for the other types.
std::optional<SpeedBenchVariant> speed_bench_variant(config::CustomDatasetType type);

// A row with SPEED-Bench's keys (question_id, category, messages), valid or not.
bool has_speed_bench_keys(const nlohmann::json& object);

// The types whose split file is named as `path`'s file name ("qualitative.jsonl": the qualitative
// split and its 11 categories), in declaration order; empty for any other name.
std::vector<config::CustomDatasetType> speed_bench_types_for_file(const std::string& path);

// Loads `in.input_file` as `in.custom_dataset_type` (a speed_bench_* type). `all_messages`:
// every message of a row is a turn (AIPerf's default, the only one its CLI reaches); false keeps
// the first message only. Throws DatasetFileError "file:line: field: problem" for a bad row
// (placeholder content included) and when the category matches no row.
void load_speed_bench(const config::InputConfig& in, CustomDataset& out, bool all_messages = true);

}  // namespace aiperf::dataset
