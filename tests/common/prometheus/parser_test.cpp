// The grammar, one rule per test: every accepted form and every rejection with its line.
#include <catch2/catch.hpp>
#include <cmath>

#include "prometheus/exposition.h"
#include "prometheus/series.h"

using namespace aiperf::prometheus;

namespace {

Exposition ok(std::string_view text) {
  ParseResult r = parse(text);
  INFO((r.error ? r.error->message : std::string()));
  REQUIRE(r.ok());
  return *r.exposition;
}

ParseError bad(std::string_view text) {
  ParseResult r = parse(text);
  REQUIRE_FALSE(r.ok());
  return *r.error;
}

}  // namespace

TEST_CASE("HELP and TYPE describe the family, samples follow") {
  const Exposition e = ok("# HELP req_total Requests served.\n# TYPE req_total counter\nreq_total{code=\"200\"} 7\n");
  REQUIRE(e.families.size() == 1);
  const Family& f = e.families[0];
  CHECK(f.name == "req_total");
  CHECK(f.type == MetricType::kCounter);
  CHECK(f.help == "Requests served.");
  REQUIRE(f.samples.size() == 1);
  CHECK(f.samples[0].labels == Labels{{"code", "200"}});
  CHECK(f.samples[0].value == 7);
  CHECK_FALSE(f.samples[0].timestamp_ms.has_value());
}

TEST_CASE("a sample without TYPE is untyped and its own family") {
  const Exposition e = ok("up 1\nup_count 3\n");
  REQUIRE(e.families.size() == 2);
  CHECK(e.families[0].type == MetricType::kUntyped);
  CHECK(e.families[1].name == "up_count");
}

TEST_CASE("label values unescape backslash, quote and newline") {
  const Exposition e = ok(R"(m{a="x\\y",b="say \"hi\"",c="l1\nl2",d=""} 1)");
  CHECK(e.families[0].samples[0].labels ==
        Labels{{"a", "x\\y"}, {"b", "say \"hi\""}, {"c", "l1\nl2"}, {"d", ""}});
}

TEST_CASE("HELP text unescapes backslash and newline only") {
  const Exposition e = ok("# HELP m a \\\\ b \\n c \\t d\nm 1\n");
  CHECK(e.families[0].help == "a \\ b \n c \\t d");
}

TEST_CASE("values: NaN, infinities, exponents, signs") {
  const Exposition e = ok("a NaN\nb +Inf\nc -Inf\nd 1.5e+09\ne -0.25\nf +3\ng 1E-3\n");
  CHECK(std::isnan(e.families[0].samples[0].value));
  CHECK(e.families[1].samples[0].value == INFINITY);
  CHECK(e.families[2].samples[0].value == -INFINITY);
  CHECK(e.families[3].samples[0].value == 1.5e9);
  CHECK(e.families[4].samples[0].value == -0.25);
  CHECK(e.families[5].samples[0].value == 3);
  CHECK(e.families[6].samples[0].value == 0.001);
}

TEST_CASE("optional timestamp in milliseconds, negative allowed") {
  const Exposition e = ok("a 1 1734123456789\nb 2 -5\n");
  CHECK(e.families[0].samples[0].timestamp_ms == 1734123456789);
  CHECK(e.families[1].samples[0].timestamp_ms == -5);
}

TEST_CASE("blank lines, CRLF, comments and surrounding blanks are ignored") {
  const Exposition e = ok("\r\n# just a comment\n  \t\n#TYPE x gauge\n  x{ a = \"1\" , } 2  \r\n\n");
  REQUIRE(e.families.size() == 1);
  CHECK(e.families[0].type == MetricType::kGauge);  // "#TYPE" without a blank is still TYPE
  CHECK(e.families[0].samples[0].labels == Labels{{"a", "1"}});
  CHECK(e.families[0].samples[0].value == 2);
}

TEST_CASE("histogram samples join their family and regroup by label set") {
  const Exposition e = ok(
      "# TYPE lat histogram\n"
      "lat_bucket{m=\"a\",le=\"0.1\"} 1\nlat_bucket{m=\"a\",le=\"+Inf\"} 3\nlat_sum{m=\"a\"} 0.9\nlat_count{m=\"a\"} 3\n"
      "lat_bucket{le=\"1\",m=\"b\"} 0\nlat_bucket{m=\"b\",le=\"+Inf\"} 0\nlat_sum{m=\"b\"} 0\nlat_count{m=\"b\"} 0\n");
  REQUIRE(e.families.size() == 1);
  const auto series = histogram_series(e.families[0]);
  REQUIRE(series.size() == 2);
  CHECK(series[0].labels == Labels{{"m", "a"}});
  REQUIRE(series[0].buckets.size() == 2);
  CHECK(series[0].buckets[0].le == "0.1");
  CHECK(series[0].buckets[1].bound == INFINITY);
  CHECK(series[0].buckets[1].cumulative == 3);
  CHECK(series[0].sum == 0.9);
  CHECK(series[0].count == 3);
  CHECK(series[1].labels == Labels{{"m", "b"}});
}

TEST_CASE("summary samples with quantile labels join their family") {
  const Exposition e = ok("# TYPE rpc summary\nrpc{quantile=\"0.5\"} 0.2\nrpc_sum 4\nrpc_count 10\n");
  REQUIRE(e.families.size() == 1);
  CHECK(e.families[0].samples.size() == 3);
  CHECK(*e.families[0].samples[0].label("quantile") == "0.5");
}

TEST_CASE("a _sum sample of an untyped name stays its own family") {
  const Exposition e = ok("# TYPE x gauge\nx 1\nx_sum 2\n");
  CHECK(e.families.size() == 2);
}

TEST_CASE("label_key is order independent and can skip a label") {
  CHECK(label_key({{"b", "2"}, {"a", "1"}}) == label_key({{"a", "1"}, {"b", "2"}}));
  CHECK(label_key({{"a", "1"}, {"le", "5"}}, "le") == "a=\"1\"");
  CHECK(label_key({}) == "");
}

TEST_CASE("errors name the line") {
  struct Case {
    const char* text;
    size_t line;
    const char* message;
  };
  const Case cases[] = {
      {"ok 1\n9bad 1\n", 2, "invalid metric name"},
      {"m{a=\"1\" 1\n", 1, "expected ',' or '}' in label set"},
      {"m{a=\"1}\n", 1, "unterminated label value"},
      {"m{a=\"\\x\"} 1\n", 1, "invalid escape sequence '\\x' in label value"},
      {"m{a=1} 1\n", 1, "expected '\"' to open a label value"},
      {"m{a=\"1\",a=\"2\"} 1\n", 1, "duplicate label \"a\""},
      {"m{1a=\"1\"} 1\n", 1, "invalid label name"},
      {"\n\nm abc\n", 3, "invalid value \"abc\""},
      {"m\n", 1, "missing value"},
      {"m 1 12.5\n", 1, "invalid timestamp \"12.5\""},
      {"m 1 2 3\n", 1, "unexpected text after the timestamp"},
      {"# TYPE m bogus\n", 1, "invalid metric type \"bogus\""},
      {"# TYPE m gauge\n# TYPE m gauge\n", 2, "second TYPE line for metric name \"m\""},
      {"# HELP m a\n# HELP m b\n", 2, "second HELP line for metric name \"m\""},
      {"m 1\n# TYPE m gauge\n", 2, "TYPE line for \"m\" after its samples"},
      {"# TYPE h histogram\nh_bucket 1\n", 2, "histogram bucket \"h_bucket\" without an \"le\" label"},
      {"# TYPE h histogram\nh_bucket{le=\"x\"} 1\n", 2, "invalid \"le\" label value \"x\""},
      {"# TYPE h histogram\nh 1\n", 2, "histogram \"h\" sample without _bucket, _sum or _count suffix"},
      {"# TYPE s summary\ns 1\n", 2, "summary \"s\" sample without a \"quantile\" label"},
      {"m{a=\"1\"}1\n", 1, "expected a blank before the value"},
      {"m{a=\"1\",\n", 1, "unterminated label set"},
      {"# TYPE 1m gauge\n", 1, "invalid metric name"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    const ParseError err = bad(c.text);
    CHECK(err.line == c.line);
    CHECK(err.message == c.message);
  }
}

TEST_CASE("type names round trip") {
  CHECK(type_name(MetricType::kCounter) == "counter");
  CHECK(type_name(MetricType::kGauge) == "gauge");
  CHECK(type_name(MetricType::kHistogram) == "histogram");
  CHECK(type_name(MetricType::kSummary) == "summary");
  CHECK(type_name(MetricType::kUntyped) == "untyped");
}
