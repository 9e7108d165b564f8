#include "seq_dist.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <regex>

#include <nlohmann/json.hpp>

#include "prompt_generator.h"
#include "util/text.h"

namespace aiperf::dataset {
namespace {

const char* const kNum = R"((\d+(?:\.\d+)?|\.\d+))";

uint32_t length(const std::string& digits, const std::string& part) {
  const unsigned long v = std::stoul(digits);
  if (v == 0 || v > 100'000'000) throw std::invalid_argument("'" + part + "': lengths must be in 1..100000000");
  return static_cast<uint32_t>(v);
}

SeqDistPair from_match(const std::smatch& m, const std::string& part) {
  SeqDistPair p;
  try {
    p.isl = length(m[1], part);
    p.isl_stddev = m[2].matched ? std::stod(m[2]) : 0;
    p.osl = length(m[3], part);
    p.osl_stddev = m[4].matched ? std::stod(m[4]) : 0;
    p.percent = std::stod(m[5]);
  } catch (const std::out_of_range&) {  // more digits than stoul/stod take
    throw std::invalid_argument("'" + part + "': number out of range");
  }
  return p;
}

// Splits `s` at top-level commas (not inside parentheses), for the bracket form.
std::vector<std::string> split_bracket_items(const std::string& s) {
  std::vector<std::string> items;
  int depth = 0;
  std::string cur;
  for (char c : s) {
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ',' && depth == 0) {
      items.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  items.push_back(cur);
  return items;
}

std::vector<SeqDistPair> parse_json(const std::string& text) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) throw std::invalid_argument("not valid JSON");
  auto pairs = j.find("pairs");
  if (pairs == j.end() || !pairs->is_array()) throw std::invalid_argument("JSON needs a 'pairs' list");
  std::vector<SeqDistPair> out;
  for (size_t i = 0; i < pairs->size(); ++i) {
    const nlohmann::json& p = (*pairs)[i];
    const std::string where = "pairs[" + std::to_string(i) + "]";
    auto num = [&](const char* key, bool required) -> double {
      auto it = p.find(key);
      if (it == p.end()) {
        if (required) throw std::invalid_argument(where + ": missing '" + key + "'");
        return 0;
      }
      if (!it->is_number() || it->get<double>() < 0)
        throw std::invalid_argument(where + "." + key + ": must be a number >= 0");
      return it->get<double>();
    };
    if (!p.is_object()) throw std::invalid_argument(where + ": must be an object");
    SeqDistPair sp;
    const double isl = num("isl", true), osl = num("osl", true);
    if (isl < 1 || osl < 1) throw std::invalid_argument(where + ": isl and osl must be >= 1");
    if (isl > 100'000'000 || osl > 100'000'000)  // as in the other spellings; beyond uint32_t is UB
      throw std::invalid_argument(where + ": isl and osl must be in 1..100000000");
    sp.isl = static_cast<uint32_t>(isl);
    sp.osl = static_cast<uint32_t>(osl);
    sp.isl_stddev = num("isl_stddev", false);
    sp.osl_stddev = num("osl_stddev", false);
    sp.percent = num("prob", true);
    out.push_back(sp);
  }
  return out;
}

}  // namespace

SeqDist SeqDist::parse(const std::string& raw) {
  const std::string text = util::trim(raw);
  if (text.empty()) throw std::invalid_argument("empty distribution");
  const std::string n = kNum;
  const std::string pair_body = R"(\s*(\d+)(?:\|)" + n + R"()?\s*,\s*(\d+)(?:\|)" + n + R"()?\s*)";
  SeqDist d;
  if (text.front() == '{') {
    d.pairs_ = parse_json(text);
  } else if (text.front() == '[') {
    if (text.back() != ']') throw std::invalid_argument("missing closing ']'");
    static const std::regex item(R"(\s*\()" + pair_body + R"(\)\s*:\s*)" + n + R"(\s*)");
    for (const std::string& part : split_bracket_items(text.substr(1, text.size() - 2))) {
      std::smatch m;
      if (!std::regex_match(part, m, item))
        throw std::invalid_argument("'" + util::trim(part) + "' is not (ISL,OSL):PERCENT");
      d.pairs_.push_back(from_match(m, util::trim(part)));
    }
  } else {
    static const std::regex item(pair_body + R"(:\s*)" + n + R"(\s*)");
    size_t start = 0;
    while (start <= text.size()) {
      const size_t end = std::min(text.find(';', start), text.size());
      const std::string part = text.substr(start, end - start);
      start = end + 1;
      if (util::trim(part).empty() && end == text.size()) break;  // trailing ';'
      std::smatch m;
      if (!std::regex_match(part, m, item))
        throw std::invalid_argument("'" + util::trim(part) + "' is not ISL,OSL:PERCENT");
      d.pairs_.push_back(from_match(m, util::trim(part)));
    }
  }
  if (d.pairs_.empty()) throw std::invalid_argument("no pairs");
  double total = 0;
  for (const auto& p : d.pairs_) {
    if (p.percent > 100) throw std::invalid_argument("a percentage must be in [0, 100]");
    total += p.percent;
    d.cumulative_.push_back(total / 100.0);
  }
  // Percentages, not fractions: "0.4;0.6" is a mistake AIPerf rejects too.
  if (std::fabs(total - 100.0) > 1e-6) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", total);
    throw std::invalid_argument(std::string("percentages must sum to 100, got ") + buf);
  }
  d.cumulative_.back() = 1.0;
  return d;
}

std::pair<uint32_t, uint32_t> SeqDist::sample(std::mt19937_64& rng) const {
  const double u = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
  size_t i = static_cast<size_t>(std::upper_bound(cumulative_.begin(), cumulative_.end(), u) - cumulative_.begin());
  i = std::min(i, pairs_.size() - 1);
  const SeqDistPair& p = pairs_[i];
  const uint32_t isl = p.isl_stddev > 0 ? sample_positive_normal_int(p.isl, p.isl_stddev, rng) : p.isl;
  const uint32_t osl = p.osl_stddev > 0 ? sample_positive_normal_int(p.osl, p.osl_stddev, rng) : p.osl;
  return {isl, osl};
}

}  // namespace aiperf::dataset
