#include "metrics/metric_units.h"

#include <array>
#include <optional>
#include <utility>

namespace aiperf::metrics::units {

namespace {

// How many of each unit make one second / how many bytes make one unit.
constexpr std::array<std::pair<std::string_view, double>, 4> kPerSecond = {{
    {kNanoseconds, 1e9}, {kMicroseconds, 1e6}, {kMilliseconds, 1e3}, {kSeconds, 1.0}}};
constexpr std::array<std::pair<std::string_view, double>, 5> kByteUnits = {{
    {"B", 1.0}, {"KB", 1024.0}, {"MB", 1048576.0}, {"GB", 1073741824.0}, {"TB", 1099511627776.0}}};

template <std::size_t N>
std::optional<double> lookup(const std::array<std::pair<std::string_view, double>, N>& table,
                             std::string_view unit) {
  for (const auto& [name, factor] : table) {
    if (name == unit) return factor;
  }
  return std::nullopt;
}

}  // namespace

double convert(double value, std::string_view from, std::string_view to) {
  if (from == to) return value;
  if (auto f = lookup(kPerSecond, from), t = lookup(kPerSecond, to); f && t) {
    return value * *t / *f;
  }
  if (auto f = lookup(kByteUnits, from), t = lookup(kByteUnits, to); f && t) {
    return value * (*f / *t);
  }
  return value;
}

}  // namespace aiperf::metrics::units
