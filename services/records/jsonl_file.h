// JsonlFile: profile_export.jsonl on disk. One write per batch of whole lines, so a crash at
// any instant (kill -9 included) leaves only whole lines behind. A failed write (a full disk)
// is cut back to the last whole line and the file stops there: the run goes on, aggregated.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "records_core.h"

namespace aiperf::records {

class JsonlFile final : public LineLog {
 public:
  // Creates or truncates `path`; throws std::runtime_error naming it if it cannot.
  explicit JsonlFile(const std::string& path);
  ~JsonlFile() override;
  JsonlFile(const JsonlFile&) = delete;
  JsonlFile& operator=(const JsonlFile&) = delete;

  void append(std::string_view whole_lines) override;

 private:
  int fd_ = -1;        // -1 after a failed write
  uint64_t bytes_ = 0;  // written so far, all whole lines
};

}  // namespace aiperf::records
