// `genai-perf process-export-files` (GenAI-Perf 0.0.16) command line: its seven options, parsed
// as its argparse parser does (long options, unique prefixes of them, `--opt=value`, `-dVALUE`,
// the last of a repeated option wins).
#pragma once
#include <string>
#include <vector>

namespace aiperf::cli::genai_perf {

struct ProcessArgs {
  std::string input_path = "aggregated";  // --input-directory/-d; GenAI-Perf's default
  std::string artifact_dir = "artifacts";
  std::string checkpoint_dir = "checkpoint";
  bool generate_plots = false;        // echoed in input_config only (GenAI-Perf draws no plots here)
  bool enable_checkpointing = false;  // echoed in input_config only (nothing is checkpointed here)
  std::string profile_export_file = "profile_export.json";
  bool verbose = false;
  bool help = false;
};

// Parses the words after `process-export-files`. Throws GenAiPerfOptionError (genai_perf_options.h)
// with argparse's wording for an unknown or ambiguous option or a missing value (exit 2).
ProcessArgs parse_process_args(const std::vector<std::string>& words);

// GenAI-Perf's configuration check of parsed options (a failure exits 1, as its ValueError
// does): a --profile-export-file holding a directory. "" when fine.
std::string process_config_error(const ProcessArgs& a);

// `genai-perf process-export-files --help`.
std::string process_help();

// Python's str(pathlib.Path(p)): repeated and trailing slashes dropped, "." components dropped,
// "" -> ".". GenAI-Perf echoes its path options this way in input_config.
std::string python_path(const std::string& p);

}  // namespace aiperf::cli::genai_perf
