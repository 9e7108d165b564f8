// Dataset service: loads the tokenizer, synthesizes conversations, writes inputs.json,
// announces the conversation ids (DatasetReady) and serves conversations to workers on a
// ROUTER socket.
#pragma once
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <zmq.hpp>

#include "dataset.pb.h"
#include "service/service.h"

namespace aiperf::dataset {

class DatasetService final : public service::Service {
 public:
  DatasetService(service::Identity identity, bus::Endpoints endpoints);

 private:
  void on_configure(const config::RunConfig& config) override;
  void on_requests();

  zmq::socket_t router_;
  std::vector<proto::Conversation> conversations_;
  std::unordered_map<std::string, size_t> index_;
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
