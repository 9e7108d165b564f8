// Amazon SageMaker Data Capture files (custom type sagemaker_data_capture): JSONL records
//   {"captureData": {"endpointInput": {"data", "encoding": "JSON"|"BASE64" (default BASE64)},
//                    "endpointOutput": {...}},
//    "eventMetadata": {"eventId", "inferenceTime": ISO 8601}, "eventVersion"}
// from one file or every *.jsonl under a directory (recursively). The captured request must be
// an OpenAI chat body: its "messages" (and "tools") are replayed verbatim, its max_tokens (else
// max_completion_tokens) is the turn's max tokens. Every record is its own session; timestamps
// are shifted so the earliest is 0, and records are ordered by time.
#pragma once
#include <random>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "custom_dataset.h"

namespace aiperf::dataset {

// AIPerf's recognition: a record with both "captureData" and "eventMetadata".
bool looks_like_sagemaker_capture(const nlohmann::json& object);
// A directory whose first *.jsonl file (recursive, name order) starts with such a record.
bool dir_has_sagemaker_capture(const std::string& path);

// ISO 8601 date-time (YYYY-MM-DD[T| ]HH:MM[:SS[.fff...]][Z|+HH:MM|-HH:MM], or a date alone) as
// milliseconds since the Unix epoch; a time without an offset is taken as UTC. nullopt if malformed.
std::optional<double> parse_iso8601_ms(const std::string& text);

// Throws DatasetFileError "file:line: field 'captureData.endpointInput': ...".
void load_sagemaker_capture(const config::InputConfig& in, CustomDataset& out, std::mt19937_64& rng);

}  // namespace aiperf::dataset
