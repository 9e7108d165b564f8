// `aiperf profile --config FILE` / `-f FILE`: AIPerf 0.13's YAML config (schemaVersion "2.0",
// a `benchmark:` body, optional `sweep:` and `multiRun:` blocks) translated into the options of
// `aiperf profile`, so one validation path serves both. The command line wins over the file:
// a file option the command line also gives is dropped (lists included: the command line's
// list replaces the file's). Keys are accepted in snake_case or camelCase; `${VAR}` and
// `${VAR:default}` take values from the environment. The subset of the schema understood is
// listed in docs/user-guide.md; any other key is an error naming file:line and the key path.
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sweep_plan.h"

namespace CLI {
class App;
}

namespace aiperf::cli::config_file {

// A config file that cannot be used: "FILE:LINE: KEY.PATH: what is wrong". Exit 2 for
// `profile`, 1 for `config validate` (as the reference).
class ConfigFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One option the file sets: `option` with its values (none for a flag), and where it came from.
struct Arg {
  std::string option;               // canonical spelling, e.g. "--concurrency"
  std::vector<std::string> values;  // one value per occurrence (e.g. "--header" repeated)
  std::string origin;               // "cfg.yaml:12 (benchmark.phases.concurrency)"
};

struct Translation {
  std::vector<Arg> args;
  std::vector<std::string> warnings;  // keys accepted and ignored, said once each
  bool has_sweep = false;
  sweep::SweepType sweep_type = sweep::SweepType::kGrid;  // when has_sweep
  // Each swept option's values typed as the YAML wrote them (5 stays an integer on a float
  // option: the reference names that point "rate_5", where `--request-rate 5,10` gives "rate_5.0").
  std::map<std::string, std::vector<nlohmann::json>> sweep_values;
  // Each swept option's path as the file names it (bare `concurrency` is
  // phases.profiling.concurrency): the point labels and folders use it, as the reference.
  std::map<std::string, std::string> sweep_paths;
};

// Reads an environment variable (nullopt when unset); tests pass a map.
using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;
EnvLookup process_env();

// Parses `text` (named `file` in messages). Throws ConfigFileError.
Translation translate_text(const std::string& text, const std::string& file, const EnvLookup& env);
// Reads and parses `path`. Throws ConfigFileError ("Configuration file not found: PATH").
Translation translate_file(const std::string& path, const EnvLookup& env);

// The args as a command line: `--opt value` pairs (a flag alone), in file order.
std::vector<std::string> to_args(const Translation& t);

// Removes `-f FILE`, `--config FILE`, `--config=FILE` (and `-fFILE`) from `args` (the words
// after `profile`); returns FILE when present. Throws ConfigFileError when given twice or
// without a value.
std::optional<std::string> take_config_option(std::vector<std::string>& args);

// The words after `profile`: the file's options the command line does not also give (by any
// of an option's names, as `app` registers them), then the command line's own words. The
// overridden options are removed from `t` (so annotate() blames only what the file set).
std::vector<std::string> merge(Translation& t, const std::vector<std::string>& cli_args, const CLI::App& app);

// The options the file's sweep block lists (a one-value list among them stays a sweep).
std::vector<std::string> swept_options(const Translation& t);
// Gives the lists of `extracted` that came from the file's sweep block the file's typing and paths.
void retype_sweep(const Translation& t, sweep::Extracted& extracted);

// `message` plus " (from FILE:LINE (key))" when it names an option the file set.
std::string annotate(const std::string& message, const Translation& t);

}  // namespace aiperf::cli::config_file
