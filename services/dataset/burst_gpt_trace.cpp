#include "burst_gpt_trace.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>

#include "dataset_error.h"
#include "synthesis_mooncake.h"
#include "util/uuid.h"
#include "util/text.h"

namespace aiperf::dataset {
namespace {

constexpr const char* kTimestamp = "Timestamp";
constexpr const char* kRequest = "Request tokens";
constexpr const char* kResponse = "Response tokens";

// One CSV record (RFC 4180 quoting; a quoted field may not span lines here).
std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c != '\r' || i + 1 != line.size()) {
      fields.back() += c;
    }
  }
  return fields;
}

// Python float(): the whole (trimmed) text must be a number; non-finite values are refused.
std::optional<double> parse_float(const std::string& text) {
  const std::string s = util::trim(text);
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(v)) return std::nullopt;
  return v;
}

// Python int(): optional sign, decimal digits only ("12.0" is not an int).
std::optional<int64_t> parse_int(const std::string& text) {
  const std::string s = util::trim(text);
  size_t i = (!s.empty() && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
  if (i == s.size() || s.size() - i > 15) return std::nullopt;
  for (size_t k = i; k < s.size(); ++k)
    if (s[k] < '0' || s[k] > '9') return std::nullopt;
  return std::stoll(s);
}

struct Header {
  std::optional<size_t> timestamp, request, response;
  bool complete() const { return timestamp && request && response; }
};

Header read_header(const std::string& line) {
  Header h;
  const auto names = split_csv(line);
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == kTimestamp && !h.timestamp) h.timestamp = i;
    if (names[i] == kRequest && !h.request) h.request = i;
    if (names[i] == kResponse && !h.response) h.response = i;
  }
  return h;
}

}  // namespace

bool is_burst_gpt_csv(const std::string& path) {
  std::ifstream f(path);
  std::string line;
  return f && std::getline(f, line) && read_header(line).complete();
}

void load_burst_gpt_trace(const config::InputConfig& in, CustomDataset& out, std::mt19937_64& rng) {
  std::ifstream f(in.input_file);
  if (!f) throw DatasetFileError(in.input_file + ": cannot open the input file");
  std::string line;
  std::getline(f, line);
  const Header h = read_header(line);
  if (!h.complete()) {
    std::string missing;
    for (auto [col, name] : {std::pair{h.timestamp, kTimestamp}, {h.request, kRequest}, {h.response, kResponse}})
      if (!col) missing += std::string(missing.empty() ? "'" : ", '") + name + "'";
    throw DatasetFileError(in.input_file + ":1: the BurstGPT CSV header lacks the column(s) " + missing +
                           " (needs Timestamp, Request tokens, Response tokens)");
  }
  for (size_t number = 2; std::getline(f, line); ++number) {
    if (util::trim(line).empty() || line == "\r") continue;
    const auto fields = split_csv(line);
    auto cell = [&](size_t i) { return i < fields.size() ? std::optional(fields[i]) : std::nullopt; };
    const auto ts_text = cell(*h.timestamp), in_text = cell(*h.request), out_text = cell(*h.response);
    const auto ts = ts_text ? parse_float(*ts_text) : std::nullopt;
    const auto isl = in_text ? parse_int(*in_text) : std::nullopt;
    const auto osl = out_text ? parse_int(*out_text) : std::nullopt;
    if (!ts || !isl || !osl) continue;  // AIPerf skips rows it cannot parse
    const std::string where = in.input_file + ":" + std::to_string(number) + ": field '";
    if (*isl < 0) throw DatasetFileError(where + kRequest + "': must be >= 0, got " + std::to_string(*isl));
    if (*osl < 1)
      throw DatasetFileError(where + kResponse + "': must be >= 1 (a max_tokens), got " + std::to_string(*osl) +
                             "; drop such rows (e.g. failed requests) from the trace");
    proto::Turn turn;
    turn.set_timestamp_ms(*ts * 1000.0);  // the trace is in seconds
    turn.set_max_tokens(*osl);
    if (outside_fixed_schedule(in, turn) || over_synthesis_max_isl(in, *isl)) continue;
    proto::Conversation& conv = out.conversations.emplace_back();
    conv.set_session_id(util::uuid4(rng));
    *conv.add_turns() = std::move(turn);
    PendingPrompt prompt;
    prompt.conversation = out.conversations.size() - 1;
    prompt.input_length = static_cast<uint32_t>(*isl);
    out.pending.push_back(std::move(prompt));
  }
  if (f.bad()) throw DatasetFileError(in.input_file + ": read error");
  apply_pending_trace_synthesis(in, trace_block_size(in), out);
  out.default_sampling = "sequential";
}

}  // namespace aiperf::dataset
