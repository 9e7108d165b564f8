#include "endpoints/kserve_content.h"

#include <nlohmann/json.hpp>

namespace aiperf::endpoints {

void extract_kserve_content(const nlohmann::json& j, int64_t perf_ns, ParseResult& out) {
  if (!j.is_object()) return;
  const auto outputs = j.find("outputs");
  if (outputs == j.end() || !outputs->is_array()) return;
  std::string text;
  for (const nlohmann::json& output : *outputs) {
    if (!output.is_object() || output.value("name", "") != "text_output") continue;
    const auto data = output.find("data");
    if (data == output.end() || !data->is_array()) continue;
    for (const nlohmann::json& element : *data) {
      if (element.is_string()) text += element.get_ref<const std::string&>();
    }
  }
  if (!text.empty()) out.responses.push_back(metrics::ContentResponse{perf_ns, std::move(text), ""});
}

}  // namespace aiperf::endpoints
