// profile_export_aiperf.json (spec §7.4).
#pragma once
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "results.pb.h"

namespace aiperf::exporting {

struct SummaryInfo {
  std::string aiperf_version;
  std::string benchmark_id;    // UUID4, shared with the server-metrics exports
  // The user configuration, unset fields removed; ordered so keys keep AIPerf's declaration
  // order (a plain nlohmann::json converts implicitly but sorts keys).
  nlohmann::ordered_json input_config;
  bool was_cancelled = false;
  int64_t start_ns = 0;        // wall ns of the profiling phase start; 0 = unknown (omitted)
  int64_t end_ns = 0;          // wall ns of the profiling phase end; 0 = unknown (omitted)
  // The telemetry service's "telemetry_data" object as JSON text; "" = key omitted.
  std::string telemetry_data_json;
  // Ours: the Client vs Server section (export/client_server.h), key "client_server" after the
  // metrics; null = omitted.
  nlohmann::ordered_json client_server;
  // AIPerf's run metadata ({"scenario", "submission_valid", "submission_invalid_reasons"}) of a
  // --scenario run, key "metadata" last; null = omitted.
  nlohmann::ordered_json metadata;
};

// The JSON text (2-space indent, trailing newline omitted). Key order: schema_version,
// aiperf_version, benchmark_id, the predeclared metric keys present, telemetry_data, input_config,
// was_cancelled, error_summary, start_time, end_time, then the other metrics in result order.
// Metrics: {"unit","avg","p1".."p99","min","max","std"} with absent stats omitted;
// INTERNAL/EXPERIMENTAL metrics left out.
std::string format_summary_json(const proto::ProfileResults& results, const SummaryInfo& info);

// Writes format_summary_json() to path atomically. Throws std::runtime_error on I/O failure.
void write_summary_json(const std::string& path, const proto::ProfileResults& results,
                        const SummaryInfo& info);

// One metric object {"unit","avg","p1".."p99","min","max","std"} (absent stats omitted) of an
// indent-2 dump whose key sits `depth` levels deep (1 = a top-level member); shared with the
// timeslice JSON.
void append_metric_json(std::string& out, const proto::MetricResult& m, int depth);

// `j` dumped with indent 2 as a value `depth` levels deep (e.g. input_config at depth 1).
std::string nested_json_at(const nlohmann::ordered_json& j, int depth);

// Wall ns -> local naive ISO datetime like Python datetime.fromtimestamp(ns / 1e9).isoformat():
// "2025-12-15T02:04:23.028529" (no fraction when the microseconds are 0).
std::string local_iso_datetime(int64_t wall_ns);

}  // namespace aiperf::exporting
