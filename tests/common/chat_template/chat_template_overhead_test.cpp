// --apply-chat-template's synthetic ISL compensation: the figures AIPerf 0.13's
// _estimate_chat_template_overheads gives for the test tokenizers (qwen3: fixed 3, wrap 5).
#include <catch2/catch.hpp>

#include "chat_template_overhead.h"

using namespace aiperf;

namespace {
const std::string kTok = std::string(AIPERF_TEST_DATA) + "/tokenizer/";
}

TEST_CASE("qwen3 template overhead as the reference estimates it", "[chat_template]") {
  auto tmpl = endpoints::load_chat_template(kTok + "qwen3");
  REQUIRE(tmpl);
  auto tok = tok::load_tokenizer(kTok + "qwen3");
  const auto o = dataset::estimate_chat_template_overhead(*tmpl, *tok, dataset::server_special_tokens(kTok + "qwen3"));
  CHECK(o.per_request_fixed == 3);
  CHECK(o.per_message_wrap == 5);
  CHECK(o.first_turn() == 8);
  CHECK(o.later_turns() == 5);
}

TEST_CASE("no compensation for a template that raises or shrinks the text", "[chat_template]") {
  auto tok = tok::load_tokenizer(kTok + "qwen3");
  const endpoints::ChatTemplate raising("{{ raise_exception('no') }}");
  CHECK(dataset::estimate_chat_template_overhead(raising, *tok, 0).per_message_wrap == 0);
  const endpoints::ChatTemplate empty("");
  const auto o = dataset::estimate_chat_template_overhead(empty, *tok, 0);
  CHECK(o.per_request_fixed == 0);
  CHECK(o.per_message_wrap == 0);
}

TEST_CASE("server special tokens from add_bos_token", "[chat_template]") {
  CHECK(dataset::server_special_tokens(kTok + "mistral") == 1);
  CHECK(dataset::server_special_tokens(kTok + "qwen3") == 0);
  CHECK(dataset::server_special_tokens(kTok + "spm/spm-bpe-8k.model") == 0);
}
