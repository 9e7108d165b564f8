// The Jinja subset used by payload_template: exact renderings, and rejection of the rest.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "endpoints/jinja_subset.h"

using aiperf::endpoints::JinjaTemplate;
using nlohmann::json;

namespace {
std::string render(const std::string& source, const json& vars) { return JinjaTemplate(source).render(vars); }
}  // namespace

TEST_CASE("jinja: output, autoescape of plain strings, tojson escaping like Jinja") {
  const json vars = {{"s", "a<b & \"c\" 'd'"}, {"n", 3}, {"b", true}, {"z", nullptr}};
  CHECK(render("{{ s }}", vars) == "a&lt;b &amp; &#34;c&#34; &#39;d&#39;");
  CHECK(render("{{ s|tojson }}", vars) == R"("a\u003cb \u0026 \"c\" \u0027d\u0027")");
  CHECK(render("{{n}}-{{ b }}-{{ z }}-{{ missing }}.", vars) == "3-True-None-.");
  CHECK(render("{{ b|tojson }} {{ z|tojson }} {{ missing|default('x') }}", vars) == "true null x");
}

TEST_CASE("jinja: members, indexes, filters") {
  const json vars = {{"t", {{"texts", {{{"name", "q"}, {"contents", {"x", "y"}}}}}}}, {"l", {"a", "b", "c"}}};
  CHECK(render("{{ t.texts[0].name }} {{ t['texts'][0].contents[-1] }}", vars) == "q y");
  CHECK(render("{{ l|length }} {{ l|first }} {{ l|last }} {{ l|join(', ') }}", vars) == "3 a c a, b, c");
}

TEST_CASE("jinja: if/elif/else, and/or/not, ==, loops with loop variables and whitespace control") {
  const json vars = {{"role", "user"}, {"l", {1, 2, 3}}, {"empty", json::array()}};
  CHECK(render("{% if role == 'system' %}S{% elif role == 'user' and l %}U{% else %}E{% endif %}", vars) == "U");
  CHECK(render("{% if not empty or false %}yes{% endif %}", vars) == "yes");
  CHECK(render("[{% for x in l %}{{ x }}{% if not loop.last %},{% endif %}{% endfor %}]", vars) == "[1,2,3]");
  CHECK(render("{% for x in l %}{{ loop.index }}/{{ loop.length }}{% if loop.first %}!{% endif %} {% endfor %}", vars) ==
        "1/3! 2/3 3/3 ");
}

TEST_CASE("jinja: whitespace control and comments") {
  const json vars = {{"l", {1, 2}}};
  CHECK(render("[\n  {%- for x in l %}\n  {{- x -}}\n  {% endfor -%}\n]", vars) == "[12]");
  CHECK(render("a{# note #}b", vars) == "ab");
  CHECK(render(R"({"k": {"n": 1}})", vars) == R"({"k": {"n": 1}})");  // plain braces stay
}

TEST_CASE("jinja: outside the subset is rejected when compiled") {
  CHECK_THROWS_WITH(JinjaTemplate("{{ x|upper }}"), Catch::Contains("unsupported filter 'upper'"));
  CHECK_THROWS_WITH(JinjaTemplate("{% set x = 1 %}"), Catch::Contains("unsupported tag {% set %}"));
  CHECK_THROWS_WITH(JinjaTemplate("{% for x in l %}"), Catch::Contains("missing end of {% for %}"));
  CHECK_THROWS_WITH(JinjaTemplate("{{ x "), Catch::Contains("unclosed"));
}

TEST_CASE("jinja: nesting is bounded, so a hostile template is refused instead of overflowing the stack") {
  auto repeat = [](const std::string& s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += s;
    return out;
  };
  const json vars = {{"x", 1}};
  CHECK(render("{{ " + repeat("(", 50) + "x" + repeat(")", 50) + " }}", vars) == "1");
  CHECK(render(repeat("{% if x %}", 50) + "y" + repeat("{% endif %}", 50), vars) == "y");
  const auto refused = [&](const std::string& source, const std::string& why) {
    try {
      JinjaTemplate t(source);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what()).find(why) != std::string::npos;
    }
    return false;
  };
  CHECK(refused("{{ " + repeat("(", 5000) + "x" + repeat(")", 5000) + " }}", "expression nested too deeply"));
  CHECK(refused("{{ " + repeat("not ", 5000) + "x }}", "expression nested too deeply"));
  CHECK(refused(repeat("{% if x %}", 5000) + "y" + repeat("{% endif %}", 5000), "blocks nested too deeply"));
}

TEST_CASE("jinja: long operator, member, subscript and filter chains are bounded like nesting") {
  // These parse in a loop but build a tree as deep as the chain, which rendering and destroying
  // walk by recursion: 200,000 links overflowed an 8 MiB stack before the depth was bounded.
  auto chain = [](const std::string& head, const std::string& link, int n) {
    std::string out = "{{ " + head;
    for (int i = 0; i < n; ++i) out += link;
    return out + " }}";
  };
  const json vars = {{"x", 1}, {"l", json::array({json::array({2})})}, {"o", {{"b", {{"b", 3}}}}}};
  CHECK(render(chain("x", " or x", 150), vars) == "1");  // just under the bound: rendered
  CHECK(render(chain("x", " and x", 150), vars) == "1");
  CHECK(render(chain("o", ".b", 2), vars) == "3");
  CHECK(render(chain("l", "[0]", 2), vars) == "2");
  for (const char* link : {" or x", " and x", ".b", "[0]", "|first"}) {
    INFO(link);
    for (const int n : {200, 200000}) {
      const std::string source = chain("x", link, n);
      CHECK_THROWS_WITH(JinjaTemplate(source), Catch::Contains("payload_template: expression nested too deeply"));
    }
  }
}
