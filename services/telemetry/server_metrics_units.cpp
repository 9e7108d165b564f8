// AIPerf 0.13's unit of a server metric family (server_metrics/units.py infer_unit, then the
// unit's display name): a 0-1 or 0-100 range in the description, else a unit the description
// names ("(in W)", "in seconds", "(tokens/s)"), else the name's suffix ("_seconds", "_tokens",
// "_total", ...) or "num_requests_" in it; "" when none applies.
#include <algorithm>
#include <array>
#include <regex>
#include <string>

#include "server_metrics.h"

namespace aiperf::telemetry {
namespace {

struct UnitMatch {
  std::string_view key, unit;
};

// Suffix -> display name; the longest matching suffix wins (as AIPerf sorts them).
constexpr std::array<UnitMatch, 34> kSuffixUnits{{
    {"_seconds", "seconds"},
    {"_seconds_total", "seconds"},
    {"_milliseconds", "milliseconds"},
    {"_ms", "milliseconds"},
    {"_ms_total", "milliseconds"},
    {"_nanoseconds", "nanoseconds"},
    {"_ns", "nanoseconds"},
    {"_ns_total", "nanoseconds"},
    {"_bytes", "bytes"},
    {"_kilobytes", "kilobytes"},
    {"_megabytes", "megabytes"},
    {"_gigabytes", "gigabytes"},
    {"_bytes_total", "bytes"},
    {"_total", "count"},
    {"_count", "count"},
    {"_tokens", "tokens"},
    {"_tokens_total", "tokens"},
    {"_requests", "requests"},
    {"_requests_total", "requests"},
    {"request_success", "requests"},
    {"_errors", "errors"},
    {"_errors_total", "errors"},
    {"_error_count", "errors"},
    {"_error_count_total", "errors"},
    {"_reqs", "requests"},
    {"_blocks", "blocks"},
    {"_blocks_total", "blocks"},
    {"_block_count", "blocks"},
    {"_gb_s", "gb/s"},
    {"_ratio", "ratio"},
    {"_percent", "percent"},
    {"_perc", "percent"},
    {"_celsius", "celsius"},
    {"_joules", "joule"},
}};
constexpr UnitMatch kWattsSuffix{"_watts", "watt"};

// "(in <tag>)" -> display name (case-sensitive: mJ is not MJ).
constexpr std::array<UnitMatch, 31> kTagUnits{{
    {"MiB", "megabytes"},   {"GiB", "gigabytes"},   {"KiB", "kilobytes"}, {"B", "bytes"},         {"MB", "megabytes"},
    {"GB", "gigabytes"},    {"KB", "kilobytes"},    {"TB", "terabytes"},  {"C", "celsius"},       {"°C", "celsius"},
    {"F", "fahrenheit"},    {"°F", "fahrenheit"},   {"K", "kelvin"},      {"Hz", "hertz"},        {"MHz", "megahertz"},
    {"GHz", "gigahertz"},   {"W", "watt"},          {"mW", "milliwatt"},  {"J", "joule"},         {"mJ", "millijoule"},
    {"MJ", "megajoule"},    {"s", "seconds"},       {"sec", "seconds"},   {"ms", "milliseconds"}, {"ns", "nanoseconds"},
    {"us", "microseconds"}, {"µs", "microseconds"}, {"GB/s", "gb/s"},     {"MB/s", "mb/s"},       {"%", "percent"},
    {"percent", "percent"},
}};

std::regex icase(const char* pattern) { return std::regex(pattern, std::regex::ECMAScript | std::regex::icase); }

std::string unit_from_description(const std::string& d) {
  if (d.empty()) return {};
  // The scale: a 0-1 range is a ratio, a 0-100 range a percentage.
  static const std::regex ratio = icase(R"(\(0(?:\.0)?\s*(?:-+|to)\s*1(?:\.0)?\))"
                                        R"(|\b0(?:\.0)?\s*(?:-+|to)\s*1(?:\.0)?\b)"
                                        R"(|\brange\s+0(?:\.0)?\s*(?:-+|to)\s*1(?:\.0)?\b)"
                                        R"(|(?:\b|\()1(?:\.0)?\s*(?:means|is|equals?|==?)\s*100\s*(?:%|percent))");
  static const std::regex percent = icase(R"(\(0(?:\.0)?\s*(?:-+|to)\s*100(?:\.0)?\))"
                                          R"(|\brange\s+0\s*(?:-+|to)\s*100\b)"
                                          R"(|\b0\s*(?:-+|to)\s*100\s*%)");
  if (std::regex_search(d, ratio)) return "ratio";
  if (std::regex_search(d, percent)) return "percent";
  // "(in <unit>)", DCGM style.
  static const std::regex in_unit(R"(\(in\s+([^\s)]+)\))");
  std::smatch m;
  if (std::regex_search(d, m, in_unit)) {
    const std::string tag = m[1].str();
    for (const UnitMatch& u : kTagUnits)
      if (u.key == tag) return std::string(u.unit);
  }
  static const std::array<std::pair<std::regex, std::string_view>, 9> kPhrases{{
      {icase(R"((?:\bin\s+|\()seconds?(?:\b|\)))"), "seconds"},
      {icase(R"((?:\bin\s+|\()(?:milliseconds?|ms)(?:\b|\)))"), "milliseconds"},
      {icase(R"((?:\bin\s+|\()(?:nanoseconds?|ns)(?:\b|\)))"), "nanoseconds"},
      {icase(R"((?:\bin\s+|\()bytes?(?:\b|\)))"), "bytes"},
      {icase(R"((?:\bin\s+|\()GB/s(?:\b|\)))"), "gb/s"},
      {icase(R"((?:\bin\s+|\()MB/s(?:\b|\)))"), "mb/s"},
      {icase(R"((?:\bin\s+|\()tokens?/s(?:ec(?:ond)?)?(?:\b|\)))"), "tokens/s"},
      {icase(R"((?:\bin\s+|\()requests?/s(?:ec(?:ond)?)?(?:\b|\)))"), "requests/s"},
      {icase(R"(\bin\s+tokens?\b)"), "tokens"},
  }};
  for (const auto& [re, unit] : kPhrases)
    if (std::regex_search(d, re)) return std::string(unit);
  return {};
}

}  // namespace

std::string infer_unit(std::string_view metric_name, const std::string& description) {
  if (std::string unit = unit_from_description(description); !unit.empty()) return unit;
  std::string name(metric_name);
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  const UnitMatch* best = nullptr;
  auto consider = [&](const UnitMatch& u) {
    if (name.ends_with(u.key) && (!best || u.key.size() > best->key.size())) best = &u;
  };
  for (const UnitMatch& u : kSuffixUnits) consider(u);
  consider(kWattsSuffix);
  if (best) return std::string(best->unit);
  if (name.find("num_requests_") != std::string::npos) return "requests";
  return {};
}

std::string export_family_name(const ServerSeries& s) {
  // AIPerf 0.13 reads pages with prometheus_client, which names a counter family without its
  // "_total" suffix.
  if (s.type == prometheus::MetricType::kCounter && s.family.size() > 6 && s.family.ends_with("_total"))
    return s.family.substr(0, s.family.size() - 6);
  return s.family;
}

}  // namespace aiperf::telemetry
