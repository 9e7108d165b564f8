#include "endpoints/media_content.h"

#include <nlohmann/json.hpp>

#include "endpoints/usage_json.h"

namespace aiperf::endpoints {

namespace {

bool truthy(const nlohmann::json& v) {
  if (v.is_null()) return false;
  if (v.is_boolean()) return v.get<bool>();
  if (v.is_number()) return v.get<double>() != 0;
  if (v.is_string()) return !v.get_ref<const std::string&>().empty();
  return !v.empty();  // array / object
}

}  // namespace

void extract_image_retrieval_content(const nlohmann::json& j, int64_t perf_ns, ParseResult& out) {
  if (!j.is_object()) return;
  auto data = j.find("data");
  if (data != j.end() && truthy(*data)) out.responses.push_back(metrics::ContentResponse{perf_ns, "", ""});
}

void extract_image_edit_content(const nlohmann::json& j, int64_t perf_ns, ParseResult& out) {
  if (!j.is_object() || j.empty()) return;
  read_usage_member(j, out);
  out.responses.push_back(metrics::ContentResponse{perf_ns, "", ""});
}

void extract_transcription_content(const nlohmann::json& j, std::string_view body, int64_t perf_ns,
                                   ParseResult& out) {
  if (j.is_null()) return extract_transcription_text(body, perf_ns, out);
  if (!j.is_object()) return;
  read_usage_member(j, out);
  auto text = j.find("text");
  if (text != j.end() && text->is_string() && !text->get_ref<const std::string&>().empty())
    out.responses.push_back(metrics::ContentResponse{perf_ns, text->get<std::string>(), ""});
}

void extract_transcription_text(std::string_view body, int64_t perf_ns, ParseResult& out) {
  if (!body.empty()) out.responses.push_back(metrics::ContentResponse{perf_ns, std::string(body), ""});
}

}  // namespace aiperf::endpoints
