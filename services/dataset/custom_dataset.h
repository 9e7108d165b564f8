// --input-file loading (spec §4.4): single_turn, multi_turn, random_pool, mooncake_trace,
// bailian_trace, raw_payload JSONL files, burst_gpt_trace CSV, inputs_json, speed_bench_*, format auto-detection, and
// the loaders' default sampling strategies. Parsing needs no tokenizer, so the CLI runs it to reject a bad file before
// spawning anything; trace `input_length` prompts are synthesized afterwards by the dataset service.
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "config/input_config.h"
#include "dataset.pb.h"
#include "weka_reconstruct.h"

namespace aiperf::dataset {

inline constexpr const char* kCustomDatasetTypes =
    "single_turn, multi_turn, random_pool, mooncake_trace, bailian_trace, burst_gpt_trace, raw_payload, inputs_json, "
    "sagemaker_data_capture, baseten_trace, weka_trace, dag_jsonl, tracelab, speed_bench_qualitative, "
    "speed_bench_<category>, speed_bench_throughput_<1k|2k|8k|16k|32k>[_<low_entropy|mixed|high_entropy>]";
inline constexpr uint32_t kMooncakeBlockSize = 512;

// A turn whose prompt is synthesized from the tokenizer's corpus (mooncake `input_length`).
struct PendingPrompt {
  size_t conversation = 0;
  int turn = 0;
  uint32_t input_length = 0;
  std::vector<int64_t> hash_ids;  // empty: one plain synthetic prompt
};

struct CustomDataset {
  std::vector<proto::Conversation> conversations;
  std::vector<PendingPrompt> pending;
  std::string default_sampling;  // sequential | shuffle
  bool has_timestamps = false;   // some turn carries a timestamp
  // weka_trace: turns whose messages are written with the tokenizer, and per conversation the
  // distinct models of its root trace in order of first use (the first maps to --model's first).
  std::vector<WekaPendingTurn> weka_pending;
  std::vector<std::vector<std::string>> trace_models;
};

// Format of `path`: a directory is a random_pool; a file is decided by its first non-empty line
// (an explicit "type" wins, else exactly one format must recognise the fields). Throws
// DatasetFileError naming the file and line.
config::CustomDatasetType detect_custom_dataset_type(const std::string& path);

// Loads `in.input_file` as `in.custom_dataset_type`. random_pool draws `pool_conversations`
// conversations with replacement. Session ids and draws come from `rng`. Throws
// DatasetFileError "file:line: field: problem" for the first bad line.
CustomDataset load_custom_dataset(const config::InputConfig& in, uint64_t pool_conversations,
                                  std::mt19937_64& rng);

// AIPerf's max-tokens rule for file and public-dataset turns (composer `_set_max_tokens`): a
// turn's own value (output_length, ShareGPT's completion) is kept, raised to 1 when <= 0; a turn
// without one gets positive-normal-int(trunc(--osl), trunc(--osl-stddev)) drawn from `rng` when
// --osl >= 1, else none. --seq-dist does not apply to file datasets. Returns the turns raised to 1.
size_t apply_output_lengths(std::vector<proto::Conversation>& conversations, const config::InputConfig& in,
                            std::mt19937_64& rng);

// Tokens per hash_id block: --isl-block-size, else the trace format's own (bailian 16, else 512).
uint32_t trace_block_size(const config::InputConfig& in);

// True when --fixed-schedule offsets exclude `turn` (stamped outside [start, end]).
bool outside_fixed_schedule(const config::InputConfig& in, const proto::Turn& turn);

}  // namespace aiperf::dataset
