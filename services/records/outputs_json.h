// The end of --export-outputs-json: the record processors' output_fragments/*.jsonl become
// <artifact dir>/outputs.json, {"schema_version":"1.0","data":[entry…]} indented by 2 as
// AIPerf 0.13 writes it, entries sorted by (session_num, turn_index).
#pragma once
#include <cstddef>
#include <string>

namespace aiperf::records {

struct OutputsJsonResult {
  bool written = false;     // false: no fragment file existed (nothing to write, as the reference)
  std::size_t entries = 0;
  std::size_t skipped = 0;  // lines that were not a JSON object (a processor killed mid-line)
};

// Reads every *.jsonl in `fragments_dir` (in name order), writes `target` atomically and
// removes the folder. Throws std::runtime_error naming the file on I/O failure, leaving the
// folder in place.
OutputsJsonResult merge_output_fragments(const std::string& fragments_dir, const std::string& target);

}  // namespace aiperf::records
