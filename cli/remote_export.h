// After a run: the Output section's remote exports, from the files the run wrote.
//   --otel-url: one OTLP/HTTP JSON POST of the per-request metric histograms (otel_payload.h).
//   --mlflow-tracking-uri: a run through the MLflow REST API (experiment by name or created,
//     runs/create with the name, tags and parent, runs/log-batch of the summary statistics and
//     params, the artifact files through the mlflow-artifacts proxy, mlflow_export.json, then
//     runs/update FINISHED).
// Best effort by contract: every failure (refused, HTTP error, timeout) is a warning in the log
// and on stderr; nothing here throws or changes the run's exit code. Each request has a
// deadline (AIPERF_OTEL_REQUEST_TIMEOUT_SECONDS, default 10 s, as AIPerf).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "control/control_transport.h"

namespace aiperf::cli {

struct RemoteExportSettings {
  std::string artifact_dir;
  std::string records_jsonl;  // profile_export.jsonl (its prefixed name)
  std::string summary_json;   // profile_export_aiperf.json
  std::string benchmark_id;
  std::string endpoint_type;
  std::vector<std::string> urls;
  std::vector<std::string> models;
  std::vector<std::pair<std::string, std::string>> params;  // MLflow params, in order
  double timeout_s = 10.0;
  int64_t now_unix_ns = 0;
  int64_t start_unix_ns = 0;
  // OTel
  std::string otel_endpoint;  // "" = none
  bool stream_metrics = true, stream_timing = true;
  std::string gen_ai_provider;
  std::vector<std::pair<std::string, std::string>> resource_attributes;
  // MLflow
  std::string mlflow_uri;  // "" = none
  std::string mlflow_experiment = "aiperf";
  std::optional<std::string> mlflow_run_name, mlflow_parent_run_id;
  std::vector<std::pair<std::string, std::string>> mlflow_tags;
  std::vector<std::string> mlflow_artifact_globs;  // empty = AIPerf's defaults
  std::string version;                             // aiperf.version tag
};

// The MLflow metric payload of a summary (profile_export_aiperf.json): "<tag>" for avg and
// "<tag>.<stat>" for the other statistics, plus aiperf.completed_requests. Sorted by key.
std::vector<std::pair<std::string, double>> mlflow_metric_payload(const nlohmann::json& summary);

// AIPerf's default artifact globs, or the given ones, expanded under `dir` ("**" any depth):
// sorted relative paths, each once, mlflow_export.json excluded.
std::vector<std::string> mlflow_artifact_files(const std::string& dir, const std::vector<std::string>& globs);

// Both exports, as configured; returns the warnings it logged (for tests).
std::vector<std::string> run_remote_exports(const RemoteExportSettings& s, control::ControlTransport& transport);

}  // namespace aiperf::cli
