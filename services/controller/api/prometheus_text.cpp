#include "prometheus_text.h"

#include <algorithm>
#include <cctype>
#include <sstream>

#include <prometheus/metric_family.h>
#include <prometheus/text_serializer.h>

#include "metrics/metric_flags.h"
#include "util/version.h"

namespace aiperf::controller::api {
namespace {

using prometheus::ClientMetric;
using prometheus::MetricFamily;
using prometheus::MetricType;

using util::kVersion;

std::vector<ClientMetric::Label> to_labels(const Labels& labels) {
  std::vector<ClientMetric::Label> out;
  for (const auto& [k, v] : labels) out.push_back({k, v});
  return out;
}

ClientMetric sample(const Labels& labels, double value, MetricType type) {
  ClientMetric m;
  m.label = to_labels(labels);
  if (type == MetricType::Counter) m.counter.value = value;
  else m.gauge.value = value;
  return m;
}

MetricFamily family(std::string name, std::string help, MetricType type) {
  MetricFamily f;
  f.name = std::move(name);
  f.help = std::move(help);
  f.type = type;
  return f;
}

Labels with(Labels labels, const std::string& key, const std::string& value) {
  labels.emplace_back(key, value);
  return labels;
}

void add_progress(std::vector<MetricFamily>& out, const ui::RunState& st, const Labels& labels) {
  auto sent = family("aiperf_requests_sent_total", "Requests sent so far", MetricType::Counter);
  auto completed = family("aiperf_requests_completed_total", "Requests returned so far (success, error or cancelled)",
                          MetricType::Counter);
  auto cancelled = family("aiperf_requests_cancelled_total", "Requests cancelled so far", MetricType::Counter);
  auto in_flight = family("aiperf_requests_in_flight", "Requests sent and not yet returned", MetricType::Gauge);
  auto expected = family("aiperf_requests_expected", "Requests the phase will send (0 = bounded by duration)",
                         MetricType::Gauge);
  for (auto [phase, name] : {std::pair{proto::PHASE_WARMUP, "warmup"}, std::pair{proto::PHASE_PROFILING, "profiling"}}) {
    const ui::PhaseState& p = st.phase(phase);
    if (!p.started) continue;
    const Labels l = with(labels, "phase", name);
    sent.metric.push_back(sample(l, static_cast<double>(p.sent), MetricType::Counter));
    completed.metric.push_back(sample(l, static_cast<double>(p.completed), MetricType::Counter));
    cancelled.metric.push_back(sample(l, static_cast<double>(p.cancelled), MetricType::Counter));
    in_flight.metric.push_back(sample(l, static_cast<double>(p.in_flight()), MetricType::Gauge));
    expected.metric.push_back(sample(l, static_cast<double>(p.total_expected), MetricType::Gauge));
  }
  auto records = family("aiperf_records_total", "Profiling records received, by outcome", MetricType::Counter);
  records.metric.push_back(sample(with(labels, "status", "success"), static_cast<double>(st.success_records), MetricType::Counter));
  records.metric.push_back(sample(with(labels, "status", "error"), static_cast<double>(st.error_records), MetricType::Counter));
  for (auto* f : {&sent, &completed, &cancelled, &in_flight, &expected}) {
    if (!f->metric.empty()) out.push_back(std::move(*f));
  }
  out.push_back(std::move(records));
}

void add_snapshot(std::vector<MetricFamily>& out, const proto::ProfileResults& snapshot, const Labels& labels) {
  for (const proto::MetricResult& m : snapshot.records()) {
    if (metrics::has_any_flag(m.flags(), metrics::flags::kInternal | metrics::flags::kExperimental)) continue;
    const std::string base = "aiperf_" + sanitize_metric_name(m.tag());
    const std::string unit = m.unit().empty() ? "" : "_" + sanitize_unit(m.unit());
    const std::string in_unit = m.unit().empty() ? "" : " (in " + m.unit() + ")";
    const std::pair<bool, double> quantiles[] = {{m.has_p1(), m.p1()},   {m.has_p5(), m.p5()},   {m.has_p10(), m.p10()},
                                                 {m.has_p25(), m.p25()}, {m.has_p50(), m.p50()}, {m.has_p75(), m.p75()},
                                                 {m.has_p90(), m.p90()}, {m.has_p95(), m.p95()}, {m.has_p99(), m.p99()}};
    constexpr double kQuantile[] = {0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99};
    ClientMetric summary;
    summary.label = to_labels(labels);
    for (std::size_t i = 0; i < std::size(kQuantile); ++i) {
      if (quantiles[i].first) summary.summary.quantile.push_back({kQuantile[i], quantiles[i].second});
    }
    const bool has_quantiles = !summary.summary.quantile.empty();
    if (has_quantiles) {
      summary.summary.sample_count = m.count();
      summary.summary.sample_sum = m.has_sum() ? m.sum() : 0;
      auto f = family(base + unit, m.header() + in_unit, MetricType::Summary);
      f.metric.push_back(std::move(summary));
      out.push_back(std::move(f));
    }
    auto gauge = [&](const std::string& stat, const std::string& what, double value) {
      auto f = family(base + "_" + stat + unit, m.header() + " " + what + in_unit, MetricType::Gauge);
      f.metric.push_back(sample(labels, value, MetricType::Gauge));
      out.push_back(std::move(f));
    };
    if (m.has_avg()) gauge("avg", "average", m.avg());
    if (m.has_min()) gauge("min", "minimum", m.min());
    if (m.has_max()) gauge("max", "maximum", m.max());
    if (m.has_std()) gauge("std", "standard deviation", m.std());
    if (!has_quantiles) {
      gauge("count", "observation count", static_cast<double>(m.count()));
      if (m.has_sum()) gauge("sum", "observation sum", m.sum());
    }
  }
}

}  // namespace

Labels info_labels(const config::RunConfig& config) {
  Labels labels;
  if (!config.benchmark_id.empty()) labels.emplace_back("benchmark_id", config.benchmark_id);
  std::vector<std::string> models = config.endpoint.model_names;
  std::sort(models.begin(), models.end());
  std::string joined;
  for (const auto& m : models) joined += (joined.empty() ? "" : ",") + m;
  labels.emplace_back("model", joined);
  labels.emplace_back("endpoint_type", config.endpoint.type);
  labels.emplace_back("streaming", config.endpoint.streaming ? "true" : "false");
  if (config.loadgen.concurrency) labels.emplace_back("concurrency", std::to_string(*config.loadgen.concurrency));
  if (config.loadgen.request_rate) {
    std::ostringstream rate;
    rate << *config.loadgen.request_rate;
    labels.emplace_back("request_rate", rate.str());
  }
  return labels;
}

std::string sanitize_metric_name(const std::string& name) {
  std::string out;
  for (char c : name) {
    const char lower = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    out += (std::isalnum(static_cast<unsigned char>(lower)) || lower == '_') && static_cast<unsigned char>(c) < 0x80 ? lower : '_';
  }
  if (!out.empty() && std::isdigit(static_cast<unsigned char>(out[0]))) out.insert(out.begin(), '_');
  return out;
}

std::string sanitize_unit(const std::string& unit) {
  auto replace_all = [](std::string s, const std::string& from, const std::string& to) {
    for (std::size_t pos = 0; (pos = s.find(from, pos)) != std::string::npos; pos += to.size()) s.replace(pos, from.size(), to);
    return s;
  };
  std::string u = replace_all(unit, "%", "percent");
  u = replace_all(u, "/", "_per_");
  u = replace_all(u, "tokens_per_sec", "tps");
  u = replace_all(u, "__", "_");
  return sanitize_metric_name(u);
}

std::string prometheus_text(const ui::RunState& state, const Labels& labels) {
  std::vector<MetricFamily> families;
  auto info = family("aiperf_info", "AIPerf benchmark information", MetricType::Gauge);
  info.metric.push_back(sample(with(labels, "version", kVersion), 1, MetricType::Gauge));
  families.push_back(std::move(info));
  add_progress(families, state, labels);
  if (const proto::ProfileResults* snapshot = state.metrics()) add_snapshot(families, *snapshot, labels);
  return prometheus::TextSerializer().Serialize(families);
}

}  // namespace aiperf::controller::api
