// weka_trace (AIPerf 0.13): Weka KV-cache-tester agentic coding traces. One JSON object per
// file (a file, or every *.json of a directory in name order): {id, models, block_size,
// hash_id_scope: "local", tool_tokens, system_tokens, requests, totals}. `requests` interleaves
// API calls ({t, type: "n"|"s", model, in, out, hash_ids, input_types, output_types, stop,
// api_time, think_time, ttft}) and subagent markers ({t, type: "subagent", agent_id,
// subagent_type, status, requests, models, duration_ms, total_tokens, tool_use_count,
// tool_tokens, system_tokens}). Unknown keys are refused, as AIPerf's schema refuses them.
//
// Each trace becomes one conversation (session id = the trace id) of its top-level calls, plus
// one per subagent (`<id>::sa:<agent_id>`, its calls in time order) that follows a top-level
// call. Messages are rebuilt from hash_ids (weka_reconstruct.h), max tokens = `out` (at least
// 1), every turn carries its timestamp (t, ms) and later turns the idle gap before them:
// t_k - t_(k-1) - api_time_(k-1), or think_time (--use-think-time-only).
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "custom_dataset.h"

namespace aiperf::dataset {

// True when `path` is a .json Weka trace, or a directory whose first *.json (by name) is one.
bool is_weka_trace_path(const std::string& path);

// Loads `in.input_file`. Throws DatasetFileError "file: field 'requests[2].in': problem".
void load_weka_trace(const config::InputConfig& in, CustomDataset& out);

// The same from a HuggingFace dataset's rows (--public-dataset semianalysis_cc_traces_weka*,
// weka_hf), one trace per row in row order; `source` (the repo) names rows in errors.
void load_weka_trace_rows(const std::vector<nlohmann::json>& rows, const std::string& source,
                          const config::InputConfig& in, CustomDataset& out);

// Sets each turn's model from the trace's: a trace's first model is --model's first, its other
// models the next ones in order of first use (wrapping).
void map_weka_models(CustomDataset& dataset, const std::vector<std::string>& model_names);

}  // namespace aiperf::dataset
