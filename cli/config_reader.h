// Typed reading of a config file's YAML values, every failure a ConfigFileError naming the
// file, line and key path. The schema walk (config_file.cpp) builds on it.
#pragma once

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "config_file.h"

namespace aiperf::cli::config_file {

class NodeReader {
 protected:
  NodeReader(std::string file, const EnvLookup& env) : file_(std::move(file)), env_(env) {}

  std::string file_;
  const EnvLookup& env_;

  int line(const YAML::Node& n) const { return n.Mark().line >= 0 ? n.Mark().line + 1 : 0; }
  std::string where(const YAML::Node& n, const std::string& path) const {
    return file_ + ":" + std::to_string(line(n)) + (path.empty() ? "" : ": " + path);
  }
  [[noreturn]] void fail(const YAML::Node& n, const std::string& path, const std::string& msg) const {
    throw ConfigFileError(where(n, path) + ": " + msg);
  }
  // A scalar's text with ${VAR} / ${VAR:default} replaced from the environment.
  std::string str(const YAML::Node& n, const std::string& path) const {
    if (!n.IsScalar()) fail(n, path, "expected a single value");
    static const std::regex var(R"(\$\{([A-Za-z_][A-Za-z0-9_]*)(?::([^}]*))?\})");
    const std::string& s = n.Scalar();
    std::string out;
    auto begin = std::sregex_iterator(s.begin(), s.end(), var);
    size_t last = 0;
    for (auto it = begin; it != std::sregex_iterator(); ++it) {
      const std::smatch& m = *it;
      out += s.substr(last, static_cast<size_t>(m.position()) - last);
      const std::optional<std::string> value = env_(m[1].str());
      if (value) {
        out += *value;
      } else if (m[2].matched) {
        out += m[2].str();
      } else {
        fail(n, path, "environment variable " + m[1].str() + " is not set (and has no ${" + m[1].str() + ":default})");
      }
      last = static_cast<size_t>(m.position() + m.length());
    }
    out += s.substr(last);
    if (out.find("${") != std::string::npos) fail(n, path, "unterminated ${...} in '" + s + "'");
    return out;
  }
  static bool null(const YAML::Node& n) { return !n.IsDefined() || n.IsNull(); }

  std::string integer_text(const YAML::Node& n, const std::string& path, long long min) const {
    std::string s = str(n, path);
    long long v = 0;
    const char* b = s.data() + (s.size() > 1 && s[0] == '+' ? 1 : 0);
    const auto r = std::from_chars(b, s.data() + s.size(), v);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size())
      fail(n, path, "expected an integer, got '" + s + "'");
    if (v < min) fail(n, path, "must be >= " + std::to_string(min) + ", got " + s);
    return std::to_string(v);
  }
  // A number; `positive`: > 0, else >= 0.
  std::string number_text(const YAML::Node& n, const std::string& path, bool positive) const {
    const std::string s = str(n, path);
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(v)) fail(n, path, "expected a number, got '" + s + "'");
    if (positive ? v <= 0 : v < 0) fail(n, path, std::string("must be ") + (positive ? "> 0" : ">= 0") + ", got " + s);
    return s;
  }
  // Seconds: a number, or "30s", "5m", "2h" (also sec/min/hr/hour), as the reference.
  std::string duration_text(const YAML::Node& n, const std::string& path) const {
    const std::string s = str(n, path);
    static const std::regex pattern(R"(^(\d+(?:\.\d+)?)\s*(s|sec|m|min|h|hr|hour)?$)", std::regex::icase);
    std::smatch m;
    if (!std::regex_match(s, m, pattern))
      fail(n, path, "invalid duration '" + s + "'; use a number of seconds, '30s', '5m' or '2h'");
    std::string unit = m[2].str();
    std::transform(unit.begin(), unit.end(), unit.begin(), [](unsigned char c) { return std::tolower(c); });
    if (unit.empty() || unit == "s" || unit == "sec") return m[1].str();
    const double mult = (unit == "m" || unit == "min") ? 60.0 : 3600.0;
    std::ostringstream out;
    out << std::stod(m[1].str()) * mult;
    return out.str();
  }
  bool boolean(const YAML::Node& n, const std::string& path) const {
    std::string s = str(n, path);
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    if (s == "true") return true;
    if (s == "false") return false;
    fail(n, path, "expected true or false, got '" + n.Scalar() + "'");
  }
  std::string choice(const YAML::Node& n, const std::string& path, const std::vector<std::string>& choices) const {
    std::string s = str(n, path);
    for (char& c : s) c = c == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (std::find(choices.begin(), choices.end(), s) == choices.end()) {
      std::string list;
      for (const auto& c : choices) list += (list.empty() ? "" : ", ") + c;
      fail(n, path, "'" + n.Scalar() + "' is not one of: " + list);
    }
    return s;
  }
  void require_map(const YAML::Node& n, const std::string& path) const {
    if (!n.IsMap()) fail(n, path, "expected a mapping");
  }

  // Scalars typed as YAML 1.2 core does (for --extra-inputs JSON values).
  nlohmann::json to_json(const YAML::Node& n, const std::string& path) const {
    if (n.IsMap()) {
      nlohmann::json o = nlohmann::json::object();
      for (auto it = n.begin(); it != n.end(); ++it) o[it->first.Scalar()] = to_json(it->second, path);
      return o;
    }
    if (n.IsSequence()) {
      nlohmann::json a = nlohmann::json::array();
      for (const auto& e : n) a.push_back(to_json(e, path));
      return a;
    }
    if (null(n)) return nullptr;
    const std::string s = str(n, path);
    if (n.Tag() == "!") return s;  // quoted: a string
    if (s == "true" || s == "True" || s == "TRUE") return true;
    if (s == "false" || s == "False" || s == "FALSE") return false;
    long long i = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), i);
    if (!s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size()) return i;
    char* end = nullptr;
    const double d = std::strtod(s.c_str(), &end);
    if (!s.empty() && end == s.c_str() + s.size()) return d;
    return s;
  }
};

}  // namespace aiperf::cli::config_file
