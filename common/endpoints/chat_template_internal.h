// The Jinja interpreter behind ChatTemplate (chat_template.h), shared by its source files and by
// nothing else:
//   chat_template_values.cpp   Jinja values and Python's str/repr/json.dumps/str methods on them
//   chat_template_expr.cpp     expression lexer and parser (Expr trees)
//   chat_template_parse.cpp    template lexer (whitespace control) and statement parser (Body)
//   chat_template_render.cpp   statement execution, names and scopes, operators, subscripts
//   chat_template_calls.cpp    global functions (range, namespace, ...) and str/dict methods
//   chat_template_filters.cpp  filters and tests
//   chat_template.cpp          ChatTemplate: compile once, render with transformers' variables
#pragma once
#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "endpoints/chat_template.h"

namespace aiperf::endpoints::chat_jinja {

using J = nlohmann::ordered_json;

// Throws ChatTemplateError("chat template: <what>").
[[noreturn]] void fail(const std::string& what);

// ---- values (chat_template_values.cpp) -----------------------------------------------------

// A Jinja value: JSON data, Undefined, or a namespace() object (mutable through `set ns.x`).
struct Value {
  J v;
  bool undefined = false;
  std::shared_ptr<J> ns;  // set for namespace objects; v unused

  static Value undef() { return {J(), true, nullptr}; }
  const J& data() const { return ns ? *ns : v; }
};

inline Value val(J v) { return Value{std::move(v), false, nullptr}; }

bool truthy(const Value& x);
// Python's repr of a float (shortest round trip, ".0" for integral values).
std::string py_float(double d);
// Python's repr() of a value.
void py_repr(const J& v, std::string& out);
// Python's str() of a value, as Jinja prints it.
void py_str(const J& v, std::string& out);
// What {{ x }} prints: "" for Undefined.
std::string to_str(const Value& x);
// Python json.dumps(ensure_ascii=False, indent, separators, sort_keys), as transformers' tojson.
void py_json(const J& v, std::string& out, int indent, int depth, const std::string& item_sep,
             const std::string& key_sep, bool sort_keys);
// UTF-8 code points of a string (Python indexes and measures str by code point).
std::vector<std::string> code_points(const std::string& s);
bool is_py_space(char c);

// Python's str methods; `chars`/`sep` null or None mean whitespace, maxsplit/count -1 all.
std::string strip_chars(const std::string& s, const Value* chars, bool left, bool right);
J split_string(const std::string& s, const Value* sep, int64_t maxsplit);
std::string replace_all(std::string s, const std::string& from, const std::string& to, int64_t count);
std::string upper(std::string s);
std::string lower(std::string s);
std::string capitalize(const std::string& s);
std::string title(const std::string& s);

// Arithmetic and comparison as Python does them (True == 1 == 1.0).
double num(const Value& x, const char* op);  // a number, or fails naming `op`
bool both_ints(const Value& a, const Value& b);
int64_t as_int(const J& v);
bool py_eq(const Value& a, const Value& b);
int py_cmp(const Value& a, const Value& b, const std::string& op);  // -1, 0, 1

// ---- expressions (chat_template_expr.cpp) --------------------------------------------------

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

ExprPtr make(Expr::Kind k);

struct Tok {
  enum class T { name, str, num, op, end } t;
  std::string s;
  J num;
};

// Parses one tag's content. The template parser reads statement syntax (keywords, targets)
// through the token helpers and the expressions in it through parse_expression().
class ExprParser {
 public:
  explicit ExprParser(std::string_view src);

  ExprPtr parse_all();  // one expression, then the end of the tag
  void expect_end();

  const Tok& peek(size_t ahead = 0) const { return toks_[std::min(pos_ + ahead, toks_.size() - 1)]; }
  bool at_name(std::string_view n) const { return peek().t == Tok::T::name && peek().s == n; }
  bool at_op(std::string_view o) const { return peek().t == Tok::T::op && peek().s == o; }
  bool eat_name(std::string_view n);
  bool eat_op(std::string_view o);
  std::string name();  // a name token, or fails
  void expect_op(std::string_view o);

  // Conditional expression without the tuple level.
  ExprPtr parse_expression(bool with_cond = true);

 private:
  ExprPtr parse_or();
  ExprPtr parse_and();
  ExprPtr parse_not();
  ExprPtr parse_compare();
  ExprPtr parse_math1();
  ExprPtr parse_concat();
  ExprPtr parse_math2();
  ExprPtr parse_pow();
  ExprPtr parse_unary();
  ExprPtr parse_filters(ExprPtr subject);
  void parse_call_args(Expr& e);
  ExprPtr parse_postfix(ExprPtr e);
  ExprPtr parse_primary();
  static ExprPtr bin(const std::string& op, ExprPtr l, ExprPtr r);

  std::string_view src_;
  std::vector<Tok> toks_;
  size_t pos_ = 0;
  int depth_ = 0;
};

// ---- template nodes (chat_template_parse.cpp) ----------------------------------------------

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

// The whole template as a tree, with transformers' whitespace settings (trim_blocks,
// lstrip_blocks). Fails (ChatTemplateError) outside the supported language.
Body parse_template(std::string_view source);

// ---- rendering (chat_template_render/calls/filters.cpp) ------------------------------------

enum class Flow { normal, break_, continue_ };

class Renderer {
 public:
  explicit Renderer(const J& globals) { frames_.push_back(Scope{globals, {}}); }

  // Appends `body`'s output; a break/continue reaching the top of `body` is returned.
  Flow render(const Body& body, std::string& out);

 private:
  // Scope entries are JSON; namespaces live beside them, keyed by name per scope.
  struct Scope {
    J vars = J::object();
    std::vector<std::pair<std::string, std::shared_ptr<J>>> namespaces;
  };

  // Statements, names and expressions (chat_template_render.cpp).
  void bind(const std::string& name, Value v);
  Value lookup(const std::string& name) const;
  void do_set(const SetNode& s);
  std::vector<J> iterate(const Value& x);
  void bind_targets(const std::vector<std::string>& targets, const J& item);
  void render_for(const ForNode& f, std::string& out);
  Value eval(const Expr& e);
  static std::string describe(const Expr& e);
  static Value index(const Value& subject, const Value& key);
  Value slice(const Expr& e);
  Value binop(const Expr& e);

  // Calls and their arguments (chat_template_calls.cpp).
  std::vector<Value> args_of(const Expr& e, size_t skip);
  const Expr* kwarg(const Expr& e, std::string_view key) const;
  // Positional argument `pos` (after the subject) or keyword `key`, or nullopt.
  std::optional<Value> arg(const Expr& e, size_t pos, std::string_view key, size_t skip = 1);
  std::optional<Value> kwarg_value(const Expr* e, std::string_view key);
  Value call(const Expr& e);

  // Filters and tests (chat_template_filters.cpp).
  bool test(const Expr& e);
  // Applies a filter by name to a value (used by `map('filter')` too).
  Value filter_value(const std::string& f, const Value& x, const Expr* e);
  bool apply_test(const std::string& name, const Value& v, const std::vector<Value>& args);
  Value filter(const Expr& e) { return filter_value(e.name, eval(*e.args[0]), &e); }

  std::vector<Scope> frames_;
};

}  // namespace aiperf::endpoints::chat_jinja
