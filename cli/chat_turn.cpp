#include "chat_turn.h"

#include <cstdio>

#include "endpoints/usage_json.h"

namespace aiperf::cli::chat {

std::string chat_completions_url(std::string url) {
  if (url.find("://") == std::string::npos) url = "http://" + url;
  while (!url.empty() && url.back() == '/') url.pop_back();
  auto ends_with = [&](const std::string& s) {
    return url.size() >= s.size() && url.compare(url.size() - s.size(), s.size(), s) == 0;
  };
  if (ends_with("/chat/completions")) return url;
  if (ends_with("/v1")) return url + "/chat/completions";
  return url + "/v1/chat/completions";
}

std::string request_body(const nlohmann::json& messages, const std::string& model) {
  nlohmann::ordered_json body;
  body["messages"] = messages;
  body["model"] = model;
  body["stream"] = true;
  body["stream_options"] = {{"include_usage", true}};
  return body.dump();
}

std::pair<std::string, std::string> add_chunk(Reply& reply, const std::string& data, int64_t perf_ns) {
  const auto chunk = nlohmann::json::parse(data, nullptr, false);
  if (chunk.is_discarded() || !chunk.is_object() || chunk.empty()) return {};
  if (const auto u = chunk.find("usage"); u != chunk.end() && u->is_object() && !u->empty()) reply.usage = *u;
  const auto choices = chunk.find("choices");
  if (choices == chunk.end() || !choices->is_array() || choices->empty()) return {};
  const auto& first = (*choices)[0];
  const auto delta = first.is_object() ? first.find("delta") : first.end();
  if (!first.is_object() || delta == first.end() || !delta->is_object()) return {};
  // Reasoning only from a reasoning parser's own field, as the profile's chat endpoint reads it.
  auto text = [&](const char* key) -> std::string {
    const auto it = delta->find(key);
    return it != delta->end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  const std::string content = text("content");
  std::string reasoning = text("reasoning_content");
  if (reasoning.empty()) reasoning = text("reasoning");
  if (content.empty() && reasoning.empty()) return {};
  reply.piece_ns.push_back(perf_ns);
  reply.content += content;
  reply.reasoning += reasoning;
  return {content, reasoning};
}

TurnStats turn_stats(const Reply& reply, int64_t start_ns, std::optional<int64_t> output_tokens,
                     std::optional<int64_t> reasoning_tokens) {
  TurnStats s;
  if (!reply.piece_ns.empty()) {
    s.ttft_ns = static_cast<double>(reply.piece_ns.front() - start_ns);
    s.latency_ns = static_cast<double>(reply.piece_ns.back() - start_ns);
  }
  if (output_tokens || reasoning_tokens) s.osl = output_tokens.value_or(0) + reasoning_tokens.value_or(0);
  s.reasoning_tokens = reasoning_tokens;
  if (s.osl && *s.osl >= 2 && s.ttft_ns) s.itl_ns = (*s.latency_ns - *s.ttft_ns) / static_cast<double>(*s.osl - 1);
  if (reply.usage) {
    const metrics::Usage u = endpoints::read_usage_block(*reply.usage);
    s.isl = u.prompt_tokens;
    s.cache_read = u.prompt_cache_read_tokens;
  }
  return s;
}

namespace {
std::string fmt(const char* format, double a, double b = 0) {
  char buf[128];
  std::snprintf(buf, sizeof buf, format, a, b);
  return buf;
}
}  // namespace

std::string format_stats(const TurnStats& s) {
  if (!s.ttft_ns || !s.latency_ns || !s.osl || *s.osl == 0) return "(no tokens received)";
  const double latency_s = *s.latency_ns / 1e9;
  const double tps = latency_s > 0 ? static_cast<double>(*s.osl) / latency_s : 0.0;
  std::string tokens = std::to_string(*s.osl) + " tokens";
  if (s.reasoning_tokens && *s.reasoning_tokens) tokens += ", " + std::to_string(*s.reasoning_tokens) + " reasoning";
  std::string out = fmt("TTFT: %.2f ms", *s.ttft_ns / 1e6) + "\n" + fmt("TPS:  %.2f tokens/s (", tps) + tokens +
                    fmt(" in %.2fs)", latency_s);
  if (s.itl_ns && *s.itl_ns != 0)
    out += "\n" + fmt("ITL:  %.2f ms/token (decode %.2f tokens/s)", *s.itl_ns / 1e6, 1e9 / *s.itl_ns);
  if (s.isl && *s.isl && s.cache_read) {
    out += "\nCache: " + std::to_string(*s.cache_read) + "/" + std::to_string(*s.isl) + " prompt tokens cached" +
           fmt(" (%.1f%%)", 100.0 * static_cast<double>(*s.cache_read) / static_cast<double>(*s.isl));
  }
  return out;
}

}  // namespace aiperf::cli::chat
