// Throughput of encode() on one thread:
//   tokenizer_bench <corpus.jsonl> <tokenizer>...          built-in 1 MiB English-like text and
//                                                          1 MiB of the corpus texts repeated
//   tokenizer_bench --text LABEL=FILE... <tokenizer>...    the given text files (each encoded
//                                                          as one string, as the Rust side does)
// For each tokenizer prints tokens/s; "cold" is the first encode (empty BPE cache), "warm" the
// best of three further runs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tokenizer/tokenizer.h"

namespace {

constexpr size_t kTargetBytes = 1 << 20;

// Deterministic pseudo-English: common words, capitals, commas, sentences and paragraphs.
std::string english_text() {
  static const char* words[] = {
      "the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was", "with", "be", "by",
      "on", "not", "he", "this", "are", "or", "his", "from", "at", "which", "but", "have", "an", "had",
      "they", "you", "were", "their", "one", "all", "we", "can", "her", "has", "there", "been", "if",
      "more", "when", "will", "would", "who", "so", "no", "license", "software", "program", "copy",
      "distribute", "modify", "terms", "conditions", "benchmark", "latency", "throughput", "request",
      "server", "model", "token", "performance", "measurement", "streaming", "response", "system",
      "government", "development", "information", "important", "different", "following", "without",
      "between", "because", "through", "however", "example", "together", "question", "understand"};
  constexpr size_t n_words = sizeof(words) / sizeof(words[0]);
  std::string out;
  uint64_t state = 0x9E3779B97F4A7C15ULL;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  bool sentence_start = true;
  while (out.size() < kTargetBytes) {
    std::string w = words[next() % n_words];
    if (sentence_start) w[0] = static_cast<char>(w[0] - 'a' + 'A');
    out += w;
    sentence_start = false;
    uint64_t r = next() % 100;
    if (r < 6) {
      out += ". ";
      sentence_start = true;
      if (r == 0) out += "\n\n";
    } else if (r < 12) {
      out += ", ";
    } else {
      out += ' ';
    }
  }
  out.resize(kTargetBytes);
  return out;
}

std::string corpus_text(const char* path) {
  std::ifstream in(path);
  std::string all;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) all += nlohmann::json::parse(line)["text"].get<std::string>();
  }
  if (all.empty()) return all;
  std::string out;
  while (out.size() < kTargetBytes) out += all;
  return out;
}

double seconds_to_encode(const aiperf::tok::Tokenizer& tok, const std::string& text, size_t& tokens) {
  auto t0 = std::chrono::steady_clock::now();
  tokens = tok.encode(text).size();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void report(const char* label, const aiperf::tok::Tokenizer& tok, const std::string& text) {
  size_t tokens = 0;
  double cold = seconds_to_encode(tok, text, tokens);
  double warm = 1e9;
  for (int i = 0; i < 3; ++i) warm = std::min(warm, seconds_to_encode(tok, text, tokens));
  double mb = static_cast<double>(text.size()) / (1 << 20);
  std::printf("  %-8s %8zu tokens  cold %7.0f k tok/s (%5.2f MiB/s)  warm %7.0f k tok/s (%5.2f MiB/s)\n", label,
              tokens, tokens / cold / 1e3, mb / cold, tokens / warm / 1e3, mb / warm);
}

}  // namespace

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s <corpus.jsonl> <tokenizer>... | --text LABEL=FILE... <tokenizer>...\n",
                 argv[0]);
    return 2;
  }
  std::vector<std::pair<std::string, std::string>> texts;  // label, text
  int first_tokenizer = 2;
  if (std::string(argv[1]) == "--text") {
    for (first_tokenizer = 1; first_tokenizer + 1 < argc && std::string(argv[first_tokenizer]) == "--text";
         first_tokenizer += 2) {
      std::string spec = argv[first_tokenizer + 1];
      auto eq = spec.find('=');
      std::string text = eq == std::string::npos ? std::string() : read_text(spec.substr(eq + 1));
      if (text.empty()) {
        std::fprintf(stderr, "--text %s: expected LABEL=FILE with a non-empty file\n", spec.c_str());
        return 2;
      }
      texts.emplace_back(spec.substr(0, eq), std::move(text));
    }
  } else {
    texts.emplace_back("english", english_text());
    texts.emplace_back("corpus", corpus_text(argv[1]));
    if (texts.back().second.empty()) {
      std::fprintf(stderr, "no texts read from %s\n", argv[1]);
      return 2;
    }
  }
  for (int i = first_tokenizer; i < argc; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    auto tok = aiperf::tok::load_tokenizer(aiperf::tok::resolve_tokenizer_path(argv[i]));
    double load = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%s (load %.2f s)\n", argv[i], load);
    for (const auto& [label, text] : texts) report(label.c_str(), *tok, text);
  }
  return 0;
}
