#include <charconv>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "prometheus/exposition.h"
#include "util/text.h"

namespace aiperf::prometheus {
namespace {

bool name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':'; }
bool name_char(char c) { return name_start(c) || (c >= '0' && c <= '9'); }
bool label_start(char c) { return name_start(c) && c != ':'; }
bool label_char(char c) { return name_char(c) && c != ':'; }
bool blank(char c) { return c == ' ' || c == '\t'; }

// Thrown inside the parser only; parse() turns it into a ParseError with the line number.
struct LineError {
  std::string message;
};

class Cursor {
 public:
  explicit Cursor(std::string_view s) : s_(s) {}
  bool done() const { return i_ >= s_.size(); }
  char peek() const { return done() ? '\0' : s_[i_]; }
  char next() { return s_[i_++]; }
  void skip_blanks() {
    while (!done() && blank(s_[i_])) ++i_;
  }
  std::string_view take_while(bool (*pred)(char)) {
    const size_t start = i_;
    while (!done() && pred(s_[i_])) ++i_;
    return s_.substr(start, i_ - start);
  }
  std::string_view rest() const { return s_.substr(std::min(i_, s_.size())); }
  std::string_view token() {  // up to the next blank
    const size_t start = i_;
    while (!done() && !blank(s_[i_])) ++i_;
    return s_.substr(start, i_ - start);
  }

 private:
  std::string_view s_;
  size_t i_ = 0;
};

std::string_view metric_name(Cursor& c, const char* what) {
  if (!name_start(c.peek())) throw LineError{std::string("invalid ") + what};
  return c.take_while(name_char);
}

// Go's strconv.ParseFloat spellings that exporters use: decimal, exponent, NaN, [+-]Inf.
double parse_value(std::string_view text, const char* what) {
  if (text.empty()) throw LineError{std::string("missing ") + what};
  bool negative = false;
  std::string_view digits = text;
  if (digits.front() == '+' || digits.front() == '-') {
    negative = digits.front() == '-';
    digits.remove_prefix(1);
  }
  double v = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (digits.empty() || digits.front() == '+' || digits.front() == '-' || ec == std::errc::invalid_argument ||
      end != digits.data() + digits.size())
    throw LineError{std::string("invalid ") + what + " \"" + std::string(text) + "\""};
  if (ec == std::errc::result_out_of_range) v = std::numeric_limits<double>::infinity();  // as Go: ±Inf
  return negative ? -v : v;
}

std::string parse_label_value(Cursor& c) {
  if (c.peek() != '"') throw LineError{"expected '\"' to open a label value"};
  c.next();
  std::string out;
  while (true) {
    if (c.done()) throw LineError{"unterminated label value"};
    const char ch = c.next();
    if (ch == '"') return out;
    if (ch != '\\') {
      out += ch;
      continue;
    }
    if (c.done()) throw LineError{"unterminated label value"};
    const char esc = c.next();
    if (esc == '\\' || esc == '"') out += esc;
    else if (esc == 'n') out += '\n';
    else throw LineError{std::string("invalid escape sequence '\\") + esc + "' in label value"};
  }
}

Labels parse_labels(Cursor& c) {
  Labels labels;
  c.next();  // '{'
  c.skip_blanks();
  while (c.peek() != '}') {
    if (c.done()) throw LineError{"unterminated label set"};
    if (!label_start(c.peek())) throw LineError{"invalid label name"};
    std::string key(c.take_while(label_char));
    c.skip_blanks();
    if (c.peek() != '=') throw LineError{"expected '=' after label name \"" + key + "\""};
    c.next();
    c.skip_blanks();
    std::string value = parse_label_value(c);
    for (const auto& [k, v] : labels)
      if (k == key) throw LineError{"duplicate label \"" + key + "\""};
    labels.emplace_back(std::move(key), std::move(value));
    c.skip_blanks();
    if (c.peek() == ',') {
      c.next();
      c.skip_blanks();
    } else if (c.peek() != '}') {
      throw LineError{"expected ',' or '}' in label set"};
    }
  }
  c.next();  // '}'
  return labels;
}

std::string unescape_help(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && (text[i + 1] == '\\' || text[i + 1] == 'n')) {
      out += text[i + 1] == 'n' ? '\n' : '\\';
      ++i;
    } else {
      out += text[i];
    }
  }
  return out;
}

std::optional<MetricType> parse_type(std::string_view t) {
  if (t == "counter") return MetricType::kCounter;
  if (t == "gauge") return MetricType::kGauge;
  if (t == "histogram") return MetricType::kHistogram;
  if (t == "summary") return MetricType::kSummary;
  if (t == "untyped") return MetricType::kUntyped;
  return std::nullopt;
}

class Builder {
 public:
  void comment(std::string_view line) {
    Cursor c(line);
    c.next();  // '#'
    c.skip_blanks();
    const std::string_view keyword = c.token();
    if (keyword != "HELP" && keyword != "TYPE") return;  // a plain comment
    if (!blank(c.peek())) return;                         // "# HELP" alone is a comment too
    c.skip_blanks();
    const std::string name(metric_name(c, "metric name"));
    if (!c.done() && !blank(c.peek())) throw LineError{"invalid metric name in " + std::string(keyword) + " line"};
    c.skip_blanks();
    Declared& d = declared_[name];
    if (keyword == "HELP") {
      if (d.help) throw LineError{"second HELP line for metric name \"" + name + "\""};
      d.help = true;
      family(name).help = unescape_help(c.rest());
      return;
    }
    if (d.type) throw LineError{"second TYPE line for metric name \"" + name + "\""};
    d.type = true;
    const std::string_view type_text = c.token();
    c.skip_blanks();
    const auto type = parse_type(type_text);
    if (!type || !c.done()) throw LineError{"invalid metric type \"" + std::string(type_text) + "\""};
    Family& f = family(name);
    if (!f.samples.empty()) throw LineError{"TYPE line for \"" + name + "\" after its samples"};
    f.type = *type;
  }

  void sample(std::string_view line) {
    Cursor c(line);
    Sample s;
    s.name = metric_name(c, "metric name");
    c.skip_blanks();
    if (c.peek() == '{') {
      s.labels = parse_labels(c);
      if (!c.done() && !blank(c.peek())) throw LineError{"expected a blank before the value"};
    }
    c.skip_blanks();
    s.value = parse_value(c.token(), "value");
    c.skip_blanks();
    if (!c.done()) {
      const std::string_view ts = c.token();
      int64_t ms = 0;
      const auto [end, ec] = std::from_chars(ts.data(), ts.data() + ts.size(), ms);
      if (ec != std::errc() || end != ts.data() + ts.size())
        throw LineError{"invalid timestamp \"" + std::string(ts) + "\""};
      s.timestamp_ms = ms;
      c.skip_blanks();
      if (!c.done()) throw LineError{"unexpected text after the timestamp"};
    }
    Family& f = family_of(s.name);
    check(f, s);
    f.samples.push_back(std::move(s));
  }

  Exposition finish() { return std::move(out_); }

 private:
  struct Declared {
    bool help = false, type = false;
  };

  Family& family(const std::string& name) {
    auto [it, inserted] = index_.try_emplace(name, out_.families.size());
    if (inserted) out_.families.push_back(Family{name, MetricType::kUntyped, "", {}});
    return out_.families[it->second];
  }

  // A histogram's x_bucket/x_sum/x_count (and a summary's x_sum/x_count) belong to family x.
  Family& family_of(const std::string& sample_name) {
    for (std::string_view suffix : {"_bucket", "_sum", "_count", "_created"}) {
      if (!util::has_suffix(sample_name, suffix)) continue;
      const std::string base = sample_name.substr(0, sample_name.size() - suffix.size());
      auto it = index_.find(base);
      if (it == index_.end()) continue;
      const MetricType t = out_.families[it->second].type;
      if (t == MetricType::kHistogram || (t == MetricType::kSummary && suffix != "_bucket") ||
          (t == MetricType::kCounter && suffix == "_created"))
        return out_.families[it->second];
    }
    return family(sample_name);
  }

  static void check(const Family& f, const Sample& s) {
    if (f.type == MetricType::kHistogram && util::has_suffix(s.name, "_bucket")) {
      const std::string* le = s.label("le");
      if (!le) throw LineError{"histogram bucket \"" + s.name + "\" without an \"le\" label"};
      parse_value(*le, "\"le\" label value");
    }
    if (f.type == MetricType::kHistogram && s.name == f.name)
      throw LineError{"histogram \"" + f.name + "\" sample without _bucket, _sum or _count suffix"};
    if (f.type == MetricType::kSummary && s.name == f.name) {
      const std::string* q = s.label("quantile");
      if (!q) throw LineError{"summary \"" + f.name + "\" sample without a \"quantile\" label"};
      parse_value(*q, "\"quantile\" label value");
    }
  }

  Exposition out_;
  std::unordered_map<std::string, size_t> index_;
  std::unordered_map<std::string, Declared> declared_;
};

}  // namespace

std::string_view type_name(MetricType type) {
  switch (type) {
    case MetricType::kCounter: return "counter";
    case MetricType::kGauge: return "gauge";
    case MetricType::kHistogram: return "histogram";
    case MetricType::kSummary: return "summary";
    case MetricType::kUntyped: return "untyped";
  }
  return "untyped";
}

const std::string* Sample::label(std::string_view key) const {
  for (const auto& [k, v] : labels)
    if (k == key) return &v;
  return nullptr;
}

const Family* Exposition::find(std::string_view name) const {
  for (const Family& f : families)
    if (f.name == name) return &f;
  return nullptr;
}

ParseResult parse(std::string_view text) {
  Builder builder;
  size_t line_no = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    ++line_no;
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    size_t first = 0;
    while (first < line.size() && blank(line[first])) ++first;
    line.remove_prefix(first);
    if (line.empty()) continue;
    try {
      if (line.front() == '#') builder.comment(line);
      else builder.sample(line);
    } catch (const LineError& e) {
      return ParseResult{std::nullopt, ParseError{line_no, e.message}};
    }
  }
  return ParseResult{builder.finish(), std::nullopt};
}

}  // namespace aiperf::prometheus
