// The part of JMESPath that the template endpoint's response_field needs (spec §5.4): AIPerf
// compiles it with the Python jmespath package, which Debian has no C++ counterpart of.
// Supported: field names (bare or "quoted"), '.' between them and [N] indexes (negative from
// the end), e.g. `choices[0].message.content`, `data[-1].embedding`, `"generated-text"`.
// Projections, filters, functions and multi-selects are rejected when compiled.
#pragma once
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace aiperf::endpoints {

class JsonPath {
 public:
  // Throws std::invalid_argument for an expression outside the subset.
  explicit JsonPath(std::string_view expression);

  // The selected value, nullptr when any step is missing (JMESPath's null).
  const nlohmann::json* find(const nlohmann::json& root) const;

 private:
  std::vector<std::variant<std::string, long long>> steps_;  // field name or index
};

}  // namespace aiperf::endpoints
