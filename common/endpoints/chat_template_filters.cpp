// Jinja's filters (x|name(args)) and tests (x is name), as Hub chat templates use them.
#include <cmath>
#include <cstdlib>

#include "endpoints/chat_template_internal.h"

namespace aiperf::endpoints::chat_jinja {

bool Renderer::test(const Expr& e) {
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
Value Renderer::filter_value(const std::string& f, const Value& x, const Expr* e) {
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

bool Renderer::apply_test(const std::string& name, const Value& v, const std::vector<Value>& args) {
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

}  // namespace aiperf::endpoints::chat_jinja
