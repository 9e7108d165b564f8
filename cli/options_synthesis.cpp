// AIPerf 0.13's "Synthesis" group (--synthesis-*): trace reshaping applied by the mooncake_trace
// loader (services/dataset/synthesis_*). Ranges as AIPerf checks them: the CLI's (>= 0, root and
// caps >= 1), then its dataset config's (speedup and the two length multipliers > 0) for file
// datasets only; and its refusals on baseten_trace, which replays prompts verbatim.
#include <string>
#include <vector>

#include "options.h"
#include "validators.h"

namespace aiperf::cli {

void add_synthesis_options(CLI::App& app, ProfileOptions& o) {
  auto& s = o.config.input.synthesis;
  const std::string g = "Synthesis";
  app.add_option("--synthesis-speedup-ratio", s.speedup_ratio,
                 "Trace timestamps divided by this (mooncake_trace; 2 = twice as fast)")
      ->check(kNonNegative)
      ->group(g);
  app.add_option("--synthesis-prefix-len-multiplier", s.prefix_len_multiplier,
                 "Shared prefix blocks of a hash_ids trace stretched or squeezed by this")
      ->check(kNonNegative)
      ->group(g);
  app.add_option("--synthesis-prefix-root-multiplier", s.prefix_root_multiplier,
                 "Traces spread at random over this many disjoint copies of the prefix tree")
      ->check(number_check(1, false, 4294967295.0, "an integer >= 1"))
      ->group(g);
  app.add_option("--synthesis-prompt-len-multiplier", s.prompt_len_multiplier,
                 "Unique prompt tokens (after the shared prefix) of a hash_ids trace scaled by this")
      ->check(kNonNegative)
      ->group(g);
  app.add_option("--synthesis-output-len-multiplier", s.output_len_multiplier,
                 "Trace output lengths scaled by this (rounded, at least 1)")
      ->check(kNonNegative)
      ->group(g);
  add_optional(app, "--synthesis-max-isl", s.max_isl,
               "Trace lines with a longer input_length are skipped; synthesized lengths capped to it")
      ->check(number_check(1, false, 4294967295.0, "an integer >= 1"))
      ->group(g);
  add_optional(app, "--synthesis-max-osl", s.max_osl, "Trace output lengths capped to this")
      ->check(number_check(1, false, 4294967295.0, "an integer >= 1"))
      ->group(g);
}

void check_synthesis_options(const ProfileOptions& o) {
  const auto& in = o.config.input;
  const auto& s = in.synthesis;
  // AIPerf routes the options to a file dataset's synthesis block only; there they must be > 0.
  if (!in.input_file.empty() || !in.public_dataset.empty()) {
    for (const auto& [value, name] : {std::pair{s.speedup_ratio, "--synthesis-speedup-ratio"},
                                      std::pair{s.prefix_len_multiplier, "--synthesis-prefix-len-multiplier"},
                                      std::pair{s.prompt_len_multiplier, "--synthesis-prompt-len-multiplier"}})
      if (!(value > 0)) throw OptionError(std::string(name) + ": must be > 0 for a file dataset, got 0");
  }
  if (in.custom_dataset_type != config::CustomDatasetType::kBasetenTrace) return;
  const std::string source = "--custom-dataset-type baseten_trace";
  if (s.speedup_ratio != 1)
    throw OptionError("--synthesis-speedup-ratio is not supported with " + source +
                      "; use --replay-speedup to scale replay pacing.");
  std::vector<std::string> flags;
  if (s.prefix_len_multiplier != 1) flags.emplace_back("--synthesis-prefix-len-multiplier");
  if (s.prefix_root_multiplier != 1) flags.emplace_back("--synthesis-prefix-root-multiplier");
  if (s.prompt_len_multiplier != 1) flags.emplace_back("--synthesis-prompt-len-multiplier");
  if (flags.empty()) return;
  std::string names;
  for (const auto& f : flags) names += (names.empty() ? "" : ", ") + f;
  throw OptionError(names + (flags.size() == 1 ? " is" : " are") + " not supported with " + source +
                    ": it replays recorded prompts verbatim, so hash-reshaping synthesis cannot change the sent "
                    "prompt and would desync the forwarded hash_ids KV hints.");
}

void check_synthesis_dataset_type(const ProfileOptions& o) {
  const auto& in = o.config.input;
  const auto& s = in.synthesis;
  if (!s.transforms() && !s.max_isl && !s.max_osl) return;
  // AIPerf's sagemaker and baseten_trace loaders take (some of) these options too; ours applies
  // them to mooncake_trace, bailian_trace and burst_gpt_trace only, so refuse rather than ignore.
  const config::CustomDatasetType t = in.custom_dataset_type;
  if (t == config::CustomDatasetType::kSagemakerDataCapture || t == config::CustomDatasetType::kBasetenTrace)
    throw OptionError(
        "--synthesis-*: trace synthesis is implemented for mooncake_trace, bailian_trace and burst_gpt_trace, not " +
        config::to_string(t));
}

}  // namespace aiperf::cli
