// `aiperf plot` without the command line: find the runs under the paths, decide single-run or
// multi-run as AIPerf does, build the default figures, draw each as <output>/<plot id>.png, and
// write summary.txt and aiperf_plot.log beside them (AIPerf's files). Also returns the Report
// (tables and figures) so an HTML renderer can draw the same content.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "plot/figure.h"
#include "plot/png_renderer.h"

namespace aiperf::plot {

struct PlotRequest {
  std::vector<std::string> paths;  // run directories or trees holding runs (default ./artifacts)
  std::string output;              // empty = <first path>/plots
  Theme theme = Theme::Light;
  // Plot ids to draw (a plot config's lists); unset = AIPerf's defaults.
  std::optional<std::vector<std::string>> single_run_plots, multi_run_plots;
};

struct PlotResult {
  std::string output_dir;
  bool multi_run = false;
  size_t runs = 0;
  std::vector<std::string> files;     // PNGs written, in plot order
  std::vector<std::string> warnings;  // plots skipped and runs that failed to load, one line each
  Report report;
};

// The runs are found and loaded before anything is written: a bad path throws DiscoveryError,
// an unreadable single run DataLoadError (multi-run: a run that fails to load is a warning; all
// failing throws), and nothing is created. A PNG that cannot be drawn is a warning.
PlotResult make_plots(const PlotRequest& request);

// The output directory make_plots uses for a request (output, or <first path>/plots).
std::string plot_output_dir(const PlotRequest& request);

}  // namespace aiperf::plot
