#include "config_keys.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace aiperf::cli::config_file {

std::string kebab(std::string key) {
  std::replace(key.begin(), key.end(), '_', '-');
  return key;
}

std::string snake(const std::string& key) {
  std::string out;
  for (size_t i = 0; i < key.size(); ++i) {
    const char c = key[i];
    if (std::isupper(static_cast<unsigned char>(c))) {
      if (i > 0 && key[i - 1] != '_') out += '_';
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      out += c;
    }
  }
  return out;
}

std::string join(const std::string& path, const std::string& key) { return path.empty() ? key : path + "." + key; }

std::string sweep_option_for(const std::vector<std::string>& parts) {
  static const std::map<std::string, std::string> kPhase = {
      {"concurrency", "--concurrency"},       {"prefill_concurrency", "--prefill-concurrency"},
      {"rate", "--request-rate"},             {"requests", "--request-count"},
      {"duration", "--benchmark-duration"},   {"sessions", "--conversation-num"},
      {"users", "--num-users"}};
  auto dataset_field = [](std::vector<std::string> rest) -> std::string {
    if (!rest.empty() && rest.front() == "prompts") rest.erase(rest.begin());
    const std::string stat = rest.size() == 2 ? rest[1] : "mean";
    if (rest.empty() || rest.size() > 2 || (stat != "mean" && stat != "stddev")) return "";
    if (rest[0] == "isl") return stat == "mean" ? "--isl" : "--isl-stddev";
    if (rest[0] == "osl") return stat == "mean" ? "--osl" : "--osl-stddev";
    if (rest[0] == "turns" && stat == "mean") return "--conversation-turn-mean";
    return "";
  };
  std::string option;
  if (parts.size() == 1 && kPhase.count(parts[0])) {
    option = kPhase.at(parts[0]);
  } else if (parts.size() == 1 && (parts[0] == "isl" || parts[0] == "osl")) {
    option = dataset_field(parts);
  } else if (parts.size() == 3 && parts[0] == "phases" && parts[1] != "warmup" && kPhase.count(parts[2])) {
    option = kPhase.at(parts[2]);
  } else if (parts.size() >= 3 && parts[0] == "datasets") {
    option = dataset_field({parts.begin() + 2, parts.end()});
  } else if (parts.size() >= 2 && parts[0] == "dataset") {
    option = dataset_field({parts.begin() + 1, parts.end()});
  }
  return option;
}

}  // namespace aiperf::cli::config_file
