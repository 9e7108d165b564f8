#include "metrics/metric_registry.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace aiperf::metrics {

void MetricRegistry::add(MetricDescriptor descriptor) {
  if (find(descriptor.tag)) {
    throw std::invalid_argument("duplicate metric tag: " + std::string(descriptor.tag));
  }
  for (auto dep : descriptor.required) {
    if (!find(dep)) {
      throw std::invalid_argument("metric " + std::string(descriptor.tag) +
                                  " requires unregistered metric " + std::string(dep));
    }
  }
  metrics_.push_back(std::move(descriptor));
}

const MetricDescriptor* MetricRegistry::find(std::string_view tag) const {
  for (const auto& m : metrics_) {
    if (m.tag == tag) return &m;
  }
  return nullptr;
}

std::vector<const MetricDescriptor*> MetricRegistry::applicable(const MetricContext& ctx) const {
  // Dependencies are registered first, so one pass decides applicability transitively.
  std::vector<const MetricDescriptor*> candidates;
  auto is_candidate = [&](std::string_view tag) {
    return std::any_of(candidates.begin(), candidates.end(),
                       [&](const MetricDescriptor* m) { return m->tag == tag; });
  };
  for (const auto& m : metrics_) {
    if (!flags_applicable(m.flags, ctx)) continue;
    if (std::all_of(m.required.begin(), m.required.end(), is_candidate)) candidates.push_back(&m);
  }

  // Kahn's algorithm: emit every metric whose dependencies are all emitted, in waves.
  std::vector<const MetricDescriptor*> ordered;
  std::vector<bool> emitted(candidates.size(), false);
  auto done = [&](std::string_view tag) {
    return std::any_of(ordered.begin(), ordered.end(),
                       [&](const MetricDescriptor* m) { return m->tag == tag; });
  };
  while (ordered.size() < candidates.size()) {
    std::vector<std::size_t> wave;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      const auto& req = candidates[i]->required;
      if (!emitted[i] && std::all_of(req.begin(), req.end(), done)) wave.push_back(i);
    }
    for (auto i : wave) {
      emitted[i] = true;
      ordered.push_back(candidates[i]);
    }
  }
  return ordered;
}

const MetricRegistry& builtin_metrics() {
  static const MetricRegistry registry = [] {
    MetricRegistry r;
    register_builtin_metrics(r);
    return r;
  }();
  return registry;
}

}  // namespace aiperf::metrics
