#include "analyze_command.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "analyze_trace_stats.h"
#include "dataset_error.h"
#include "validators.h"

namespace aiperf::cli {
namespace {

namespace fs = std::filesystem;

struct TraceArgs {
  std::string input_file;
  int64_t block_size = 512;
  std::string output_file;
};

// Writes `text` to `path` whole or not at all (a temporary file renamed into place), creating
// the parent directories. Throws std::runtime_error naming the path.
void write_whole(const fs::path& path, const std::string& text) {
  std::error_code ec;
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out << text;
    if (!out.flush()) {
      fs::remove(tmp, ec);
      throw std::runtime_error("cannot write " + path.string());
    }
  }
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw std::runtime_error("cannot write " + path.string() + ": " + ec.message());
  }
}

int run_analyze_trace(const TraceArgs& a) {
  std::error_code ec;
  if (!fs::exists(a.input_file, ec)) {
    std::cerr << "Error: --input-file: input file not found: " << a.input_file << "\n";
    return 2;
  }
  analyze::TraceStats stats;
  try {
    stats = analyze::analyze_rows(analyze::read_trace_rows(a.input_file), a.block_size);
  } catch (const dataset::DatasetFileError& e) {
    std::cerr << "Error: --input-file: " << e.what() << "\n";
    return 2;
  }
  std::cout << analyze::render_report(stats);
  if (!a.output_file.empty()) {
    try {
      write_whole(a.output_file, analyze::stats_json(stats).dump(2));
    } catch (const std::exception& e) {
      std::cerr << "Error: --output-file: " << e.what() << "\n";
      return 1;
    }
    std::cout << "Analysis report saved to " << a.output_file << "\n";
  }
  return 0;
}

}  // namespace

std::function<int()> add_analyze_commands(CLI::App& app) {
  auto trace = std::make_shared<TraceArgs>();
  CLI::App* trace_cmd =
      app.add_subcommand("analyze-trace", "Analyze a mooncake trace file for ISL/OSL distributions and cache hit rates");
  trace_cmd->add_option("input-file,--input-file", trace->input_file, "Path to input mooncake trace JSONL file")
      ->required();
  trace_cmd->add_option("--block-size", trace->block_size, "KV cache block size for analysis")
      ->capture_default_str()
      ->check(kPositive);
  trace_cmd->add_option("--output-file", trace->output_file, "Optional output path for analysis report (JSON)");

  return [trace_cmd, trace]() -> int {
    if (*trace_cmd) return run_analyze_trace(*trace);
    return -1;
  };
}

}  // namespace aiperf::cli
