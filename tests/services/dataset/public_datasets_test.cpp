// --public-dataset text families (issue 16): the registry, Python's str()/str.format as the
// prompts need them, and each family's rows -> conversations on the fixtures of
// tests/data/public_datasets (a HuggingFace cache: hub/datasets--<org>--<name>/...).
#include <catch2/catch.hpp>

#include <string>

#include "dataset_error.h"
#include "hf_text_datasets.h"
#include "public_dataset_loader.h"
#include "public_datasets.h"

using namespace aiperf::dataset;
using nlohmann::json;

namespace {

const std::string kData = std::string(AIPERF_TEST_DATA) + "/public_datasets";

aiperf::config::InputConfig input_for(const std::string& name) {
  aiperf::config::InputConfig in;
  in.public_dataset = name;
  in.hf_hub_cache = kData + "/hub";
  in.hf_local_root = kData + "/no-such-dir";
  in.random_seed = 42;
  return in;
}

std::vector<std::vector<std::string>> turns_of(const std::vector<aiperf::proto::Conversation>& convs) {
  std::vector<std::vector<std::string>> out;
  for (const auto& c : convs) {
    out.emplace_back();
    for (const auto& t : c.turns()) out.back().push_back(t.texts(0).contents(0));
  }
  return out;
}

std::string error_of(const aiperf::config::InputConfig& in) {
  std::mt19937_64 rng(1);
  try {
    public_dataset_conversations(in, rng);
  } catch (const DatasetFileError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("public datasets: every name AIPerf registers, either spelling", "[dataset][public]") {
  CHECK(public_datasets().size() == 42);
  REQUIRE(find_public_dataset("spec-al-gsm8k") != nullptr);
  CHECK(find_public_dataset("spec-al-gsm8k")->repo == "openai/gsm8k");
  CHECK(find_public_dataset("SPEC_AL_GSM8K")->subset == "main");
  CHECK(find_public_dataset("spec_al_gsm8k")->split == "test");
  CHECK(find_public_dataset("blazedit-10k")->repo == "vdaita/edit_10k_char");
  CHECK(find_public_dataset("llava_onevision")->subset == "sharegpt4o");
  CHECK_FALSE(find_public_dataset("llava_onevision")->supported);
  CHECK(find_public_dataset("semianalysis_cc_traces_weka")->repo ==
        "semianalysisai/cc-traces-weka-no-subagents-051826");
  CHECK(find_public_dataset("nope") == nullptr);
  CHECK(supported_public_datasets() ==
        "sharegpt, aimo, aimo_aime, aimo_numina_cot, aimo_numina_1_5, spec_bench, spec_al_gsm8k, spec_al_math500, "
        "spec_al_humaneval, spec_al_mbpp, spec_al_mtbench, instruct_coder, blazedit_5k, blazedit_10k, "
        "semianalysis_cc_traces_weka, semianalysis_cc_traces_weka_no_subagents, "
        "semianalysis_cc_traces_weka_with_subagents, semianalysis_cc_traces_weka_with_subagents_256k, "
        "semianalysis_cc_traces_weka_with_subagents_060226, semianalysis_cc_traces_weka_with_subagents_060226_256k, "
        "semianalysis_cc_traces_weka_with_subagents_060526, semianalysis_cc_traces_weka_with_subagents_060526_256k, "
        "semianalysis_cc_traces_weka_with_subagents_060826, semianalysis_cc_traces_weka_with_subagents_060826_256k, "
        "semianalysis_cc_traces_weka_061326, semianalysis_cc_traces_weka_061326_256k, "
        "semianalysis_cc_traces_weka_061526, semianalysis_cc_traces_weka_061526_256k, "
        "semianalysis_cc_traces_weka_062126, semianalysis_cc_traces_weka_062126_256k, weka_hf");
}

TEST_CASE("public datasets: Python str() and str.format of row values", "[dataset][public]") {
  CHECK(py_str(json("a'b")) == "a'b");
  CHECK(py_str(json(nullptr)) == "None");
  CHECK(py_str(json(true)) == "True");
  CHECK(py_str(json(7)) == "7");
  CHECK(py_str(json(2.0)) == "2.0");
  CHECK(py_str(json(0.5)) == "0.5");
  CHECK(py_str(json::parse(R"(["x", 1, null])")) == "['x', 1, None]");
  CHECK(py_str(json::parse(R"({"k": "v"})")) == "{'k': 'v'}");
  const json row = {{"code", "f({})"}, {"n", 3}};
  CHECK(py_format("a {code} b {{lit}} {n}", row) == "a f({}) b {lit} 3");
  CHECK_THROWS_AS(py_format("{missing}", row), FieldError);
  CHECK_THROWS_AS(py_format("{code!r}", row), FieldError);
  CHECK_THROWS_AS(py_format("{code", row), FieldError);
}

TEST_CASE("public datasets: aimo from the HuggingFace cache, blank problems skipped, train split only",
          "[dataset][public]") {
  std::mt19937_64 rng(1);
  const auto convs = public_dataset_conversations(input_for("aimo"), rng);
  CHECK(turns_of(convs) == std::vector<std::vector<std::string>>{{"What is $2+3$?"},
                                                                 {"Find $x$ if $x^2 = 49$ and $x > 0$.\n"},
                                                                 {"Compute $\\frac{6}{4}$."}});
  REQUIRE(convs.size() == 3);
  CHECK(convs[0].session_id() == "session_000000");  // AIPerf's ids with a seed
  CHECK(convs[2].session_id() == "session_000002");
  CHECK(convs[0].turns(0).texts(0).name() == "text");
  CHECK_FALSE(convs[0].turns(0).has_max_tokens());

  auto no_seed = input_for("aimo");
  no_seed.random_seed.reset();
  const auto random_ids = public_dataset_conversations(no_seed, rng);
  CHECK(random_ids[0].session_id().size() == 36);  // UUID4
}

TEST_CASE("public datasets: the local ./<org>/<name> directory comes before the cache", "[dataset][public]") {
  auto in = input_for("aimo");
  in.hf_local_root = kData + "/hub";  // holds no AI-MO/NuminaMath-TIR: the cache is used
  std::mt19937_64 rng(1);
  CHECK(public_dataset_conversations(in, rng).size() == 3);
  in.hf_hub_cache.clear();
  const std::string e = error_of(in);
  CHECK(e.find("dataset AI-MO/NuminaMath-TIR is not available offline: looked in " + kData +
               "/hub/AI-MO/NuminaMath-TIR") != std::string::npos);
  CHECK(e.find("huggingface-cli download --repo-type dataset AI-MO/NuminaMath-TIR") != std::string::npos);
}

TEST_CASE("public datasets: spec_al_mtbench keeps each row's non-empty stripped turns", "[dataset][public]") {
  std::mt19937_64 rng(1);
  const auto convs = public_dataset_conversations(input_for("spec_al_mtbench"), rng);
  CHECK(turns_of(convs) == std::vector<std::vector<std::string>>{{"Write a haiku about the sea.", "Now make it rhyme."},
                                                                 {"Only the second."}});
  CHECK(convs[1].session_id() == "session_000001");  // the empty row took no id
}

TEST_CASE("public datasets: blazedit prompts are AIPerf's template over code and change_request", "[dataset][public]") {
  std::mt19937_64 rng(1);
  const auto convs = public_dataset_conversations(input_for("blazedit_5k"), rng);
  REQUIRE(convs.size() == 2);
  CHECK(convs[0].turns(0).texts(0).contents(0) ==
        "Given a code file, please apply the change requests and generate the new file.\n\nOriginal file:\n"
        "```python\ndef f(x):\n    return {'x': x}\n\n```\n\nChange request:\nRename f to g.\n\nPlease generate the "
        "new code file in the \"New file\" section below.");
}

TEST_CASE("public datasets: spec_al_mbpp reads the card's default config; --hf-subset picks another",
          "[dataset][public]") {
  std::mt19937_64 rng(1);
  auto in = input_for("spec_al_mbpp");
  CHECK(turns_of(public_dataset_conversations(in, rng)) ==
        std::vector<std::vector<std::string>>{{"Write a function to add two numbers."},
                                              {"Write a function to reverse a list."}});
  in.hf_subset = "sanitized";  // has no 'text' column: AIPerf's first-row check
  CHECK(error_of(in) ==
        "google-research-datasets/mbpp (config sanitized), split test: column 'text' not found (available columns: "
        "['code', 'prompt', 'task_id'])");
  in.hf_subset = "nope";
  CHECK(error_of(in).find("no config 'nope'") != std::string::npos);
}

TEST_CASE("public datasets: spec_bench takes each row's first turn, stripped", "[dataset][public]") {
  auto in = input_for("spec_bench");
  in.public_dataset_file = kData + "/spec_bench/question.jsonl";
  std::mt19937_64 rng(1);
  CHECK(turns_of(public_dataset_conversations(in, rng)) ==
        std::vector<std::vector<std::string>>{{"Compose a travel blog post."}, {"Who wrote Hamlet?"}});
}

TEST_CASE("public datasets: families not implemented are refused by name", "[dataset][public]") {
  CHECK(error_of(input_for("mmstar"))
            .find("'mmstar' is not loaded by this native aiperf yet (supported: sharegpt, "
                  "aimo") == 0);
}

TEST_CASE("public datasets: a Weka corpus, one trace per row, --max-context-length and bad rows", "[dataset][public]") {
  auto in = input_for("semianalysis_cc_traces_weka_062126");
  const CustomDataset all = load_public_weka(in);
  REQUIRE(all.conversations.size() == 4);
  CHECK(all.conversations[3].session_id() == "trace_a::sa:agent_001");
  CHECK(all.default_sampling == "sequential");
  CHECK(all.weka_pending.size() == 11);      // every turn's messages are written later, with the tokenizer
  in.agentic_trace.max_context_length = 85;  // trace_a peaks at 90 + max(0, 1) tokens
  const CustomDataset kept = load_public_weka(in);
  for (const auto& c : kept.conversations) CHECK(c.session_id().rfind("trace_a", 0) != 0);

  auto hf = input_for("weka_hf");
  CHECK(error_of(hf) == "--public-dataset weka_hf needs --hf-weka-dataset <org>/<name>");
  hf.hf_weka_dataset = "HuggingFaceH4/mt_bench_prompts";  // not a trace corpus
  CHECK(error_of(hf).rfind("Row 0 of HuggingFaceH4/mt_bench_prompts failed WekaTrace validation: ", 0) == 0);
}
