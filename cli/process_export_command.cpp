#include "process_export_command.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "export/console_table.h"
#include "export/summary_csv.h"
#include "export/summary_json.h"
#include "metrics/aggregator.h"
#include "metrics/metric_registry.h"
#include "metrics/metric_units.h"
#include "util/uuid.h"

namespace aiperf::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

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

int64_t int_field(const json& j, const char* key) { return j.contains(key) ? j.at(key).get<int64_t>() : 0; }

std::string string_field(const json& j, const char* key) {
  return j.contains(key) ? j.at(key).get<std::string>() : std::string();
}

// Display value from the file -> the metric's base unit. Integer metrics (ns, tokens) are
// integral in base units, so rounding undoes the ms -> ns floating-point residue and the
// merged statistics equal those of the original run to the last digit.
double to_base(const metrics::MetricDescriptor& m, double display) {
  const double v = metrics::units::convert(display, m.display_unit, m.unit);
  return m.value_type == metrics::ValueType::kInt ? std::round(v) : v;
}

// One profile_export.jsonl line (spec §7.5) back into the record the records service saw.
// Tags this build does not know are skipped, like the aggregator does. Throws on a line that
// is not such an object.
proto::MetricRecord parse_record(const std::string& line) {
  const json j = json::parse(line);
  const json& md = j.at("metadata");
  proto::MetricRecord rec;
  proto::RecordMetadata* out = rec.mutable_metadata();
  out->set_session_num(md.value("session_num", uint64_t{0}));
  out->set_x_request_id(string_field(md, "x_request_id"));
  out->set_x_correlation_id(string_field(md, "x_correlation_id"));
  out->set_conversation_id(string_field(md, "conversation_id"));
  out->set_turn_index(md.value("turn_index", uint32_t{0}));
  out->set_credit_issued_ns(int_field(md, "credit_issued_ns"));
  out->set_request_start_ns(int_field(md, "request_start_ns"));
  if (md.contains("request_ack_ns")) out->set_request_ack_ns(int_field(md, "request_ack_ns"));
  out->set_request_end_ns(int_field(md, "request_end_ns"));
  out->set_worker_id(string_field(md, "worker_id"));
  out->set_record_processor_id(string_field(md, "record_processor_id"));
  out->set_phase(string_field(md, "benchmark_phase") == "warmup" ? proto::PHASE_WARMUP : proto::PHASE_PROFILING);
  out->set_was_cancelled(md.value("was_cancelled", false));
  if (md.contains("cancellation_time_ns")) out->set_cancellation_time_ns(int_field(md, "cancellation_time_ns"));
  out->set_intended_start_ns(int_field(md, "intended_start_ns"));

  const metrics::MetricRegistry& registry = metrics::builtin_metrics();
  const json metrics_obj = j.value("metrics", json::object());  // named: items() must not outlive it
  for (const auto& [tag, entry] : metrics_obj.items()) {
    const metrics::MetricDescriptor* m = registry.find(tag);
    if (!m) continue;
    const json& value = entry.at("value");
    proto::MetricValue* mv = rec.add_metrics();
    mv->set_tag(tag);
    if (value.is_array()) {
      mv->set_is_list(true);
      for (const json& v : value) mv->add_values(to_base(*m, v.get<double>()));
    } else {
      mv->set_value(to_base(*m, value.get<double>()));
    }
  }

  if (j.contains("error")) {
    const json& e = j.at("error");
    proto::ErrorDetails* err = rec.mutable_error();
    if (e.contains("code") && !e.at("code").is_null()) err->set_code(e.at("code").get<int32_t>());
    err->set_type(string_field(e, "type"));
    err->set_message(string_field(e, "message"));
  }
  return rec;
}

struct Args {
  std::string version;
  std::vector<std::string> inputs;
  std::string output_dir = "artifacts/merged";
};

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
    std::ifstream in(p, std::ios::binary);
    std::string line;
    for (size_t n = 1; std::getline(in, line); ++n) {
      if (line.empty()) continue;
      proto::MetricRecord rec;
      try {
        rec = parse_record(line);
      } catch (const std::exception& e) {
        std::cerr << "Error: " << p << " line " << n << ": " << e.what() << "\n";
        return 1;
      }
      const proto::RecordMetadata& md = rec.metadata();
      if (md.phase() == proto::PHASE_PROFILING) {
        if (start_ns == 0 || md.request_start_ns() < start_ns) start_ns = md.request_start_ns();
        end_ns = std::max(end_ns, md.request_end_ns());
        cancelled = cancelled || md.was_cancelled();
      }
      aggregator.add(rec);
      merged << line << '\n';
    }
    if (in.bad()) {
      std::cerr << "Error: cannot read " << p << "\n";
      return 1;
    }
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
  const std::string json_path = (out_dir / "profile_export_aiperf.json").string();
  const std::string csv_path = (out_dir / "profile_export_aiperf.csv").string();
  try {
    exporting::write_summary_json(json_path, results, info);
    exporting::write_summary_csv(csv_path, results);
  } catch (const std::exception& e) {
    std::cerr << "Error: " << e.what() << "\n";
    return 1;
  }

  std::cout << exporting::format_console_table(results, "LLM Metrics", isatty(STDOUT_FILENO) != 0);
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
