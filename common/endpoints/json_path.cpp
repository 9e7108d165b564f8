#include "endpoints/json_path.h"

#include <cctype>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace aiperf::endpoints {

namespace {

[[noreturn]] void fail(std::string_view expression, const std::string& why) {
  throw std::invalid_argument("response_field '" + std::string(expression) + "': " + why +
                              " (supported: names, '.', [N] indexes)");
}

bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

JsonPath::JsonPath(std::string_view e) {
  size_t i = 0;
  bool need_name = true;  // at the start and after '.', a field name must follow
  while (i < e.size()) {
    const char c = e[i];
    if (c == '[') {
      const size_t close = e.find(']', i);
      if (close == std::string_view::npos) fail(e, "missing ']'");
      const std::string inner(e.substr(i + 1, close - i - 1));
      size_t used = 0;
      long long index = 0;
      try {
        index = std::stoll(inner, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (inner.empty() || used != inner.size()) fail(e, "'[" + inner + "]' is not an index");
      steps_.emplace_back(index);
      i = close + 1;
      need_name = false;
    } else if (c == '.') {
      if (need_name) fail(e, "unexpected '.'");
      need_name = true;
      ++i;
    } else if (c == '"') {
      const size_t close = e.find('"', i + 1);
      if (close == std::string_view::npos) fail(e, "unterminated quoted name");
      steps_.emplace_back(std::string(e.substr(i + 1, close - i - 1)));
      i = close + 1;
      need_name = false;
    } else if (name_char(c) && need_name) {
      const size_t start = i;
      while (i < e.size() && name_char(e[i])) ++i;
      steps_.emplace_back(std::string(e.substr(start, i - start)));
      need_name = false;
    } else {
      fail(e, std::string("unsupported '") + c + "'");
    }
  }
  if (steps_.empty() || need_name) fail(e, "incomplete expression");
}

const nlohmann::json* JsonPath::find(const nlohmann::json& root) const {
  const nlohmann::json* at = &root;
  for (const auto& step : steps_) {
    if (const auto* name = std::get_if<std::string>(&step)) {
      if (!at->is_object()) return nullptr;
      auto it = at->find(*name);
      if (it == at->end()) return nullptr;
      at = &*it;
    } else {
      if (!at->is_array()) return nullptr;
      long long i = std::get<long long>(step);
      const auto n = static_cast<long long>(at->size());
      if (i < 0) i += n;
      if (i < 0 || i >= n) return nullptr;
      at = &(*at)[static_cast<size_t>(i)];
    }
  }
  return at->is_null() ? nullptr : at;
}

}  // namespace aiperf::endpoints
