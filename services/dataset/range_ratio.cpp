#include "range_ratio.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace aiperf::dataset {
namespace {

// Python's float(str): surrounding blanks allowed, the whole text must be a number.
bool parse_float(const std::string& text, double& out) {
  const size_t b = text.find_first_not_of(" \t\n\r");
  if (b == std::string::npos) return false;
  const size_t e = text.find_last_not_of(" \t\n\r");
  const std::string t = text.substr(b, e - b + 1);
  try {
    size_t used = 0;
    out = std::stod(t, &used);
    return used == t.size();
  } catch (const std::exception&) {
    return false;
  }
}

std::string repr(const std::string& s) { return "'" + s + "'"; }

std::string fmt(double v) {
  std::ostringstream os;
  os << v;
  std::string s = os.str();
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";  // Python prints 1.0, not 1
  return s;
}

}  // namespace

std::pair<double, double> parse_range_ratio(const std::string& raw, config::RandomCorpusStyle style) {
  const size_t b = raw.find_first_not_of(" \t\n\r");
  const std::string value = b == std::string::npos ? "" : raw.substr(b, raw.find_last_not_of(" \t\n\r") - b + 1);
  if (value.empty()) throw std::invalid_argument("--random-range-ratio value cannot be empty");
  double r = 0;
  double ir = 0, orr = 0;
  if (parse_float(value, r)) {
    ir = orr = r;
  } else {
    nlohmann::json data;
    try {
      data = nlohmann::json::parse(value);
    } catch (const nlohmann::json::exception&) {
      if (style == config::RandomCorpusStyle::kSglang)
        throw std::invalid_argument("--random-range-ratio must be a plain float for SGLang corpus style, got: " +
                                    repr(value));
      throw std::invalid_argument(
          "--random-range-ratio must be a float or a JSON object with 'input' and 'output' keys, got: " + repr(value));
    }
    if (style == config::RandomCorpusStyle::kSglang) {
      if (data.is_object())
        throw std::invalid_argument(
            "SGLang corpus style applies a single ratio to both ISL and OSL. Independent input/output values are "
            "not supported; provide a plain float instead (e.g. 0.3).");
      throw std::invalid_argument("--random-range-ratio must be a plain float for SGLang corpus style, got: " +
                                  repr(value));
    }
    if (!data.is_object())
      throw std::invalid_argument(
          "--random-range-ratio must be a float or a JSON object with 'input' and 'output' keys, got: " + repr(value));
    std::string missing, extra;
    for (const char* k : {"input", "output"})
      if (!data.contains(k)) missing += std::string(missing.empty() ? "" : ", ") + "'" + k + "'";
    if (!missing.empty())
      throw std::invalid_argument("--random-range-ratio JSON object missing keys: [" + missing + "]");
    for (const auto& [k, v] : data.items())
      if (k != "input" && k != "output") extra += std::string(extra.empty() ? "" : ", ") + "'" + k + "'";
    if (!extra.empty())
      throw std::invalid_argument("--random-range-ratio JSON object has unexpected keys: [" + extra + "]");
    if (!data["input"].is_number() || !data["output"].is_number())
      throw std::invalid_argument("--random-range-ratio 'input' and 'output' must be numbers");
    ir = data["input"].get<double>();
    orr = data["output"].get<double>();
  }
  return {ir, orr};
}

void check_range_ratio(const std::pair<double, double>& ratios, config::RandomCorpusStyle style) {
  const auto [ir, orr] = ratios;
  if (style == config::RandomCorpusStyle::kSglang) {
    if (!std::isfinite(ir) || ir < 0.0 || ir > 1.0)
      throw std::invalid_argument("range_ratio must be in [0.0, 1.0], got " + fmt(ir));
  } else {
    if (!std::isfinite(ir) || ir < 0.0 || ir >= 1.0)
      throw std::invalid_argument("ISL range_ratio must be in [0.0, 1.0), got " + fmt(ir));
    if (!std::isfinite(orr) || orr < 0.0 || orr >= 1.0)
      throw std::invalid_argument("OSL range_ratio must be in [0.0, 1.0), got " + fmt(orr));
  }
}

RangeWindow range_window(config::RandomCorpusStyle style, int64_t isl_mean, int64_t osl_mean, double isl_ratio,
                         double osl_ratio, uint32_t special_tokens) {
  RangeWindow w;
  if (style == config::RandomCorpusStyle::kSglang) {
    w.isl_low = std::max<int64_t>(1, static_cast<int64_t>(static_cast<double>(isl_mean) * isl_ratio));
    w.isl_high = isl_mean;
    w.osl_low = std::max<int64_t>(1, static_cast<int64_t>(static_cast<double>(osl_mean) * osl_ratio));
    w.osl_high = osl_mean;
    return w;
  }
  const double adjusted = static_cast<double>(std::max<int64_t>(0, isl_mean - special_tokens));
  w.isl_low = std::max<int64_t>(0, static_cast<int64_t>(std::floor(adjusted * (1 - isl_ratio))));
  w.isl_high = static_cast<int64_t>(std::ceil(adjusted * (1 + isl_ratio)));
  w.osl_low = std::max<int64_t>(1, static_cast<int64_t>(std::floor(static_cast<double>(osl_mean) * (1 - osl_ratio))));
  w.osl_high = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(static_cast<double>(osl_mean) * (1 + osl_ratio))));
  return w;
}

RangeRatioSampler::RangeRatioSampler(config::RandomCorpusStyle style, const RangeWindow& window,
                                     uint32_t special_tokens, uint64_t seed, size_t count, bool preseed)
    : style_(style),
      window_(window),
      special_tokens_(special_tokens),
      live_(derive_aiperf_seed(seed, "models.range_ratio.distribution")) {
  if (style == config::RandomCorpusStyle::kSglang)
    stream_ = std::make_unique<NumpyRandomState>(fold_seed_to_uint32(seed));
  else stream_ = std::make_unique<NumpyPcg64>(seed);
  if (!preseed) return;
  isl_ = stream_->integers(window_.isl_low, window_.isl_high + 1, count);
  osl_ = stream_->integers(window_.osl_low, window_.osl_high + 1, count);
}

uint32_t RangeRatioSampler::adjust_isl(int64_t isl) const {
  if (style_ == config::RandomCorpusStyle::kSglang)
    return static_cast<uint32_t>(std::max<int64_t>(1, isl - special_tokens_));
  return static_cast<uint32_t>(std::max<int64_t>(0, isl));
}

std::pair<uint32_t, uint32_t> RangeRatioSampler::next() {
  if (next_ < isl_.size()) {
    const size_t i = next_++;
    return {adjust_isl(isl_[i]), static_cast<uint32_t>(osl_[i])};
  }
  const int64_t isl = live_.integers(window_.isl_low, window_.isl_high + 1, 1)[0];
  const int64_t osl = live_.integers(window_.osl_low, window_.osl_high + 1, 1)[0];
  return {adjust_isl(isl), static_cast<uint32_t>(osl)};
}

}  // namespace aiperf::dataset
