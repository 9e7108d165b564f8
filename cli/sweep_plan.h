// Parameter sweeps (AIPerf 0.13's "magic lists"): a comma list on a sweepable option
// (`--concurrency 1,2,4`, `--request-rate 5,10`, `--isl 128,512`, ...) makes the run a sweep
// over those values. This header holds the pure part: finding the lists on the command line,
// expanding them into sweep points (grid: Cartesian product; zip: element-wise), and naming
// each point as AIPerf does (label "phases.profiling.concurrency=2", folder "concurrency_2").
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/config_enum.h"

namespace aiperf::cli::sweep {

// A user error in the sweep options; the caller prints "Error: <what>" and exits 2.
class SweepError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// --sweep-type: grid (every combination of the lists) or zip (element-wise).
enum class SweepType { kGrid, kZip };
constexpr auto enum_names(SweepType) {
  return std::array{config::EnumName<SweepType>{SweepType::kGrid, "grid"},
                    config::EnumName<SweepType>{SweepType::kZip, "zip"}};
}

// --parameter-sweep-mode with trials: repeated (trials outer, points inner) or independent.
enum class ParameterSweepMode { kRepeated, kIndependent };
constexpr auto enum_names(ParameterSweepMode) {
  return std::array{config::EnumName<ParameterSweepMode>{ParameterSweepMode::kRepeated, "repeated"},
                    config::EnumName<ParameterSweepMode>{ParameterSweepMode::kIndependent, "independent"}};
}

// One list given on the command line.
struct Parameter {
  std::string option;  // the spelling the user typed, e.g. --concurrency
  std::string path;    // AIPerf's dotted config path, e.g. phases.profiling.concurrency
  std::vector<nlohmann::json> values;     // typed: integers, or doubles for float options
  std::vector<std::string> texts;         // each value as the option will be given it
};

// The command line with every list replaced by its first value, and the lists found (in the
// order given). A list of one element ("4," ) is a plain value, as in AIPerf.
struct Extracted {
  std::vector<std::string> args;
  std::vector<Parameter> parameters;
  // Where each parameter's value sits in `args` (index of the value token, and whether the
  // token is the `--opt=value` form), so a point's command line can be made by substitution.
  std::vector<std::pair<size_t, bool>> slots;
};

// Scans `args` (argv of `aiperf profile ...`). Throws SweepError for a list element that is
// not a number of the option's type ("--concurrency: invalid value 'x' in the list '1,x'").
Extracted extract_lists(const std::vector<std::string>& args);
// The same, where a one-element list ("4,") on an option spelled as in `one_value_lists` is
// still a parameter (a sweep of one value): a config file's sweep block, as the reference.
Extracted extract_lists(const std::vector<std::string>& args, const std::vector<std::string>& one_value_lists);

// One sweep point (AIPerf's "variation").
struct Point {
  size_t index = 0;
  std::vector<std::pair<std::string, nlohmann::json>> values;  // path -> value, paths sorted
  std::vector<size_t> value_index;  // per parameter of `Extracted::parameters`, which value
  std::string label;     // "phases.profiling.concurrency=2, phases.profiling.rate=5.0"
  std::string dir_name;  // "concurrency_2__rate_5.0"
  // The point's aggregate/ folder when it is not dir_name (AIPerf names a scenario's by its
  // sorted keys: pareto-sweep's run isl_32__osl_8__concurrency_1, aggregate concurrency_1__isl_32__osl_8).
  std::string aggregate_dir;
};

// Grid: the Cartesian product over the parameters sorted by path (the first path varies
// slowest). Zip: element-wise; throws SweepError when the lists differ in length.
std::vector<Point> expand(const std::vector<Parameter>& parameters, SweepType sweep_type);

// The command line of one point: `extracted.args` with each list replaced by the point's value.
std::vector<std::string> point_args(const Extracted& extracted, const Point& point);

// Python's str() of a JSON scalar: 10 -> "10", 10.0 -> "10.0", 0.5 -> "0.5", 1e-05 -> "1e-05".
std::string python_str(const nlohmann::json& value);

// The leaf of a dotted path ("phases.profiling.concurrency" -> "concurrency").
std::string leaf(const std::string& path);

// The name a parameter has in the sweep files: its leaf, or the whole path when two
// parameters share a leaf (--isl and --osl are both "...mean").
std::vector<std::pair<std::string, std::string>> display_names(const std::vector<Point>& points);

}  // namespace aiperf::cli::sweep
