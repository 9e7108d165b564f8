#include "raw_payload.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "dataset_error.h"
#include "util/uuid.h"

namespace aiperf::dataset {
namespace {

namespace fs = std::filesystem;
using ordered_json = nlohmann::ordered_json;

// A body keeps its key order (the server sees what the file says).
proto::Turn raw_turn(const ordered_json& payload) {
  proto::Turn turn;
  turn.set_role("user");
  turn.set_raw_payload(payload.dump());
  // max_tokens of the body, when it states one, for the records (AIPerf reads it back the same way).
  for (const char* key : {"max_completion_tokens", "max_tokens", "max_output_tokens"}) {
    auto it = payload.find(key);
    if (it != payload.end() && it->is_number_integer()) {
      turn.set_max_tokens(it->get<int64_t>());
      break;
    }
  }
  return turn;
}

// Every non-blank line of `path` as a payload; `fn(turn)` receives each in order.
template <typename Fn>
void for_each_payload(const std::string& path, Fn&& fn) {
  std::ifstream f(path);
  if (!f) throw DatasetFileError(path + ": cannot open the input file");
  std::string line;
  for (size_t number = 1; std::getline(f, line); ++number) {
    if (line.find_first_not_of(" \t\r\n") == std::string::npos) continue;
    const std::string where = path + ":" + std::to_string(number) + ": ";
    ordered_json payload;
    try {
      payload = ordered_json::parse(line);
    } catch (const nlohmann::json::exception& e) {
      throw DatasetFileError(where + "invalid JSON: " + e.what());
    }
    if (!payload.is_object()) throw DatasetFileError(where + "a raw_payload line must be a JSON object");
    auto messages = payload.find("messages");
    if (messages == payload.end() || !messages->is_array())
      throw DatasetFileError(where + "field 'messages': a raw_payload line needs a 'messages' array");
    fn(raw_turn(payload));
  }
  if (f.bad()) throw DatasetFileError(path + ": read error");
}

std::vector<std::string> jsonl_files(const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().extension() == ".jsonl") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

bool looks_like_raw_payload(const nlohmann::json& object) {
  if (!object.is_object()) return false;
  auto messages = object.find("messages");
  if (messages == object.end() || !messages->is_array() || object.contains("conversation_id")) return false;
  auto data = object.find("data");
  return data == object.end() || !data->is_array();
}

bool dir_has_raw_payload_jsonl(const std::string& path) {
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return false;
  for (const std::string& file : jsonl_files(path)) {
    std::ifstream f(file);
    std::string line;
    while (std::getline(f, line)) {
      if (line.find_first_not_of(" \t\r\n") == std::string::npos) continue;
      const auto object = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
      if (object.is_discarded()) break;  // AIPerf skips a file whose first line is not JSON
      return object.is_object() && object.contains("messages") && object["messages"].is_array();
    }
  }
  return false;
}

bool looks_like_inputs_json(const nlohmann::json& object) {
  if (!object.is_object()) return false;
  auto data = object.find("data");
  if (data == object.end() || !data->is_array() || data->empty()) return false;
  const auto& first = (*data)[0];
  return first.is_object() && first.contains("payloads") && first["payloads"].is_array();
}

bool is_inputs_json_file(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec) || fs::path(path).extension() != ".json") return false;
  std::ifstream f(path);
  const auto object = nlohmann::json::parse(f, nullptr, /*allow_exceptions=*/false);
  return !object.is_discarded() && looks_like_inputs_json(object);
}

void load_raw_payload(const config::InputConfig& in, CustomDataset& out, std::mt19937_64& rng) {
  if (fs::is_directory(in.input_file)) {
    const auto files = jsonl_files(in.input_file);
    if (files.empty()) throw DatasetFileError(in.input_file + ": the raw_payload directory has no *.jsonl files");
    for (const std::string& file : files) {
      proto::Conversation conv;
      conv.set_session_id(util::uuid4(rng));
      for_each_payload(file, [&](proto::Turn turn) { *conv.add_turns() = std::move(turn); });
      if (conv.turns_size() > 0) out.conversations.push_back(std::move(conv));  // empty files are skipped
    }
  } else {
    for_each_payload(in.input_file, [&](proto::Turn turn) {
      proto::Conversation& conv = out.conversations.emplace_back();
      conv.set_session_id(util::uuid4(rng));
      *conv.add_turns() = std::move(turn);
    });
  }
  out.default_sampling = "sequential";
}

void load_inputs_json(const config::InputConfig& in, CustomDataset& out) {
  const std::string& path = in.input_file;
  std::ifstream f(path);
  if (!f) throw DatasetFileError(path + ": cannot open the input file");
  ordered_json root;
  try {
    root = ordered_json::parse(f);
  } catch (const nlohmann::json::exception& e) {
    throw DatasetFileError(path + ": invalid JSON: " + e.what());
  }
  auto data = root.is_object() ? root.find("data") : root.end();
  if (!root.is_object() || data == root.end() || !data->is_array())
    throw DatasetFileError(path + ": field 'data': an inputs.json file is {\"data\": [{\"session_id\", \"payloads\"}]}");
  std::unordered_map<std::string, size_t> seen;
  for (size_t i = 0; i < data->size(); ++i) {
    const ordered_json& entry = (*data)[i];
    const std::string where = path + ": data[" + std::to_string(i) + "]";
    if (!entry.is_object()) throw DatasetFileError(where + ": must be an object, got " + std::string(entry.type_name()));
    auto sid = entry.find("session_id");
    if (sid == entry.end()) throw DatasetFileError(where + ": missing required key 'session_id'");
    if (!sid->is_string()) throw DatasetFileError(where + ".session_id: must be a string");
    auto payloads = entry.find("payloads");
    if (payloads == entry.end()) throw DatasetFileError(where + ": missing required key 'payloads'");
    if (!payloads->is_array() || payloads->empty())
      throw DatasetFileError(where + ".payloads: must be a non-empty list of request bodies");
    const std::string id = sid->get<std::string>();
    if (auto [it, fresh] = seen.emplace(id, i); !fresh)
      throw DatasetFileError(where + ": duplicate session_id '" + id + "' (already data[" +
                             std::to_string(it->second) + "]); each session_id must be unique");
    proto::Conversation& conv = out.conversations.emplace_back();
    conv.set_session_id(id);
    for (size_t t = 0; t < payloads->size(); ++t) {
      if (!(*payloads)[t].is_object())
        throw DatasetFileError(where + ".payloads[" + std::to_string(t) + "]: must be a JSON object");
      *conv.add_turns() = raw_turn((*payloads)[t]);
    }
  }
  out.default_sampling = "sequential";
}

}  // namespace aiperf::dataset
