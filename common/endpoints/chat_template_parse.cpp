// The statement half of the chat-template language: splitting the source into text and tags
// (Jinja's whitespace control as transformers configures it) and parsing the tags into a Body.
#include "endpoints/chat_template_internal.h"
#include "endpoints/jinja_nesting.h"

namespace aiperf::endpoints::chat_jinja {

namespace {

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
    const jinja::NestingGuard guard(nesting_, jinja::NestingGuard::Of::block, fail);
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

}  // namespace

Body parse_template(std::string_view source) { return TemplateParser(lex(source)).parse_top(); }

}  // namespace aiperf::endpoints::chat_jinja
