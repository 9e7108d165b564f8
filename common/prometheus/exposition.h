// Prometheus text exposition format 0.0.4: the data model a scrape parses into, and the parser.
// The grammar is the one Prometheus' own text parser accepts: "# HELP name text" and
// "# TYPE name type" lines, other "#" lines as comments, blank lines, and samples
// "name{label="value",...} value [timestamp_ms]" with escaped label values (\\ \" \n),
// Go float values (NaN, +Inf, -Inf) and an optional integer timestamp.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace aiperf::prometheus {

enum class MetricType { kUntyped, kCounter, kGauge, kHistogram, kSummary };

std::string_view type_name(MetricType type);  // "counter", ... ("untyped" for kUntyped)

using Labels = std::vector<std::pair<std::string, std::string>>;  // in exposition order

struct Sample {
  std::string name;                   // full sample name, e.g. "x_bucket" of histogram "x"
  Labels labels;
  double value = 0;
  std::optional<int64_t> timestamp_ms;

  // Value of a label, nullptr when absent.
  const std::string* label(std::string_view key) const;
};

// One metric family: the samples sharing a TYPE/HELP name. A histogram "x" holds x_bucket,
// x_sum, x_count (and x_created); a summary "x" holds x, x_sum, x_count.
struct Family {
  std::string name;
  MetricType type = MetricType::kUntyped;
  std::string help;  // unescaped
  std::vector<Sample> samples;
};

struct Exposition {
  std::vector<Family> families;  // in order of first appearance

  const Family* find(std::string_view name) const;
};

struct ParseError {
  size_t line = 0;  // 1-based
  std::string message;
};

// Either the parsed exposition or the first error; never throws.
struct ParseResult {
  std::optional<Exposition> exposition;
  std::optional<ParseError> error;
  bool ok() const { return exposition.has_value(); }
};

ParseResult parse(std::string_view text);

}  // namespace aiperf::prometheus
