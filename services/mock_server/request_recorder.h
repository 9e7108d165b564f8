// RequestRecorder (--record-requests FILE): appends every POST request as one JSON line
// {"path": target, "body": <the parsed JSON body, or the raw text when not JSON>}, so tests
// can check the payloads a client sent field by field. Disabled when the path is empty.
#pragma once
#include <fstream>
#include <mutex>
#include <string>
#include <string_view>

namespace aiperf::mock {

class RequestRecorder {
 public:
  explicit RequestRecorder(const std::string& path);  // throws std::runtime_error if unwritable

  bool enabled() const { return out_.is_open(); }
  // Thread-safe; each line is flushed so a reader sees whole lines.
  void record(std::string_view target, std::string_view body);

 private:
  std::mutex mutex_;
  std::ofstream out_;
};

}  // namespace aiperf::mock
