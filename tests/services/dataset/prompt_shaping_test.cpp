// Prompt shaping (issue 16): NumPy-exact integer streams, --random-range-ratio windows and
// parsing, the random and coding corpora, --system-prompt, --cache-bust markers and their ISL
// budget, and --image-source sampling. Expected numbers come from NumPy and AIPerf 0.13 run on
// the same inputs (GPT-2).
#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "coding_corpus.h"
#include "corpus.h"
#include "endpoints/cache_bust.h"
#include "image_source.h"
#include "numpy_rng.h"
#include "prompt_shaping.h"
#include "range_ratio.h"
#include "synthetic_dataset.h"
#include "tokenizer/tokenizer.h"

using namespace aiperf::dataset;
using aiperf::config::CacheBust;
using aiperf::config::ImageSourceSampling;
using aiperf::config::RandomCorpusStyle;
using aiperf::endpoints::apply_cache_bust;
using aiperf::endpoints::cache_bust_marker;
using aiperf::endpoints::cache_bust_marker_tokens;
using aiperf::endpoints::cache_bust_rid_marker;
using Ints = std::vector<int64_t>;

namespace {

const aiperf::tok::Tokenizer& gpt2() {
  static const auto tokenizer = aiperf::tok::load_tokenizer(aiperf::tok::resolve_tokenizer_path("gpt2"));
  return *tokenizer;
}

std::string invalid(const std::string& text, RandomCorpusStyle style) {
  try {
    parse_range_ratio(text, style);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

std::string out_of_range(double isl, double osl, RandomCorpusStyle style) {
  try {
    check_range_ratio({isl, osl}, style);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

aiperf::config::RunConfig ratio_config(RandomCorpusStyle style) {
  aiperf::config::RunConfig c;
  c.endpoint.model_names = {"m"};
  c.input.random_seed = 42;
  c.input.num_dataset_entries = 6;
  auto& ps = c.input.prompt_shaping;
  ps.random_corpus_style = style;
  if (style == RandomCorpusStyle::kSglang) {
    c.input.isl_mean = 100;
    c.input.osl_mean = 10;
    ps.range_ratio_isl = ps.range_ratio_osl = 0.3;
  } else {
    c.input.isl_mean = 100;
    c.input.osl_mean = 10;
    ps.range_ratio_isl = 0.3;
    ps.range_ratio_osl = 0.3;
  }
  return c;
}

}  // namespace

TEST_CASE("NumpyPcg64 draws what numpy.random.default_rng(42).integers draws", "[dataset][shaping]") {
  NumpyPcg64 g(42);
  CHECK(g.integers(70, 131, 6) == Ints{75, 117, 109, 96, 96, 122});
  CHECK(g.integers(7, 14, 6) == Ints{7, 11, 8, 7, 10, 13});
  CHECK(g.integers(0, 50257, 6) == Ints{36976, 38252, 36058, 39505, 25793, 6438});
}

TEST_CASE("NumpyRandomState draws what numpy.random.RandomState(42).randint draws", "[dataset][shaping]") {
  NumpyRandomState r(42);
  CHECK(r.integers(30, 101, 6) == Ints{81, 44, 90, 50, 53, 32});
  CHECK(r.integers(3, 11, 6) == Ints{8, 7, 4, 10, 6, 8});
  CHECK(fold_seed_to_uint32(5) == 5);
  CHECK(fold_seed_to_uint32((1ULL << 32) * 3 + 5) == 6);  // hi ^ lo
}

TEST_CASE("prompt shaping: --random-range-ratio text: floats, the vllm JSON form, AIPerf's messages", "[dataset][shaping]") {
  CHECK(parse_range_ratio(" 0.25 ", RandomCorpusStyle::kVllm) == std::pair<double, double>{0.25, 0.25});
  CHECK(parse_range_ratio("{\"input\": 0.3, \"output\": 0.5}", RandomCorpusStyle::kVllm) ==
        std::pair<double, double>{0.3, 0.5});
  CHECK(parse_range_ratio("1", RandomCorpusStyle::kSglang) == std::pair<double, double>{1.0, 1.0});
  CHECK(invalid("", RandomCorpusStyle::kVllm) == "--random-range-ratio value cannot be empty");
  CHECK(invalid("abc", RandomCorpusStyle::kVllm) ==
        "--random-range-ratio must be a float or a JSON object with 'input' and 'output' keys, got: 'abc'");
  CHECK(invalid("{\"input\": 0.3}", RandomCorpusStyle::kVllm) ==
        "--random-range-ratio JSON object missing keys: ['output']");
  CHECK(invalid("{\"input\": 0.3, \"output\": 0.1, \"x\": 1}", RandomCorpusStyle::kVllm) ==
        "--random-range-ratio JSON object has unexpected keys: ['x']");
  CHECK(invalid("{\"input\": 0.3, \"output\": 0.3}", RandomCorpusStyle::kSglang) ==
        "SGLang corpus style applies a single ratio to both ISL and OSL. Independent input/output values are not "
        "supported; provide a plain float instead (e.g. 0.3).");
  CHECK(invalid("abc", RandomCorpusStyle::kSglang) ==
        "--random-range-ratio must be a plain float for SGLang corpus style, got: 'abc'");
  CHECK(out_of_range(1.0, 1.0, RandomCorpusStyle::kVllm) == "ISL range_ratio must be in [0.0, 1.0), got 1.0");
  CHECK(out_of_range(0.5, 1.5, RandomCorpusStyle::kVllm) == "OSL range_ratio must be in [0.0, 1.0), got 1.5");
  CHECK(out_of_range(1.0, 1.0, RandomCorpusStyle::kSglang).empty());
  CHECK(out_of_range(1.5, 1.5, RandomCorpusStyle::kSglang) == "range_ratio must be in [0.0, 1.0], got 1.5");
}

TEST_CASE("range windows: vllm symmetric around the mean less special tokens, sglang lower-bounded",
          "[dataset][shaping]") {
  const RangeWindow v = range_window(RandomCorpusStyle::kVllm, 100, 10, 0.3, 0.3, 0);
  CHECK((v.isl_low == 70 && v.isl_high == 130 && v.osl_low == 7 && v.osl_high == 13));
  const RangeWindow v1 =
      range_window(RandomCorpusStyle::kVllm, 100, 1, 0.3, 0.9, 1);  // 99 * 0.7 = 69.3, 99 * 1.3 = 128.7
  CHECK((v1.isl_low == 69 && v1.isl_high == 129 && v1.osl_low == 1 && v1.osl_high == 2));
  const RangeWindow s = range_window(RandomCorpusStyle::kSglang, 100, 10, 0.3, 0.3, 1);
  CHECK((s.isl_low == 30 && s.isl_high == 100 && s.osl_low == 3 && s.osl_high == 10));
  const RangeWindow s0 = range_window(RandomCorpusStyle::kSglang, 3, 2, 0.1, 0.1, 0);  // int(0.3) = 0 -> 1
  CHECK((s0.isl_low == 1 && s0.osl_low == 1));
}

TEST_CASE("RangeRatioSampler: all ISLs then all OSLs of the seed's stream, sglang shifted by special tokens",
          "[dataset][shaping]") {
  RangeRatioSampler v(RandomCorpusStyle::kVllm, range_window(RandomCorpusStyle::kVllm, 100, 10, 0.3, 0.3, 0), 0, 42, 6);
  std::vector<std::pair<uint32_t, uint32_t>> got;
  for (int i = 0; i < 6; ++i) got.push_back(v.next());
  CHECK(got == std::vector<std::pair<uint32_t, uint32_t>>{{75, 7}, {117, 11}, {109, 8}, {96, 7}, {96, 10}, {122, 13}});
  // The stream goes on where the random corpus's offsets come from.
  CHECK(v.stream().integers(0, 50257, 3) == Ints{36976, 38252, 36058});

  // Three entries: randint(30, 101, 3) = 81 44 90, then randint(3, 11, 3) = 7 9 4.
  RangeRatioSampler s(RandomCorpusStyle::kSglang, range_window(RandomCorpusStyle::kSglang, 100, 10, 0.3, 0.3, 1), 1, 42,
                      3);
  CHECK(s.next() == std::pair<uint32_t, uint32_t>{80, 7});  // 81 - 1 special token
  CHECK(s.next() == std::pair<uint32_t, uint32_t>{43, 9});
}

TEST_CASE("AIPerf's derived seeds and their PCG64 streams (64-bit SeedSequence entropy)", "[dataset][shaping]") {
  const uint64_t seed = derive_aiperf_seed(7, "dataset.prompt.corpus");
  CHECK(seed == 8034601933877407000ULL);
  NumpyPcg64 g(seed);
  CHECK(g.integers(0, 50256, 3) == Ints{16422, 47230, 48200});
  CHECK(g.integers(0, 50256, 1) == Ints{9116});
  CHECK(g.integers(0, 50257, 2) == Ints{14056, 4377});
}

TEST_CASE("synthetic conversations with --random-range-ratio: the seed's ISLs and OSLs, exactly",
          "[dataset][shaping]") {
  // Text corpora: no preseed; (ISL, OSL) per turn from AIPerf's derived
  // "models.range_ratio.distribution" stream of seed 42, as NumPy draws them.
  const auto c = ratio_config(RandomCorpusStyle::kVllm);
  const PromptGenerator prompts(gpt2(), generate_corpus());
  const auto convs = synthesize_conversations(c, prompts);
  REQUIRE(convs.size() == 6);
  const std::vector<size_t> isl{125, 83, 72, 112, 95, 103};
  const std::vector<uint32_t> osl{10, 13, 7, 13, 11, 10};
  for (size_t i = 0; i < 6; ++i) {
    CHECK(gpt2().count(convs[i].turns(0).texts(0).contents(0)) == isl[i]);
    CHECK(convs[i].turns(0).max_tokens() == osl[i]);
  }
  const auto s = synthesize_conversations(ratio_config(RandomCorpusStyle::kSglang), prompts);
  CHECK(gpt2().count(s[0].turns(0).texts(0).contents(0)) == 94);  // GPT-2 adds no special token
  CHECK(s[0].turns(0).max_tokens() == 7);
  CHECK(gpt2().count(s[1].turns(0).texts(0).contents(0)) == 46);
  CHECK(s[1].turns(0).max_tokens() == 10);
}

TEST_CASE("prompt shaping: --prompt-corpus random: runs of vocabulary ids shifted by the request index, exact length",
          "[dataset][shaping]") {
  const PromptGenerator v = PromptGenerator::random_vocab(gpt2(), RandomCorpusStyle::kVllm);
  const PromptGenerator s = PromptGenerator::random_vocab(gpt2(), RandomCorpusStyle::kSglang);
  CHECK(v.random_pool_size() == 50256);  // <|endoftext|> is special
  CHECK(s.random_pool_size() == 50257);
  v.use_offsets({0, 0, 50255}, nullptr);
  std::mt19937_64 rng(1);
  const std::string a = v.generate(20, rng), b = v.generate(20, rng), c = v.generate(6, rng);
  CHECK(gpt2().count(a) == 20);
  CHECK(gpt2().count(b) == 20);
  CHECK(gpt2().count(c) == 6);
  CHECK(a.rfind("!\"#$%", 0) == 0);   // ids 0, 1, 2, ... of GPT-2
  CHECK(b.rfind("\"#$%&", 0) == 0);   // request 1: one further
  CHECK(c.rfind("\"#$%", 0) == 0);    // (50255 + 2) % 50256 = 1
}

TEST_CASE("HF's special ids for the vllm pool: the tokens tokenizer_config.json names", "[dataset][shaping]") {
  namespace fs = std::filesystem;
  // The bundled GPT-2's config names none: HF's all_special_ids is empty, the pool every id.
  const auto bundled = hf_special_ids(aiperf::tok::resolve_tokenizer_path("gpt2"), gpt2());
  REQUIRE(bundled);
  CHECK(bundled->empty());
  aiperf::config::InputConfig in;
  in.prompt_shaping.prompt_corpus = aiperf::config::PromptCorpus::kRandom;
  CHECK(make_prompt_generator(in, gpt2(), aiperf::tok::resolve_tokenizer_path("gpt2")).random_pool_size() == 50257);

  const fs::path dir = fs::temp_directory_path() / ("aiperf-special-ids-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "tokenizer_config.json")
      << R"({"bos_token": {"content": "<|endoftext|>"}, "eos_token": "<|endoftext|>", "pad_token": null,
            "additional_special_tokens": ["hello", "two words"]})";
  const auto named = hf_special_ids(dir.string(), gpt2());
  REQUIRE(named);
  CHECK(*named == std::set<aiperf::tok::TokenId>{50256, 31373});  // "two words" is not one token
  CHECK(make_prompt_generator(in, gpt2(), dir.string()).random_pool_size() == 50255);
  CHECK_FALSE(hf_special_ids((dir / "missing" / "tokenizer.json").string(), gpt2()));
  fs::remove_all(dir);
}

TEST_CASE("prompt shaping: --prompt-corpus random with --random-range-ratio: offsets follow the ISL and OSL draws",
          "[dataset][shaping]") {
  auto c = ratio_config(RandomCorpusStyle::kVllm);
  c.input.prompt_shaping.prompt_corpus = aiperf::config::PromptCorpus::kRandom;
  const PromptGenerator prompts = make_prompt_generator(c.input, gpt2());
  const auto convs = synthesize_conversations(c, prompts);
  // Offsets 36976 and 38252 (the next draws of default_rng(42)), request indexes 0 and 1.
  const auto first = gpt2().encode(convs[0].turns(0).texts(0).contents(0));
  REQUIRE(first.size() == 75);
  const std::string expected0 = gpt2().decode(std::vector<aiperf::tok::TokenId>{36976, 36977, 36978}, false);
  CHECK(convs[0].turns(0).texts(0).contents(0).rfind(expected0.substr(0, 3), 0) == 0);
  CHECK(gpt2().count(convs[1].turns(0).texts(0).contents(0)) == 117);
  const std::string expected1 = gpt2().decode(std::vector<aiperf::tok::TokenId>{38253, 38254}, false);
  CHECK(convs[1].turns(0).texts(0).contents(0).rfind(expected1.substr(0, 3), 0) == 0);
}

TEST_CASE("prompt shaping: --prompt-corpus coding: a fixed corpus of code, shell output, JSON and errors", "[dataset][shaping]") {
  const std::string corpus = generate_coding_corpus(60);
  CHECK(corpus == generate_coding_corpus(60));
  for (const char* kind : {"def ", "func ", "fn ", "Traceback (most recent call last)", "diff --git", "$ ", "\"status\""})
    CHECK(corpus.find(kind) != std::string::npos);
  aiperf::config::InputConfig in;
  in.prompt_shaping.prompt_corpus = aiperf::config::PromptCorpus::kCoding;
  const PromptGenerator prompts = make_prompt_generator(in, gpt2());
  std::mt19937_64 rng(3);
  for (uint32_t n : {1u, 17u, 256u}) CHECK(gpt2().count(prompts.generate(n, rng)) == n);
}

TEST_CASE("prompt shaping: --system-prompt: set on every conversation, joined before a dataset's own", "[dataset][shaping]") {
  std::vector<aiperf::proto::Conversation> convs(2);
  convs[1].set_system_message("Be brief.");
  aiperf::config::InputConfig in;
  apply_system_prompt(convs, in);
  CHECK(convs[0].system_message().empty());
  in.prompt_shaping.system_prompt = "You are a tester.";
  apply_system_prompt(convs, in);
  CHECK(convs[0].system_message() == "You are a tester.");
  CHECK(convs[1].system_message() == "You are a tester.\n\nBe brief.");
}

TEST_CASE("cache-bust markers: rid plus 12 hex of sha256 with its blank line, the warmup marker in warmup only",
          "[dataset][shaping]") {
  CHECK(cache_bust_rid_marker(CacheBust::kSystemPrefix, "x") == "[rid:2d711642b726]\n\n");
  CHECK(cache_bust_rid_marker(CacheBust::kFirstTurnSuffix, "x") == "\n\n[rid:2d711642b726]");
  // AIPerf's estimator marker 0 (sha256 of "estimator:0:0:estimator-0").
  CHECK(cache_bust_rid_marker(CacheBust::kFirstTurnPrefix, "estimator:0:0:estimator-0") == "[rid:8e15353008f0]\n\n");
  CHECK(!cache_bust_marker(CacheBust::kNone, "b", "s", "c", true));
  CHECK(cache_bust_marker(CacheBust::kWarmupIsolationFirstTurn, "b", "s", "c", true) == "[warmup]\n\n");
  CHECK(!cache_bust_marker(CacheBust::kWarmupIsolationSystem, "b", "s", "c", false));
  const auto m1 = cache_bust_marker(CacheBust::kSystemPrefix, "bench", "session-1", "conv", false);
  CHECK(m1 ==
        cache_bust_marker(CacheBust::kSystemPrefix, "bench", "session-1", "conv", true));  // warmup and profiling alike
  CHECK(m1 != cache_bust_marker(CacheBust::kSystemPrefix, "bench", "session-2", "conv", false));
  CHECK(m1 != cache_bust_marker(CacheBust::kSystemPrefix, "bench2", "session-1", "conv", false));
  // AIPerf's estimate under GPT-2: markers of 13 12 13 13 12 11 12 13 tokens -> 12; suffixes 13.
  CHECK(cache_bust_marker_tokens(CacheBust::kSystemPrefix, gpt2()) == 12);
  CHECK(cache_bust_marker_tokens(CacheBust::kFirstTurnSuffix, gpt2()) == 13);
  CHECK(cache_bust_marker_tokens(CacheBust::kWarmupIsolationFirstTurn, gpt2()) == 0);
  CHECK(cache_bust_marker_tokens(CacheBust::kNone, gpt2()) == 0);
}

TEST_CASE("apply_cache_bust: system message, else the first user turn, once", "[dataset][shaping]") {
  aiperf::proto::Turn user0, assistant, user1;
  user0.add_texts()->add_contents("hello");
  assistant.set_role("assistant");
  assistant.add_texts()->add_contents("hi");
  user1.add_texts()->add_contents("again");
  const std::string m = "[rid:abc]\n\n";
  std::vector<const aiperf::proto::Turn*> turns{&user0, &assistant, &user1};
  std::unique_ptr<aiperf::proto::Turn> storage;

  CHECK(apply_cache_bust(CacheBust::kSystemPrefix, m, "sys", turns, storage) == "[rid:abc]\n\nsys");
  CHECK(apply_cache_bust(CacheBust::kSystemSuffix, "\n\n[rid:abc]", "sys", turns, storage) == "sys\n\n[rid:abc]");
  CHECK(turns[0] == &user0);  // untouched

  CHECK(
      apply_cache_bust(CacheBust::kSystemPrefix, m, "", turns, storage).empty());  // no system message: first user turn
  REQUIRE(turns[0] == storage.get());
  CHECK(turns[0]->texts(0).contents(0) == "[rid:abc]\n\nhello");
  CHECK(user0.texts(0).contents(0) == "hello");  // the dataset's turn is not changed

  // A history already holding the marked turn is not marked twice.
  std::unique_ptr<aiperf::proto::Turn> again;
  apply_cache_bust(CacheBust::kFirstTurnPrefix, m, "", turns, again);
  CHECK(!again);
  CHECK(turns[0]->texts(0).contents(0) == "[rid:abc]\n\nhello");

  std::vector<const aiperf::proto::Turn*> one{&user1};
  std::unique_ptr<aiperf::proto::Turn> s2;
  CHECK(apply_cache_bust(CacheBust::kFirstTurnSuffix, "\n\n[rid:abc]", "sys", one, s2) == "sys");
  CHECK(one[0]->texts(0).contents(0) == "again\n\n[rid:abc]");
}

TEST_CASE("cache-bust ISL budget: off the first turn, or off the shared system prompt", "[dataset][shaping]") {
  aiperf::config::InputConfig in;
  in.prompt_shaping.cache_bust = CacheBust::kFirstTurnPrefix;
  CHECK(cache_bust_budget(in, gpt2()).first_turn_tokens == 12);
  in.prompt_shaping.cache_bust = CacheBust::kSystemSuffix;  // no system prompt: falls to the first turn
  CHECK(cache_bust_budget(in, gpt2()).first_turn_tokens == 13);
  in.shared_system_prompt_length = 40;
  auto b = cache_bust_budget(in, gpt2());
  CHECK((b.first_turn_tokens == 0 && b.shared_system_tokens == 13));
  in.shared_system_prompt_length = 0;
  in.prompt_shaping.system_prompt = "verbatim";  // lands on it, additive: nothing shrinks
  b = cache_bust_budget(in, gpt2());
  CHECK((b.first_turn_tokens == 0 && b.shared_system_tokens == 0));

  // In the dataset: first turns shortened by the marker, so prompt + marker = --isl.
  aiperf::config::RunConfig c;
  c.endpoint.model_names = {"m"};
  c.input.random_seed = 5;
  c.input.isl_mean = 40;
  c.input.turn_mean = 2;
  c.input.num_dataset_entries = 2;
  c.input.prompt_shaping.cache_bust = CacheBust::kFirstTurnPrefix;
  const PromptGenerator prompts(gpt2(), generate_corpus());
  ShapingInputs shaping;
  shaping.cache_bust = cache_bust_budget(c.input, gpt2());
  const auto convs = synthesize_conversations(c, prompts, {}, shaping);
  CHECK(gpt2().count(convs[0].turns(0).texts(0).contents(0)) == 28);
  CHECK(gpt2().count(convs[0].turns(1).texts(0).contents(0)) == 40);
}

TEST_CASE("prompt shaping: --image-source: noise, built-in assets, a directory in random, shuffled or sorted order",
          "[dataset][shaping]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("aiperf-image-source-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  CHECK_THROWS_WITH(list_source_images(dir.string()), "No source images found in '" + dir.string() +
                                                          "'. Please ensure the directory contains at least one "
                                                          "image file.");
  CHECK_THROWS_WITH(list_source_images((dir / "nope").string()),
                    "The directory '" + (dir / "nope").string() + "' does not exist.");
  // Three pictures of distinct solid colours (sorted b, c, d), a broken one, a text file.
  auto solid = [](uint8_t r) {
    RgbImage img;
    img.width = 6;
    img.height = 4;
    img.pixels.assign(6 * 4 * 3, r);
    return img;
  };
  std::ofstream(dir / "b.png", std::ios::binary) << encode_png(solid(10));
  std::ofstream(dir / "c.JPG", std::ios::binary) << encode_jpeg(solid(128), 95);
  std::ofstream(dir / "d.png", std::ios::binary) << encode_png(solid(250));
  std::ofstream(dir / "a.jpg", std::ios::binary) << "not an image";
  std::ofstream(dir / "notes.txt") << "x";
  CHECK(list_source_images(dir.string()).size() == 4);

  aiperf::config::PromptShapingConfig ps;
  ps.image_source = dir.string();
  ps.image_source_sampling = ImageSourceSampling::kSequentialCycle;
  ImageSource seq(ps);
  std::mt19937_64 rng(1);
  std::vector<int> order;
  for (int i = 0; i < 6; ++i) {
    const RgbImage img = seq.next(3, 2, rng);
    CHECK((img.width == 3 && img.height == 2));
    order.push_back(seq.last_index());
  }
  CHECK(order == std::vector<int>{1, 2, 3, 1, 2, 3});  // a.jpg does not decode: skipped for good
  {
    ImageSource again(ps);
    CHECK(again.next(2, 2, rng).pixels[0] == 10);  // the solid colour survives resizing
  }

  ps.image_source_sampling = ImageSourceSampling::kShuffleCycle;
  ImageSource shuffled(ps);
  std::multiset<int> cycle1, cycle2;
  for (int i = 0; i < 3; ++i) {
    shuffled.next(2, 2, rng);
    cycle1.insert(shuffled.last_index());
  }
  for (int i = 0; i < 3; ++i) {
    shuffled.next(2, 2, rng);
    cycle2.insert(shuffled.last_index());
  }
  CHECK(cycle1 == std::multiset<int>{1, 2, 3});  // every readable picture once per cycle
  CHECK(cycle2 == std::multiset<int>{1, 2, 3});

  ps.image_source = "assets";
  ps.image_source_sampling = ImageSourceSampling::kRandomWithReplacement;
  ImageSource assets(ps);
  std::set<int> seen;
  for (int i = 0; i < 40; ++i) {
    const RgbImage img = assets.next(16, 9, rng);
    CHECK((img.width == 16 && img.height == 9));
    seen.insert(assets.last_index());
  }
  CHECK(seen == std::set<int>{0, 1, 2, 3});

  ps.image_source = "noise";
  ImageSource noise(ps);
  const RgbImage n = noise.next(7, 5, rng);
  CHECK(n.pixels.size() == 7 * 5 * 3);
  CHECK(noise.last_index() == -1);
  std::set<uint8_t> values(n.pixels.begin(), n.pixels.end());
  CHECK(values.size() > 50);  // random bytes, not a flat picture
  fs::remove_all(dir);
}

TEST_CASE("decode_image and resize_image: JPEG and PNG round trips, bilinear sizes", "[dataset][shaping]") {
  RgbImage img;
  img.width = 4;
  img.height = 2;
  img.pixels = {0, 0, 0, 255, 255, 255, 0, 0, 0, 255, 255, 255, 0, 0, 0, 255, 255, 255, 0, 0, 0, 255, 255, 255};
  const RgbImage png = decode_image(encode_png(img));
  CHECK(png.pixels == img.pixels);
  const RgbImage jpg = decode_image(encode_jpeg(img, 90));
  CHECK((jpg.width == 4 && jpg.height == 2));
  CHECK_THROWS(decode_image("GIF89a"));
  CHECK_THROWS_WITH(decode_image(encode_jpeg(img, 90).substr(0, 20)), "not a readable JPEG");  // libjpeg's error path
  const RgbImage half = resize_image(img, 2, 1);  // each output pixel averages a black and a white one
  REQUIRE(half.pixels.size() == 6);
  CHECK(half.pixels[0] == 128);
  CHECK(resize_image(img, 8, 4).pixels.size() == 8 * 4 * 3);
}
