// Reading profile_export.jsonl back: each line becomes the MetricRecord the records service
// saw, so a summary can be recomputed from the file alone (`aiperf process-export-files`, and
// the controller when the records service died before publishing its results).
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "metric_record.pb.h"
#include "metrics/aggregator.h"

namespace aiperf::exporting {

// One line (spec §7.5) back into its record: metric values in base units again (integer
// metrics rounded, so statistics match the original run to the last digit); tags this build
// does not know are skipped. Throws on a line that is not such an object.
proto::MetricRecord parse_record_jsonl(const std::string& line);

struct JsonlSpan {
  int64_t start_ns = 0;  // earliest request start of a profiling record (0 = none)
  int64_t end_ns = 0;    // latest request end
  bool cancelled = false;
  uint64_t records = 0;
};

// Adds every record of `path` to `aggregator`, calling `on_line` (if set) with each non-empty
// line. Throws std::runtime_error naming the file (and line) when it cannot be read or a line
// is malformed. With `allow_torn_tail`, a last line without its newline (the writer died
// mid-write) is skipped instead.
JsonlSpan read_records_jsonl(const std::string& path, metrics::Aggregator& aggregator,
                             const std::function<void(const std::string&)>& on_line = {},
                             bool allow_torn_tail = false);

}  // namespace aiperf::exporting
