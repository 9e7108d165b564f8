// `aiperf plot --config FILE`: which plots to draw, from a plot config in the layout of AIPerf's
// default_plot_config.yaml (visualization.single_run_defaults / multi_run_defaults). Only AIPerf's
// built-in presets are drawn; what a file asks beyond that is reported, not silently dropped.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

namespace aiperf::plot {

// "FILE: ..." (with "line N" for YAML syntax errors).
struct PlotConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct PlotSelection {
  std::vector<std::string> single_run, multi_run;  // plot ids, in the file's order
  std::vector<std::string> notes;  // what the file asks that is not drawn as asked (one line each)
};

// A list missing from the file keeps AIPerf's default list. Throws PlotConfigError when the
// file cannot be read, is not YAML, or a defaults entry is not a list of names.
PlotSelection read_plot_config(const std::string& path);

}  // namespace aiperf::plot
