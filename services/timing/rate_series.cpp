#include "rate_series.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

namespace aiperf::timing {
namespace {

// One point's fields, with pydantic's wording for what is wrong (extra key, type, range).
std::pair<double, double> parse_point(const nlohmann::json& p, size_t index) {
  const std::string where = "Invalid request-rate series point " + std::to_string(index) + ": ";
  if (!p.is_object()) throw RateSeriesError(where + "Input should be an object");
  for (const auto& [key, _] : p.items()) {
    if (key != "time_s" && key != "qps") throw RateSeriesError(where + key + ": Extra inputs are not permitted");
  }
  auto number = [&](const char* key) {
    if (!p.contains(key)) throw RateSeriesError(where + key + ": Field required");
    const auto& v = p.at(key);
    if (!v.is_number()) throw RateSeriesError(where + key + ": Input should be a valid number");
    return v.get<double>();
  };
  const double time_s = number("time_s");
  const double qps = number("qps");
  if (time_s < 0) throw RateSeriesError(where + "time_s: Input should be greater than or equal to 0");
  if (!(qps > 0)) throw RateSeriesError(where + "qps: Input should be greater than 0");
  return {time_s, qps};
}

}  // namespace

RatePoints parse_rate_series(const std::string& text, const std::string& path) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception&) {
    throw RateSeriesError("Invalid request-rate series JSON '" + path + "'");
  }
  const nlohmann::json* points = &doc;
  if (doc.is_object()) {
    if (doc.size() != 1 || !doc.contains("points"))
      throw RateSeriesError("Request-rate series JSON must contain exactly one top-level key: points");
    points = &doc.at("points");
  } else if (!doc.is_array()) {
    throw RateSeriesError("Request-rate series JSON must be an object with points or a points array");
  }
  if (!points->is_array()) throw RateSeriesError("Request-rate series JSON points must be an array");
  RatePoints out;
  for (size_t i = 0; i < points->size(); ++i) out.push_back(parse_point((*points)[i], i));
  if (out.size() < 2) throw RateSeriesError("Request-rate series requires at least two points");
  for (const auto& [t, q] : out) {
    if (!std::isfinite(t) || !std::isfinite(q)) throw RateSeriesError("Request-rate series values must be finite");
  }
  for (size_t i = 1; i < out.size(); ++i) {
    if (out[i].first <= out[i - 1].first)
      throw RateSeriesError("Request-rate series time_s values must be strictly increasing");
  }
  return out;
}

RatePoints read_rate_series_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw RateSeriesError("Cannot read request-rate series JSON '" + path + "'");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw RateSeriesError("Cannot read request-rate series JSON '" + path + "'");
  return parse_rate_series(text, path);
}

double rate_series_value(const RatePoints& points, double elapsed_s) {
  if (elapsed_s <= points.front().first) return points.front().second;
  if (elapsed_s >= points.back().first) return points.back().second;
  // The first point after elapsed_s (bisect_right), and the one before it.
  const auto right = std::upper_bound(points.begin(), points.end(), elapsed_s,
                                      [](double t, const std::pair<double, double>& p) { return t < p.first; });
  const auto left = right - 1;
  const double progress = (elapsed_s - left->first) / (right->first - left->first);
  return left->second + (right->second - left->second) * progress;
}

}  // namespace aiperf::timing
