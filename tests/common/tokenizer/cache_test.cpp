// The tokenizer cache gives exactly the tokenizer the JSON gives (golden ids and decodes through
// the cached form), is really used, and is ignored when it no longer matches.
#include "tokenizer/tokenizer_cache.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using aiperf::tok::load_hf_json_cached;
using aiperf::tok::TokenId;

namespace {

const std::string kData = std::string(AIPERF_TEST_DATA) + "/tokenizer/";

std::vector<nlohmann::json> read_jsonl(const std::string& path) {
  std::ifstream in(path);
  std::vector<nlohmann::json> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(nlohmann::json::parse(line));
  }
  return lines;
}

// A private copy of `dir`'s tokenizer.json and an empty cache directory.
struct Sandbox {
  explicit Sandbox(const std::string& dir) {
    root = fs::temp_directory_path() / ("aiperf_tokcache_" + std::to_string(::getpid()) + "_" +
                                        std::to_string(reinterpret_cast<uintptr_t>(this)));
    fs::create_directories(root / "tok");
    fs::copy_file(fs::path(dir) / "tokenizer.json", file());
    cache = (root / "cache").string();
  }
  ~Sandbox() { fs::remove_all(root); }
  fs::path file() const { return root / "tok" / "tokenizer.json"; }
  size_t cache_files() const {
    if (!fs::exists(cache)) return 0;
    return static_cast<size_t>(std::distance(fs::directory_iterator(cache), fs::directory_iterator()));
  }
  // Same size and modification time, other content: only the cache can still give a tokenizer.
  void scramble_keeping_identity() const {
    const auto mtime = fs::last_write_time(file());
    const auto size = fs::file_size(file());
    std::ofstream(file(), std::ios::binary | std::ios::trunc) << std::string(size, '#');
    fs::last_write_time(file(), mtime);
  }
  fs::path root;
  std::string cache;
};

void check_golden_through_cache(const std::string& dir, const std::string& encode_golden,
                                const std::string& decode_golden) {
  Sandbox box(dir);
  auto from_json = load_hf_json_cached(box.file(), nullptr, box.cache);
  REQUIRE(box.cache_files() == 1);
  box.scramble_keeping_identity();
  auto cached = load_hf_json_cached(box.file(), nullptr, box.cache);  // would throw on the JSON
  CHECK(cached->vocab_size() == from_json->vocab_size());

  std::vector<size_t> failed;
  const auto lines = read_jsonl(kData + encode_golden);
  REQUIRE(lines.size() == 363);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (cached->encode(lines[i]["text"].get<std::string>()) != lines[i]["ids"].get<std::vector<TokenId>>())
      failed.push_back(i + 1);
  }
  const auto decodes = read_jsonl(kData + decode_golden);
  REQUIRE(decodes.size() == 513);
  for (size_t i = 0; i < decodes.size(); ++i) {
    if (cached->decode(decodes[i]["ids"].get<std::vector<TokenId>>(), decodes[i]["skip_special_tokens"].get<bool>()) !=
        decodes[i]["text"].get<std::string>())
      failed.push_back(1000 + i + 1);
  }
  INFO("failing lines (1000+: decode): " << nlohmann::json(failed).dump());
  CHECK(failed.empty());
}

}  // namespace

TEST_CASE("tokenizer cache: gpt2 (byte-level BPE) from the cache matches HF's golden ids", "[tokenizer]") {
  check_golden_through_cache(AIPERF_GPT2_DIR, "golden-gpt2.jsonl", "golden-decode-gpt2.jsonl");
}

TEST_CASE("tokenizer cache: mistral (metaspace, byte fallback) from the cache matches HF", "[tokenizer]") {
  check_golden_through_cache(kData + "mistral", "golden-mistral.jsonl", "golden-decode-mistral.jsonl");
}

TEST_CASE("tokenizer cache: qwen3 (150k vocab, added tokens) from the cache matches HF", "[tokenizer]") {
  check_golden_through_cache(kData + "qwen3", "golden-qwen3.jsonl", "golden-decode-qwen3.jsonl");
}

TEST_CASE("tokenizer cache: a changed file or a damaged cache falls back to the JSON", "[tokenizer]") {
  Sandbox box(AIPERF_GPT2_DIR);
  const auto expected = load_hf_json_cached(box.file(), nullptr, box.cache)->encode("Hello, cache world!");
  REQUIRE(box.cache_files() == 1);
  const fs::path cache_file = fs::directory_iterator(box.cache)->path();

  SECTION("a truncated cache file") {
    fs::resize_file(cache_file, fs::file_size(cache_file) / 2);
    CHECK(load_hf_json_cached(box.file(), nullptr, box.cache)->encode("Hello, cache world!") == expected);
  }
  SECTION("a cache file of another format version") {
    std::fstream f(cache_file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(0);
    f << "AIPERF";
    f.close();
    CHECK(load_hf_json_cached(box.file(), nullptr, box.cache)->encode("Hello, cache world!") == expected);
  }
  SECTION("the tokenizer.json changed (new modification time): its new content is parsed") {
    fs::last_write_time(box.file(), fs::last_write_time(box.file()) + std::chrono::seconds(5));
    box.scramble_keeping_identity();  // same size, new time: not the cached file any more
    CHECK_THROWS_WITH(load_hf_json_cached(box.file(), nullptr, box.cache), Catch::Contains("invalid JSON"));
  }
  SECTION("no cache directory: the JSON every time, nothing written") {
    CHECK(load_hf_json_cached(box.file(), nullptr, "")->encode("Hello, cache world!") == expected);
  }
}

TEST_CASE("tokenizer cache: keeps the 32 most recently used files", "[tokenizer]") {
  Sandbox box(AIPERF_GPT2_DIR);
  fs::create_directories(box.cache);
  // 40 stale files of other tokenizers, oldest first.
  const auto long_ago = fs::file_time_type::clock::now() - std::chrono::hours(24);
  for (int i = 0; i < 40; ++i) {
    const fs::path stale = fs::path(box.cache) / ("stale" + std::to_string(100 + i) + ".bin");
    std::ofstream(stale) << "x";
    fs::last_write_time(stale, long_ago + std::chrono::seconds(i));
  }
  load_hf_json_cached(box.file(), nullptr, box.cache);
  CHECK(box.cache_files() == 32);
  CHECK_FALSE(fs::exists(fs::path(box.cache) / "stale108.bin"));  // the 9 oldest went
  CHECK(fs::exists(fs::path(box.cache) / "stale109.bin"));
  CHECK(fs::exists(fs::path(box.cache) / "stale139.bin"));
}
