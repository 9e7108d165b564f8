#include "metrics/goodput_slos.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "metrics/metric_registry.h"
#include "metrics/metric_units.h"

namespace aiperf::metrics {

namespace {

[[noreturn]] void invalid(const std::string& why) { throw std::invalid_argument("Invalid --goodput: " + why); }

double parse_threshold(const std::string& tag, const std::string& text) {
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty() || !std::isfinite(v)) {
    invalid("value '" + text + "' of '" + tag + "' is not a number");
  }
  if (v < 0) invalid("value of '" + tag + "' must not be negative, got " + text);
  return v;
}

}  // namespace

std::vector<GoodputSlo> parse_goodput(const std::string& spec, const MetricContext& ctx) {
  const std::vector<const MetricDescriptor*> applicable = builtin_metrics().applicable(ctx);
  auto usable = [&](const std::string& tag) -> const MetricDescriptor* {
    for (const MetricDescriptor* m : applicable) {
      if (m->tag == tag && m->kind == MetricKind::kRecord && !m->is_list()) return m;
    }
    return nullptr;
  };

  std::vector<GoodputSlo> slos;
  std::vector<std::string> rejected;
  std::istringstream words(spec);
  for (std::string pair; words >> pair;) {
    const std::size_t colon = pair.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == pair.size()) {
      invalid("expected space-separated 'tag:value' pairs, got '" + pair + "'");
    }
    const std::string tag = pair.substr(0, colon);
    const double value = parse_threshold(tag, pair.substr(colon + 1));
    if (std::any_of(slos.begin(), slos.end(), [&](const GoodputSlo& s) { return s.tag == tag; })) {
      invalid("metric '" + tag + "' is given more than once");
    }
    const MetricDescriptor* m = usable(tag);
    if (!m) {
      rejected.push_back(tag);
      continue;
    }
    slos.push_back({tag, units::convert(value, m->display_unit, m->unit),
                    has_flags(m->flags, flags::kLargerIsBetter)});
  }
  if (!rejected.empty()) {
    std::string list;
    for (const auto& t : rejected) list += (list.empty() ? "" : ", ") + t;
    invalid("metric(s) " + list + " are not applicable to the current endpoint/configuration");
  }
  if (slos.empty()) invalid("no 'tag:value' pairs given");
  return slos;
}

}  // namespace aiperf::metrics
