// `aiperf chat` as a user runs it against the mock: one --quick message, a piped multi-turn
// session (history resent, or not with --no-history), and the failures' panels and exit codes.
#include <algorithm>
#include <catch2/catch.hpp>
#include <regex>
#include <string>
#include <vector>

#include "process.h"

using namespace aiperf::test;

namespace {

const std::string kAiperf = std::string(AIPERF_BIN_DIR) + "/aiperf";

struct ChatRun {
  int exit_code = -1;
  std::string out, err;
};

// `stdin_text` is piped in through the shell (the REPL reads lines until end of input).
ChatRun run_chat(const std::string& tmp, const std::vector<std::string>& args, const std::string& stdin_text = "") {
  std::string cmd = "printf '" + stdin_text + "' | '" + kAiperf + "' chat";
  bool tokenizer = false;
  for (const std::string& a : args) {
    cmd += " '" + a + "'";
    tokenizer = tokenizer || a == "--tokenizer";
  }
  if (!tokenizer) cmd += " --tokenizer gpt2";
  Process p("/bin/sh", {"-c", cmd}, tmp, "chat");
  const auto rc = p.wait(60);
  REQUIRE(rc);
  return {*rc, p.out(), p.err()};
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("aiperf chat --quick: one streamed reply, then its stats", "[e2e]") {
  const std::string tmp = make_temp_dir();
  // 40 ms TTFT and 5 ms ITL; the server reports up to 16 cached prompt tokens.
  MockServer mock(
      {"--ttft", "40", "--itl", "5", "--usage-cached-tokens", "16", "--record-requests", tmp + "/requests.jsonl"}, tmp);
  const ChatRun r = run_chat(tmp, {"-m", "mock", "-u", mock.url(), "-q", "hello there", "--system-prompt", "be brief",
                                   "--api-key", "sk-test"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  std::smatch m;
  REQUIRE(std::regex_search(
      r.out, m,
      std::regex(R"(\nTTFT: ([0-9.]+) ms\nTPS:  ([0-9.]+) tokens/s \(([0-9]+) tokens in ([0-9.]+)s\)\n)"
                 R"(ITL:  ([0-9.]+) ms/token \(decode ([0-9.]+) tokens/s\)\nCache: ([0-9]+)/([0-9]+) prompt )"
                 R"(tokens cached \(([0-9.]+)%\)\n$)")));
  CHECK(std::stod(m[1]) >= 40.0);
  CHECK(std::stod(m[5]) == Approx(5.0).margin(1.5));  // the mock's ITL, as AIPerf's metric
  CHECK(std::stod(m[6]) == Approx(1000.0 / std::stod(m[5])).epsilon(0.01));
  const double tps = std::stod(m[2]), latency_s = std::stod(m[4]);
  CHECK(tps == Approx(std::stod(m[3]) / latency_s).epsilon(0.1));  // latency printed to 2 decimals
  // The server's prompt_tokens and its cached_tokens = min(16, prompt tokens).
  const int cached = std::stoi(m[7]), isl = std::stoi(m[8]);
  CHECK(cached == std::min(16, isl));
  CHECK(std::stod(m[9]) == Approx(100.0 * cached / isl).margin(0.05));
  // The reply came first, on its own line before the stats.
  CHECK(r.out.find("\nTTFT: ") > 0);
  const auto bodies = recorded_bodies(tmp + "/requests.jsonl");
  REQUIRE(bodies.size() == 1);
  CHECK(bodies[0]["messages"] == nlohmann::json::parse(R"([{"role":"system","content":"be brief"},)"
                                                       R"({"role":"user","content":"hello there"}])"));
  CHECK(bodies[0]["model"] == "mock");
  CHECK(bodies[0]["stream"] == true);
  CHECK(bodies[0]["stream_options"] == nlohmann::json::parse(R"({"include_usage":true})"));
}

TEST_CASE("aiperf chat: a piped session resends the history, --no-history does not", "[e2e]") {
  const std::string tmp = make_temp_dir();
  MockServer mock({"--fast", "--record-requests", tmp + "/requests.jsonl"}, tmp);
  const ChatRun r = run_chat(tmp, {"-m", "mock", "-u", mock.url()}, "first\\nsecond\\n");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.rfind("Please enter a message for the chat model (Ctrl-D to exit):\n> ", 0) == 0);
  CHECK(r.out.size() > 3);
  CHECK(r.out.substr(r.out.size() - 3) == "> \n");  // end of input: a newline, exit 0
  auto bodies = recorded_bodies(tmp + "/requests.jsonl");
  REQUIRE(bodies.size() == 2);
  const auto& second = bodies[1]["messages"];
  REQUIRE(second.size() == 3);
  CHECK(second[0] == nlohmann::json::parse(R"({"role":"user","content":"first"})"));
  CHECK(second[1]["role"] == "assistant");
  CHECK_FALSE(second[1]["content"].get<std::string>().empty());
  CHECK(has(r.out, "> " + second[1]["content"].get<std::string>() + "\nTTFT: "));  // what was shown is what is resent
  CHECK(second[2] == nlohmann::json::parse(R"({"role":"user","content":"second"})"));

  const ChatRun alone = run_chat(tmp, {"-m", "mock", "-u", mock.url() + "/v1", "--no-history"}, "a\\nb\\n");
  REQUIRE(alone.exit_code == 0);
  bodies = recorded_bodies(tmp + "/requests.jsonl");
  REQUIRE(bodies.size() == 4);
  CHECK(bodies[3]["messages"] == nlohmann::json::parse(R"([{"role":"user","content":"b"}])"));
}

TEST_CASE("aiperf chat: failures are AIPerf's error panel and exit 1; the session survives them", "[e2e]") {
  const std::string tmp = make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  const ChatRun wrong_path = run_chat(tmp, {"-m", "mock", "-u", mock.url() + "/foo", "-q", "hi"});
  CHECK(wrong_path.exit_code == 1);
  CHECK(wrong_path.err.rfind("\u256d\u2500 Error running aiperf chat \u2500", 0) == 0);
  CHECK(has(wrong_path.err, "\u2502 404, message='Not Found: "));
  CHECK(has(wrong_path.err, "url='" + mock.url() + "/foo/v1/chat/completions'"));

  const int port = free_port_range(1);
  const ChatRun refused = run_chat(tmp, {"-m", "mock", "-u", "127.0.0.1:" + std::to_string(port), "-q", "hi"});
  CHECK(refused.exit_code == 1);
  CHECK(has(refused.err, "Cannot connect to host 127.0.0.1:" + std::to_string(port)));

  // In the REPL a failed turn is reported and the next line is read.
  const ChatRun repl = run_chat(tmp, {"-m", "mock", "-u", "127.0.0.1:" + std::to_string(port)}, "x\\ny\\n");
  CHECK(repl.exit_code == 0);
  CHECK(has(repl.err, "request failed: Cannot connect to host"));
  CHECK(repl.err.find("request failed:", repl.err.find("request failed:") + 1) != std::string::npos);

  const ChatRun no_tokenizer = run_chat(tmp, {"-m", "mock", "--tokenizer", tmp + "/missing", "-q", "hi"});
  CHECK(no_tokenizer.exit_code == 1);
  CHECK(has(no_tokenizer.err, "Failed to load tokenizer '" + tmp + "/missing'"));
}
