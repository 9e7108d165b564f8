#include "analyze_command.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyze_scene_render.h"
#include "analyze_swim_lane.h"
#include "analyze_trace_stats.h"
#include "analyze_turn_messages.h"
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

struct SwimLaneArgs {
  std::vector<std::string> run_dirs;
  bool empty_run_dirs = false;
  std::string out;
  std::optional<int> concurrency;
  std::optional<double> ramp;
  bool html = false;
};

// One run directory: the PNG, then with --html the page. Returns the paths written.
std::vector<std::string> swim_lane_one(const fs::path& run_dir, const SwimLaneArgs& a) {
  const fs::path jsonl = run_dir / "profile_export.jsonl";
  std::error_code ec;
  if (!fs::is_regular_file(jsonl, ec)) throw analyze::SwimLaneError(jsonl.string() + " not found");
  const std::vector<analyze::LaneRecord> records = analyze::load_lane_records(jsonl.string());
  if (records.empty()) throw analyze::SwimLaneError("no valid records in " + jsonl.string());
  const analyze::SwimLane lane = analyze::build_swim_lane(records);
  analyze::SwimLaneView view;
  view.run_name = fs::absolute(run_dir).lexically_normal().filename().string();
  if (view.run_name.empty()) view.run_name = fs::absolute(run_dir).lexically_normal().parent_path().filename().string();
  view.concurrency = a.concurrency;
  std::ifstream summary(run_dir / "profile_export_aiperf.json");
  if (summary) view.times = analyze::parse_bench_times(std::string(std::istreambuf_iterator<char>(summary), {}));
  if (a.ramp) view.times.ramp_s = a.ramp;
  const analyze::Scene scene = analyze::draw_swim_lane(lane, view);
  std::vector<std::string> saved;
  const fs::path png = a.out.empty() ? run_dir / "swim_lane.png" : fs::path(a.out);
  analyze::write_scene_png(scene, png.string());
  saved.push_back(png.string());
  if (a.html) {
    const fs::path html = a.out.empty() ? run_dir / "swim_lane.html" : fs::path(a.out).replace_extension(".html");
    analyze::write_file_whole(html.string(),
                              analyze::swim_lane_html(scene, view.run_name, analyze::swim_lane_payload(lane, view).dump()));
    saved.push_back(html.string());
  }
  return saved;
}

int run_swim_lane(const SwimLaneArgs& a) {
  if (a.run_dirs.empty()) {
    std::cerr << "error: at least one run directory is required\n";
    return 2;
  }
  if (!a.out.empty() && a.run_dirs.size() > 1) {
    std::cerr << "error: --out only valid with a single run dir\n";
    return 2;
  }
  int failures = 0;
  for (const std::string& dir : a.run_dirs) {
    try {
      for (const std::string& path : swim_lane_one(dir, a)) std::cout << "saved " << path << "\n" << std::flush;
    } catch (const analyze::SwimLaneError& e) {
      std::cerr << "skip " << dir << ": " << e.what() << "\n";
      ++failures;
    }
  }
  return failures ? 1 : 0;
}

struct TurnMessagesArgs {
  std::vector<std::string> run_dirs;
  bool empty_run_dirs = false;
  std::string out;
  int64_t limit_conversations = 40;
  int64_t max_turns = 60;
  int64_t content_cap = 8000;
};

// One run directory (or raw JSONL file): the page. Returns the path written.
fs::path turn_messages_one(const fs::path& run, const TurnMessagesArgs& a) {
  const std::vector<std::string> files = analyze::find_raw_records(run.string());
  if (files.empty())
    throw analyze::TurnMessagesError("no raw records under " + run.string() +
                                     "; run aiperf with --export-level raw first");
  std::vector<std::string> skipped;
  std::vector<analyze::TurnRecord> records = analyze::load_turn_records(files, skipped);
  for (const std::string& s : skipped) std::cerr << "warning: " << s << "\n";
  if (records.empty()) throw analyze::TurnMessagesError("no valid raw records in " + run.string());
  const auto payload = analyze::build_turn_payload(std::move(records), files.size(),
                                                   {a.content_cap, a.limit_conversations, a.max_turns});
  std::error_code ec;
  const fs::path dir = fs::is_regular_file(run, ec) ? run.parent_path() : run;
  const fs::path out = a.out.empty() ? dir / "turn_messages.html" : fs::path(a.out);
  std::string name = fs::absolute(dir).lexically_normal().filename().string();
  if (name.empty()) name = fs::absolute(dir).lexically_normal().parent_path().filename().string();
  try {
    analyze::write_file_whole(out.string(), analyze::turn_messages_html(payload, name));
  } catch (const analyze::SwimLaneError& e) {
    throw analyze::TurnMessagesError(std::string("could not write ") + out.string() + ": " + e.what());
  }
  return out;
}

int run_turn_messages(const TurnMessagesArgs& a) {
  if (!a.out.empty() && a.run_dirs.size() > 1) {
    std::cerr << "error: --out only valid with a single run dir\n";
    return 2;
  }
  if (a.run_dirs.empty()) {
    std::cerr << "error: at least one run directory is required\n";
    return 2;
  }
  int failures = 0;
  for (const std::string& dir : a.run_dirs) {
    try {
      const fs::path saved = turn_messages_one(dir, a);
      std::error_code ec;
      const auto kb = fs::file_size(saved, ec) / 1024;
      std::string size = std::to_string(kb);
      for (int i = static_cast<int>(size.size()) - 3; i > 0; i -= 3) size.insert(static_cast<size_t>(i), ",");
      std::cout << "saved " << saved.string() << " (" << size << " KB)\n" << std::flush;
    } catch (const analyze::TurnMessagesError& e) {
      std::cerr << "skip " << dir << ": " << e.what() << "\n";
      ++failures;
    }
  }
  return failures ? 1 : 0;
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

  CLI::App* analyze_cmd = app.add_subcommand(
      "analyze", "Post-run analysis of completed AIPerf artifacts (swim-lane, turn-messages)");
  analyze_cmd->require_subcommand(1);
  auto lanes = std::make_shared<SwimLaneArgs>();
  CLI::App* lanes_cmd =
      analyze_cmd->add_subcommand("swim-lane", "Render a per-session swim-lane PNG with concurrency curve underneath");
  lanes_cmd->add_option("run-dirs,--run-dirs", lanes->run_dirs, "One or more AIPerf run directories");
  lanes_cmd->add_flag("--empty-run-dirs", lanes->empty_run_dirs, "Pass an empty list of run directories")->group("");
  lanes_cmd->add_option("-o,--out", lanes->out, "Output PNG path. Only valid when a single run directory is given");
  lanes_cmd->add_option("-c,--concurrency", lanes->concurrency,
                        "Target concurrency to draw as a reference line in the concurrency panel");
  lanes_cmd->add_option("--ramp", lanes->ramp,
                        "Ramp duration in seconds for the ramp-done marker; overrides profile_export_aiperf.json")
      ->check(kNonNegative);
  lanes_cmd->add_flag("--html,!--no-html", lanes->html,
                      "Also write an HTML viewer (swim_lane.html, or the --out path with an .html suffix)");

  auto turns = std::make_shared<TurnMessagesArgs>();
  CLI::App* turns_cmd = analyze_cmd->add_subcommand(
      "turn-messages", "Render a collapsible HTML viewer of per-turn input messages (needs --export-level raw)");
  turns_cmd->add_option("run-dirs,--run-dirs", turns->run_dirs,
                        "One or more AIPerf run directories (or raw-record JSONL files)");
  turns_cmd->add_flag("--empty-run-dirs", turns->empty_run_dirs, "Pass an empty list of run directories")->group("");
  turns_cmd->add_option("-o,--out", turns->out, "Output HTML path. Only valid when a single run directory is given");
  turns_cmd->add_option("-n,--limit-conversations", turns->limit_conversations,
                        "Max conversations to render (roots first, then by earliest request time)")
      ->capture_default_str();
  turns_cmd->add_option("--max-turns", turns->max_turns, "Max turns rendered per conversation")->capture_default_str();
  turns_cmd->add_option("--content-cap", turns->content_cap, "Max characters kept per unique message body")
      ->capture_default_str();

  return [trace_cmd, trace, lanes_cmd, lanes, turns_cmd, turns]() -> int {
    if (*turns_cmd) {
      if (turns->empty_run_dirs) turns->run_dirs.clear();
      return run_turn_messages(*turns);
    }
    if (*trace_cmd) return run_analyze_trace(*trace);
    if (*lanes_cmd) {
      if (lanes->empty_run_dirs) lanes->run_dirs.clear();
      return run_swim_lane(*lanes);
    }
    return -1;
  };
}

}  // namespace aiperf::cli
