// Where a run writes its files: AIPerf's names under the artifact directory, with
// --profile-export-prefix P mapping profile_export_aiperf.json -> P.json, .csv -> P.csv,
// profile_export.jsonl -> P.jsonl, profile_export_raw.jsonl -> P_raw.jsonl,
// profile_export_aiperf_timeslices.{csv,json} -> P_timeslices.{csv,json},
// profile_export_console.txt -> P_console.txt.
#pragma once
#include <string>
#include <string_view>

#include "config/run_config.h"

namespace aiperf::util {

// Per-record-processor raw files (--export-level raw) live here until the records service
// merges them into profile_export_raw.jsonl and removes the folder.
inline constexpr const char* kRawRecordsDir = "raw_records";
// The same for --export-outputs-json: merged into outputs.json (AIPerf's folder name).
inline constexpr const char* kOutputFragmentsDir = "output_fragments";

std::string artifact_file(const config::RunConfig& config, std::string_view default_name);

// Writes `content` to `path` + ".tmp" then renames, so readers never see half a file.
// Throws std::runtime_error naming the path on failure.
void write_file_atomically(const std::string& path, std::string_view content);

}  // namespace aiperf::util
