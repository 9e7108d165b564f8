#include "reply_rules.h"

#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace aiperf::mock {

std::vector<ReplyRule> load_reply_rules(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("--reply-rules " + path + ": cannot be read");
  std::vector<ReplyRule> rules;
  std::string line;
  for (size_t n = 1; std::getline(in, line); ++n) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_object() || !j.contains("match") || !j["match"].is_string() || !j.contains("reply") ||
        !j["reply"].is_string() || j["match"].get<std::string>().empty())
      throw std::runtime_error("--reply-rules " + path + ":" + std::to_string(n) +
                               ": expected {\"match\": non-empty string, \"reply\": string}");
    const std::string quoted = nlohmann::json(j["reply"].get<std::string>()).dump();
    rules.push_back({j["match"].get<std::string>(), quoted.substr(1, quoted.size() - 2)});
  }
  return rules;
}

const ReplyRule* find_reply_rule(const std::vector<ReplyRule>& rules, std::string_view body) {
  for (const ReplyRule& r : rules)
    if (body.find(r.match) != std::string_view::npos) return &r;
  return nullptr;
}

}  // namespace aiperf::mock
