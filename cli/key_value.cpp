#include "key_value.h"

#include <algorithm>
#include <cctype>

#include "options.h"
#include "util/text.h"

namespace aiperf::cli {
namespace {

bool all_digits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), ::isdigit);
}

// Whether `s` can go into JSON text (run_config.json, request bodies) as a string.
bool valid_utf8(const std::string& s) {
  try {
    (void)nlohmann::json(s).dump();
    return true;
  } catch (const nlohmann::json::type_error&) {
    return false;
  }
}

// Visits each key:value pair of `items` (JSON objects expanded).
template <typename Fn>
void for_each_pair(const std::vector<std::string>& items, const char* option, Fn&& fn) {
  for (const auto& raw : items) {
    const std::string item = util::trim(raw);
    if (item.empty()) continue;
    if (!valid_utf8(item)) throw OptionError(std::string(option) + ": not valid UTF-8: '" + item + "'");
    if (item.front() == '{') {
      nlohmann::json obj = nlohmann::json::parse(item, nullptr, false);
      if (obj.is_discarded() || !obj.is_object())
        throw OptionError(std::string(option) + ": invalid JSON object: " + item);
      for (auto& [k, v] : obj.items()) fn(k, v, true);
      continue;
    }
    size_t start = 0;
    while (start <= item.size()) {
      size_t comma = item.find(',', start);
      std::string pair = util::trim(item.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
      start = comma == std::string::npos ? item.size() + 1 : comma + 1;
      if (pair.empty()) continue;
      size_t colon = pair.find(':');
      if (colon == std::string::npos || colon == 0)
        throw OptionError(std::string(option) + ": expected key:value, got '" + pair + "'");
      fn(util::trim(pair.substr(0, colon)), nlohmann::json(util::trim(pair.substr(colon + 1))), false);
    }
  }
}

}  // namespace

nlohmann::json coerce_value(const std::string& v) {
  const std::string l = util::ascii_lower(v);
  if (l == "true") return true;
  if (l == "false") return false;
  if (l == "none" || l == "null") return nullptr;
  const bool neg = !v.empty() && v[0] == '-';
  const std::string body = neg ? v.substr(1) : v;
  if (all_digits(body) && (body == "0" || body[0] != '0')) {
    try {
      return std::stoll(v);
    } catch (const std::exception&) {
      return v;
    }
  }
  const size_t dot = body.find('.');
  if (dot != std::string::npos && body.find('.', dot + 1) == std::string::npos) {
    std::string digits = body;
    digits.erase(dot, 1);
    if (all_digits(digits)) return std::stod(v);
  }
  return v;
}

nlohmann::json parse_extra_inputs(const std::vector<std::string>& items) {
  nlohmann::json out = nlohmann::json::object();
  for_each_pair(items, "--extra-inputs", [&](const std::string& k, const nlohmann::json& v, bool typed) {
    out[k] = typed ? v : coerce_value(v.get<std::string>());
  });
  return out;
}

std::vector<std::pair<std::string, std::string>> parse_headers(const std::vector<std::string>& items) {
  std::vector<std::pair<std::string, std::string>> out;
  for_each_pair(items, "--header", [&](const std::string& k, const nlohmann::json& v, bool) {
    out.emplace_back(k, v.is_string() ? v.get<std::string>() : v.dump());
  });
  return out;
}

}  // namespace aiperf::cli
