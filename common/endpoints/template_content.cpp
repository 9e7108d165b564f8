#include "endpoints/template_content.h"

#include <nlohmann/json.hpp>

namespace aiperf::endpoints {

namespace {

using nlohmann::json;

enum class Found { none, text, other };  // other: embeddings or rankings (no tokens)

// AIPerf's convert_to_response_data.
Found convert(const json& v, std::string& text) {
  if (v.is_string()) {
    text = v.get<std::string>();
    return text.empty() ? Found::none : Found::text;
  }
  if (v.is_array() && !v.empty()) {
    const json& first = v.front();
    if (first.is_number()) return Found::other;
    if (first.is_array() && !first.empty() && first.front().is_number()) return Found::other;
    if (first.is_object()) return Found::other;
  }
  return Found::none;
}

bool non_empty_list(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_array() && !it->empty();
}

// AIPerf's auto_detect_and_extract for an object: embeddings, rankings, then text.
Found auto_detect(const json& j, std::string& text) {
  if (!j.is_object()) return convert(j, text);
  if (auto data = j.find("data"); data != j.end() && data->is_array() && !data->empty() &&
                                  data->front().is_object() && data->front().value("object", "") == "embedding") {
    for (const json& item : *data)
      if (item.is_object() && item.contains("embedding")) return Found::other;
  }
  for (const char* key : {"embeddings", "embedding"}) {
    if (!non_empty_list(j, key)) continue;
    const json& first = j[key].front();
    if (first.is_number() || first.is_array()) return Found::other;
  }
  for (const char* key : {"rankings", "results"}) {
    auto it = j.find(key);
    if (it != j.end() && it->is_array()) return it->empty() ? Found::none : Found::other;
  }
  for (const char* key : {"text", "content", "response", "output", "result"}) {
    auto it = j.find(key);
    if (it == j.end()) continue;
    if (it->is_string()) {  // the first string field decides, even when empty
      text = it->get<std::string>();
      return text.empty() ? Found::none : Found::text;
    }
    if (it->is_array() && !it->empty()) {
      std::string joined;
      bool all_strings = true;
      for (const json& item : *it) {
        if (!item.is_string()) {
          all_strings = false;
          break;
        }
        joined += item.get_ref<const std::string&>();
      }
      if (all_strings) {
        text = std::move(joined);
        return text.empty() ? Found::none : Found::text;
      }
    }
  }
  if (auto choices = j.find("choices"); choices != j.end() && choices->is_array() && !choices->empty()) {
    const json& choice = choices->front();
    if (!choice.is_object()) return Found::none;
    if (auto t = choice.find("text"); t != choice.end() && t->is_string() && !t->get_ref<const std::string&>().empty()) {
      text = t->get<std::string>();
      return Found::text;
    }
    for (const char* holder : {"message", "delta"}) {
      auto h = choice.find(holder);
      if (h == choice.end() || !h->is_object()) continue;
      auto c = h->find("content");
      if (c != h->end() && c->is_string() && !c->get_ref<const std::string&>().empty()) {
        text = c->get<std::string>();
        return Found::text;
      }
    }
  }
  return Found::none;
}

}  // namespace

void extract_template_content(const json& j, int64_t perf_ns, const JsonPath* field, ParseResult& out) {
  std::string text;
  Found found = Found::none;
  if (field) {
    if (const json* value = field->find(j)) found = convert(*value, text);
  } else {
    found = auto_detect(j, text);
  }
  if (found != Found::none) out.responses.push_back(metrics::ContentResponse{perf_ns, std::move(text), ""});
}

void extract_template_text(std::string_view text, int64_t perf_ns, ParseResult& out) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) return;
  out.responses.push_back(metrics::ContentResponse{perf_ns, std::string(text), ""});
}

}  // namespace aiperf::endpoints
