// MetricRegistry: the catalogue of known metrics. Filled explicitly (register_builtin_metrics),
// never by static initialisers, which the linker drops from static libraries.
// Not thread-safe to modify; const access is safe from any thread.
#pragma once
#include <deque>
#include <string_view>
#include <vector>

#include "metrics/metric_context.h"
#include "metrics/metric_descriptor.h"

namespace aiperf::metrics {

class MetricRegistry {
 public:
  // Throws std::invalid_argument for a duplicate tag or a dependency not registered yet
  // (registering in dependency order also rules out cycles).
  void add(MetricDescriptor descriptor);

  const MetricDescriptor* find(std::string_view tag) const;

  // Metrics instantiated for ctx: flags applicable and every dependency applicable, ordered
  // so dependencies come first (Kahn's algorithm, ties in registration order, as AIPerf's
  // graphlib order).
  std::vector<const MetricDescriptor*> applicable(const MetricContext& ctx) const;

 private:
  std::deque<MetricDescriptor> metrics_;  // deque: stable addresses for returned pointers
};

// Adds every built-in metric (metrics/types/) to the registry.
void register_builtin_metrics(MetricRegistry& registry);

// A registry holding the built-in metrics, built on first use (thread-safe static).
const MetricRegistry& builtin_metrics();

}  // namespace aiperf::metrics
