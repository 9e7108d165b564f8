#include "export/client_server.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <vector>

#include "export/csv_row.h"
#include "export/metric_lookup.h"
#include "export/number_format.h"
#include "export/text_table.h"
#include "export/warning_panels.h"

namespace aiperf::exporting {

namespace {

using Json = nlohmann::ordered_json;

std::optional<double> sum_of(const proto::ProfileResults& r, std::string_view tag) {
  const proto::MetricResult* m = find_metric(r, tag);
  if (!m || m->count() == 0 || !m->has_sum()) return std::nullopt;
  return m->sum();
}

std::optional<double> avg_of(const proto::ProfileResults& r, std::string_view tag) {
  const proto::MetricResult* m = find_metric(r, tag);
  if (!m || !m->has_avg()) return std::nullopt;
  if (m->is_record_metric() && m->count() == 0) return std::nullopt;
  return m->avg();
}

std::optional<double> count_of(const proto::ProfileResults& r, std::string_view tag) {
  const proto::MetricResult* m = find_metric(r, tag);
  if (!m || m->count() == 0) return std::nullopt;
  return static_cast<double>(m->count());
}

std::optional<double> plus(std::optional<double> a, std::optional<double> b) {
  if (!a) return b;
  if (!b) return a;
  return *a + *b;
}

std::optional<double> scaled(std::optional<double> v, double factor) {
  if (!v) return std::nullopt;
  return *v * factor;
}

struct Row {
  std::string_view quantity, label, source, unit;
  std::optional<double> client, server;
};

// Integral values (token and request counts) stay integers in the JSON.
Json number(double v) {
  if (std::nearbyint(v) == v && std::fabs(v) < 9.0e15) return static_cast<int64_t>(v);
  return v;
}

std::string pct_text(double pct) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", pct);
  return buf;
}

std::string value_text(double v, std::string_view unit) {
  if (unit == "tokens" || unit == "requests") return grouped_int(static_cast<int64_t>(std::llround(v)));
  char buf[64];
  std::snprintf(buf, sizeof buf, unit == "sec" ? "%.4f" : "%.2f", v);
  if (buf[0] == '-' && std::strspn(buf + 1, "0.") == std::strlen(buf + 1)) return buf + 1;  // no "-0.00"
  return buf;
}

std::string source_text(const std::string& source) {
  if (source == "usage") return "usage blocks";
  if (source == "timings") return "llama.cpp timings";
  return source + " counters";
}

// One line per disagreement beyond the threshold, saying what usually causes it: a token total's
// sources are named together ("the server 48 (usage blocks, llama.cpp timings)"), requests per source.
std::vector<std::string> warnings_of(const Json& rows, bool server_templates_prompt) {
  std::vector<std::string> out;
  const std::string window = " Counters also move with requests outside the profiling window or from other clients.";
  auto is_counter = [](const std::string& source) { return source != "usage" && source != "timings"; };
  for (const char* quantity : {"requests", "input_tokens_total", "output_tokens_total"}) {
    std::optional<double> client;
    std::string unit;
    double worst_pct = 0;
    bool counters = false;
    std::vector<std::pair<double, std::string>> servers;  // value, its sources joined
    for (const Json& row : rows) {
      if (row["quantity"] != quantity || !row.contains("client") || !row.contains("difference_pct")) continue;
      const std::string source = row["source"].get<std::string>();
      const double c = row["client"].get<double>(), server = row["server"].get<double>();
      const double pct = row["difference_pct"].get<double>();
      unit = row["unit"].get<std::string>();
      const std::string counts = "the client counted " + value_text(c, unit) + ", the server " +
                                 value_text(server, unit) + " (" + source_text(source) + ")";
      if (std::string_view(quantity) == "requests") {
        if (is_counter(source) && std::fabs(pct) > kClientServerThresholdPct)
          out.push_back("Requests: " + counts + ", " + pct_text(std::fabs(pct)) + " apart: the server counted " +
                        (server < c ? "fewer" : "more") + " finished requests than succeeded for the client." +
                        window);
        else if (!is_counter(source) && server < c)
          out.push_back("Requests: " + counts + ": the other responses carried no " + source_text(source) + ".");
        continue;
      }
      if (std::fabs(pct) <= kClientServerThresholdPct) continue;
      // A chat template's tokens are the server's to add: more input tokens there is expected.
      if (server_templates_prompt && std::string_view(quantity) == "input_tokens_total" && server > c) continue;
      client = c;
      worst_pct = std::max(worst_pct, std::fabs(pct));
      counters = counters || is_counter(source);
      auto same = std::find_if(servers.begin(), servers.end(), [&](const auto& e) { return e.first == server; });
      if (same == servers.end())
        servers.emplace_back(server, source_text(source));
      else
        same->second += ", " + source_text(source);
    }
    if (!client) continue;
    std::string counts = "the client counted " + value_text(*client, unit) + ", the server ";
    for (std::size_t i = 0; i < servers.size(); ++i) {
      if (i) counts += i + 1 == servers.size() ? " and " : ", ";
      counts += value_text(servers[i].first, unit) + " (" + servers[i].second + ")";
    }
    counts += std::string(servers.size() > 1 ? ", up to " : ", ") + pct_text(worst_pct) + " apart: ";
    if (std::string_view(quantity) == "input_tokens_total")
      out.push_back("Input tokens: " + counts +
                    "the server truncated or templated the prompt (a chat template adds tokens), or --tokenizer is "
                    "not the server's." + (counters ? window : ""));
    else
      out.push_back("Output tokens: " + counts +
                    "the client's tokenizer does not count the server's text as the server does "
                    "(--use-server-token-count takes the server's counts), or responses were cut short." +
                    (counters ? window : ""));
  }
  return out;
}

// Appends `text` as lines of at most kWidth columns (broken at spaces), continuations indented.
void wrap(const std::string& text, std::vector<std::string>& lines) {
  constexpr std::size_t kWidth = 100;
  std::string line;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    if (!line.empty() && line.size() + 1 + word.size() > kWidth) {
      lines.push_back(line);
      line = "  ";
    } else if (!line.empty() && line != "  ") {
      line += ' ';
    }
    line += word;
    start = end + 1;
  }
  if (!line.empty()) lines.push_back(line);
}

}  // namespace

nlohmann::json counter_totals_json(const ServerCounterTotals& t) {
  nlohmann::json j = nlohmann::json::object();
  j["family"] = t.family;
  auto put = [&](const char* key, const std::optional<double>& v) {
    if (v) j[key] = *v;
  };
  put("requests", t.requests);
  put("prompt_tokens", t.prompt_tokens);
  put("cached_prompt_tokens", t.cached_prompt_tokens);
  put("generation_tokens", t.generation_tokens);
  put("prompt_seconds", t.prompt_seconds);
  put("generation_seconds", t.generation_seconds);
  return j;
}

std::optional<ServerCounterTotals> counter_totals_from_json(std::string_view text) {
  if (text.empty()) return std::nullopt;
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_object() || !j.contains("family") || !j["family"].is_string()) return std::nullopt;
  ServerCounterTotals t;
  t.family = j["family"].get<std::string>();
  auto get = [&](const char* key) -> std::optional<double> {
    auto it = j.find(key);
    if (it == j.end() || !it->is_number()) return std::nullopt;
    return it->get<double>();
  };
  t.requests = get("requests");
  t.prompt_tokens = get("prompt_tokens");
  t.cached_prompt_tokens = get("cached_prompt_tokens");
  t.generation_tokens = get("generation_tokens");
  t.prompt_seconds = get("prompt_seconds");
  t.generation_seconds = get("generation_seconds");
  return t;
}

nlohmann::ordered_json client_server_section(const proto::ProfileResults& r,
                                             const std::optional<ServerCounterTotals>& counters,
                                             bool counters_include_warmup, bool server_templates_prompt) {
  const std::optional<double> valid = avg_of(r, "request_count");
  const std::optional<double> isl = sum_of(r, "input_sequence_length");
  const std::optional<double> osl = sum_of(r, "output_sequence_length");
  const std::optional<double> prefill_mean = avg_of(r, "server_prefill_time");
  const std::optional<double> decode_mean = avg_of(r, "server_decode_time");
  const std::string family = counters ? counters->family : "";
  // The client figure a counter row is compared with: none when the counters may hold the warmup.
  auto vs = [&](std::optional<double> client) { return counters_include_warmup ? std::nullopt : client; };

  std::vector<Row> rows;
  auto add = [&](std::string_view q, std::string_view label, std::string_view source, std::string_view unit,
                 std::optional<double> client, std::optional<double> server) {
    if (server) rows.push_back(Row{q, label, source, unit, client, server});
  };
  const std::optional<double> usage_count = count_of(r, "usage_prompt_tokens") ? count_of(r, "usage_prompt_tokens")
                                                                               : count_of(r, "usage_completion_tokens");
  const std::optional<double> timings_count = count_of(r, "server_prefill_time") ? count_of(r, "server_prefill_time")
                                                                                 : count_of(r, "server_decode_tokens");
  add("requests", "Requests answered", "usage", "requests", valid, usage_count);
  add("requests", "Requests answered", "timings", "requests", valid, timings_count);
  if (counters) add("requests", "Requests answered", family, "requests", vs(valid), counters->requests);
  const std::optional<double> timings_input =
      sum_of(r, "server_prefill_tokens") ? plus(sum_of(r, "server_prefill_tokens"), sum_of(r, "server_cached_tokens"))
                                         : std::nullopt;
  add("input_tokens_total", "Input tokens, total", "usage", "tokens", isl, sum_of(r, "usage_prompt_tokens"));
  add("input_tokens_total", "Input tokens, total", "timings", "tokens", isl, timings_input);
  if (counters) add("input_tokens_total", "Input tokens, total", family, "tokens", vs(isl), counters->prompt_tokens);
  add("output_tokens_total", "Output tokens, total", "usage", "tokens", osl, sum_of(r, "usage_completion_tokens"));
  add("output_tokens_total", "Output tokens, total", "timings", "tokens", osl, sum_of(r, "server_decode_tokens"));
  if (counters) add("output_tokens_total", "Output tokens, total", family, "tokens", vs(osl), counters->generation_tokens);
  add("cached_input_tokens_total", "Cached input tokens, total", "timings", "tokens", std::nullopt,
      sum_of(r, "server_cached_tokens"));
  if (counters)
    add("cached_input_tokens_total", "Cached input tokens, total", family, "tokens", std::nullopt,
        counters->cached_prompt_tokens);
  add("ttft_vs_server_prefill", "TTFT vs server prefill, mean", "timings", "ms", avg_of(r, "time_to_first_token"),
      prefill_mean);
  add("itl_vs_server_decode_per_token", "ITL vs server decode per token, mean", "timings", "ms",
      avg_of(r, "inter_token_latency"), avg_of(r, "server_inter_token_latency"));
  add("latency_vs_server_time", "Request latency vs server time, mean", "timings", "ms",
      avg_of(r, "request_latency"), prefill_mean && decode_mean ? plus(prefill_mean, decode_mean) : std::nullopt);
  add("server_prefill_time_total", "Server prefill time, total", "timings", "sec", std::nullopt,
      scaled(sum_of(r, "server_prefill_time"), 1e-3));
  if (counters)
    add("server_prefill_time_total", "Server prefill time, total", family, "sec", std::nullopt,
        counters->prompt_seconds);
  add("server_decode_time_total", "Server decode time, total", "timings", "sec", std::nullopt,
      scaled(sum_of(r, "server_decode_time"), 1e-3));
  if (counters)
    add("server_decode_time_total", "Server decode time, total", family, "sec", std::nullopt,
        counters->generation_seconds);
  if (rows.empty()) return Json();

  Json section = Json::object();
  Json sources = Json::array();
  for (const char* s : {"usage", "timings"}) {
    for (const Row& row : rows) {
      if (row.source == s) {
        sources.push_back(s);
        break;
      }
    }
  }
  if (counters) sources.push_back(family);
  section["sources"] = sources;
  Json out_rows = Json::array();
  for (const Row& row : rows) {
    Json j = Json::object();
    j["quantity"] = row.quantity;
    j["label"] = row.label;
    j["source"] = row.source;
    j["unit"] = row.unit;
    if (row.client) j["client"] = number(*row.client);
    j["server"] = number(*row.server);
    if (row.client) {
      j["difference"] = number(*row.client - *row.server);
      if (*row.client != 0) j["difference_pct"] = 100.0 * (*row.client - *row.server) / *row.client;
    }
    out_rows.push_back(std::move(j));
  }
  section["rows"] = out_rows;
  if (counters && counters_include_warmup)
    section["counters_note"] = "The " + family + " counters' window starts at the last scrape before profiling and "
                               "may hold the warmup requests: not compared with the client's figures.";
  if (counters) {
    Json c = Json::object();
    const nlohmann::json totals = counter_totals_json(*counters);  // items() must not outlive it
    for (const auto& [k, v] : totals.items()) c[k] = v;
    section["server_counters"] = c;
  }
  Json warnings = Json::array();
  for (std::string& w : warnings_of(out_rows, server_templates_prompt)) warnings.push_back(std::move(w));
  section["threshold_pct"] = kClientServerThresholdPct;
  section["warnings"] = warnings;
  return section;
}

ClientServerView client_server_view(const nlohmann::ordered_json& section) {
  ClientServerView v;
  if (!section.is_object() || !section.contains("rows")) return v;
  v.title = "NVIDIA AIPerf | Client vs Server";
  v.headers = {"Quantity", "Server source", "Client", "Server", "Difference"};
  for (const Json& row : section["rows"]) {
    const std::string unit = row["unit"].get<std::string>();
    std::string client = "-", difference = "-";
    if (row.contains("client")) {
      client = value_text(row["client"].get<double>(), unit);
      difference = value_text(row["difference"].get<double>(), unit);
      if (row.contains("difference_pct") && (unit == "tokens" || unit == "requests"))
        difference += " (" + pct_text(row["difference_pct"].get<double>()) + ")";
    }
    v.rows.push_back({row["label"].get<std::string>() + " (" + unit + ")", source_text(row["source"].get<std::string>()),
                      client, value_text(row["server"].get<double>(), unit), difference});
  }
  v.notes.push_back(
      "Difference = client - server. For times it is what the server did not spend on the request: network "
      "both ways and queueing for a slot (TTFT also holds tokenization and the first decode step).");
  if (section.contains("counters_note")) v.notes.push_back(section["counters_note"].get<std::string>());
  for (const Json& w : section["warnings"]) v.warnings.push_back(w.get<std::string>());
  return v;
}

std::string format_client_server_console(const nlohmann::ordered_json& section, bool unicode_box) {
  const ClientServerView v = client_server_view(section);
  if (v.headers.empty()) return "";
  TextTable t;
  t.title = v.title;
  t.headers = v.headers;
  t.justify = {Justify::kLeft, Justify::kLeft, Justify::kRight, Justify::kRight, Justify::kRight};
  t.rows = v.rows;
  std::string out = "\n" + render_table(t, unicode_box);
  std::vector<std::string> notes;
  for (const std::string& n : v.notes) wrap(n, notes);
  for (const std::string& l : notes) out += l + "\n";
  std::vector<std::string> lines;
  for (const std::string& w : v.warnings) wrap(w, lines);
  if (!lines.empty()) {
    lines.push_back("");
    lines.push_back("Per-request values: usage_* and server_* metrics in profile_export.jsonl");
    out += format_panel("Client vs Server Disagreement Warning", lines, unicode_box);
  }
  return out;
}

std::string format_client_server_csv(const nlohmann::ordered_json& section) {
  if (!section.is_object() || !section.contains("rows")) return "";
  std::string out;
  append_csv_row(out, {"Client vs Server", "Source", "Unit", "Client", "Server", "Difference"});
  auto num = [](const Json& row, const char* key) -> std::string {
    if (!row.contains(key)) return "";
    const double v = row[key].get<double>();
    const std::string unit = row["unit"].get<std::string>();
    if (unit == "tokens" || unit == "requests") return plain_int(v);
    char buf[64];
    std::snprintf(buf, sizeof buf, unit == "sec" ? "%.6f" : "%.2f", v);
    if (buf[0] == '-' && std::strspn(buf + 1, "0.") == std::strlen(buf + 1)) return std::string(buf + 1);
    return std::string(buf);
  };
  for (const Json& row : section["rows"]) {
    append_csv_row(out, {row["quantity"].get<std::string>(), row["source"].get<std::string>(),
                         row["unit"].get<std::string>(), num(row, "client"), num(row, "server"),
                         num(row, "difference")});
  }
  return out;
}

}  // namespace aiperf::exporting
