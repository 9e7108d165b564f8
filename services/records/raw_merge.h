// The end of --export-level raw: the record processors' raw_records/raw_records_<id>.jsonl
// files become one profile_export_raw.jsonl and the folder goes away (spec §7.2).
#pragma once
#include <string>

namespace aiperf::records {

// Concatenates every *.jsonl in `raw_dir` (sorted by name) into `target` atomically, then
// removes `raw_dir`. A missing folder (no processor wrote a line) yields an empty target.
// Throws std::runtime_error naming the file on I/O failure, leaving the folder in place.
void merge_raw_records(const std::string& raw_dir, const std::string& target);

}  // namespace aiperf::records
