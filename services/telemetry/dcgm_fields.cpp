#include "dcgm_fields.h"

#include <array>

namespace aiperf::telemetry {
namespace {

constexpr double kMiBToGB = 1.048576e-3;  // DCGM reports framebuffer memory in MiB

constexpr std::array<DcgmField, 27> kFields = {{
    // AIPerf's GPU_TELEMETRY_METRICS_CONFIG, in its order.
    {"DCGM_FI_DEV_POWER_USAGE", "gpu_power_usage", "GPU Power Usage", "W", 1, false},
    {"DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "energy_consumption", "Energy Consumption", "MJ", 1e-9, true},
    {"DCGM_FI_DEV_GPU_UTIL", "gpu_utilization", "GPU Utilization", "%", 1, false},
    {"DCGM_FI_DEV_FB_USED", "gpu_memory_used", "GPU Memory Used", "GB", kMiBToGB, false},
    {"DCGM_FI_DEV_GPU_TEMP", "gpu_temperature", "GPU Temperature", "°C", 1, false},
    {"DCGM_FI_DEV_MEM_COPY_UTIL", "mem_utilization", "Memory Utilization", "%", 1, false},
    {"DCGM_FI_PROF_SM_ACTIVE", "sm_utilization", "SM Utilization", "%", 100, false},  // a 0..1 ratio
    {"DCGM_FI_DEV_DEC_UTIL", "decoder_utilization", "Decoder Utilization", "%", 1, false},
    {"DCGM_FI_DEV_ENC_UTIL", "encoder_utilization", "Encoder Utilization", "%", 1, false},
    {"DCGM_FI_DEV_XID_ERRORS", "xid_errors", "XID Errors", "count", 1, true},
    // The spec reads AIPerf's scale as ns -> us; kept so the numbers match AIPerf's.
    {"DCGM_FI_DEV_POWER_VIOLATION", "power_violation", "Power Violation", "us", 1e-3, true},
    // Ours: fields dcgm-exporter's default counters expose that AIPerf only gets from a custom CSV.
    {"DCGM_FI_DEV_FB_FREE", "gpu_memory_free", "GPU Memory Free", "GB", kMiBToGB, false},
    {"DCGM_FI_DEV_FB_TOTAL", "gpu_memory_total", "GPU Memory Total", "GB", kMiBToGB, false},
    {"DCGM_FI_DEV_SM_CLOCK", "sm_clock", "SM Clock", "MHz", 1, false},
    {"DCGM_FI_DEV_MEM_CLOCK", "mem_clock", "Memory Clock", "MHz", 1, false},
    {"DCGM_FI_DEV_MEMORY_TEMP", "memory_temperature", "Memory Temperature", "°C", 1, false},
    {"DCGM_FI_DEV_ECC_SBE_VOL_TOTAL", "ecc_sbe_errors", "ECC Single-Bit Errors", "count", 1, true},
    {"DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "ecc_dbe_errors", "ECC Double-Bit Errors", "count", 1, true},
    {"DCGM_FI_DEV_RETIRED_SBE", "retired_pages_sbe", "Retired Pages (Single-Bit)", "count", 1, true},
    {"DCGM_FI_DEV_RETIRED_DBE", "retired_pages_dbe", "Retired Pages (Double-Bit)", "count", 1, true},
    // A bitmask: its statistics only say whether any throttling happened (max > 0).
    {"DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", "clock_throttle_reasons", "Clock Throttle Reasons", "bitmask", 1, false},
    {"DCGM_FI_DEV_CLOCKS_EVENT_REASONS", "clock_throttle_reasons", "Clock Throttle Reasons", "bitmask", 1, false},
    {"DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", "nvlink_bandwidth_total", "NVLink Bandwidth Total", "count", 1, true},
    {"DCGM_FI_DEV_PCIE_REPLAY_COUNTER", "pcie_replay_count", "PCIe Replays", "count", 1, true},
    // Rates in bytes/s despite the exporter's "counter" type (DCGM profiling fields 1009/1010).
    {"DCGM_FI_PROF_PCIE_TX_BYTES", "pcie_tx_throughput", "PCIe TX Throughput", "MB/s", 1e-6, false},
    {"DCGM_FI_PROF_PCIE_RX_BYTES", "pcie_rx_throughput", "PCIe RX Throughput", "MB/s", 1e-6, false},
    {"DCGM_FI_PROF_NVLINK_TX_BYTES", "nvlink_tx_throughput", "NVLink TX Throughput", "MB/s", 1e-6, false},
}};

}  // namespace

std::span<const DcgmField> dcgm_fields() { return kFields; }

const DcgmField* find_dcgm_field(std::string_view dcgm_name) {
  for (const DcgmField& f : kFields)
    if (f.dcgm_name == dcgm_name) return &f;
  return nullptr;
}

}  // namespace aiperf::telemetry
