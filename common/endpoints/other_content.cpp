#include "endpoints/other_content.h"

#include <nlohmann/json.hpp>

#include "endpoints/usage_json.h"

namespace aiperf::endpoints {
namespace {

using nlohmann::json;

bool non_empty_array(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_array() && !it->empty();
}

void read_plain_usage(const json& j, ParseResult& out) {
  auto usage = j.find("usage");
  if (usage == j.end() || !usage->is_object()) return;
  out.usage = read_usage_block(*usage);
}

std::string excerpt(const json& j) {
  std::string s = j.dump();
  return s.size() <= 100 ? s : s.substr(0, 100) + "...";
}

}  // namespace

std::optional<OtherKind> other_kind(const EndpointInfo& info) {
  const std::string_view t = info.type;
  if (t == "embeddings" || t == "chat_embeddings" || t == "nim_embeddings") return OtherKind::embeddings;
  if (t == "nim_rankings" || t == "cohere_rankings" || t == "hf_tei_rankings") return OtherKind::rankings;
  if (t == "huggingface_generate") return OtherKind::tgi_generate;
  return std::nullopt;
}

std::optional<proto::ErrorDetails> extract_other_content(OtherKind kind, const json& j, int64_t perf_ns,
                                                         ParseResult& out) {
  if (j.is_null()) return std::nullopt;
  switch (kind) {
    case OtherKind::embeddings: {
      if (!j.is_object()) return value_error("Expected an embeddings object, got: " + excerpt(j));
      read_plain_usage(j, out);
      bool any = non_empty_array(j, "embeddings") || non_empty_array(j, "embedding");
      if (auto data = j.find("data"); data != j.end() && data->is_array()) {
        for (const json& item : *data) any |= item.is_object() && non_empty_array(item, "embedding");
      }
      if (any) out.responses.push_back(metrics::ContentResponse{perf_ns, "", ""});
      return std::nullopt;
    }
    case OtherKind::rankings: {
      // NIM "rankings", Cohere "results", HF TEI a top-level list (or "results").
      const bool any = j.is_array() ? !j.empty()
                                    : j.is_object() && (non_empty_array(j, "rankings") || non_empty_array(j, "results"));
      if (j.is_object()) read_plain_usage(j, out);
      if (!j.is_array() && !j.is_object()) return value_error("Expected a rankings response, got: " + excerpt(j));
      if (any) out.responses.push_back(metrics::ContentResponse{perf_ns, "", ""});
      return std::nullopt;
    }
    case OtherKind::tgi_generate: {
      // Non-streaming: [{"generated_text"}] or {"generated_text"}. Streaming: each event's
      // token.text; the last event's generated_text repeats the whole answer and is ignored.
      const json& obj = j.is_array() && !j.empty() ? j[0] : j;
      if (!obj.is_object()) return value_error("Expected a TGI generate response, got: " + excerpt(j));
      std::string text;
      if (auto token = obj.find("token"); token != obj.end() && token->is_object()) {
        text = token->value("text", std::string());
      } else if (auto gen = obj.find("generated_text"); gen != obj.end() && gen->is_string()) {
        text = gen->get<std::string>();
      }
      if (!text.empty()) out.responses.push_back(metrics::ContentResponse{perf_ns, std::move(text), ""});
      return std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace aiperf::endpoints
