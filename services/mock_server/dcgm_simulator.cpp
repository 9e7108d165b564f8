#include "dcgm_simulator.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include "time/clock.h"

namespace aiperf::mock {
namespace {

constexpr GpuModel kModels[] = {
    {"rtx6000", "NVIDIA RTX 6000 Ada Generation", 49140, 30, 300, 2505, 10001},
    {"a100", "NVIDIA A100-SXM4-80GB", 81920, 60, 400, 1410, 1593},
    {"h100", "NVIDIA H100 PCIe", 81559, 50, 350, 1755, 1593},
    {"h100-sxm", "NVIDIA H100 80GB HBM3", 81559, 70, 700, 1980, 2619},
    {"h200", "NVIDIA H200", 143771, 75, 700, 1980, 3201},
    {"b200", "NVIDIA B200", 183359, 120, 1000, 1965, 3996},
    {"gb200", "NVIDIA GB200", 189471, 150, 1200, 2062, 3996},
};

constexpr int kInstances = 2;

int64_t now_ns() { return aiperf::steady_now_ns(); }

struct Field {
  const char* name;
  const char* type;
  const char* help;
};

// dcgm-exporter's default-counters.csv names, types and help texts.
constexpr Field kFields[] = {
    {"DCGM_FI_DEV_SM_CLOCK", "gauge", "SM clock frequency (in MHz)."},
    {"DCGM_FI_DEV_MEM_CLOCK", "gauge", "Memory clock frequency (in MHz)."},
    {"DCGM_FI_DEV_MEMORY_TEMP", "gauge", "Memory temperature (in C)."},
    {"DCGM_FI_DEV_GPU_TEMP", "gauge", "GPU temperature (in C)."},
    {"DCGM_FI_DEV_POWER_USAGE", "gauge", "Power draw (in W)."},
    {"DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "counter", "Total energy consumption since boot (in mJ)."},
    {"DCGM_FI_DEV_PCIE_REPLAY_COUNTER", "counter", "Total number of PCIe retries."},
    {"DCGM_FI_DEV_GPU_UTIL", "gauge", "GPU utilization (in %)."},
    {"DCGM_FI_DEV_MEM_COPY_UTIL", "gauge", "Memory utilization (in %)."},
    {"DCGM_FI_DEV_ENC_UTIL", "gauge", "Encoder utilization (in %)."},
    {"DCGM_FI_DEV_DEC_UTIL", "gauge", "Decoder utilization (in %)."},
    {"DCGM_FI_DEV_XID_ERRORS", "gauge", "Value of the last XID error encountered."},
    {"DCGM_FI_DEV_FB_FREE", "gauge", "Framebuffer memory free (in MiB)."},
    {"DCGM_FI_DEV_FB_USED", "gauge", "Framebuffer memory used (in MiB)."},
    {"DCGM_FI_DEV_FB_TOTAL", "gauge", "Framebuffer memory total (in MiB)."},
    {"DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", "counter", "Total number of NVLink bandwidth counters for all lanes."},
    {"DCGM_FI_DEV_POWER_VIOLATION", "counter", "Throttling duration due to power constraints (in us)."},
    {"DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", "gauge", "Current clock throttle reasons."},
    {"DCGM_FI_DEV_ECC_SBE_VOL_TOTAL", "counter", "Total number of single-bit volatile ECC errors."},
    {"DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "counter", "Total number of double-bit volatile ECC errors."},
    {"DCGM_FI_DEV_RETIRED_SBE", "counter", "Total number of retired pages due to single-bit errors."},
    {"DCGM_FI_DEV_RETIRED_DBE", "counter", "Total number of retired pages due to double-bit errors."},
    {"DCGM_FI_PROF_SM_ACTIVE", "gauge", "The ratio of cycles an SM has at least 1 warp assigned (in %)."},
    {"DCGM_FI_PROF_PCIE_TX_BYTES", "counter", "The rate of data transmitted over the PCIe bus (in B/s)."},
    {"DCGM_FI_PROF_PCIE_RX_BYTES", "counter", "The rate of data received over the PCIe bus (in B/s)."},
};
constexpr size_t kFieldCount = sizeof(kFields) / sizeof(kFields[0]);

}  // namespace

const GpuModel* find_gpu_model(const std::string& key) {
  for (const GpuModel& m : kModels)
    if (key == m.key) return &m;
  return nullptr;
}

std::vector<std::string> gpu_model_keys() {
  std::vector<std::string> keys;
  for (const GpuModel& m : kModels) keys.emplace_back(m.key);
  return keys;
}

DcgmSimulator::DcgmSimulator(const MockConfig& config)
    : config_(config),
      model_(find_gpu_model(config.dcgm_gpu_name)),
      rng_(config.dcgm_seed ? *config.dcgm_seed : std::random_device{}()),
      gpus_(static_cast<size_t>(kInstances * std::max(1u, config.dcgm_num_gpus))) {
  if (!model_) model_ = find_gpu_model("h200");
  // A GPU that has been up for a while: counters do not start at zero.
  for (size_t i = 0; i < gpus_.size(); ++i) gpus_[i].energy_mj = 4.2e10 + 1.3e9 * static_cast<double>(i);
}

double DcgmSimulator::load_for(double tps) const {
  if (!config_.dcgm_auto_load) return 0.5;
  const double floor = std::max(1.0, config_.dcgm_min_throughput);
  return std::clamp(tps / (10 * floor), 0.05, 1.0);
}

double DcgmSimulator::throughput(int64_t now, int64_t tokens) {
  const auto window = static_cast<int64_t>(config_.dcgm_window_sec * 1e9);
  token_history_.emplace_back(now, tokens);
  while (token_history_.size() > 1 && token_history_.front().first < now - window) token_history_.pop_front();
  const auto& [t0, n0] = token_history_.front();
  if (now <= t0) return 0;
  return static_cast<double>(tokens - n0) / (static_cast<double>(now - t0) / 1e9);
}

std::optional<std::string> DcgmSimulator::render(int instance, int64_t generation_tokens_total) {
  if (instance < 1 || instance > kInstances) return std::nullopt;
  std::lock_guard lock(mutex_);
  const int64_t now = now_ns();
  const double load = load_for(throughput(now, generation_tokens_total));
  std::uniform_real_distribution<double> jitter(-1.0, 1.0);
  const GpuModel& m = *model_;
  const unsigned n = std::max(1u, config_.dcgm_num_gpus);

  // values[gpu][field] in kFields order.
  std::vector<std::array<double, kFieldCount>> values(n);
  for (unsigned g = 0; g < n; ++g) {
    GpuState& st = gpus_[static_cast<size_t>(instance - 1) * n + g];
    const double l = std::clamp(load * (1.0 - 0.04 * g) + 0.02 * jitter(rng_), 0.0, 1.0);  // GPUs differ a little
    const double power = m.idle_w + (m.max_w - m.idle_w) * l;
    const double dt = st.last_ns ? static_cast<double>(now - st.last_ns) / 1e9 : 0.0;
    st.last_ns = now;
    st.energy_mj += power * dt * 1e3;
    st.nvlink += l * 2.5e4 * dt;
    if (l > 0.95) st.power_violation_us += dt * 1e6 * (l - 0.95) * 20;
    const double used = m.memory_mib * (0.55 + 0.35 * l);  // weights + KV cache growing with load
    auto& v = values[g];
    v = {m.sm_clock_mhz * (0.7 + 0.3 * l),
         m.mem_clock_mhz,
         34 + 30 * l,
         33 + 40 * l,
         power,
         st.energy_mj,
         0,
         std::round(100 * l),
         std::round(60 * l),
         0,
         0,
         0,
         std::floor(m.memory_mib - used),
         std::ceil(used),
         m.memory_mib,
         st.nvlink,
         st.power_violation_us,
         l > 0.95 ? 4.0 : 0.0,  // 4 = SW power cap
         0,
         0,
         0,
         0,
         0.9 * l,
         2e8 * l + 1e6,
         6e8 * l + 1e6};
  }
  std::string out;
  out.reserve(kFieldCount * n * 320);
  char buf[96];
  for (size_t f = 0; f < kFieldCount; ++f) {
    out += std::string("# HELP ") + kFields[f].name + " " + kFields[f].help + "\n";
    out += std::string("# TYPE ") + kFields[f].name + " " + kFields[f].type + "\n";
    for (unsigned g = 0; g < n; ++g) {
      std::snprintf(buf, sizeof buf, "GPU-%08x-0000-4000-8000-%012x", 0x6d6f636bu + static_cast<unsigned>(instance),
                    g);
      out += kFields[f].name;
      out += "{gpu=\"" + std::to_string(g) + "\",UUID=\"" + buf + "\",pci_bus_id=\"00000000:";
      std::snprintf(buf, sizeof buf, "%02X", 0x18 + 0x10 * g);
      out += std::string(buf) + ":00.0\",device=\"nvidia" + std::to_string(g) + "\",modelName=\"" + m.model_name +
             "\",Hostname=\"" + config_.dcgm_hostname + "\",DCGM_FI_DRIVER_VERSION=\"550.90.07\"} ";
      std::snprintf(buf, sizeof buf, "%.6f", values[g][f]);
      out += buf;
      out += '\n';
    }
  }
  return out;
}

}  // namespace aiperf::mock
