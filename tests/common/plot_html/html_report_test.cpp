// The HTML report's text encodings and page structure: exact escapes and numbers, the CSP
// hashes of the inline blocks, the size of a 10 000-request report, and the atomic write.
#include <openssl/evp.h>
#include <openssl/sha.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>

#include "plot/html_report.h"
#include "plot/html_text.h"
#include "synthetic_report.h"

using namespace aiperf::plot;
namespace fs = std::filesystem;

namespace {

size_t count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// The text between the first `open` (from `from`) and the next `close`.
std::string between(const std::string& text, const std::string& open, const std::string& close, size_t from = 0) {
  const size_t a = text.find(open, from);
  REQUIRE(a != std::string::npos);
  const size_t b = text.find(close, a + open.size());
  REQUIRE(b != std::string::npos);
  return text.substr(a + open.size(), b - a - open.size());
}

std::string sha256_base64(const std::string& text) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest);
  unsigned char b64[64];
  const int n = EVP_EncodeBlock(b64, digest, SHA256_DIGEST_LENGTH);
  return std::string(reinterpret_cast<const char*>(b64), static_cast<size_t>(n));
}

Report hostile_report() {
  Report r;
  r.title = "</script><b>&<>\"'";
  r.notes = {"note </script> & <i>"};
  Table t;
  t.title = "T <1>";
  t.columns = {"a&b", "</td>"};
  t.rows = {{"<script>x</script>", "1"}};
  r.tables.push_back(t);
  Figure f;
  f.id = "f\"1";
  f.title = "</script><script>alert(1)</script>";
  f.x.label = "x </script>";
  f.note = "a <note>";
  Series s;
  s.name = "s</script>";
  s.x = {1, 2};
  s.y = {3, 4};
  s.labels = {"</script>", "&amp;"};
  f.series.push_back(s);
  r.figures.push_back(f);
  return r;
}

}  // namespace

TEST_CASE("escape_html turns &<>\"' into entities and keeps the rest", "[plot][html]") {
  CHECK(html::escape_html("</script>&<>\"' ok") == "&lt;/script&gt;&amp;&lt;&gt;&quot;&#39; ok");
  CHECK(html::escape_html("caf\xc3\xa9") == "caf\xc3\xa9");
}

TEST_CASE("json_string escapes what could end a script block or a JSON string", "[plot][html]") {
  CHECK(html::json_string("</script>") == "\"\\u003c/script\\u003e\"");
  CHECK(html::json_string("a&b\"c\\d\ne\tf\x01") == "\"a\\u0026b\\\"c\\\\d\\ne\\tf\\u0001\"");
  CHECK(html::json_string("x\xe2\x80\xa8y\xe2\x80\xa9z") == "\"x\\u2028y\\u2029z\"");
  CHECK(html::json_string("caf\xc3\xa9") == "\"caf\xc3\xa9\"");
}

TEST_CASE("json_number keeps 6 significant digits in the shortest form", "[plot][html]") {
  CHECK(html::json_number(0) == "0");
  CHECK(html::json_number(-0.0) == "0");
  CHECK(html::json_number(12) == "12");
  CHECK(html::json_number(0.5) == "0.5");
  CHECK(html::json_number(3.14159265) == "3.14159");
  CHECK(html::json_number(1234.5678) == "1234.57");
  CHECK(html::json_number(1234567.0) == "1.23457e+06");
  CHECK(html::json_number(-0.000012345678) == "-1.23457e-05");
  CHECK(html::json_number(std::nan("")) == "null");
  CHECK(html::json_number(std::numeric_limits<double>::infinity()) == "null");
}

TEST_CASE("figures_json writes columnar arrays and only the optional columns present", "[plot][html]") {
  Figure f;
  f.id = "ttft";
  f.title = "TTFT";
  f.x.label = "Time (s)";
  f.y.label = "TTFT (ms)";
  f.y.log = true;
  f.y2.from_zero = true;
  Series a;
  a.name = "run";
  a.mark = Mark::Points;
  a.x = {0.1, 0.25};
  a.y = {10, 20.5};
  Series b;
  b.mark = Mark::Spans;
  b.secondary_axis = true;
  b.x = {7200.123};
  b.x_end = {7200.128};
  b.y = {0};
  b.y_low = {-1};
  b.y_high = {1};
  b.labels = {"c=1"};
  b.x_low = {0.5};
  b.x_high = {1.5};
  b.color = 100;
  f.series = {a, b};
  CHECK(html::figures_json({f}) ==
        "[{\"id\":\"ttft\",\"title\":\"TTFT\",\"x\":{\"label\":\"Time (s)\",\"log\":false},"
        "\"y\":{\"label\":\"TTFT (ms)\",\"log\":true},\"y2\":{\"label\":\"\",\"log\":false,\"zero\":true},\"series\":["
        "{\"name\":\"run\",\"mark\":\"points\",\"color\":\"#76B900\",\"x\":[0.1,0.25],\"y\":[10,20.5]},"
        "{\"name\":\"\",\"mark\":\"spans\",\"color\":\"#E74C3C\",\"y2\":true,\"x\":[7200.12],\"y\":[0],\"xd\":[0.005],"
        "\"lo\":[-1],\"hi\":[1],\"xlo\":[0.5],\"xhi\":[1.5],\"labels\":[\"c=1\"]}]}]");
  CHECK(html::figures_json({}) == "[]");
}

TEST_CASE("figures_json writes a repeated column once and a progression as its rule", "[plot][html]") {
  Figure f;
  f.id = "lat";
  Series a, b, c;
  a.x = {0, 1, 2, 3};          // request numbers: a progression
  a.y = {0.1, 0.7, 0.2, 0.5};  // not one
  b.x = {0.1, 0.7, 0.2, 0.5};  // the same values as a.y: written once
  b.y = {0.1, 0.7, 0.2, 0.5};
  c.x = {0.1, 0.2, 0.3, 0.4};  // 0.1 + i * 0.1 is not exact in binary: written out
  c.y = {5, 7};                // short columns are always written out
  f.series = {a, b, c};
  const std::string json = html::figures_json({f});
  CHECK(json.find("\"x\":{\"seq\":[0,1,4]},\"y\":[0.1,0.7,0.2,0.5]}") != std::string::npos);
  CHECK(json.find("\"x\":{\"ref\":1},\"y\":{\"ref\":1}}") != std::string::npos);
  CHECK(json.find("\"x\":[0.1,0.2,0.3,0.4],\"y\":[5,7]}") != std::string::npos);
  // Across figures too: a second figure over the same request numbers refers to column 0.
  Figure g = f;
  g.series.resize(1);
  g.series[0].y = {9, 8, 7, 6.5};
  const std::string both = html::figures_json({f, g});
  CHECK(both.find("\"x\":{\"ref\":0},\"y\":[9,8,7,6.5]}") != std::string::npos);
}

TEST_CASE("Hostile text in a report shows as written and cannot end the script blocks", "[plot][html]") {
  const std::string page = render_html_report(hostile_report());
  // Exactly the page's own two script blocks (the data and the code).
  CHECK(count(page, "</script>") == 2);
  CHECK(count(page, "<script") == 2);
  CHECK(count(page, "<b>") == 0);
  CHECK(count(page, "<i>") == 0);
  CHECK(between(page, "<title>", "</title>") == "&lt;/script&gt;&lt;b&gt;&amp;&lt;&gt;&quot;&#39;");
  CHECK(between(page, "<h1>", "</h1>") == "&lt;/script&gt;&lt;b&gt;&amp;&lt;&gt;&quot;&#39;");
  CHECK(page.find("<li>note &lt;/script&gt; &amp; &lt;i&gt;</li>") != std::string::npos);
  CHECK(page.find("<th scope=\"col\">a&amp;b</th><th scope=\"col\">&lt;/td&gt;</th>") != std::string::npos);
  CHECK(page.find("<td>&lt;script&gt;x&lt;/script&gt;</td><td>1</td>") != std::string::npos);
  CHECK(page.find("data-id=\"f&quot;1\"") != std::string::npos);
  CHECK(page.find("<p class=\"fig-note\">a &lt;note&gt;</p>") != std::string::npos);
  // The data block parses back to the exact texts.
  const auto figures = nlohmann::json::parse(between(page, "id=\"aiperf-figures\">", "</script>"));
  REQUIRE(figures.size() == 1);
  CHECK(figures[0]["title"] == "</script><script>alert(1)</script>");
  CHECK(figures[0]["x"]["label"] == "x </script>");
  CHECK(figures[0]["series"][0]["name"] == "s</script>");
  CHECK(figures[0]["series"][0]["labels"] == nlohmann::json({"</script>", "&amp;"}));
}

TEST_CASE("A table's notes and warnings follow it, escaped; a table without rows has no grid", "[plot][html]") {
  Report report;
  Table t;
  t.title = "Client vs Server";
  t.columns = {"Quantity", "Client"};
  t.rows = {{"Input tokens", "400"}};
  t.notes = {"Difference = client - server."};
  t.warnings = {"Input tokens: the client counted 400, the server 600 <usage>"};
  Table empty;
  empty.title = "Nothing";
  empty.columns = {"a"};
  empty.warnings = {"w"};
  report.tables = {t, empty};
  const std::string page = render_html_report(report);
  CHECK(page.find("<td>Input tokens</td><td>400</td></tr>\n</tbody></table></div>\n<ul class=\"notes\">\n"
                  "<li>Difference = client - server.</li>\n</ul>\n<ul class=\"notes warn\">\n"
                  "<li>Input tokens: the client counted 400, the server 600 &lt;usage&gt;</li>\n</ul>\n</section>") !=
        std::string::npos);
  CHECK(count(page, "<table") == 1);
  CHECK(page.find("<h2>Nothing</h2>\n<p class=\"empty\">No rows.</p>\n</section>") != std::string::npos);
}

TEST_CASE("The page loads nothing: CSP allows only its two inline blocks, by hash", "[plot][html]") {
  const std::string page = render_html_report(aiperf::test::synthetic_run_report(50));
  const std::string csp = between(page, "http-equiv=\"Content-Security-Policy\" content=\"", "\"");
  const std::string style = between(page, "<style>", "</style>");
  const size_t data_at = page.find("id=\"aiperf-figures\"");
  REQUIRE(data_at != std::string::npos);
  const std::string script = between(page, "<script>", "</script>", data_at);
  CHECK(csp == "default-src 'none'; script-src 'sha256-" + sha256_base64(script) + "'; style-src 'sha256-" +
                   sha256_base64(style) + "'; base-uri 'none'; form-action 'none'");
  CHECK(page.find("://") == std::string::npos);
  CHECK(page.find(" src=") == std::string::npos);
  CHECK(page.find("url(") == std::string::npos);
  CHECK(page.find("@import") == std::string::npos);
  // One section per table and figure, each figure with its index into the data.
  CHECK(count(page, "<section class=\"card table-card\"") == 1);
  CHECK(count(page, "<section class=\"card figure-card\"") == 5);
  CHECK(page.find("id=\"figure-4\" data-index=\"4\" data-id=\"throughput\"") != std::string::npos);
  CHECK(count(page, "<a href=\"#") == 6);
}

TEST_CASE("A 10 000-request report stays well under 2 MB", "[plot][html]") {
  const Report report = aiperf::test::synthetic_run_report(10000);
  size_t points = 0;
  for (const auto& f : report.figures)
    for (const auto& s : f.series) points += s.x.size();
  REQUIRE(points == 40014);
  const std::string page = render_html_report(report);
  INFO("page bytes: " << page.size());
  CHECK(page.size() < 1000000);  // 453 988 bytes when written
  const auto figures = nlohmann::json::parse(between(page, "id=\"aiperf-figures\">", "</script>"));
  CHECK(figures[0]["series"][0]["x"].size() == 10000);
  CHECK(figures[3]["series"][0]["xd"].size() == 10000);
}

TEST_CASE("An empty report says so", "[plot][html]") {
  const std::string page = render_html_report(Report{});
  CHECK(between(page, "<title>", "</title>") == "AIPerf report");
  CHECK(page.find("<p class=\"empty\">This report has no tables and no figures.</p>") != std::string::npos);
  CHECK(page.find("<nav>") == std::string::npos);
  CHECK(between(page, "id=\"aiperf-figures\">", "</script>") == "[]");
}

TEST_CASE("write_html_report writes the whole page or nothing", "[plot][html]") {
  const fs::path dir = fs::temp_directory_path() / ("aiperf_html_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const Report report = hostile_report();
  write_html_report(report, dir / "report.html");
  std::ifstream in(dir / "report.html", std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  CHECK(text.str() == render_html_report(report));
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);

  CHECK_THROWS_WITH(write_html_report(report, dir / "missing" / "report.html"),
                    Catch::Contains("missing/report.html.tmp"));
  CHECK_FALSE(fs::exists(dir / "missing"));
  fs::remove_all(dir);
}
