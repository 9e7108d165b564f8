// The "Client vs Server" section (ours, no AIPerf counterpart): what the client measured beside
// what the server says about the same requests - its usage blocks, llama.cpp's `timings`, and
// the Prometheus counters --server-metrics scraped (llama.cpp, vLLM, SGLang names) - with the
// differences, and warnings when they disagree. In the console, profile_export_aiperf.json
// ("client_server") and profile_export_aiperf.csv; only when some server-side data exists.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "results.pb.h"

namespace aiperf::exporting {

// A --server-metrics counter family's increase over the profiling window, summed over its series.
// `family` names the server ("llamacpp", "vllm", "sglang"); unset members were not exposed.
struct ServerCounterTotals {
  std::string family;
  std::optional<double> requests;              // finished requests (vLLM, SGLang)
  std::optional<double> prompt_tokens;         // input tokens the server counted (cached included)
  std::optional<double> cached_prompt_tokens;  // of which reused from its cache
  std::optional<double> generation_tokens;
  std::optional<double> prompt_seconds;        // llama.cpp only
  std::optional<double> generation_seconds;    // llama.cpp only
};

// ServerCounterTotals to and from the JSON the telemetry service sends ({} = none).
nlohmann::json counter_totals_json(const ServerCounterTotals& totals);
std::optional<ServerCounterTotals> counter_totals_from_json(std::string_view text);

// Relative disagreement (of the client's count) beyond which the section warns.
inline constexpr double kClientServerThresholdPct = 5.0;

// The section as JSON: {"sources": [...], "rows": [{"quantity", "source", "unit", "client",
// "server", "difference" (client - server), "difference_pct"}...], "server_counters": {...},
// "warnings": [...]}; null when neither the records nor `counters` hold server-side data.
// `counters_include_warmup`: the run had a warmup phase, which the counters' window (from the last
// scrape before profiling) may include; their rows then carry no client figure (nothing to compare,
// no warning) and the section says why ("counters_note").
// `server_templates_prompt`: the endpoint sends messages the server renders with its chat template
// (chat, messages, responses), so the server counting more input tokens than the client is expected
// and not warned about; fewer (truncation) still is.
nlohmann::ordered_json client_server_section(const proto::ProfileResults& results,
                                             const std::optional<ServerCounterTotals>& counters,
                                             bool counters_include_warmup = false,
                                             bool server_templates_prompt = false);

// The section as people read it, cells formatted as the console shows them: column headers, one
// row of cells per section row, the paragraphs that explain it (unwrapped) and the warnings. The
// console and the HTML report both draw this, so they show the same numbers. Empty for a null section.
struct ClientServerView {
  std::string title;
  std::vector<std::string> headers;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> notes;
  std::vector<std::string> warnings;
};
ClientServerView client_server_view(const nlohmann::ordered_json& section);

// The console table and, when the section has warnings, a warning panel ("" for a null section).
std::string format_client_server_console(const nlohmann::ordered_json& section, bool unicode_box);

// CSV rows (CRLF) "Client vs Server,Source,Unit,Client,Server,Difference" for the summary CSV's
// extra section ("" for a null section).
std::string format_client_server_csv(const nlohmann::ordered_json& section);

}  // namespace aiperf::exporting
