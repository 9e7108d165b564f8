#include "genai_perf_analyze.h"
#include "export/csv_row.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace aiperf::cli::genai_perf {
namespace {

const std::vector<std::string> kSweepTypes = {"concurrency", "request_rate", "num_dataset_entries",
                                              "input_sequence_length"};

bool exponential(const std::string& type) { return type != "num_dataset_entries"; }

bool power_of_two(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// Python's int(): an optional sign and digits, surrounding blanks allowed.
std::optional<int64_t> python_int(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.erase(s.begin());
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  try {
    size_t used = 0;
    const long long v = std::stoll(s, &used);
    if (used == s.size() && !s.empty()) return v;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t at = s.find(sep, start);
    out.push_back(s.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) return out;
    start = at + 1;
  }
}

void check_type(const std::string& type, const std::string& what) {
  if (!sweepable(type))
    throw GenAiPerfOptionError(what + ": " + type + " is not a valid analyze parameter (choose from " +
                               "concurrency, request_rate, num_dataset_entries, input_sequence_length)");
}

std::vector<int64_t> stepped(int64_t start, int64_t stop, int64_t step) {
  std::vector<int64_t> v;
  for (int64_t x = start; x <= stop; x += step) v.push_back(x);
  return v;
}

std::string two_decimals(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string csv_row(const std::vector<std::string>& fields) {
  std::string line;
  exporting::append_csv_row(line, fields);
  return line;
}

double stat_or_zero(const nlohmann::ordered_json& stats, const char* metric, const char* stat) {
  if (!stats.contains(metric) || !stats[metric].contains(stat) || !stats[metric][stat].is_number()) return 0;
  return stats[metric][stat].get<double>();
}

}  // namespace

bool sweepable(const std::string& type) {
  return std::find(kSweepTypes.begin(), kSweepTypes.end(), type) != kSweepTypes.end();
}

Sweep sweep_from_cli(const std::string& type, const std::string& range, const std::string& list) {
  if (type.empty())
    throw GenAiPerfOptionError("the following arguments are required: --sweep-type (with --sweep-range or --sweep-list)");
  if (range.empty() && list.empty())
    throw GenAiPerfOptionError("argument --sweep-type: give the points with --sweep-range min:max[:step] or "
                               "--sweep-list a,b,c");
  if (!range.empty() && !list.empty())
    throw GenAiPerfOptionError("argument --sweep-list: not allowed with argument --sweep-range");
  check_type(type, "argument --sweep-type");
  Sweep s;
  s.type = type;
  if (!list.empty()) {
    for (const std::string& item : split(list, ',')) {
      const auto v = python_int(item);
      if (!v) throw GenAiPerfOptionError("argument --sweep-list: invalid int value: '" + item + "'");
      if (*v < 1) throw GenAiPerfOptionError("argument --sweep-list: Values in -sweep-list must be positive");
      s.values.push_back(*v);
    }
    s.echo = {{type, s.values}};
    return s;
  }
  const std::vector<std::string> parts = split(range, ':');
  if (parts.size() != 2 && parts.size() != 3)
    throw GenAiPerfOptionError("argument --sweep-range: The format of '--sweep-range' must be min:max or min:max:step.");
  std::vector<int64_t> n;
  for (const std::string& p : parts) {
    const auto v = python_int(p);
    if (!v) throw GenAiPerfOptionError("argument --sweep-range: invalid int value: '" + p + "'");
    n.push_back(*v);
  }
  const std::optional<int64_t> step = parts.size() == 3 ? std::optional<int64_t>(n[2]) : std::nullopt;
  if (n[0] < 1 || n[1] < 1) throw GenAiPerfOptionError("argument --sweep-range: min/max value must be positive");
  if (step && *step < 1) throw GenAiPerfOptionError("argument --sweep-range: step value must be positive");
  if (n[0] >= n[1]) throw GenAiPerfOptionError("argument --sweep-range: max must be greater than min");
  if (type == "concurrency") {
    if (!power_of_two(n[0]) || !power_of_two(n[1]))
      throw GenAiPerfOptionError("argument --sweep-range: min/max values must be powers of 2 when sweeping concurrency");
    if (step) throw GenAiPerfOptionError("argument --sweep-range: step is not supported when sweeping concurrency");
  }
  return sweep_from_range(type, n[0], n[1], step);
}

Sweep sweep_from_range(const std::string& type, int64_t start, int64_t stop, std::optional<int64_t> step) {
  check_type(type, "analyze");
  if (start < 1 || stop < 1) throw GenAiPerfOptionError(type + ": start/stop must be positive");
  if (start > stop) throw GenAiPerfOptionError(type + ": start cannot be larger than stop");
  Sweep s;
  s.type = type;
  if (step) {
    if (*step < 1) throw GenAiPerfOptionError(type + ": step must be positive");
    s.values = stepped(start, stop, *step);
    s.echo = {{type, s.values}};
    return s;
  }
  if (exponential(type)) {
    // int(log2(x)) of an integer: the index of its highest set bit.
    const auto floor_log2 = [](int64_t x) { return 63 - __builtin_clzll(static_cast<unsigned long long>(x)); };
    for (int k = floor_log2(start); k <= floor_log2(stop); ++k) s.values.push_back(int64_t{1} << k);
  } else {
    s.values = stepped(start, stop, 1);
  }
  s.echo = {{type, {{"min", start}, {"max", stop}}}};
  return s;
}

ProfileArgs point_args(const ProfileArgs& base, const Sweep& sweep, int64_t value) {
  ProfileArgs a = base;
  if (sweep.type == "concurrency") {
    a.concurrency = value;
    a.request_rate.reset();
  } else if (sweep.type == "request_rate") {
    a.request_rate = static_cast<double>(value);
    a.concurrency.reset();
  } else if (sweep.type == "num_dataset_entries") {
    a.num_dataset_entries = value;
  } else {
    a.synthetic_tokens_mean = value;
  }
  return a;
}

std::string point_directory(const ProfileArgs& base, const Sweep& sweep, int64_t value) {
  // profile's name is <model>-openai-<type>-<load>; the point replaces the load part.
  const std::string profile_dir = artifact_directory(base);
  return profile_dir.substr(0, profile_dir.rfind('-')) + "-" + sweep.type + std::to_string(value);
}

int64_t point_load(const ProfileArgs& base, const Sweep& sweep, int64_t value) {
  if (sweep.type == "concurrency" || sweep.type == "request_rate") return value;
  if (base.request_rate) return static_cast<int64_t>(*base.request_rate);
  return base.concurrency.value_or(1);
}

bool load_is_request_rate(const ProfileArgs& base, const Sweep& sweep) {
  if (sweep.type == "concurrency") return false;
  return sweep.type == "request_rate" || base.request_rate.has_value();
}

std::string analyze_csv(const std::vector<AnalyzeRow>& rows, bool request_rate) {
  std::string out = csv_row({"Config Name", request_rate ? "Request Rate" : "Concurrency", "ISL",
                             "Num Dataset Entries", "p99 Time To First Token (ms)", "p99 Inter Token Latency (ms)",
                             "p99 Request Latency (ms)", "p99 Output Sequence Length (tokens)",
                             "Avg. Output Token Throughput (tokens/sec)", "Request Throughput (requests/sec)"});
  // GenAI-Perf keeps its results best first: by average request throughput, highest first (its
  // default objective), points of equal throughput in run order.
  std::vector<const AnalyzeRow*> order;
  for (const AnalyzeRow& r : rows) order.push_back(&r);
  std::stable_sort(order.begin(), order.end(), [](const AnalyzeRow* x, const AnalyzeRow* y) {
    return stat_or_zero(x->stats, "request_throughput", "avg") > stat_or_zero(y->stats, "request_throughput", "avg");
  });
  for (const AnalyzeRow* row : order) {
    const AnalyzeRow& r = *row;
    std::vector<std::string> f{r.name, std::to_string(r.load),
                               std::to_string(static_cast<int64_t>(stat_or_zero(r.stats, "input_sequence_length", "p99"))),
                               std::to_string(r.num_dataset_entries)};
    f.push_back(two_decimals(stat_or_zero(r.stats, "time_to_first_token", "p99")));
    f.push_back(two_decimals(stat_or_zero(r.stats, "inter_token_latency", "p99")));
    f.push_back(two_decimals(stat_or_zero(r.stats, "request_latency", "p99")));
    f.push_back(two_decimals(stat_or_zero(r.stats, "output_sequence_length", "p99")));
    f.push_back(two_decimals(stat_or_zero(r.stats, "output_token_throughput", "avg")));
    f.push_back(two_decimals(stat_or_zero(r.stats, "request_throughput", "avg")));
    out += csv_row(f);
  }
  out += "\r\n";  // csv.writer.writerow("") writes an empty record
  out += csv_row({"Config Name", "GPU", "p99 GPU Power Usage (W)", "p99 GPU Energy Consumption (MJ)",
                  "p99 GPU Utilization (%)", "p99 GPU Memory Used (GB)", "Avg. GPU Power Limit (W)",
                  "Avg. GPU Total Memory (GB)"});
  return out;
}

std::string analyze_help() {
  return "usage: genai-perf analyze --sweep-type TYPE (--sweep-range MIN:MAX[:STEP] | --sweep-list A,B,C)\n"
         "                          -m MODEL --endpoint-type {chat,completions,embeddings} [options]\n\n"
         "GenAI-Perf 0.0.16's `analyze`: one `profile` per sweep point, each in\n"
         "<artifact-dir>/<model>-openai-<endpoint-type>-<sweep type><value>/, then\n"
         "<artifact-dir>/analyze_export_genai_perf.csv (one row per point).\n\n"
         "sweep:\n"
         "  --sweep-type TEXT:{concurrency,request_rate,num_dataset_entries,input_sequence_length}\n"
         "  --sweep-range MIN:MAX[:STEP]   without STEP: powers of two for concurrency, request_rate and\n"
         "                                 input_sequence_length (concurrency: MIN, MAX powers of two, no\n"
         "                                 STEP), every integer for num_dataset_entries\n"
         "  --sweep-list A,B,C             the points as given\n\n" +
         profile_options_help();
}

}  // namespace aiperf::cli::genai_perf
