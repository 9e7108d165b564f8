// Synthetic conversations: prefix pool, shared system / user-context prompts, --seq-dist,
// images, audio, batch sizes, rankings, and reproducibility under --random-seed (GPT-2).
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "corpus.h"
#include "media_decode.h"
#include "synthetic_dataset.h"
#include "tokenizer/tokenizer.h"

using namespace aiperf::dataset;

namespace {

const aiperf::tok::Tokenizer& gpt2() {
  static const auto tokenizer = aiperf::tok::load_tokenizer(aiperf::tok::resolve_tokenizer_path("gpt2"));
  return *tokenizer;
}

const PromptGenerator& prompts() {
  static const PromptGenerator generator(gpt2(), generate_corpus());
  return generator;
}

aiperf::config::RunConfig base_config() {
  aiperf::config::RunConfig c;
  c.endpoint.model_names = {"m"};
  c.input.random_seed = 11;
  c.input.isl_mean = 6;
  c.input.num_dataset_entries = 4;
  return c;
}

size_t tokens(const std::string& text) { return gpt2().count(text); }

}  // namespace

TEST_CASE("prefix pool: every first turn starts with one of the pool's prefixes, later turns do not",
          "[dataset][synthetic]") {
  auto c = base_config();
  c.input.prefix_pool_size = 2;
  c.input.prefix_length = 9;
  c.input.turn_mean = 2;
  c.input.num_dataset_entries = 8;
  const auto convs = synthesize_conversations(c, prompts());

  // The pool is drawn first from its own stream: rebuild it to know the exact prefixes.
  std::mt19937_64 prefix_rng = derive_rng(c.input.random_seed, "dataset.prompt.prefix");
  const std::string p0 = prompts().generate(9, prefix_rng), p1 = prompts().generate(9, prefix_rng);
  CHECK(tokens(p0) == 9);
  CHECK(tokens(p1) == 9);
  REQUIRE(p0 != p1);

  std::map<std::string, int> used;
  REQUIRE(convs.size() == 8);
  for (const auto& conv : convs) {
    REQUIRE(conv.turns_size() == 2);
    const std::string& first = conv.turns(0).texts(0).contents(0);
    const std::string& prefix = first.rfind(p0 + " ", 0) == 0 ? p0 : p1;
    REQUIRE(first.rfind(prefix + " ", 0) == 0);
    ++used[prefix];
    CHECK(tokens(first.substr(prefix.size() + 1)) == 6);  // the prompt proper keeps its ISL
    const std::string& second = conv.turns(1).texts(0).contents(0);
    CHECK(second.rfind(p0 + " ", 0) != 0);
    CHECK(second.rfind(p1 + " ", 0) != 0);
    CHECK(tokens(second) == 6);
  }
  CHECK(used.size() == 2);  // both prefixes are shared across conversations
  CHECK(used[p0] + used[p1] == 8);
}

TEST_CASE("shared system prompt is one prompt for all, user context is unique per conversation",
          "[dataset][synthetic]") {
  auto c = base_config();
  c.input.shared_system_prompt_length = 12;
  c.input.user_context_prompt_length = 7;
  const auto convs = synthesize_conversations(c, prompts());
  REQUIRE(convs.size() == 4);
  std::set<std::string> contexts;
  for (const auto& conv : convs) {
    CHECK(conv.system_message() == convs[0].system_message());
    CHECK(tokens(conv.system_message()) == 12);
    CHECK(tokens(conv.user_context_message()) == 7);
    contexts.insert(conv.user_context_message());
  }
  CHECK(contexts.size() == 4);

  const auto plain = synthesize_conversations(base_config(), prompts());
  CHECK(plain[0].system_message().empty());
  CHECK(plain[0].user_context_message().empty());
}

TEST_CASE("seq-dist: each turn's ISL and max tokens come from one drawn pair", "[dataset][synthetic]") {
  auto c = base_config();
  c.input.seq_dist = "4,3:25;9,8:75";
  c.input.num_dataset_entries = 200;
  c.input.osl_mean = 1000;  // ignored: the pair's OSL wins
  const auto convs = synthesize_conversations(c, prompts());
  std::map<int64_t, int> by_osl;
  for (const auto& conv : convs) {
    const auto& turn = conv.turns(0);
    const int64_t osl = turn.max_tokens();
    ++by_osl[osl];
    CHECK(tokens(turn.texts(0).contents(0)) == static_cast<size_t>(osl + 1));
  }
  REQUIRE(by_osl.size() == 2);
  CHECK(by_osl[3] + by_osl[8] == 200);
  CHECK(by_osl[3] == 55);  // 25 % of 200 drawn with seed 11
  CHECK(by_osl[8] == 145);
}

TEST_CASE("images and audio: batch sizes, sizes and formats in every turn", "[dataset][synthetic]") {
  auto c = base_config();
  c.input.num_dataset_entries = 2;
  c.input.image_width_mean = 16;
  c.input.image_height_mean = 8;
  c.input.image_batch_size = 3;
  c.input.image_format = aiperf::config::ImageFormat::kJpeg;
  c.input.audio_length_mean = 0.1;
  c.input.audio_batch_size = 2;
  c.input.audio_sample_rates = {8.0};
  const auto convs = synthesize_conversations(c, prompts());
  for (const auto& conv : convs) {
    const auto& turn = conv.turns(0);
    REQUIRE(turn.images_size() == 1);
    CHECK(turn.images(0).name() == "image_url");
    REQUIRE(turn.images(0).contents_size() == 3);
    for (const auto& url : turn.images(0).contents()) {
      const std::string prefix = "data:image/jpeg;base64,";
      REQUIRE(url.rfind(prefix, 0) == 0);
      const auto d = aiperf::test::jpeg_dimensions(aiperf::test::base64_decode(url.substr(prefix.size())));
      CHECK(d.width == 16);
      CHECK(d.height == 8);
    }
    REQUIRE(turn.audios_size() == 1);
    CHECK(turn.audios(0).name() == "input_audio");
    REQUIRE(turn.audios(0).contents_size() == 2);
    const auto h = aiperf::test::wav_header(aiperf::test::base64_decode(turn.audios(0).contents(0).substr(4)));
    CHECK(h.sample_rate == 8000);
    CHECK(h.data_size == 800 * 2);
    CHECK(turn.audio_duration_seconds() == 0.1);  // the first clip's drawn length (stddev 0)
    REQUIRE(turn.texts_size() == 1);  // text stays on (ISL > 0)
  }

  // ISL 0: media only.
  c.input.isl_mean = 0;
  const auto media_only = synthesize_conversations(c, prompts());
  CHECK(media_only[0].turns(0).texts_size() == 0);
  CHECK(media_only[0].turns(0).images(0).contents_size() == 3);
  c.input.audio_length_mean = 0;  // no audio: no duration
  CHECK_FALSE(synthesize_conversations(c, prompts())[0].turns(0).has_audio_duration_seconds());
}

TEST_CASE("same seed gives identical conversations with every feature on, another seed does not",
          "[dataset][synthetic]") {
  auto c = base_config();
  c.input.prefix_pool_size = 3;
  c.input.prefix_length = 5;
  c.input.seq_dist = "5,4:50;7,6:50";
  c.input.image_width_mean = 12;
  c.input.image_width_stddev = 3;
  c.input.image_height_mean = 12;
  c.input.image_format = aiperf::config::ImageFormat::kRandom;
  c.input.audio_length_mean = 0.05;
  c.input.audio_length_stddev = 0.01;
  c.input.turn_mean = 2;
  c.input.turn_stddev = 1;
  auto serialize = [](const std::vector<aiperf::proto::Conversation>& convs) {
    std::string out;
    for (const auto& conv : convs) out += conv.SerializeAsString();
    return out;
  };
  const std::string a = serialize(synthesize_conversations(c, prompts()));
  const std::string b = serialize(synthesize_conversations(c, prompts()));
  CHECK(a == b);
  c.input.random_seed = 12;
  CHECK(serialize(synthesize_conversations(c, prompts())) != a);
}

TEST_CASE("the new features leave the text stream of an existing seed unchanged", "[dataset][synthetic]") {
  auto c = base_config();
  const auto plain = synthesize_conversations(c, prompts());
  c.input.image_width_mean = 8;
  c.input.image_height_mean = 8;
  c.input.shared_system_prompt_length = 4;
  const auto with_media = synthesize_conversations(c, prompts());
  REQUIRE(plain.size() == with_media.size());
  for (size_t i = 0; i < plain.size(); ++i) {
    CHECK(plain[i].session_id() == with_media[i].session_id());
    CHECK(plain[i].turns(0).texts(0).contents(0) == with_media[i].turns(0).texts(0).contents(0));
  }
}

TEST_CASE("rankings: one query and N passages of the requested token counts", "[dataset][synthetic]") {
  auto c = base_config();
  c.endpoint.type = "nim_rankings";
  c.input.rankings_passages_mean = 3;
  c.input.rankings_query_tokens_mean = 5;
  c.input.rankings_passage_tokens_mean = 8;
  const auto convs = synthesize_rankings(c, prompts());
  REQUIRE(convs.size() == 4);
  for (const auto& conv : convs) {
    REQUIRE(conv.turns_size() == 1);
    const auto& turn = conv.turns(0);
    REQUIRE(turn.texts_size() == 2);
    CHECK(turn.texts(0).name() == "query");
    REQUIRE(turn.texts(0).contents_size() == 1);
    CHECK(tokens(turn.texts(0).contents(0)) == 5);
    CHECK(turn.texts(1).name() == "passages");
    REQUIRE(turn.texts(1).contents_size() == 3);
    for (const auto& p : turn.texts(1).contents()) CHECK(tokens(p) == 8);
  }
  CHECK(is_rankings_endpoint("cohere_rankings"));
  CHECK(is_rankings_endpoint("hf_tei_rankings"));
  CHECK_FALSE(is_rankings_endpoint("chat"));
}
