#include "report.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <vector>

#include "endpoints/endpoint.h"
#include "export/client_server.h"
#include "export/metric_lookup.h"
#include "export/console_table.h"
#include "export/summary_csv.h"
#include "export/summary_json.h"
#include "export/trace_timing_table.h"
#include "accuracy/results.h"
#include "export/warning_panels.h"
#include "log/log.h"
#include "util/output_paths.h"
#include "util/version.h"

namespace aiperf::controller {
int write_report(const config::RunConfig& config, const proto::ProfileResults& run_results,
                 const proto::TelemetryResults& telemetry, bool services_ok) {
  // The GPU energy-efficiency metrics join the run's in the summary JSON and CSV (their console
  // table is in the telemetry part).
  proto::ProfileResults with_efficiency;
  if (!telemetry.efficiency_metrics().empty()) {
    with_efficiency = run_results;
    with_efficiency.mutable_records()->MergeFrom(telemetry.efficiency_metrics());
  }
  const proto::ProfileResults& results = telemetry.efficiency_metrics().empty() ? run_results : with_efficiency;
  exporting::SummaryInfo info;
  info.aiperf_version = util::kVersion;
  info.benchmark_id = config.benchmark_id;
  info.input_config = config::input_config_json(config);
  info.was_cancelled = results.was_cancelled();
  info.start_ns = results.start_ns();
  info.end_ns = results.end_ns();
  info.telemetry_data_json = telemetry.telemetry_data_json();
  // A --scenario run: the lock's verdict; more context overflows than the limit, or a cancelled
  // run, make it invalid (AIPerf's compute_submission_outcome).
  if (const config::ScenarioOutcome& sc = config.loadgen.scenario; !sc.name.empty()) {
    bool valid = sc.submission_valid;
    std::vector<std::string> reasons = sc.submission_invalid_reasons;
    // Context overflows: error answers naming the context limit, over every answer.
    const auto& agentic = config.loadgen.agentic_replay;
    uint64_t overflows = 0;
    for (const auto& e : results.error_summary())
      if (config::is_context_overflow(e.error_details().message(), agentic.context_overflow_substrings))
        overflows += e.count();
    if (results.completed() > 0 && static_cast<double>(overflows) / static_cast<double>(results.completed()) >
                                       agentic.context_overflow_rate_limit) {
      valid = false;
      reasons.emplace_back("context_overflow_rate_exceeded");
    }
    if (results.was_cancelled()) {
      valid = false;
      if (std::find(reasons.begin(), reasons.end(), "run_cancelled") == reasons.end())
        reasons.emplace_back("run_cancelled");
    }
    info.metadata["scenario"] = sc.name;
    info.metadata["submission_valid"] = valid;
    if (!reasons.empty()) info.metadata["submission_invalid_reasons"] = reasons;
  }
  const auto& load = config.loadgen;
  const bool warmup = load.warmup_request_count.value_or(0) > 0 || load.warmup_duration.value_or(0) > 0 ||
                      load.num_warmup_sessions.value_or(0) > 0;
  const endpoints::EndpointInfo* ep = endpoints::find_endpoint(config.endpoint.type);
  info.client_server = exporting::client_server_section(
      results, exporting::counter_totals_from_json(telemetry.server_counters_json()), warmup, ep && ep->chat_messages);

  const std::string json_path = util::artifact_file(config, "profile_export_aiperf.json");
  const std::string csv_path = util::artifact_file(config, "profile_export_aiperf.csv");
  // A file that cannot be written (a full disk) must not cost the console report.
  std::vector<std::string> write_errors;
  try {
    exporting::write_summary_json(json_path, results, info);
  } catch (const std::exception& e) {
    write_errors.push_back(e.what());
  }
  try {
    std::string extra_csv = telemetry.csv_section();
    const std::string client_server_csv = exporting::format_client_server_csv(info.client_server);
    if (!client_server_csv.empty()) extra_csv += (extra_csv.empty() ? "" : "\r\n") + client_server_csv;
    exporting::write_summary_csv(csv_path, results, extra_csv);
  } catch (const std::exception& e) {
    write_errors.push_back(e.what());
  }
  for (const auto& w : telemetry.warnings()) std::cerr << "Warning: " << w << "\n";

  // The console report: the tables and panels, ASCII on a pipe; the same report in box glyphs
  // is saved as profile_export_console.txt (AIPerf 0.13's plain-text copy of its console).
  auto console_report = [&](bool unicode) {
    std::string out =
        exporting::format_console_table(results, std::string(ep ? ep->metrics_title : "LLM Metrics"), unicode);
    if (config.output.show_trace_timing) out += exporting::format_trace_timing_table(results, unicode);
    // The GPU part (platform panel, tables), rendered by the telemetry service.
    out += unicode ? telemetry.console_unicode() : telemetry.console_ascii();
    out += exporting::format_error_table(results, unicode);
    out += exporting::format_warning_panels(results, unicode, config.output.usage_pct_diff_threshold);
    out += accuracy::format_console(results, unicode);  // --accuracy-benchmark's table
    out += exporting::format_client_server_console(info.client_server, unicode);
    return out;
  };
  const bool tty = isatty(STDOUT_FILENO);
  const std::string console_text = console_report(true);
  std::cout << (tty ? console_text : console_report(false));
  try {
    util::write_file_atomically(util::artifact_file(config, "profile_export_console.txt"), console_text);
  } catch (const std::exception& e) {
    write_errors.push_back(e.what());
  }

  const proto::MetricResult* duration = exporting::find_metric(results, "benchmark_duration");
  const proto::MetricResult* count = exporting::find_metric(results, "request_count");
  const proto::MetricResult* error_count = exporting::find_metric(results, "error_request_count");
  const double ok = count && count->has_avg() ? count->avg() : 0;
  const double failed = error_count && error_count->has_avg() ? error_count->avg() : 0;

  std::cout << "\nCLI Command: " << config.service.cli_command << "\n";
  if (duration && duration->has_avg()) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", duration->avg());
    std::cout << "Benchmark Duration: " << buf << " sec" << (results.was_cancelled() ? " (cancelled early)" : "") << "\n";
  }
  std::cout << "CSV Export: " << csv_path << "\n";
  std::cout << "JSON Export: " << json_path << "\n";
  if (config.output.slice_duration) {
    // Written by the records service, only when some slice had records.
    for (const auto& [label, name] : {std::pair{"Timeslice CSV Export", "profile_export_aiperf_timeslices.csv"},
                                      std::pair{"Timeslice JSON Export", "profile_export_aiperf_timeslices.json"}}) {
      const std::string path = util::artifact_file(config, name);
      if (access(path.c_str(), F_OK) == 0) std::cout << label << ": " << path << "\n";
    }
  }
  if (config.output.export_level == config::ExportLevel::kRaw) {
    std::cout << "Raw Records: " << util::artifact_file(config, "profile_export_raw.jsonl") << "\n";
  }
  for (const auto& line : telemetry.export_lines()) std::cout << line << "\n";
  if (config.accuracy.enabled()) {
    const std::string path = config.output.artifact_dir + "/accuracy_results.csv";
    if (access(path.c_str(), F_OK) == 0) std::cout << "accuracy_csv: " << path << "\n";
  }
  std::cout << "Log File: " << config.output.artifact_dir << "/logs/aiperf.log\n";

  int rc = services_ok && write_errors.empty() ? 0 : 1;
  for (const auto& e : write_errors) {
    std::cerr << "Error: " << e << "\n";
    AIPERF_LOG(kError) << e;
  }
  if (ok == 0) {
    std::cerr << "Error: no request succeeded (" << static_cast<uint64_t>(failed) << " failed)\n";
    rc = 1;
  }
  if (config.service.fail_on_error_rate && ok + failed > 0) {
    const double rate = 100.0 * failed / (ok + failed);
    if (rate > *config.service.fail_on_error_rate) {
      std::fprintf(stderr, "Error: error rate %.2f%% exceeds --fail-on-error-rate %.2f%%\n", rate,
                   *config.service.fail_on_error_rate);
      rc = 1;
    }
  }
  AIPERF_LOG(kInfo) << "run finished: " << ok << " successful, " << failed << " failed, exit code " << rc;
  return rc;
}

}  // namespace aiperf::controller
