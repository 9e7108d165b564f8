#include "prometheus/series.h"
#include "util/text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>

namespace aiperf::prometheus {
namespace {

double parse_bound(const std::string& le) {
  if (le == "+Inf" || le == "Inf" || le == "inf" || le == "+inf") return INFINITY;
  double v = 0;
  std::string_view s = le;
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  std::from_chars(s.data(), s.data() + s.size(), v);  // the parser already validated it
  return v;
}

}  // namespace

Labels sorted_labels(const Labels& labels, std::string_view skip) {
  Labels out;
  for (const auto& kv : labels)
    if (kv.first != skip) out.push_back(kv);
  std::sort(out.begin(), out.end());
  return out;
}

std::string label_key(const Labels& labels, std::string_view skip) {
  std::string key;
  for (const auto& [k, v] : sorted_labels(labels, skip)) {
    if (!key.empty()) key += ',';
    key += k;
    key += "=\"";
    for (char c : v) {
      if (c == '"' || c == '\\') key += '\\';
      key += c;
    }
    key += '"';
  }
  return key;
}

std::vector<HistogramSeries> histogram_series(const Family& family) {
  std::vector<HistogramSeries> out;
  std::map<std::string, size_t> index;
  auto series_for = [&](const Sample& s, std::string_view skip) -> HistogramSeries& {
    auto [it, inserted] = index.try_emplace(label_key(s.labels, skip), out.size());
    if (inserted) out.push_back(HistogramSeries{sorted_labels(s.labels, skip), {}, 0, 0});
    return out[it->second];
  };
  for (const Sample& s : family.samples) {
    if (util::has_suffix(s.name, "_bucket")) {
      const std::string* le = s.label("le");
      if (!le) continue;
      series_for(s, "le").buckets.push_back({*le, parse_bound(*le), s.value});
    } else if (util::has_suffix(s.name, "_sum")) {
      series_for(s, "").sum = s.value;
    } else if (util::has_suffix(s.name, "_count")) {
      series_for(s, "").count = s.value;
    }
  }
  for (auto& h : out)
    std::stable_sort(h.buckets.begin(), h.buckets.end(),
                     [](const auto& a, const auto& b) { return a.bound < b.bound; });
  return out;
}

}  // namespace aiperf::prometheus
