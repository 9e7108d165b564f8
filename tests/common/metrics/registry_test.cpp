#include "metrics/metric_registry.h"

#include <catch2/catch.hpp>

using namespace aiperf::metrics;

TEST_CASE("flag bits are AIPerf's") {
  CHECK(flags::kStreamingOnly == 1);
  CHECK(flags::kErrorOnly == 2);
  CHECK(flags::kNoConsole == 8);
  CHECK(flags::kInternal == 32);
  CHECK(flags::kSupportsReasoning == 256);
  CHECK(flags::kNoIndividualRecords == 2048);
  CHECK(flags::kTokenizesInputOnly == 4096);
  CHECK(flags::kProducesVideoOnly == 65536);
  CHECK(flags::kStreamingTokensOnly == 5);
}

TEST_CASE("applicability follows the flags of spec 6.1") {
  MetricContext ctx;
  CHECK_FALSE(flags_applicable(flags::kStreamingOnly, ctx));
  ctx.streaming = true;
  CHECK(flags_applicable(flags::kStreamingTokensOnly, ctx));
  ctx.produces_tokens = false;
  CHECK_FALSE(flags_applicable(flags::kStreamingTokensOnly, ctx));
  CHECK_FALSE(flags_applicable(flags::kExperimental, ctx));
  CHECK_FALSE(flags_applicable(flags::kGoodput, ctx));
  CHECK(flags_applicable(flags::kUsageDiffOnly, ctx));
  ctx.use_server_token_count = true;
  CHECK_FALSE(flags_applicable(flags::kUsageDiffOnly, ctx));
  CHECK(flags_applicable(flags::kInternal | flags::kErrorOnly | flags::kNoConsole, ctx));
  CHECK_FALSE(exported(flags::kInternal, ctx));
  ctx.show_internal = true;
  CHECK(exported(flags::kInternal, ctx));
}

TEST_CASE("built-in catalogue: descriptors as spec 6.2") {
  const MetricRegistry& r = builtin_metrics();
  const MetricDescriptor* ttft = r.find("time_to_first_token");
  REQUIRE(ttft);
  CHECK(ttft->header == "Time to First Token");
  CHECK(ttft->unit == "ns");
  CHECK(ttft->display_unit == "ms");
  CHECK(ttft->flags == flags::kStreamingTokensOnly);
  CHECK(ttft->display_order == 100);
  CHECK(ttft->kind == MetricKind::kRecord);
  const MetricDescriptor* tput = r.find("output_token_throughput_per_user");
  REQUIRE(tput);
  CHECK(tput->flags == (flags::kStreamingTokensOnly | flags::kLargerIsBetter));
  CHECK(r.find("benchmark_duration")->display_unit == "sec");
  CHECK(r.find("request_count")->kind == MetricKind::kAggregate);
  CHECK(r.find("request_throughput")->kind == MetricKind::kDerived);
  CHECK(r.find("error_request_count")->flags == (flags::kErrorOnly | flags::kNoIndividualRecords));
}

TEST_CASE("registry rejects duplicates and unknown dependencies") {
  MetricRegistry r;
  MetricDescriptor a;
  a.tag = "a";
  r.add(a);
  CHECK_THROWS_AS(r.add(a), std::invalid_argument);
  MetricDescriptor b;
  b.tag = "b";
  b.required = {"missing"};
  CHECK_THROWS_AS(r.add(b), std::invalid_argument);
}

TEST_CASE("a metric whose dependency is inapplicable is inapplicable") {
  MetricContext ctx;
  ctx.tokenizes_input = false;
  ctx.streaming = true;
  for (const MetricDescriptor* m : builtin_metrics().applicable(ctx)) {
    CHECK(m->tag != "prefill_throughput_per_user");
    CHECK(m->tag != "total_token_throughput");
  }
}
