#include "sagemaker_capture.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "dataset_error.h"
#include "jsonl_lines.h"
#include "util/uuid.h"

namespace aiperf::dataset {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using nlohmann::ordered_json;

std::vector<std::string> capture_files(const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().extension() == ".jsonl") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

// Standard base64 with padding; whitespace ignored. nullopt on any other character or bad length.
std::optional<std::string> base64_decode(const std::string& text) {
  std::string out;
  uint32_t acc = 0;
  int bits = 0, chars = 0, pad = 0;
  for (char c : text) {
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    int v;
    if (c >= 'A' && c <= 'Z') v = c - 'A';
    else if (c >= 'a' && c <= 'z') v = c - 'a' + 26;
    else if (c >= '0' && c <= '9') v = c - '0' + 52;
    else if (c == '+') v = 62;
    else if (c == '/') v = 63;
    else if (c == '=') { ++pad; ++chars; continue; }
    else return std::nullopt;
    if (pad) return std::nullopt;  // data after padding
    ++chars;
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  if (chars % 4 != 0 || pad > 2) return std::nullopt;
  return out;
}

// A captureData entry's payload: JSON text or base64 of JSON. nullptr when absent or another
// encoding (CSV); FieldError when it does not decode.
// Parsed keeping key order: the messages are replayed as captured.
ordered_json decode_payload(const json& entry, const std::string& field) {
  if (!entry.is_object()) return nullptr;
  auto data = entry.find("data");
  if (data == entry.end() || data->is_null()) return nullptr;
  std::string encoding = "BASE64";
  if (auto e = entry.find("encoding"); e != entry.end() && e->is_string()) encoding = e->get<std::string>();
  if (encoding != "JSON" && encoding != "BASE64") return nullptr;
  if (!data->is_string()) throw FieldError{field + ".data", "must be a string"};
  std::string text = data->get<std::string>();
  if (encoding == "BASE64") {
    auto decoded = base64_decode(text);
    if (!decoded) throw FieldError{field + ".data", "is not valid base64"};
    text = std::move(*decoded);
  }
  ordered_json payload = ordered_json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (payload.is_discarded()) throw FieldError{field + ".data", "the " + encoding + " payload is not JSON"};
  return payload;
}

int days_from_civil(int y, unsigned m, unsigned d) {  // days since 1970-01-01 (proleptic Gregorian)
  y -= m <= 2;
  const int era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int>(doe) - 719468;
}

struct Record {
  proto::Turn turn;
  double timestamp_ms = 0;
};

Record parse_record(const json& object) {
  auto meta = object.find("eventMetadata");
  if (meta == object.end() || !meta->is_object()) throw FieldError{"eventMetadata", "is required (an object)"};
  auto time = meta->find("inferenceTime");
  if (time == meta->end()) throw FieldError{"eventMetadata.inferenceTime", "is required"};
  std::optional<double> ms = time->is_string() ? parse_iso8601_ms(time->get<std::string>()) : std::nullopt;
  if (!ms) throw FieldError{"eventMetadata.inferenceTime", "must be an ISO 8601 time, got " + time->dump()};
  auto capture = object.find("captureData");
  if (capture == object.end() || !capture->is_object() || !capture->contains("endpointInput"))
    throw FieldError{"captureData.endpointInput", "is required"};
  const ordered_json input = decode_payload((*capture)["endpointInput"], "captureData.endpointInput");
  if (!input.is_object() || !input.contains("messages"))
    throw FieldError{"captureData.endpointInput", "the captured request has no 'messages'; only OpenAI-compatible "
                                                  "chat endpoints are supported"};
  const ordered_json& messages = input["messages"];
  if (!messages.is_array() ||
      !std::all_of(messages.begin(), messages.end(), [](const ordered_json& m) { return m.is_object(); }))
    throw FieldError{"captureData.endpointInput", "'messages' must be a list of objects"};
  if (auto out = capture->find("endpointOutput"); out != capture->end()) (void)decode_payload(*out, "captureData.endpointOutput");

  Record r;
  r.timestamp_ms = *ms;
  r.turn.set_raw_messages(messages.dump());
  if (auto tools = input.find("tools"); tools != input.end() && !tools->is_null()) {
    if (!tools->is_array()) throw FieldError{"captureData.endpointInput", "'tools' must be a list"};
    r.turn.set_raw_tools(tools->dump());
  }
  for (const char* key : {"max_tokens", "max_completion_tokens"}) {
    auto it = input.find(key);
    if (it == input.end() || it->is_null()) continue;
    r.turn.set_max_tokens(integer_field(json(*it), std::string("captureData.endpointInput.") + key));
    break;
  }
  return r;
}

}  // namespace

std::optional<double> parse_iso8601_ms(const std::string& s) {
  auto digits = [&](size_t pos, size_t n, int& value) {
    if (pos + n > s.size()) return false;
    value = 0;
    for (size_t i = pos; i < pos + n; ++i) {
      if (s[i] < '0' || s[i] > '9') return false;
      value = value * 10 + (s[i] - '0');
    }
    return true;
  };
  int year, month, day, hour = 0, minute = 0, second = 0;
  if (!digits(0, 4, year) || s.size() < 10 || s[4] != '-' || !digits(5, 2, month) || s[7] != '-' ||
      !digits(8, 2, day) || month < 1 || month > 12 || day < 1 || day > 31)
    return std::nullopt;
  double fraction = 0;
  int offset_minutes = 0;
  size_t pos = 10;
  if (pos < s.size()) {
    if (s[pos] != 'T' && s[pos] != ' ') return std::nullopt;
    if (!digits(pos + 1, 2, hour) || pos + 3 >= s.size() + 0 || s[pos + 3] != ':' || !digits(pos + 4, 2, minute))
      return std::nullopt;
    pos += 6;
    if (pos < s.size() && s[pos] == ':') {
      if (!digits(pos + 1, 2, second)) return std::nullopt;
      pos += 3;
      if (pos < s.size() && (s[pos] == '.' || s[pos] == ',')) {
        double scale = 0.1;
        size_t n = 0;
        for (++pos; pos < s.size() && s[pos] >= '0' && s[pos] <= '9'; ++pos, ++n, scale /= 10) fraction += (s[pos] - '0') * scale;
        if (n == 0) return std::nullopt;
      }
    }
    if (hour > 23 || minute > 59 || second > 59) return std::nullopt;
    if (pos < s.size()) {
      if (s[pos] == 'Z' && pos + 1 == s.size()) {
        pos += 1;
      } else if (s[pos] == '+' || s[pos] == '-') {
        int oh, om;
        if (!digits(pos + 1, 2, oh) || pos + 6 != s.size() || s[pos + 3] != ':' || !digits(pos + 4, 2, om))
          return std::nullopt;
        offset_minutes = (s[pos] == '-' ? -1 : 1) * (oh * 60 + om);
        pos = s.size();
      } else {
        return std::nullopt;
      }
    }
  }
  const double seconds = static_cast<double>(days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day))) * 86400.0 +
                         hour * 3600.0 + minute * 60.0 + second + fraction - offset_minutes * 60.0;
  return seconds * 1000.0;
}

bool looks_like_sagemaker_capture(const json& object) {
  return object.is_object() && object.contains("captureData") && object.contains("eventMetadata");
}

bool dir_has_sagemaker_capture(const std::string& path) {
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return false;
  const auto files = capture_files(path);
  if (files.empty()) return false;
  std::ifstream f(files.front());
  std::string line;
  while (std::getline(f, line)) {
    if (line.find_first_not_of(" \t\r\n") == std::string::npos) continue;
    return looks_like_sagemaker_capture(json::parse(line, nullptr, /*allow_exceptions=*/false));
  }
  return false;
}

void load_sagemaker_capture(const config::InputConfig& in, CustomDataset& out, std::mt19937_64& rng) {
  std::vector<std::string> files{in.input_file};
  if (fs::is_directory(in.input_file)) {
    files = capture_files(in.input_file);
    if (files.empty()) throw DatasetFileError(in.input_file + ": no .jsonl files in the directory");
  }
  std::vector<Record> records;
  for (const std::string& file : files)
    for_each_json_line(file, [&](const json& object, size_t) { records.push_back(parse_record(object)); });
  if (records.empty()) return;
  // Zero-aligned, so --fixed-schedule-start/end-offset are relative to the first request.
  const double first = std::min_element(records.begin(), records.end(), [](const Record& a, const Record& b) {
                         return a.timestamp_ms < b.timestamp_ms;
                       })->timestamp_ms;
  std::stable_sort(records.begin(), records.end(),
                   [](const Record& a, const Record& b) { return a.timestamp_ms < b.timestamp_ms; });
  for (Record& r : records) {
    r.turn.set_timestamp_ms(r.timestamp_ms - first);
    if (outside_fixed_schedule(in, r.turn)) continue;
    proto::Conversation& conv = out.conversations.emplace_back();
    conv.set_session_id(util::uuid4(rng));
    *conv.add_turns() = std::move(r.turn);
  }
  out.default_sampling = "sequential";
}

}  // namespace aiperf::dataset
