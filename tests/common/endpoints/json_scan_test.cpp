// The tree-free OpenAI reader (scan_content) against the nlohmann tree path it stands in for:
// whatever the scanner accepts must decode the same way through the tree, and whatever it
// refuses is left untouched for the tree path.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "endpoints/json_scan.h"
#include "endpoints/openai_content.h"

using namespace aiperf;
using endpoints::JsonScan;
using endpoints::ResponseKind;

namespace {

std::string decoded(std::string_view text) {
  JsonScan s(text);
  std::string out;
  REQUIRE(s.string(&out));
  REQUIRE(s.at_end());
  return out;
}

bool valid(std::string_view text) {
  JsonScan s(text);
  return s.skip_value() && s.at_end();
}

bool same(const endpoints::ParseResult& a, const endpoints::ParseResult& b) {
  if (a.responses.size() != b.responses.size() || a.usage.has_value() != b.usage.has_value()) return false;
  for (size_t i = 0; i < a.responses.size(); ++i) {
    const auto &x = a.responses[i], &y = b.responses[i];
    if (x.perf_ns != y.perf_ns || x.text != y.text || x.reasoning != y.reasoning) return false;
  }
  if (a.usage) {
    const auto &x = *a.usage, &y = *b.usage;
    if (x.prompt_tokens != y.prompt_tokens || x.completion_tokens != y.completion_tokens ||
        x.total_tokens != y.total_tokens || x.reasoning_tokens != y.reasoning_tokens)
      return false;
  }
  return true;
}

// Checks one text both ways; returns whether the scanner took it.
bool check_against_tree(ResponseKind kind, const std::string& text) {
  endpoints::ParseResult scanned;
  const bool took = endpoints::scan_content(kind, text, 7, scanned);
  if (!took) {
    INFO(text);
    CHECK(scanned.responses.empty());
    CHECK_FALSE(scanned.usage.has_value());
    return false;
  }
  const auto tree = nlohmann::json::parse(text, nullptr, false);
  INFO(text);
  REQUIRE_FALSE(tree.is_discarded());
  endpoints::ParseResult expected;
  REQUIRE_FALSE(endpoints::extract_content(kind, tree, 7, expected).has_value());
  CHECK(same(scanned, expected));
  return true;
}

const std::vector<std::string> kCorpus = {
    R"({"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":" hi"},"finish_reason":null}]})",
    R"({"object":"chat.completion.chunk","choices":[{"delta":{"reasoning_content":"think","content":""}}]})",
    R"({"object":"chat.completion.chunk","choices":[{"delta":{"reasoning":"r","reasoning_content":""}}]})",
    R"({"object":"chat.completion","choices":[{"message":{"role":"assistant","content":"whole"}}],"usage":{"prompt_tokens":12,"completion_tokens":3,"total_tokens":15,"completion_tokens_details":{"reasoning_tokens":1}}})",
    R"({"choices":[{"delta":null,"message":{"content":"m"}}]})",
    R"({"choices":[{"delta":5,"message":{"content":"m"}}]})",
    R"({"choices":[{"delta":{"content":"a"},"delta":{"content":null}}]})",
    R"({"choices":[{"delta":{"content":"a"}}],"choices":[]})",
    R"({"choices":[],"usage":{"prompt_tokens":1},"usage":null})",
    R"({"choices":{"delta":{"content":"x"}},"usage":{"completion_tokens_details":7}})",
    R"({"choices":["s",{"delta":{"content":"second"}}]})",
    R"({"choices":[{"delta":{"content":"caf\u00e9 \ud83d\ude00 \"q\" \\ \/ \b\f\n\r\t"}}]})",
    "{\"choices\":[{\"delta\":{\"content\":\"caf\xC3\xA9 \xF0\x9F\x98\x80 \xE2\x82\xAC\"}}]}",
    R"({"choices":[{"delta":{"content":"x"}}],"usage":{"prompt_tokens":-0,"completion_tokens":9223372036854775807}})",
    R"({"choices":[{"delta":{"content":"x"}}],"usage":{"prompt_tokens":1.5}})",
    R"({"choices":[{"delta":{"content":"x"}}],"usage":{"prompt_tokens":1e3,"total_tokens":true}})",
    R"({"choices":[{"delta":{"content":"x"}}],"usage":{"prompt_tokens":18446744073709551615}})",
    R"({"x":[[[[{"a":[1,2.5e-3,-0.0,true,false,null,"s"]}]]]],"choices":[{"text":"t","delta":{"content":"d"}}]})",
    R"({"object":"text_completion","choices":[{"index":0,"text":" done","logprobs":null}]})",
    R"({"object":"completion","choices":[{"text":""}],"usage":{"prompt_tokens":4,"completion_tokens":2}})",
    R"({"object":"weird","choices":[{"delta":{"content":"x"}}]})",
    R"({"object":5,"choices":[{"delta":{"content":"x"}}]})",
    R"(  {"choices" : [ { "delta" : { "content" : "spaced" } } ] }  )",
    R"({"\u0063hoices":[{"delta":{"content":"escaped key"}}]})",
    R"({})",
    R"(null)",
    R"([1,2])",
    R"("text")",
    "\xEF\xBB\xBF{\"choices\":[]}",
    R"({"choices":[{"delta":{"content":"x"}}],})",
    R"({"choices":[{"delta":{"content":"x"}}]} x)",
    R"({"choices":[{"delta":{"content":"\ud83d"}}]})",
    R"({"choices":[{"delta":{"content":"\ude00"}}]})",
    "{\"choices\":[{\"delta\":{\"content\":\"\xC0\x80\"}}]}",
    "{\"choices\":[{\"delta\":{\"content\":\"\xED\xA0\x80\"}}]}",
    "{\"choices\":[{\"delta\":{\"content\":\"\xF4\x90\x80\x80\"}}]}",
    "{\"choices\":[{\"delta\":{\"content\":\"tab\there\"}}]}",
    R"({"usage":{"prompt_tokens":01}})",
    R"({"usage":{"prompt_tokens":-}})",
    R"({"usage":{"prompt_tokens":1.}})",
    R"({"usage":{"prompt_tokens":NaN}})",
    R"({"choices":[{"delta":{"content":"x"}}])",
};

}  // namespace

TEST_CASE("JsonScan decodes escapes, surrogate pairs and UTF-8 as JSON defines them") {
  CHECK(decoded(R"("a\"b\\c\/d\b\f\n\r\t")") == "a\"b\\c/d\b\f\n\r\t");
  CHECK(decoded(R"("\u00e9\u20AC\ud83d\ude00")") == "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
  CHECK(decoded("\"\xC3\xA9\xF0\x9F\x98\x80\"") == "\xC3\xA9\xF0\x9F\x98\x80");
  CHECK(decoded(R"("\u0000")") == std::string(1, '\0'));
}

TEST_CASE("JsonScan refuses what a strict JSON parser refuses") {
  for (const char* bad : {R"("\ud83d")", R"("\ude00x")", R"("\x")", "\"\x01\"", "\"\xC0\x80\"", "\"\xED\xA0\x80\"",
                          "\"\xF4\x90\x80\x80\"", "\"\xC3\"", "\"open", "01", "-", "1.", "1e", ".5", "+1",
                          "tru", "nul", "[1,]", "{\"a\"1}", "{\"a\":1,}", "[1 2]", "NaN"}) {
    INFO(bad);
    CHECK_FALSE(valid(bad));
  }
  for (const char* good : {"0", "-0", "1.5e+10", "-2E-3", "[]", "{}", "[[],{}]", "{\"a\":[null,true,false]}"}) {
    INFO(good);
    CHECK(valid(good));
  }
}

TEST_CASE("JsonScan gives up on nesting past its depth instead of recursing further") {
  const std::string deep = std::string(JsonScan::kMaxDepth + 1, '[') + std::string(JsonScan::kMaxDepth + 1, ']');
  const std::string ok = std::string(JsonScan::kMaxDepth, '[') + std::string(JsonScan::kMaxDepth, ']');
  CHECK_FALSE(valid(deep));
  CHECK(valid(ok));
}

TEST_CASE("JsonScan reads int64 integers and refuses other numbers") {
  auto read = [](const char* text, int64_t& v) {
    JsonScan s(text);
    return s.int64(v);
  };
  int64_t v = 0;
  CHECK((read("9223372036854775807", v) && v == INT64_MAX));
  CHECK((read("-42", v) && v == -42));
  CHECK_FALSE(read("9223372036854775808", v));
  CHECK_FALSE(read("1.0", v));
  CHECK_FALSE(read("1e2", v));
}

TEST_CASE("scan_content agrees with the tree path on the corpus, and takes the common shapes") {
  int taken = 0;
  for (const auto& text : kCorpus) {
    taken += check_against_tree(ResponseKind::kChat, text);
    check_against_tree(ResponseKind::kCompletions, text);
  }
  // The 25 documents up to `{}` are well-formed; the scanner leaves to the tree the 3 with
  // usage numbers that are not int64 integers and the 3 whose `object` is not a chat one.
  CHECK(taken == 19);
}

TEST_CASE("scan_content agrees with the tree path on 200,000 mutated documents") {
  // A fixed-seed generator: the same documents on every run.
  uint64_t state = 0x9E3779B97F4A7C15ull;
  auto next = [&state](uint64_t bound) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state % bound;
  };
  const std::string alphabet = "\"\\{}[],:0-1e.u nt\x80\xC3\xA9\xFF\xED\xF0";
  int taken = 0, refused = 0;
  for (int i = 0; i < 200'000; ++i) {
    std::string text = kCorpus[next(kCorpus.size())];
    for (uint64_t edits = 1 + next(3); edits > 0 && !text.empty(); --edits) {
      const size_t at = next(text.size());
      switch (next(4)) {
        case 0: text.erase(at, 1); break;
        case 1: text.insert(at, 1, alphabet[next(alphabet.size())]); break;
        case 2: text[at] = alphabet[next(alphabet.size())]; break;
        default: text.insert(at, text.substr(next(text.size()), 1 + next(8))); break;
      }
    }
    if (check_against_tree(next(2) ? ResponseKind::kChat : ResponseKind::kCompletions, text)) {
      ++taken;
    } else {
      ++refused;
    }
  }
  // Both branches are exercised in earnest.
  CHECK(taken > 10'000);
  CHECK(refused > 100'000);
}
