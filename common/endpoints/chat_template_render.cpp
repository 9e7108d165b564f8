// Executing a parsed chat template: statements (if, for with loop.*, set, break/continue),
// scopes, and the expression kinds that are not calls or filters: names, literals, operators,
// attribute access, subscripts and slices.
#include <algorithm>
#include <cmath>

#include "endpoints/chat_template_internal.h"

namespace aiperf::endpoints::chat_jinja {

Flow Renderer::render(const Body& body, std::string& out) {
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

void Renderer::bind(const std::string& name, Value v) {
  Scope& s = frames_.back();
  std::erase_if(s.namespaces, [&](auto& p) { return p.first == name; });
  s.vars.erase(name);
  if (v.ns) s.namespaces.emplace_back(name, v.ns);
  else if (!v.undefined) s.vars[name] = std::move(v.v);
  else s.namespaces.emplace_back(name, nullptr);  // explicitly undefined
}

Value Renderer::lookup(const std::string& name) const {
  for (auto it = frames_.rbegin(); it != frames_.rend(); ++it) {
    for (const auto& [n, ns] : it->namespaces)
      if (n == name) return ns ? Value{J(), false, ns} : Value::undef();
    if (auto f = it->vars.find(name); f != it->vars.end()) return val(*f);
  }
  return Value::undef();
}

void Renderer::do_set(const SetNode& s) {
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

std::vector<J> Renderer::iterate(const Value& x) {
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

void Renderer::bind_targets(const std::vector<std::string>& targets, const J& item) {
  if (targets.size() == 1) {
    bind(targets[0], val(item));
    return;
  }
  if (!item.is_array() || item.size() != targets.size()) fail("for: cannot unpack " + item.dump());
  for (size_t k = 0; k < targets.size(); ++k) bind(targets[k], val(item[k]));
}

void Renderer::render_for(const ForNode& f, std::string& out) {
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

Value Renderer::eval(const Expr& e) {
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

std::string Renderer::describe(const Expr& e) {
  if (e.kind == Expr::Kind::name) return e.name;
  if (e.kind == Expr::Kind::member) return describe(*e.args[0]) + "." + e.name;
  return "value";
}

Value Renderer::index(const Value& subject, const Value& key) {
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

Value Renderer::slice(const Expr& e) {
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

Value Renderer::binop(const Expr& e) {
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

}  // namespace aiperf::endpoints::chat_jinja
