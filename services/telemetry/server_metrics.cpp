#include "server_metrics.h"

#include <functional>

#include "prometheus/series.h"

namespace aiperf::telemetry {

namespace pm = prometheus;

ServerMetrics::ServerMetrics(const std::string& jsonl_path, std::optional<double> slice_s) : slice_s_(slice_s) {
  if (!jsonl_path.empty()) jsonl_ = std::make_unique<std::ofstream>(jsonl_path, std::ios::binary | std::ios::trunc);
}

void ServerMetrics::flush_jsonl() {
  if (jsonl_) jsonl_->flush();
}

bool ServerMetrics::add_scrape(const std::string& url, int64_t request_wall_ns, int64_t first_byte_wall_ns,
                               int64_t latency_ns, std::string_view body, const ScrapePhase* phase) {
  const pm::ParseResult parsed = pm::parse(body);
  if (!parsed.ok()) return false;
  const int64_t wall_ns = first_byte_wall_ns ? first_byte_wall_ns : request_wall_ns;
  EndpointFetchStats& f = fetches_[url];
  const size_t hash = std::hash<std::string_view>{}(body);
  const bool duplicate = !f.update_ns.empty() && hash == f.last_hash;  // the page did not change
  if (f.total_fetches++ == 0) f.first_fetch_ns = wall_ns;
  f.last_fetch_ns = wall_ns;
  f.latency_sum_ns += latency_ns;
  if (!duplicate) f.update_ns.push_back(wall_ns);
  f.last_hash = hash;

  if (jsonl_ && !duplicate) {
    JsonlScrape scrape{url, wall_ns, latency_ns, request_wall_ns, std::nullopt, phase};
    if (first_byte_wall_ns) scrape.first_byte_ns = first_byte_wall_ns;
    const std::string line = jsonl_record(scrape, *parsed.exposition);
    if (!line.empty()) *jsonl_ << line << '\n';
  }

  auto series_at = [&](const pm::Family& fam, const pm::Labels& labels, std::string_view skip) -> ServerSeries& {
    const std::string key = url + '\n' + fam.name + '\n' + pm::label_key(labels, skip);
    auto [it, inserted] = index_.try_emplace(key, series_.size());
    if (inserted) {
      ServerSeries s;
      s.endpoint_url = url;
      s.family = fam.name;
      s.type = fam.type == pm::MetricType::kUntyped ? pm::MetricType::kGauge : fam.type;
      s.labels = pm::sorted_labels(labels, skip);
      series_.push_back(std::move(s));
    }
    return series_[it->second];
  };
  for (const pm::Family& fam : parsed.exposition->families) {
    if (fam.type == pm::MetricType::kSummary) continue;  // quantiles are the server's own estimates
    families_.try_emplace(fam.name, FamilyInfo{fam.type, fam.help});
    if (fam.type == pm::MetricType::kHistogram) {
      for (const pm::HistogramSeries& h : pm::histogram_series(fam)) {
        ServerSeries& s = series_at(fam, h.labels, "");
        if (s.type != pm::MetricType::kHistogram) continue;  // the metric changed type mid-run
        if (s.ts.empty())  // the first scrape fixes the bounds (even none: later ones must match)
          for (const auto& b : h.buckets) s.les.push_back(b.le);
        std::vector<double> cumulative;
        for (const auto& b : h.buckets) cumulative.push_back(b.cumulative);
        if (cumulative.size() != s.les.size()) continue;  // the server changed its buckets mid-run
        s.ts.push_back(wall_ns);
        s.buckets.push_back(cumulative);
        s.sums.push_back(h.sum);
        s.counts.push_back(h.count);
      }
      continue;
    }
    for (const pm::Sample& sample : fam.samples) {
      ServerSeries& s = series_at(fam, sample.labels, "");
      if (s.type == pm::MetricType::kHistogram) continue;  // the metric changed type mid-run
      s.ts.push_back(wall_ns);
      s.values.push_back(sample.value);
    }
  }
  return true;
}

}  // namespace aiperf::telemetry
