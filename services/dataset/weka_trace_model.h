// A Weka agentic trace in memory (AIPerf 0.13's WekaTrace): what weka_trace.cpp parses from a
// .json file and tracelab_trace.cpp converts from TraceLab rounds. Both hand their traces to
// emit_weka_traces, so a TraceLab replay is rebuilt exactly as a Weka file replay is (AIPerf
// delegates TraceLab to its Weka loader the same way).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "custom_dataset.h"

namespace aiperf::dataset {

struct WekaRequest {
  double t = 0;  // seconds from the trace start
  std::string model;
  int64_t in = 0, out = 0;
  std::vector<int64_t> hash_ids;
  std::optional<double> api_time, think_time;
};

struct WekaSubagent {
  size_t outer = 0;  // index in the trace's requests
  double t = 0;
  std::string agent_id;
  std::optional<int64_t> duration_ms;
  std::vector<WekaRequest> requests;
  int64_t tool_tokens = 0, system_tokens = 0;
};

struct WekaTrace {
  std::string file, id;  // file: named in errors
  uint32_t block_size = 0;
  int64_t tool_tokens = 0, system_tokens = 0;
  std::vector<std::pair<size_t, WekaRequest>> calls;  // top-level calls with their outer index
  std::vector<WekaSubagent> subagents;
  std::vector<std::string> models;  // distinct, in order of first use; the first call's first
};

// The recorded peak context of a trace: max over its calls and its subagents' of in + max(out, 1).
int64_t weka_peak_context(const WekaTrace& trace);

// Appends the conversations of `traces` to `out`: every trace's root conversation, then every
// trace's subagents (AIPerf's listing order, which sequential sampling follows). Throws
// DatasetFileError naming the trace's file for a trace that cannot be rebuilt.
void emit_weka_traces(const std::vector<WekaTrace>& traces, const config::InputConfig& in, CustomDataset& out);

}  // namespace aiperf::dataset
