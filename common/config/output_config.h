// Output and tokenizer sections of RunConfig.
#pragma once
#include <optional>
#include <string>

#include "config/config_enum.h"
#include "config/json_optional.h"

namespace aiperf::config {

// --export-level: how much per-request data is written (raw adds the request/response bodies).
enum class ExportLevel { kSummary, kRecords, kRaw };
constexpr auto enum_names(ExportLevel) {
  using E = ExportLevel;
  return std::array{EnumName<E>{E::kSummary, "summary"}, EnumName<E>{E::kRecords, "records"},
                    EnumName<E>{E::kRaw, "raw"}};
}
AIPERF_CONFIG_ENUM_JSON(ExportLevel, "export_level")

struct OutputConfig {
  std::string artifact_dir = "artifacts";       // resolved run directory (absolute)
  bool artifact_dir_explicit = false;
  std::string profile_export_prefix;            // empty = AIPerf default names
  ExportLevel export_level = ExportLevel::kRecords;
  std::optional<std::string> goodput;           // --goodput SLOs "tag:value ...", display units
  std::optional<double> slice_duration;         // --slice-duration seconds
  bool export_http_trace = false;               // trace_data in profile_export.jsonl
  bool show_trace_timing = false;               // console table of http_req_* metrics
  bool export_outputs_json = false;             // outputs.json: generated text per request
  // AIPERF_METRICS_USAGE_PCT_DIFF_THRESHOLD (read by cli/): a usage_*_diff_pct above this percentage
  // makes the request a usage discrepancy.
  double usage_pct_diff_threshold = 10.0;
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(OutputConfig, artifact_dir, artifact_dir_explicit,
                                                profile_export_prefix, export_level, goodput, slice_duration,
                                                export_http_trace, show_trace_timing, export_outputs_json,
                                                usage_pct_diff_threshold)

struct TokenizerConfig {
  std::string name;                             // as given (default: first model)
  std::string revision = "main";
  bool trust_remote_code = false;
  bool apply_chat_template = false;             // ISL of chat-shaped payloads through the chat template
  std::string resolved_path;                    // local path every service loads
  std::string cache_dir;                        // ours: binary tokenizer cache ("" = none), from cli/
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(TokenizerConfig, name, revision, trust_remote_code, resolved_path,
                                                cache_dir, apply_chat_template)

}  // namespace aiperf::config
