#include "scripted_reply.h"

namespace aiperf::mock {

std::string sse_event(std::string_view type, std::string_view json) {
  std::string out;
  out.reserve(type.size() + json.size() + 16);
  out.append("event: ").append(type).append("\ndata: ").append(json).append("\n\n");
  return out;
}

std::string sse_data(std::string_view json) {
  std::string out;
  out.reserve(json.size() + 8);
  out.append("data: ").append(json).append("\n\n");
  return out;
}

}  // namespace aiperf::mock
