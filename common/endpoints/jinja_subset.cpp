#include "endpoints/jinja_subset.h"

#include <cctype>
#include <stdexcept>
#include <variant>
#include <vector>

#include "endpoints/jinja_nesting.h"

namespace aiperf::endpoints {

using nlohmann::json;

namespace {

[[noreturn]] void fail(const std::string& what) { throw std::invalid_argument("payload_template: " + what); }

// ---- values --------------------------------------------------------------------------------

struct Value {
  json v;
  bool safe = false;       // already escaped (tojson output): printed verbatim
  bool undefined = false;  // unknown name or missing member: prints as ""
};

bool truthy(const Value& x) {
  if (x.undefined) return false;
  const json& v = x.v;
  if (v.is_null()) return false;
  if (v.is_boolean()) return v.get<bool>();
  if (v.is_number()) return v.get<double>() != 0.0;
  if (v.is_string() || v.is_array() || v.is_object()) return !v.empty();
  return true;
}

void html_escape(std::string_view s, std::string& out) {
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&#34;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
}

// Jinja's tojson: JSON with <, >, & and ' as \u escapes so the result is HTML-safe.
std::string to_json(const json& v) {
  const std::string dumped = v.dump();
  std::string out;
  out.reserve(dumped.size());
  for (char c : dumped) {
    switch (c) {
      case '<': out += "\\u003c"; break;
      case '>': out += "\\u003e"; break;
      case '&': out += "\\u0026"; break;
      case '\'': out += "\\u0027"; break;
      default: out += c;
    }
  }
  return out;
}

// How Jinja prints a value: Python's str() for scalars (None, True, False); containers are
// printed as JSON, an approximation of Python's repr.
void print(const Value& x, std::string& out) {
  if (x.undefined) return;
  const json& v = x.v;
  if (v.is_string()) {
    if (x.safe) out += v.get_ref<const std::string&>();
    else html_escape(v.get_ref<const std::string&>(), out);
  } else if (v.is_null()) {
    out += "None";
  } else if (v.is_boolean()) {
    out += v.get<bool>() ? "True" : "False";
  } else if (x.safe) {
    out += v.dump();
  } else {
    html_escape(v.dump(), out);
  }
}

// ---- expressions ---------------------------------------------------------------------------

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Expr {
  enum class Kind { literal, name, member, index, not_, and_, or_, eq, ne, filter } kind;
  json literal;
  std::string name;                 // name, member, filter name
  std::vector<ExprPtr> operands;    // member/index/not/filter: [0] the subject; binary: [0], [1]; filter args follow
  int depth = 1;                    // nesting below and including this node
};

ExprPtr make(Expr::Kind kind) {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  return e;
}

// Records a node's depth, refusing it past the bound: `a.b.b...`, `x|first|first...` and
// `x or x or ...` build deep trees in a loop, without the parser recursing (jinja_nesting.h).
ExprPtr checked(ExprPtr e) {
  e->depth = jinja::node_depth(e->operands, 0, fail);
  return e;
}

class ExprParser {
 public:
  explicit ExprParser(std::string_view src) : s_(src) {}

  ExprPtr parse_all() {
    ExprPtr e = parse_or();
    skip_ws();
    if (pos_ != s_.size()) fail("unexpected '" + std::string(s_.substr(pos_)) + "' in expression '" + std::string(s_) + "'");
    return e;
  }

  // "x in expr" of a for tag.
  static std::pair<std::string, ExprPtr> parse_for(std::string_view src) {
    ExprParser p(src);
    std::string var = p.identifier();
    if (var.empty()) fail("for: expected a loop variable in '" + std::string(src) + "'");
    if (p.identifier() != "in") fail("for: expected 'in' in '" + std::string(src) + "'");
    return {var, p.parse_all()};
  }

 private:
  void skip_ws() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool eat(std::string_view token) {
    skip_ws();
    if (s_.substr(pos_, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }
  // Consumes a keyword only when it is a whole word.
  bool eat_word(std::string_view word) {
    skip_ws();
    const size_t save = pos_;
    if (identifier() == word) return true;
    pos_ = save;
    return false;
  }
  std::string identifier() {
    skip_ws();
    const size_t start = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
    if (start < s_.size() && std::isdigit(static_cast<unsigned char>(s_[start]))) {
      pos_ = start;
      return {};
    }
    return std::string(s_.substr(start, pos_ - start));
  }

  // Every nesting (parentheses, "not", subscripts, filter arguments) passes through parse_or or
  // parse_not: bounded there, so a deeply nested template is refused instead of overflowing the
  // stack while parsing, rendering or destroying it.
  ExprPtr parse_or() {
    const jinja::NestingGuard nest(depth_, jinja::NestingGuard::Of::expression, fail);
    ExprPtr left = parse_and();
    while (eat_word("or")) {
      ExprPtr e = make(Expr::Kind::or_);
      e->operands.push_back(std::move(left));
      e->operands.push_back(parse_and());
      left = checked(std::move(e));
    }
    return left;
  }
  ExprPtr parse_and() {
    ExprPtr left = parse_not();
    while (eat_word("and")) {
      ExprPtr e = make(Expr::Kind::and_);
      e->operands.push_back(std::move(left));
      e->operands.push_back(parse_not());
      left = checked(std::move(e));
    }
    return left;
  }
  ExprPtr parse_not() {
    const jinja::NestingGuard nest(depth_, jinja::NestingGuard::Of::expression, fail);
    if (eat_word("not")) {
      ExprPtr e = make(Expr::Kind::not_);
      e->operands.push_back(parse_not());
      return checked(std::move(e));
    }
    return parse_compare();
  }
  ExprPtr parse_compare() {
    ExprPtr left = parse_filtered();
    for (auto [op, kind] : {std::pair{"==", Expr::Kind::eq}, std::pair{"!=", Expr::Kind::ne}}) {
      if (eat(op)) {
        ExprPtr e = make(kind);
        e->operands.push_back(std::move(left));
        e->operands.push_back(parse_filtered());
        return checked(std::move(e));
      }
    }
    return left;
  }
  ExprPtr parse_filtered() {
    ExprPtr subject = parse_postfix();
    while (eat("|")) {
      ExprPtr e = make(Expr::Kind::filter);
      e->name = identifier();
      static const char* kFilters[] = {"tojson", "length", "first", "last", "join", "default"};
      bool known = false;
      for (const char* f : kFilters) known |= e->name == f;
      if (!known) fail("unsupported filter '" + e->name + "'");
      e->operands.push_back(std::move(subject));
      if (eat("(")) {
        if (!eat(")")) {
          do e->operands.push_back(parse_or());
          while (eat(","));
          if (!eat(")")) fail("expected ')' after filter arguments");
        }
      }
      subject = checked(std::move(e));
    }
    return subject;
  }
  ExprPtr parse_postfix() {
    ExprPtr e = parse_primary();
    for (;;) {
      if (eat(".")) {
        ExprPtr m = make(Expr::Kind::member);
        m->name = identifier();
        if (m->name.empty()) fail("expected a name after '.'");
        m->operands.push_back(std::move(e));
        e = checked(std::move(m));
      } else if (eat("[")) {
        ExprPtr i = make(Expr::Kind::index);
        i->operands.push_back(std::move(e));
        i->operands.push_back(parse_or());
        if (!eat("]")) fail("expected ']'");
        e = checked(std::move(i));
      } else {
        return e;
      }
    }
  }
  ExprPtr parse_primary() {
    skip_ws();
    if (pos_ >= s_.size()) fail("expression ends early: '" + std::string(s_) + "'");
    const char c = s_[pos_];
    if (c == '(') {
      ++pos_;
      ExprPtr e = parse_or();
      if (!eat(")")) fail("expected ')'");
      return e;
    }
    if (c == '"' || c == '\'') {
      ++pos_;
      std::string text;
      while (pos_ < s_.size() && s_[pos_] != c) {
        if (s_[pos_] == '\\' && pos_ + 1 < s_.size()) {
          ++pos_;
          const char esc = s_[pos_];
          text += esc == 'n' ? '\n' : esc == 't' ? '\t' : esc;
        } else {
          text += s_[pos_];
        }
        ++pos_;
      }
      if (pos_ >= s_.size()) fail("unterminated string literal");
      ++pos_;
      ExprPtr e = make(Expr::Kind::literal);
      e->literal = std::move(text);
      return e;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '-') {
      const size_t start = pos_++;
      while (pos_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '.')) ++pos_;
      ExprPtr e = make(Expr::Kind::literal);
      e->literal = json::parse(s_.substr(start, pos_ - start), nullptr, false);
      if (e->literal.is_discarded()) fail("bad number in '" + std::string(s_) + "'");
      return e;
    }
    std::string id = identifier();
    if (id.empty()) fail("unexpected '" + std::string(1, c) + "' in expression '" + std::string(s_) + "'");
    ExprPtr e = make(Expr::Kind::literal);
    if (id == "true" || id == "True") e->literal = true;
    else if (id == "false" || id == "False") e->literal = false;
    else if (id == "none" || id == "None") e->literal = nullptr;
    else {
      e->kind = Expr::Kind::name;
      e->name = std::move(id);
    }
    return e;
  }

  std::string_view s_;
  size_t pos_ = 0;
  int depth_ = 0;  // parse_or / parse_not calls in progress
};

// ---- template nodes ------------------------------------------------------------------------

struct Node;
using Body = std::vector<Node>;

struct TextNode { std::string text; };
struct OutputNode { ExprPtr expr; };
struct IfNode {
  std::vector<std::pair<ExprPtr, Body>> branches;  // if / elif conditions in order
  Body otherwise;
};
struct ForNode {
  std::string var;
  ExprPtr iterable;
  Body body;
};
struct Node {
  std::variant<TextNode, OutputNode, IfNode, ForNode> v;
};

// A lexed piece: raw text or the inside of a {{ }} / {% %} tag.
struct Piece {
  enum class Kind { text, output, statement } kind;
  std::string content;
};

std::vector<Piece> lex(std::string_view src) {
  std::vector<Piece> pieces;
  bool strip_next = false;  // the previous tag ended with '-': strip leading whitespace
  size_t pos = 0;
  auto add_text = [&](std::string text) {
    if (strip_next) {
      const size_t first = text.find_first_not_of(" \t\r\n");
      text.erase(0, first == std::string::npos ? text.size() : first);
    }
    strip_next = false;
    if (!text.empty()) pieces.push_back({Piece::Kind::text, std::move(text)});
  };
  while (pos < src.size()) {
    const size_t open = src.find('{', pos);
    if (open == std::string_view::npos || open + 1 >= src.size()) {
      add_text(std::string(src.substr(pos)));
      break;
    }
    const char kind = src[open + 1];
    if (kind != '{' && kind != '%' && kind != '#') {
      add_text(std::string(src.substr(pos, open + 1 - pos)));  // a plain '{', e.g. a JSON object
      pos = open + 1;
      continue;
    }
    const std::string_view close = kind == '{' ? "}}" : kind == '%' ? "%}" : "#}";
    const size_t end = src.find(close, open + 2);
    if (end == std::string_view::npos) fail("unclosed '{" + std::string(1, kind) + "'");
    std::string before(src.substr(pos, open - pos));
    std::string_view inner = src.substr(open + 2, end - open - 2);
    const bool strip_before = !inner.empty() && inner.front() == '-';
    const bool strip_after = !inner.empty() && inner.back() == '-' && kind != '#';
    if (strip_before) {
      inner.remove_prefix(1);
      const size_t last = before.find_last_not_of(" \t\r\n");
      before.erase(last == std::string::npos ? 0 : last + 1);
    }
    if (strip_after && !inner.empty()) inner.remove_suffix(1);  // "{%-%}": one '-' strips both sides
    add_text(std::move(before));
    if (kind != '#') {
      pieces.push_back({kind == '{' ? Piece::Kind::output : Piece::Kind::statement, std::string(inner)});
    }
    strip_next = strip_after;
    pos = end + 2;
  }
  // Merge adjacent text pieces (a lone '{' splits a run).
  std::vector<Piece> merged;
  for (Piece& p : pieces) {
    if (p.kind == Piece::Kind::text && !merged.empty() && merged.back().kind == Piece::Kind::text)
      merged.back().content += p.content;
    else
      merged.push_back(std::move(p));
  }
  return merged;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Splits a statement into its keyword and the rest.
std::pair<std::string_view, std::string_view> keyword(std::string_view stmt) {
  stmt = trim(stmt);
  size_t i = 0;
  while (i < stmt.size() && (std::isalpha(static_cast<unsigned char>(stmt[i])) || stmt[i] == '_')) ++i;
  return {stmt.substr(0, i), trim(stmt.substr(i))};
}

class TemplateParser {
 public:
  explicit TemplateParser(std::vector<Piece> pieces) : pieces_(std::move(pieces)) {}

  Body parse_top() {
    Body body = parse_body({});
    if (pos_ != pieces_.size()) fail("unexpected {% " + std::string(keyword(pieces_[pos_].content).first) + " %}");
    return body;
  }

 private:
  // Parses nodes until one of `stops` (a statement keyword, left unconsumed) or the end.
  Body parse_body(std::initializer_list<std::string_view> stops) {
    // Blocks nest by recursion here (and when rendering): bounded, like expressions.
    const jinja::NestingGuard guard(nesting_, jinja::NestingGuard::Of::block, fail);
    Body body;
    while (pos_ < pieces_.size()) {
      Piece& p = pieces_[pos_];
      if (p.kind == Piece::Kind::text) {
        body.push_back(Node{TextNode{std::move(p.content)}});
        ++pos_;
      } else if (p.kind == Piece::Kind::output) {
        body.push_back(Node{OutputNode{ExprParser(p.content).parse_all()}});
        ++pos_;
      } else {
        auto [kw, rest] = keyword(p.content);
        for (std::string_view stop : stops)
          if (kw == stop) return body;
        ++pos_;
        if (kw == "if") body.push_back(parse_if(rest));
        else if (kw == "for") body.push_back(parse_for(rest));
        else fail("unsupported tag {% " + std::string(kw) + " %}");
      }
    }
    return body;
  }

  std::string_view expect_statement(std::initializer_list<std::string_view> kws, const char* context) {
    if (pos_ >= pieces_.size() || pieces_[pos_].kind != Piece::Kind::statement)
      fail(std::string("missing end of ") + context);
    auto [kw, rest] = keyword(pieces_[pos_].content);
    for (std::string_view k : kws)
      if (kw == k) return kw;
    fail(std::string("unexpected {% ") + std::string(kw) + " %} in " + context);
  }

  Node parse_if(std::string_view condition) {
    IfNode node;
    ExprPtr cond = ExprParser(condition).parse_all();
    for (;;) {
      Body body = parse_body({"elif", "else", "endif"});
      node.branches.emplace_back(std::move(cond), std::move(body));
      const std::string_view kw = expect_statement({"elif", "else", "endif"}, "{% if %}");
      const std::string rest(keyword(pieces_[pos_].content).second);
      ++pos_;
      if (kw == "elif") {
        cond = ExprParser(rest).parse_all();
        continue;
      }
      if (kw == "else") {
        node.otherwise = parse_body({"endif"});
        expect_statement({"endif"}, "{% if %}");
        ++pos_;
      }
      return Node{std::move(node)};
    }
  }

  Node parse_for(std::string_view header) {
    auto [var, iterable] = ExprParser::parse_for(header);
    ForNode node{std::move(var), std::move(iterable), parse_body({"endfor"})};
    expect_statement({"endfor"}, "{% for %}");
    ++pos_;
    return Node{std::move(node)};
  }

  std::vector<Piece> pieces_;
  size_t pos_ = 0;
  int nesting_ = 0;  // parse_body calls in progress
};

// ---- evaluation ----------------------------------------------------------------------------

class Renderer {
 public:
  explicit Renderer(const json& vars) : vars_(vars) {}

  void render(const Body& body, std::string& out) {
    for (const Node& node : body) {
      if (const auto* t = std::get_if<TextNode>(&node.v)) {
        out += t->text;
      } else if (const auto* o = std::get_if<OutputNode>(&node.v)) {
        print(eval(*o->expr), out);
      } else if (const auto* i = std::get_if<IfNode>(&node.v)) {
        bool taken = false;
        for (const auto& [cond, branch] : i->branches) {
          if (truthy(eval(*cond))) {
            render(branch, out);
            taken = true;
            break;
          }
        }
        if (!taken) render(i->otherwise, out);
      } else if (const auto* f = std::get_if<ForNode>(&node.v)) {
        render_for(*f, out);
      }
    }
  }

 private:
  void render_for(const ForNode& f, std::string& out) {
    const Value iterable = eval(*f.iterable);
    std::vector<json> items;
    if (iterable.v.is_array()) {
      items.assign(iterable.v.begin(), iterable.v.end());
    } else if (iterable.v.is_object()) {
      for (const auto& item : iterable.v.items()) items.emplace_back(item.key());  // dict: its keys
    } else if (!iterable.undefined && !iterable.v.is_null()) {
      fail("for: cannot iterate over " + iterable.v.dump());
    }
    const size_t n = items.size();
    for (size_t k = 0; k < n; ++k) {
      json loop = {{"index", k + 1}, {"index0", k}, {"first", k == 0}, {"last", k + 1 == n}, {"length", n}};
      scopes_.push_back({{f.var, std::move(items[k])}, {"loop", std::move(loop)}});
      render(f.body, out);
      scopes_.pop_back();
    }
  }

  Value lookup(const std::string& name) const {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      if (auto found = it->find(name); found != it->end()) return {found->second};
    }
    if (auto found = vars_.find(name); found != vars_.end()) return {*found};
    return {json(), false, true};
  }

  Value eval(const Expr& e) {
    switch (e.kind) {
      case Expr::Kind::literal: return {e.literal};
      case Expr::Kind::name: return lookup(e.name);
      case Expr::Kind::member: {
        const Value subject = eval(*e.operands[0]);
        if (subject.v.is_object()) {
          if (auto it = subject.v.find(e.name); it != subject.v.end()) return {*it};
        }
        return {json(), false, true};
      }
      case Expr::Kind::index: {
        const Value subject = eval(*e.operands[0]);
        const Value key = eval(*e.operands[1]);
        if (subject.v.is_array() && key.v.is_number_integer()) {
          int64_t i = key.v.get<int64_t>();
          const auto n = static_cast<int64_t>(subject.v.size());
          if (i < 0) i += n;
          if (i >= 0 && i < n) return {subject.v[static_cast<size_t>(i)]};
        } else if (subject.v.is_object() && key.v.is_string()) {
          if (auto it = subject.v.find(key.v.get<std::string>()); it != subject.v.end()) return {*it};
        }
        return {json(), false, true};
      }
      case Expr::Kind::not_: return {!truthy(eval(*e.operands[0]))};
      case Expr::Kind::and_: {
        Value left = eval(*e.operands[0]);
        return truthy(left) ? eval(*e.operands[1]) : left;
      }
      case Expr::Kind::or_: {
        Value left = eval(*e.operands[0]);
        return truthy(left) ? left : eval(*e.operands[1]);
      }
      case Expr::Kind::eq: return {eval(*e.operands[0]).v == eval(*e.operands[1]).v};
      case Expr::Kind::ne: return {eval(*e.operands[0]).v != eval(*e.operands[1]).v};
      case Expr::Kind::filter: return apply_filter(e);
    }
    return {};
  }

  Value apply_filter(const Expr& e) {
    Value subject = eval(*e.operands[0]);
    const std::string& f = e.name;
    if (f == "tojson") return {to_json(subject.undefined ? json() : subject.v), true};
    if (f == "default") {
      if (!subject.undefined) return subject;
      return e.operands.size() > 1 ? eval(*e.operands[1]) : Value{""};
    }
    if (f == "length") {
      const json& v = subject.v;
      if (v.is_string()) return {v.get_ref<const std::string&>().size()};
      return {v.is_array() || v.is_object() ? v.size() : 0};
    }
    if (f == "first" || f == "last") {
      if (subject.v.is_array() && !subject.v.empty()) return {f == "first" ? subject.v.front() : subject.v.back()};
      return {json(), false, true};
    }
    // join(sep): items printed as strings and joined.
    std::string sep;
    if (e.operands.size() > 1) {  // a separator that is not a string is printed like the items
      const json sv = eval(*e.operands[1]).v;
      sep = sv.is_string() ? sv.get<std::string>() : sv.is_null() ? "" : sv.dump();
    }
    std::string joined;
    if (subject.v.is_array()) {
      bool first = true;
      for (const json& item : subject.v) {
        if (!first) joined += sep;
        first = false;
        joined += item.is_string() ? item.get<std::string>() : item.dump();
      }
    }
    return {std::move(joined)};
  }

  const json& vars_;
  std::vector<json::object_t> scopes_;
};

}  // namespace

struct JinjaTemplate::Impl {
  Body body;
};

JinjaTemplate::JinjaTemplate(std::string_view source)
    : impl_(std::make_unique<Impl>(Impl{TemplateParser(lex(source)).parse_top()})) {}
JinjaTemplate::~JinjaTemplate() = default;
JinjaTemplate::JinjaTemplate(JinjaTemplate&&) noexcept = default;
JinjaTemplate& JinjaTemplate::operator=(JinjaTemplate&&) noexcept = default;

std::string JinjaTemplate::render(const json& vars) const {
  std::string out;
  Renderer(vars).render(impl_->body, out);
  return out;
}

}  // namespace aiperf::endpoints
