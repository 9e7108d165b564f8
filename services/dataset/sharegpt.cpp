#include "sharegpt.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "dataset_error.h"
#include "tokenizer/hub_http.h"
#include "util/output_paths.h"
#include "util/uuid.h"

namespace aiperf::dataset {
namespace {

using nlohmann::json;

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DatasetFileError(path + ": cannot open the ShareGPT file");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Calls fn(element_text, first_line) for each element of the top-level JSON array, so errors
// can name the line an entry starts on (a JSON parser reports only byte offsets).
template <typename Fn>
void for_each_array_element(const std::string& text, const std::string& path, Fn&& fn) {
  size_t i = text.find_first_not_of(" \t\r\n");
  if (i == std::string::npos || text[i] != '[')
    throw DatasetFileError(path + ":1: the ShareGPT file must be a JSON list of entries");
  size_t line = 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + static_cast<long>(i), '\n'));
  int depth = 0;
  bool in_string = false, escaped = false;
  size_t start = 0, start_line = 0;
  for (++i; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') ++line;
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    const bool at_top = depth == 0;
    if (at_top && (c == ']' || c == ',')) {
      if (start_line != 0) fn(text.substr(start, i - start), start_line);
      start_line = 0;
      if (c == ']') {
        if (text.find_first_not_of(" \t\r\n", i + 1) != std::string::npos)
          throw DatasetFileError(path + ":" + std::to_string(line) + ": unexpected text after the closing ']'");
        return;
      }
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
    if (at_top && start_line == 0) {
      start = i;
      start_line = line;
    }
    if (c == '"') in_string = true;
    else if (c == '{' || c == '[') ++depth;
    else if (c == '}' || c == ']') --depth;
    if (depth < 0) throw DatasetFileError(path + ":" + std::to_string(line) + ": unbalanced brackets");
  }
  throw DatasetFileError(path + ":" + std::to_string(line) + ": the JSON list is not closed (truncated file?)");
}

const std::string& message_value(const json& messages, size_t k) {
  const std::string field = "conversations[" + std::to_string(k) + "]";
  const json& m = messages[k];
  if (!m.is_object()) throw FieldError{field, "must be a JSON object"};
  auto v = m.find("value");
  if (v == m.end() || !v->is_string()) throw FieldError{field + ".value", "must be a string"};
  return v->get_ref<const std::string&>();
}

}  // namespace

std::string sharegpt_cache_path() {
  return (std::filesystem::current_path() / ".cache/aiperf/datasets/ShareGPT_V3_unfiltered_cleaned_split.json").string();
}

void download_sharegpt(const std::string& path, int timeout_seconds) {
  tok::HubResponse r;
  try {
    r = tok::hub_http_get(kShareGptUrl, "", timeout_seconds);
  } catch (const std::exception& e) {
    throw DatasetFileError(std::string("--public-dataset sharegpt: cannot download ") + kShareGptUrl + ": " + e.what());
  }
  if (r.status != 200)
    throw DatasetFileError(std::string("--public-dataset sharegpt: cannot download ") + kShareGptUrl + ": HTTP " +
                           std::to_string(r.status));
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  util::write_file_atomically(path, r.body);
}

std::vector<ShareGptEntry> read_sharegpt(const std::string& path) {
  const std::string text = read_all(path);
  std::vector<ShareGptEntry> out;
  for_each_array_element(text, path, [&](const std::string& element, size_t line) {
    const std::string where = path + ":" + std::to_string(line) + ": ";
    json entry;
    try {
      entry = json::parse(element);
    } catch (const json::parse_error& e) {
      const size_t at = std::min<size_t>(e.byte > 0 ? e.byte - 1 : 0, element.size());
      const size_t err_line = line + static_cast<size_t>(std::count(element.begin(), element.begin() + static_cast<long>(at), '\n'));
      throw DatasetFileError(path + ":" + std::to_string(err_line) + ": invalid JSON: " + e.what());
    } catch (const json::out_of_range& e) {  // a number that overflows
      throw DatasetFileError(where + "invalid JSON: " + e.what());
    }
    try {
      if (!entry.is_object()) throw FieldError{"", "each entry must be a JSON object"};
      auto conv = entry.find("conversations");
      if (conv == entry.end() || conv->is_null()) return;  // AIPerf skips entries without messages
      if (!conv->is_array()) throw FieldError{"conversations", "must be a list of messages"};
      if (conv->size() < 2) return;
      ShareGptEntry e;
      e.prompt = message_value(*conv, 0);
      e.completion = message_value(*conv, 1);
      e.line = line;
      out.push_back(std::move(e));
    } catch (const FieldError& e) {
      throw DatasetFileError(where + (e.field.empty() ? "" : "field '" + e.field + "': ") + e.message);
    }
  });
  return out;
}

std::vector<proto::Conversation> sharegpt_conversations(const std::vector<ShareGptEntry>& entries,
                                                        const tok::Tokenizer& tokenizer, bool osl_given,
                                                        const std::string& path, std::mt19937_64& rng) {
  std::vector<proto::Conversation> out;
  for (const ShareGptEntry& e : entries) {
    const size_t prompt = tokenizer.count(e.prompt);
    const size_t completion = tokenizer.count(e.completion);
    // vLLM's benchmark rules, as AIPerf applies them.
    if (prompt < 4 || prompt > 1024 || (!osl_given && completion < 4) || prompt + completion > 2048) continue;
    proto::Conversation conv;
    conv.set_session_id(util::uuid4(rng));
    proto::Turn* turn = conv.add_turns();
    proto::Text* text = turn->add_texts();
    text->set_name("text");
    text->add_contents(e.prompt);
    turn->set_max_tokens(static_cast<int64_t>(completion));
    out.push_back(std::move(conv));
  }
  if (out.empty())
    throw DatasetFileError(path + ": no ShareGPT entry passes the length rules (prompt 4..1024 tokens, "
                                  "completion >= 4, together <= 2048)");
  return out;
}

}  // namespace aiperf::dataset
