// profile_export_raw.jsonl lines (spec §7.6) and the per-processor file they go to
// (raw_records/raw_records_<processor id>.jsonl; the records service merges them).
#pragma once
#include <cstdio>
#include <string>

#include "metric_record.pb.h"
#include "raw_record.pb.h"

namespace aiperf::record_processor {

// {"metadata":{…},"start_perf_ns":n,"payload":{exact request JSON},"request_headers":{…},
//  "status":200,"response_headers":{…},"responses":[…],"error":{…}} without a newline.
// SSE bodies become {"perf_ns","packets":[{"name","value"}…]} per event; any other body one
// {"perf_ns","content_type","text"}; failed requests have no responses. "status" is
// omitted when no response arrived, "error" for successful requests.
std::string format_raw_record_jsonl(const proto::RawRecord& raw, const proto::RecordMetadata& metadata);

// Appends lines to this processor's file. Buffered: flush() before the records that
// describe the lines leave, so the file is complete once the records service has them all.
class RawRecordFile {
 public:
  // Creates <artifact_dir>/raw_records/ if needed; throws std::runtime_error on failure.
  RawRecordFile(const std::string& artifact_dir, const std::string& processor_id);
  ~RawRecordFile();
  RawRecordFile(const RawRecordFile&) = delete;
  RawRecordFile& operator=(const RawRecordFile&) = delete;

  void append(const std::string& line);
  // Throws std::runtime_error when the data cannot be written (disk full).
  void flush();

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
};

}  // namespace aiperf::record_processor
