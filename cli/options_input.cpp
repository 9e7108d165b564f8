// Input, ISL/OSL, prompt and conversation groups (spec §2.1).
#include <filesystem>
#include <random>

#include "custom_dataset.h"
#include "dataset_error.h"
#include "key_value.h"
#include "options.h"

namespace aiperf::cli {

void add_input_options(CLI::App& app, ProfileOptions& o) {
  auto& in = o.config.input;
  const char* g = "Input";
  app.add_option("--extra-inputs", o.input.extra_inputs, "Extra payload fields: key:value or JSON")->group(g);
  app.add_option("-H,--header", o.input.headers, "Extra HTTP headers: Name:Value or JSON")->group(g);
  add_optional(app, "--random-seed", in.random_seed, "Seed for reproducible data and sampling")->group(g);
  app.add_option("--isl,--synthetic-input-tokens-mean,--prompt-input-tokens-mean", in.isl_mean, "Mean input tokens")
      ->check(CLI::NonNegativeNumber)->group("Input Sequence Length (ISL)");
  app.add_option("--isl-stddev,--synthetic-input-tokens-stddev,--prompt-input-tokens-stddev", in.isl_stddev,
                 "Input tokens std-dev")->check(CLI::NonNegativeNumber)->group("Input Sequence Length (ISL)");
  add_optional(app, "--osl,--output-tokens-mean,--prompt-output-tokens-mean", in.osl_mean, "Mean output tokens (max tokens)")
      ->check(CLI::PositiveNumber)->group("Output Sequence Length (OSL)");
  app.add_option("--osl-stddev,--output-tokens-stddev,--prompt-output-tokens-stddev", in.osl_stddev, "Output tokens std-dev")
      ->check(CLI::NonNegativeNumber)->group("Output Sequence Length (OSL)");
  app.add_option("-b,--batch-size,--batch-size-text,--prompt-batch-size", in.batch_size, "Texts per request")
      ->check(CLI::PositiveNumber)->group("Prompt");
  const char* c = "Conversation Input";
  app.add_option("--num-dataset-entries,--num-prompts", in.num_dataset_entries, "Unique synthetic conversations")
      ->check(CLI::PositiveNumber)->group(c);
  add_optional(app, "--conversation-num,--num-conversations,--num-sessions", o.config.loadgen.conversation_num,
               "Sessions to run")->check(CLI::PositiveNumber)->group(c);
  app.add_option("--conversation-turn-mean,--session-turns-mean", in.turn_mean, "Mean turns per conversation")
      ->check(CLI::PositiveNumber)->group(c);
  app.add_option("--conversation-turn-stddev,--session-turns-stddev", in.turn_stddev, "")->group(c);
  app.add_option("--conversation-turn-delay-mean,--session-turn-delay-mean", in.turn_delay_mean,
                 "Mean think time (ms) before each non-first turn")->check(CLI::NonNegativeNumber)->group(c);
  app.add_option("--conversation-turn-delay-stddev,--session-turn-delay-stddev", in.turn_delay_stddev,
                 "Think time std-dev (ms)")->check(CLI::NonNegativeNumber)->group(c);
  app.add_option("--conversation-turn-delay-ratio,--session-delay-ratio", in.turn_delay_ratio,
                 "Multiplier applied to every delay, including file delays")->check(CLI::NonNegativeNumber)->group(c);

  app.add_option("--input-file", in.input_file, "JSONL file (or random_pool directory) with a custom dataset")->group(g);
  app.add_option("--custom-dataset-type", in.custom_dataset_type,
                 "single_turn, multi_turn, random_pool or mooncake_trace (default: auto-detect)")
      ->check(CLI::IsMember({"single_turn", "multi_turn", "random_pool", "mooncake_trace"}))->group(g);
  app.add_option("--dataset-sampling-strategy", in.dataset_sampling_strategy, "sequential, random or shuffle")
      ->check(CLI::IsMember({"sequential", "random", "shuffle"}))->group(g);
  app.add_flag("--fixed-schedule", in.fixed_schedule, "Replay the dataset's timestamps")->group(g);
  app.add_flag("--fixed-schedule-auto-offset", in.fixed_schedule_auto_offset,
               "Shift timestamps so the first is 0")->group(g);
  add_optional(app, "--fixed-schedule-start-offset", in.fixed_schedule_start_offset,
               "Skip entries stamped before this (ms); also time zero")->group(g);
  add_optional(app, "--fixed-schedule-end-offset", in.fixed_schedule_end_offset,
               "Skip entries stamped after this (ms)")->group(g);
  add_optional(app, "--isl-block-size,--synthetic-input-tokens-block-size,--prompt-input-tokens-block-size",
               in.isl_block_size, "Tokens per hash_id block of traces (mooncake: 512)")
      ->check(CLI::PositiveNumber)->group("Input Sequence Length (ISL)");
}

namespace {

// Options that only make sense with others, spec §2.5.
void check_fixed_schedule(const config::InputConfig& in) {
  if (!in.fixed_schedule) {
    if (in.fixed_schedule_auto_offset) throw OptionError("--fixed-schedule-auto-offset requires --fixed-schedule");
    if (in.fixed_schedule_start_offset) throw OptionError("--fixed-schedule-start-offset requires --fixed-schedule");
    if (in.fixed_schedule_end_offset) throw OptionError("--fixed-schedule-end-offset requires --fixed-schedule");
  }
  if (in.fixed_schedule_auto_offset && in.fixed_schedule_start_offset)
    throw OptionError("--fixed-schedule-auto-offset and --fixed-schedule-start-offset cannot both be set");
  if (in.fixed_schedule_start_offset && in.fixed_schedule_end_offset &&
      *in.fixed_schedule_start_offset > *in.fixed_schedule_end_offset)
    throw OptionError("--fixed-schedule-start-offset (" + std::to_string(*in.fixed_schedule_start_offset) +
                      ") cannot be greater than --fixed-schedule-end-offset (" +
                      std::to_string(*in.fixed_schedule_end_offset) + ")");
}

// Detects the format and loads the whole file once, so a bad line fails here (exit 2) with
// file:line and field rather than in the dataset service after everything was spawned.
void check_input_file(ProfileOptions& o) {
  auto& in = o.config.input;
  if (in.input_file.empty()) {
    if (!in.custom_dataset_type.empty()) throw OptionError("--custom-dataset-type requires --input-file");
    if (in.fixed_schedule) throw OptionError("--fixed-schedule requires --input-file with timestamps");
    return;
  }
  namespace fs = std::filesystem;
  if (!fs::exists(in.input_file)) throw OptionError("--input-file: '" + in.input_file + "' does not exist");
  in.input_file = fs::absolute(in.input_file).string();  // services may resolve paths elsewhere
  try {
    if (in.custom_dataset_type.empty()) in.custom_dataset_type = dataset::detect_custom_dataset_type(in.input_file);
    std::mt19937_64 rng(0);  // validation only: the dataset service draws with the run's seed
    const auto dataset = dataset::load_custom_dataset(in, 1, rng);
    // AIPerf replays a trace's timestamps without being asked.
    if (in.custom_dataset_type == "mooncake_trace" && dataset.has_timestamps) in.fixed_schedule = true;
    if (in.fixed_schedule && !dataset.has_timestamps)
      throw OptionError("--fixed-schedule: '" + in.input_file + "' has no timestamps");
  } catch (const dataset::DatasetFileError& e) {
    throw OptionError(std::string("--input-file: ") + e.what());
  }
}

}  // namespace

void finalize_input_options(ProfileOptions& o) {
  o.config.input.extra_inputs = parse_extra_inputs(o.input.extra_inputs);
  o.config.input.headers = parse_headers(o.input.headers);
  check_fixed_schedule(o.config.input);
  check_input_file(o);
}

}  // namespace aiperf::cli
