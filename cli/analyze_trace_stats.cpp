#include "analyze_trace_stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "dataset_error.h"
#include "jsonl_lines.h"
#include "stats/stats.h"

namespace aiperf::cli::analyze {
namespace {

// numpy's pairwise summation (the order np.sum/np.mean add float64 values in), so means and
// standard deviations agree with the reference to the last bit.
double np_sum(const std::vector<double>& v) { return stats::sum(v); }

// numpy's linear-interpolation percentile (its lerp is written to be exact at both ends).
double np_percentile(const std::vector<double>& sorted, double q) {
  const double h = (static_cast<double>(sorted.size()) - 1) * (q / 100.0);
  const size_t lo = static_cast<size_t>(std::floor(h));
  if (lo + 1 >= sorted.size()) return sorted.back();
  const double t = h - static_cast<double>(lo);
  const double a = sorted[lo], b = sorted[lo + 1];
  const double diff = b - a;
  return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}

// statistics.mean: the exactly-rounded mean (Shewchuk partials, then one division).
double exact_mean(const std::vector<double>& v) {
  std::vector<double> partials;
  for (double x : v) {
    size_t i = 0;
    for (double y : partials) {
      if (std::fabs(x) < std::fabs(y)) std::swap(x, y);
      const double hi = x + y;
      const double lo = y - (hi - x);
      if (lo != 0.0) partials[i++] = lo;
      x = hi;
    }
    partials.resize(i);
    partials.push_back(x);
  }
  long double total = 0;
  for (double p : partials) total += p;
  return static_cast<double>(total / static_cast<long double>(v.size()));
}

std::string fixed2(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", std::fabs(v));
  std::string digits(buf);
  const size_t dot = digits.find('.');
  std::string whole = digits.substr(0, dot);
  for (int i = static_cast<int>(whole.size()) - 3; i > 0; i -= 3) whole.insert(static_cast<size_t>(i), ",");
  const bool negative = v < 0 && digits.find_first_not_of("0.") != std::string::npos;
  return (negative ? "-" : "") + whole + digits.substr(dot);
}

size_t display_width(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::string repeat(const std::string& s, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}

std::string pad_left(const std::string& s, size_t width) {
  return std::string(width - std::min(width, display_width(s)), ' ') + s;
}

nlohmann::ordered_json metric_json(const std::optional<MetricStats>& m) {
  if (!m) return nullptr;
  nlohmann::ordered_json j;
  j["mean"] = m->mean;
  j["std_dev"] = m->std_dev;
  j["min"] = m->min;
  j["p25"] = m->p25;
  j["median"] = m->median;
  j["p75"] = m->p75;
  j["max"] = m->max;
  return j;
}

}  // namespace

std::optional<MetricStats> metric_stats(const std::vector<double>& values) {
  if (values.empty()) return std::nullopt;
  const double n = static_cast<double>(values.size());
  MetricStats m;
  m.mean = np_sum(values) / n;
  std::vector<double> squares;
  squares.reserve(values.size());
  for (double v : values) squares.push_back((v - m.mean) * (v - m.mean));
  m.std_dev = std::sqrt(np_sum(squares) / n);
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  m.min = sorted.front();
  m.max = sorted.back();
  m.p25 = np_percentile(sorted, 25);
  m.median = np_percentile(sorted, 50);
  m.p75 = np_percentile(sorted, 75);
  return m;
}

TraceStats analyze_rows(const std::vector<TraceRow>& rows, int64_t block_size) {
  TraceStats s;
  s.total_requests = static_cast<int64_t>(rows.size());
  // Every prefix of every hash_ids list is a node of a trie (node 0 is the empty prefix):
  // counting visits per node counts each prefix without copying it.
  std::map<std::pair<size_t, int64_t>, size_t> trie;
  std::vector<int64_t> prefix_count{0};
  std::map<std::pair<size_t, int64_t>, int64_t> position_count;
  std::map<int64_t, int64_t> first_block_count;
  for (const TraceRow& r : rows) {
    size_t node = 0;
    for (size_t pos = 0; pos < r.hash_ids.size(); ++pos) {
      auto [it, added] = trie.try_emplace({node, r.hash_ids[pos]}, prefix_count.size());
      if (added) prefix_count.push_back(0);
      node = it->second;
      ++prefix_count[node];
      ++position_count[{pos, r.hash_ids[pos]}];
    }
    if (!r.hash_ids.empty()) ++first_block_count[r.hash_ids.front()];
  }
  s.unique_prefixes = static_cast<int64_t>(trie.size());
  for (const auto& [block, count] : first_block_count) s.num_prefix_groups += count > 1;
  int64_t reused = 0, occurrences = 0;
  for (size_t node = 1; node < prefix_count.size(); ++node) {
    occurrences += prefix_count[node];
    if (prefix_count[node] > 1) reused += prefix_count[node];
  }
  s.prefix_reuse_ratio = occurrences > 0 ? static_cast<double>(reused) / static_cast<double>(occurrences) : 0.0;

  // A (position, block) pair seen in 2+ requests is shared context; a request made only of
  // shared pairs counts whole as context (its last block may be partial).
  std::vector<double> isls, osls, context, unique_prompt, hit_rates;
  std::set<int64_t> seen;
  for (const TraceRow& r : rows) {
    isls.push_back(static_cast<double>(r.input_length));
    osls.push_back(static_cast<double>(r.output_length));
    if (r.hash_ids.empty()) {
      context.push_back(0);
      unique_prompt.push_back(static_cast<double>(r.input_length));
      continue;
    }
    int64_t repeated = 0;
    for (size_t pos = 0; pos < r.hash_ids.size(); ++pos) repeated += position_count[{pos, r.hash_ids[pos]}] > 1;
    if (repeated == static_cast<int64_t>(r.hash_ids.size())) {
      context.push_back(static_cast<double>(r.input_length));
      unique_prompt.push_back(0);
    } else {
      context.push_back(static_cast<double>(repeated * block_size));
      unique_prompt.push_back(static_cast<double>(r.input_length - repeated * block_size));
    }
    // Hit rate with an infinite cache: the blocks before the first never-seen one.
    size_t first_unseen = r.hash_ids.size();
    for (size_t i = 0; i < r.hash_ids.size(); ++i)
      if (!seen.count(r.hash_ids[i])) {
        first_unseen = i;
        break;
      }
    hit_rates.push_back(static_cast<double>(first_unseen) / static_cast<double>(r.hash_ids.size()));
    seen.insert(r.hash_ids.begin(), r.hash_ids.end());
  }
  s.cache_hit_rate = hit_rates.empty() ? 0.0 : exact_mean(hit_rates);
  if (!rows.empty()) {
    s.min_isl = s.max_isl = rows.front().input_length;
    s.min_osl = s.max_osl = rows.front().output_length;
    int64_t isl_sum = 0, osl_sum = 0;
    for (const TraceRow& r : rows) {
      s.min_isl = std::min(s.min_isl, r.input_length);
      s.max_isl = std::max(s.max_isl, r.input_length);
      s.min_osl = std::min(s.min_osl, r.output_length);
      s.max_osl = std::max(s.max_osl, r.output_length);
      isl_sum += r.input_length;
      osl_sum += r.output_length;
    }
    s.avg_isl = static_cast<double>(isl_sum) / static_cast<double>(rows.size());
    s.avg_osl = static_cast<double>(osl_sum) / static_cast<double>(rows.size());
  }
  s.isl = metric_stats(isls);
  s.osl = metric_stats(osls);
  s.context_length = metric_stats(context);
  s.unique_prompt_length = metric_stats(unique_prompt);
  s.hit_rate = metric_stats(hit_rates);
  return s;
}

std::vector<TraceRow> read_trace_rows(const std::string& path) {
  std::vector<TraceRow> rows;
  dataset::for_each_json_line(path, [&rows](const nlohmann::json& object, size_t) {
    TraceRow r;
    const auto present = [&object](const char* name) {
      auto it = object.find(name);
      return it != object.end() && !it->is_null() ? &*it : nullptr;
    };
    if (const auto* v = present("input_length")) r.input_length = dataset::integer_field(*v, "input_length", 0);
    if (const auto* v = present("output_length")) r.output_length = dataset::integer_field(*v, "output_length", 0);
    if (const auto* v = present("hash_ids")) {
      if (!v->is_array()) throw dataset::FieldError{"hash_ids", "must be a list of integers, got " + v->dump()};
      for (const auto& id : *v) {
        if (!id.is_number_integer())
          throw dataset::FieldError{"hash_ids", "must be a list of integers, got " + id.dump()};
        r.hash_ids.push_back(id.get<int64_t>());
      }
    }
    rows.push_back(std::move(r));
  });
  return rows;
}

nlohmann::ordered_json stats_json(const TraceStats& s) {
  nlohmann::ordered_json j;
  j["total_requests"] = s.total_requests;
  j["unique_prefixes"] = s.unique_prefixes;
  j["num_prefix_groups"] = s.num_prefix_groups;
  j["cache_hit_rate"] = s.cache_hit_rate;
  j["min_isl"] = s.min_isl;
  j["max_isl"] = s.max_isl;
  j["avg_isl"] = s.avg_isl;
  j["min_osl"] = s.min_osl;
  j["max_osl"] = s.max_osl;
  j["avg_osl"] = s.avg_osl;
  j["prefix_reuse_ratio"] = s.prefix_reuse_ratio;
  j["isl_stats"] = metric_json(s.isl);
  j["osl_stats"] = metric_json(s.osl);
  j["context_length_stats"] = metric_json(s.context_length);
  j["unique_prompt_length_stats"] = metric_json(s.unique_prompt_length);
  j["hit_rate_stats"] = metric_json(s.hit_rate);
  return j;
}

std::string render_report(const TraceStats& s) {
  const auto count = [](int64_t v) {
    std::string d = std::to_string(v);
    for (int i = static_cast<int>(d.size()) - 3; i > (v < 0 ? 1 : 0); i -= 3) d.insert(static_cast<size_t>(i), ",");
    return d;
  };
  std::ostringstream out;
  out << "\nTrace Analysis Report\n"
      << "Total requests:   " << count(s.total_requests) << "\n"
      << "Unique prefixes:  " << count(s.unique_prefixes) << "\n"
      << "Prefix groups:    " << count(s.num_prefix_groups) << "\n\n";

  // The table, laid out like the reference's (rich) box table: right-aligned cells, one space
  // of padding, a heavy header frame, the title centred above.
  const std::vector<std::string> header{"Metric", "Mean", "Std Dev", "Min", "P25", "Median", "P75", "Max"};
  const std::vector<std::pair<std::string, const std::optional<MetricStats>*>> metrics{
      {"Input Length", &s.isl},
      {"Context Length", &s.context_length},
      {"Unique Prompt Length", &s.unique_prompt_length},
      {"Output Length", &s.osl},
      {"Theoretical Hit Rates", &s.hit_rate}};
  std::vector<std::vector<std::string>> rows;
  for (const auto& [name, stats] : metrics) {
    std::vector<std::string> row{name};
    if (!*stats) {
      for (size_t i = 1; i < header.size(); ++i) row.push_back("N/A");
    } else {
      const MetricStats& m = **stats;
      for (double v : {m.mean, m.std_dev, m.min, m.p25, m.median, m.p75, m.max}) row.push_back(fixed2(v));
    }
    rows.push_back(row);
  }
  std::vector<size_t> widths(header.size());
  for (size_t c = 0; c < header.size(); ++c) {
    widths[c] = display_width(header[c]);
    for (const auto& row : rows) widths[c] = std::max(widths[c], display_width(row[c]));
  }
  size_t total = 1;
  for (size_t w : widths) total += w + 3;
  const std::string title = "Trace Statistics";
  const size_t left = (total - title.size()) / 2;
  out << std::string(left, ' ') << title << std::string(total - title.size() - left, ' ') << "\n";
  const auto rule = [&](const char* l, const char* fill, const char* mid, const char* r) {
    std::string line = l;
    for (size_t c = 0; c < widths.size(); ++c) line += repeat(fill, widths[c] + 2) + (c + 1 < widths.size() ? mid : r);
    return line + "\n";
  };
  const auto cells = [&](const std::vector<std::string>& row, const char* bar) {
    std::string line = bar;
    for (size_t c = 0; c < row.size(); ++c) line += " " + pad_left(row[c], widths[c]) + " " + bar;
    return line + "\n";
  };
  out << rule("┏", "━", "┳", "┓") << cells(header, "┃") << rule("┡", "━", "╇", "┩");
  for (const auto& row : rows) out << cells(row, "│");
  out << rule("└", "─", "┴", "┘") << "\n";
  return out.str();
}

}  // namespace aiperf::cli::analyze
