#include "sweep_plan.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

namespace aiperf::cli::sweep {
namespace {

// The options AIPerf 0.13 accepts as a list, every spelling, with the config path the list
// becomes and whether its values are floats (parse_float_or_float_list) or integers.
struct Sweepable {
  std::vector<const char*> names;
  const char* path;
  bool is_float;
};

const std::vector<Sweepable>& sweepables() {
  static const std::vector<Sweepable> kAll = {
      {{"--concurrency"}, "phases.profiling.concurrency", false},
      {{"--prefill-concurrency"}, "phases.profiling.prefill_concurrency", false},
      {{"--request-rate"}, "phases.profiling.rate", true},
      {{"--request-count", "--num-requests"}, "phases.profiling.requests", false},
      {{"--benchmark-duration"}, "phases.profiling.duration", true},
      {{"--conversation-num", "--num-conversations", "--num-sessions"}, "phases.profiling.sessions", false},
      {{"--num-users"}, "phases.profiling.users", false},
      {{"--prompt-input-tokens-mean", "--synthetic-input-tokens-mean", "--isl"}, "datasets.main.prompts.isl.mean",
       false},
      {{"--prompt-input-tokens-stddev", "--synthetic-input-tokens-stddev", "--isl-stddev"},
       "datasets.main.prompts.isl.stddev", true},
      {{"--prompt-output-tokens-mean", "--output-tokens-mean", "--osl"}, "datasets.main.prompts.osl.mean", false},
      {{"--prompt-output-tokens-stddev", "--output-tokens-stddev", "--osl-stddev"},
       "datasets.main.prompts.osl.stddev", true},
      {{"--conversation-turn-mean", "--session-turns-mean"}, "datasets.main.turns.mean", false},
  };
  return kAll;
}

const Sweepable* find_sweepable(const std::string& name) {
  for (const Sweepable& s : sweepables())
    for (const char* n : s.names)
      if (name == n) return &s;
  return nullptr;
}

std::string strip(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\n\r\f\v");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\n\r\f\v");
  return s.substr(b, e - b + 1);
}

// Python's int(): optional sign, digits (underscores between digits allowed there too, but
// nobody types them on a command line; refused here).
bool parse_int(const std::string& s, long long& out) {
  if (s.empty()) return false;
  const char* b = s.data();
  const char* e = b + s.size();
  if (*b == '+') ++b;
  const auto r = std::from_chars(b, e, out);
  return r.ec == std::errc() && r.ptr == e;
}

bool parse_float(const std::string& s, double& out) {
  if (s.empty()) return false;
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    const std::string part = strip(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (!part.empty()) parts.push_back(part);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return parts;
}

}  // namespace

std::string leaf(const std::string& path) {
  const auto dot = path.rfind('.');
  return dot == std::string::npos ? path : path.substr(dot + 1);
}

std::string python_str(const nlohmann::json& v) {
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (std::isnan(d)) return "nan";
    if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
    // repr(float): the shortest round-tripping digits, positional when -4 <= exponent < 16.
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
    std::string sci(buf, r.ptr);  // e.g. "-1.2345e+02"
    const auto epos = sci.find('e');
    std::string mant = sci.substr(0, epos);
    const int exp = std::atoi(sci.c_str() + epos + 1);
    const bool neg = mant[0] == '-';
    if (neg) mant.erase(0, 1);
    std::string digits;
    for (char c : mant)
      if (c != '.') digits += c;
    std::string out;
    if (exp >= -4 && exp < 16) {
      if (exp < 0) {
        out = "0." + std::string(static_cast<size_t>(-exp - 1), '0') + digits;
      } else if (static_cast<int>(digits.size()) <= exp + 1) {
        out = digits + std::string(static_cast<size_t>(exp + 1 - static_cast<int>(digits.size())), '0') + ".0";
      } else {
        out = digits.substr(0, static_cast<size_t>(exp + 1)) + "." + digits.substr(static_cast<size_t>(exp + 1));
      }
    } else {
      out = digits.substr(0, 1);
      if (digits.size() > 1) out += "." + digits.substr(1);
      char e[16];
      std::snprintf(e, sizeof e, "e%c%02d", exp < 0 ? '-' : '+', std::abs(exp));
      out += e;
    }
    return neg ? "-" + out : out;
  }
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "True" : "False";
  return v.dump();
}

Extracted extract_lists(const std::vector<std::string>& args) { return extract_lists(args, {}); }

Extracted extract_lists(const std::vector<std::string>& args, const std::vector<std::string>& one_value_lists) {
  Extracted x;
  x.args = args;
  for (size_t i = 0; i < x.args.size(); ++i) {
    const std::string& tok = x.args[i];
    if (tok.rfind("--", 0) != 0) continue;
    const auto eq = tok.find('=');
    const std::string name = tok.substr(0, eq);
    const Sweepable* s = find_sweepable(name);
    if (!s) continue;
    size_t slot = i;
    std::string text;
    if (eq != std::string::npos) {
      text = tok.substr(eq + 1);
    } else {
      if (i + 1 >= x.args.size()) continue;  // CLI11 reports the missing value
      slot = i + 1;
      text = x.args[slot];
    }
    if (text.find(',') == std::string::npos) continue;
    const std::vector<std::string> parts = split_list(text);
    Parameter p;
    p.option = name;
    p.path = s->path;
    for (const std::string& part : parts) {
      if (s->is_float) {
        double d = 0;
        if (!parse_float(part, d))
          throw SweepError(name + ": invalid value '" + part + "' in the list '" + text + "' (a number expected)");
        p.values.emplace_back(d);
      } else {
        long long n = 0;
        if (!parse_int(part, n))
          throw SweepError(name + ": invalid value '" + part + "' in the list '" + text + "' (an integer expected)");
        p.values.emplace_back(n);
      }
      p.texts.push_back(part);
    }
    const std::string first = parts.empty() ? text : parts.front();
    x.args[slot] = eq != std::string::npos ? name + "=" + first : first;
    const bool keep_one = std::find(one_value_lists.begin(), one_value_lists.end(), name) != one_value_lists.end();
    if (parts.size() < 2 && !(keep_one && parts.size() == 1)) continue;  // "4," is the plain value 4
    for (const Parameter& other : x.parameters)
      if (other.path == p.path) throw SweepError(name + ": given twice as a list (also as " + other.option + ")");
    x.parameters.push_back(std::move(p));
    x.slots.emplace_back(slot, eq != std::string::npos);
  }
  return x;
}

std::vector<Point> expand(const std::vector<Parameter>& parameters, SweepType sweep_type) {
  if (parameters.empty()) return {};
  // AIPerf sorts the swept paths so the order does not depend on the order of the options.
  std::vector<size_t> order(parameters.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return parameters[a].path < parameters[b].path; });
  std::vector<std::vector<size_t>> combos;  // per point: value index per sorted parameter
  if (sweep_type == SweepType::kZip) {
    const size_t n = parameters[order[0]].values.size();
    bool equal = true;
    for (const Parameter& p : parameters) equal = equal && p.values.size() == n;
    if (!equal) {
      std::string got = "{";
      for (size_t i = 0; i < parameters.size(); ++i)
        got += (i ? ", '" : "'") + parameters[i].path + "': " + std::to_string(parameters[i].values.size());
      throw SweepError("--sweep-type zip: zip sweep parameters must all have equal length; got " + got + "}.");
    }
    for (size_t k = 0; k < n; ++k) combos.emplace_back(parameters.size(), k);
  } else {
    combos.emplace_back();
    for (size_t oi : order) {
      std::vector<std::vector<size_t>> next;
      for (const auto& c : combos)
        for (size_t k = 0; k < parameters[oi].values.size(); ++k) {
          next.push_back(c);
          next.back().push_back(k);
        }
      combos = std::move(next);
    }
  }
  std::vector<Point> points;
  for (size_t idx = 0; idx < combos.size(); ++idx) {
    Point pt;
    pt.index = idx;
    pt.value_index.assign(parameters.size(), 0);
    for (size_t j = 0; j < order.size(); ++j) {
      const Parameter& p = parameters[order[j]];
      const size_t k = combos[idx][j];
      pt.value_index[order[j]] = k;
      pt.values.emplace_back(p.path, p.values[k]);
      if (j) {
        pt.label += ", ";
        pt.dir_name += "__";
      }
      pt.label += p.path + "=" + python_str(p.values[k]);
      pt.dir_name += leaf(p.path) + "_" + python_str(p.values[k]);
    }
    // AIPerf's folder-name sanitizing: no path separators, "..", or <>:"|?*.
    std::string clean;
    for (size_t i = 0; i < pt.dir_name.size(); ++i) {
      const char c = pt.dir_name[i];
      if (c == '/' || c == '\\' || std::string("<>:\"|?*").find(c) != std::string::npos) continue;
      if (c == '.' && i + 1 < pt.dir_name.size() && pt.dir_name[i + 1] == '.') {
        ++i;
        continue;
      }
      clean += c;
    }
    pt.dir_name = clean;
    points.push_back(std::move(pt));
  }
  return points;
}

std::vector<std::string> point_args(const Extracted& x, const Point& point) {
  std::vector<std::string> args = x.args;
  for (size_t i = 0; i < x.parameters.size(); ++i) {
    const auto [slot, is_eq] = x.slots[i];
    const std::string& text = x.parameters[i].texts[point.value_index[i]];
    args[slot] = is_eq ? x.parameters[i].option + "=" + text : text;
  }
  return args;
}

std::vector<std::pair<std::string, std::string>> display_names(const std::vector<Point>& points) {
  std::vector<std::string> names;
  for (const Point& p : points)
    for (const auto& [path, v] : p.values)
      if (std::find(names.begin(), names.end(), path) == names.end()) names.push_back(path);
  std::map<std::string, int> leaf_count;
  for (const std::string& n : names) ++leaf_count[leaf(n)];
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& n : names) out.emplace_back(n, leaf_count[leaf(n)] == 1 ? leaf(n) : n);
  return out;
}

}  // namespace aiperf::cli::sweep
