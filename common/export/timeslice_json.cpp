#include "export/timeslice_json.h"

#include "export/summary_json.h"
#include "metrics/json_number.h"
#include "metrics/metric_flags.h"

namespace aiperf::exporting {

std::string format_timeslice_json(const std::vector<TimesliceExport>& slices,
                                  const nlohmann::ordered_json& input_config) {
  std::string out = "{\n  \"timeslices\": [";
  for (std::size_t index = 0; index < slices.size(); ++index) {
    const TimesliceExport& slice = slices[index];
    out += index ? ",\n    {" : "\n    {";
    out += "\n      \"start_ns\": " + std::to_string(slice.start_ns);
    out += ",\n      \"end_ns\": " + std::to_string(slice.end_ns);
    if (!slice.complete) out += ",\n      \"is_complete\": false";
    for (const auto& m : slice.results->records()) {
      if (metrics::has_any_flag(m.flags(), metrics::flags::kHiddenFromExports)) continue;
      out += ",\n      ";
      metrics::append_json_string(out, m.tag());
      out += ": ";
      // Floats throughout (the count stays an integer either way).
      proto::MetricResult as_floats = m;
      as_floats.set_integer_values(false);
      append_metric_json(out, as_floats, 3);  // member of a slice object inside the array
    }
    out += "\n    }";
  }
  out += slices.empty() ? "]" : "\n  ]";
  if (!input_config.is_null()) out += ",\n  \"input_config\": " + nested_json_at(input_config, 1);
  out += "\n}";
  return out;
}

}  // namespace aiperf::exporting
