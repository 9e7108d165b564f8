// --input-file loaders: fields of every format, auto-detection, and file:line errors.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "custom_dataset.h"
#include "dataset_error.h"
#include "temp_file.h"

using namespace aiperf::dataset;

namespace {

std::string temp_file(const std::string& name, const std::string& content) {
  return aiperf::testing::write_temp_file("aiperf_ds_test_", name, content);
}

aiperf::config::InputConfig input(const std::string& path, const std::string& type) {
  aiperf::config::InputConfig in;
  in.input_file = path;
  in.custom_dataset_type = aiperf::config::enum_from_string<aiperf::config::CustomDatasetType>(type, "type");
  return in;
}

CustomDataset load(const aiperf::config::InputConfig& in, uint64_t pool = 1) {
  std::mt19937_64 rng(1);
  return load_custom_dataset(in, pool, rng);
}

std::string error_of(const aiperf::config::InputConfig& in) {
  try {
    load(in);
  } catch (const DatasetFileError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("single_turn reads every field and skips blank lines", "[dataset]") {
  const std::string img = temp_file("pixel.png", "PNG!");
  const std::string path = temp_file("single.jsonl",
      "{\"text\": \"What is deep learning?\"}\n"
      "\n"
      "{\"texts\": [\"a\", \"b\"], \"images\": [\"" + img + "\"], \"role\": \"user\"}\n"
      "{\"texts\": [{\"name\": \"query\", \"contents\": [\"q\"]}], \"audio\": \"wav,AAAA\", \"delay\": 250}\n"
      "{\"timestamp\": 1500, \"text\": \"t\", \"video\": \"https://x/v.mp4\"}\n");
  CHECK(aiperf::config::to_string(detect_custom_dataset_type(path)) == "single_turn");
  auto in = input(path, "single_turn");
  in.turn_delay_ratio = 2;
  CustomDataset ds = load(in);
  REQUIRE(ds.conversations.size() == 4);
  CHECK(ds.default_sampling == "shuffle");
  CHECK(ds.has_timestamps);
  const auto& t0 = ds.conversations[0].turns(0);
  CHECK(t0.texts(0).name() == "text");
  CHECK(t0.texts(0).contents(0) == "What is deep learning?");
  const auto& t1 = ds.conversations[1].turns(0);
  CHECK(t1.texts(0).contents_size() == 2);
  CHECK(t1.images(0).name() == "image_url");
  CHECK(t1.images(0).contents(0) == "data:image/png;base64,UE5HIQ==");
  CHECK(t1.role() == "user");
  const auto& t2 = ds.conversations[2].turns(0);
  CHECK(t2.texts(0).name() == "query");
  CHECK(t2.audios(0).contents(0) == "wav,AAAA");
  CHECK(t2.delay_ms() == 500);  // delay x --session-delay-ratio
  const auto& t3 = ds.conversations[3].turns(0);
  CHECK(t3.timestamp_ms() == 1500);
  CHECK(t3.videos(0).contents(0) == "https://x/v.mp4");
}

TEST_CASE("fixed-schedule offsets drop entries outside [start, end]", "[dataset]") {
  const std::string path = temp_file("sched.jsonl",
      "{\"timestamp\": 0, \"text\": \"a\"}\n{\"timestamp\": 100, \"text\": \"b\"}\n"
      "{\"timestamp\": 200, \"text\": \"c\"}\n{\"timestamp\": 300, \"text\": \"d\"}\n");
  auto in = input(path, "single_turn");
  in.fixed_schedule = true;
  in.fixed_schedule_start_offset = 100;
  in.fixed_schedule_end_offset = 200;
  CustomDataset ds = load(in);
  REQUIRE(ds.conversations.size() == 2);
  CHECK(ds.conversations[0].turns(0).texts(0).contents(0) == "b");
  CHECK(ds.conversations[1].turns(0).texts(0).contents(0) == "c");
}

TEST_CASE("multi_turn keeps session ids and turn delays", "[dataset]") {
  const std::string path = temp_file("multi.jsonl",
      "{\"session_id\": \"s1\", \"turns\": [{\"text\": \"Hi\", \"delay\": 0}, {\"text\": \"More\", \"delay\": 2000}]}\n"
      "{\"type\": \"multi_turn\", \"turns\": [{\"text\": \"Solo\"}]}\n");
  CHECK(aiperf::config::to_string(detect_custom_dataset_type(path)) == "multi_turn");
  CustomDataset ds = load(input(path, "multi_turn"));
  REQUIRE(ds.conversations.size() == 2);
  CHECK(ds.conversations[0].session_id() == "s1");
  REQUIRE(ds.conversations[0].turns_size() == 2);
  CHECK(ds.conversations[0].turns(1).delay_ms() == 2000);
  CHECK(ds.conversations[1].session_id().size() == 36);  // generated uuid4
  CHECK_FALSE(ds.has_timestamps);
}

TEST_CASE("mooncake_trace groups sessions and records synthetic prompts", "[dataset]") {
  const std::string path = temp_file("trace.jsonl",
      "{\"timestamp\": 0, \"input_length\": 655, \"output_length\": 52, \"hash_ids\": [46, 47]}\n"
      "{\"timestamp\": 10.5, \"input_length\": 30, \"output_length\": 26}\n"
      "{\"session_id\": \"a\", \"text_input\": \"Hello\", \"output_length\": 8}\n"
      "{\"messages\": [{\"role\": \"user\", \"content\": \"Hi\"}], \"tools\": [{\"type\": \"function\"}], \"output_length\": 4}\n"
      "{\"session_id\": \"a\", \"text_input\": \"Again\", \"delay\": 100}\n");
  CHECK(aiperf::config::to_string(detect_custom_dataset_type(path)) == "mooncake_trace");
  CustomDataset ds = load(input(path, "mooncake_trace"));
  REQUIRE(ds.conversations.size() == 4);
  CHECK(ds.default_sampling == "sequential");
  CHECK(ds.has_timestamps);
  REQUIRE(ds.pending.size() == 2);
  CHECK(ds.pending[0].input_length == 655);
  CHECK(ds.pending[0].hash_ids == std::vector<int64_t>{46, 47});
  CHECK(ds.pending[1].conversation == 1);
  CHECK(ds.conversations[0].turns(0).max_tokens() == 52);
  CHECK(ds.conversations[1].turns(0).timestamp_ms() == 10.5);
  const auto& session = ds.conversations[2];
  CHECK(session.session_id() == "a");
  REQUIRE(session.turns_size() == 2);
  CHECK(session.turns(1).texts(0).contents(0) == "Again");
  CHECK(session.turns(1).delay_ms() == 100);
  CHECK(ds.conversations[3].turns(0).raw_messages() == R"([{"content":"Hi","role":"user"}])");
  CHECK(ds.conversations[3].turns(0).raw_tools() == R"([{"type":"function"}])");
}

TEST_CASE("random_pool draws conversations with replacement from every pool", "[dataset]") {
  const std::string dir = std::filesystem::path(temp_file("pool/queries.jsonl", "")).parent_path().string();
  temp_file("pool/queries.jsonl", "{\"texts\": [{\"name\": \"query\", \"contents\": [\"q1\"]}]}\n");
  temp_file("pool/passages.jsonl",
            "{\"texts\": [{\"name\": \"passages\", \"contents\": [\"p1\"]}]}\n"
            "{\"texts\": [{\"name\": \"passages\", \"contents\": [\"p2\"]}]}\n");
  CHECK(aiperf::config::to_string(detect_custom_dataset_type(dir)) == "random_pool");
  auto in = input(dir, "random_pool");
  in.batch_size = 2;
  CustomDataset ds = load(in, 5);
  REQUIRE(ds.conversations.size() == 5);
  for (const auto& conv : ds.conversations) {
    const auto& turn = conv.turns(0);
    REQUIRE(turn.texts_size() == 2);
    CHECK(turn.texts(0).name() == "passages");  // files in name order: passages, queries
    CHECK(turn.texts(0).contents_size() == 2);
    CHECK(turn.texts(1).name() == "query");
    CHECK(turn.texts(1).contents_size() == 2);
  }
}

TEST_CASE("a corrupted line names file, line and field", "[dataset]") {
  const std::string bad_json = temp_file("bad_json.jsonl", "{\"text\": \"ok\"}\n{\"text\": \"oops\"\n");
  CHECK_THAT(error_of(input(bad_json, "single_turn")), Catch::StartsWith(bad_json + ":2: invalid JSON"));

  const std::string both = temp_file("both.jsonl", "\n{\"text\": \"a\", \"texts\": [\"b\"]}\n");
  CHECK(error_of(input(both, "single_turn")) ==
        both + ":2: field 'text': 'text' and 'texts' are mutually exclusive");

  const std::string multi = temp_file("multi_bad.jsonl", "{\"turns\": [{\"text\": \"a\"}, {\"text\": 5}]}\n");
  CHECK(error_of(input(multi, "multi_turn")) ==
        multi + ":1: field 'turns[1].text': must be a string, got number");

  const std::string trace = temp_file("trace_bad.jsonl",
      "{\"input_length\": 10}\n{\"input_length\": 2000, \"hash_ids\": [1, 2]}\n");
  CHECK_THAT(error_of(input(trace, "mooncake_trace")),
             Catch::StartsWith(trace + ":2: field 'input_length': 2000 does not fit 2 hash_ids blocks of 512"));

  const std::string none = temp_file("trace_none.jsonl", "{\"output_length\": 3}\n");
  CHECK(error_of(input(none, "mooncake_trace")) ==
        none + ":1: exactly one of 'input_length', 'text_input' or 'messages' is required");

  const std::string pool = temp_file("pool_bad.jsonl", "{\"text\": \"a\", \"timestamp\": 5}\n");
  CHECK(error_of(input(pool, "random_pool")) ==
        pool + ":1: field 'timestamp': not allowed in this dataset type");

  const std::string media = temp_file("media_bad.jsonl", "{\"image\": \"/nonexistent/x.png\"}\n");
  CHECK(error_of(input(media, "single_turn")) ==
        media + ":1: field 'image': '/nonexistent/x.png' is neither a URL, a data URI nor a readable file");
}

TEST_CASE("auto-detection: explicit type wins, unknown shapes ask for the option", "[dataset]") {
  const std::string typed = temp_file("typed.jsonl", "{\"type\": \"random_pool\", \"text\": \"a\"}\n");
  CHECK(aiperf::config::to_string(detect_custom_dataset_type(typed)) == "random_pool");
  const std::string unknown = temp_file("unknown.jsonl", "\n{\"prompt\": \"a\"}\n");
  try {
    detect_custom_dataset_type(unknown);
    FAIL("expected an error");
  } catch (const DatasetFileError& e) {
    CHECK(
        std::string(e.what()) ==
        unknown +
            ":2: cannot detect the dataset type from this line; set "
            "--custom-dataset-type (single_turn, multi_turn, random_pool, mooncake_trace, bailian_trace, "
            "burst_gpt_trace, raw_payload, inputs_json, sagemaker_data_capture, baseten_trace, weka_trace, dag_jsonl, "
            "tracelab, speed_bench_qualitative, speed_bench_<category>, "
            "speed_bench_throughput_<1k|2k|8k|16k|32k>[_<low_entropy|mixed|high_entropy>])");
  }
}

TEST_CASE("file turns keep their output_length, else get --osl, else no max tokens", "[dataset]") {
  const std::string path = temp_file("osl_multi.jsonl",
      "{\"session_id\": \"s1\", \"turns\": [{\"text\": \"Hi\", \"output_length\": 7}, {\"text\": \"More\"}]}\n"
      "{\"session_id\": \"s2\", \"turns\": [{\"text\": \"Solo\"}]}\n");
  std::mt19937_64 rng(3);

  // Without --osl only the file's own value is sent.
  CustomDataset plain = load(input(path, "multi_turn"));
  CHECK(apply_output_lengths(plain.conversations, input(path, "multi_turn"), rng) == 0);
  CHECK(plain.conversations[0].turns(0).max_tokens() == 7);
  CHECK_FALSE(plain.conversations[0].turns(1).has_max_tokens());
  CHECK_FALSE(plain.conversations[1].turns(0).has_max_tokens());

  // --osl 10 (std-dev 0) fills every turn without its own value; 10.9 truncates to 10 as in AIPerf.
  for (double osl : {10.0, 10.9}) {
    auto in = input(path, "multi_turn");
    in.osl_mean = osl;
    CustomDataset ds = load(in);
    apply_output_lengths(ds.conversations, in, rng);
    CHECK(ds.conversations[0].turns(0).max_tokens() == 7);
    CHECK(ds.conversations[0].turns(1).max_tokens() == 10);
    CHECK(ds.conversations[1].turns(0).max_tokens() == 10);
  }

  // --osl below 1 sets nothing.
  auto zero = input(path, "multi_turn");
  zero.osl_mean = 0.5;
  CustomDataset none = load(zero);
  apply_output_lengths(none.conversations, zero, rng);
  CHECK_FALSE(none.conversations[1].turns(0).has_max_tokens());

  // With a std-dev the draws are >= 1 and reproducible for the same seed.
  auto spread = input(path, "multi_turn");
  spread.osl_mean = 50;
  spread.osl_stddev = 20;
  auto draws = [&] {
    CustomDataset ds = load(spread);
    std::mt19937_64 seeded(42);
    apply_output_lengths(ds.conversations, spread, seeded);
    return std::vector<int64_t>{ds.conversations[0].turns(1).max_tokens(), ds.conversations[1].turns(0).max_tokens()};
  };
  const auto first = draws();
  CHECK(first == draws());
  for (int64_t v : first) CHECK(v >= 1);
}

TEST_CASE("single_turn output_length, random_pool and trace max tokens", "[dataset]") {
  const std::string single = temp_file("osl_single.jsonl",
      "{\"text\": \"a\", \"output_length\": 3}\n{\"text\": \"b\"}\n");
  auto in = input(single, "single_turn");
  in.osl_mean = 12;
  std::mt19937_64 rng(1);
  CustomDataset ds = load(in);
  apply_output_lengths(ds.conversations, in, rng);
  CHECK(ds.conversations[0].turns(0).max_tokens() == 3);
  CHECK(ds.conversations[1].turns(0).max_tokens() == 12);

  const std::string bad = temp_file("osl_bad.jsonl", "{\"text\": \"a\", \"output_length\": 0}\n");
  CHECK_THAT(error_of(input(bad, "single_turn")),
             Catch::Contains(":1: field 'output_length': must be an integer >= 1"));

  // random_pool entries carry no output_length of their own: every turn gets --osl.
  const std::string pool = temp_file("osl_pool.jsonl", "{\"text\": \"p\", \"output_length\": 99}\n");
  auto pin = input(pool, "random_pool");
  pin.osl_mean = 5;
  CustomDataset pds = load(pin, 3);
  apply_output_lengths(pds.conversations, pin, rng);
  for (const auto& conv : pds.conversations) CHECK(conv.turns(0).max_tokens() == 5);

  // A trace's output_length wins over --osl; <= 0 is raised to 1; a line without one gets --osl.
  const std::string trace = temp_file("osl_trace.jsonl",
      "{\"text_input\": \"x\", \"output_length\": 0}\n"
      "{\"text_input\": \"y\", \"output_length\": 30}\n"
      "{\"text_input\": \"z\"}\n");
  auto tin = input(trace, "mooncake_trace");
  tin.osl_mean = 8;
  CustomDataset tds = load(tin);
  CHECK(apply_output_lengths(tds.conversations, tin, rng) == 1);
  CHECK(tds.conversations[0].turns(0).max_tokens() == 1);
  CHECK(tds.conversations[1].turns(0).max_tokens() == 30);
  CHECK(tds.conversations[2].turns(0).max_tokens() == 8);
}
