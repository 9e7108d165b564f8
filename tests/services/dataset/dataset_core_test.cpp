// DatasetCore's rules without a socket: what DatasetReady announces for a small synthetic
// config (ids in dataset order, turn counts, timings only with think times, the sampling
// strategy), inputs.json at the artifact path, and the replies to known and unknown ids.
#include "dataset_core.h"

#include <unistd.h>

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tokenizer/tokenizer.h"

using namespace aiperf;
using dataset::DatasetCore;
namespace fs = std::filesystem;

namespace {

// A scratch artifact directory, removed at the end of the test.
struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name)
      : path(fs::temp_directory_path() / (name + "_" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

// Three synthetic chat conversations of two turns each, seeded.
config::RunConfig small_config(const fs::path& artifact_dir) {
  config::RunConfig c;
  c.endpoint.type = "chat";
  c.endpoint.model_names = {"m"};
  c.tokenizer.resolved_path = tok::resolve_tokenizer_path("gpt2");
  c.input.random_seed = 11;
  c.input.isl_mean = 6;
  c.input.num_dataset_entries = 3;
  c.input.turn_mean = 2;
  c.output.artifact_dir = artifact_dir.string();
  return c;
}

// The session ids util::uuid4 draws from seed 11's stream, in dataset order.
const std::vector<std::string> kIds = {"2a6c2caf-278d-43f3-85ff-3ca60f508135", "0f078b9e-474a-4ed8-88b3-3c8c70b4ebe0",
                                       "87b3b312-7cf6-47d1-9f36-9e21af46c88f"};

std::vector<std::string> ids_of(const proto::DatasetReady& ready) {
  return {ready.conversation_ids().begin(), ready.conversation_ids().end()};
}

}  // namespace

TEST_CASE("dataset core: a small synthetic config announces its ids and turn counts, no timings") {
  TempDir dir("dataset_core_ready");
  DatasetCore core;
  const proto::DatasetReady ready = core.configure(small_config(dir.path));
  CHECK(ids_of(ready) == kIds);
  CHECK(std::vector<uint32_t>(ready.turn_counts().begin(), ready.turn_counts().end()) ==
        std::vector<uint32_t>{2, 2, 2});
  CHECK(ready.timings_size() == 0);  // no turn has a timestamp or a delay
  CHECK(ready.sampling_strategy() == "shuffle");
  CHECK_FALSE(ready.has_timing_data());
  REQUIRE(core.conversations().size() == 3);
  CHECK(core.conversations()[1].session_id() == kIds[1]);

  // The same seed gives the same dataset: a second configure replaces the first.
  CHECK(ids_of(core.configure(small_config(dir.path))) == kIds);
  CHECK(core.conversations().size() == 3);
}

TEST_CASE("dataset core: think times send a timing per conversation, the first turn without delay") {
  TempDir dir("dataset_core_timings");
  config::RunConfig c = small_config(dir.path);
  c.input.turn_delay_mean = 500;
  c.input.dataset_sampling_strategy = "sequential";
  DatasetCore core;
  const proto::DatasetReady ready = core.configure(c);
  REQUIRE(ready.timings_size() == 3);
  for (const auto& timing : ready.timings()) {
    CHECK(std::vector<double>(timing.delay_ms().begin(), timing.delay_ms().end()) == std::vector<double>{0, 500});
    REQUIRE(timing.timestamp_ms_size() == 2);
    CHECK(std::isnan(timing.timestamp_ms(0)));  // no schedule: NaN, not 0
    CHECK(std::isnan(timing.timestamp_ms(1)));
  }
  CHECK(ready.sampling_strategy() == "sequential");
  CHECK_FALSE(ready.has_timing_data());  // delays are not timestamps
}

TEST_CASE("dataset core: inputs.json is written at the artifact path, one entry per conversation") {
  TempDir dir("dataset_core_inputs");
  DatasetCore core;
  core.configure(small_config(dir.path));
  std::ifstream in(dir.path / "inputs.json");
  REQUIRE(in);
  const auto inputs = nlohmann::json::parse(in);
  REQUIRE(inputs["data"].size() == 3);
  for (size_t i = 0; i < 3; ++i) {
    const auto& entry = inputs["data"][i];
    CHECK(entry["session_id"] == kIds[i]);
    REQUIRE(entry["payloads"].size() == 2);
    CHECK(entry["payloads"][0]["model"] == "m");
    CHECK(entry["payloads"][0]["messages"][0]["role"] == "user");
    // Each payload is its own turn's body: no history of the turns before it.
    CHECK(entry["payloads"][1]["messages"].size() == 1);
  }
  CHECK_FALSE(fs::exists(dir.path / "inputs.json.tmp"));
}

TEST_CASE("dataset core: a known id gets its conversation, an unknown one NotFound naming it") {
  TempDir dir("dataset_core_requests");
  DatasetCore core;
  core.configure(small_config(dir.path));

  proto::ConversationRequest request;
  request.set_conversation_id(kIds[2]);
  proto::ConversationResponse reply;
  core.respond(request, reply);
  CHECK_FALSE(reply.has_error());
  CHECK(reply.conversation().session_id() == kIds[2]);
  CHECK(reply.conversation().turns_size() == 2);
  CHECK(reply.conversation().SerializeAsString() == core.conversations()[2].SerializeAsString());

  request.set_conversation_id("no-such-conversation");
  proto::ConversationResponse unknown;
  core.respond(request, unknown);
  REQUIRE(unknown.has_error());
  CHECK(unknown.error().type() == "NotFound");
  CHECK(unknown.error().message() == "unknown conversation no-such-conversation");
  CHECK(unknown.conversation().session_id() == "no-such-conversation");
  CHECK(unknown.conversation().turns_size() == 0);

  proto::ConversationResponse malformed;
  DatasetCore::malformed(malformed);
  CHECK(malformed.error().type() == "ProtocolError");
  CHECK(malformed.error().message() == "malformed conversation request");
}
