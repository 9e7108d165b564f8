// A run's summary metric by tag (a linear scan: a summary holds a few dozen); nullptr when the
// run has none. Shared so that the files reading summaries need no private copies (which would
// collide in a unity batch).
#pragma once
#include <string_view>

#include "results.pb.h"

namespace aiperf::exporting {

inline const proto::MetricResult* find_metric(const proto::ProfileResults& r, std::string_view tag) {
  for (const auto& m : r.records())
    if (m.tag() == tag) return &m;
  return nullptr;
}

}  // namespace aiperf::exporting
