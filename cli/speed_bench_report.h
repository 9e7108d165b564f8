// `aiperf speed-bench-report`: one matrix (model x SPEED-Bench category) from per-category
// `aiperf profile` runs, as AIPerf 0.13's command builds it: the category from input_config's
// dataset selector (speed_bench_<category> / spec_al_<benchmark>), the model from
// input_config.models, the value from server_metrics_export.json (acceptance length or rate, by
// engine metric name) or the summary's output token throughput.
#pragma once
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace aiperf::cli::speed_bench {

struct Options {
  std::vector<std::string> paths;  // run directories, or parents of run directories
  std::string output = "speed_bench_report.csv";
  std::string format = "both";           // csv, table, both
  std::string metric = "accept_length";  // accept_length, accept_rate, throughput
};

// model -> category -> value (nullopt: the run gave none).
using Matrix = std::map<std::string, std::map<std::string, std::optional<double>>>;

// Each path that holds profile_export_aiperf.json, else its child directories that do (sorted);
// a path that is not a directory is skipped with a warning on `err`.
std::vector<std::string> find_run_dirs(const std::vector<std::string>& paths, std::ostream& err);

// The matrix of `run_dirs` for `metric`; runs without a category are skipped with a warning.
Matrix build_report(const std::vector<std::string>& run_dirs, const std::string& metric, std::ostream& err);

// The columns in the paper's order when the categories are one known family, else sorted.
std::vector<std::string> detect_columns(const Matrix& m);

// The CSV: Model, the columns, Overall (the mean of the values present), values "%.2f".
std::string format_csv(const Matrix& m, const std::vector<std::string>& columns);

// The console table (title by metric, "-" for a missing value).
std::string format_table(const Matrix& m, const std::vector<std::string>& columns, const std::string& metric);

// The whole command: 0, or 1 with "Error: ..." on `err` when nothing could be reported.
int run(const Options& o, std::ostream& out, std::ostream& err);

}  // namespace aiperf::cli::speed_bench
