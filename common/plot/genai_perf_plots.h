// GenAI-Perf 0.0.16's `profile --generate-plots`: its five default plots (plot_config_parser.py
// create_init_yaml_config), built from the per-request data of profile_export.json and written
// into <artifact dir>/plots as <name>.html and <name>.jpeg, the name being the title in lower
// case with blanks as "_" (plot_manager.py):
//   time_to_first_token                  box      TTFT (ms)            x label "Time to First Token (ms)"
//   request_latency                      box      latency (ms)         x label "Request Latency (ms)"
//   distribution_of_input_sequence_lengths_to_output_sequence_lengths
//                                        heat map ISL x OSL           2-D histogram of the requests
//   time_to_first_token_vs_input_sequence_lengths
//                                        scatter  (ISL, TTFT ms)
//   token-to-token_latency_vs_output_token_position
//                                        scatter  (position, ITL ms)  every gap between two responses
// The last plot differs on purpose: GenAI-Perf 0.0.16 pairs the token positions (one per gap) with
// the per-request average ITL (one per request), so Plotly draws only the first N pairs, which
// mean nothing; here each gap's latency is drawn at its position, as the plot's title says.
// GenAI-Perf's parquet copies (<name>.gzip) and its plots/config.yaml are not written.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "plot/figure.h"

namespace aiperf::plot {

// One request as GenAI-Perf's LLM parser sees it: responses without text already dropped.
struct GenaiPerfRequest {
  int64_t start_ns = 0;
  std::vector<int64_t> response_ns;      // each non-empty response's time
  std::vector<int64_t> response_tokens;  // its output tokens (same length; 0 is counted as 1)
  int64_t input_tokens = 0;              // ISL
  int64_t output_tokens = 0;             // OSL
};

// The points each plot takes, in request order (requests without responses are skipped).
struct GenaiPerfPlotData {
  std::vector<double> ttft_ms;         // first response - start
  std::vector<double> latency_ms;      // last response - start
  std::vector<double> isl, osl;        // per request
  std::vector<double> token_position;  // 1, 2, ... per gap within a request
  std::vector<double> itl_ms;          // round((t[i] - t[i-1]) / tokens[i]) ns, in ms
};

GenaiPerfPlotData genai_perf_plot_data(const std::vector<GenaiPerfRequest>& requests);

// A 2-D histogram's non-empty cells: counts of (x, y) pairs in bins of a nice width (1, 2, 5 x
// 10^k, at least 1 for whole numbers) giving at most about 20 bins a side; a single value gets
// one bin of width 1 centred on it. x, x_end, y, y_end, z as Series (Mark::Cells) holds them.
Series histogram_2d(const std::vector<double>& x, const std::vector<double>& y);

// {lower whisker, q1, median, q3, upper whisker} as Plotly draws a box (linear quartiles,
// whiskers at the furthest values within 1.5 IQR of the box). Empty values: empty.
std::vector<double> box_stats(std::vector<double> values);

// The five figures, ids = the file names above (without extension).
std::vector<Figure> genai_perf_figures(const GenaiPerfPlotData& data);

// Writes each figure as <dir>/<id>.html (self-contained page) and <dir>/<id>.jpeg (1400 x 900,
// GenAI-Perf's 700 x 450 at twice the scale); creates dir. Returns the paths written.
std::vector<std::filesystem::path> write_genai_perf_plots(const std::vector<Figure>& figures,
                                                          const std::filesystem::path& dir);

}  // namespace aiperf::plot
