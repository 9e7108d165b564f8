// BurstGPT traces (custom type burst_gpt_trace, https://github.com/HPMLL/BurstGPT): a CSV file
// whose header names at least `Timestamp` (seconds since the trace start), `Request tokens` and
// `Response tokens`; other columns (Model, Total tokens, Log Type) are ignored. Every row is an
// independent single-turn request with a synthesized prompt of `Request tokens` tokens.
#pragma once
#include <random>
#include <string>

#include "custom_dataset.h"

namespace aiperf::dataset {

// True when `path` is a readable CSV file whose header has the three required columns
// (AIPerf's auto-detection for a file whose first line is not JSON).
bool is_burst_gpt_csv(const std::string& path);

// Fills `out` from `in.input_file`: one conversation per kept row, its prompt pending
// (input_length = Request tokens), max_tokens = Response tokens, timestamp in ms. Rows whose
// three values do not parse (AIPerf: float, int, int) are skipped as AIPerf skips them. Throws
// DatasetFileError for missing columns and for `Response tokens` < 1 or `Request tokens` < 0
// ("file:line: field 'Response tokens': ...", which AIPerf refuses later and less clearly).
void load_burst_gpt_trace(const config::InputConfig& in, CustomDataset& out, std::mt19937_64& rng);

}  // namespace aiperf::dataset
