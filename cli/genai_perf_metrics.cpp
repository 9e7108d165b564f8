#include "genai_perf_metrics.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>

#include "util/text.h"

namespace aiperf::cli::genai_perf {
namespace {

using J = nlohmann::ordered_json;

bool non_data_field(const std::string& m) {
  return m.rfind(":", 0) == 0 || m.rfind("event:", 0) == 0 || m.rfind("id:", 0) == 0 || m.rfind("retry:", 0) == 0;
}

std::string string_or_empty(const nlohmann::json& j) { return j.is_string() ? j.get<std::string>() : ""; }

// The text of one SSE event or body.
std::string event_text(const std::string& event, Format format) {
  if (event.empty() || non_data_field(event)) return "";
  std::string body = event.rfind("data:", 0) == 0 ? util::trim(event.substr(5), util::kBlankOrNewline)
                                                  : util::trim(event, util::kBlankOrNewline);
  if (body == "[DONE]" || body.empty()) return "";
  const nlohmann::json d = nlohmann::json::parse(body, nullptr, false);
  if (!d.is_object()) return "";
  const auto choices = d.find("choices");
  if (choices == d.end() || !choices->is_array() || choices->empty()) return "";
  const nlohmann::json& c = (*choices)[0];
  if (!c.is_object()) return "";
  const std::string object = d.contains("object") ? string_or_empty(d["object"]) : "";
  if (format == Format::kChat) {
    if (object.empty()) return c.contains("text") ? string_or_empty(c["text"]) : "";
    if (object == "chat.completion")
      return c.contains("message") && c["message"].is_object() && c["message"].contains("content")
                 ? string_or_empty(c["message"]["content"])
                 : "";
    if (object == "chat.completion.chunk")
      return c.contains("delta") && c["delta"].is_object() && c["delta"].contains("content")
                 ? string_or_empty(c["delta"]["content"])
                 : "";
    return "";
  }
  return c.contains("text") ? string_or_empty(c["text"]) : "";
}

// A KServe JSON inference response's text_output elements, joined ("" for anything else).
std::string kserve_text(const std::string& response) {
  const nlohmann::json d = nlohmann::json::parse(response, nullptr, false);
  if (!d.is_object() || !d.contains("outputs") || !d["outputs"].is_array()) return "";
  std::string text;
  for (const nlohmann::json& o : d["outputs"]) {
    if (!o.is_object() || o.value("name", "") != "text_output" || !o.contains("data") || !o["data"].is_array())
      continue;
    for (const nlohmann::json& e : o["data"]) text += string_or_empty(e);
  }
  return text;
}

struct Series {
  std::string name, unit;
  bool system = false;
  bool time = false;  // collected in ns, reported in ms
  std::vector<double> values;
};

// numpy's sum of a contiguous float64 array (pairwise: 8 running sums per block of up to 128
// values, halves above), so that means and deviations round as GenAI-Perf's np.mean and np.std.
double numpy_sum(const double* a, size_t n) {
  if (n < 8) {
    double res = 0.;
    for (size_t i = 0; i < n; ++i) res += a[i];
    return res;
  }
  if (n <= 128) {
    double r[8];
    for (size_t j = 0; j < 8; ++j) r[j] = a[j];
    size_t i = 8;
    for (; i < n - (n % 8); i += 8)
      for (size_t j = 0; j < 8; ++j) r[j] += a[i + j];
    double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res += a[i];
    return res;
  }
  size_t n2 = n / 2;
  n2 -= n2 % 8;
  return numpy_sum(a, n2) + numpy_sum(a + n2, n - n2);
}

J stats(const Series& s) {
  J out = J::object();
  out["unit"] = s.unit;
  const double scale = s.time ? 1e-6 : 1.0;
  const double n = static_cast<double>(s.values.size());
  const double mean = numpy_sum(s.values.data(), s.values.size()) / n;
  out["avg"] = mean * scale;
  if (s.system) return out;
  std::vector<double> sorted = s.values;
  std::sort(sorted.begin(), sorted.end());
  for (const int p : {1, 5, 10, 25, 50, 75, 90, 95, 99}) out["p" + std::to_string(p)] = percentile(sorted, p) * scale;
  out["min"] = sorted.front() * scale;
  out["max"] = sorted.back() * scale;
  std::vector<double> squares;
  squares.reserve(s.values.size());
  for (const double v : s.values) squares.push_back((v - mean) * (v - mean));
  out["std"] = std::sqrt(numpy_sum(squares.data(), squares.size()) / n) * scale;
  return out;
}

}  // namespace

double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const double rank = p / 100.0 * static_cast<double>(sorted.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(rank));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double frac = rank - static_cast<double>(lo);
  // numpy's _lerp: from the upper value when the weight is at least one half.
  const double diff = sorted[hi] - sorted[lo];
  return frac >= 0.5 ? sorted[hi] - diff * (1 - frac) : sorted[lo] + diff * frac;
}

std::string response_text(const std::string& response, Format format) {
  if (format == Format::kEmbeddings) return "";
  if (format == Format::kKserve) return kserve_text(response);
  std::string text;
  const std::string body = util::trim(response, util::kBlankOrNewline);
  size_t start = 0;
  while (start <= body.size()) {
    const size_t end = body.find("\n\n", start);
    text += event_text(util::trim(body.substr(start, end == std::string::npos ? std::string::npos : end - start),
                                  util::kBlankOrNewline),
                       format);
    if (end == std::string::npos) break;
    start = end + 2;
  }
  return text;
}

J compute_statistics(const std::vector<PaRequest>& requests, Format format, const Goodput& goodput,
                     bool drop_empty_responses) {
  const bool llm = format != Format::kEmbeddings;
  Series throughput{"request_throughput", "requests/sec", true, false, {}};
  Series latency{"request_latency", "ms", false, true, {}};
  Series count{"request_count", "count", true, false, {}};
  Series ttft{"time_to_first_token", "ms", false, true, {}};
  Series ttst{"time_to_second_token", "ms", false, true, {}};
  Series itl{"inter_token_latency", "ms", false, true, {}};
  Series token_throughput{"output_token_throughput", "tokens/sec", true, false, {}};
  Series tps_user{"output_token_throughput_per_user", "tokens/sec/user", false, false, {}};
  Series osl{"output_sequence_length", "tokens", false, false, {}};
  Series isl{"input_sequence_length", "tokens", false, false, {}};

  int64_t first_start = INT64_MAX, last_end = 0;
  double total_osl = 0;
  for (const PaRequest& r : requests) {
    std::vector<int64_t> ts;
    if (llm && drop_empty_responses) {
      for (size_t i = 0; i < r.response_outputs.size() && i < r.response_timestamps.size(); ++i)
        if (!response_text(r.response_outputs[i], format).empty()) ts.push_back(r.response_timestamps[i]);
    } else {
      ts = r.response_timestamps;
    }
    if (ts.empty()) continue;  // GenAI-Perf skips a request whose responses are all empty
    first_start = std::min(first_start, r.timestamp);
    last_end = std::max(last_end, ts.back());
    const int64_t lat = ts.back() - r.timestamp;
    latency.values.push_back(static_cast<double>(lat));
    if (!llm) continue;
    const int64_t first = ts.front() - r.timestamp;
    ttft.values.push_back(static_cast<double>(first));
    if (ts.size() > 1) ttst.values.push_back(static_cast<double>(ts[1] - ts[0]));
    isl.values.push_back(static_cast<double>(r.input_tokens));
    osl.values.push_back(static_cast<double>(r.output_tokens));
    total_osl += static_cast<double>(r.output_tokens);
    if (ts.size() > 1 && r.output_tokens > 1) {
      // Python's round(): half to even, as nearbyint under the default rounding mode.
      const double v = std::nearbyint(static_cast<double>(lat - first) / static_cast<double>(r.output_tokens - 1));
      itl.values.push_back(v);
      tps_user.values.push_back(1.0 / (v / 1e9));
    }
  }
  const double duration_s = static_cast<double>(last_end - first_start) / 1e9;
  if (!latency.values.empty()) {
    throughput.values.push_back(static_cast<double>(requests.size()) / duration_s);
    token_throughput.values.push_back(total_osl / duration_s);
  }
  count.values.push_back(static_cast<double>(latency.values.size()));

  Series good{"request_goodput", "requests/sec", true, false, {}};
  if (!goodput.empty()) {
    // The metrics a constraint may name: times (ns per request, the target in ms) and the
    // per-user throughput (the target as is).
    std::vector<std::pair<const Series*, double>> times, rates;
    bool valid = true;
    for (const auto& [name, target] : goodput) {
      const Series* s = name == "request_latency"                 ? &latency
                        : !llm                                      ? nullptr
                        : name == "time_to_first_token"             ? &ttft
                        : name == "time_to_second_token"            ? &ttst
                        : name == "inter_token_latency"             ? &itl
                        : name == "output_token_throughput_per_user" ? &tps_user
                                                                     : nullptr;
      if (!s) valid = false;
      else if (s == &tps_user) rates.emplace_back(s, target);
      else times.emplace_back(s, target * 1e6);
    }
    if (!valid) {
      good.values.push_back(-1.0);
    } else {
      const auto shortest = [](const auto& list) {
        size_t n = SIZE_MAX;
        for (const auto& [s, t] : list) n = std::min(n, s->values.size());
        return n;
      };
      const size_t n = rates.empty() ? shortest(times) : shortest(rates);
      size_t good_count = 0;
      for (size_t i = 0; i < n; ++i) {
        bool ok = true;
        for (const auto& [s, t] : times) ok = ok && i < s->values.size() && s->values[i] <= t;
        for (const auto& [s, t] : rates) ok = ok && i < s->values.size() && s->values[i] >= t;
        if (ok) ++good_count;
      }
      good.values.push_back(static_cast<double>(good_count) / duration_s);
    }
  }

  std::vector<const Series*> order{&throughput, &latency, &good, &count};
  if (llm) order.insert(order.end(), {&ttft, &ttst, &itl, &token_throughput, &tps_user, &osl, &isl});
  J out = J::object();
  for (const Series* s : order) {
    if (s->values.empty()) continue;
    if (s == &itl && std::accumulate(s->values.begin(), s->values.end(), 0.0) == 0) continue;
    out[s->name] = stats(*s);
  }
  return out;
}

}  // namespace aiperf::cli::genai_perf
