// Finds a tokenizer's chat template and special tokens on disk (see chat_template.h).
#include <filesystem>
#include <fstream>
#include <sstream>

#include "endpoints/chat_template.h"

namespace aiperf::endpoints {
namespace {

namespace fs = std::filesystem;

std::optional<std::string> read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A special token in tokenizer_config.json: a string or an AddedToken object {"content": ...}.
std::optional<std::string> token_text(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_object() && v.contains("content") && v["content"].is_string()) return v["content"].get<std::string>();
  return std::nullopt;
}

fs::path dir_of(const std::string& tokenizer_path) {
  std::error_code ec;
  const fs::path p(tokenizer_path);
  return fs::is_directory(p, ec) ? p : p.parent_path();
}

nlohmann::json read_config(const fs::path& dir) {
  if (auto text = read_file(dir / "tokenizer_config.json")) return nlohmann::json::parse(*text, nullptr, false);
  return nlohmann::json();
}

std::map<std::string, std::string> special_tokens_of(const nlohmann::json& config) {
  std::map<std::string, std::string> specials;
  if (!config.is_object()) return specials;
  // As transformers' special_tokens_map: the named special tokens that are set.
  for (const char* key : {"bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token"}) {
    if (auto it = config.find(key); it != config.end())
      if (auto t = token_text(*it)) specials[key] = *t;
  }
  return specials;
}

}  // namespace

std::map<std::string, std::string> load_special_tokens(const std::string& tokenizer_path) {
  return special_tokens_of(read_config(dir_of(tokenizer_path)));
}

std::optional<ChatTemplate> load_chat_template(const std::string& tokenizer_path) {
  const fs::path dir = dir_of(tokenizer_path);
  std::optional<std::string> source;
  const nlohmann::json config = read_config(dir);
  std::map<std::string, std::string> specials = special_tokens_of(config);
  {
    if (config.is_object()) {
      if (auto it = config.find("chat_template"); it != config.end()) {
        if (it->is_string()) {
          source = it->get<std::string>();
        } else if (it->is_array()) {
          for (const auto& entry : *it)
            if (entry.is_object() && entry.value("name", "") == "default" && entry.contains("template") &&
                entry["template"].is_string())
              source = entry["template"].get<std::string>();
        }
      }
    }
  }
  if (!source) source = read_file(dir / "chat_template.jinja");
  if (!source) return std::nullopt;
  return ChatTemplate(*source, std::move(specials));
}

}  // namespace aiperf::endpoints
