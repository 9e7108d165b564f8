// DCGM exporter fields -> AIPerf GPU telemetry metrics (spec §6.7): the key, display name,
// unit and scale AIPerf 0.13 uses (keys namespaced "nvidia_*"), in AIPerf's display order,
// followed by the extra fields we also map (memory free/total, clocks, ECC, retired pages,
// throttling, NVLink, PCIe), which the exports carry but the console table does not.
#pragma once
#include <span>
#include <string_view>

namespace aiperf::telemetry {

struct DcgmField {
  std::string_view dcgm_name;  // e.g. "DCGM_FI_DEV_POWER_USAGE"
  std::string_view key;        // e.g. "nvidia_power_usage"
  std::string_view display;    // e.g. "NVIDIA GPU Power Usage"
  std::string_view unit;       // display unit, e.g. "W"
  double scale;                // exporter value * scale = value in `unit`
  bool counter;                // cumulative: reported as the delta over the run
  bool aiperf;                 // one of AIPerf's own metrics (shown on the console)
};

// The platform namespace of every field here (AIPerf 0.13's "platform" of a DCGM GPU).
inline constexpr std::string_view kNvidiaPlatform = "nvidia";

// In report order.
std::span<const DcgmField> dcgm_fields();
const DcgmField* find_dcgm_field(std::string_view dcgm_name);

}  // namespace aiperf::telemetry
