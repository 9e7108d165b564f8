#include "synthetic_dataset.h"

#include <algorithm>
#include <thread>

#include "image_source.h"
#include "range_ratio.h"
#include "seq_dist.h"
#include "synthetic_media.h"
#include "synthetic_video.h"
#include "util/uuid.h"

namespace aiperf::dataset {

std::mt19937_64 derive_rng(const std::optional<uint64_t>& seed, std::string_view purpose) {
  if (!seed) return std::mt19937_64(std::random_device{}());
  uint64_t h = 1469598103934665603ull;  // FNV-1a: stable across builds, unlike std::hash
  for (char c : purpose) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  std::seed_seq seq{static_cast<uint32_t>(*seed), static_cast<uint32_t>(*seed >> 32), static_cast<uint32_t>(h),
                    static_cast<uint32_t>(h >> 32)};
  return std::mt19937_64(seq);
}

bool is_rankings_endpoint(std::string_view type) {
  return type == "nim_rankings" || type == "cohere_rankings" || type == "hf_tei_rankings";
}

namespace {

// Round robin over --model by the global turn counter, or uniformly random.
void select_model(const config::RunConfig& config, size_t turn_counter, std::mt19937_64& rng, proto::Turn& turn) {
  const auto& models = config.endpoint.model_names;
  if (models.size() < 2) return;
  const size_t m = config.endpoint.model_selection_strategy == config::ModelSelectionStrategy::kRandom
                       ? std::uniform_int_distribution<size_t>(0, models.size() - 1)(rng)
                       : turn_counter % models.size();
  turn.set_model(models[m]);
}

}  // namespace

namespace {

// The clips of every turn's video batch, in dataset order, encoded together (several ffmpeg runs
// at once when the clips differ).
void fill_videos(std::vector<proto::Conversation>& conversations, VideoSource& source) {
  size_t count = 0;
  for (const proto::Conversation& conv : conversations)
    for (const proto::Turn& turn : conv.turns())
      for (const proto::Text& batch : turn.videos()) count += static_cast<size_t>(batch.contents_size());
  std::vector<std::string> clips = source.take(count, std::max(1u, std::min(4u, std::thread::hardware_concurrency())));
  size_t next = 0;
  for (proto::Conversation& conv : conversations)
    for (proto::Turn& turn : *conv.mutable_turns())
      for (proto::Text& batch : *turn.mutable_videos())
        for (std::string& content : *batch.mutable_contents()) content = std::move(clips[next++]);
}

}  // namespace

std::vector<proto::Conversation> synthesize_conversations(const config::RunConfig& config,
                                                          const PromptGenerator& prompts,
                                                          const ChatTemplateOverhead& overhead,
                                                          const ShapingInputs& shaping) {
  const auto& in = config.input;
  const auto& ps = in.prompt_shaping;
  const auto& seed = in.random_seed;
  // The main stream keeps the order it always had (ids, turn counts, prompts, max tokens,
  // delays, models), so datasets without the newer options are unchanged.
  std::mt19937_64 rng = seed ? std::mt19937_64(*seed) : std::mt19937_64(std::random_device{}());
  std::mt19937_64 prefix_rng = derive_rng(seed, "dataset.prompt.prefix");
  std::mt19937_64 context_rng = derive_rng(seed, "dataset.prompt.context");
  std::mt19937_64 seq_rng = derive_rng(seed, "dataset.sequence.distribution");
  std::mt19937_64 image_rng = derive_rng(seed, "dataset.image");
  std::mt19937_64 audio_rng = derive_rng(seed, "dataset.audio");

  std::optional<SeqDist> seq_dist;
  if (!in.seq_dist.empty()) seq_dist = SeqDist::parse(in.seq_dist);
  // --prompt-corpus random draws its offsets (and, without a range ratio, its top-up ids) from
  // AIPerf's "dataset.prompt.corpus" NumPy stream, so a seeded run cuts the reference's prompts.
  // The streams below live in this call: the guard unhooks them from `prompts` when it returns.
  std::optional<NumpyPcg64> corpus_stream;
  struct Unhook {
    const PromptGenerator& p;
    ~Unhook() {
      p.use_offsets({}, nullptr);
      p.use_offset_stream(nullptr);
    }
  } unhook{prompts};
  if (prompts.is_random_vocab() && seed) {
    corpus_stream.emplace(derive_aiperf_seed(*seed, "dataset.prompt.corpus"));
    prompts.use_offsets({}, &*corpus_stream);
    prompts.use_offset_stream(&*corpus_stream);
  }
  // --random-range-ratio (the CLI requires --osl with it and forbids --seq-dist).
  std::optional<RangeRatioSampler> ratio;
  if (ps.range_ratio_isl && in.osl_mean) {
    const RangeWindow window =
        range_window(ps.random_corpus_style, static_cast<int64_t>(in.isl_mean), static_cast<int64_t>(*in.osl_mean),
                     *ps.range_ratio_isl, ps.range_ratio_osl.value_or(*ps.range_ratio_isl),
                     shaping.server_special_tokens);
    ratio.emplace(ps.random_corpus_style, window, shaping.server_special_tokens,
                  seed ? *seed : std::random_device{}(), in.num_dataset_entries, prompts.is_random_vocab());
    if (prompts.is_random_vocab())
      prompts.use_offsets(ratio->stream().integers(0, static_cast<int64_t>(prompts.tokenizer().vocab_size()),
                                                   in.num_dataset_entries),
                          &ratio->stream());
  }
  const bool include_text = in.isl_mean > 0 || seq_dist.has_value() || ratio.has_value();
  const bool include_image = in.image_width_mean > 0 && in.image_height_mean > 0;
  std::optional<ImageSource> image_source;
  if (include_image) image_source.emplace(ps);
  const bool include_audio = in.audio_length_mean > 0;
  std::optional<VideoSource> video_source;  // clips encoded by ffmpeg, once each (synthetic_video.h)
  if (in.video.enabled()) video_source.emplace(in.video, seed);

  std::vector<std::string> prefix_pool;
  if (in.prefix_pool_size > 0 && in.prefix_length > 0)
    for (uint32_t i = 0; i < in.prefix_pool_size; ++i) prefix_pool.push_back(prompts.generate(in.prefix_length, prefix_rng));
  // A system-* cache-bust marker on the shared system prompt comes off its length (floor 1).
  const uint32_t system_length =
      in.shared_system_prompt_length > shaping.cache_bust.shared_system_tokens
          ? in.shared_system_prompt_length - shaping.cache_bust.shared_system_tokens
          : std::min<uint32_t>(1, in.shared_system_prompt_length);
  const std::string system_prompt = system_length > 0 ? prompts.generate(system_length, context_rng) : "";

  std::vector<proto::Conversation> out;
  out.reserve(in.num_dataset_entries);
  size_t turn_counter = 0;
  for (uint32_t c = 0; c < in.num_dataset_entries; ++c) {
    proto::Conversation conv;
    conv.set_session_id(util::uuid4(rng));
    if (!system_prompt.empty()) conv.set_system_message(system_prompt);
    if (in.user_context_prompt_length > 0)
      conv.set_user_context_message(prompts.generate(in.user_context_prompt_length, context_rng));
    const uint32_t turns = sample_positive_normal_int(in.turn_mean, in.turn_stddev, rng);
    for (uint32_t t = 0; t < turns; ++t, ++turn_counter) {
      proto::Turn* turn = conv.add_turns();
      select_model(config, turn_counter, rng, *turn);
      // With --seq-dist one (ISL, OSL) pair per turn decides both the prompt length (every
      // batch item, no further spread) and max tokens, so the two agree.
      std::optional<std::pair<uint32_t, uint32_t>> pair;
      if (seq_dist) pair = seq_dist->sample(seq_rng);
      else if (ratio) pair = ratio->next();
      if (include_text) {
        proto::Text* text = turn->add_texts();
        text->set_name("text");
        for (uint32_t b = 0; b < std::max<uint32_t>(1, in.batch_size); ++b) {
          // --apply-chat-template: the template's wrapping is taken off the budget (AIPerf
          // shifts the mean, or the drawn --seq-dist length, floored at 1).
          // A first-turn --cache-bust marker comes off the first turn too.
          const uint32_t adjust =
              t == 0 ? overhead.first_turn() + shaping.cache_bust.first_turn_tokens : overhead.later_turns();
          const uint32_t isl = pair ? std::max<uint32_t>(1, pair->first > adjust ? pair->first - adjust : 0)
                                    : sample_positive_normal_int(adjust > 0 ? std::max(1.0, in.isl_mean - adjust)
                                                                            : in.isl_mean,
                                                                 in.isl_stddev, rng);
          std::string content = prompts.generate(isl, rng);
          if (t == 0 && !prefix_pool.empty()) {
            const size_t p = std::uniform_int_distribution<size_t>(0, prefix_pool.size() - 1)(prefix_rng);
            content = prefix_pool[p] + " " + content;
          }
          text->add_contents(std::move(content));
        }
      }
      if (include_image) {
        proto::Text* images = turn->add_images();
        images->set_name("image_url");
        for (uint32_t b = 0; b < in.image_batch_size; ++b) images->add_contents(image_data_url(in, *image_source, image_rng));
      }
      if (include_audio) {
        proto::Text* audios = turn->add_audios();
        audios->set_name("input_audio");
        double seconds = 0;
        for (uint32_t b = 0; b < in.audio_batch_size; ++b)
          audios->add_contents(synthesize_audio(in, audio_rng, b == 0 ? &seconds : nullptr));
        if (in.audio_batch_size > 0) turn->set_audio_duration_seconds(seconds);  // the clip ASR sends
      }
      if (video_source) {
        proto::Text* videos = turn->add_videos();
        videos->set_name("video_url");
        if (in.video.encodes())  // AIPerf leaves a clip without frames out
          for (uint32_t b = 0; b < in.video.batch_size; ++b) videos->add_contents();  // filled in below
      }
      if (pair) {
        turn->set_max_tokens(pair->second);
      } else if (in.osl_mean) {
        turn->set_max_tokens(sample_positive_normal_int(*in.osl_mean, in.osl_stddev, rng));
      }
      if (t > 0 && in.turn_delay_mean > 0) {
        turn->set_delay_ms(sample_positive_normal_int(in.turn_delay_mean, in.turn_delay_stddev, rng) *
                           in.turn_delay_ratio);
      }
    }
    out.push_back(std::move(conv));
  }
  if (video_source) fill_videos(out, *video_source);
  return out;
}

std::vector<proto::Conversation> synthesize_rankings(const config::RunConfig& config,
                                                     const PromptGenerator& prompts) {
  const auto& in = config.input;
  std::mt19937_64 rng = in.random_seed ? std::mt19937_64(*in.random_seed) : std::mt19937_64(std::random_device{}());
  std::vector<proto::Conversation> out;
  out.reserve(in.num_dataset_entries);
  for (uint32_t c = 0; c < in.num_dataset_entries; ++c) {
    proto::Conversation conv;
    conv.set_session_id(util::uuid4(rng));
    proto::Turn* turn = conv.add_turns();
    select_model(config, c, rng, *turn);
    const uint32_t passages = sample_positive_normal_int(in.rankings_passages_mean, in.rankings_passages_stddev, rng);
    proto::Text* query = turn->add_texts();
    query->set_name("query");
    query->add_contents(prompts.generate(
        sample_positive_normal_int(in.rankings_query_tokens_mean, in.rankings_query_tokens_stddev, rng), rng));
    proto::Text* list = turn->add_texts();
    list->set_name("passages");
    for (uint32_t p = 0; p < passages; ++p)
      list->add_contents(prompts.generate(
          sample_positive_normal_int(in.rankings_passage_tokens_mean, in.rankings_passage_tokens_stddev, rng), rng));
    out.push_back(std::move(conv));
  }
  return out;
}

}  // namespace aiperf::dataset
