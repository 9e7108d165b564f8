// The http_req_* metrics (AIPerf's http_trace_metrics) on hand-built traces.
#include <catch2/catch.hpp>
#include <map>
#include <string>

#include "metrics/metric_registry.h"
#include "metrics/record_metrics.h"
#include "record_fixtures.h"

using namespace aiperf;
using namespace aiperf::metrics;
using namespace aiperf::metrics::testing;

namespace {

MetricContext traced() {
  MetricContext ctx;
  ctx.http_trace = true;
  return ctx;
}

std::map<std::string, double> http_metrics(const ParsedRecord& r, const MetricContext& ctx = traced()) {
  google::protobuf::RepeatedPtrField<proto::MetricValue> out;
  compute_record_metrics(r, ctx, &out);
  std::map<std::string, double> m;
  for (const auto& mv : out) {
    if (mv.tag().rfind("http_req_", 0) == 0) m[mv.tag()] = mv.value();
  }
  return m;
}

// A new connection to a host name: DNS 1000..1400, TCP+TLS 1400..2900, request written
// 3000..3250 (one 512-byte body chunk), body chunks at 5000, 5600 and 7000 (300 bytes).
HttpTiming fresh_connection() {
  HttpTiming t;
  t.dns_start_ns = 1000;
  t.dns_end_ns = 1400;
  t.connect_start_ns = 1400;
  t.connect_end_ns = 2900;
  t.send_start_ns = 3000;
  t.send_end_ns = 3250;
  t.request_chunks = 1;
  t.request_bytes = 512;
  t.response_chunks = 3;
  t.response_bytes = 300;
  t.first_chunk_ns = 5000;
  t.last_chunk_ns = 7000;
  return t;
}

ParsedRecord with_trace(const HttpTiming& t) {
  ParsedRecord r = streamed({5}, 1, 10);
  r.http = t;
  return r;
}

}  // namespace

TEST_CASE("http_req metrics of a fresh connection follow the k6 phase formulas") {
  const auto m = http_metrics(with_trace(fresh_connection()));
  CHECK(m.at("http_req_blocked") == 0);            // never queued for a slot
  CHECK(m.at("http_req_dns_lookup") == 400);       // 1400 - 1000
  CHECK(m.at("http_req_connecting") == 1500);      // 2900 - 1400
  CHECK(m.at("http_req_sending") == 250);          // 3250 - 3000
  CHECK(m.at("http_req_waiting") == 1750);         // 5000 - 3250
  CHECK(m.at("http_req_receiving") == 2000);       // 7000 - 5000
  CHECK(m.at("http_req_connection_reused") == 0);
  CHECK(m.at("http_req_data_sent") == 512);
  CHECK(m.at("http_req_chunks_sent") == 1);
  CHECK(m.at("http_req_data_received") == 300);
  CHECK(m.at("http_req_chunks_received") == 3);
  CHECK(m.at("http_req_connection_overhead") == 1900);  // 0 + 400 + 1500
  CHECK(m.at("http_req_duration") == 4000);             // 7000 - 3000
  CHECK(m.at("http_req_total") == 5900);                // 0 + 400 + 1500 + 250 + 1750 + 2000
  CHECK(m.size() == 14);
}

TEST_CASE("a reused connection has no DNS or connect time even if stale stamps remain") {
  HttpTiming t = fresh_connection();
  t.connection_reused_ns = 900;
  const auto m = http_metrics(with_trace(t));
  CHECK(m.at("http_req_connection_reused") == 1);
  CHECK(m.at("http_req_dns_lookup") == 0);
  CHECK(m.at("http_req_connecting") == 0);
  CHECK(m.at("http_req_connection_overhead") == 0);
  CHECK(m.at("http_req_total") == 4000);  // 250 + 1750 + 2000
}

TEST_CASE("DNS cache hit and IP literal count as a zero lookup") {
  HttpTiming hit = fresh_connection();
  hit.dns_cache_hit_ns = 1000;
  CHECK(http_metrics(with_trace(hit)).at("http_req_dns_lookup") == 0);
  HttpTiming ip = fresh_connection();
  ip.dns_start_ns = ip.dns_end_ns = 0;
  CHECK(http_metrics(with_trace(ip)).at("http_req_dns_lookup") == 0);
}

TEST_CASE("pool wait is the blocked phase, and an unfinished wait has no value") {
  HttpTiming t = fresh_connection();
  t.pool_wait_start_ns = 100;
  t.pool_wait_end_ns = 700;
  auto m = http_metrics(with_trace(t));
  CHECK(m.at("http_req_blocked") == 600);
  CHECK(m.at("http_req_connection_overhead") == 2500);  // 600 + 400 + 1500
  CHECK(m.at("http_req_total") == 6500);
  t.pool_wait_end_ns = 0;
  m = http_metrics(with_trace(t));
  CHECK(m.count("http_req_blocked") == 0);
  CHECK(m.at("http_req_connection_overhead") == 1900);  // a missing phase counts 0
}

TEST_CASE("one response chunk receives in zero time, none leaves waiting/receiving/duration out") {
  HttpTiming one = fresh_connection();
  one.response_chunks = 1;
  one.last_chunk_ns = one.first_chunk_ns;
  auto m = http_metrics(with_trace(one));
  CHECK(m.at("http_req_receiving") == 0);
  CHECK(m.at("http_req_duration") == 2000);  // 5000 - 3000

  HttpTiming none = fresh_connection();
  none.response_chunks = 0;
  none.response_bytes = 0;
  none.first_chunk_ns = none.last_chunk_ns = 0;
  m = http_metrics(with_trace(none));
  CHECK(m.count("http_req_waiting") == 0);
  CHECK(m.count("http_req_receiving") == 0);
  CHECK(m.count("http_req_duration") == 0);
  CHECK(m.at("http_req_data_received") == 0);
  CHECK(m.at("http_req_chunks_received") == 0);
}

TEST_CASE("without a request body chunk there is no send end: sending and waiting are absent") {
  HttpTiming t = fresh_connection();
  t.send_end_ns = 0;
  t.request_chunks = 0;
  t.request_bytes = 0;
  const auto m = http_metrics(with_trace(t));
  CHECK(m.count("http_req_sending") == 0);
  CHECK(m.count("http_req_waiting") == 0);
  CHECK(m.at("http_req_data_sent") == 0);
  CHECK(m.at("http_req_total") == 3900);  // 400 + 1500 + 2000
}

TEST_CASE("http_req metrics exist only with http_trace, and not for records without a trace") {
  CHECK(http_metrics(with_trace(fresh_connection()), MetricContext{}).empty());
  const auto m = http_metrics(streamed({5}, 1, 10));  // no trace at all
  // AIPerf's overhead and total read their inputs with a default of 0.
  CHECK(m == std::map<std::string, double>{{"http_req_connection_overhead", 0}, {"http_req_total", 0}});
}

TEST_CASE("http_req metrics are declared as AIPerf declares them") {
  struct Expected {
    const char* tag;
    const char* header;
    const char* unit;
    const char* display_unit;
    int order;
  };
  const Expected expected[] = {
      {"http_req_blocked", "HTTP Blocked", "ns", "ms", 2000},
      {"http_req_dns_lookup", "HTTP DNS Lookup", "ns", "ms", 2010},
      {"http_req_connecting", "HTTP Connecting", "ns", "ms", 2020},
      {"http_req_sending", "HTTP Sending", "ns", "ms", 2030},
      {"http_req_waiting", "HTTP Waiting (TTFB)", "ns", "ms", 2040},
      {"http_req_receiving", "HTTP Receiving", "ns", "ms", 2050},
      {"http_req_connection_reused", "HTTP Connection Reused", "ratio", "ratio", 2060},
      {"http_req_data_sent", "HTTP Data Sent", "B", "KB", 2070},
      {"http_req_chunks_sent", "HTTP Chunks Sent", "count", "count", 2080},
      {"http_req_data_received", "HTTP Data Received", "B", "KB", 2090},
      {"http_req_chunks_received", "HTTP Chunks Received", "count", "count", 2100},
      {"http_req_connection_overhead", "HTTP Connection Overhead", "ns", "ms", 2110},
      {"http_req_duration", "HTTP Duration (excl. conn)", "ns", "ms", 2120},
      {"http_req_total", "HTTP Total Time", "ns", "ms", 2130},
  };
  for (const auto& e : expected) {
    INFO(e.tag);
    const MetricDescriptor* d = builtin_metrics().find(e.tag);
    REQUIRE(d);
    CHECK(d->header == e.header);
    CHECK(d->unit == e.unit);
    CHECK(d->display_unit == e.display_unit);
    CHECK(d->display_order == e.order);
    CHECK(d->flags == (flags::kHttpTraceOnly | flags::kNoConsole));
    CHECK(d->kind == MetricKind::kRecord);
    CHECK(d->value_type == ValueType::kInt);
  }
}
