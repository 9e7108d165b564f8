// Helpers shared by the endpoint tests: a request body built as a worker builds it, and a raw
// record made of timed chunks as a worker records them.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "endpoints/endpoint.h"

namespace aiperf::endpoints::test {

// The body endpoint `type` sends for `turns`, with model "m1".
inline std::string build(const char* type, const std::vector<const proto::Turn*>& turns, bool streaming = false,
                         const nlohmann::json* extras = nullptr, const std::string& system = "",
                         const std::string& context = "") {
  PayloadOptions o;
  o.model = "m1";
  o.streaming = streaming;
  o.extra_inputs = extras;
  return build_payload(*find_endpoint(type), o, turns, system, context);
}

// A 200 response of `content_type` whose chunks arrived at the given perf_ns; it ends 1 ns later.
inline proto::RawRecord record(const std::string& content_type,
                               const std::vector<std::pair<int64_t, std::string>>& chunks) {
  proto::RawRecord raw;
  raw.set_status_code(200);
  raw.set_content_type(content_type);
  for (const auto& [t, data] : chunks) {
    auto* c = raw.add_chunks();
    c->set_perf_ns(t);
    c->set_data(data);
  }
  raw.set_end_perf_ns(chunks.back().first + 1);
  return raw;
}

}  // namespace aiperf::endpoints::test
