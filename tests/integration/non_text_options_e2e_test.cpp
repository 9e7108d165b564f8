// End-to-end: the text and tokenizer options AIPerf 0.13 refuses for endpoint types that neither
// tokenize their input nor produce tokens (image_retrieval, audio_transcription): exit 2, its
// message word for word (captured from the reference), nothing written. Types that tokenize their
// input (video_generation, image_edit) accept them.
#include <filesystem>

#include <catch2/catch.hpp>

#include "process.h"

using namespace aiperf::test;

namespace {

struct Refusal {
  std::vector<std::string> args;
  std::string message;
};

ProfileRun run(const std::string& tmp, const std::string& name, const std::vector<std::string>& args) {
  std::vector<std::string> full{"--model", "m", "--url", "http://127.0.0.1:9", "--ui-type", "none",
                                "--request-count", "1"};
  full.insert(full.end(), args.begin(), args.end());
  return run_profile(tmp + "/" + name, full, tmp, name, 60);
}

}  // namespace

TEST_CASE("non-text endpoint types refuse text and tokenizer options as AIPerf", "[e2e][bad_inputs]") {
  const std::string tmp = make_temp_dir();
  const std::vector<Refusal> cases = {
      {{"--endpoint-type", "image_retrieval", "--seq-dist", "100,10:100", "--isl", "5"},
       "Error: --isl/--prompt-input-tokens-mean/--synthetic-input-tokens-mean, --seq-dist/--sequence-distribution "
       "cannot be used with --endpoint-type image_retrieval."},
      {{"--endpoint-type", "image_retrieval", "--isl-stddev", "2", "--prompt-batch-size", "2", "--isl-block-size", "4"},
       "Error: --isl-stddev/--prompt-input-tokens-stddev/--synthetic-input-tokens-stddev, "
       "--isl-block-size/--prompt-input-tokens-block-size/--synthetic-input-tokens-block-size, "
       "--prompt-batch-size/--batch-size-text cannot be used with --endpoint-type image_retrieval."},
      {{"--endpoint-type", "audio_transcription", "--synthetic-input-tokens-mean", "5", "--tokenizer", "gpt2"},
       "Error: --isl/--prompt-input-tokens-mean/--synthetic-input-tokens-mean cannot be used with --endpoint-type "
       "audio_transcription."},
      {{"--endpoint-type", "audio_transcription", "--shared-system-prompt-length", "3", "--prompt-prefix-length", "5",
        "--tokenizer", "gpt2"},
       "Error: Prefix prompt options (prompt_prefix_length, prompt_prefix_shared_system_length) cannot be used with "
       "--endpoint-type audio_transcription."},
      {{"--endpoint-type", "image_retrieval", "--num-prefix-prompts", "3"},
       "Error: Prefix prompt options (prompt_prefix_pool_size) cannot be used with --endpoint-type image_retrieval."},
      {{"--endpoint-type", "image_retrieval", "--tokenizer-revision", "main", "--tokenizer", "gpt2",
        "--tokenizer-trust-remote-code"},
       "Error: Tokenizer options (--tokenizer, --tokenizer-trust-remote-code, --tokenizer-revision) cannot be used "
       "with --endpoint-type image_retrieval."},
  };
  int i = 0;
  for (const Refusal& c : cases) {
    const std::string name = "refused" + std::to_string(i++);
    ProfileRun r = run(tmp, name, c.args);
    INFO(name << ": " << r.out << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(c.message) != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(tmp + "/" + name));  // nothing written
  }
}

TEST_CASE("types that tokenize their input accept the text options", "[e2e][bad_inputs]") {
  const std::string tmp = make_temp_dir();
  for (const char* type : {"video_generation", "image_edit"}) {
    ProfileRun r = run(tmp, type,
                       {"--endpoint-type", type, "--isl", "5", "--seq-dist", "5,1:100", "--tokenizer", "gpt2",
                        "--prompt-prefix-length", "3", "--num-prefix-prompts", "2", "--dry-run"});
    INFO(type << ": " << r.out << r.err);
    CHECK(r.exit_code == 0);
  }
}
