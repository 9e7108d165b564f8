// RecordProcessorCore's rules without sockets: a batch of raw records of a streaming chat
// endpoint becomes one batch of metric records with exact TTFT, ITL, latency and token counts
// (GPT-2's tokenizer), errors pass through as error records, a repeated prompt is counted once,
// and the raw export writes one line per profiling record.
#include "record_processor_core.h"

#include <unistd.h>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

using namespace aiperf;
using record_processor::RecordProcessorCore;

namespace {

constexpr int64_t kMs = 1'000'000;
constexpr int64_t kStartPerf = 5'000 * kMs;
constexpr int64_t kStartWall = 1'700'000'000'000'000'000;
constexpr const char* kPrompt = "What is the capital of France?";  // 7 GPT-2 tokens

struct Sink : record_processor::MetricSink {
  std::vector<proto::MetricRecordBatch> batches;
  void send(const proto::MetricRecordBatch& batch) override { batches.push_back(batch); }
};

config::RunConfig chat_config(const std::string& artifact_dir = "") {
  config::RunConfig config;
  config.endpoint.type = "chat";
  config.endpoint.streaming = true;
  config.tokenizer.resolved_path = tok::resolve_tokenizer_path("gpt2");
  if (!artifact_dir.empty()) {
    config.output.artifact_dir = artifact_dir;
    config.output.export_level = aiperf::config::ExportLevel::kRaw;
  }
  return config;
}

std::string content_event(const std::string& text) {
  return "data: {\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"" + text + "\"}}]}\n\n";
}

// A streamed answer "Hello world!" (3 GPT-2 tokens) in chunks at 20, 30 and 40 ms after the
// start, then [DONE] at 45 ms.
proto::RawRecord streamed(uint64_t credit_id, const std::string& prompt, proto::Phase phase = proto::PHASE_PROFILING) {
  proto::RawRecord raw;
  raw.set_version(proto::PROTO_VERSION_CURRENT);
  raw.mutable_credit()->set_id(credit_id);
  raw.mutable_credit()->set_phase(phase);
  raw.mutable_credit()->set_conversation_id("conv-" + std::to_string(credit_id));
  raw.set_worker_id("worker_0");
  raw.set_x_request_id("req-" + std::to_string(credit_id));
  raw.set_streaming(true);
  raw.set_start_perf_ns(kStartPerf);
  raw.set_start_wall_ns(kStartWall);
  raw.set_ack_perf_ns(kStartPerf + 10 * kMs);
  raw.set_status_code(200);
  raw.set_content_type("text/event-stream");
  raw.set_input_text(prompt);
  raw.set_payload(R"({"model":"m","messages":[{"role":"user","content":")" + prompt + R"("}],"stream":true})");
  const std::vector<std::pair<int64_t, std::string>> chunks = {{20 * kMs, content_event("Hello")},
                                                               {30 * kMs, content_event(" world")},
                                                               {40 * kMs, content_event("!")},
                                                               {45 * kMs, "data: [DONE]\n\n"}};
  for (const auto& [t, data] : chunks) {
    auto* c = raw.add_chunks();
    c->set_perf_ns(kStartPerf + t);
    c->set_data(data);
  }
  raw.set_end_perf_ns(kStartPerf + 46 * kMs);
  return raw;
}

proto::RawRecord failed(uint64_t credit_id) {
  proto::RawRecord raw;
  raw.set_version(proto::PROTO_VERSION_CURRENT);
  raw.mutable_credit()->set_id(credit_id);
  raw.mutable_credit()->set_phase(proto::PHASE_PROFILING);
  raw.set_streaming(true);
  raw.set_start_perf_ns(kStartPerf);
  raw.set_start_wall_ns(kStartWall);
  raw.set_end_perf_ns(kStartPerf + 1'000 * kMs);
  raw.set_input_text(kPrompt);
  raw.mutable_error()->set_type("TimeoutError");
  raw.mutable_error()->set_message("Request timed out after 1 seconds");
  return raw;
}

proto::RawRecordBatch batch_of(std::vector<proto::RawRecord> records) {
  proto::RawRecordBatch batch;
  batch.set_version(proto::PROTO_VERSION_CURRENT);
  for (auto& r : records) *batch.add_records() = std::move(r);
  return batch;
}

std::optional<double> metric(const proto::MetricRecord& rec, const std::string& tag) {
  for (const auto& mv : rec.metrics())
    if (mv.tag() == tag) return mv.value();
  return std::nullopt;
}

std::vector<std::string> lines_of(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

TEST_CASE("record processor core: a streamed chat record gets exact TTFT, ITL, latency, ISL and OSL") {
  Sink sink;
  RecordProcessorCore core("record_processor_0", sink);
  core.configure(chat_config());
  REQUIRE(core.process(batch_of({streamed(3, kPrompt)})));
  REQUIRE(sink.batches.size() == 1);
  const proto::MetricRecordBatch& out = sink.batches[0];
  REQUIRE(out.records_size() == 1);
  const proto::MetricRecord& rec = out.records(0);
  CHECK_FALSE(rec.has_error());
  CHECK(metric(rec, "time_to_first_token") == 20.0 * kMs);
  CHECK(metric(rec, "request_latency") == 40.0 * kMs);      // the last content, not [DONE]
  CHECK(metric(rec, "inter_token_latency") == 10.0 * kMs);  // (40 - 20) ms / (3 - 1)
  CHECK(metric(rec, "input_sequence_length") == 7.0);
  CHECK(metric(rec, "output_sequence_length") == 3.0);
  const proto::RecordMetadata& md = rec.metadata();
  CHECK(md.session_num() == 3);
  CHECK(md.x_request_id() == "req-3");
  CHECK(md.conversation_id() == "conv-3");
  CHECK(md.worker_id() == "worker_0");
  CHECK(md.record_processor_id() == "record_processor_0");
  CHECK(md.phase() == proto::PHASE_PROFILING);
  CHECK(md.request_start_ns() == kStartWall);
  CHECK(md.request_ack_ns() == kStartWall + 10 * kMs);
  CHECK(md.request_end_ns() == kStartWall + 46 * kMs);
}

TEST_CASE("record processor core: request_ack_ns for every 2xx response, streaming or not (AIPerf 0.13)") {
  Sink sink;
  RecordProcessorCore core("record_processor_0", sink);
  config::RunConfig config = chat_config();
  config.endpoint.streaming = false;
  core.configure(config);
  proto::RawRecord plain = streamed(0, kPrompt);
  plain.set_streaming(false);
  plain.set_content_type("application/json");
  plain.clear_chunks();
  auto* body = plain.add_chunks();
  body->set_perf_ns(kStartPerf + 40 * kMs);
  body->set_data(R"({"object":"chat.completion","choices":[{"message":{"content":"Hello world!"}}]})");
  proto::RawRecord refused = plain;  // headers arrived, but with an error status
  refused.mutable_credit()->set_id(1);
  refused.set_status_code(503);
  refused.mutable_error()->set_code(503);
  refused.mutable_error()->set_type("Service Unavailable");
  REQUIRE(core.process(batch_of({plain, refused})));
  REQUIRE(sink.batches.size() == 1);
  const auto& records = sink.batches[0].records();
  REQUIRE(records.size() == 2);
  CHECK_FALSE(records[0].has_error());
  CHECK(records[0].metadata().request_ack_ns() == kStartWall + 10 * kMs);
  REQUIRE(records[1].has_error());
  CHECK_FALSE(records[1].metadata().has_request_ack_ns());
}

TEST_CASE("record processor core: error records pass through as errors, in batch order") {
  Sink sink;
  RecordProcessorCore core("record_processor_0", sink);
  core.configure(chat_config());
  REQUIRE(core.process(batch_of({streamed(0, kPrompt), failed(1), streamed(2, kPrompt)})));
  REQUIRE(sink.batches.size() == 1);
  const auto& records = sink.batches[0].records();
  REQUIRE(records.size() == 3);
  CHECK_FALSE(records[0].has_error());
  CHECK_FALSE(records[2].has_error());
  const proto::MetricRecord& err = records[1];
  CHECK(err.metadata().session_num() == 1);
  REQUIRE(err.has_error());
  CHECK(err.error().type() == "TimeoutError");
  CHECK(err.error().message() == "Request timed out after 1 seconds");
  CHECK_FALSE(metric(err, "time_to_first_token"));
  CHECK_FALSE(metric(err, "output_sequence_length"));
  CHECK(metric(records[2], "time_to_first_token") == 20.0 * kMs);
}

TEST_CASE("record processor core: a repeated prompt is counted once, a new one adds a count") {
  Sink sink;
  RecordProcessorCore core("record_processor_0", sink);
  core.configure(chat_config());
  CHECK(core.cached_input_counts() == 0);
  REQUIRE(core.process(batch_of({streamed(0, kPrompt), streamed(1, kPrompt)})));
  CHECK(core.cached_input_counts() == 1);
  REQUIRE(core.process(batch_of({streamed(2, kPrompt), streamed(3, "Hello world")})));
  CHECK(core.cached_input_counts() == 2);
  REQUIRE(sink.batches.size() == 2);
  CHECK(metric(sink.batches[0].records(0), "input_sequence_length") == 7.0);
  CHECK(metric(sink.batches[0].records(1), "input_sequence_length") == 7.0);
  CHECK(metric(sink.batches[1].records(0), "input_sequence_length") == 7.0);
  CHECK(metric(sink.batches[1].records(1), "input_sequence_length") == 2.0);
  // The same tokenizer again keeps the counts; the next run's configure does not reload it.
  core.configure(chat_config());
  CHECK(core.cached_input_counts() == 2);
}

TEST_CASE("record processor core: nothing is processed before configure") {
  Sink sink;
  RecordProcessorCore core("record_processor_0", sink);
  CHECK_FALSE(core.process(batch_of({streamed(0, kPrompt)})));
  CHECK(sink.batches.empty());
  config::RunConfig bad = chat_config();
  bad.endpoint.type = "no_such_endpoint";
  CHECK_THROWS_WITH(core.configure(bad), "unknown endpoint type no_such_endpoint");
  CHECK_FALSE(core.configured());
}

TEST_CASE("record processor core: --export-level raw writes a line per profiling record before the batch leaves") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("record_processor_core_test_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const fs::path file = dir / "raw_records" / "raw_records_record_processor_2.jsonl";
  struct LinesAtSend : record_processor::MetricSink {
    fs::path file;
    std::vector<size_t> lines_at_send;
    void send(const proto::MetricRecordBatch&) override { lines_at_send.push_back(lines_of(file).size()); }
  } sink;
  sink.file = file;
  RecordProcessorCore core("record_processor_2", sink);
  core.configure(chat_config(dir.string()));
  REQUIRE(fs::exists(file));  // created (empty) at configure
  REQUIRE(core.process(batch_of({streamed(0, kPrompt, proto::PHASE_WARMUP), streamed(1, kPrompt), failed(2)})));
  CHECK(sink.lines_at_send == std::vector<size_t>{2});  // the warmup record has no line

  const std::vector<std::string> lines = lines_of(file);
  REQUIRE(lines.size() == 2);
  const auto ok = nlohmann::json::parse(lines[0]);
  CHECK(ok["metadata"]["session_num"] == 1);
  CHECK(ok["metadata"]["x_request_id"] == "req-1");
  CHECK(ok["metadata"]["record_processor_id"] == "record_processor_2");
  CHECK(ok["start_perf_ns"] == kStartPerf);
  CHECK(ok["payload"]["messages"][0]["content"] == kPrompt);
  CHECK(ok["status"] == 200);
  REQUIRE(ok["responses"].size() == 4);  // three content events and [DONE]
  CHECK(ok["responses"][0]["perf_ns"] == kStartPerf + 20 * kMs);
  CHECK(ok["responses"][3]["packets"][0]["value"] == "[DONE]");
  CHECK_FALSE(ok.contains("error"));
  const auto err = nlohmann::json::parse(lines[1]);
  CHECK(err["metadata"]["session_num"] == 2);
  CHECK(err["responses"].empty());
  CHECK(err["error"]["type"] == "TimeoutError");
  CHECK_FALSE(err.contains("status"));
  fs::remove_all(dir);
}
