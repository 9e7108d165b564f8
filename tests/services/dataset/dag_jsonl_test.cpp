// dag_jsonl: linear DAG conversations (turns, fields, context modes, delays), the request bodies
// they make with the server's answers threaded in (the bodies AIPerf 0.13 sent for the fixture
// against our mock), the schema's errors with file, line and field, detection, root counting,
// and branching files refused.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "custom_dataset.h"
#include "dag_jsonl.h"
#include "dataset_error.h"
#include "endpoints/endpoint.h"
#include "temp_file.h"

using namespace aiperf::dataset;
using aiperf::config::CustomDatasetType;

namespace {

const std::string kDir = std::string(AIPERF_TEST_DATA) + "/datasets/dag_jsonl";

std::string write_temp(const std::string& name, const std::string& content) {
  return aiperf::testing::write_temp_file("aiperf_dag_", name, content);
}

aiperf::config::InputConfig input(const std::string& path) {
  aiperf::config::InputConfig in;
  in.input_file = path;
  in.custom_dataset_type = CustomDatasetType::kDagJsonl;
  return in;
}

CustomDataset load(const aiperf::config::InputConfig& in) {
  std::mt19937_64 rng(1);
  return load_custom_dataset(in, 1, rng);
}

CustomDataset load_text(const std::string& content) { return load(input(write_temp("dag.jsonl", content))); }

std::string load_error(const std::string& content) {
  try {
    load(input(write_temp("bad.jsonl", content)));
  } catch (const DatasetFileError& e) {
    return e.what();
  }
  return "no error";
}

aiperf::endpoints::PayloadOptions options() {
  aiperf::endpoints::PayloadOptions o;
  o.model = "m";
  o.streaming = true;
  return o;
}

const std::string kTurn = R"({"messages": [{"role": "user", "content": "hi"}]})";

}  // namespace

TEST_CASE("dag_jsonl: the linear fixture's conversations and turn fields") {
  const CustomDataset d = load(input(kDir + "/linear.jsonl"));
  REQUIRE(d.conversations.size() == 2);
  const auto& a = d.conversations[0];
  CHECK(a.session_id() == "a");
  CHECK_FALSE(a.self_contained_turns());
  CHECK_FALSE(a.discard_responses());
  REQUIRE(a.turns_size() == 2);
  // Each turn holds only its own messages, in the file's key order.
  CHECK(a.turns(0).raw_messages() ==
        R"([{"role":"system","content":"You are terse."},{"role":"user","content":"Hello there"}])");
  CHECK(a.turns(0).raw_messages_delta());
  CHECK(a.turns(0).max_tokens() == 5);
  CHECK_FALSE(a.turns(0).has_delay_ms());
  CHECK(a.turns(1).raw_messages() == R"([{"role":"user","content":"And again"}])");
  CHECK(a.turns(1).max_tokens() == 3);
  CHECK(a.turns(1).delay_ms() == 100.0);
  CHECK(a.turns(1).extra_body() == R"({"temperature":0.5})");
  const auto& b = d.conversations[1];
  CHECK(b.turns(0).model() == "other");
  CHECK_FALSE(b.turns(0).has_max_tokens());
  CHECK(b.turns(0).raw_tools() == R"([{"type":"function","function":{"name":"f"}}])");
  CHECK(d.default_sampling == "random");
  CHECK_FALSE(d.has_timestamps);
}

TEST_CASE("dag_jsonl: request bodies as AIPerf 0.13 sent them (deltas, the answer threaded in)") {
  const CustomDataset d = load(input(kDir + "/linear.jsonl"));
  const auto& chat = *aiperf::endpoints::find_endpoint("chat");
  const auto& a = d.conversations[0];
  CHECK(build_payload(chat, options(), {&a.turns(0)}, "", "") ==
        R"({"messages":[{"role":"system","content":"You are terse."},{"role":"user","content":"Hello there"}],)"
        R"("model":"m","stream":true,"max_completion_tokens":5,"stream_options":{"include_usage":true}})");
  // The worker's history: the first turn, then the server's answer as an assistant turn.
  aiperf::proto::Turn answer;
  answer.set_role("assistant");
  answer.add_texts()->add_contents(" connect redu above");
  CHECK(build_payload(chat, options(), {&a.turns(0), &answer, &a.turns(1)}, "", "") ==
        R"({"messages":[{"role":"system","content":"You are terse."},{"role":"user","content":"Hello there"},)"
        R"({"role":"assistant","content":" connect redu above"},{"role":"user","content":"And again"}],)"
        R"("model":"m","stream":true,"max_completion_tokens":3,"temperature":0.5,)"
        R"("stream_options":{"include_usage":true}})");
  const auto& b = d.conversations[1];
  CHECK(build_payload(chat, options(), {&b.turns(0)}, "", "") ==
        R"({"messages":[{"role":"user","content":"Solo question"}],"model":"other","stream":true,)"
        R"("tools":[{"type":"function","function":{"name":"f"}}],"stream_options":{"include_usage":true}})");
}

TEST_CASE("dag_jsonl: the latest tools of the conversation, before the token limit") {
  const CustomDataset d = load_text(
      R"({"session_id": "t", "turns": [{"messages": [{"role": "user", "content": "q1"}], "tools": [{"type": "x"}]},)"
      R"({"messages": [{"role": "user", "content": "q2"}]}]})"
      "\n");
  aiperf::proto::Turn second = d.conversations[0].turns(1);
  second.set_max_tokens(7);  // --osl 7: AIPerf 0.13 sent "tools", then "max_completion_tokens"
  const auto& chat = *aiperf::endpoints::find_endpoint("chat");
  aiperf::endpoints::PayloadOptions o = options();
  o.streaming = false;
  CHECK(build_payload(chat, o, {&d.conversations[0].turns(0), &second}, "", "") ==
        R"({"messages":[{"role":"user","content":"q1"},{"role":"user","content":"q2"}],"model":"m","stream":false,)"
        R"("tools":[{"type":"x"}],"max_completion_tokens":7})");
}

TEST_CASE("dag_jsonl: context modes") {
  const CustomDataset d =
      load_text(R"({"session_id": "iso", "context_mode": "MESSAGE_ARRAY_WITH_RESPONSES", "turns": [)"
                R"({"messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "q1"}]},)"
                R"({"messages": [{"role": "system", "content": "s2"}, {"role": "user", "content": "q2"}]}]})"
                "\n"
                R"({"session_id": "canned", "context_mode": "deltas_with_responses", "turns": [)" +
                kTurn + "," + kTurn + "]}\n");
  const auto& iso = d.conversations[0];
  CHECK(iso.self_contained_turns());
  CHECK_FALSE(iso.turns(1).raw_messages_delta());
  // An isolated turn is sent alone and whole, its own system prompt first.
  const auto& chat = *aiperf::endpoints::find_endpoint("chat");
  CHECK(build_payload(chat, options(), {&iso.turns(1)}, "", "")
            .rfind(R"({"messages":[{"role":"system","content":"s2"},{"role":"user","content":"q2"}],)", 0) == 0);
  CHECK(d.conversations[1].discard_responses());
  CHECK_FALSE(d.conversations[1].self_contained_turns());
}

TEST_CASE("dag_jsonl: --inter-turn-delay-cap-seconds caps the turn delays") {
  aiperf::config::InputConfig in = input(write_temp(
      "cap.jsonl", R"({"session_id": "a", "turns": [{"messages": [{"role": "user", "content": "x"}], "delay": 5000},)"
                   R"({"messages": [{"role": "user", "content": "y"}], "delay": 1500.5}]})"
                   "\n"));
  in.trace_replay.inter_turn_delay_cap_seconds = 2.0;
  const CustomDataset d = load(in);
  CHECK(d.conversations[0].turns(0).delay_ms() == 2000.0);
  CHECK(d.conversations[0].turns(1).delay_ms() == 1500.5);
}

TEST_CASE("dag_jsonl: schema errors name the file, line and field") {
  const std::string ok = R"({"session_id": "ok", "turns": [)" + kTurn + "]}\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{oops", "bad.jsonl:2: invalid JSON"},
      {R"({"session_id": "x", "turns": [)" + kTurn + R"(], "colour": 1})",
       "bad.jsonl:2: field 'colour': extra inputs are not permitted"},
      {R"({"session_id": "x", "turns": [{"messages": [], "max_tokens": 3}]})",
       "bad.jsonl:2: field 'turns.0.messages': 'messages' must be a non-empty list"},
      {R"({"session_id": "x", "turns": [{"messages": [{"content": "no role"}]}]})",
       "bad.jsonl:2: field 'turns.0.messages': Each message must have a 'role' key, but message at index 0 does not"},
      {R"({"session_id": "x", "turns": [{"messages": [{"role": "user", "content": "q"}], "max_tokens": 0}]})",
       "bad.jsonl:2: field 'turns.0.max_tokens': must be >= 1, got 0"},
      {R"({"session_id": "x", "turns": [{"messages": [{"role": "user", "content": "q"}], "max_tokens": true}]})",
       "bad.jsonl:2: field 'turns.0.max_tokens': max_tokens must be an integer, not a boolean (got True)"},
      {R"({"session_id": "x", "turns": [{"messages": [{"role": "user", "content": "q"}], "delay": -1}]})",
       "bad.jsonl:2: field 'turns.0.delay': must be >= 0, got -1"},
      {R"({"session_id": "x", "turns": [{"messages": [{"role": "user", "content": "q"}], "temperature": 1}]})",
       "bad.jsonl:2: field 'turns.0.temperature': extra inputs are not permitted"},
      {R"({"session_id": "", "turns": [)" + kTurn + "]}", "bad.jsonl:2: field 'session_id': must have at least 1"},
      {R"({"session_id": "x", "turns": []})", "bad.jsonl:2: 'turns' must be non-empty unless 'orchestrator' is true"},
      {R"({"session_id": "ok", "turns": [)" + kTurn + "]}", "bad.jsonl:2: duplicate session_id 'ok'"},
      {R"({"session_id": "x", "turns": [)" + kTurn + R"(,{"messages": [{"role": "system", "content": "late"}]}]})",
       "bad.jsonl:2: session 'x' turn 1: non-root turns may not contain a 'system' message"},
      {R"({"session_id": "x", "rounds": 2, "turns": [)" + kTurn + "]}",
       "bad.jsonl:2: 'rounds' is only valid on an orchestrator conversation"},
      {R"({"session_id": "x", "orchestrator": true, "spawns": ["ok"], "think_time_ms": 5})",
       "bad.jsonl:2: 'think_time_ms' requires 'rounds'"},
      {R"({"session_id": "x", "context_mode": "message_array_without_responses", "turns": [)" + kTurn + "]}",
       "bad.jsonl:2: field 'context_mode': 'message_array_without_responses' is reserved"},
  };
  for (const auto& [line, expected] : cases) {
    INFO(line);
    CHECK_THAT(load_error(ok + line + "\n"), Catch::Contains(expected));
  }
  CHECK_THAT(load_error("\n\n"), Catch::Contains("is empty (no conversations parsed)"));
}

TEST_CASE("dag_jsonl: spawns desugared into the timing service's branches, children marked") {
  const CustomDataset d = load(input(kDir + "/spawn.jsonl"));
  REQUIRE(d.conversations.size() == 5);
  const auto& root = d.conversations[0];
  CHECK_FALSE(root.branch_child());
  // pre_session_spawns; turn 0's bare "w1" (joined on turn 1) and {"children": ["w2"], "join_at": 2};
  // turn 2's "w3" on the last turn: no join.
  REQUIRE(root.spawns_size() == 4);
  CHECK(root.spawns(0).pre_session());
  CHECK(root.spawns(0).children(0) == "w4");
  CHECK_FALSE(root.spawns(0).has_join_turn());
  CHECK(root.spawns(1).after_turn() == 0);
  CHECK(root.spawns(1).children(0) == "w1");
  CHECK(root.spawns(1).join_turn() == 1);
  CHECK(root.spawns(2).after_turn() == 0);
  CHECK(root.spawns(2).children(0) == "w2");
  CHECK(root.spawns(2).join_turn() == 2);
  CHECK(root.spawns(3).after_turn() == 2);
  CHECK(root.spawns(3).children(0) == "w3");
  CHECK_FALSE(root.spawns(3).has_join_turn());
  for (int i = 1; i < 5; ++i) {
    CHECK(d.conversations[static_cast<size_t>(i)].branch_child());
    CHECK(d.conversations[static_cast<size_t>(i)].spawns_size() == 0);
  }
  CHECK(count_dag_roots(kDir + "/spawn.jsonl") == 1);
}

TEST_CASE("dag_jsonl: consecutive bare spawns form one group, an object its own") {
  const CustomDataset d =
      load_text(R"({"session_id": "r", "turns": [{"messages": [{"role": "user", "content": "q"}], )"
                R"("spawns": ["a", "b", {"children": ["c"]}, "d"]}, )" +
                kTurn + "]}\n" + R"({"session_id": "a", "turns": [)" + kTurn + "]}\n" +
                R"({"session_id": "b", "turns": [)" + kTurn + "]}\n" + R"({"session_id": "c", "turns": [)" + kTurn +
                "]}\n" + R"({"session_id": "d", "turns": [)" + kTurn + "]}\n");
  const auto& r = d.conversations[0];
  REQUIRE(r.spawns_size() == 3);
  CHECK(r.spawns(0).children_size() == 2);
  CHECK(r.spawns(1).children(0) == "c");
  CHECK(r.spawns(2).children(0) == "d");
  for (int i = 0; i < 3; ++i) CHECK(r.spawns(i).join_turn() == 1);
}

TEST_CASE("dag_jsonl: bad branches are refused with file, line and session; orchestrators are not run yet") {
  const std::string child = R"({"session_id": "c", "turns": [)" + kTurn + "]}\n";
  auto parent = [](const std::string& spawns, int turns = 2) {
    std::string t =
        R"({"session_id": "p", "turns": [{"messages": [{"role": "user", "content": "q"}], "spawns": )" + spawns + "}";
    for (int i = 1; i < turns; ++i) t += "," + kTurn;
    return t + "]}\n";
  };
  CHECK_THAT(load_error(parent(R"(["x"])") + child),
             Catch::Contains("bad.jsonl:1: session 'p' turn 0: branch target 'x' not declared. Known sessions: "
                             "['c', 'p']"));
  CHECK_THAT(load_error(parent(R"(["c", "c"])") + child),
             Catch::Contains("bad.jsonl:1: session 'p' turn 0: duplicate child_conversation_id 'c' in spawn group"));
  CHECK_THAT(load_error(parent(R"(["c", {"children": ["c"]}])") + child),
             Catch::Contains("duplicate child_conversation_id 'c' across spawn groups"));
  CHECK_THAT(load_error(parent(R"([{"children": ["c"], "join_at": 0}])") + child),
             Catch::Contains("spawn join_at=0 must be strictly greater than the spawning turn index"));
  CHECK_THAT(load_error(parent(R"([{"children": ["c"], "join_at": 2}])") + child),
             Catch::Contains("spawn join_at=2 is out of range (conversation has 2 turns)"));
  CHECK_THAT(load_error(parent(R"(["c"])") +
                        R"({"session_id": "c", "turns": [{"messages": [{"role": "user", "content": "q"}], )"
                        R"("spawns": ["p"]}]})"
                        "\n"),
             Catch::Contains("bad.jsonl: cycle detected: p -> c -> p"));
  CHECK_THAT(load_error(parent(R"(["c"])") + R"({"session_id": "c", "pre_session_spawns": ["d"], "turns": [)" + kTurn +
                        "]}\n" + R"({"session_id": "d", "turns": [)" + kTurn + "]}\n"),
             Catch::Contains("bad.jsonl:2: conversation 'c' branch 'c:pre': pre-session dispatch requires a root "
                             "conversation"));
  CHECK_THAT(load_error(R"({"session_id": "x", "turns": [{"messages": [{"role": "user", "content": "q"}], )"
                        R"("spawns": [{"children": []}]}]})"
                        "\n"),
             Catch::Contains("bad.jsonl:1: field 'turns.0.spawns.0.children': must have at least 1 item"));
  CHECK_THAT(load_error(R"({"session_id": "o", "orchestrator": true, "spawns": ["c"]})"
                        "\n" +
                        child),
             Catch::Contains("bad.jsonl:1: session 'o': an orchestrator conversation: dag_jsonl orchestrator spines "
                             "are not supported yet"));
}

TEST_CASE("dag_jsonl: forks continue the parent's context; their rules checked as AIPerf does") {
  const CustomDataset d = load(input(kDir + "/branch.jsonl"));
  const auto& root = d.conversations[0];
  REQUIRE(root.spawns_size() == 2);
  CHECK_FALSE(root.spawns(0).fork());
  CHECK(root.spawns(1).fork());
  CHECK(root.spawns(1).after_turn() == 1);
  CHECK(root.spawns(1).children(0) == "f1");
  CHECK_FALSE(root.spawns(1).has_join_turn());
  CHECK(d.conversations[3].branch_child());
  CHECK(count_dag_roots(kDir + "/branch.jsonl") == 1);

  const std::string c = R"({"session_id": "c", "turns": [)" + kTurn + "]}\n";
  auto parent = [](const std::string& forks, int turns = 2, const std::string& id = "p") {
    std::string t = R"({"session_id": ")" + id + R"(", "turns": [)";
    for (int i = 0; i + 1 < turns; ++i) t += kTurn + ",";
    return t + R"({"messages": [{"role": "user", "content": "q"}], "forks": )" + forks + "}]}\n";
  };
  // Background forks may sit on any turn; the last turn's come first here.
  const CustomDataset bg =
      load_text(R"({"session_id": "p", "turns": [{"messages": [{"role": "user", "content": "q"}], )"
                R"("forks": [{"child": "c", "background": true}]}, )" +
                kTurn + "]}\n" + c);
  CHECK(bg.conversations[0].spawns(0).fork());
  CHECK(bg.conversations[0].spawns(0).after_turn() == 0);
  CHECK_THAT(load_error(R"({"session_id": "p", "turns": [{"messages": [{"role": "user", "content": "q"}], )"
                        R"("forks": ["c"]}, )" +
                        kTurn + "]}\n" + c),
             Catch::Contains("bad.jsonl:1: session 'p' turn 0 has foreground FORK branches but is not the last turn"));
  CHECK_THAT(load_error(parent(R"(["c", "c"])") + c),
             Catch::Contains("session 'p' turn 1: duplicate child_conversation_id 'c' in fork entries"));
  CHECK_THAT(load_error(parent(R"(["c"])") + parent(R"(["c"])", 1, "q") + c),
             Catch::Contains("bad.jsonl:2: session 'c' forked by both 'p' turn 1 and 'q' turn 0; FORK-mode children "
                             "require a single parent"));
  CHECK_THAT(
      load_error(parent(R"(["c"])") +
                 R"({"session_id": "c", "context_mode": "message_array_with_responses", "turns": [)" + kTurn + "]}\n"),
      Catch::Contains("bad.jsonl:2: session 'c' is a FORK target with context_mode "
                      "'message_array_with_responses'"));
  CHECK_THAT(load_error(parent(R"(["c"])") +
                        R"({"session_id": "c", "turns": [{"messages": [{"role": "system", "content": "s"}]}]})"
                        "\n"),
             Catch::Contains("bad.jsonl:2: session 'c' turn 0: non-root turns may not contain a 'system' message"));
  CHECK_THAT(load_error(R"({"session_id": "r", "pre_session_spawns": ["c"], "turns": [)" + kTurn + "]}\n" +
                        parent(R"(["c"])") + c),
             Catch::Contains("session 'c' is referenced by 'r' pre_session_spawns but is also a FORK target"));
}

TEST_CASE("dag_jsonl: detection and root counting") {
  CHECK(detect_custom_dataset_type(kDir + "/linear.jsonl") == CustomDatasetType::kDagJsonl);
  CHECK(detect_custom_dataset_type(kDir + "/branch.jsonl") == CustomDatasetType::kDagJsonl);
  // A multi_turn file stays one: its turns carry text, not messages.
  const std::string multi = write_temp("multi.jsonl", R"({"session_id": "s", "turns": [{"text": "hi"}]})"
                                                      "\n");
  CHECK(detect_custom_dataset_type(multi) == CustomDatasetType::kMultiTurn);
  // root spawns w1, w2 and forks f1: one root.
  CHECK(count_dag_roots(kDir + "/branch.jsonl") == 1);
  CHECK(count_dag_roots(kDir + "/linear.jsonl") == 2);
}
