#include "cache_bust.h"

#include <cmath>
#include <memory>

#include <nlohmann/json.hpp>
#include <openssl/sha.h>

namespace aiperf::endpoints {
namespace {

constexpr int kDigestHex = 12;     // 48 bits: ample for uniqueness within a run
constexpr int kEstimateSamples = 8;

std::string sha256_hex(const std::string& text, int digits) {
  unsigned char md[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), md);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < SHA256_DIGEST_LENGTH && static_cast<int>(out.size()) < digits; ++i) {
    out.push_back(kHex[md[i] >> 4]);
    out.push_back(kHex[md[i] & 15]);
  }
  out.resize(digits);
  return out;
}

// The kinds of marker a target takes.
enum class MarkerKind { kNone, kRid, kWarmup };

MarkerKind marker_kind(config::CacheBust target) {
  using config::CacheBust;
  switch (target) {
    case CacheBust::kNone:
      return MarkerKind::kNone;
    case CacheBust::kSystemPrefix:
    case CacheBust::kSystemSuffix:
    case CacheBust::kFirstTurnPrefix:
    case CacheBust::kFirstTurnSuffix:
      return MarkerKind::kRid;
    case CacheBust::kWarmupIsolationSystem:
    case CacheBust::kWarmupIsolationFirstTurn:
      return MarkerKind::kWarmup;
  }
  return MarkerKind::kNone;  // unreachable: the switch covers every value
}

bool has_marker_at_edge(const std::string& content, const std::string& marker, bool prefix) {
  if (content.size() < marker.size()) return false;
  return prefix ? content.compare(0, marker.size(), marker) == 0
                : content.compare(content.size() - marker.size(), marker.size(), marker) == 0;
}

}  // namespace

bool cache_bust_is_system_target(config::CacheBust target) {
  using config::CacheBust;
  switch (target) {
    case CacheBust::kSystemPrefix:
    case CacheBust::kSystemSuffix:
    case CacheBust::kWarmupIsolationSystem:
      return true;
    case CacheBust::kNone:
    case CacheBust::kFirstTurnPrefix:
    case CacheBust::kFirstTurnSuffix:
    case CacheBust::kWarmupIsolationFirstTurn:
      return false;
  }
  return false;  // unreachable: the switch covers every value
}

bool cache_bust_is_prefix(config::CacheBust target) {
  using config::CacheBust;
  switch (target) {
    case CacheBust::kSystemSuffix:
    case CacheBust::kFirstTurnSuffix:
      return false;
    case CacheBust::kNone:
    case CacheBust::kSystemPrefix:
    case CacheBust::kFirstTurnPrefix:
    case CacheBust::kWarmupIsolationSystem:
    case CacheBust::kWarmupIsolationFirstTurn:
      return true;
  }
  return true;  // unreachable: the switch covers every value
}

std::string cache_bust_rid_marker(config::CacheBust target, const std::string& unique) {
  const std::string rid = "[rid:" + sha256_hex(unique, kDigestHex) + "]";
  return cache_bust_is_prefix(target) ? rid + "\n\n" : "\n\n" + rid;
}

std::optional<std::string> cache_bust_marker(config::CacheBust target, const std::string& benchmark_id,
                                             const std::string& x_correlation_id, const std::string& conversation_id,
                                             bool warmup) {
  switch (marker_kind(target)) {
    case MarkerKind::kNone:
      return std::nullopt;
    case MarkerKind::kWarmup:
      return warmup ? std::optional<std::string>("[warmup]\n\n") : std::nullopt;
    case MarkerKind::kRid:
      break;
  }
  return cache_bust_rid_marker(target, benchmark_id + ":" + x_correlation_id + ":" + conversation_id);
}

uint32_t cache_bust_marker_tokens(config::CacheBust target, const tok::Tokenizer& tokenizer) {
  if (marker_kind(target) != MarkerKind::kRid) return 0;
  size_t total = 0;
  for (int i = 0; i < kEstimateSamples; ++i) {
    const std::string n = std::to_string(i);
    total += tokenizer.count(cache_bust_rid_marker(target, "estimator:" + n + ":" + n + ":estimator-" + n));
  }
  return static_cast<uint32_t>(std::nearbyint(static_cast<double>(total) / kEstimateSamples));  // half to even
}

std::string apply_cache_bust(config::CacheBust target, const std::string& marker, const std::string& system_message,
                             std::vector<const proto::Turn*>& turns, std::unique_ptr<proto::Turn>& storage) {
  if (marker.empty()) return system_message;
  const bool prefix = cache_bust_is_prefix(target);
  if (cache_bust_is_system_target(target) && !system_message.empty()) {
    if (has_marker_at_edge(system_message, marker, prefix)) return system_message;
    return prefix ? marker + system_message : system_message + marker;
  }
  // The first user message: the first turn that is not the assistant's.
  for (auto& turn : turns) {
    if (turn->role() == "assistant") continue;
    if (!turn->raw_messages().empty()) {
      // A trace's own message array (weka_trace, dag_jsonl): its system message for a system
      // target (when it has one), else its first user message, a string or a first text part.
      auto messages = nlohmann::ordered_json::parse(turn->raw_messages(), nullptr, false);
      if (!messages.is_array()) break;
      nlohmann::ordered_json* content = nullptr;
      for (const char* role : {"system", "user"}) {
        if (std::string(role) == "system" && !cache_bust_is_system_target(target)) continue;
        for (auto& m : messages) {
          if (!m.is_object() || m.value("role", "") != role || !m.contains("content")) continue;
          auto& c = m["content"];
          if (c.is_string()) content = &c;
          for (auto& part : c.is_array() ? c : nlohmann::ordered_json::array())
            if (!content && part.is_object() && part.value("type", "") == "text" && part.contains("text") &&
                part["text"].is_string())
              content = &part["text"];
          if (content) break;
        }
        if (content) break;
      }
      if (!content) break;
      const std::string text = content->get<std::string>();
      if (has_marker_at_edge(text, marker, prefix)) return system_message;
      *content = prefix ? marker + text : text + marker;
      auto copy = std::make_unique<proto::Turn>(*turn);
      copy->set_raw_messages(messages.dump());
      storage = std::move(copy);
      turn = storage.get();
      break;
    }
    auto copy = std::make_unique<proto::Turn>(*turn);
    proto::Text* text = copy->texts_size() > 0 ? copy->mutable_texts(0) : copy->add_texts();
    if (text->contents_size() == 0) {
      text->add_contents(marker);
    } else {
      std::string& content = *text->mutable_contents(0);
      if (has_marker_at_edge(content, marker, prefix)) return system_message;
      content = prefix ? marker + content : content + marker;
    }
    storage = std::move(copy);
    turn = storage.get();
    break;
  }
  return system_message;
}

}  // namespace aiperf::endpoints
