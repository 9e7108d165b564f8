#include "yaml_args.h"

#include <algorithm>

namespace aiperf::test {

std::vector<std::string> scalars(const YAML::Node& seq) {
  std::vector<std::string> out;
  if (!seq || !seq.IsSequence()) return out;
  for (const auto& item : seq) out.push_back(item.as<std::string>());
  return out;
}

std::optional<std::string> flag_value(const std::vector<std::string>& args, const std::string& flag) {
  auto it = std::find(args.begin(), args.end(), flag);
  if (it == args.end() || std::next(it) == args.end()) return std::nullopt;
  return *std::next(it);
}

}  // namespace aiperf::test
