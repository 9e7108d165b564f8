#include "endpoints/prompt_content.h"

#include <nlohmann/json.hpp>

#include "endpoints/usage_json.h"

namespace aiperf::endpoints {

namespace {

using nlohmann::json;

bool non_empty_string(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() && !it->get_ref<const std::string&>().empty();
}

void push_text(const json& j, const char* key, int64_t perf_ns, ParseResult& out) {
  if (!j.is_object() || !non_empty_string(j, key)) return;
  out.responses.push_back(metrics::ContentResponse{perf_ns, j[key].get<std::string>(), ""});
}

}  // namespace

void extract_image_content(const json& j, int64_t perf_ns, ParseResult& out) {
  if (!j.is_object()) return;
  if (auto usage = j.find("usage"); usage != j.end() && usage->is_object() && !usage->empty())
    out.usage = read_usage_block(*usage);
  bool image = false;
  if (j.contains("b64_json")) {  // streaming: partial_image / completed events
    image = non_empty_string(j, "b64_json");
  } else if (auto data = j.find("data"); data != j.end() && data->is_array()) {
    for (const json& item : *data)
      image |= item.is_object() && (non_empty_string(item, "b64_json") || non_empty_string(item, "url"));
  }
  if (image) out.responses.push_back(metrics::ContentResponse{perf_ns, "", ""});
}

void extract_solido_content(const json& j, int64_t perf_ns, ParseResult& out) {
  push_text(j, "content", perf_ns, out);
}

void extract_triton_content(const json& j, int64_t perf_ns, ParseResult& out) {
  push_text(j, "text_output", perf_ns, out);
}

}  // namespace aiperf::endpoints
