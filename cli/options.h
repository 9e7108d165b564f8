// The `aiperf profile` options, one registration function per AIPerf option group (each in
// its own options_<group>.cpp), parsed into ProfileOptions, then validated and resolved into
// one immutable RunConfig by build_run_config().
#pragma once
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "config/run_config.h"

namespace aiperf::cli {

// A user error in the options: printed as "Error: <message>", exit code 2.
class OptionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ProfileOptions {
  config::RunConfig config;                 // fields parsed directly
  std::vector<std::string> extra_inputs;    // raw key:value / JSON items
  std::vector<std::string> headers;
  std::optional<std::string> artifact_dir;
  std::optional<uint32_t> workers_max;
  std::optional<uint32_t> record_processors;
  std::optional<std::string> arrival_pattern;
  std::optional<double> grace_period;
  int verbosity = 0;  // -v = 1 (DEBUG), -vv or --extra-verbose = 2 (TRACE)
  bool extra_verbose = false;
};

void add_endpoint_options(CLI::App& app, ProfileOptions& o);
void add_input_options(CLI::App& app, ProfileOptions& o);
void add_output_options(CLI::App& app, ProfileOptions& o);
void add_load_options(CLI::App& app, ProfileOptions& o);
void add_service_options(CLI::App& app, ProfileOptions& o);

// Validates cross-option rules (spec §2.4-2.5), applies AIPerf's derived defaults, resolves
// the artifact directory and tokenizer. Throws OptionError naming the option.
config::RunConfig build_run_config(ProfileOptions& o, const std::vector<std::string>& argv);

// Optional-valued option: set only when given.
template <typename T>
CLI::Option* add_optional(CLI::App& app, const std::string& names, std::optional<T>& target,
                          const std::string& description) {
  return app.add_option_function<T>(names, [&target](const T& v) { target = v; }, description);
}

}  // namespace aiperf::cli
