// `genai-perf process-export-files` (GenAI-Perf 0.0.16): merges the exports of several
// `genai-perf profile` runs (genai_perf_merge.h) and writes, in
// <artifact dir>/<model>-<service kind>-<type>-<load>/:
//   <profile export file>            the merged perf_analyzer export (Python's json.dump layout)
//   <stem>_genai_perf.json / .csv    the statistics of the whole, as `profile` writes them
// and prints the console table (with -v, the runs' GPU telemetry tables too: genai_perf_telemetry.h).
// Everything is read and computed before the first file is written: an error leaves nothing
// behind.
#pragma once
#include <string>
#include <vector>

namespace aiperf::cli::genai_perf {

// The words after `process-export-files`. Returns the exit status: 0, 1 for bad input (as
// GenAI-Perf's errors), 2 for a bad command line.
int run_process_export_files(const std::vector<std::string>& words);

}  // namespace aiperf::cli::genai_perf
