// `genai-perf create-template [-f FILE] [-v]`: GenAI-Perf 0.0.16's YAML config template (the
// schema `genai-perf config -f FILE` reads, genai_perf_config.h), every key at its default.
#pragma once
#include <string>

namespace aiperf::cli::genai_perf {

// The template's text; `verbose` adds each key's help as a comment (GenAI-Perf's -v).
std::string config_template(bool verbose);

// Creates `path` (never overwriting) with the template. Returns "" when written, else the
// message to print (nothing is left behind).
std::string write_template(const std::string& path, bool verbose);

}  // namespace aiperf::cli::genai_perf
