#include "fault_injector.h"

#include <algorithm>
#include <charconv>

namespace aiperf::mock {

std::optional<FaultSpec> parse_fault_spec(std::string_view text, std::string& error) {
  const size_t colon = text.find(':');
  const std::string_view name = text.substr(0, colon);
  const auto it = std::find(kFaultNames.begin(), kFaultNames.end(), name);
  if (it == kFaultNames.end()) {
    error = "unknown fault '" + std::string(name) + "' (one of:";
    for (std::string_view n : kFaultNames) error += " " + std::string(n);
    error += ")";
    return std::nullopt;
  }
  FaultSpec spec{static_cast<Fault>(it - kFaultNames.begin()), 100.0};
  if (colon != std::string_view::npos) {
    const std::string_view pct = text.substr(colon + 1);
    double value = 0;
    const auto [end, ec] = std::from_chars(pct.data(), pct.data() + pct.size(), value);
    if (ec != std::errc{} || end != pct.data() + pct.size() || !(value > 0.0 && value <= 100.0)) {
      error = "fault '" + std::string(name) + "': percent must be a number in (0, 100], got '" + std::string(pct) + "'";
      return std::nullopt;
    }
    spec.percent = value;
  }
  return spec;
}

std::string check_fault_specs(const std::vector<FaultSpec>& specs) {
  double total = 0;
  for (size_t i = 0; i < specs.size(); ++i) {
    for (size_t j = 0; j < i; ++j)
      if (specs[j].kind == specs[i].kind) return "fault '" + std::string(fault_name(specs[i].kind)) + "' given twice";
    if (specs[i].kind != Fault::tls_handshake_failure) total += specs[i].percent;
  }
  if (total > 100.0 + 1e-9) return "the request faults' percents add up to " + std::to_string(total) + " (> 100)";
  return {};
}

FaultInjector::FaultInjector(std::vector<FaultSpec> specs, std::optional<uint64_t> seed)
    // A different stream from the --error-rate generator's, which takes the same seed.
    : rng_(seed ? *seed ^ 0x9e3779b97f4a7c15ull : std::random_device{}()) {
  for (const FaultSpec& spec : specs) {
    if (spec.kind == Fault::tls_handshake_failure)
      tls_percent_ = spec.percent;
    else
      request_specs_.push_back(spec);
  }
}

double FaultInjector::uniform() { return std::uniform_real_distribution<double>(0.0, 100.0)(rng_); }

std::optional<FaultDecision> FaultInjector::draw() {
  if (request_specs_.empty()) return std::nullopt;
  std::lock_guard lock(mutex_);
  // One draw per request, always, so the sequence does not depend on which faults came before.
  const double u = uniform();
  const double pick = uniform();  // which 5xx status
  double edge = 0;
  for (const FaultSpec& spec : request_specs_) {
    edge += spec.percent;
    if (u < edge || spec.percent >= 100.0) {
      FaultDecision d{spec.kind, 0};
      if (spec.kind == Fault::http_5xx) d.status = pick < 100.0 / 3 ? 500 : pick < 200.0 / 3 ? 502 : 503;
      if (spec.kind == Fault::http_429) d.status = 429;
      return d;
    }
  }
  return std::nullopt;
}

bool FaultInjector::draw_tls_failure() {
  if (tls_percent_ <= 0.0) return false;
  if (tls_percent_ >= 100.0) return true;
  std::lock_guard lock(mutex_);
  return uniform() < tls_percent_;
}

}  // namespace aiperf::mock
