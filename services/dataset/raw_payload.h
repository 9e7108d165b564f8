// Verbatim request bodies (custom types raw_payload and inputs_json): every turn carries a whole
// JSON request body that the worker sends as is, whatever --endpoint-type (no model, stream,
// max_tokens or --extra-inputs are added), and inputs.json records it unchanged.
//   raw_payload, a file:      one JSON object per line, each one single-turn conversation.
//   raw_payload, a directory: each *.jsonl file (name order) one multi-turn conversation.
//   inputs_json:              AIPerf's inputs.json {"data": [{"session_id", "payloads": [...]}]}.
// Every raw_payload line must be an object with a "messages" array (AIPerf's check).
#pragma once
#include <random>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "custom_dataset.h"

namespace aiperf::dataset {

// AIPerf's raw_payload recognition of one JSON line: "messages" is a list, and there is neither
// a "conversation_id" nor a "data" list.
bool looks_like_raw_payload(const nlohmann::json& object);

// A directory holding a *.jsonl file whose first non-blank line has a "messages" list.
bool dir_has_raw_payload_jsonl(const std::string& path);

// A *.json file (or an already parsed object) in inputs.json form: a non-empty "data" list whose
// first element has a "payloads" list.
bool looks_like_inputs_json(const nlohmann::json& object);
bool is_inputs_json_file(const std::string& path);

// Throw DatasetFileError "file:line: field: problem" (inputs_json: "file: data[i].field: ...").
void load_raw_payload(const config::InputConfig& in, CustomDataset& out, std::mt19937_64& rng);
void load_inputs_json(const config::InputConfig& in, CustomDataset& out);

}  // namespace aiperf::dataset
