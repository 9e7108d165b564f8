#include "dcgm_fields.h"

#include <array>

namespace aiperf::telemetry {
namespace {

constexpr double kMiBToGB = 1.048576e-3;  // DCGM reports framebuffer memory in MiB

constexpr std::array<DcgmField, 27> kFields = {{
    // AIPerf 0.13's GPU_TELEMETRY_METRICS_CONFIG (NVIDIA rows, namespaced keys), in its order.
    {"DCGM_FI_DEV_POWER_USAGE", "nvidia_power_usage", "NVIDIA GPU Power Usage", "W", 1, false, true},
    {"DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "nvidia_energy_consumption", "NVIDIA Energy Consumption", "MJ", 1e-9, true,
     true},
    {"DCGM_FI_DEV_GPU_UTIL", "nvidia_gpu_utilization", "NVIDIA GPU Utilization", "%", 1, false, true},
    {"DCGM_FI_DEV_MEM_COPY_UTIL", "nvidia_memory_utilization", "NVIDIA Memory Utilization", "%", 1, false, true},
    {"DCGM_FI_DEV_FB_USED", "nvidia_memory_used", "NVIDIA GPU Memory Used", "GB", kMiBToGB, false, true},
    {"DCGM_FI_DEV_GPU_TEMP", "nvidia_temperature", "NVIDIA GPU Temperature", "°C", 1, false, true},
    {"DCGM_FI_PROF_SM_ACTIVE", "nvidia_sm_utilization", "NVIDIA SM Utilization", "%", 100, false,
     true},  // a 0..1 ratio
    {"DCGM_FI_DEV_DEC_UTIL", "nvidia_decoder_utilization", "NVIDIA Decoder Utilization", "%", 1, false, true},
    {"DCGM_FI_DEV_ENC_UTIL", "nvidia_encoder_utilization", "NVIDIA Encoder Utilization", "%", 1, false, true},
    {"DCGM_FI_DEV_XID_ERRORS", "nvidia_xid_errors", "NVIDIA XID Errors", "count", 1, true, true},
    // The spec reads AIPerf's scale as ns -> us; kept so the numbers match AIPerf's.
    {"DCGM_FI_DEV_POWER_VIOLATION", "nvidia_power_violation", "NVIDIA Power Violation", "us", 1e-3, true, true},
    // Ours: fields dcgm-exporter's default counters expose that AIPerf only gets from a custom
    // metrics CSV; keyed as AIPerf 0.13 keys a custom field (nvidia_<field suffix, lower case>).
    {"DCGM_FI_DEV_FB_FREE", "nvidia_fb_free", "GPU Memory Free", "GB", kMiBToGB, false, false},
    {"DCGM_FI_DEV_FB_TOTAL", "nvidia_fb_total", "GPU Memory Total", "GB", kMiBToGB, false, false},
    {"DCGM_FI_DEV_SM_CLOCK", "nvidia_sm_clock", "SM Clock", "MHz", 1, false, false},
    {"DCGM_FI_DEV_MEM_CLOCK", "nvidia_mem_clock", "Memory Clock", "MHz", 1, false, false},
    {"DCGM_FI_DEV_MEMORY_TEMP", "nvidia_memory_temp", "Memory Temperature", "°C", 1, false, false},
    {"DCGM_FI_DEV_ECC_SBE_VOL_TOTAL", "nvidia_ecc_sbe_vol_total", "ECC Single-Bit Errors", "count", 1, true, false},
    {"DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "nvidia_ecc_dbe_vol_total", "ECC Double-Bit Errors", "count", 1, true, false},
    {"DCGM_FI_DEV_RETIRED_SBE", "nvidia_retired_sbe", "Retired Pages (Single-Bit)", "count", 1, true, false},
    {"DCGM_FI_DEV_RETIRED_DBE", "nvidia_retired_dbe", "Retired Pages (Double-Bit)", "count", 1, true, false},
    // A bitmask: its statistics only say whether any throttling happened (max > 0). Newer
    // exporters renamed the field; both land on one key.
    {"DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", "nvidia_clock_throttle_reasons", "Clock Throttle Reasons", "bitmask", 1,
     false, false},
    {"DCGM_FI_DEV_CLOCKS_EVENT_REASONS", "nvidia_clock_throttle_reasons", "Clock Throttle Reasons", "bitmask", 1, false,
     false},
    {"DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", "nvidia_nvlink_bandwidth_total", "NVLink Bandwidth Total", "count", 1, true,
     false},
    {"DCGM_FI_DEV_PCIE_REPLAY_COUNTER", "nvidia_pcie_replay_counter", "PCIe Replays", "count", 1, true, false},
    // Rates in bytes/s despite the exporter's "counter" type (DCGM profiling fields 1009/1010).
    {"DCGM_FI_PROF_PCIE_TX_BYTES", "nvidia_pcie_tx_bytes", "PCIe TX Throughput", "MB/s", 1e-6, false, false},
    {"DCGM_FI_PROF_PCIE_RX_BYTES", "nvidia_pcie_rx_bytes", "PCIe RX Throughput", "MB/s", 1e-6, false, false},
    {"DCGM_FI_PROF_NVLINK_TX_BYTES", "nvidia_nvlink_tx_bytes", "NVLink TX Throughput", "MB/s", 1e-6, false, false},
}};

}  // namespace

std::span<const DcgmField> dcgm_fields() { return kFields; }

const DcgmField* find_dcgm_field(std::string_view dcgm_name) {
  for (const DcgmField& f : kFields)
    if (f.dcgm_name == dcgm_name) return &f;
  return nullptr;
}

}  // namespace aiperf::telemetry
