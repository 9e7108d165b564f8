// Input, ISL/OSL, prompt and conversation groups (spec §2.1).
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
}

void finalize_input_options(ProfileOptions& o) {
  o.config.input.extra_inputs = parse_extra_inputs(o.input.extra_inputs);
  o.config.input.headers = parse_headers(o.input.headers);
}

}  // namespace aiperf::cli
