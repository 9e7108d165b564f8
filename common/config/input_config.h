// Input section of RunConfig (AIPerf "Input", ISL/OSL, Prompt, Conversation options).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config/config_enum.h"
#include "config/json_optional.h"
#include "config/prompt_shaping_config.h"
#include "config/trace_replay_config.h"
#include "config/synthesis_config.h"
#include "config/video_config.h"
#include "config/agentic_trace_config.h"

namespace aiperf::config {

// --custom-dataset-type, given or detected from the --input-file; kNone ("") for synthetic data
// and public datasets.
enum class CustomDatasetType {
  kNone,
  kSingleTurn,
  kMultiTurn,
  kRandomPool,
  kMooncakeTrace,
  kBailianTrace,
  kBurstGptTrace,
  kRawPayload,
  kInputsJson,
  kSagemakerDataCapture,
  kBasetenTrace,
  kWekaTrace,
  kDagJsonl,  // dag_jsonl.h
  kTracelab,  // tracelab_trace.h
  // SPEED-Bench (speed_bench.h): a split, or one category of it.
  kSpeedBenchQualitative,
  kSpeedBenchCoding,
  kSpeedBenchHumanities,
  kSpeedBenchMath,
  kSpeedBenchMultilingual,
  kSpeedBenchQa,
  kSpeedBenchRag,
  kSpeedBenchReasoning,
  kSpeedBenchRoleplay,
  kSpeedBenchStem,
  kSpeedBenchSummarization,
  kSpeedBenchWriting,
  kSpeedBenchThroughput1k,
  kSpeedBenchThroughput2k,
  kSpeedBenchThroughput8k,
  kSpeedBenchThroughput16k,
  kSpeedBenchThroughput32k,
  kSpeedBenchThroughput1kLowEntropy,
  kSpeedBenchThroughput1kMixed,
  kSpeedBenchThroughput1kHighEntropy,
  kSpeedBenchThroughput2kLowEntropy,
  kSpeedBenchThroughput2kMixed,
  kSpeedBenchThroughput2kHighEntropy,
  kSpeedBenchThroughput8kLowEntropy,
  kSpeedBenchThroughput8kMixed,
  kSpeedBenchThroughput8kHighEntropy,
  kSpeedBenchThroughput16kLowEntropy,
  kSpeedBenchThroughput16kMixed,
  kSpeedBenchThroughput16kHighEntropy,
  kSpeedBenchThroughput32kLowEntropy,
  kSpeedBenchThroughput32kMixed,
  kSpeedBenchThroughput32kHighEntropy
};
constexpr auto enum_names(CustomDatasetType) {
  using E = CustomDatasetType;
  return std::array{EnumName<E>{E::kNone, ""},
                    EnumName<E>{E::kSingleTurn, "single_turn"},
                    EnumName<E>{E::kMultiTurn, "multi_turn"},
                    EnumName<E>{E::kRandomPool, "random_pool"},
                    EnumName<E>{E::kMooncakeTrace, "mooncake_trace"},
                    EnumName<E>{E::kBailianTrace, "bailian_trace"},
                    EnumName<E>{E::kBurstGptTrace, "burst_gpt_trace"},
                    EnumName<E>{E::kRawPayload, "raw_payload"},
                    EnumName<E>{E::kInputsJson, "inputs_json"},
                    EnumName<E>{E::kSagemakerDataCapture, "sagemaker_data_capture"},
                    EnumName<E>{E::kBasetenTrace, "baseten_trace"},
                    EnumName<E>{E::kWekaTrace, "weka_trace"},
                    EnumName<E>{E::kDagJsonl, "dag_jsonl"},
                    EnumName<E>{E::kTracelab, "tracelab"},
                    EnumName<E>{E::kSpeedBenchQualitative, "speed_bench_qualitative"},
                    EnumName<E>{E::kSpeedBenchCoding, "speed_bench_coding"},
                    EnumName<E>{E::kSpeedBenchHumanities, "speed_bench_humanities"},
                    EnumName<E>{E::kSpeedBenchMath, "speed_bench_math"},
                    EnumName<E>{E::kSpeedBenchMultilingual, "speed_bench_multilingual"},
                    EnumName<E>{E::kSpeedBenchQa, "speed_bench_qa"},
                    EnumName<E>{E::kSpeedBenchRag, "speed_bench_rag"},
                    EnumName<E>{E::kSpeedBenchReasoning, "speed_bench_reasoning"},
                    EnumName<E>{E::kSpeedBenchRoleplay, "speed_bench_roleplay"},
                    EnumName<E>{E::kSpeedBenchStem, "speed_bench_stem"},
                    EnumName<E>{E::kSpeedBenchSummarization, "speed_bench_summarization"},
                    EnumName<E>{E::kSpeedBenchWriting, "speed_bench_writing"},
                    EnumName<E>{E::kSpeedBenchThroughput1k, "speed_bench_throughput_1k"},
                    EnumName<E>{E::kSpeedBenchThroughput2k, "speed_bench_throughput_2k"},
                    EnumName<E>{E::kSpeedBenchThroughput8k, "speed_bench_throughput_8k"},
                    EnumName<E>{E::kSpeedBenchThroughput16k, "speed_bench_throughput_16k"},
                    EnumName<E>{E::kSpeedBenchThroughput32k, "speed_bench_throughput_32k"},
                    EnumName<E>{E::kSpeedBenchThroughput1kLowEntropy, "speed_bench_throughput_1k_low_entropy"},
                    EnumName<E>{E::kSpeedBenchThroughput1kMixed, "speed_bench_throughput_1k_mixed"},
                    EnumName<E>{E::kSpeedBenchThroughput1kHighEntropy, "speed_bench_throughput_1k_high_entropy"},
                    EnumName<E>{E::kSpeedBenchThroughput2kLowEntropy, "speed_bench_throughput_2k_low_entropy"},
                    EnumName<E>{E::kSpeedBenchThroughput2kMixed, "speed_bench_throughput_2k_mixed"},
                    EnumName<E>{E::kSpeedBenchThroughput2kHighEntropy, "speed_bench_throughput_2k_high_entropy"},
                    EnumName<E>{E::kSpeedBenchThroughput8kLowEntropy, "speed_bench_throughput_8k_low_entropy"},
                    EnumName<E>{E::kSpeedBenchThroughput8kMixed, "speed_bench_throughput_8k_mixed"},
                    EnumName<E>{E::kSpeedBenchThroughput8kHighEntropy, "speed_bench_throughput_8k_high_entropy"},
                    EnumName<E>{E::kSpeedBenchThroughput16kLowEntropy, "speed_bench_throughput_16k_low_entropy"},
                    EnumName<E>{E::kSpeedBenchThroughput16kMixed, "speed_bench_throughput_16k_mixed"},
                    EnumName<E>{E::kSpeedBenchThroughput16kHighEntropy, "speed_bench_throughput_16k_high_entropy"},
                    EnumName<E>{E::kSpeedBenchThroughput32kLowEntropy, "speed_bench_throughput_32k_low_entropy"},
                    EnumName<E>{E::kSpeedBenchThroughput32kMixed, "speed_bench_throughput_32k_mixed"},
                    EnumName<E>{E::kSpeedBenchThroughput32kHighEntropy, "speed_bench_throughput_32k_high_entropy"}};
}
AIPERF_CONFIG_ENUM_JSON(CustomDatasetType, "custom_dataset_type")

// --image-format of synthetic images; random draws png or jpeg per image.
enum class ImageFormat { kPng, kJpeg, kRandom };
constexpr auto enum_names(ImageFormat) {
  using E = ImageFormat;
  return std::array{EnumName<E>{E::kPng, "png"}, EnumName<E>{E::kJpeg, "jpeg"}, EnumName<E>{E::kRandom, "random"}};
}
AIPERF_CONFIG_ENUM_JSON(ImageFormat, "image_format")

// --audio-format of synthetic audio clips.
enum class AudioFormat { kWav, kMp3 };
constexpr auto enum_names(AudioFormat) {
  using E = AudioFormat;
  return std::array{EnumName<E>{E::kWav, "wav"}, EnumName<E>{E::kMp3, "mp3"}};
}
AIPERF_CONFIG_ENUM_JSON(AudioFormat, "audio_format")

struct InputConfig {
  nlohmann::json extra_inputs = nlohmann::json::object();
  std::vector<std::pair<std::string, std::string>> headers;
  std::optional<uint64_t> random_seed;
  double isl_mean = 550;                        // --synthetic-input-tokens-mean
  double isl_stddev = 0;
  std::optional<double> osl_mean;               // --output-tokens-mean (unset: no max tokens)
  double osl_stddev = 0;
  uint32_t batch_size = 1;                      // --batch-size-text (0 = no text)
  uint32_t num_dataset_entries = 100;
  double turn_mean = 1, turn_stddev = 0;
  double turn_delay_mean = 0, turn_delay_stddev = 0, turn_delay_ratio = 1;
  // --input-file: absolute path; custom_dataset_type is the given or auto-detected format
  // (CustomDatasetType above).
  std::string input_file;
  CustomDatasetType custom_dataset_type = CustomDatasetType::kNone;
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

  // --public-dataset: "sharegpt" or empty. public_dataset_file is the resolved local JSON
  // (--input-file, or AIPerf's download cache .cache/aiperf/datasets/<file>).
  std::string public_dataset;
  std::string public_dataset_file;
  // HuggingFace-backed public datasets: --hf-subset (overrides the dataset's own config), and
  // where the CLI resolved them to be read offline (./<org>/<name> under hf_local_root, or the
  // huggingface_hub cache hf_hub_cache).
  std::optional<std::string> hf_subset;
  std::string hf_weka_dataset;  // --hf-weka-dataset: the repo of --public-dataset weka_hf
  std::string hf_local_root;
  std::string hf_hub_cache;
  // --seq-dist as given; validated by the CLI, parsed again by the dataset service.
  std::string seq_dist;
  // Prefix prompts (AIPerf "Prefix Prompt" group): a pool of prefixes for first turns, or one
  // shared system prompt, or a unique user-context prompt per conversation.
  uint32_t prefix_pool_size = 0;
  uint32_t prefix_length = 0;                   // tokens
  uint32_t shared_system_prompt_length = 0;     // tokens, 0 = none
  uint32_t user_context_prompt_length = 0;      // tokens, 0 = none
  // Synthetic rankings (query + passages), used with rankings endpoints.
  double rankings_passages_mean = 1, rankings_passages_stddev = 0;
  double rankings_passage_tokens_mean = 550, rankings_passage_tokens_stddev = 0;
  double rankings_query_tokens_mean = 550, rankings_query_tokens_stddev = 0;
  // Synthetic images: generated when both means are > 0.
  double image_width_mean = 0, image_width_stddev = 0;
  double image_height_mean = 0, image_height_stddev = 0;
  uint32_t image_batch_size = 1;
  ImageFormat image_format = ImageFormat::kPng;
  // Synthetic audio: generated when the length mean (seconds) is > 0.
  double audio_length_mean = 0, audio_length_stddev = 0;
  uint32_t audio_batch_size = 1;
  AudioFormat audio_format = AudioFormat::kWav;
  std::vector<uint32_t> audio_depths{16};       // bits per sample, one drawn per clip
  std::vector<double> audio_sample_rates{16.0}; // kHz, one drawn per clip
  uint32_t audio_num_channels = 1;
  VideoConfig video;                            // --video-*: synthetic video clips
  TraceReplayConfig trace_replay;               // baseten_trace replay controls
  PromptShapingConfig prompt_shaping;           // corpus, range ratio, system prompt, cache bust, image source
  SynthesisConfig synthesis;                    // --synthesis-*: trace reshaping (mooncake_trace)
  AgenticTraceConfig agentic_trace;             // weka_trace replay controls
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(
    InputConfig, extra_inputs, headers, random_seed, isl_mean, isl_stddev, osl_mean, osl_stddev, batch_size,
    num_dataset_entries, turn_mean, turn_stddev, turn_delay_mean, turn_delay_stddev, turn_delay_ratio, input_file,
    custom_dataset_type, dataset_sampling_strategy, isl_block_size, fixed_schedule, fixed_schedule_auto_offset,
    fixed_schedule_start_offset, fixed_schedule_end_offset, public_dataset, public_dataset_file, hf_subset,
    hf_weka_dataset, hf_local_root, hf_hub_cache, seq_dist, prefix_pool_size, prefix_length,
    shared_system_prompt_length, user_context_prompt_length, rankings_passages_mean, rankings_passages_stddev,
    rankings_passage_tokens_mean, rankings_passage_tokens_stddev, rankings_query_tokens_mean,
    rankings_query_tokens_stddev, image_width_mean, image_width_stddev, image_height_mean, image_height_stddev,
    image_batch_size, image_format, audio_length_mean, audio_length_stddev, audio_batch_size, audio_format,
    audio_depths, audio_sample_rates, audio_num_channels, video, trace_replay, prompt_shaping, agentic_trace, synthesis)

}  // namespace aiperf::config
