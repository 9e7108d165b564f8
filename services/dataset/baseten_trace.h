// Baseten completion traces (custom type baseten_trace, AIPerf 0.13). AIPerf reads them from
// Parquet or Arrow IPC; we read both (.parquet: common/parquet; .arrow, .ipc: arrow_ipc.h) and
// the same rows as JSON Lines, one row per line with the same column names:
//   timestamp_start_unix_ms, prompt, input_tokens, output_tokens        (required)
//   total_hashes, block_size, provided_session_id | poor_man_session_id, duration_e2e_ms
// Each prompt is sent verbatim; min_tokens (recorded output length) and the KV hints
// hash_ids / block_size travel in the body. Replay controls: config::TraceReplayConfig.
#pragma once
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "custom_dataset.h"

namespace aiperf::dataset {

// True for Arrow IPC file names (.arrow, .ipc), read natively.
bool is_columnar_trace_file(const std::string& path);
// True for .parquet: detected as baseten_trace, read natively.
bool is_parquet_file(const std::string& path);

// Timestamps (ms, any order) with every gap to the next event, walking in time order (ties in
// input order), shortened to ceil(cap_ms); the earliest keeps its value. Values are truncated
// to integer ms first, as AIPerf does. No cap: the truncated values.
std::vector<int64_t> reflow_idle_gaps(const std::vector<double>& timestamps_ms, std::optional<double> cap_ms);

// Closed-loop think time before a continuation turn: the recorded start-to-start gap (integer
// ms, already divided by the speedup) minus the prior turn's recorded e2e duration divided by
// the speedup, at least 0, then at most cap_seconds * 1000.
double baseten_think_time_ms(int64_t gap_ms, int64_t prior_e2e_ms, double speedup,
                             std::optional<double> cap_seconds);

// Fills `out` from `in.input_file` with in.trace_replay applied; generated session ids and
// --trace-session-sample-ratio draws come from `rng`. Throws DatasetFileError
// "file:line: field 'x': problem".
void load_baseten_trace(const config::InputConfig& in, CustomDataset& out, std::mt19937_64& rng);

}  // namespace aiperf::dataset
