// The worker's trace -> http_req_* phases and the --export-http-trace "trace_data" object.
#include "http_trace.h"

#include <catch2/catch.hpp>

using namespace aiperf;
using aiperf::record_processor::format_trace_data;
using aiperf::record_processor::http_timing;

namespace {

// Steady clock starts at 1000 ns = wall 1'700'000'000'000'000'000 ns.
constexpr int64_t kWall0 = 1'700'000'000'000'000'000;
constexpr int64_t kPerf0 = 1'000;

void header(google::protobuf::RepeatedPtrField<proto::HttpHeader>* out, const char* name, const char* value) {
  proto::HttpHeader* h = out->Add();
  h->set_name(name);
  h->set_value(value);
}

// A new connection to a host name: DNS miss 1000..1400, TCP 1400..2000, TLS 2000..2900,
// one write of head + 512-byte body 3000..3250, headers at 4000, body chunks at 5000 (100 B)
// and 7000 (200 B).
proto::RawRecord traced_record() {
  proto::RawRecord raw;
  raw.set_start_perf_ns(kPerf0);
  raw.set_start_wall_ns(kWall0);
  raw.set_status_code(200);
  raw.set_ack_perf_ns(4000);
  raw.set_end_perf_ns(7000);
  proto::BodyChunk* c = raw.add_chunks();
  c->set_perf_ns(5000);
  c->set_data(std::string(100, 'a'));
  c = raw.add_chunks();
  c->set_perf_ns(7000);
  c->set_data(std::string(200, 'b'));
  proto::HttpTrace* t = raw.mutable_trace();
  t->set_dns_cache_miss_perf_ns(1000);
  t->set_dns_start_perf_ns(1000);
  t->set_dns_end_perf_ns(1400);
  t->set_tcp_connect_start_perf_ns(1400);
  t->set_tcp_connect_end_perf_ns(2000);
  t->set_tls_start_perf_ns(2000);
  t->set_tls_end_perf_ns(2900);
  t->set_send_start_perf_ns(3000);
  t->set_send_end_perf_ns(3250);
  t->set_bytes_sent(700);
  t->set_body_bytes_sent(512);
  t->set_response_reason("OK");
  t->set_local_ip("127.0.0.1");
  t->set_local_port(40000);
  t->set_remote_ip("127.0.0.1");
  t->set_remote_port(8000);
  header(t->mutable_request_headers(), "Content-Type", "application/json");
  header(t->mutable_request_headers(), "Authorization", "Bearer sk-secret");
  header(t->mutable_response_headers(), "content-type", "text/event-stream");
  header(t->mutable_response_headers(), "set-cookie", "a=1");
  header(t->mutable_response_headers(), "set-cookie", "b=2");
  return raw;
}

}  // namespace

TEST_CASE("http_timing: connect ends after TLS, the body is the one request chunk") {
  const auto t = http_timing(traced_record());
  REQUIRE(t);
  CHECK(t->dns_start_ns == 1000);
  CHECK(t->dns_end_ns == 1400);
  CHECK(t->connect_start_ns == 1400);
  CHECK(t->connect_end_ns == 2900);  // TCP + TLS, as aiohttp's connection create end
  CHECK(t->send_start_ns == 3000);
  CHECK(t->send_end_ns == 3250);
  CHECK(t->request_chunks == 1);
  CHECK(t->request_bytes == 512);   // the head is not a chunk
  CHECK(t->response_chunks == 2);
  CHECK(t->response_bytes == 300);
  CHECK(t->first_chunk_ns == 5000);
  CHECK(t->last_chunk_ns == 7000);
  CHECK(t->connection_reused_ns == 0);

  proto::RawRecord no_body = traced_record();
  no_body.mutable_trace()->set_body_bytes_sent(0);
  const auto nb = http_timing(no_body);
  CHECK(nb->request_chunks == 0);
  CHECK(nb->send_end_ns == 0);
  CHECK_FALSE(http_timing(proto::RawRecord{}));
}

TEST_CASE("trace_data: AIPerf's AioHttpTraceDataExport keys, wall clock, credentials redacted") {
  // Wall = kWall0 + (perf - 1000), e.g. perf 3000 -> ...002000.
  CHECK(format_trace_data(traced_record()) ==
        R"({"trace_type":"aiohttp","request_send_start_ns":1700000000000002000,)"
        R"("request_headers":{"Content-Type":"application/json","Authorization":"<redacted>"},)"
        R"("request_headers_sent_ns":1700000000000002250,"request_chunks":[[1700000000000002250,512]],)"
        R"("request_send_end_ns":1700000000000002250,"request_chunks_count":1,"request_bytes_total":512,)"
        R"("response_status_code":200,"response_reason":"OK",)"
        R"("response_receive_start_ns":1700000000000004000,)"
        R"("response_headers":{"content-type":"text/event-stream","set-cookie":"b=2"},)"
        R"("response_headers_received_ns":1700000000000003000,)"
        R"("response_chunks":[[1700000000000004000,100],[1700000000000006000,200]],)"
        R"("response_chunks_count":2,"response_bytes_total":300,)"
        R"("response_receive_end_ns":1700000000000006000,)"
        R"("tcp_connect_start_ns":1700000000000000400,"tcp_connect_end_ns":1700000000000001900,)"
        R"("dns_cache_miss_ns":1700000000000000000,"dns_lookup_start_ns":1700000000000000000,)"
        R"("dns_lookup_end_ns":1700000000000000400,)"
        R"("local_ip":"127.0.0.1","local_port":40000,"remote_ip":"127.0.0.1","remote_port":8000,)"
        R"("sending_ns":250,"waiting_ns":1750,"receiving_ns":2000,"duration_ns":4000,)"
        R"("dns_lookup_ns":400,"connecting_ns":1500,)"
        R"("tls_handshake_start_ns":1700000000000001000,"tls_handshake_end_ns":1700000000000001900})");
}

TEST_CASE("trace_data of a reused connection and of a refused connection") {
  proto::RawRecord reused = traced_record();
  proto::HttpTrace* t = reused.mutable_trace();
  for (auto f : {&proto::HttpTrace::clear_dns_cache_miss_perf_ns, &proto::HttpTrace::clear_dns_start_perf_ns,
                  &proto::HttpTrace::clear_dns_end_perf_ns, &proto::HttpTrace::clear_tcp_connect_start_perf_ns,
                  &proto::HttpTrace::clear_tcp_connect_end_perf_ns, &proto::HttpTrace::clear_tls_start_perf_ns,
                  &proto::HttpTrace::clear_tls_end_perf_ns}) {
    (t->*f)();
  }
  t->set_connection_reused_perf_ns(2500);
  const std::string json = format_trace_data(reused);
  CHECK(json.find(R"("connection_reused_ns":1700000000000001500,"local_ip")") != std::string::npos);
  CHECK(json.find("tcp_connect") == std::string::npos);
  CHECK(json.find("dns_") == std::string::npos);
  CHECK(json.find("connecting_ns") == std::string::npos);

  // Connection refused: nothing sent or received, only the failure time.
  proto::RawRecord refused;
  refused.set_start_perf_ns(kPerf0);
  refused.set_start_wall_ns(kWall0);
  refused.set_end_perf_ns(1500);
  refused.mutable_trace()->set_tcp_connect_start_perf_ns(1100);
  refused.mutable_trace()->set_error_perf_ns(1500);
  CHECK(format_trace_data(refused) ==
        R"({"trace_type":"aiohttp","request_chunks":[],"request_chunks_count":0,"request_bytes_total":0,)"
        R"("response_chunks":[],"response_chunks_count":0,"response_bytes_total":0,)"
        R"("error_timestamp_ns":1700000000000000500,"tcp_connect_start_ns":1700000000000000100})");
}
