#include "metrics/record_jsonl.h"

#include <catch2/catch.hpp>

using namespace aiperf;
using namespace aiperf::metrics;

namespace {

void scalar(proto::MetricRecord& rec, const std::string& tag, double v) {
  auto* mv = rec.add_metrics();
  mv->set_tag(tag);
  mv->set_value(v);
}

}  // namespace

TEST_CASE("jsonl line of a successful streaming record matches AIPerf byte for byte") {
  proto::MetricRecord rec;
  auto* md = rec.mutable_metadata();
  md->set_session_num(45);
  md->set_x_request_id("7609a2e7");
  md->set_x_correlation_id("32ee4f33");
  md->set_conversation_id("77aa5b0e");
  md->set_turn_index(0);
  md->set_credit_issued_ns(1759813207532100000);
  md->set_request_start_ns(1759813207532900363);
  md->set_request_ack_ns(1759813207650730976);
  md->set_request_end_ns(1759813207838764604);
  md->set_worker_id("worker_359d423a");
  md->set_record_processor_id("record_processor_1fa47cd7");
  md->set_phase(proto::PHASE_PROFILING);
  scalar(rec, "input_sequence_length", 550);
  scalar(rec, "time_to_first_token", 255886568);
  scalar(rec, "request_latency", 297525228);
  scalar(rec, "output_token_count", 9);
  auto* icl = rec.add_metrics();
  icl->set_tag("inter_chunk_latency");
  icl->set_is_list(true);
  icl->add_values(4898437);
  icl->add_values(5316006);
  scalar(rec, "output_sequence_length", 9);
  scalar(rec, "inter_token_latency", 5204832.5);
  scalar(rec, "output_token_throughput_per_user", 192.1291415237666);
  scalar(rec, "request_count", 1);                  // NO_INDIVIDUAL_RECORDS: left out
  scalar(rec, "min_request_timestamp", 1.0e18);     // INTERNAL: left out
  scalar(rec, "not_a_metric", 1);                   // unknown: left out

  CHECK(format_record_jsonl(rec, MetricContext{}) ==
        R"({"metadata":{"session_num":45,"x_request_id":"7609a2e7","x_correlation_id":"32ee4f33",)"
        R"("conversation_id":"77aa5b0e","turn_index":0,"credit_issued_ns":1759813207532100000,)"
        R"("request_start_ns":1759813207532900363,"request_ack_ns":1759813207650730976,)"
        R"("request_end_ns":1759813207838764604,"worker_id":"worker_359d423a",)"
        R"("record_processor_id":"record_processor_1fa47cd7","benchmark_phase":"profiling",)"
        R"("was_cancelled":false},"metrics":{"input_sequence_length":{"value":550,"unit":"tokens"},)"
        R"("time_to_first_token":{"value":255.886568,"unit":"ms"},)"
        R"("request_latency":{"value":297.525228,"unit":"ms"},)"
        R"("output_token_count":{"value":9,"unit":"tokens"},)"
        R"("inter_chunk_latency":{"value":[4.898437,5.316006],"unit":"ms"},)"
        R"("output_sequence_length":{"value":9,"unit":"tokens"},)"
        R"("inter_token_latency":{"value":5.2048325,"unit":"ms"},)"
        R"("output_token_throughput_per_user":{"value":192.1291415237666,"unit":"tokens/sec/user"}}})");
}

TEST_CASE("jsonl line of a cancelled error record") {
  proto::MetricRecord rec;
  auto* md = rec.mutable_metadata();
  md->set_session_num(80);
  md->set_x_request_id("r");
  md->set_x_correlation_id("c");
  md->set_conversation_id("v");
  md->set_turn_index(1);
  md->set_credit_issued_ns(10);
  md->set_request_start_ns(11);
  md->set_request_end_ns(12);
  md->set_worker_id("w");
  md->set_record_processor_id("p");
  md->set_phase(proto::PHASE_WARMUP);
  md->set_was_cancelled(true);
  md->set_cancellation_time_ns(12);
  scalar(rec, "error_isl", 550);
  rec.mutable_error()->set_code(499);
  rec.mutable_error()->set_type("RequestCancellationError");
  rec.mutable_error()->set_message("Request was cancelled after 0.000 seconds");

  const std::string expected_prefix =
      R"({"metadata":{"session_num":80,"x_request_id":"r","x_correlation_id":"c",)"
      R"("conversation_id":"v","turn_index":1,"credit_issued_ns":10,"request_start_ns":11,)"
      R"("request_end_ns":12,"worker_id":"w","record_processor_id":"p",)"
      R"("benchmark_phase":"warmup","was_cancelled":true,"cancellation_time_ns":12},)"
      R"("metrics":{"error_isl":{"value":550,"unit":"tokens"}},)";
  CHECK(format_record_jsonl(rec, MetricContext{}) ==
        expected_prefix +
            R"("error":{"code":499,"type":"RequestCancellationError",)"
            R"("message":"Request was cancelled after 0.000 seconds"}})");

  rec.mutable_error()->clear_code();
  rec.mutable_error()->set_message("line1\n\"quoted\"");
  CHECK(format_record_jsonl(rec, MetricContext{}) ==
        expected_prefix +
            R"("error":{"type":"RequestCancellationError","message":"line1\n\"quoted\""}})");
}
