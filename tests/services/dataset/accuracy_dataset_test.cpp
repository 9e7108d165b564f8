// --accuracy-benchmark's dataset: one single-turn conversation per problem, with the messages
// (chat endpoints), the flat prompt, the budget and the stop sequence; ids as the record
// processors compute them; the whole RunConfig through its JSON, as services receive it.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "accuracy/problems.h"
#include "accuracy_dataset.h"
#include "dataset_core.h"

using aiperf::config::RunConfig;

namespace {
RunConfig accuracy_config(const std::string& benchmark, const std::string& endpoint) {
  RunConfig c;
  c.endpoint.type = endpoint;
  c.endpoint.model_names = {"m"};
  c.accuracy.benchmark = benchmark;
  c.accuracy.hub_cache = std::string(AIPERF_TEST_DATA) + "/accuracy/hub";
  c.benchmark_id = "run-1";
  return aiperf::config::run_config_from_json(aiperf::config::to_json(c));
}
}  // namespace

TEST_CASE("accuracy dataset: mmlu over chat, one conversation per problem in order") {
  RunConfig c = accuracy_config("mmlu", "chat");
  c.accuracy.tasks = {"anatomy"};
  const auto d = aiperf::dataset::build_dataset(c);
  CHECK(d.sampling_strategy == "sequential");
  REQUIRE(d.conversations.size() == 3);
  const auto& turn = d.conversations[1].turns(0);
  CHECK(d.conversations[1].session_id() == aiperf::accuracy::problem_conversation_id("run-1", std::nullopt, 1));
  CHECK(turn.max_tokens() == 5);
  CHECK(turn.extra_body() == R"({"stop":["\n"]})");
  const auto messages = nlohmann::json::parse(turn.raw_messages());
  REQUIRE(messages.size() == 11);
  CHECK(messages[10]["content"].get<std::string>().rfind("Question: QAN1 question about anatomy?", 0) == 0);
  REQUIRE(turn.texts_size() == 1);
  CHECK(turn.texts(0).contents(0).rfind("The following are multiple choice questions (with answers) about anatomy.",
                                        0) == 0);
}

TEST_CASE("accuracy dataset: gsm8k over completions sends the flat prompt only, ids from the seed") {
  RunConfig c = accuracy_config("gsm8k", "completions");
  c.input.random_seed = 5;
  const auto convs = aiperf::dataset::accuracy_conversations(c);
  REQUIRE(convs.size() == 4);
  CHECK(convs[3].session_id() == "session_000003");
  CHECK(convs[3].turns(0).raw_messages().empty());
  CHECK(convs[3].turns(0).texts(0).contents(0) == "Question: What is 7 minus 10?\nAnswer:");
  CHECK(convs[3].turns(0).max_tokens() == 256);
  CHECK(convs[3].turns(0).extra_body().empty());
}
