// Trace synthesis (--synthesis-*): CPython's random stream, the synthesizer against goldens
// written by AIPerf 0.13's own Synthesizer (tests/data/datasets/synthesis/make_golden.py), and
// the mooncake loader's filter, transforms and cap.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "custom_dataset.h"
#include "dataset_error.h"
#include "numpy_rng.h"
#include "synthesis_random.h"
#include "synthesis_trace.h"

using namespace aiperf::dataset;
using nlohmann::json;

namespace {

const std::string kDir = std::string(AIPERF_TEST_DATA) + "/datasets/synthesis/";

std::vector<json> read_lines(const std::string& path) {
  std::vector<json> out;
  std::ifstream f(path);
  for (std::string line; std::getline(f, line);)
    if (!line.empty()) out.push_back(json::parse(line));
  return out;
}

std::string write_temp(const std::string& name, const std::string& content) {
  const auto dir = std::filesystem::temp_directory_path() / ("aiperf_synthesis_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / name).string();
  std::ofstream(path) << content;
  return path;
}

PythonRandom synthesizer_rng(uint64_t seed) {
  return PythonRandom(derive_aiperf_seed(seed, "dataset.synthesis.synthesizer"));
}

aiperf::config::InputConfig mooncake(const std::string& path) {
  aiperf::config::InputConfig in;
  in.input_file = path;
  in.custom_dataset_type = aiperf::config::CustomDatasetType::kMooncakeTrace;
  return in;
}

}  // namespace

TEST_CASE("PythonRandom draws CPython's random.Random stream", "[dataset][synthesis]") {
  // Values printed by CPython 3.11: random.Random(seed).randint / getrandbits.
  PythonRandom big(12345678901234567890ULL);
  std::vector<int64_t> draws;
  for (int i = 0; i < 5; ++i) draws.push_back(big.randint(0, 2));
  CHECK(draws == std::vector<int64_t>{2, 2, 2, 1, 1});
  CHECK(big.getrandbits(40) == 577046163388ULL);
  CHECK(big.randint(0, 1000000000000LL) == 628050903010LL);
  PythonRandom zero(0);
  draws.clear();
  for (int i = 0; i < 5; ++i) draws.push_back(zero.randint(0, 6));
  CHECK(draws == std::vector<int64_t>{6, 3, 6, 3, 0});
  // AIPerf's rng.derive("dataset.synthesis.synthesizer") under --random-seed 42.
  CHECK(derive_aiperf_seed(42, "dataset.synthesis.synthesizer") == 7429438713444764493ULL);
  PythonRandom derived = synthesizer_rng(42);
  draws.clear();
  for (int i = 0; i < 6; ++i) draws.push_back(derived.randint(0, 2));
  CHECK(draws == std::vector<int64_t>{0, 0, 0, 0, 2, 0});
}

TEST_CASE("synthesize_traces matches AIPerf's Synthesizer line for line", "[dataset][synthesis]") {
  const auto traces = read_lines(kDir + "trace.jsonl");
  REQUIRE(traces.size() == 6);
  struct Case {
    const char* golden;
    uint64_t seed;
    aiperf::config::SynthesisConfig s;
  };
  aiperf::config::SynthesisConfig stretch;
  stretch.speedup_ratio = 2;
  stretch.prefix_len_multiplier = 2.5;
  stretch.prompt_len_multiplier = 1.5;
  stretch.prefix_root_multiplier = 3;
  stretch.output_len_multiplier = 1.5;
  stretch.max_isl = 40;
  stretch.max_osl = 10;
  aiperf::config::SynthesisConfig squeeze;
  squeeze.prefix_len_multiplier = 0.5;
  squeeze.prompt_len_multiplier = 0.5;
  squeeze.output_len_multiplier = 0.5;
  squeeze.speedup_ratio = 0.3;
  aiperf::config::SynthesisConfig roots;
  roots.prefix_root_multiplier = 4;
  for (const Case& c : {Case{"golden_stretch.jsonl", 1, stretch}, Case{"golden_squeeze.jsonl", 1, squeeze},
                        Case{"golden_roots.jsonl", 7, roots}}) {
    INFO(c.golden);
    PythonRandom rng = synthesizer_rng(c.seed);
    const auto got = synthesize_traces(traces, c.s, 4, rng);
    const auto want = read_lines(kDir + c.golden);
    REQUIRE(got.size() == want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      INFO("line " << i + 1);
      CHECK(got[i] == want[i]);
    }
  }
  // Spot checks of what the goldens hold: block 1,2 -> 2..5 plus a fresh block (2 x 2.5 = 5),
  // one prompt block of int(2 x 1.5) = 3 tokens, shifted into tree 2 (offset 2 x 20).
  PythonRandom rng = synthesizer_rng(1);
  const auto first = synthesize_traces(traces, stretch, 4, rng)[0];
  CHECK(first["hash_ids"] == json::array({40, 41, 42, 43, 45, 46}));
  CHECK(first["input_length"] == 23);
  CHECK(first["output_length"] == 8);  // round(5 x 1.5 = 7.5) = 8
}

TEST_CASE("synthesize_traces refuses a trace shorter than its shared prefix blocks", "[dataset][synthesis]") {
  // Two identical lines: both blocks are shared, 600 tokens < 2 x 512 (AIPerf raises the same).
  const json line = {{"input_length", 600}, {"output_length", 4}, {"hash_ids", {1, 2}}};
  aiperf::config::SynthesisConfig s;
  s.output_len_multiplier = 2;
  PythonRandom rng(0);
  CHECK_THROWS_WITH(synthesize_traces({line, line}, s, 512, rng),
                    "input_len (600) < prefix_len (1024): trace has fewer tokens than its shared prefix blocks");
}

TEST_CASE("mooncake loader: max-isl skips, transforms rebuild turns, max-osl caps", "[dataset][synthesis]") {
  auto in = mooncake(kDir + "trace.jsonl");
  in.isl_block_size = 4;
  in.random_seed = 1;
  in.synthesis.max_isl = 13;  // drops line 2 (14) and line 5 (20) before synthesis
  in.synthesis.prompt_len_multiplier = 2;
  in.synthesis.max_osl = 3;
  std::mt19937_64 rng(1);
  const CustomDataset d = load_custom_dataset(in, 1, rng);
  REQUIRE(d.conversations.size() == 4);  // a, c, d, b
  CHECK(d.conversations[0].session_id() == "a");
  REQUIRE(d.conversations[0].turns_size() == 1);
  // Shared: 1 (3 lines), 2 (2 lines). Line 1: prefix [1,2] + int(2 x 2) = 4 prompt tokens in one
  // fresh block (max shared 2 -> fresh ids from 4).
  REQUIRE(d.pending.size() == 3);
  CHECK(d.pending[0].input_length == 12);
  CHECK(d.pending[0].hash_ids == std::vector<int64_t>{1, 2, 4});
  CHECK(d.pending[1].input_length == 13);  // line 3: prefix [1] + int(5 x 2) = 10 -> 14, capped at 13
  CHECK(d.pending[1].hash_ids == std::vector<int64_t>{1, 5, 6, 7});
  CHECK(d.pending[2].input_length == 13);  // line 6: [1,2] + int(4 x 2) = 8 tokens in two blocks -> 16, capped
  CHECK(d.pending[2].hash_ids == std::vector<int64_t>{1, 2, 8, 9});
  CHECK(d.conversations[0].turns(0).max_tokens() == 3);  // 5 capped at 3
  CHECK(d.conversations[1].turns(0).max_tokens() == 3);
  CHECK(d.conversations[2].turns(0).max_tokens() == 2);  // text_input line keeps its 2
  CHECK(d.conversations[1].turns(0).timestamp_ms() == 1001);
}

TEST_CASE("mooncake loader: speedup divides timestamps and truncates", "[dataset][synthesis]") {
  const std::string path = write_temp("speed.jsonl",
                                      "{\"timestamp\": 1000, \"input_length\": 10, \"output_length\": 5}\n"
                                      "{\"timestamp\": 2501.7, \"input_length\": 20, \"output_length\": 3}\n");
  auto in = mooncake(path);
  in.synthesis.speedup_ratio = 3;
  std::mt19937_64 rng(1);
  const CustomDataset d = load_custom_dataset(in, 1, rng);
  REQUIRE(d.conversations.size() == 2);
  CHECK(d.conversations[0].turns(0).timestamp_ms() == 333);  // int(1000 / 3)
  CHECK(d.conversations[1].turns(0).timestamp_ms() == 833);  // int(2501.7 / 3)
  REQUIRE(d.pending.size() == 2);
  CHECK(d.pending[0].input_length == 10);  // no hash_ids: the length is kept
  CHECK(d.pending[1].input_length == 20);
  CHECK(d.conversations[0].turns(0).max_tokens() == 5);
}

TEST_CASE("mooncake loader: max-osl alone caps without synthesizing", "[dataset][synthesis]") {
  auto in = mooncake(kDir + "trace.jsonl");
  in.isl_block_size = 4;
  in.synthesis.max_osl = 4;
  std::mt19937_64 rng(1);
  const CustomDataset d = load_custom_dataset(in, 1, rng);
  REQUIRE(d.conversations.size() == 5);
  CHECK(d.conversations[0].turns(0).max_tokens() == 4);
  CHECK(d.conversations[0].turns(1).max_tokens() == 4);
  CHECK(d.conversations[1].turns(0).max_tokens() == 3);
  CHECK(d.pending[0].hash_ids == std::vector<int64_t>{1, 2, 3});  // untouched
  CHECK(d.conversations[1].turns(0).timestamp_ms() == 1001);
}

TEST_CASE("mooncake loader: the synthesizer's refusal names the file", "[dataset][synthesis]") {
  const std::string line = "{\"input_length\": 600, \"output_length\": 4, \"hash_ids\": [1, 2]}\n";
  const std::string path = write_temp("same.jsonl", line + line);
  auto in = mooncake(path);
  in.synthesis.output_len_multiplier = 2;
  std::mt19937_64 rng(1);
  CHECK_THROWS_WITH(load_custom_dataset(in, 1, rng),
                    path +
                        ": trace synthesis: input_len (600) < prefix_len (1024): trace has fewer tokens "
                        "than its shared prefix blocks");
}

TEST_CASE("bailian_trace: max-isl drops before sessions form, transforms in session order", "[dataset][synthesis]") {
  auto in = mooncake(kDir + "bailian_trace.jsonl");
  in.custom_dataset_type = aiperf::config::CustomDatasetType::kBailianTrace;  // blocks of 16
  in.synthesis.max_isl = 150;                // chat 3 (200 tokens) dropped
  in.synthesis.prefix_len_multiplier = 2;
  in.synthesis.prompt_len_multiplier = 2;
  in.synthesis.output_len_multiplier = 1.5;
  in.synthesis.speedup_ratio = 2;
  std::mt19937_64 rng(1);
  const CustomDataset d = load_custom_dataset(in, 1, rng);
  REQUIRE(d.conversations.size() == 2);  // session 1 (chats 1, 2), session 5
  REQUIRE(d.conversations[0].turns_size() == 2);
  REQUIRE(d.pending.size() == 3);
  // Shared blocks 1 and 2 -> 2,3,4,5 (x2); fresh ids from (2+1) x 2 + 1 = 7.
  CHECK(d.pending[0].hash_ids == std::vector<int64_t>{2, 3, 4, 5, 7});
  CHECK(d.pending[0].input_length == 80);  // 64 + 2 x 8
  CHECK(d.pending[1].hash_ids == std::vector<int64_t>{2, 3, 4, 5, 8, 9, 10, 11, 12});
  CHECK(d.pending[1].input_length == 140);  // 64 + 2 x 38
  CHECK(d.pending[2].hash_ids == std::vector<int64_t>{2, 3, 13});
  CHECK(d.pending[2].input_length == 40);  // 32 + 2 x 4
  CHECK(d.conversations[0].turns(0).max_tokens() == 9);
  CHECK(d.conversations[0].turns(1).max_tokens() == 8);  // round(7.5) = 8
  CHECK(d.conversations[1].turns(0).max_tokens() == 6);
  CHECK(d.conversations[0].turns(1).timestamp_ms() == 50);  // int(100 ms / 2)
  CHECK(d.conversations[1].turns(0).timestamp_ms() == 25);
}

TEST_CASE("burst_gpt_trace: max-isl, output multiplier and speedup on the rows", "[dataset][synthesis]") {
  auto in = mooncake(std::string(AIPERF_TEST_DATA) + "/datasets/burst_gpt.csv");
  in.custom_dataset_type = aiperf::config::CustomDatasetType::kBurstGptTrace;
  in.synthesis.max_isl = 28;  // the 30-token row is dropped
  in.synthesis.output_len_multiplier = 2.5;
  in.synthesis.speedup_ratio = 4;
  std::mt19937_64 rng(1);
  const CustomDataset d = load_custom_dataset(in, 1, rng);
  REQUIRE(d.conversations.size() == 2);
  CHECK(d.pending[0].input_length == 20);
  CHECK(d.pending[1].input_length == 25);
  CHECK(d.conversations[0].turns(0).max_tokens() == 8);  // round(7.5)
  CHECK(d.conversations[1].turns(0).max_tokens() == 5);
  CHECK(d.conversations[1].turns(0).timestamp_ms() == 500);  // int(2000 / 4)
}
