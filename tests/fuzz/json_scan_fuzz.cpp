// JsonScan, the tree-less JSON reader of the response hot path. Its contract (json_scan.h): it
// may refuse more than nlohmann, never accept what nlohmann refuses, and decode strings and
// integers to the same values. So beyond memory errors, any disagreement aborts.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "endpoints/json_scan.h"

using aiperf::endpoints::JsonScan;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const nlohmann::json tree = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);

  JsonScan whole(text);
  if (whole.skip_value() && whole.at_end() && tree.is_discarded()) std::abort();

  // A top-level string or integer decodes to what nlohmann reads.
  JsonScan str(text);
  std::string decoded;
  if (str.string(&decoded) && str.at_end() && (!tree.is_string() || tree.get<std::string>() != decoded))
    std::abort();
  JsonScan num(text);
  int64_t n = 0;
  if (num.int64(n) && num.at_end() && (!tree.is_number_integer() || tree.get<int64_t>() != n)) std::abort();

  // Members of a top-level object, each value skipped: the path response parsing takes.
  JsonScan obj(text);
  std::string value;
  obj.object([&](std::string_view key) {
    if (key == "text") return obj.string(&value);
    return obj.skip_value();
  });
  return 0;
}
