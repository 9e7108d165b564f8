#include "export/timeslice_json.h"

#include "export/summary_json.h"
#include "metrics/json_number.h"
#include "metrics/metric_flags.h"

namespace aiperf::exporting {

std::string format_timeslice_json(const std::vector<proto::ProfileResults>& slices,
                                  const nlohmann::ordered_json& input_config) {
  std::string out = "{\n  \"timeslices\": [";
  for (std::size_t index = 0; index < slices.size(); ++index) {
    out += index ? ",\n    {" : "\n    {";
    out += "\n      \"timeslice_index\": " + std::to_string(index);
    for (const auto& m : slices[index].records()) {
      if (metrics::has_any_flag(m.flags(), metrics::flags::kHiddenFromExports)) continue;
      out += ",\n      ";
      metrics::append_json_string(out, m.tag());
      out += ": ";
      append_metric_json(out, m, 3);  // member of a slice object inside the array
    }
    out += "\n    }";
  }
  out += slices.empty() ? "]" : "\n  ]";
  if (!input_config.is_null()) out += ",\n  \"input_config\": " + nested_json_at(input_config, 1);
  out += "\n}";
  return out;
}

}  // namespace aiperf::exporting
