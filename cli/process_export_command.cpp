#include "process_export_command.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "endpoints/endpoint.h"
#include "export/client_server.h"
#include "export/console_table.h"
#include "export/records_jsonl_reader.h"
#include "export/summary_csv.h"
#include "export/summary_json.h"
#include "metrics/aggregator.h"
#include "util/uuid.h"

namespace aiperf::cli {

namespace {

namespace fs = std::filesystem;

constexpr const char* kRecordsFile = "profile_export.jsonl";

// Inputs carry only what the runs measured, so every capability is switched on: a metric is
// then reported exactly when its values (or, for derived metrics, its inputs) are present in
// the files. Goodput SLOs and INTERNAL inputs (requested_osl) are not in the records, so
// good_request_count / goodput and the OSL mismatch count cannot be recomputed.
metrics::MetricContext merge_context() {
  metrics::MetricContext ctx;
  ctx.streaming = true;
  ctx.produces_tokens = true;
  ctx.tokenizes_input = true;
  ctx.supports_reasoning = true;
  ctx.supports_audio = true;
  ctx.supports_images = true;
  ctx.supports_video = true;
  ctx.produces_video = true;
  ctx.http_trace = true;
  return ctx;
}

struct Args {
  std::string version;
  std::vector<std::string> inputs;
  std::string output_dir = "artifacts/merged";
};

// Whether the merged runs sent role messages the server renders with its chat template (then more
// input tokens at the server is expected, not warned about): read from the summary beside any
// run's records (input_config.endpoint.type); false when none says so.
bool runs_send_chat_messages(const std::vector<std::string>& records_paths) {
  for (const std::string& p : records_paths) {
    std::ifstream in(fs::path(p).parent_path() / "profile_export_aiperf.json");
    if (!in) continue;
    const nlohmann::json summary = nlohmann::json::parse(in, nullptr, false);
    if (!summary.is_object()) continue;
    nlohmann::json type = summary.value("/input_config/endpoint/type"_json_pointer, nlohmann::json());
    // AIPerf 0.13 writes endpoint.type only when it was given: an endpoint without one is chat.
    if (type.is_null() && summary.value("/input_config/endpoint"_json_pointer, nlohmann::json()).is_object())
      type = "chat";
    if (!type.is_string()) continue;
    const endpoints::EndpointInfo* ep = endpoints::find_endpoint(type.get<std::string>());
    if (ep && ep->chat_messages) return true;
  }
  return false;
}

// DIR -> DIR/profile_export.jsonl; a file (a run with --profile-export-prefix) as given.
std::string records_path(const std::string& input) {
  std::error_code ec;
  return fs::is_directory(input, ec) ? (fs::path(input) / kRecordsFile).string() : input;
}

int run(const Args& args) {
  std::vector<std::string> paths;
  for (const std::string& in : args.inputs) {
    const std::string p = records_path(in);
    std::error_code ec;
    if (!fs::is_regular_file(p, ec)) {
      std::cerr << "Error: " << p << ": no such file (expected a run's artifact directory or its "
                << kRecordsFile << ")\n";
      return 2;
    }
    paths.push_back(p);
  }

  std::error_code ec;
  const fs::path out_dir = fs::absolute(args.output_dir);
  // Writing the merged records over an input would destroy it before it is read.
  for (const std::string& p : paths) {
    if (fs::weakly_canonical(p, ec) == fs::weakly_canonical(out_dir / kRecordsFile, ec)) {
      std::cerr << "Error: --output-dir " << args.output_dir << " holds input " << p
                << "; choose another directory\n";
      return 2;
    }
  }
  fs::create_directories(out_dir, ec);
  if (ec) {
    std::cerr << "Error: cannot create " << args.output_dir << ": " << ec.message() << "\n";
    return 1;
  }
  // The merged records too, so merged directories can be merged again.
  std::ofstream merged(out_dir / kRecordsFile, std::ios::binary | std::ios::trunc);

  metrics::Aggregator aggregator(merge_context());
  int64_t start_ns = 0, end_ns = 0;
  bool cancelled = false;
  for (const std::string& p : paths) {
    exporting::JsonlSpan span;
    try {
      span = exporting::read_records_jsonl(p, aggregator, [&](const std::string& line) { merged << line << '\n'; });
    } catch (const std::exception& e) {
      std::cerr << "Error: " << e.what() << "\n";
      return 1;
    }
    if (span.start_ns != 0 && (start_ns == 0 || span.start_ns < start_ns)) start_ns = span.start_ns;
    end_ns = std::max(end_ns, span.end_ns);
    cancelled = cancelled || span.cancelled;
  }
  merged.close();
  if (!merged) {
    std::cerr << "Error: cannot write " << (out_dir / kRecordsFile).string() << "\n";
    return 1;
  }

  proto::ProfileResults results = aggregator.finalize();
  results.set_start_ns(start_ns);
  results.set_end_ns(end_ns);
  exporting::SummaryInfo info;
  info.aiperf_version = args.version;
  info.benchmark_id = util::uuid4();
  info.input_config = nlohmann::ordered_json{{"process_export_files", {{"input_files", paths}}}};
  info.was_cancelled = cancelled;
  info.start_ns = start_ns;
  info.end_ns = end_ns;
  // From the records' usage and timings metrics; the runs' server counters cannot be merged.
  info.client_server = exporting::client_server_section(results, std::nullopt, false, runs_send_chat_messages(paths));
  const std::string json_path = (out_dir / "profile_export_aiperf.json").string();
  const std::string csv_path = (out_dir / "profile_export_aiperf.csv").string();
  try {
    exporting::write_summary_json(json_path, results, info);
    exporting::write_summary_csv(csv_path, results, exporting::format_client_server_csv(info.client_server));
  } catch (const std::exception& e) {
    std::cerr << "Error: " << e.what() << "\n";
    return 1;
  }

  const bool tty = isatty(STDOUT_FILENO) != 0;
  std::cout << exporting::format_console_table(results, "LLM Metrics", tty);
  std::cout << exporting::format_client_server_console(info.client_server, tty);
  std::cout << "\nMerged " << results.completed() << " records from " << paths.size() << " files\n"
            << "CSV Export: " << csv_path << "\n"
            << "JSON Export: " << json_path << "\n";
  std::cout.flush();
  return std::cout ? 0 : 1;
}

}  // namespace

std::function<int()> add_process_export_command(CLI::App& app, const std::string& version) {
  auto args = std::make_shared<Args>();
  args->version = version;
  CLI::App* cmd = app.add_subcommand(
      "process-export-files", "Merge the profile_export.jsonl of several runs and recompute the summary");
  cmd->add_option("inputs", args->inputs, "Artifact directories (or profile_export.jsonl files) to merge")
      ->required();
  cmd->add_option("--output-dir", args->output_dir,
                  "Where profile_export_aiperf.json/.csv and the merged profile_export.jsonl go")
      ->capture_default_str();
  return [args]() -> int { return run(*args); };
}

}  // namespace aiperf::cli
