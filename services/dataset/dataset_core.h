// DatasetCore: the dataset service's rules, without its socket. configure() builds the run's
// dataset (--public-dataset, --input-file of any custom type, or synthetic prompts), writes
// inputs.json and returns what DatasetReady announces; respond() answers a worker's request
// for one conversation by id. Single-threaded; the service owns the ROUTER socket around it.
#pragma once
#include <string>
#include <unordered_map>
#include <vector>

#include "config/run_config.h"
#include "control.pb.h"
#include "dataset.pb.h"

namespace aiperf::dataset {

class DatasetCore {
 public:
  // Replaces any previous dataset. Writes inputs.json to util::artifact_file(config,
  // "inputs.json"). The result lists the conversation ids and turn counts in dataset order;
  // per-conversation timings only when some turn has a timestamp or a delay. Throws what the
  // loaders throw (DatasetFileError and the like) and std::runtime_error if the file cannot
  // be written.
  proto::DatasetReady configure(const config::RunConfig& config);
  // A known id gets its conversation; an unknown one a NotFound error naming it, with the
  // conversation's session_id set to the id asked for.
  void respond(const proto::ConversationRequest& request, proto::ConversationResponse& reply) const;
  // The reply to a request that could not be parsed: a ProtocolError.
  static void malformed(proto::ConversationResponse& reply);

  const std::vector<proto::Conversation>& conversations() const { return conversations_; }

 private:
  std::vector<proto::Conversation> conversations_;
  std::unordered_map<std::string, size_t> index_;  // session_id -> position in conversations_
};

// Builds the synthetic dataset of `config` (exposed for tests): rankings query/passages for the
// rankings endpoints, else text/image/audio turns.
std::vector<proto::Conversation> build_synthetic_dataset(const config::RunConfig& config);

struct Dataset {
  std::vector<proto::Conversation> conversations;
  std::string sampling_strategy;  // --dataset-sampling-strategy, else the loader's default
  bool has_timestamps = false;
};

// The run's dataset: --public-dataset, --input-file (any custom type) or synthetic prompts.
Dataset build_dataset(const config::RunConfig& config);

// Writes inputs.json (AIPerf schema: {"data":[{"session_id","payloads":[...]}]}) atomically.
void write_inputs_json(const std::string& path, const config::RunConfig& config,
                       const std::vector<proto::Conversation>& conversations);

}  // namespace aiperf::dataset
