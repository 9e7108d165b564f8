#include "genai_perf_process.h"

#include <filesystem>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "environment.h"
#include "genai_perf_export.h"
#include "genai_perf_merge.h"
#include "genai_perf_options.h"
#include "genai_perf_process_args.h"
#include "genai_perf_telemetry.h"
#include "python_json.h"
#include "tokenizer/tokenizer.h"

namespace aiperf::cli::genai_perf {
namespace {

namespace fs = std::filesystem;
using J = nlohmann::ordered_json;

void write_text(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("Error writing file '" + path.string() + "'");
}

// What the command writes, all of it computed before anything is.
struct Outputs {
  fs::path dir;
  std::string merged_export, stats_json, csv, console;
  std::string stem;
  std::string export_name;
};

Outputs compute(const ProcessArgs& a) {
  if (!fs::is_directory(a.input_path))
    throw MergeError("User Config: input path " + python_path(a.input_path) + " is not a valid directory.");
  const std::vector<ExportPair> pairs = find_export_pairs(a.input_path);
  if (pairs.empty())
    throw MergeError(
        "no run to merge in " + python_path(a.input_path) +
        ": none of its subdirectories holds a profile export pair (<name>.json and <name>_genai_perf.json, "
        "as `genai-perf profile` writes them)");
  if (a.verbose) {
    std::cout << "Merging " << pairs.size() << " runs:\n";
    for (const ExportPair& p : pairs)
      std::cout << "  " << p.pa_file.string() << ", " << p.gap_file.filename().string() << "\n";
  }
  const MergedExports merged = merge_exports(pairs);
  const Format format = merged_format(merged.pa);
  check_load_level(merged.pa, merged.input_config);

  // GenAI-Perf counts tokens again, with the runs' tokenizer (the model's when none was named).
  const J& tc = merged.input_config["tokenizer"];
  std::string name = tc.value("name", "");
  if (name.empty()) name = merged.input_config["model_names"][0].get<std::string>();
  tok::TokenizerPtr tokenizer;
  try {
    const tok::HubEnv env = hub_env();
    tokenizer = tok::load_tokenizer(tok::resolve_tokenizer_path(name, tc.value("revision", "main"), true, env),
                                    env.tokenizer_cache);
  } catch (const std::exception& e) {
    throw MergeError("the runs' tokenizer '" + name + "' did not load: " + e.what());
  }
  const std::vector<PaRequest> requests = merged_requests(
      merged.pa, format, [&](const std::string& text) { return static_cast<int64_t>(tokenizer->count(text)); });
  if (requests.empty()) throw MergeError("the runs hold no requests");
  J stats = merged_statistics(requests, format, merged);
  if (!stats.contains("request_latency")) throw MergeError("no merged request has a response with content");

  Outputs o;
  o.dir = process_artifact_directory(merged.input_config, a);
  o.export_name = python_path(a.profile_export_file);
  o.stem = fs::path(o.export_name).stem().string();
  o.merged_export = python_json_dumps(merged.pa);
  const bool streaming = merged.input_config["endpoint"].value("streaming", false);
  const J telemetry = aggregate_telemetry(merged.telemetry);
  o.console = console_table(stats, format, streaming);
  if (a.verbose) o.console += telemetry_console(telemetry);  // GenAI-Perf prints the GPU tables with -v only
  o.csv = csv_text(stats, format, streaming) + telemetry_csv(telemetry);
  if (const J t = telemetry_json(telemetry); !t.is_null()) stats["telemetry_stats"] = t;
  stats["input_config"] = process_input_config(merged.input_config, a);
  if (const J sessions = session_statistics(merged.pa, requests, format); !sessions.is_null())
    stats["sessions"] = sessions;
  o.stats_json = stats.dump(2, ' ', true);  // json.dumps(indent=2): non-ASCII as \uXXXX
  return o;
}

}  // namespace

int run_process_export_files(const std::vector<std::string>& words) {
  ProcessArgs a;
  try {
    a = parse_process_args(words);
  } catch (const GenAiPerfOptionError& e) {
    std::cerr << "Error: " << e.what() << "\n";
    return 2;
  }
  if (a.help) {
    std::cout << process_help();
    return 0;
  }
  if (const std::string error = process_config_error(a); !error.empty()) {
    std::cerr << "Error: " << error << "\n";
    return 1;
  }
  if (python_path(a.input_path) == python_path(a.artifact_dir))
    std::cerr << "Warning: Input directory and artifact directory are the same. This could lead to potential issues "
                 "such as file overwriting or unintended aggregation of results from previous runs.\n";
  Outputs o;
  try {
    o = compute(a);
  } catch (const std::exception& e) {
    std::cerr << "Error: " << e.what() << "\n";
    return 1;
  }
  try {
    fs::create_directories(o.dir);
    write_text(o.dir / o.export_name, o.merged_export);
    std::cout << o.console;
    const fs::path json_path = o.dir / (o.stem + "_genai_perf.json");
    const fs::path csv_path = o.dir / (o.stem + "_genai_perf.csv");
    std::cout << "Generating " << json_path.string() << "\n";
    write_text(json_path, o.stats_json);
    std::cout << "Generating " << csv_path.string() << "\n";
    write_text(csv_path, o.csv);
  } catch (const std::exception& e) {
    std::cerr << "Error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace aiperf::cli::genai_perf
