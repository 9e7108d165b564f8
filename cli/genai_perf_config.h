// `genai-perf config -f FILE [--override-config] [options]`: GenAI-Perf 0.0.16's YAML config
// (the schema `genai-perf create-template` writes: model_names, analyze, endpoint,
// perf_analyzer, input, output, tokenizer, process) turned into the `genai-perf profile`
// command line it stands for, so one parser (genai_perf_options.h) validates both. A file with
// an `analyze:` section runs `analyze` over its sweep. A key left empty keeps GenAI-Perf's
// default; a key the front end cannot honour is refused only when its value differs from that
// default (the template lists them all), with the reason `profile` gives for the option.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "genai_perf_analyze.h"

namespace aiperf::cli::genai_perf {

struct ConfigRun {
  std::vector<std::string> words;  // the `genai-perf profile` command line of the file
  std::optional<Sweep> sweep;      // set: the file has an analyze: section (run analyze)
  // set (and no analyze: section): the file's process.input_path, a process-export-files run
  // (GenAI-Perf's config then needs no model and takes only the output section's options).
  std::optional<std::string> process_input_path;
  // perf_analyzer.stability_percentage was an integer (GenAI-Perf echoes it as one: 80, where
  // the command line's -s 80 is 80.0).
  bool stability_percentage_integral = false;
  // input.audio.sample_rates was given: GenAI-Perf reads the file's rates as integers (16, where
  // the command line's 16 is 16.0).
  bool audio_sample_rates_integral = false;
};

// Reads `path`. Unknown keys, bad values and refused settings throw GenAiPerfOptionError as
// "FILE:LINE: key.path: what is wrong"; a file that cannot be read or parsed names the file.
ConfigRun read_config(const std::string& path);

}  // namespace aiperf::cli::genai_perf
