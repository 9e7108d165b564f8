// tracelab (AIPerf 0.13): the TraceLab agentic-coding corpus (uw-syfi), one JSONL row per LLM
// round, plain or gzipped (told by the gzip magic bytes, not the name). Rows are grouped by
// `session_id` (file order), ordered by submission time (the latest user_message/tool_result
// event, else the first text/reasoning/tool_call one; round_index breaks ties) and converted to
// Weka traces (weka_trace_model.h), which are then replayed exactly as weka_trace files are:
//
// - hash ids are minted per trace: each round keeps the first prefix_tokens / block_size ids of
//   the round before and mints the rest, floor(input_tokens_total / block_size) in all
//   (block_size = --isl-block-size, else 64);
// - in = input_tokens_total (>= 1), out = output_tokens + reasoning_output_tokens (>= 1),
//   t = submission - the session's first submission, api_time = last output event - submission;
// - a session whose whole span (events and tool stamps) lies inside a spawning tool call of
//   another session of the same user and project (Claude's Agent/Task, at least
//   AIPERF_DATASET_TRACELAB_MIN_SPAWN_MS = 10000 ms long; Codex: the session's first
//   spawn_agent to its last wait_agent result) becomes a subagent of the tightest such session
//   (AIPERF_DATASET_TRACELAB_SUBAGENT_JOIN, AIPERF_DATASET_TRACELAB_CODEX_SUBAGENT_JOIN: 0
//   disables). Grandchildren stay sessions of their own.
//
// Trace and agent ids are the session ids with every run of characters outside [A-Za-z0-9._-]
// replaced by "_" (at most 150 characters).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "custom_dataset.h"
#include "weka_trace_model.h"

namespace aiperf::dataset {

struct TracelabOptions {
  uint32_t block_size = 64;
  bool join_subagents = true;
  bool join_codex = true;
  int64_t min_spawn_ms = 10000;
};

// The options from --isl-block-size and the AIPERF_DATASET_TRACELAB_* environment variables
// (read by the CLI into config::AgenticTraceConfig).
TracelabOptions tracelab_options(const config::InputConfig& in);

// True when `path` is a .jsonl/.jsonl.gz/.json.gz/.gz file whose first row carries session_id,
// round_index, input_tokens_total, prefix_tokens, newly_append_tokens and timing_events.
bool is_tracelab_file(const std::string& path);

// The non-blank lines of `path`, read through gzip (a fixed schedule's default request count).
uint64_t count_tracelab_rows(const std::string& path);

// The Weka traces of a TraceLab file. Throws DatasetFileError "file:line: ..." for a row that
// is not JSON or whose fields cannot be read, and for a file without sessions.
std::vector<WekaTrace> read_tracelab_traces(const std::string& path, const TracelabOptions& options);

// Loads `in.input_file` (read_tracelab_traces, --max-context-length, emit_weka_traces).
void load_tracelab(const config::InputConfig& in, CustomDataset& out);

}  // namespace aiperf::dataset
