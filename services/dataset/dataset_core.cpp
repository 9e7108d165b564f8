#include "dataset_core.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include <nlohmann/json.hpp>

#include "accuracy_dataset.h"
#include "chat_template_overhead.h"
#include "corpus.h"
#include "custom_dataset.h"
#include "endpoints/endpoint.h"
#include "log/log.h"
#include "prompt_generator.h"
#include "prompt_shaping.h"
#include "public_dataset_loader.h"
#include "sharegpt.h"
#include "synthetic_dataset.h"
#include "trace_prompts.h"
#include "util/output_paths.h"
#include "weka_prompts.h"
#include "weka_trace.h"

namespace aiperf::dataset {

std::vector<proto::Conversation> build_synthetic_dataset(const config::RunConfig& config) {
  auto tokenizer = tok::load_tokenizer(config.tokenizer.resolved_path, config.tokenizer.cache_dir);
  const PromptGenerator prompts = make_prompt_generator(config.input, *tokenizer, config.tokenizer.resolved_path);
  if (is_rankings_endpoint(config.endpoint.type)) return synthesize_rankings(config, prompts);
  ChatTemplateOverhead overhead;
  if (config.tokenizer.apply_chat_template) {
    try {
      if (auto chat_template = endpoints::load_chat_template(config.tokenizer.resolved_path))
        overhead = estimate_chat_template_overhead(*chat_template, *tokenizer,
                                                   server_special_tokens(config.tokenizer.resolved_path));
    } catch (const endpoints::ChatTemplateError&) {
      // Unsupported template: no compensation (the record processor counts bare text then too).
    }
  }
  ShapingInputs shaping;
  if (config.input.prompt_shaping.range_ratio_isl)
    shaping.server_special_tokens = server_special_tokens(config.tokenizer.resolved_path);
  shaping.cache_bust = cache_bust_budget(config.input, *tokenizer);
  return synthesize_conversations(config, prompts, overhead, shaping);
}

namespace {

std::mt19937_64 make_rng(const config::RunConfig& config) {
  return std::mt19937_64(config.input.random_seed ? *config.input.random_seed : std::random_device{}());
}

// A model per turn of a file dataset, as for synthetic data: round robin over --model by the
// global turn counter, or uniformly random.
void assign_models(std::vector<proto::Conversation>& conversations, const config::RunConfig& config,
                   std::mt19937_64& rng) {
  const auto& models = config.endpoint.model_names;
  if (models.size() < 2) return;
  size_t counter = 0;
  for (auto& conv : conversations) {
    for (auto& turn : *conv.mutable_turns()) {
      const size_t m = config.endpoint.model_selection_strategy == config::ModelSelectionStrategy::kRandom
                           ? std::uniform_int_distribution<size_t>(0, models.size() - 1)(rng)
                           : counter++ % models.size();
      turn.set_model(models[m]);
    }
  }
}

// Max tokens of file and ShareGPT turns from their own values or --osl, on a stream of its own
// so the prompts and session ids drawn from the main stream stay as they were.
void set_output_lengths(std::vector<proto::Conversation>& conversations, const config::RunConfig& config) {
  std::mt19937_64 rng = derive_rng(config.input.random_seed, "dataset.turn.max_tokens");
  if (const size_t clamped = apply_output_lengths(conversations, config.input, rng)) {
    AIPERF_LOG(kWarning) << "dataset: " << clamped << " turn(s) had max tokens <= 0; clamped to 1";
  }
}

}  // namespace

Dataset build_dataset(const config::RunConfig& config) {
  Dataset out;
  const auto& in = config.input;
  if (config.accuracy.enabled()) {  // the benchmark's problems, in order (AIPerf: sequential only)
    std::mt19937_64 rng = make_rng(config);
    out.conversations = accuracy_conversations(config);
    assign_models(out.conversations, config, rng);
    out.sampling_strategy = "sequential";
    return out;
  }
  if (!in.public_dataset.empty() && !is_weka_public_dataset(in)) {
    std::mt19937_64 rng = make_rng(config);
    if (in.public_dataset == "sharegpt") {
      auto tokenizer = tok::load_tokenizer(config.tokenizer.resolved_path, config.tokenizer.cache_dir);
      out.conversations = sharegpt_conversations(read_sharegpt(in.public_dataset_file), *tokenizer,
                                                 in.osl_mean.has_value(), in.public_dataset_file, rng);
    } else {
      out.conversations = public_dataset_conversations(in, rng);
    }
    set_output_lengths(out.conversations, config);
    assign_models(out.conversations, config, rng);
    out.sampling_strategy = "sequential";
  } else if (in.input_file.empty() && in.public_dataset.empty()) {
    out.conversations = build_synthetic_dataset(config);
    out.sampling_strategy = "shuffle";
  } else {  // a file, or a public Weka trace corpus (the same trace pipeline)
    std::mt19937_64 rng = make_rng(config);
    CustomDataset custom = in.public_dataset.empty()
                               ? load_custom_dataset(in, config.loadgen.conversation_num.value_or(100), rng)
                               : load_public_weka(in);
    if (!custom.pending.empty()) {
      auto tokenizer = tok::load_tokenizer(config.tokenizer.resolved_path, config.tokenizer.cache_dir);
      const PromptGenerator prompts =
          make_prompt_generator(in, *tokenizer, config.tokenizer.resolved_path);  // --prompt-corpus
      synthesize_trace_prompts(custom, prompts, trace_block_size(in), rng);
    }
    if (!custom.weka_pending.empty()) {
      auto tokenizer = tok::load_tokenizer(config.tokenizer.resolved_path, config.tokenizer.cache_dir);
      // Coding-agent traces default to the coding corpus (AIPerf registers it for weka).
      config::InputConfig weka_in = in;
      if (weka_in.prompt_shaping.prompt_corpus == config::PromptCorpus::kSonnet)
        weka_in.prompt_shaping.prompt_corpus = config::PromptCorpus::kCoding;
      const PromptGenerator prompts = make_prompt_generator(weka_in, *tokenizer, config.tokenizer.resolved_path);
      write_weka_messages(custom, prompts, in.random_seed);
    }
    set_output_lengths(custom.conversations, config);
    if (!custom.trace_models.empty())
      map_weka_models(custom, config.endpoint.model_names);  // the trace's own models, mapped
    else assign_models(custom.conversations, config, rng);
    out.conversations = std::move(custom.conversations);
    out.sampling_strategy = custom.default_sampling;
    out.has_timestamps = custom.has_timestamps;
  }
  if (!in.dataset_sampling_strategy.empty()) out.sampling_strategy = in.dataset_sampling_strategy;
  apply_system_prompt(out.conversations, in);  // --system-prompt, whatever the dataset
  return out;
}

void write_inputs_json(const std::string& path, const config::RunConfig& config,
                       const std::vector<proto::Conversation>& conversations) {
  const endpoints::EndpointInfo* info = endpoints::find_endpoint(config.endpoint.type);
  endpoints::PayloadOptions opts;
  opts.streaming = config.endpoint.streaming;
  opts.use_legacy_max_tokens = config.endpoint.use_legacy_max_tokens;
  opts.use_server_token_count = config.endpoint.use_server_token_count;
  opts.per_chunk_usage = config.endpoint.per_chunk_usage;  // the bodies as the worker sends them
  opts.genai_perf = config.endpoint.genai_perf_payloads;
  opts.kserve_vllm = config.endpoint.kserve_vllm;
  opts.chat_content_parts = config.endpoint.chat_content_parts;
  opts.extra_inputs = &config.input.extra_inputs;

  nlohmann::ordered_json data = nlohmann::ordered_json::array();
  for (const auto& conv : conversations) {
    nlohmann::ordered_json entry;
    entry["session_id"] = conv.session_id();
    auto& payloads = entry["payloads"] = nlohmann::ordered_json::array();
    for (const auto& turn : conv.turns()) {
      opts.model = turn.model().empty() ? config.endpoint.model_names.at(0) : turn.model();
      payloads.push_back(nlohmann::ordered_json::parse(
          endpoints::build_payload(*info, opts, {&turn}, conv.system_message(), conv.user_context_message())));
    }
    // The genai-perf front end writes each session row's delay as GenAI-Perf does (it removes
    // this file after reading it; AIPerf's inputs.json has no such field).
    if (config.endpoint.genai_perf_payloads && conv.turns_size() > 1) {
      auto& delays = entry["genai_perf_turn_delays_ms"] = nlohmann::ordered_json::array();
      for (const auto& turn : conv.turns()) delays.push_back(static_cast<int64_t>(std::llround(turn.delay_ms())));
    }
    data.push_back(std::move(entry));
  }
  nlohmann::ordered_json root;
  root["data"] = std::move(data);
  util::write_file_atomically(path, root.dump(2) + "\n");
}

proto::DatasetReady DatasetCore::configure(const config::RunConfig& config) {
  Dataset dataset = build_dataset(config);
  conversations_ = std::move(dataset.conversations);
  index_.clear();
  for (size_t i = 0; i < conversations_.size(); ++i) index_[conversations_[i].session_id()] = i;
  write_inputs_json(util::artifact_file(config, "inputs.json"), config, conversations_);
  AIPERF_LOG(kInfo) << "dataset: " << conversations_.size() << " conversations ready";

  proto::DatasetReady ready;
  bool any_timing = false;
  for (const auto& conv : conversations_) {
    ready.add_conversation_ids(conv.session_id());
    ready.add_turn_counts(static_cast<uint32_t>(conv.turns_size()));
    for (const auto& turn : conv.turns()) any_timing |= turn.has_timestamp_ms() || turn.delay_ms() > 0;
  }
  if (any_timing) {  // timings are sent only when some turn has a schedule or a think time
    for (const auto& conv : conversations_) {
      proto::ConversationTiming* timing = ready.add_timings();
      for (const auto& turn : conv.turns()) {
        timing->add_timestamp_ms(turn.has_timestamp_ms() ? turn.timestamp_ms()
                                                         : std::numeric_limits<double>::quiet_NaN());
        timing->add_delay_ms(turn.delay_ms());
      }
    }
  }
  // dag_jsonl branches, sent only when some conversation has any.
  if (std::any_of(conversations_.begin(), conversations_.end(),
                  [](const proto::Conversation& c) { return c.branch_child() || c.spawns_size() > 0; })) {
    for (const auto& conv : conversations_) {
      proto::ConversationBranches* branches = ready.add_branches();
      branches->set_branch_child(conv.branch_child());
      *branches->mutable_spawns() = conv.spawns();
    }
  }
  ready.set_sampling_strategy(dataset.sampling_strategy);
  ready.set_has_timing_data(dataset.has_timestamps);
  return ready;
}

void DatasetCore::respond(const proto::ConversationRequest& request, proto::ConversationResponse& reply) const {
  if (auto it = index_.find(request.conversation_id()); it == index_.end()) {
    reply.mutable_conversation()->set_session_id(request.conversation_id());
    reply.mutable_error()->set_type("NotFound");
    reply.mutable_error()->set_message("unknown conversation " + request.conversation_id());
  } else {
    *reply.mutable_conversation() = conversations_[it->second];
  }
}

void DatasetCore::malformed(proto::ConversationResponse& reply) {
  reply.mutable_error()->set_type("ProtocolError");
  reply.mutable_error()->set_message("malformed conversation request");
}

}  // namespace aiperf::dataset
