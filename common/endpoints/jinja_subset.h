// A small subset of Jinja2 for the `template` endpoint's payload_template (spec §5.4).
// Debian ships no maintained C++ Jinja library (no inja, no Jinja2Cpp), so the part of the
// language request bodies need is implemented here; docs/endpoints.md lists it:
//   {{ expr }}  {% if expr %}…{% elif expr %}…{% else %}…{% endif %}
//   {% for x in expr %}…{% endfor %} with loop.index/index0/first/last/length
//   {# comment #}, whitespace control with {{- -}} {%- -%}
//   expr: names, "strings", integers, true/false/none, a.b, a[0], a["k"], not/and/or, ==, !=
//   filters: tojson, length, first, last, join("sep"), default(value)
// As in AIPerf (Environment(autoescape=True)), a plain {{ string }} is HTML-escaped; tojson
// output is not. A template is compiled once and rendered many times.
#pragma once
#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace aiperf::endpoints {

class JinjaTemplate {
 public:
  // Throws std::invalid_argument naming the problem for a template outside the subset.
  explicit JinjaTemplate(std::string_view source);
  ~JinjaTemplate();
  JinjaTemplate(JinjaTemplate&&) noexcept;
  JinjaTemplate& operator=(JinjaTemplate&&) noexcept;

  // `vars` must be an object; unknown names render as none (Jinja's Undefined prints "").
  std::string render(const nlohmann::json& vars) const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace aiperf::endpoints
