#include "python_json.h"

#include <cmath>
#include <cstdint>
#include <cstdio>

#include "genai_perf_options.h"

namespace aiperf::cli {
namespace {

void append_u(std::string& out, uint32_t unit) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\u%04x", unit);
  out += buf;
}

// Python's json encoder with ensure_ascii: the short escapes it knows, \u00XX for the other
// control characters, and every code point above 0x7F as UTF-16 units. Bytes that are not valid
// UTF-8 cannot come from a parsed JSON document; each is written as its own code point.
void append_string(std::string& out, const std::string& s) {
  out += '"';
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      switch (c) {
        case '"':
          out += "\\\"";
          break;
        case '\\':
          out += "\\\\";
          break;
        case '\n':
          out += "\\n";
          break;
        case '\r':
          out += "\\r";
          break;
        case '\t':
          out += "\\t";
          break;
        case '\b':
          out += "\\b";
          break;
        case '\f':
          out += "\\f";
          break;
        default:
          if (c < 0x20) append_u(out, c);
          else out += static_cast<char>(c);
      }
      ++i;
      continue;
    }
    const size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    uint32_t cp = len == 4 ? (c & 0x07U) : len == 3 ? (c & 0x0FU) : len == 2 ? (c & 0x1FU) : c;
    for (size_t k = 1; k < len && i + k < s.size(); ++k)
      cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3FU);
    i += len;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      append_u(out, 0xD800 + (cp >> 10));
      append_u(out, 0xDC00 + (cp & 0x3FF));
    } else {
      append_u(out, cp);
    }
  }
  out += '"';
}

void dump(const nlohmann::ordered_json& v, std::string& out) {
  switch (v.type()) {
    case nlohmann::ordered_json::value_t::object: {
      out += '{';
      bool first = true;
      for (auto it = v.begin(); it != v.end(); ++it) {
        if (!first) out += ", ";
        first = false;
        append_string(out, it.key());
        out += ": ";
        dump(it.value(), out);
      }
      out += '}';
      break;
    }
    case nlohmann::ordered_json::value_t::array: {
      out += '[';
      for (size_t i = 0; i < v.size(); ++i) {
        if (i) out += ", ";
        dump(v[i], out);
      }
      out += ']';
      break;
    }
    case nlohmann::ordered_json::value_t::string:
      append_string(out, v.get_ref<const std::string&>());
      break;
    case nlohmann::ordered_json::value_t::number_float: {
      const double d = v.get<double>();
      if (std::isnan(d)) out += "NaN";
      else if (std::isinf(d)) out += d > 0 ? "Infinity" : "-Infinity";
      else out += genai_perf::python_float(d);
      break;
    }
    default:  // integers, booleans, null: JSON's own spelling is Python's
      out += v.dump();
  }
}

}  // namespace

std::string python_json_dumps(const nlohmann::ordered_json& value) {
  std::string out;
  dump(value, out);
  return out;
}

std::string python_json_strict(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) {
        out += text[++i];
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
      out += c;
    } else if (text.compare(i, 3, "NaN") == 0) {
      out += "null";
      i += 2;
    } else if (text.compare(i, 8, "Infinity") == 0) {
      out += "1.7976931348623157e308";
      i += 7;
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace aiperf::cli
