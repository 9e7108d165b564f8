// The expression half of the chat-template language: a lexer for tag contents and a
// precedence-climbing parser into Expr trees (Jinja's grammar, Python's operators).
#include <algorithm>
#include <cstring>

#include "endpoints/chat_template_internal.h"
#include "endpoints/jinja_nesting.h"

namespace aiperf::endpoints::chat_jinja {

ExprPtr make(Expr::Kind k) {
  auto e = std::make_unique<Expr>();
  e->kind = k;
  return e;
}

namespace {

// Records the node's depth (deeply nested expressions would overflow the stack while parsing,
// evaluating or destroying them; Python's recursion limit stops Jinja as well).
ExprPtr& checked(ExprPtr& e) {
  int deepest_kwarg = 0;
  for (const auto& [k, v] : e->kwargs) deepest_kwarg = std::max(deepest_kwarg, v->depth);
  e->depth = jinja::node_depth(e->args, deepest_kwarg, fail);
  return e;
}

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

}  // namespace

ExprParser::ExprParser(std::string_view src) : src_(src), toks_(lex_expr(src)) {}

ExprPtr ExprParser::parse_all() {
  ExprPtr e = parse_expression();
  expect_end();
  return e;
}
void ExprParser::expect_end() {
  if (peek().t != Tok::T::end) fail("unexpected '" + peek().s + "' in '" + std::string(src_) + "'");
}
bool ExprParser::eat_name(std::string_view n) {
  if (!at_name(n)) return false;
  ++pos_;
  return true;
}
bool ExprParser::eat_op(std::string_view o) {
  if (!at_op(o)) return false;
  ++pos_;
  return true;
}
std::string ExprParser::name() {
  if (peek().t != Tok::T::name) fail("expected a name in '" + std::string(src_) + "'");
  return toks_[pos_++].s;
}
void ExprParser::expect_op(std::string_view o) {
  if (!eat_op(o)) fail("expected '" + std::string(o) + "' in '" + std::string(src_) + "'");
}


// Conditional expression without the tuple level.
ExprPtr ExprParser::parse_expression(bool with_cond) {
  const jinja::NestingGuard guard(depth_, jinja::NestingGuard::Of::expression, fail);
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
ExprPtr ExprParser::parse_or() {
  ExprPtr l = parse_and();
  while (eat_name("or")) l = bin("or", std::move(l), parse_and());
  return l;
}
ExprPtr ExprParser::parse_and() {
  ExprPtr l = parse_not();
  while (eat_name("and")) l = bin("and", std::move(l), parse_not());
  return l;
}
ExprPtr ExprParser::parse_not() {
  if (eat_name("not")) {
    const jinja::NestingGuard guard(depth_, jinja::NestingGuard::Of::expression, fail);
    ExprPtr e = make(Expr::Kind::not_);
    e->args.push_back(parse_not());
    return std::move(checked(e));
  }
  return parse_compare();
}
ExprPtr ExprParser::parse_compare() {
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
ExprPtr ExprParser::parse_math1() {
  ExprPtr l = parse_concat();
  while (at_op("+") || at_op("-")) {
    const std::string op = toks_[pos_++].s;
    l = bin(op, std::move(l), parse_concat());
  }
  return l;
}
ExprPtr ExprParser::parse_concat() {
  ExprPtr l = parse_math2();
  while (eat_op("~")) l = bin("~", std::move(l), parse_math2());
  return l;
}
ExprPtr ExprParser::parse_math2() {
  ExprPtr l = parse_pow();
  while (at_op("*") || at_op("/") || at_op("//") || at_op("%")) {
    const std::string op = toks_[pos_++].s;
    l = bin(op, std::move(l), parse_pow());
  }
  return l;
}
ExprPtr ExprParser::parse_pow() {
  ExprPtr l = parse_unary();
  while (eat_op("**")) l = bin("**", std::move(l), parse_unary());
  return l;
}
ExprPtr ExprParser::parse_unary() {
  const jinja::NestingGuard guard(depth_, jinja::NestingGuard::Of::expression, fail);
  if (eat_op("-")) {
    ExprPtr e = make(Expr::Kind::neg);
    e->args.push_back(parse_unary());
    return parse_filters(std::move(checked(e)));
  }
  if (eat_op("+")) return parse_unary();
  return parse_filters(parse_postfix(parse_primary()));
}
// `|filter(args)` and `is [not] test(args)`, both binding tighter than arithmetic.
ExprPtr ExprParser::parse_filters(ExprPtr subject) {
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
void ExprParser::parse_call_args(Expr& e) {
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
ExprPtr ExprParser::parse_postfix(ExprPtr e) {
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
ExprPtr ExprParser::parse_primary() {
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


ExprPtr ExprParser::bin(const std::string& op, ExprPtr l, ExprPtr r) {
  ExprPtr e = make(Expr::Kind::binop);
  e->name = op;
  e->args.push_back(std::move(l));
  e->args.push_back(std::move(r));
  return std::move(checked(e));
}

}  // namespace aiperf::endpoints::chat_jinja
