#include "genai_perf_export.h"
#include "export/csv_row.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace aiperf::cli::genai_perf {
namespace {

using J = nlohmann::ordered_json;

struct Row {
  std::string name, unit;
};

// GenAI-Perf's request metrics in its table order, and whether each is streaming-only.
std::vector<std::pair<Row, bool>> request_rows(Format format) {
  if (format == Format::kEmbeddings) return {{{"request_latency", "ms"}, false}};
  return {{{"time_to_first_token", "ms"}, true},
          {{"time_to_second_token", "ms"}, true},
          {{"request_latency", "ms"}, false},
          {{"inter_token_latency", "ms"}, true},
          {{"output_token_throughput_per_user", "tokens/sec/user"}, true},
          {{"output_sequence_length", "tokens"}, false},
          {{"input_sequence_length", "tokens"}, false}};
}

// The goodput row appears when --goodput was given (then the statistics hold it).
std::vector<Row> system_rows(Format format, const J& stats) {
  std::vector<Row> rows;
  if (format != Format::kEmbeddings) rows.push_back({"output_token_throughput", "tokens/sec"});
  rows.push_back({"request_throughput", "per sec"});
  if (stats.contains("request_goodput")) rows.push_back({"request_goodput", "per sec"});
  rows.push_back({"request_count", "count"});
  return rows;
}

// "time_to_first_token", "ms" -> "Time To First Token (ms)" (Python's str.title()).
std::string display_name(const Row& r) {
  std::string s = r.name;
  bool word_start = true;
  for (char& c : s) {
    if (c == '_') c = ' ';
    const bool alpha = std::isalpha(static_cast<unsigned char>(c)) != 0;
    if (alpha) c = word_start ? static_cast<char>(std::toupper(static_cast<unsigned char>(c)))
                              : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    word_start = !alpha;
  }
  return r.unit.empty() ? s : s + " (" + r.unit + ")";
}

std::string fetch(const J& stats, const std::string& metric, const std::string& stat) {
  const auto m = stats.find(metric);
  if (m == stats.end() || !m->is_object()) return "N/A";
  const auto v = m->find(stat);
  if (v == m->end() || !v->is_number()) return "N/A";
  return format_stat(v->get<double>());
}

// Terminal columns of UTF-8 text (one per code point: no wide characters here).
size_t cols(const std::string& s) {
  size_t n = 0;
  for (const char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

// Greedy word wrap at `width`, as rich wraps a cell: a word longer than the width is cut to
// width - 1 characters and an ellipsis (rich's default overflow).
std::vector<std::string> wrap(const std::string& text, size_t width) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string word, line;
  while (in >> word) {
    if (word.size() > width) word = word.substr(0, width > 0 ? width - 1 : 0) + "\u2026";
    if (line.empty())
      line = word;
    else if (cols(line) + 1 + cols(word) <= width)
      line += " " + word;
    else
      lines.push_back(line), line = word;
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

std::string repeat(const std::string& s, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}

std::string pad_left(const std::string& s, size_t width) {
  return cols(s) >= width ? s : std::string(width - cols(s), ' ') + s;
}

}  // namespace

std::string format_stat(double v) {
  // Python prints inf, -inf and nan as such (e.g. the per-user throughput of responses that
  // arrived in the same nanosecond).
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s = buf;
  const bool negative = s[0] == '-';
  const size_t digits_start = negative ? 1 : 0;
  const size_t dot = s.find('.');
  std::string int_part = s.substr(digits_start, dot - digits_start);
  std::string grouped;
  for (size_t i = 0; i < int_part.size(); ++i) {
    if (i > 0 && (int_part.size() - i) % 3 == 0) grouped += ',';
    grouped += int_part[i];
  }
  return (negative ? "-" : "") + grouped + s.substr(dot);
}

std::vector<PaRequest> requests_from_exports(std::istream& raw_jsonl, std::istream& records_jsonl) {
  struct Counts {
    int64_t isl = 0, osl = 0;
  };
  std::map<std::string, Counts> counts;
  std::string line;
  const auto metric = [](const nlohmann::json& metrics, const char* tag) -> std::optional<int64_t> {
    const auto m = metrics.find(tag);
    if (m == metrics.end() || !m->is_object() || !m->contains("value") || !(*m)["value"].is_number()) return std::nullopt;
    return (*m)["value"].get<int64_t>();
  };
  for (size_t n = 1; std::getline(records_jsonl, line); ++n) {
    if (line.empty()) continue;
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_object() || !j.contains("metadata"))
      throw std::runtime_error("profile_export.jsonl:" + std::to_string(n) + ": not a record");
    const std::string id = j["metadata"].value("x_request_id", "");
    const nlohmann::json metrics = j.value("metrics", nlohmann::json::object());
    Counts c;
    c.isl = metric(metrics, "input_sequence_length").value_or(0);
    c.osl = metric(metrics, "output_token_count").value_or(metric(metrics, "output_sequence_length").value_or(0));
    counts[id] = c;
  }
  std::vector<PaRequest> out;
  for (size_t n = 1; std::getline(raw_jsonl, line); ++n) {
    if (line.empty()) continue;
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_object() || !j.contains("metadata") || !j["metadata"].is_object())
      throw std::runtime_error("profile_export_raw.jsonl:" + std::to_string(n) + ": not a raw record");
    const nlohmann::json& meta = j["metadata"];
    if (meta.value("benchmark_phase", "profiling") != "profiling") continue;
    if (j.contains("error") && !j["error"].is_null()) continue;
    if (j.value("status", 200) != 200) continue;
    PaRequest r;
    r.timestamp = meta.value("request_start_ns", int64_t{0});
    r.conversation_id = meta.value("conversation_id", "");
    r.turn_index = meta.value("turn_index", int64_t{0});
    const int64_t perf0 = j.value("start_perf_ns", int64_t{0});
    r.payload = j.contains("payload") ? (j["payload"].is_string() ? j["payload"].get<std::string>() : j["payload"].dump())
                                      : std::string();
    for (const nlohmann::json& resp : j.value("responses", nlohmann::json::array())) {
      r.response_timestamps.push_back(r.timestamp + (resp.value("perf_ns", perf0) - perf0));
      std::string text;
      if (resp.contains("packets")) {
        for (const nlohmann::json& p : resp["packets"]) {
          const std::string name = p.value("name", "");
          const std::string value = p.value("value", "");
          text += (name.empty() ? std::string(":") : name + ": ") + value + "\n\n";
        }
      } else {
        text = resp.value("text", "");
      }
      r.response_outputs.push_back(text);
    }
    if (const auto c = counts.find(meta.value("x_request_id", "")); c != counts.end()) {
      r.input_tokens = c->second.isl;
      r.output_tokens = c->second.osl;
    }
    out.push_back(std::move(r));
  }
  std::stable_sort(out.begin(), out.end(), [](const PaRequest& a, const PaRequest& b) { return a.timestamp < b.timestamp; });
  return out;
}

J pa_profile_export(const std::vector<PaRequest>& requests, const std::string& mode, const J& value,
                    const std::string& service_kind, const std::string& endpoint, const std::string& version,
                    const std::vector<int64_t>& window_boundaries) {
  J reqs = J::array();
  int64_t first = 0, last = 0;
  for (const PaRequest& r : requests) {
    J outputs = J::array();
    // perf_analyzer exports a Triton response as its output tensors: {"text_output": text}.
    for (const std::string& o : r.response_outputs)
      outputs.push_back(service_kind == "triton" ? J{{"text_output", response_text(o, Format::kKserve)}}
                                                 : J{{"response", o}});
    J inputs{{"payload", r.payload}};
    if (!r.session_id.empty()) inputs["session_id"] = r.session_id;
    if (r.delay_ms) inputs["delay"] = *r.delay_ms;
    reqs.push_back(J{{"timestamp", r.timestamp},
                     {"request_inputs", inputs},
                     {"response_timestamps", r.response_timestamps},
                     {"response_outputs", outputs}});
    if (first == 0 || r.timestamp < first) first = r.timestamp;
    if (!r.response_timestamps.empty()) last = std::max(last, r.response_timestamps.back());
  }
  J experiment{{"experiment", {{"mode", mode}, {"value", value}}},
               {"requests", reqs},
               {"window_boundaries", window_boundaries.empty() ? J::array({first, last}) : J(window_boundaries)}};
  return J{{"experiments", J::array({experiment})},
           {"version", version},
           {"service_kind", service_kind},
           {"endpoint", endpoint}};
}

J genai_inputs(const J& aiperf_inputs, bool sessions) {
  J data = J::array();
  const auto delays = session_delays(aiperf_inputs);
  if (aiperf_inputs.is_object() && aiperf_inputs.contains("data") && aiperf_inputs["data"].is_array()) {
    for (const J& session : aiperf_inputs["data"]) {
      if (!session.is_object() || !session.contains("payloads")) continue;
      const std::string id = session.value("session_id", "");
      const auto d = delays.find(id);
      size_t turn = 0;
      for (const J& p : session["payloads"]) {
        J row{{"payload", J::array({p})}};
        if (sessions) {
          row["session_id"] = J::array({id});
          if (d != delays.end() && turn < d->second.size()) row["delay"] = J::array({d->second[turn]});
        }
        data.push_back(std::move(row));
        ++turn;
      }
    }
  }
  return J{{"data", data}};
}

std::map<std::string, std::vector<int64_t>> session_delays(const J& aiperf_inputs) {
  std::map<std::string, std::vector<int64_t>> out;
  if (!aiperf_inputs.is_object() || !aiperf_inputs.contains("data") || !aiperf_inputs["data"].is_array()) return out;
  for (const J& session : aiperf_inputs["data"]) {
    if (!session.is_object() || !session.contains("genai_perf_turn_delays_ms")) continue;
    const J& before = session["genai_perf_turn_delays_ms"];  // each turn's delay before it
    std::vector<int64_t>& after = out[session.value("session_id", "")];
    for (size_t i = 1; i < before.size(); ++i) after.push_back(before[i].get<int64_t>());
  }
  return out;
}

std::string csv_text(const J& stats, Format format, bool streaming) {
  static const std::vector<std::string> kHeader{"Metric", "avg", "min", "max", "p99", "p95", "p90",
                                                "p75",    "p50", "p25", "p10", "p5",  "p1"};
  std::string out;
  const auto row = [&out](const std::vector<std::string>& cells) { exporting::append_csv_row(out, cells); };
  row(kHeader);
  for (const auto& [r, streaming_only] : request_rows(format)) {
    if (format != Format::kEmbeddings && streaming_only && !streaming) continue;
    std::vector<std::string> cells{display_name(r)};
    for (size_t i = 1; i < kHeader.size(); ++i) cells.push_back(fetch(stats, r.name, kHeader[i]));
    row(cells);
  }
  out += "\r\n";
  row({"Metric", "Value"});
  for (const Row& r : system_rows(format, stats)) row({display_name(r), fetch(stats, r.name, "avg")});
  return out;
}

std::string console_table(const J& stats, Format format, bool streaming, size_t width, const std::string& title_text) {
  static const std::vector<std::string> kStats{"avg", "min", "max", "p99", "p90", "p75"};
  std::vector<std::vector<std::string>> rows;  // first cell: the name, textwrap'ed at 36 with '\n'
  for (const auto& [r, streaming_only] : request_rows(format)) {
    if (format != Format::kEmbeddings && streaming_only && !streaming) continue;
    std::vector<std::string> cells{display_name(r)};
    for (const std::string& s : kStats) cells.push_back(fetch(stats, r.name, s));
    rows.push_back(cells);
  }
  for (const Row& r : system_rows(format, stats)) {
    std::vector<std::string> cells{display_name(r), fetch(stats, r.name, "avg")};
    for (size_t i = 1; i < kStats.size(); ++i) cells.push_back("N/A");
    rows.push_back(cells);
  }
  // Column widths: each value column as wide as its widest cell; the name column takes what is
  // left of `width` (its names wrapped first at 36, as GenAI-Perf does, then at the column).
  std::vector<size_t> w(kStats.size() + 1, 0);
  w[0] = std::string("Statistic").size();
  for (size_t c = 1; c < w.size(); ++c) w[c] = kStats[c - 1].size();
  std::vector<std::vector<std::string>> name_lines;
  for (const auto& r : rows) {
    name_lines.push_back(wrap(r[0], 36));
    for (const std::string& l : name_lines.back()) w[0] = std::max(w[0], l.size());
    for (size_t c = 1; c < w.size(); ++c) w[c] = std::max(w[c], r[c].size());
  }
  size_t others = 1;
  for (size_t c = 1; c < w.size(); ++c) others += w[c] + 3;
  const size_t room = width > others + 4 ? width - others - 3 : 9;
  w[0] = std::min(w[0], std::max<size_t>(room, 9));
  size_t total = 1;
  for (const size_t x : w) total += x + 3;

  std::string title = std::string("NVIDIA GenAI-Perf | ") + (!title_text.empty()             ? title_text
                                                             : format == Format::kEmbeddings ? "Embeddings Metrics"
                                                                                             : "LLM Metrics");
  std::string out;
  const size_t left = total > title.size() ? (total - title.size()) / 2 : 0;
  out += std::string(left, ' ') + title + std::string(total > title.size() + left ? total - title.size() - left : 0, ' ') + "\n";
  const auto border = [&](const char* l, const char* fill, const char* mid, const char* r) {
    std::string s = l;
    for (size_t c = 0; c < w.size(); ++c) s += repeat(fill, w[c] + 2) + (c + 1 < w.size() ? mid : r);
    return s + "\n";
  };
  out += border("┏", "━", "┳", "┓");
  out += "┃";
  out += " " + pad_left("Statistic", w[0]) + " ┃";
  for (size_t c = 1; c < w.size(); ++c) out += " " + pad_left(kStats[c - 1], w[c]) + " ┃";
  out += "\n";
  out += border("┡", "━", "╇", "┩");
  for (size_t i = 0; i < rows.size(); ++i) {
    std::vector<std::string> lines;
    for (const std::string& l : name_lines[i])
      for (const std::string& x : wrap(l, w[0])) lines.push_back(x);
    for (size_t k = 0; k < lines.size(); ++k) {
      out += "│ " + pad_left(lines[k], w[0]) + " │";
      for (size_t c = 1; c < w.size(); ++c) out += " " + pad_left(k == 0 ? rows[i][c] : "", w[c]) + " │";
      out += "\n";
    }
  }
  out += border("└", "─", "┴", "┘");
  return out;
}

}  // namespace aiperf::cli::genai_perf
