#include "gpu_telemetry.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "dcgm_fields.h"
#include "prometheus/exposition.h"

namespace aiperf::telemetry {
namespace {

std::string label_or(const prometheus::Sample& s, std::string_view key, std::string fallback = "") {
  const std::string* v = s.label(key);
  return v ? *v : fallback;
}

}  // namespace

size_t GpuTelemetry::add_scrape(const std::string& url, int64_t wall_ns, std::string_view body) {
  const prometheus::ParseResult parsed = prometheus::parse(body);
  if (!parsed.ok()) return 0;
  // One reading per GPU of this scrape, keyed like index_.
  std::map<std::string, size_t> readings_of_scrape;
  for (const prometheus::Family& family : parsed.exposition->families) {
    const DcgmField* field = find_dcgm_field(family.name);
    if (!field) continue;
    for (const prometheus::Sample& s : family.samples) {
      if (!std::isfinite(s.value)) continue;
      const std::string gpu_index = label_or(s, "gpu", "0");
      const std::string uuid = label_or(s, "UUID", "gpu-" + gpu_index);
      const std::string key = url + '\n' + uuid;
      auto [it, inserted] = index_.try_emplace(key, gpus_.size());
      if (inserted) {
        Gpu gpu;
        gpu.id.endpoint_url = url;
        gpu.id.index = std::atoi(gpu_index.c_str());
        gpu.id.uuid = uuid;
        gpu.id.model_name = label_or(s, "modelName");
        gpu.id.pci_bus_id = label_or(s, "pci_bus_id");
        gpu.id.device = label_or(s, "device");
        gpu.id.hostname = label_or(s, "Hostname");
        gpu.id.namespace_name = label_or(s, "namespace");
        gpu.id.pod_name = label_or(s, "pod");
        gpu.id.platform = std::string(kNvidiaPlatform);
        gpus_.push_back(std::move(gpu));
      }
      Gpu& gpu = gpus_[it->second];
      auto [r, fresh] = readings_of_scrape.try_emplace(key, 0);
      if (fresh) {
        gpu.readings.push_back(GpuReading{wall_ns, {}});
        r->second = gpu.readings.size() - 1;
      }
      gpu.readings[r->second].values[std::string(field->key)] = s.value * field->scale;
    }
  }
  return readings_of_scrape.size();
}

bool GpuTelemetry::endpoint_has_data(const std::string& url) const {
  return std::any_of(gpus_.begin(), gpus_.end(), [&](const Gpu& g) { return g.id.endpoint_url == url; });
}

std::vector<GpuSummary> GpuTelemetry::summarize(int64_t start_ns) const {
  std::vector<const Gpu*> order;
  for (const Gpu& g : gpus_) order.push_back(&g);
  // Endpoints keep their first-seen order; GPUs of one endpoint go by index.
  std::stable_sort(order.begin(), order.end(), [this](const Gpu* a, const Gpu* b) {
    if (a->id.endpoint_url != b->id.endpoint_url) {
      for (const Gpu& g : gpus_) {
        if (g.id.endpoint_url == a->id.endpoint_url) return true;
        if (g.id.endpoint_url == b->id.endpoint_url) return false;
      }
    }
    return a->id.index < b->id.index;
  });
  std::vector<GpuSummary> out;
  for (const Gpu* gpu : order) {
    GpuSummary summary{gpu->id, {}};
    std::vector<std::string_view> done;
    for (const DcgmField& field : dcgm_fields()) {
      if (std::find(done.begin(), done.end(), field.key) != done.end()) continue;
      const std::string key(field.key);
      std::optional<double> baseline, last, before;
      std::vector<double> window;
      for (const GpuReading& r : gpu->readings) {
        auto v = r.values.find(key);
        if (v == r.values.end()) continue;
        if (r.wall_ns <= start_ns) baseline = v->second;
        if (r.wall_ns < start_ns) before = v->second;
        else window.push_back(v->second);
        last = v->second;
      }
      if (!last) continue;
      done.push_back(field.key);
      GpuMetricSummary m{key, std::string(field.display), std::string(field.unit), field.counter, field.aiperf, 0, {}};
      if (field.counter) {
        // No reading before the window: the first one in it is the baseline.
        m.delta = *last - (baseline ? *baseline : window.front());
      } else {
        // A run shorter than one scrape period still reports the last known value.
        if (window.empty()) window.push_back(*before);
        m.summary = stats::summarize(std::move(window));
      }
      summary.metrics.push_back(std::move(m));
    }
    out.push_back(std::move(summary));
  }
  return out;
}

std::vector<std::string> GpuTelemetry::platforms() const {
  std::vector<std::string> out;
  for (const Gpu& g : gpus_)
    if (std::find(out.begin(), out.end(), g.id.platform) == out.end()) out.push_back(g.id.platform);
  std::sort(out.begin(), out.end());
  return out;
}

metrics::GpuEnergyTotals GpuTelemetry::energy_totals(std::string_view platform, int64_t start_ns, int64_t end_ns,
                                                     int64_t grace_ns) const {
  // Only NVIDIA's DCGM fields are scraped here; another platform has none of them.
  const std::string power_key = "nvidia_power_usage";
  const std::string energy_key = "nvidia_energy_consumption";
  constexpr double kJoulesPerMegajoule = 1e6;  // the energy counter is kept in MJ
  metrics::GpuEnergyTotals totals;
  for (const Gpu& gpu : gpus_) {
    if (gpu.id.platform != platform) continue;
    double power_sum = 0;
    size_t power_n = 0;
    std::optional<double> energy_before, energy_first, energy_last;
    for (const GpuReading& r : gpu.readings) {  // in scrape order
      if (auto p = r.values.find(power_key); p != r.values.end() && r.wall_ns >= start_ns && r.wall_ns <= end_ns) {
        power_sum += p->second;
        ++power_n;
      }
      auto e = r.values.find(energy_key);
      if (e == r.values.end()) continue;
      if (r.wall_ns < start_ns) {
        energy_before = e->second;
      } else if (r.wall_ns <= end_ns + grace_ns) {
        if (!energy_first) energy_first = e->second;
        energy_last = e->second;
      }
    }
    if (power_n > 0) {
      totals.power_w += power_sum / static_cast<double>(power_n);
      ++totals.power_gpus;
    }
    if (energy_last) {
      const double delta = *energy_last - (energy_before ? *energy_before : *energy_first);
      totals.energy_j += std::max(delta, 0.0) * kJoulesPerMegajoule;
      ++totals.energy_gpus;
    }
  }
  return totals;
}

std::pair<int64_t, int64_t> GpuTelemetry::scrape_span() const {
  std::pair<int64_t, int64_t> span{0, 0};
  bool any = false;
  for (const Gpu& g : gpus_)
    for (const GpuReading& r : g.readings) {
      if (!any || r.wall_ns < span.first) span.first = r.wall_ns;
      if (!any || r.wall_ns > span.second) span.second = r.wall_ns;
      any = true;
    }
  return span;
}

std::string GpuTelemetry::jsonl() const {
  // Scrape order across GPUs: by timestamp, then first-seen GPU order.
  struct Line {
    int64_t ts;
    size_t gpu;
    const GpuReading* reading;
  };
  std::vector<Line> lines;
  for (size_t g = 0; g < gpus_.size(); ++g)
    for (const GpuReading& r : gpus_[g].readings) lines.push_back({r.wall_ns, g, &r});
  std::stable_sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) { return a.ts < b.ts; });
  std::string out;
  for (const Line& line : lines) {
    const GpuIdentity& id = gpus_[line.gpu].id;
    nlohmann::ordered_json j;
    j["gpu_index"] = id.index;
    j["gpu_uuid"] = id.uuid;
    j["gpu_model_name"] = id.model_name;
    // Labels the exporter did not send are left out, as AIPerf leaves out its None fields.
    if (!id.pci_bus_id.empty()) j["pci_bus_id"] = id.pci_bus_id;
    if (!id.device.empty()) j["device"] = id.device;
    if (!id.hostname.empty()) j["hostname"] = id.hostname;
    if (!id.namespace_name.empty()) j["namespace"] = id.namespace_name;
    if (!id.pod_name.empty()) j["pod_name"] = id.pod_name;
    j["platform"] = id.platform;
    j["timestamp_ns"] = line.ts;
    j["telemetry_source_url"] = id.endpoint_url;
    auto& data = j["telemetry_data"] = nlohmann::ordered_json::object();
    std::vector<std::string_view> done;
    for (const DcgmField& field : dcgm_fields()) {
      auto v = line.reading->values.find(std::string(field.key));
      if (v == line.reading->values.end() || std::find(done.begin(), done.end(), field.key) != done.end()) continue;
      done.push_back(field.key);
      data[v->first] = v->second;
    }
    out += j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    out += '\n';
  }
  return out;
}

}  // namespace aiperf::telemetry
