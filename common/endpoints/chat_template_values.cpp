// Jinja values as chat templates see them: Python's truthiness, str(), repr(), json.dumps and
// the str methods templates call, on JSON data.
#include <algorithm>
#include <charconv>
#include <cmath>

#include "endpoints/chat_template_internal.h"

namespace aiperf::endpoints::chat_jinja {

[[noreturn]] void fail(const std::string& what) { throw ChatTemplateError("chat template: " + what); }

bool truthy(const Value& x) {
  if (x.undefined) return false;
  if (x.ns) return true;
  const J& v = x.v;
  if (v.is_null()) return false;
  if (v.is_boolean()) return v.get<bool>();
  if (v.is_number_float()) return v.get<double>() != 0.0;
  if (v.is_number()) return v.get<int64_t>() != 0;
  if (v.is_string()) return !v.get_ref<const std::string&>().empty();  // json::empty() is false for strings
  if (v.is_array() || v.is_object()) return !v.empty();
  return true;
}

// Python's repr of a float (shortest round trip, ".0" for integral values).
std::string py_float(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, d);
  std::string s(buf, r.ptr);
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

namespace {
void py_repr_string(const std::string& s, std::string& out) {
  const bool dq = s.find('\'') != std::string::npos && s.find('"') == std::string::npos;
  const char q = dq ? '"' : '\'';
  out += q;
  for (char c : s) {
    if (c == q || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c == '\r') out += "\\r";
    else out += c;
  }
  out += q;
}
}  // namespace

// Python's str() of a value, as Jinja prints it.
void py_str(const J& v, std::string& out) {
  if (v.is_string()) out += v.get_ref<const std::string&>();
  else py_repr(v, out);
}

void py_repr(const J& v, std::string& out) {
  if (v.is_null()) out += "None";
  else if (v.is_boolean()) out += v.get<bool>() ? "True" : "False";
  else if (v.is_number_float()) out += py_float(v.get<double>());
  else if (v.is_number()) out += v.dump();
  else if (v.is_string()) py_repr_string(v.get_ref<const std::string&>(), out);
  else if (v.is_array()) {
    out += '[';
    bool first = true;
    for (const J& e : v) {
      if (!first) out += ", ";
      first = false;
      py_repr(e, out);
    }
    out += ']';
  } else {
    out += '{';
    bool first = true;
    for (const auto& [k, e] : v.items()) {
      if (!first) out += ", ";
      first = false;
      py_repr_string(k, out);
      out += ": ";
      py_repr(e, out);
    }
    out += '}';
  }
}

std::string to_str(const Value& x) {
  if (x.undefined) return {};
  if (x.ns) return "<Namespace>";
  std::string out;
  py_str(x.v, out);
  return out;
}

// Python json.dumps(ensure_ascii=False, indent, separators, sort_keys), as transformers' tojson.
void py_json(const J& v, std::string& out, int indent, int depth, const std::string& item_sep,
             const std::string& key_sep, bool sort_keys) {
  auto newline = [&](int d) {
    if (indent < 0) return;
    out += '\n';
    out.append(static_cast<size_t>(indent * d), ' ');
  };
  if (v.is_null()) out += "null";
  else if (v.is_boolean()) out += v.get<bool>() ? "true" : "false";
  else if (v.is_number_float()) {
    const double d = v.get<double>();
    out += std::isnan(d) ? "NaN" : std::isinf(d) ? (d > 0 ? "Infinity" : "-Infinity") : py_float(d);
  } else if (v.is_number()) out += v.dump();
  else if (v.is_string()) {
    // nlohmann's dump keeps UTF-8 as is and escapes as json.dumps does, but for DEL and the
    // \u00XX spelling json.dumps shares; control characters use the same short escapes.
    out += J(v.get_ref<const std::string&>()).dump();
  } else if (v.is_array()) {
    if (v.empty()) {
      out += "[]";
      return;
    }
    out += '[';
    bool first = true;
    for (const J& e : v) {
      if (!first) out += item_sep;
      first = false;
      newline(depth + 1);
      py_json(e, out, indent, depth + 1, item_sep, key_sep, sort_keys);
    }
    newline(depth);
    out += ']';
  } else {
    if (v.empty()) {
      out += "{}";
      return;
    }
    std::vector<std::pair<std::string, const J*>> items;
    for (const auto& [k, e] : v.items()) items.emplace_back(k, &e);
    if (sort_keys) std::sort(items.begin(), items.end(), [](auto& a, auto& b) { return a.first < b.first; });
    out += '{';
    bool first = true;
    for (const auto& [k, e] : items) {
      if (!first) out += item_sep;
      first = false;
      newline(depth + 1);
      out += J(k).dump();
      out += key_sep;
      py_json(*e, out, indent, depth + 1, item_sep, key_sep, sort_keys);
    }
    newline(depth);
    out += '}';
  }
}

// UTF-8 code points of a string (Python indexes and measures str by code point).
std::vector<std::string> code_points(const std::string& s) {
  std::vector<std::string> cps;
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
    n = std::min(n, s.size() - i);
    cps.push_back(s.substr(i, n));
    i += n;
  }
  return cps;
}

bool is_py_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

std::string strip_chars(const std::string& s, const Value* chars, bool left, bool right) {
  auto strip_it = [&](char c) {
    if (!chars || chars->undefined || chars->v.is_null()) return is_py_space(c);
    return chars->v.get_ref<const std::string&>().find(c) != std::string::npos;
  };
  size_t b = 0, e = s.size();
  if (left)
    while (b < e && strip_it(s[b])) ++b;
  if (right)
    while (e > b && strip_it(s[e - 1])) --e;
  return s.substr(b, e - b);
}

J split_string(const std::string& s, const Value* sep, int64_t maxsplit) {
  J parts = J::array();
  if (!sep || sep->v.is_null()) {  // whitespace runs, no empty parts
    size_t i = 0;
    while (i < s.size()) {
      while (i < s.size() && is_py_space(s[i])) ++i;
      if (i >= s.size()) break;
      if (maxsplit >= 0 && static_cast<int64_t>(parts.size()) == maxsplit) {
        size_t e = s.size();
        while (e > i && is_py_space(s[e - 1])) --e;
        parts.push_back(s.substr(i, e - i));
        break;
      }
      size_t j = i;
      while (j < s.size() && !is_py_space(s[j])) ++j;
      parts.push_back(s.substr(i, j - i));
      i = j;
    }
    return parts;
  }
  const std::string& d = sep->v.get_ref<const std::string&>();
  if (d.empty()) fail("split(): empty separator");
  size_t start = 0;
  for (;;) {
    if (maxsplit >= 0 && static_cast<int64_t>(parts.size()) == maxsplit) break;
    const size_t at = s.find(d, start);
    if (at == std::string::npos) break;
    parts.push_back(s.substr(start, at - start));
    start = at + d.size();
  }
  parts.push_back(s.substr(start));
  return parts;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to, int64_t count) {
  if (from.empty()) return s;
  size_t pos = 0;
  for (int64_t n = 0; count < 0 || n < count; ++n) {
    pos = s.find(from, pos);
    if (pos == std::string::npos) break;
    s.replace(pos, from.size(), to);
    pos += to.size();
  }
  return s;
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}
std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
std::string capitalize(const std::string& s) {
  std::string out = lower(s);
  if (!out.empty()) out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
  return out;
}
// Python str.title: a letter after a non-letter is upper-cased, the others lower-cased.
std::string title(const std::string& s) {
  std::string out = s;
  bool prev_letter = false;
  for (char& c : out) {
    const bool letter = std::isalpha(static_cast<unsigned char>(c));
    if (letter) c = static_cast<char>(prev_letter ? std::tolower(static_cast<unsigned char>(c)) : std::toupper(static_cast<unsigned char>(c)));
    prev_letter = letter;
  }
  return out;
}

double num(const Value& x, const char* op) {
  if (!x.v.is_number() || x.undefined) fail(std::string("unsupported operand for ") + op + ": " + to_str(x));
  return x.v.get<double>();
}

bool both_ints(const Value& a, const Value& b) {
  return (a.v.is_number_integer() || a.v.is_boolean()) && (b.v.is_number_integer() || b.v.is_boolean());
}
int64_t as_int(const J& v) { return v.is_boolean() ? (v.get<bool>() ? 1 : 0) : v.get<int64_t>(); }

// Python equality: 1 == 1.0 == True.
bool py_eq(const Value& a, const Value& b) {
  if (a.undefined || b.undefined) return a.undefined && b.undefined;
  if (a.ns || b.ns) return a.ns == b.ns;
  const J& x = a.v;
  const J& y = b.v;
  const bool xn = x.is_number() || x.is_boolean(), yn = y.is_number() || y.is_boolean();
  if (xn && yn) {
    const double dx = x.is_boolean() ? (x.get<bool>() ? 1 : 0) : x.get<double>();
    const double dy = y.is_boolean() ? (y.get<bool>() ? 1 : 0) : y.get<double>();
    return dx == dy;
  }
  return x == y;
}

int py_cmp(const Value& a, const Value& b, const std::string& op) {
  if (a.v.is_string() && b.v.is_string()) {
    const auto& x = a.v.get_ref<const std::string&>();
    const auto& y = b.v.get_ref<const std::string&>();
    return x < y ? -1 : x > y ? 1 : 0;
  }
  const double x = num(a, op.c_str()), y = num(b, op.c_str());
  return x < y ? -1 : x > y ? 1 : 0;
}

}  // namespace aiperf::endpoints::chat_jinja
