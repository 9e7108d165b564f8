#include "endpoints/chat_template.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <ctime>
#include <variant>
#include <vector>

namespace aiperf::endpoints {

using J = nlohmann::ordered_json;

namespace {

[[noreturn]] void fail(const std::string& what) { throw ChatTemplateError("chat template: " + what); }

// ---- values --------------------------------------------------------------------------------

// A Jinja value: JSON data, Undefined, or a namespace() object (mutable through `set ns.x`).
struct Value {
  J v;
  bool undefined = false;
  std::shared_ptr<J> ns;  // set for namespace objects; v unused

  static Value undef() { return {J(), true, nullptr}; }
  const J& data() const { return ns ? *ns : v; }
};

Value val(J v) { return Value{std::move(v), false, nullptr}; }

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

void py_repr(const J& v, std::string& out);

// Python's str() of a value, as Jinja prints it.
void py_str(const J& v, std::string& out) {
  if (v.is_string()) out += v.get_ref<const std::string&>();
  else py_repr(v, out);
}

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

// ---- expressions ---------------------------------------------------------------------------

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Expr {
  enum class Kind { literal, name, member, index, slice, call, filter, test, not_, neg, binop, cond, list, dict } kind;
  J literal;
  std::string name;  // name / member / filter / test / binop operator
  bool negate = false;  // `is not`, `not in`
  std::vector<ExprPtr> args;  // subject first where there is one; slice: subject, start, stop, step (may be null)
  std::vector<std::pair<std::string, ExprPtr>> kwargs;
  int depth = 1;  // nesting below and including this node
};

// Deeply nested expressions would overflow the stack while parsing, evaluating or destroying
// them; Python's recursion limit stops Jinja as well.
constexpr int kMaxDepth = 200;

ExprPtr& checked(ExprPtr& e) {
  int d = 0;
  for (const auto& a : e->args)
    if (a) d = std::max(d, a->depth);
  for (const auto& [k, v] : e->kwargs) d = std::max(d, v->depth);
  e->depth = d + 1;
  if (e->depth > kMaxDepth) fail("expression nested too deeply");
  return e;
}

ExprPtr make(Expr::Kind k) {
  auto e = std::make_unique<Expr>();
  e->kind = k;
  return e;
}

struct Tok {
  enum class T { name, str, num, op, end } t;
  std::string s;
  J num;
};

std::vector<Tok> lex_expr(std::string_view src) {
  std::vector<Tok> out;
  size_t i = 0;
  while (i < src.size()) {
    const char c = src[i];
    if (is_py_space(c)) {
      ++i;
      continue;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t j = i;
      while (j < src.size() && (std::isalnum(static_cast<unsigned char>(src[j])) || src[j] == '_')) ++j;
      out.push_back({Tok::T::name, std::string(src.substr(i, j - i)), {}});
      i = j;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t j = i;
      bool is_float = false;
      while (j < src.size() && (std::isdigit(static_cast<unsigned char>(src[j])) || src[j] == '_')) ++j;
      if (j + 1 < src.size() && src[j] == '.' && std::isdigit(static_cast<unsigned char>(src[j + 1]))) {
        is_float = true;
        ++j;
        while (j < src.size() && std::isdigit(static_cast<unsigned char>(src[j]))) ++j;
      }
      std::string text(src.substr(i, j - i));
      text.erase(std::remove(text.begin(), text.end(), '_'), text.end());
      Tok t{Tok::T::num, text, {}};
      if (is_float) t.num = std::stod(text);
      else t.num = std::stoll(text);
      out.push_back(std::move(t));
      i = j;
    } else if (c == '"' || c == '\'') {
      std::string text;
      size_t j = i + 1;
      for (; j < src.size() && src[j] != c; ++j) {
        if (src[j] == '\\' && j + 1 < src.size()) {
          const char e = src[++j];
          switch (e) {
            case 'n': text += '\n'; break;
            case 't': text += '\t'; break;
            case 'r': text += '\r'; break;
            case '0': text += '\0'; break;
            case '\\': text += '\\'; break;
            case '\'': text += '\''; break;
            case '"': text += '"'; break;
            case '\n': break;
            default:
              text += '\\';
              text += e;
          }
        } else {
          text += src[j];
        }
      }
      if (j >= src.size()) fail("unterminated string literal");
      out.push_back({Tok::T::str, std::move(text), {}});
      i = j + 1;
    } else {
      static const char* kOps[] = {"//", "**", "==", "!=", "<=", ">=", "+", "-", "*", "/", "%", "~", "<", ">", "(",
                                   ")", "[", "]", "{", "}", ",", ".", ":", "|", "="};
      bool found = false;
      for (const char* op : kOps) {
        const size_t n = std::strlen(op);
        if (src.substr(i, n) == op) {
          out.push_back({Tok::T::op, op, {}});
          i += n;
          found = true;
          break;
        }
      }
      if (!found) fail("unexpected character '" + std::string(1, c) + "'");
    }
  }
  out.push_back({Tok::T::end, "", {}});
  return out;
}

class ExprParser {
 public:
  explicit ExprParser(std::string_view src) : src_(src), toks_(lex_expr(src)) {}

  ExprPtr parse_all() {
    ExprPtr e = parse_expression();
    expect_end();
    return e;
  }
  void expect_end() {
    if (peek().t != Tok::T::end) fail("unexpected '" + peek().s + "' in '" + std::string(src_) + "'");
  }

  // Helpers for statements.
  const Tok& peek(size_t ahead = 0) const { return toks_[std::min(pos_ + ahead, toks_.size() - 1)]; }
  bool at_name(std::string_view n) const { return peek().t == Tok::T::name && peek().s == n; }
  bool at_op(std::string_view o) const { return peek().t == Tok::T::op && peek().s == o; }
  bool eat_name(std::string_view n) {
    if (!at_name(n)) return false;
    ++pos_;
    return true;
  }
  bool eat_op(std::string_view o) {
    if (!at_op(o)) return false;
    ++pos_;
    return true;
  }
  std::string name() {
    if (peek().t != Tok::T::name) fail("expected a name in '" + std::string(src_) + "'");
    return toks_[pos_++].s;
  }
  void expect_op(std::string_view o) {
    if (!eat_op(o)) fail("expected '" + std::string(o) + "' in '" + std::string(src_) + "'");
  }

  struct DepthGuard {
    int& d;
    explicit DepthGuard(int& depth) : d(depth) {
      if (++d > kMaxDepth) fail("expression nested too deeply");
    }
    ~DepthGuard() { --d; }
  };

  // Conditional expression without the tuple level.
  ExprPtr parse_expression(bool with_cond = true) {
    DepthGuard guard(depth_);
    ExprPtr e = parse_or();
    if (!with_cond) return e;
    while (at_name("if")) {
      ++pos_;
      ExprPtr c = make(Expr::Kind::cond);
      ExprPtr test = parse_or();
      ExprPtr other;
      if (eat_name("else")) other = parse_expression();
      c->args.push_back(std::move(test));
      c->args.push_back(std::move(e));
      c->args.push_back(std::move(other));  // may be null: undefined
      e = std::move(checked(c));
    }
    return e;
  }
  ExprPtr parse_or() {
    ExprPtr l = parse_and();
    while (eat_name("or")) l = bin("or", std::move(l), parse_and());
    return l;
  }
  ExprPtr parse_and() {
    ExprPtr l = parse_not();
    while (eat_name("and")) l = bin("and", std::move(l), parse_not());
    return l;
  }
  ExprPtr parse_not() {
    if (eat_name("not")) {
      DepthGuard guard(depth_);
      ExprPtr e = make(Expr::Kind::not_);
      e->args.push_back(parse_not());
      return std::move(checked(e));
    }
    return parse_compare();
  }
  ExprPtr parse_compare() {
    ExprPtr l = parse_math1();
    for (;;) {
      std::string op;
      bool negate = false;
      if (peek().t == Tok::T::op && (at_op("==") || at_op("!=") || at_op("<") || at_op(">") || at_op("<=") || at_op(">="))) {
        op = toks_[pos_++].s;
      } else if (eat_name("in")) {
        op = "in";
      } else if (at_name("not") && peek(1).t == Tok::T::name && peek(1).s == "in") {
        pos_ += 2;
        op = "in";
        negate = true;
      } else {
        return l;
      }
      ExprPtr e = bin(op, std::move(l), parse_math1());
      e->negate = negate;
      l = std::move(e);
    }
  }
  ExprPtr parse_math1() {
    ExprPtr l = parse_concat();
    while (at_op("+") || at_op("-")) {
      const std::string op = toks_[pos_++].s;
      l = bin(op, std::move(l), parse_concat());
    }
    return l;
  }
  ExprPtr parse_concat() {
    ExprPtr l = parse_math2();
    while (eat_op("~")) l = bin("~", std::move(l), parse_math2());
    return l;
  }
  ExprPtr parse_math2() {
    ExprPtr l = parse_pow();
    while (at_op("*") || at_op("/") || at_op("//") || at_op("%")) {
      const std::string op = toks_[pos_++].s;
      l = bin(op, std::move(l), parse_pow());
    }
    return l;
  }
  ExprPtr parse_pow() {
    ExprPtr l = parse_unary();
    while (eat_op("**")) l = bin("**", std::move(l), parse_unary());
    return l;
  }
  ExprPtr parse_unary() {
    DepthGuard guard(depth_);
    if (eat_op("-")) {
      ExprPtr e = make(Expr::Kind::neg);
      e->args.push_back(parse_unary());
      return parse_filters(std::move(checked(e)));
    }
    if (eat_op("+")) return parse_unary();
    return parse_filters(parse_postfix(parse_primary()));
  }
  // `|filter(args)` and `is [not] test(args)`, both binding tighter than arithmetic.
  ExprPtr parse_filters(ExprPtr subject) {
    for (;;) {
      if (eat_op("|")) {
        ExprPtr f = make(Expr::Kind::filter);
        f->name = name();
        f->args.push_back(std::move(subject));
        if (at_op("(")) parse_call_args(*f);
        subject = parse_postfix(std::move(checked(f)));
      } else if (eat_name("is")) {
        ExprPtr t = make(Expr::Kind::test);
        t->negate = eat_name("not");
        t->name = peek().t == Tok::T::name ? name() : "";
        if (t->name.empty()) {
          if (eat_op("==")) t->name = "==";
          else fail("expected a test name after 'is'");
        }
        t->args.push_back(std::move(subject));
        if (at_op("(")) parse_call_args(*t);
        else if (peek().t == Tok::T::str || peek().t == Tok::T::num || (peek().t == Tok::T::name && !at_name("and") &&
                                                                         !at_name("or") && !at_name("if") &&
                                                                         !at_name("else") && !at_name("is") &&
                                                                         !at_name("in") && !at_name("not")))
          t->args.push_back(parse_primary());  // `is divisibleby 3`, `is sameas none`
        subject = std::move(checked(t));
      } else {
        return subject;
      }
    }
  }
  void parse_call_args(Expr& e) {
    expect_op("(");
    if (eat_op(")")) return;
    do {
      if (at_op(")")) break;
      if (peek().t == Tok::T::name && peek(1).t == Tok::T::op && peek(1).s == "=") {
        std::string key = name();
        ++pos_;
        e.kwargs.emplace_back(std::move(key), parse_expression());
      } else {
        e.args.push_back(parse_expression());
      }
    } while (eat_op(","));
    expect_op(")");
  }
  ExprPtr parse_postfix(ExprPtr e) {
    for (;;) {
      if (eat_op(".")) {
        ExprPtr m = make(Expr::Kind::member);
        if (peek().t == Tok::T::num) m->literal = toks_[pos_++].num;  // x.0
        else m->name = name();
        m->args.push_back(std::move(e));
        e = std::move(checked(m));
      } else if (eat_op("[")) {
        ExprPtr parts[3];
        bool is_slice = false;
        for (int k = 0; k < 3; ++k) {
          if (!at_op(":") && !at_op("]")) parts[k] = parse_expression();
          if (k < 2 && eat_op(":")) {
            is_slice = true;
            continue;
          }
          break;
        }
        expect_op("]");
        ExprPtr s = make(is_slice ? Expr::Kind::slice : Expr::Kind::index);
        s->args.push_back(std::move(e));
        if (is_slice) {
          for (auto& p : parts) s->args.push_back(std::move(p));
        } else {
          if (!parts[0]) fail("empty subscript");
          s->args.push_back(std::move(parts[0]));
        }
        e = std::move(checked(s));
      } else if (at_op("(")) {
        ExprPtr c = make(Expr::Kind::call);
        c->args.push_back(std::move(e));
        parse_call_args(*c);
        e = std::move(checked(c));
      } else {
        return e;
      }
    }
  }
  ExprPtr parse_primary() {
    const Tok& t = peek();
    if (t.t == Tok::T::str) {
      std::string s = toks_[pos_++].s;
      while (peek().t == Tok::T::str) s += toks_[pos_++].s;  // adjacent literals concatenate
      ExprPtr e = make(Expr::Kind::literal);
      e->literal = std::move(s);
      return e;
    }
    if (t.t == Tok::T::num) {
      ExprPtr e = make(Expr::Kind::literal);
      e->literal = toks_[pos_++].num;
      return e;
    }
    if (t.t == Tok::T::name) {
      std::string n = toks_[pos_++].s;
      ExprPtr e = make(Expr::Kind::literal);
      if (n == "true" || n == "True") e->literal = true;
      else if (n == "false" || n == "False") e->literal = false;
      else if (n == "none" || n == "None") e->literal = nullptr;
      else {
        e->kind = Expr::Kind::name;
        e->name = std::move(n);
      }
      return e;
    }
    if (eat_op("(")) {
      if (eat_op(")")) return make(Expr::Kind::list);  // empty tuple
      ExprPtr first = parse_expression();
      if (at_op(",")) {  // a tuple: a list for our purposes
        ExprPtr l = make(Expr::Kind::list);
        l->args.push_back(std::move(first));
        while (eat_op(",")) {
          if (at_op(")")) break;
          l->args.push_back(parse_expression());
        }
        expect_op(")");
        return std::move(checked(l));
      }
      expect_op(")");
      return first;
    }
    if (eat_op("[")) {
      ExprPtr l = make(Expr::Kind::list);
      if (!eat_op("]")) {
        do {
          if (at_op("]")) break;
          l->args.push_back(parse_expression());
        } while (eat_op(","));
        expect_op("]");
      }
      return std::move(checked(l));
    }
    if (eat_op("{")) {
      ExprPtr d = make(Expr::Kind::dict);
      if (!eat_op("}")) {
        do {
          if (at_op("}")) break;
          ExprPtr k = parse_expression();
          expect_op(":");
          d->args.push_back(std::move(k));
          d->args.push_back(parse_expression());
        } while (eat_op(","));
        expect_op("}");
      }
      return std::move(checked(d));
    }
    fail("unexpected '" + t.s + "' in expression '" + std::string(src_) + "'");
  }

 private:
  static ExprPtr bin(const std::string& op, ExprPtr l, ExprPtr r) {
    ExprPtr e = make(Expr::Kind::binop);
    e->name = op;
    e->args.push_back(std::move(l));
    e->args.push_back(std::move(r));
    return std::move(checked(e));
  }

  std::string_view src_;
  std::vector<Tok> toks_;
  size_t pos_ = 0;
  int depth_ = 0;
};

// ---- template nodes ------------------------------------------------------------------------

struct Node;
using Body = std::vector<Node>;

struct TextNode { std::string text; };
struct OutputNode { ExprPtr expr; };
struct IfNode {
  std::vector<std::pair<ExprPtr, Body>> branches;
  Body otherwise;
};
struct ForNode {
  std::vector<std::string> targets;
  ExprPtr iterable;
  ExprPtr filter;  // may be null
  Body body;
  Body otherwise;
};
struct SetNode {
  std::vector<std::string> targets;  // one name, or several to unpack
  std::string attr;                  // `set ns.attr = ...`: targets[0] is the namespace
  ExprPtr value;                     // null for a block set
  Body block;
};
struct ControlNode { bool is_break; };
struct BlockNode { Body body; };  // {% generation %}
struct Node {
  std::variant<TextNode, OutputNode, IfNode, ForNode, SetNode, ControlNode, BlockNode> v;
};

struct Piece {
  enum class Kind { text, output, statement } kind;
  std::string content;
};

// Splits the source into text and tags with Jinja's whitespace rules as transformers configures
// them: trim_blocks (one newline after a block or comment tag is dropped), lstrip_blocks (spaces
// and tabs between a line start and a block or comment tag are dropped), and the explicit
// '-' (strip all whitespace on that side) and '+' (keep it) markers.
std::vector<Piece> lex(std::string_view src) {
  std::vector<Piece> pieces;
  size_t pos = 0;
  bool strip_ws_next = false, trim_newline_next = false;
  while (pos <= src.size()) {
    size_t open = pos;
    for (;;) {
      open = src.find('{', open);
      if (open == std::string_view::npos || open + 1 >= src.size()) {
        open = std::string_view::npos;
        break;
      }
      const char k = src[open + 1];
      if (k == '{' || k == '%' || k == '#') break;
      ++open;
    }
    std::string text(src.substr(pos, open == std::string_view::npos ? std::string_view::npos : open - pos));
    // Whether this text starts a line: the source start, or right after a newline (one that
    // trim_blocks consumed counts).
    bool begins_line = pos == 0 || src[pos - 1] == '\n';
    if (strip_ws_next) {
      size_t f = 0;
      while (f < text.size() && is_py_space(text[f])) ++f;
      text.erase(0, f);
    } else if (trim_newline_next) {
      if (text.rfind("\r\n", 0) == 0) text.erase(0, 2), begins_line = true;
      else if (!text.empty() && text[0] == '\n') text.erase(0, 1), begins_line = true;
    }
    strip_ws_next = trim_newline_next = false;
    if (open == std::string_view::npos) {
      if (!text.empty()) pieces.push_back({Piece::Kind::text, std::move(text)});
      break;
    }
    const char kind = src[open + 1];
    size_t inner_start = open + 2;
    const char mark = inner_start < src.size() ? src[inner_start] : '\0';
    if (mark == '-') {
      while (!text.empty() && is_py_space(text.back())) text.pop_back();
      ++inner_start;
    } else if (mark == '+') {
      ++inner_start;
    } else if (kind != '{') {
      // lstrip_blocks: only spaces/tabs since the line start (or the template start).
      size_t k = text.size();
      while (k > 0 && (text[k - 1] == ' ' || text[k - 1] == '\t')) --k;
      if (k > 0 ? text[k - 1] == '\n' : begins_line) text.erase(k);
    }
    if (!text.empty()) pieces.push_back({Piece::Kind::text, std::move(text)});
    // Find the closing delimiter, skipping string literals inside tags.
    const char close_c = kind == '{' ? '}' : kind == '%' ? '%' : '#';
    size_t i = inner_start;
    size_t end = std::string_view::npos;
    while (i + 1 < src.size() + 1 && i < src.size()) {
      const char c = src[i];
      if (kind != '#' && (c == '"' || c == '\'')) {
        size_t j = i + 1;
        while (j < src.size() && src[j] != c) j += src[j] == '\\' ? 2 : 1;
        i = j + 1;
        continue;
      }
      if (c == close_c && i + 1 < src.size() && src[i + 1] == '}') {
        end = i;
        break;
      }
      ++i;
    }
    if (end == std::string_view::npos) fail(std::string("unclosed '{") + kind + "'");
    size_t inner_end = end;
    const char close_mark = inner_end > inner_start ? src[inner_end - 1] : '\0';
    if (close_mark == '-') {
      --inner_end;
      strip_ws_next = true;
    } else if (close_mark == '+') {
      --inner_end;
    } else if (kind != '{') {
      trim_newline_next = true;
    }
    if (kind != '#')
      pieces.push_back({kind == '{' ? Piece::Kind::output : Piece::Kind::statement,
                        std::string(src.substr(inner_start, inner_end - inner_start))});
    pos = end + 2;
  }
  return pieces;
}

std::string_view first_word(std::string_view s) {
  size_t b = 0;
  while (b < s.size() && is_py_space(s[b])) ++b;
  size_t e = b;
  while (e < s.size() && (std::isalnum(static_cast<unsigned char>(s[e])) || s[e] == '_')) ++e;
  return s.substr(b, e - b);
}

class TemplateParser {
 public:
  explicit TemplateParser(std::vector<Piece> pieces) : pieces_(std::move(pieces)) {}

  Body parse_top() {
    Body b = parse_body({});
    if (pos_ != pieces_.size()) fail("unexpected {% " + std::string(first_word(pieces_[pos_].content)) + " %}");
    return b;
  }

 private:
  Body parse_body(std::initializer_list<std::string_view> stops) {
    if (++nesting_ > 100) fail("blocks nested too deeply");
    struct Leave {
      int& n;
      ~Leave() { --n; }
    } leave{nesting_};
    Body body;
    while (pos_ < pieces_.size()) {
      Piece& p = pieces_[pos_];
      if (p.kind == Piece::Kind::text) {
        body.push_back(Node{TextNode{std::move(p.content)}});
        ++pos_;
        continue;
      }
      if (p.kind == Piece::Kind::output) {
        body.push_back(Node{OutputNode{ExprParser(p.content).parse_all()}});
        ++pos_;
        continue;
      }
      const std::string_view kw = first_word(p.content);
      for (std::string_view s : stops)
        if (kw == s) return body;
      ExprParser ep(p.content);
      ep.name();  // the keyword
      ++pos_;
      if (kw == "if") body.push_back(parse_if(ep));
      else if (kw == "for") body.push_back(parse_for(ep));
      else if (kw == "set") body.push_back(parse_set(ep));
      else if (kw == "break" || kw == "continue") {
        ep.expect_end();
        body.push_back(Node{ControlNode{kw == "break"}});
      } else if (kw == "generation") {
        ep.expect_end();
        Body inner = parse_body({"endgeneration"});
        expect("endgeneration");
        body.push_back(Node{BlockNode{std::move(inner)}});
      } else {
        fail("unsupported tag {% " + std::string(kw) + " %}");
      }
    }
    return body;
  }

  void expect(std::string_view kw) {
    if (pos_ >= pieces_.size() || pieces_[pos_].kind != Piece::Kind::statement || first_word(pieces_[pos_].content) != kw)
      fail("missing {% " + std::string(kw) + " %}");
    ++pos_;
  }
  std::string_view current_kw() const {
    if (pos_ >= pieces_.size()) fail("template ends inside a block");
    return first_word(pieces_[pos_].content);
  }

  Node parse_if(ExprParser& ep) {
    IfNode node;
    ExprPtr cond = ep.parse_expression();
    ep.expect_end();
    for (;;) {
      Body b = parse_body({"elif", "else", "endif"});
      node.branches.emplace_back(std::move(cond), std::move(b));
      const std::string_view kw = current_kw();
      if (kw == "elif") {
        ExprParser e2(pieces_[pos_].content);
        e2.name();
        cond = e2.parse_expression();
        e2.expect_end();
        ++pos_;
        continue;
      }
      if (kw == "else") {
        ++pos_;
        node.otherwise = parse_body({"endif"});
      }
      expect("endif");
      return Node{std::move(node)};
    }
  }

  Node parse_for(ExprParser& ep) {
    ForNode node;
    do node.targets.push_back(ep.name());
    while (ep.eat_op(","));
    if (!ep.eat_name("in")) fail("for: expected 'in'");
    node.iterable = ep.parse_expression(false);
    if (ep.eat_name("if")) node.filter = ep.parse_expression(false);
    if (ep.at_name("recursive")) fail("recursive loops are not supported");
    ep.expect_end();
    node.body = parse_body({"else", "endfor"});
    if (current_kw() == "else") {
      ++pos_;
      node.otherwise = parse_body({"endfor"});
    }
    expect("endfor");
    return Node{std::move(node)};
  }

  Node parse_set(ExprParser& ep) {
    SetNode node;
    node.targets.push_back(ep.name());
    if (ep.eat_op(".")) node.attr = ep.name();
    else
      while (ep.eat_op(",")) node.targets.push_back(ep.name());
    if (ep.eat_op("=")) {
      node.value = ep.parse_expression();
      if (ep.at_op(",")) {  // `set a = x, y`: a tuple
        ExprPtr l = make(Expr::Kind::list);
        l->args.push_back(std::move(node.value));
        while (ep.eat_op(",")) l->args.push_back(ep.parse_expression());
        node.value = std::move(l);
      }
      ep.expect_end();
      return Node{std::move(node)};
    }
    ep.expect_end();
    node.block = parse_body({"endset"});
    expect("endset");
    return Node{std::move(node)};
  }

  std::vector<Piece> pieces_;
  size_t pos_ = 0;
  int nesting_ = 0;
};

// ---- evaluation ----------------------------------------------------------------------------

enum class Flow { normal, break_, continue_ };

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

class Renderer {
 public:
  Flow render(const Body& body, std::string& out) {
    for (const Node& node : body) {
      if (const auto* t = std::get_if<TextNode>(&node.v)) {
        out += t->text;
      } else if (const auto* o = std::get_if<OutputNode>(&node.v)) {
        out += to_str(eval(*o->expr));
      } else if (const auto* i = std::get_if<IfNode>(&node.v)) {
        const Body* chosen = &i->otherwise;
        for (const auto& [cond, branch] : i->branches) {
          if (truthy(eval(*cond))) {
            chosen = &branch;
            break;
          }
        }
        if (Flow f = render(*chosen, out); f != Flow::normal) return f;
      } else if (const auto* f = std::get_if<ForNode>(&node.v)) {
        render_for(*f, out);
      } else if (const auto* s = std::get_if<SetNode>(&node.v)) {
        do_set(*s);
      } else if (const auto* c = std::get_if<ControlNode>(&node.v)) {
        return c->is_break ? Flow::break_ : Flow::continue_;
      } else if (const auto* b = std::get_if<BlockNode>(&node.v)) {
        if (Flow fl = render(b->body, out); fl != Flow::normal) return fl;
      }
    }
    return Flow::normal;
  }

 private:
  // Scope entries are JSON; namespaces live beside them, keyed by name per scope.
  struct Scope {
    J vars = J::object();
    std::vector<std::pair<std::string, std::shared_ptr<J>>> namespaces;
  };

 public:
  explicit Renderer(const J& globals, int) { frames_.push_back(Scope{globals, {}}); }

 private:
  void bind(const std::string& name, Value v) {
    Scope& s = frames_.back();
    std::erase_if(s.namespaces, [&](auto& p) { return p.first == name; });
    s.vars.erase(name);
    if (v.ns) s.namespaces.emplace_back(name, v.ns);
    else if (!v.undefined) s.vars[name] = std::move(v.v);
    else s.namespaces.emplace_back(name, nullptr);  // explicitly undefined
  }

  Value lookup(const std::string& name) const {
    for (auto it = frames_.rbegin(); it != frames_.rend(); ++it) {
      for (const auto& [n, ns] : it->namespaces)
        if (n == name) return ns ? Value{J(), false, ns} : Value::undef();
      if (auto f = it->vars.find(name); f != it->vars.end()) return val(*f);
    }
    return Value::undef();
  }

  void do_set(const SetNode& s) {
    Value v;
    if (s.value) {
      v = eval(*s.value);
    } else {
      std::string text;
      render(s.block, text);
      v = val(text);
    }
    if (!s.attr.empty()) {
      Value target = lookup(s.targets[0]);
      if (!target.ns) fail("cannot set attribute '" + s.attr + "' of '" + s.targets[0] + "': not a namespace");
      if (v.ns) fail("a namespace cannot hold a namespace");
      (*target.ns)[s.attr] = v.undefined ? J() : v.v;
      return;
    }
    if (s.targets.size() == 1) {
      bind(s.targets[0], std::move(v));
      return;
    }
    if (!v.v.is_array() || v.v.size() != s.targets.size()) fail("set: cannot unpack into " + std::to_string(s.targets.size()) + " names");
    for (size_t k = 0; k < s.targets.size(); ++k) bind(s.targets[k], val(v.v[k]));
  }

  std::vector<J> iterate(const Value& x) {
    std::vector<J> items;
    if (x.undefined || x.v.is_null()) {
      if (x.v.is_null() && !x.undefined) fail("'NoneType' object is not iterable");
      return items;
    }
    if (x.v.is_array()) items.assign(x.v.begin(), x.v.end());
    else if (x.v.is_object())
      for (const auto& [k, e] : x.v.items()) items.emplace_back(k);
    else if (x.v.is_string())
      for (auto& cp : code_points(x.v.get_ref<const std::string&>())) items.emplace_back(cp);
    else fail("object is not iterable: " + to_str(x));
    return items;
  }

  void bind_targets(const std::vector<std::string>& targets, const J& item) {
    if (targets.size() == 1) {
      bind(targets[0], val(item));
      return;
    }
    if (!item.is_array() || item.size() != targets.size()) fail("for: cannot unpack " + item.dump());
    for (size_t k = 0; k < targets.size(); ++k) bind(targets[k], val(item[k]));
  }

  void render_for(const ForNode& f, std::string& out) {
    std::vector<J> items = iterate(eval(*f.iterable));
    if (f.filter) {
      std::vector<J> kept;
      for (J& item : items) {
        frames_.push_back({});
        bind_targets(f.targets, item);
        const bool keep = truthy(eval(*f.filter));
        frames_.pop_back();
        if (keep) kept.push_back(std::move(item));
      }
      items = std::move(kept);
    }
    if (items.empty()) {
      frames_.push_back({});
      render(f.otherwise, out);
      frames_.pop_back();
      return;
    }
    const size_t n = items.size();
    for (size_t k = 0; k < n; ++k) {
      J loop = {{"index", k + 1}, {"index0", k},           {"revindex", n - k}, {"revindex0", n - k - 1},
                {"first", k == 0}, {"last", k + 1 == n}, {"length", n}};
      if (k > 0) loop["previtem"] = items[k - 1];
      if (k + 1 < n) loop["nextitem"] = items[k + 1];
      frames_.push_back({});
      bind("loop", val(std::move(loop)));
      bind_targets(f.targets, items[k]);
      const Flow fl = render(f.body, out);
      frames_.pop_back();
      if (fl == Flow::break_) break;
    }
  }

  Value eval(const Expr& e) {
    using K = Expr::Kind;
    switch (e.kind) {
      case K::literal: return val(e.literal);
      case K::name: return lookup(e.name);
      case K::list: {
        J arr = J::array();
        for (const auto& a : e.args) {
          Value v = eval(*a);
          arr.push_back(v.undefined ? J() : v.data());
        }
        return val(std::move(arr));
      }
      case K::dict: {
        J obj = J::object();
        for (size_t k = 0; k + 1 < e.args.size(); k += 2) obj[to_str(eval(*e.args[k]))] = eval(*e.args[k + 1]).data();
        return val(std::move(obj));
      }
      case K::member: {
        const Value subject = eval(*e.args[0]);
        if (subject.undefined) fail("'" + describe(*e.args[0]) + "' is undefined");
        if (!e.literal.is_null()) return index(subject, val(e.literal));
        const J& d = subject.data();
        if (d.is_object()) {
          if (auto it = d.find(e.name); it != d.end()) return val(*it);
        }
        return Value::undef();
      }
      case K::index: {
        const Value subject = eval(*e.args[0]);
        if (subject.undefined) fail("'" + describe(*e.args[0]) + "' is undefined");
        return index(subject, eval(*e.args[1]));
      }
      case K::slice: return slice(e);
      case K::call: return call(e);
      case K::filter: return filter(e);
      case K::test: {
        const bool r = test(e);
        return val(e.negate ? !r : r);
      }
      case K::not_: return val(!truthy(eval(*e.args[0])));
      case K::neg: {
        const Value x = eval(*e.args[0]);
        if (x.v.is_number_integer()) return val(-x.v.get<int64_t>());
        return val(-num(x, "unary -"));
      }
      case K::cond: {
        if (truthy(eval(*e.args[0]))) return eval(*e.args[1]);
        return e.args[2] ? eval(*e.args[2]) : Value::undef();
      }
      case K::binop: return binop(e);
    }
    return Value::undef();
  }

  static std::string describe(const Expr& e) {
    if (e.kind == Expr::Kind::name) return e.name;
    if (e.kind == Expr::Kind::member) return describe(*e.args[0]) + "." + e.name;
    return "value";
  }

  static Value index(const Value& subject, const Value& key) {
    const J& d = subject.data();
    if ((d.is_array() || d.is_string()) && (key.v.is_number_integer() || key.v.is_boolean())) {
      int64_t i = as_int(key.v);
      if (d.is_string()) {
        auto cps = code_points(d.get_ref<const std::string&>());
        const auto n = static_cast<int64_t>(cps.size());
        if (i < 0) i += n;
        if (i >= 0 && i < n) return val(cps[static_cast<size_t>(i)]);
        return Value::undef();
      }
      const auto n = static_cast<int64_t>(d.size());
      if (i < 0) i += n;
      if (i >= 0 && i < n) return val(d[static_cast<size_t>(i)]);
    } else if (d.is_object() && key.v.is_string()) {
      if (auto it = d.find(key.v.get<std::string>()); it != d.end()) return val(*it);
    }
    return Value::undef();
  }

  Value slice(const Expr& e) {
    const Value subject = eval(*e.args[0]);
    if (subject.undefined) fail("'" + describe(*e.args[0]) + "' is undefined");
    auto bound = [&](size_t k) -> std::optional<int64_t> {
      if (!e.args[k]) return std::nullopt;
      Value v = eval(*e.args[k]);
      if (v.undefined || v.v.is_null()) return std::nullopt;
      if (!v.v.is_number_integer()) fail("slice indices must be integers");
      return v.v.get<int64_t>();
    };
    const std::optional<int64_t> start = bound(1), stop = bound(2), step_o = bound(3);
    const int64_t step = step_o.value_or(1);
    if (step == 0) fail("slice step cannot be zero");
    std::vector<J> items;
    const bool is_str = subject.v.is_string();
    if (is_str)
      for (auto& cp : code_points(subject.v.get_ref<const std::string&>())) items.emplace_back(cp);
    else if (subject.v.is_array()) items.assign(subject.v.begin(), subject.v.end());
    else fail("object is not subscriptable: " + to_str(subject));
    const auto n = static_cast<int64_t>(items.size());
    // Python's slice.indices().
    auto clamp = [&](std::optional<int64_t> v, int64_t dflt, int64_t lo, int64_t hi) {
      if (!v) return dflt;
      int64_t x = *v;
      if (x < 0) x += n;
      return std::clamp(x, lo, hi);
    };
    int64_t b, en;
    if (step > 0) {
      b = clamp(start, 0, 0, n);
      en = clamp(stop, n, 0, n);
    } else {
      b = clamp(start, n - 1, -1, n - 1);
      en = clamp(stop, -1, -1, n - 1);
    }
    J out = J::array();
    std::string sout;
    for (int64_t i = b; step > 0 ? i < en : i > en; i += step) {
      if (is_str) sout += items[static_cast<size_t>(i)].get<std::string>();
      else out.push_back(items[static_cast<size_t>(i)]);
    }
    return is_str ? val(sout) : val(std::move(out));
  }

  Value binop(const Expr& e) {
    const std::string& op = e.name;
    if (op == "and") {
      Value l = eval(*e.args[0]);
      return truthy(l) ? eval(*e.args[1]) : l;
    }
    if (op == "or") {
      Value l = eval(*e.args[0]);
      return truthy(l) ? l : eval(*e.args[1]);
    }
    const Value a = eval(*e.args[0]);
    const Value b = eval(*e.args[1]);
    if (op == "~") return val(to_str(a) + to_str(b));
    if (op == "==") return val(py_eq(a, b));
    if (op == "!=") return val(!py_eq(a, b));
    if (op == "in") {
      bool r = false;
      if (b.v.is_string()) {
        if (!a.v.is_string()) fail("'in <string>' requires a string on the left");
        r = b.v.get_ref<const std::string&>().find(a.v.get_ref<const std::string&>()) != std::string::npos;
      } else if (b.v.is_array()) {
        for (const J& x : b.v) r = r || py_eq(a, val(x));
      } else if (b.data().is_object()) {
        r = a.v.is_string() && b.data().contains(a.v.get<std::string>());
      } else if (b.undefined) {
        fail("'" + describe(*e.args[1]) + "' is undefined");
      } else {
        fail("argument of 'in' is not iterable");
      }
      return val(e.negate ? !r : r);
    }
    if (op == "<") return val(py_cmp(a, b, op) < 0);
    if (op == ">") return val(py_cmp(a, b, op) > 0);
    if (op == "<=") return val(py_cmp(a, b, op) <= 0);
    if (op == ">=") return val(py_cmp(a, b, op) >= 0);
    if (a.undefined) fail("'" + describe(*e.args[0]) + "' is undefined");
    if (b.undefined) fail("'" + describe(*e.args[1]) + "' is undefined");
    if (op == "+") {
      if (a.v.is_string() && b.v.is_string()) return val(a.v.get<std::string>() + b.v.get<std::string>());
      if (a.v.is_array() && b.v.is_array()) {
        J r = a.v;
        for (const J& x : b.v) r.push_back(x);
        return val(std::move(r));
      }
      if (both_ints(a, b)) return val(as_int(a.v) + as_int(b.v));
      return val(num(a, "+") + num(b, "+"));
    }
    if (op == "-") {
      if (both_ints(a, b)) return val(as_int(a.v) - as_int(b.v));
      return val(num(a, "-") - num(b, "-"));
    }
    if (op == "*") {
      if (a.v.is_string() && b.v.is_number_integer()) {
        const int64_t times = b.v.get<int64_t>();
        if (times > 0 && static_cast<double>(times) * static_cast<double>(a.v.get_ref<const std::string&>().size()) > 64e6)
          fail("string repetition too long");
        std::string r;
        for (int64_t k = 0; k < times; ++k) r += a.v.get<std::string>();
        return val(r);
      }
      if (both_ints(a, b)) return val(as_int(a.v) * as_int(b.v));
      return val(num(a, "*") * num(b, "*"));
    }
    if (op == "/") {
      const double d = num(b, "/");
      if (d == 0) fail("division by zero");
      return val(num(a, "/") / d);
    }
    if (op == "//" || op == "%") {
      if (both_ints(a, b)) {
        const int64_t x = as_int(a.v), y = as_int(b.v);
        if (y == 0) fail("integer division or modulo by zero");
        int64_t q = x / y, r = x % y;
        if (r != 0 && ((r < 0) != (y < 0))) {
          --q;
          r += y;
        }
        return val(op == "//" ? q : r);
      }
      const double x = num(a, op.c_str()), y = num(b, op.c_str());
      if (y == 0) fail("float division or modulo by zero");
      const double q = std::floor(x / y);
      return val(op == "//" ? q : x - q * y);
    }
    if (op == "**") {
      if (both_ints(a, b) && as_int(b.v) >= 0 && as_int(b.v) <= 64) {
        int64_t r = 1;
        for (int64_t k = 0; k < as_int(b.v); ++k) r *= as_int(a.v);
        return val(r);
      }
      return val(std::pow(num(a, "**"), num(b, "**")));
    }
    fail("unsupported operator " + op);
  }

  std::vector<Value> args_of(const Expr& e, size_t skip) {
    std::vector<Value> out;
    for (size_t k = skip; k < e.args.size(); ++k) out.push_back(eval(*e.args[k]));
    return out;
  }
  const Expr* kwarg(const Expr& e, std::string_view key) const {
    for (const auto& [k, v] : e.kwargs)
      if (k == key) return v.get();
    return nullptr;
  }
  // Positional argument `pos` (after the subject) or keyword `key`, or nullopt.
  std::optional<Value> arg(const Expr& e, size_t pos, std::string_view key, size_t skip = 1) {
    if (e.args.size() > skip + pos) return eval(*e.args[skip + pos]);
    if (const Expr* k = kwarg(e, key)) return eval(*k);
    return std::nullopt;
  }

  Value call(const Expr& e) {
    const Expr& callee = *e.args[0];
    if (callee.kind == Expr::Kind::name) {
      const std::string& f = callee.name;
      if (f == "raise_exception") {
        auto msg = arg(e, 0, "message");
        throw ChatTemplateError("chat template raised: " + (msg ? to_str(*msg) : std::string()));
      }
      if (f == "namespace" || f == "dict") {
        auto obj = std::make_shared<J>(J::object());
        for (size_t k = 1; k < e.args.size(); ++k) {
          Value v = eval(*e.args[k]);
          if (v.data().is_object())
            for (const auto& [key, x] : v.data().items()) (*obj)[key] = x;
        }
        for (const auto& [k, v] : e.kwargs) {
          Value x = eval(*v);
          (*obj)[k] = x.undefined ? J() : x.data();
        }
        if (f == "dict") return val(*obj);
        return Value{J(), false, obj};
      }
      if (f == "range") {
        std::vector<Value> a = args_of(e, 1);
        int64_t start = 0, stop = 0, step = 1;
        for (auto& x : a)
          if (!x.v.is_number_integer()) fail("range() takes integers");
        if (a.size() == 1) stop = a[0].v.get<int64_t>();
        else if (a.size() >= 2) {
          start = a[0].v.get<int64_t>();
          stop = a[1].v.get<int64_t>();
          if (a.size() >= 3) step = a[2].v.get<int64_t>();
        }
        if (step == 0) fail("range() step must not be zero");
        J out = J::array();
        for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) {
          out.push_back(i);
          if (out.size() > 100000) fail("range() too large");
        }
        return val(std::move(out));
      }
      if (f == "strftime_now") {
        auto fmt = arg(e, 0, "format");
        const std::time_t t = std::time(nullptr);
        std::tm tm{};
        localtime_r(&t, &tm);
        char buf[256];
        const size_t n = std::strftime(buf, sizeof buf, fmt ? to_str(*fmt).c_str() : "", &tm);
        return val(std::string(buf, n));
      }
      fail("unknown function '" + f + "'");
    }
    if (callee.kind != Expr::Kind::member || !callee.literal.is_null()) fail("only methods and globals can be called");
    const Value subject = eval(*callee.args[0]);
    if (subject.undefined) fail("'" + describe(*callee.args[0]) + "' is undefined");
    const std::string& m = callee.name;
    const J& d = subject.data();
    if (d.is_string()) {
      const std::string& s = d.get_ref<const std::string&>();
      if (m == "startswith" || m == "endswith") {
        auto x = arg(e, 0, "prefix");
        if (!x) fail(m + "() takes an argument");
        std::vector<std::string> cands;
        if (x->v.is_array())
          for (const J& c : x->v) cands.push_back(c.get<std::string>());
        else if (x->v.is_string()) cands.push_back(x->v.get<std::string>());
        else fail(m + "() argument must be str or a tuple of str");
        for (const auto& c : cands) {
          if (m == "startswith" ? s.rfind(c, 0) == 0 : (s.size() >= c.size() && s.compare(s.size() - c.size(), c.size(), c) == 0))
            return val(true);
        }
        return val(false);
      }
      if (m == "strip" || m == "lstrip" || m == "rstrip") {
        auto chars = arg(e, 0, "chars");
        return val(strip_chars(s, chars ? &*chars : nullptr, m != "rstrip", m != "lstrip"));
      }
      if (m == "split") {
        auto sep = arg(e, 0, "sep");
        auto maxsplit = arg(e, 1, "maxsplit");
        return val(split_string(s, sep ? &*sep : nullptr, maxsplit ? maxsplit->v.get<int64_t>() : -1));
      }
      if (m == "upper") return val(upper(s));
      if (m == "lower") return val(lower(s));
      if (m == "title") return val(title(s));
      if (m == "capitalize") return val(capitalize(s));
      if (m == "replace") {
        auto a = arg(e, 0, "old"), b = arg(e, 1, "new"), c = arg(e, 2, "count");
        if (!a || !b) fail("replace() takes two arguments");
        return val(replace_all(s, to_str(*a), to_str(*b), c ? c->v.get<int64_t>() : -1));
      }
      if (m == "find") {
        auto a = arg(e, 0, "sub");
        const size_t at = a ? s.find(to_str(*a)) : std::string::npos;
        return val(at == std::string::npos ? int64_t{-1} : static_cast<int64_t>(code_points(s.substr(0, at)).size()));
      }
      if (m == "join") {
        auto a = arg(e, 0, "iterable");
        std::string r;
        bool first = true;
        for (const J& x : iterate(a ? *a : Value::undef())) {
          if (!first) r += s;
          first = false;
          r += x.is_string() ? x.get<std::string>() : to_str(val(x));
        }
        return val(r);
      }
    } else if (d.is_object()) {
      if (m == "items") {
        J out = J::array();
        for (const auto& [k, x] : d.items()) out.push_back(J::array({k, x}));
        return val(std::move(out));
      }
      if (m == "keys" || m == "values") {
        J out = J::array();
        for (const auto& [k, x] : d.items()) out.push_back(m == "keys" ? J(k) : x);
        return val(std::move(out));
      }
      if (m == "get") {
        auto k = arg(e, 0, "key");
        auto dflt = arg(e, 1, "default");
        if (k && k->v.is_string())
          if (auto it = d.find(k->v.get<std::string>()); it != d.end()) return val(*it);
        return dflt ? *dflt : val(nullptr);
      }
    }
    fail("unsupported method '" + m + "'");
  }

  bool test(const Expr& e) {
    const std::string& t = e.name;
    if (t == "defined") return !eval(*e.args[0]).undefined;
    if (t == "undefined") return eval(*e.args[0]).undefined;
    const Value x = eval(*e.args[0]);
    const J& d = x.data();
    const bool def = !x.undefined;
    if (t == "none") return def && d.is_null();
    if (t == "string") return def && d.is_string();
    if (t == "number") return def && d.is_number();
    if (t == "integer") return def && d.is_number_integer();
    if (t == "float") return def && d.is_number_float();
    if (t == "boolean") return def && d.is_boolean();
    if (t == "true") return def && d.is_boolean() && d.get<bool>();
    if (t == "false") return def && d.is_boolean() && !d.get<bool>();
    if (t == "mapping") return def && d.is_object();
    if (t == "iterable") return def && (d.is_array() || d.is_object() || d.is_string());
    if (t == "sequence") return def && (d.is_array() || d.is_object() || d.is_string());
    if (t == "callable") return false;
    if (t == "lower" || t == "upper") {
      if (!d.is_string()) return false;
      const std::string& s = d.get_ref<const std::string&>();
      return t == "lower" ? lower(s) == s : upper(s) == s;
    }
    if (t == "even" || t == "odd") {
      if (!d.is_number_integer()) fail("test '" + t + "' needs an integer");
      return (d.get<int64_t>() % 2 == 0) == (t == "even");
    }
    if (t == "divisibleby") {
      auto n = arg(e, 0, "num");
      if (!n || !d.is_number_integer() || !n->v.is_number_integer() || n->v.get<int64_t>() == 0)
        fail("divisibleby needs integers");
      return d.get<int64_t>() % n->v.get<int64_t>() == 0;
    }
    if (t == "equalto" || t == "eq" || t == "==" || t == "sameas") {
      auto o = arg(e, 0, "other");
      return o && py_eq(x, *o);
    }
    if (t == "ne" || t == "!=") {
      auto o = arg(e, 0, "other");
      return !(o && py_eq(x, *o));
    }
    if (t == "in") {
      auto o = arg(e, 0, "seq");
      if (!o) return false;
      if (o->v.is_array())
        for (const J& y : o->v)
          if (py_eq(x, val(y))) return true;
      if (o->v.is_string() && d.is_string())
        return o->v.get_ref<const std::string&>().find(d.get_ref<const std::string&>()) != std::string::npos;
      if (o->v.is_object() && d.is_string()) return o->v.contains(d.get<std::string>());
      return false;
    }
    fail("unsupported test '" + t + "'");
  }

  // Applies a filter by name to a value (used by `map('filter')` too).
  Value filter_value(const std::string& f, const Value& x, const Expr* e) {
    const J& d = x.data();
    auto arg_or = [&](size_t pos, std::string_view key) -> std::optional<Value> {
      return e ? arg(*e, pos, key) : std::nullopt;
    };
    if (f == "length" || f == "count") {
      if (x.undefined) return val(0);
      if (d.is_string()) return val(code_points(d.get_ref<const std::string&>()).size());
      if (d.is_array() || d.is_object()) return val(d.size());
      fail("object of this type has no len()");
    }
    if (f == "tojson") {
      auto indent = arg_or(0, "indent");
      auto sort_keys = kwarg_value(e, "sort_keys");
      auto separators = kwarg_value(e, "separators");
      const int ind = indent && indent->v.is_number_integer() ? static_cast<int>(indent->v.get<int64_t>()) : -1;
      std::string item_sep = ind >= 0 ? "," : ", ", key_sep = ": ";
      if (separators && separators->v.is_array() && separators->v.size() == 2) {
        item_sep = separators->v[0].get<std::string>();
        key_sep = separators->v[1].get<std::string>();
      }
      if (x.undefined) fail("Object of type Undefined is not JSON serializable");
      std::string out;
      py_json(d, out, ind, 0, item_sep, key_sep, sort_keys && truthy(*sort_keys));
      return val(out);
    }
    if (f == "default" || f == "d") {
      auto dflt = arg_or(0, "default_value");
      auto boolean = arg_or(1, "boolean");
      const bool use = x.undefined || (boolean && truthy(*boolean) && !truthy(x));
      if (use) return dflt ? *dflt : val("");
      return x;
    }
    if (f == "safe" || f == "e" || f == "escape") {
      if (f == "safe") return x;
      fail("escape filter is not supported");
    }
    if (x.undefined && (f == "trim" || f == "upper" || f == "lower" || f == "string" || f == "title" || f == "capitalize"))
      return val(std::string());
    if (f == "string") return val(to_str(x));
    if (f == "trim") {
      auto chars = arg_or(0, "chars");
      return val(strip_chars(to_str(x), chars ? &*chars : nullptr, true, true));
    }
    if (f == "upper") return val(upper(to_str(x)));
    if (f == "lower") return val(lower(to_str(x)));
    if (f == "title") return val(title(to_str(x)));
    if (f == "capitalize") return val(capitalize(to_str(x)));
    if (f == "replace") {
      auto a = arg_or(0, "old"), b = arg_or(1, "new"), c = arg_or(2, "count");
      if (!a || !b) fail("replace takes two arguments");
      return val(replace_all(to_str(x), to_str(*a), to_str(*b), c ? c->v.get<int64_t>() : -1));
    }
    if (f == "first" || f == "last") {
      std::vector<J> items = iterate(x);
      if (items.empty()) return Value::undef();
      return val(f == "first" ? items.front() : items.back());
    }
    if (f == "list") {
      J out = J::array();
      for (J& item : iterate(x)) out.push_back(std::move(item));
      return val(std::move(out));
    }
    if (f == "reverse") {
      if (d.is_string()) {
        auto cps = code_points(d.get_ref<const std::string&>());
        std::string r;
        for (auto it = cps.rbegin(); it != cps.rend(); ++it) r += *it;
        return val(r);
      }
      std::vector<J> items = iterate(x);
      return val(J(std::vector<J>(items.rbegin(), items.rend())));
    }
    if (f == "join") {
      auto sep = arg_or(0, "d");
      auto attribute = e ? kwarg_value(e, "attribute") : std::nullopt;
      std::string r;
      bool first = true;
      for (const J& item : iterate(x)) {
        if (!first) r += sep ? to_str(*sep) : "";
        first = false;
        Value v = val(item);
        if (attribute) v = index(v, *attribute);
        r += to_str(v);
      }
      return val(r);
    }
    if (f == "int") {
      if (d.is_number()) return val(static_cast<int64_t>(d.get<double>()));
      if (d.is_boolean()) return val(d.get<bool>() ? 1 : 0);
      if (d.is_string()) {
        try {
          return val(std::stoll(d.get<std::string>()));
        } catch (...) {
          return val(0);
        }
      }
      return val(0);
    }
    if (f == "float") {
      if (d.is_number()) return val(d.get<double>());
      return val(0.0);
    }
    if (f == "abs") {
      if (d.is_number_integer()) return val(std::llabs(d.get<int64_t>()));
      return val(std::fabs(num(x, "abs")));
    }
    if (f == "items") {
      if (!d.is_object()) fail("items filter needs a mapping");
      J out = J::array();
      for (const auto& [k, v] : d.items()) out.push_back(J::array({k, v}));
      return val(std::move(out));
    }
    if (f == "map" && e) {
      J out = J::array();
      auto attribute = kwarg_value(e, "attribute");
      std::optional<Value> fname = e->args.size() > 1 ? std::optional<Value>(eval(*e->args[1])) : std::nullopt;
      for (const J& item : iterate(x)) {
        if (attribute) {
          Value v = index(val(item), *attribute);
          if (v.undefined) {
            if (auto dflt = kwarg_value(e, "default")) v = *dflt;
          }
          out.push_back(v.undefined ? J() : v.data());
        } else if (fname) {
          out.push_back(filter_value(to_str(*fname), val(item), nullptr).data());
        } else {
          fail("map needs an attribute or a filter name");
        }
      }
      return val(std::move(out));
    }
    if ((f == "selectattr" || f == "rejectattr" || f == "select" || f == "reject") && e) {
      const bool by_attr = f == "selectattr" || f == "rejectattr";
      const bool keep_if = f == "selectattr" || f == "select";
      size_t k = 1;
      std::optional<Value> attribute;
      if (by_attr) {
        if (e->args.size() <= k) fail(f + " needs an attribute");
        attribute = eval(*e->args[k++]);
      }
      std::optional<std::string> test_name;
      if (e->args.size() > k) test_name = to_str(eval(*e->args[k++]));
      std::vector<Value> test_args;
      for (; k < e->args.size(); ++k) test_args.push_back(eval(*e->args[k]));
      J out = J::array();
      for (const J& item : iterate(x)) {
        Value v = attribute ? index(val(item), *attribute) : val(item);
        bool r;
        if (!test_name) r = truthy(v);
        else r = apply_test(*test_name, v, test_args);
        if (r == keep_if) out.push_back(item);
      }
      return val(std::move(out));
    }
    fail("unsupported filter '" + f + "'");
  }

  bool apply_test(const std::string& name, const Value& v, const std::vector<Value>& args) {
    // Build a tiny test expression around literal values.
    Expr t;
    t.kind = Expr::Kind::test;
    t.name = name;
    frames_.push_back({});
    bind("__subject", v);
    auto s = make(Expr::Kind::name);
    s->name = "__subject";
    t.args.push_back(std::move(s));
    for (size_t k = 0; k < args.size(); ++k) {
      const std::string n = "__arg" + std::to_string(k);
      bind(n, args[k]);
      auto a = make(Expr::Kind::name);
      a->name = n;
      t.args.push_back(std::move(a));
    }
    const bool r = test(t);
    frames_.pop_back();
    return r;
  }

  std::optional<Value> kwarg_value(const Expr* e, std::string_view key) {
    if (!e) return std::nullopt;
    if (const Expr* k = kwarg(*e, key)) return eval(*k);
    return std::nullopt;
  }

  Value filter(const Expr& e) { return filter_value(e.name, eval(*e.args[0]), &e); }

  std::vector<Scope> frames_;
};

// Transformers' message preparation: keys whose value is None are dropped; a reasoning field
// (reasoning_content, thinking, reasoning) is copied to "thinking" (first) and
// "reasoning_content" (last).
J prepare_messages(const J& messages) {
  J out = J::array();
  if (!messages.is_array()) return out;
  for (const J& m : messages) {
    if (!m.is_object()) {
      out.push_back(m);
      continue;
    }
    J msg = J::object();
    for (const auto& [k, v] : m.items())
      if (!v.is_null()) msg[k] = v;
    const J* reasoning = nullptr;
    for (const char* key : {"reasoning_content", "thinking", "reasoning"}) {
      if (auto it = msg.find(key); it != msg.end()) {
        reasoning = &*it;
        break;
      }
    }
    if (reasoning) {
      const J r = *reasoning;
      J aliased = J::object();
      aliased["thinking"] = r;
      for (const auto& [k, v] : msg.items()) aliased[k] = v;
      aliased.erase("reasoning_content");
      aliased["reasoning_content"] = r;
      msg = std::move(aliased);
    }
    out.push_back(std::move(msg));
  }
  return out;
}

}  // namespace

struct ChatTemplate::Impl {
  Body body;
  std::map<std::string, std::string> special_tokens;
};

namespace {
Body compile(std::string_view source) {
  try {
    return TemplateParser(lex(source)).parse_top();
  } catch (const ChatTemplateError&) {
    throw;
  } catch (const std::exception& e) {  // number literals out of range, ...
    fail(std::string("cannot compile: ") + e.what());
  }
}
}  // namespace

ChatTemplate::ChatTemplate(std::string_view source, std::map<std::string, std::string> special_tokens)
    : impl_(std::make_unique<Impl>(Impl{compile(source), std::move(special_tokens)})) {}
ChatTemplate::~ChatTemplate() = default;
ChatTemplate::ChatTemplate(ChatTemplate&&) noexcept = default;
ChatTemplate& ChatTemplate::operator=(ChatTemplate&&) noexcept = default;

std::string ChatTemplate::render(const nlohmann::ordered_json& messages, bool add_generation_prompt) const {
  J globals = J::object();
  for (const auto& [k, v] : impl_->special_tokens) globals[k] = v;
  globals["messages"] = prepare_messages(messages);
  globals["tools"] = nullptr;
  globals["documents"] = nullptr;
  globals["add_generation_prompt"] = add_generation_prompt;
  Renderer r(globals, 0);
  std::string out;
  try {
    r.render(impl_->body, out);
  } catch (const ChatTemplateError&) {
    throw;
  } catch (const nlohmann::json::exception& e) {
    fail(std::string("type error: ") + e.what());
  } catch (const std::exception& e) {  // out_of_range, invalid_argument, length_error, ...
    fail(std::string("error: ") + e.what());
  }
  return out;
}

}  // namespace aiperf::endpoints
