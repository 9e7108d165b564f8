// aime, aime24, aime25, math_500 and gpqa_diamond problems built from the fixture Hub cache
// (tests/data/accuracy/hub, make_fixture.py) against what AIPerf 0.13's loaders build from the
// same files (expected_problems.json, gen_expected_problems.py); the CSV rows gpqa is read from.
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "accuracy/csv_rows.h"
#include "accuracy/hf_dataset.h"
#include "accuracy/problems.h"
#include "accuracy/recipe_problems.h"

using namespace aiperf::accuracy;
namespace fs = std::filesystem;

namespace {

const std::string kHub = std::string(AIPERF_TEST_DATA) + "/accuracy/hub";

nlohmann::json expected(const std::string& key) {
  std::ifstream in(std::string(AIPERF_TEST_DATA) + "/accuracy/expected_problems.json");
  return nlohmann::json::parse(in).at(key);
}

void check_same(const std::vector<Problem>& got, const nlohmann::json& want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("problem " << i);
    CHECK(got[i].prompt == want[i]["prompt"].get<std::string>());
    CHECK(got[i].ground_truth == want[i]["ground_truth"].get<std::string>());
    CHECK(got[i].task == want[i]["task"].get<std::string>());
    CHECK(nlohmann::json::parse(got[i].messages.dump()) == want[i]["messages"]);
    CHECK(got[i].generation_size == want[i]["generation_size"].get<int>());
    CHECK(nlohmann::json(got[i].stop) == want[i]["stop"]);
  }
}

ProblemOptions options(const std::string& benchmark, int shots = 0, bool cot = false) {
  ProblemOptions o;
  o.benchmark = benchmark;
  o.n_shots = shots;
  o.enable_cot = cot;
  return o;
}

}  // namespace

TEST_CASE("aime problems: the recipe's AIME template, the first rows as shots, as the reference builds them") {
  check_same(build_problems(options("aime", 8, true), {"", kHub}), expected("aime_default"));
  check_same(build_problems(options("aime", 2, false), {"", kHub}), expected("aime_2shot_nocot"));
  check_same(build_problems(options("aime", 0, true), {"", kHub}), expected("aime_0shot"));
  CHECK_THROWS_WITH(build_problems(options("aime", 9, true), {"", kHub}),
                    "AIME supports at most 8 few-shot examples (got 9). The trt-llm reference asserts ``n_shots <= "
                    "8``; raise that limit upstream first.");
}

TEST_CASE("aime24, aime25 and math_500 problems: the bare problem; math_500's gold is the solution") {
  check_same(build_problems(options("aime24", 5, true), {"", kHub}), expected("aime24"));
  check_same(build_problems(options("aime25"), {"", kHub}), expected("aime25"));
  check_same(build_problems(options("math_500"), {"", kHub}), expected("math_500"));
}

TEST_CASE("gpqa_diamond problems: the simple-evals template, answers shuffled by the question's SHA-256") {
  check_same(build_problems(options("gpqa_diamond"), {"", kHub}), expected("gpqa_diamond"));
  // random.Random(int(sha256(q).hexdigest(), 16) % 2**32).shuffle([0, 1, 2, 3]) in CPython 3.11.
  CHECK(gpqa_choice_order("GPQAFX1 Which particle carries the electromagnetic force?") == std::vector<int>{3, 0, 2, 1});
}

TEST_CASE("CSV rows as datasets reads them with pandas' defaults") {
  const fs::path dir = fs::temp_directory_path() / "aiperf_accuracy_csv";
  fs::create_directories(dir);
  const std::string path = (dir / "t.csv").string();
  std::ofstream(path, std::ios::binary)
      << "\xEF\xBB\xBFq,n,f,s\r\n\"a, \"\"b\"\"\nc\",1,2,NA\r\n\r\nplain,3,,x\r\nlast,4,1e3\n";
  const auto rows = read_csv_rows(path);
  REQUIRE(rows.size() == 3);
  CHECK(rows[0]["q"] == "a, \"b\"\nc");
  CHECK(rows[0]["n"] == 1);
  CHECK(rows[0]["n"].is_number_integer());
  CHECK(rows[0]["f"] == 2.0);
  CHECK(rows[0]["f"].is_number_float());
  CHECK(rows[1]["f"].is_null());
  CHECK(rows[2]["f"] == 1000.0);
  CHECK(rows[0]["s"].is_null());
  CHECK(rows[1]["s"] == "x");
  CHECK(rows[2]["s"].is_null());  // a short row: the missing fields are null
  std::ofstream(path, std::ios::binary) << "a,b\n1,2\n1,2,3\n";
  CHECK_THROWS_WITH(read_csv_rows(path), path + ":3: 3 fields, the header names 2");
  std::ofstream(path, std::ios::binary) << "a,b\n\"1,2\n";
  CHECK_THROWS_WITH(read_csv_rows(path), path + ":2: a quoted field is never closed");
  fs::remove_all(dir);
}

TEST_CASE("a repo whose one data file names no split is its train split") {
  const auto rows = load_rows("Maxwell-Jia/AIME_2024", "", "train", {"", kHub});
  REQUIRE(rows.size() == 3);
  CHECK(rows[0]["Answer"] == 204);
  CHECK_THROWS_AS(load_rows("Maxwell-Jia/AIME_2024", "", "test", {"", kHub}), DatasetError);
}
