// Calls in chat templates: the globals transformers provides or Jinja has (raise_exception,
// namespace, dict, range, strftime_now) and the str and dict methods templates use, with
// Python's positional/keyword argument matching.
#include <ctime>

#include "endpoints/chat_template_internal.h"

namespace aiperf::endpoints::chat_jinja {

std::vector<Value> Renderer::args_of(const Expr& e, size_t skip) {
  std::vector<Value> out;
  for (size_t k = skip; k < e.args.size(); ++k) out.push_back(eval(*e.args[k]));
  return out;
}
const Expr* Renderer::kwarg(const Expr& e, std::string_view key) const {
  for (const auto& [k, v] : e.kwargs)
    if (k == key) return v.get();
  return nullptr;
}
// Positional argument `pos` (after the subject) or keyword `key`, or nullopt.
std::optional<Value> Renderer::arg(const Expr& e, size_t pos, std::string_view key, size_t skip) {
  if (e.args.size() > skip + pos) return eval(*e.args[skip + pos]);
  if (const Expr* k = kwarg(e, key)) return eval(*k);
  return std::nullopt;
}

Value Renderer::call(const Expr& e) {
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

std::optional<Value> Renderer::kwarg_value(const Expr* e, std::string_view key) {
  if (!e) return std::nullopt;
  if (const Expr* k = kwarg(*e, key)) return eval(*k);
  return std::nullopt;
}

}  // namespace aiperf::endpoints::chat_jinja
