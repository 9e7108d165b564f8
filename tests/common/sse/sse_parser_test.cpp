#include "sse/sse_parser.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using aiperf::sse::SseEvent;
using aiperf::sse::SseParser;

namespace {

// A vLLM-style OpenAI chat stream: role chunk, content chunks, finish chunk, usage, [DONE].
std::string chat_stream() {
  const std::string head =
      R"({"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"m",)";
  std::string s;
  s += "data: " + head + R"("choices":[{"index":0,"delta":{"role":"assistant","content":""}}]})" +
       "\n\n";
  for (const char* word : {"Hello", " world", ",", " this", " is", " a", " test", "."}) {
    s += "data: " + head + R"("choices":[{"index":0,"delta":{"content":")" + word +
         R"("},"finish_reason":null}]})" + "\n\n";
  }
  s += "data: " + head + R"("choices":[{"index":0,"delta":{},"finish_reason":"stop"}]})" + "\n\n";
  s += "data: " + head +
       R"("choices":[],"usage":{"prompt_tokens":12,"completion_tokens":8,"total_tokens":20}})" +
       "\n\n";
  s += "data: [DONE]\n\n";
  return s;
}

std::vector<SseEvent> parse_pieces(const std::vector<std::string>& pieces) {
  SseParser parser;
  std::vector<SseEvent> out;
  int64_t t = 0;
  for (const auto& piece : pieces) parser.feed(piece, ++t, out);
  parser.finish(++t, out);
  return out;
}

// Events without timestamps, for comparing different splits of one stream.
std::vector<std::string> contents(const std::vector<SseEvent>& events) {
  std::vector<std::string> v;
  for (const auto& e : events) {
    v.push_back(e.event + "|" + e.id + "|" + e.comment + "|" + (e.has_data ? "D" : "-") + e.data);
  }
  return v;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t pos = 0; (pos = s.find(from, pos)) != std::string::npos; pos += to.size()) {
    s.replace(pos, from.size(), to);
  }
  return s;
}

}  // namespace

TEST_CASE("chat stream parsed whole gives one event per message") {
  const auto events = parse_pieces({chat_stream()});
  REQUIRE(events.size() == 12);
  CHECK(events.front().data.find(R"("role":"assistant")") != std::string::npos);
  CHECK(events[1].data.find(R"("content":"Hello")") != std::string::npos);
  CHECK(events[10].data.find(R"("usage":{"prompt_tokens":12)") != std::string::npos);
  CHECK(events.back().data == "[DONE]");
  for (const auto& e : events) {
    CHECK(e.perf_ns == 1);
    CHECK(e.has_data);
    CHECK(e.event.empty());
  }
}

TEST_CASE("chat stream split at every byte boundary gives identical events") {
  const std::string stream = chat_stream();
  const auto expected = contents(parse_pieces({stream}));
  for (size_t cut = 0; cut <= stream.size(); ++cut) {
    const auto got = parse_pieces({stream.substr(0, cut), stream.substr(cut)});
    REQUIRE(contents(got) == expected);
  }
}

TEST_CASE("chat stream fed byte by byte gives identical events, stamped by completing byte") {
  const std::string stream = chat_stream();
  std::vector<std::string> bytes;
  for (char c : stream) bytes.emplace_back(1, c);
  const auto got = parse_pieces(bytes);
  REQUIRE(contents(got) == contents(parse_pieces({stream})));
  // Each event is completed by the second '\n' of its terminator; pieces are stamped 1..N.
  size_t pos = 0;
  for (const auto& e : got) {
    pos = stream.find("\n\n", pos) + 2;
    CHECK(e.perf_ns == static_cast<int64_t>(pos));
  }
}

TEST_CASE("CRLF and CR line endings parse like LF, across every split") {
  const std::string lf = chat_stream();
  const auto expected = contents(parse_pieces({lf}));
  for (const std::string eol : {"\r\n", "\r"}) {
    const std::string stream = replace_all(lf, "\n", eol);
    REQUIRE(contents(parse_pieces({stream})) == expected);
    for (size_t cut = 0; cut <= stream.size(); ++cut) {
      REQUIRE(contents(parse_pieces({stream.substr(0, cut), stream.substr(cut)})) == expected);
    }
  }
}

TEST_CASE("CR closing one chunk and LF opening the next are a single line end") {
  SseParser parser;
  std::vector<SseEvent> out;
  parser.feed("data: a\r", 1, out);
  parser.feed("\ndata: b\r", 2, out);
  CHECK(out.empty());
  parser.feed("\n\r\n", 3, out);
  REQUIRE(out.size() == 1);
  CHECK(out[0].data == "a\nb");
  CHECK(out[0].perf_ns == 3);
}

TEST_CASE("fields: event, id, retry, comment, no colon, leading space, multi-line data") {
  const auto events = parse_pieces({
      ": keep-alive\n\n"
      "event: error\n: first comment\n: second comment\ndata: {\"error\":\"boom\"}\n\n"
      "id: 7\ndata:no-space\ndata:  two-spaces\ndata\n\n"
      "retry: 1000\n\n"
      "unknown: ignored\n\n"
      "\n\n\n"});
  REQUIRE(events.size() == 4);
  CHECK(events[0].comment == "keep-alive");
  CHECK_FALSE(events[0].has_data);
  CHECK(events[1].event == "error");
  CHECK(events[1].comment == "first comment");
  CHECK(events[1].data == R"({"error":"boom"})");
  CHECK(events[2].id == "7");
  CHECK(events[2].data == "no-space\n two-spaces\n");
  CHECK(events[3].data.empty());
  CHECK_FALSE(events[3].has_data);
}

TEST_CASE("multiple events in one chunk all get that chunk's timestamp") {
  SseParser parser;
  std::vector<SseEvent> out;
  parser.feed("data: 1\n\ndata: 2\n\ndata: 3", 100, out);
  REQUIRE(out.size() == 2);
  parser.feed("\n\ndata: 4\n\n", 200, out);
  REQUIRE(out.size() == 4);
  CHECK(out[0].perf_ns == 100);
  CHECK(out[1].perf_ns == 100);
  CHECK(out[2].data == "3");
  CHECK(out[2].perf_ns == 200);
  CHECK(out[3].perf_ns == 200);
}

TEST_CASE("finish flushes an unterminated event with the EOF timestamp") {
  SseParser parser;
  std::vector<SseEvent> out;
  parser.feed("data: 1\n\ndata: tail", 5, out);
  REQUIRE(out.size() == 1);
  parser.finish(9, out);
  REQUIRE(out.size() == 2);
  CHECK(out[1].data == "tail");
  CHECK(out[1].perf_ns == 9);
  parser.finish(10, out);
  CHECK(out.size() == 2);
}
