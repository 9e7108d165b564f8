#include "request_recorder.h"

#include <stdexcept>

#include <nlohmann/json.hpp>

namespace aiperf::mock {

RequestRecorder::RequestRecorder(const std::string& path) {
  if (path.empty()) return;
  out_.open(path, std::ios::app);
  if (!out_) throw std::runtime_error("--record-requests: cannot write " + path);
}

void RequestRecorder::record(std::string_view target, std::string_view body) {
  nlohmann::json parsed = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  nlohmann::ordered_json line;
  line["path"] = target;
  if (parsed.is_discarded()) {
    line["body"] = body;
  } else {
    line["body"] = nlohmann::ordered_json::parse(body);  // keeps the client's key order
  }
  // Multipart bodies carry binary files: bytes that are not UTF-8 are written as U+FFFD.
  const std::string text = line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  std::lock_guard lock(mutex_);
  out_ << text;
  out_.flush();
}

}  // namespace aiperf::mock
