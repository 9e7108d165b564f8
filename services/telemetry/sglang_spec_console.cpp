#include "sglang_spec_console.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <set>

#include "endpoint_display.h"
#include "export/number_format.h"
#include "export/text_table.h"

namespace aiperf::telemetry {
namespace {

constexpr const char* kModelLabel = "model_name";

struct Shown {
  const char* family;
  const char* display;
  double scale;
  int precision;
};
constexpr Shown kShown[] = {{"sglang:spec_accept_rate", "Accept Rate (%)", 100.0, 1},
                            {"sglang:spec_accept_length", "Accept Length", 1.0, 2}};

struct Source {
  const ServerSeries* series;
  std::string endpoint;
  nlohmann::ordered_json stats;
};

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::optional<std::string> label(const ServerSeries& s, const std::string& name) {
  for (const auto& [k, v] : s.labels)
    if (k == name) return v;
  return std::nullopt;
}

bool matches(const ServerSeries& s, const std::set<std::string>& models) {
  const auto model = label(s, kModelLabel);
  if (!model || !models.count(lower(*model))) return false;
  for (const char* rank : {"pp_rank", "tp_rank"})
    if (label(s, rank).value_or("0") != "0") return false;
  return true;
}

// The family's gauge series of the run's models that have statistics in the window.
std::vector<Source> collect(const std::vector<ServerSeries>& all, const char* family, int64_t start_ns,
                            const std::set<std::string>& models) {
  std::vector<Source> out;
  for (const ServerSeries& s : all) {
    if (s.family != family || s.type != prometheus::MetricType::kGauge || !matches(s, models)) continue;
    SeriesExport e = series_export(s, start_ns);
    if (e.stats.empty()) continue;
    out.push_back({&s, endpoint_display(s.endpoint_url), std::move(e.stats)});
  }
  return out;
}

std::optional<double> stat(const Source& src, const char* name, double scale) {
  const auto it = src.stats.find(name);
  if (it == src.stats.end() || !it->is_number()) return std::nullopt;
  const double v = it->get<double>() * scale;
  if (!std::isfinite(v)) return std::nullopt;
  return v;
}

bool positive_max(const std::vector<Source>& sources) {
  return std::any_of(sources.begin(), sources.end(), [](const Source& s) { return stat(s, "max", 1.0) > 0.0; });
}

bool several_values(const std::vector<Source>& sources, const std::string& name) {
  std::set<std::string> values;
  for (const Source& s : sources)
    if (auto v = label(*s.series, name)) values.insert(*v);
  return values.size() > 1;
}

std::string row_label(const Shown& shown, const Source& src, size_t index, const std::vector<Source>& sources) {
  if (sources.size() == 1) return shown.display;
  std::vector<std::string> parts;
  std::set<std::string> endpoints;
  for (const Source& s : sources) endpoints.insert(s.endpoint);
  if (endpoints.size() > 1) parts.push_back("endpoint=" + src.endpoint);
  if (several_values(sources, kModelLabel))
    parts.push_back(std::string(kModelLabel) + "=" + *label(*src.series, kModelLabel));
  // Labels are sorted in ServerSeries, as the reference sorts them here.
  for (const auto& [k, v] : src.series->labels)
    if (k != kModelLabel && k != "pp_rank" && k != "tp_rank" && several_values(sources, k))
      parts.push_back(k + "=" + v);
  std::string suffix;
  for (const std::string& p : parts) suffix += (suffix.empty() ? "" : ", ") + p;
  if (suffix.empty()) suffix = "series=" + std::to_string(index);
  return std::string(shown.display) + " (" + suffix + ")";
}

}  // namespace

std::string sglang_spec_decode_console(const std::vector<ServerSeries>& series, int64_t start_ns,
                                       const std::vector<std::string>& models, bool unicode_box) {
  std::set<std::string> model_set;
  for (const std::string& m : models) model_set.insert(lower(m));
  std::vector<std::vector<Source>> sources;
  for (const Shown& shown : kShown) sources.push_back(collect(series, shown.family, start_ns, model_set));
  // Activity: the acceptance length when the server exposes it, else the rate.
  if (!positive_max(sources[1].empty() ? sources[0] : sources[1])) return {};

  exporting::TextTable t;
  t.title = "NVIDIA AIPerf | Server Metrics: Speculative Decoding";
  t.headers = {"Metric", "mean", "min", "max", "p50", "p90"};
  t.justify.assign(t.headers.size(), exporting::Justify::kRight);
  t.justify[0] = exporting::Justify::kLeft;
  for (size_t m = 0; m < std::size(kShown); ++m) {
    const Shown& shown = kShown[m];
    for (size_t i = 0; i < sources[m].size(); ++i) {
      const Source& src = sources[m][i];
      std::vector<std::string> row{row_label(shown, src, i + 1, sources[m])};
      for (const char* name : {"avg", "min", "max", "p50", "p90"}) {
        const auto v = stat(src, name, shown.scale);
        if (!v) break;  // a non-finite summary: the reference skips the row
        row.push_back(exporting::grouped_fixed(*v, shown.precision));
      }
      if (row.size() == t.headers.size()) t.rows.push_back(std::move(row));
    }
  }
  if (t.rows.empty()) return {};
  return exporting::render_table(t, unicode_box);
}

}  // namespace aiperf::telemetry
