// outputs.json entries as a record processor writes them (--export-outputs-json).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "output_fragment.h"

using aiperf::record_processor::format_output_fragment;

namespace {

void add(aiperf::proto::MetricRecord& rec, const std::string& tag, double value) {
  auto* mv = rec.add_metrics();
  mv->set_tag(tag);
  mv->set_value(value);
}

aiperf::proto::MetricRecord record() {
  aiperf::proto::MetricRecord rec;
  auto* md = rec.mutable_metadata();
  md->set_session_num(7);
  md->set_conversation_id("c-7");
  md->set_turn_index(2);
  md->set_x_request_id("r-7");
  md->set_request_start_ns(1000);
  md->set_request_end_ns(250001000);
  return rec;
}

}  // namespace

TEST_CASE("output fragment: reference key order, allow-listed metrics in display units, text as sent") {
  auto rec = record();
  add(rec, "inter_token_latency", 12'500'000);  // ns -> 12.5 ms
  add(rec, "request_latency", 250'000'000);     // ns -> 250.0 ms
  add(rec, "output_sequence_length", 20);
  add(rec, "input_sequence_length", 100);
  add(rec, "inter_chunk_latency", 1);  // not in the allow-list
  add(rec, "time_to_first_token", 1'000'000);
  CHECK(format_output_fragment(rec, "héllo \"x\"\n") ==
        R"({"session_num":7,"conversation_id":"c-7","turn_index":2,"x_request_id":"r-7","request_start_ns":1000,)"
        R"("request_end_ns":250001000,"metrics":{"input_sequence_length":100,"output_sequence_length":20,)"
        R"("request_latency":250.0,"time_to_first_token":1.0,"inter_token_latency":12.5},)"
        R"("response_text":"héllo \"x\"\n"})");
}

TEST_CASE("output fragment: no text is null, and invalid UTF-8 from a server still makes a JSON line") {
  auto rec = record();
  CHECK(format_output_fragment(rec, "").find(R"("metrics":{},"response_text":null})") != std::string::npos);
  const auto doc = nlohmann::json::parse(format_output_fragment(rec, std::string("ok\xff\xfe", 4)));
  CHECK(doc["response_text"] == "ok\xEF\xBF\xBD\xEF\xBF\xBD");  // each bad byte U+FFFD
}
