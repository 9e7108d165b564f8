// DCGM exporter fields -> AIPerf GPU telemetry metrics (spec §6.7): the key, display name,
// unit and scale AIPerf uses, in AIPerf's display order, followed by the extra fields we also
// map (memory free/total, clocks, ECC, retired pages, throttling, NVLink, PCIe).
#pragma once
#include <span>
#include <string_view>

namespace aiperf::telemetry {

struct DcgmField {
  std::string_view dcgm_name;  // e.g. "DCGM_FI_DEV_POWER_USAGE"
  std::string_view key;        // e.g. "gpu_power_usage"
  std::string_view display;    // e.g. "GPU Power Usage"
  std::string_view unit;       // display unit, e.g. "W"
  double scale;                // exporter value * scale = value in `unit`
  bool counter;                // cumulative: reported as the delta over the run
};

// In report order.
std::span<const DcgmField> dcgm_fields();
const DcgmField* find_dcgm_field(std::string_view dcgm_name);

}  // namespace aiperf::telemetry
