// GenAI-Perf 0.0.16's files, written from a run of our engine:
//   profile_export.json             perf_analyzer's per-request layout (experiments / requests /
//                                   window_boundaries, version, service_kind, endpoint), built
//                                   from our profile_export_raw.jsonl
//   profile_export_genai_perf.json  the statistics (genai_perf_metrics.h) + input_config
//   profile_export_genai_perf.csv   request metrics table, blank row, system metrics (CRLF rows,
//                                   values "{:,.2f}", missing ones "N/A")
//   inputs.json                     {"data": [{"payload": [body]}, ...]}
// and its console table ("NVIDIA GenAI-Perf | LLM Metrics", rich's heavy-head box).
#pragma once
#include <istream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "genai_perf_metrics.h"

namespace aiperf::cli::genai_perf {

// The profiling-phase, successful requests of our raw export (profile_export_raw.jsonl), in
// request order, with the token counts of the matching records (profile_export.jsonl, joined by
// x_request_id; OSL is the content's token count, as GenAI-Perf counts it). Malformed lines
// throw std::runtime_error naming the line.
std::vector<PaRequest> requests_from_exports(std::istream& raw_jsonl, std::istream& records_jsonl);

// perf_analyzer's profile_export.json for one experiment (mode "concurrency" or "request_rate").
// `window_boundaries`: the measurement windows' edges (time windows); empty: one window from the
// first request's start to the last response.
nlohmann::ordered_json pa_profile_export(const std::vector<PaRequest>& requests, const std::string& mode,
                                         const nlohmann::ordered_json& value, const std::string& service_kind,
                                         const std::string& endpoint, const std::string& version,
                                         const std::vector<int64_t>& window_boundaries = {});

// GenAI-Perf's inputs.json from ours ({"data": [{"session_id", "payloads": [...]}]}).
// `sessions`: each row also carries its session ("session_id": [id]) and, but on a session's
// last turn, the delay before the next one ("delay": [ms]), as GenAI-Perf writes session rows.
nlohmann::ordered_json genai_inputs(const nlohmann::ordered_json& aiperf_inputs, bool sessions = false);

// The delays GenAI-Perf records per session row, from our inputs.json (the engine writes each
// turn's delay before it under --genai-perf-payloads): conversation id -> the delay after each
// turn (ms), the last turn having none.
std::map<std::string, std::vector<int64_t>> session_delays(const nlohmann::ordered_json& aiperf_inputs);

// The CSV file's text. `streaming` decides, as in GenAI-Perf, whether the streaming-only rows
// (TTFT, TTST, ITL, per-user throughput) appear (embeddings show every row they have).
std::string csv_text(const nlohmann::ordered_json& stats, Format format, bool streaming);

// The console table, `width` columns wide at most (rich's 80 when not a terminal). `title`:
// after "NVIDIA GenAI-Perf | "; empty: "LLM Metrics" or "Embeddings Metrics" by format.
std::string console_table(const nlohmann::ordered_json& stats, Format format, bool streaming, size_t width = 80,
                          const std::string& title = "");

// Python's f"{v:,.2f}".
std::string format_stat(double v);

}  // namespace aiperf::cli::genai_perf
