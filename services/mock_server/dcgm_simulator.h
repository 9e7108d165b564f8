// DcgmSimulator: the mock server's fake DCGM exporters (/dcgm1/metrics, /dcgm2/metrics), in
// dcgm-exporter's text format. Each GPU's load follows the token throughput the server actually
// produced over the last --dcgm-window-sec (floor --dcgm-min-throughput), so utilisation, power,
// clocks, temperature and memory rise with traffic; energy and NVLink counters integrate over
// time. Values stay inside the chosen GPU's physical range. Thread-safe (one lock per page).
#pragma once
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "mock_config.h"

namespace aiperf::mock {

struct GpuModel {
  const char* key;           // --dcgm-gpu-name value
  const char* model_name;    // modelName label
  double memory_mib;
  double idle_w, max_w;      // power range
  double sm_clock_mhz;       // boost clock
  double mem_clock_mhz;
};

// nullptr for an unknown name.
const GpuModel* find_gpu_model(const std::string& key);
std::vector<std::string> gpu_model_keys();

class DcgmSimulator {
 public:
  explicit DcgmSimulator(const MockConfig& config);

  // Page of exporter `instance` (1 or 2), given the server's generation tokens so far;
  // nullopt for an instance that does not exist.
  std::optional<std::string> render(int instance, int64_t generation_tokens_total);

  // Load in [0, 1] from a token throughput (tokens/s): throughput / (10 x floor), at least the
  // idle load; constant 0.5 without --dcgm-auto-load.
  double load_for(double tokens_per_second) const;

 private:
  struct GpuState {
    double energy_mj = 0;       // DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION
    double nvlink = 0;          // DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL
    double power_violation_us = 0;
    int64_t last_ns = 0;
  };
  double throughput(int64_t now_ns, int64_t tokens);

  MockConfig config_;
  const GpuModel* model_;
  std::mutex mutex_;
  std::mt19937_64 rng_;
  std::deque<std::pair<int64_t, int64_t>> token_history_;  // (steady ns, tokens total)
  std::vector<GpuState> gpus_;                             // instance-major
};

}  // namespace aiperf::mock
