#include "turn_fields.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "base64.h"
#include "dataset_error.h"
#include "jsonl_lines.h"

namespace aiperf::dataset {
namespace {

using nlohmann::json;

enum class Modality { text, image, audio, video };

struct ModalityFields {
  Modality modality;
  const char* singular;
  const char* plural;
  const char* default_name;
};

constexpr ModalityFields kModalities[] = {
    {Modality::text, "text", "texts", "text"},
    {Modality::image, "image", "images", "image_url"},
    {Modality::audio, "audio", "audios", "input_audio"},
    {Modality::video, "video", "videos", "video_url"},
};

std::string lower_extension(const std::string& path) {
  const size_t dot = path.rfind('.');
  if (dot == std::string::npos || path.find('/', dot) != std::string::npos) return {};
  std::string ext = path.substr(dot + 1);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

bool is_reference(const std::string& value, Modality m) {
  if (value.find("://") != std::string::npos || value.rfind("data:", 0) == 0) return true;
  // Audio already in AIPerf's "<format>,<base64>" form.
  return m == Modality::audio && (value.rfind("wav,", 0) == 0 || value.rfind("mp3,", 0) == 0);
}

// URLs and data URIs pass through; anything else must be a readable local file, embedded the
// way AIPerf sends it: data URIs for images and video, "<format>,<base64>" for audio.
std::string media_value(const std::string& value, Modality m, const std::string& field) {
  if (m == Modality::text || is_reference(value, m)) return value;
  std::ifstream in(value, std::ios::binary);
  if (!in) throw FieldError{field, "'" + value + "' is neither a URL, a data URI nor a readable file"};
  std::ostringstream bytes;
  bytes << in.rdbuf();
  std::string ext = lower_extension(value);
  if (m == Modality::audio) {
    if (ext != "wav" && ext != "mp3") throw FieldError{field, "audio file '" + value + "' must be .wav or .mp3"};
    return ext + "," + base64_encode(bytes.str());
  }
  if (ext == "jpg") ext = "jpeg";
  if (ext.empty()) throw FieldError{field, "cannot tell the format of '" + value + "' (no file extension)"};
  return std::string("data:") + (m == Modality::image ? "image/" : "video/") + ext + ";base64," +
         base64_encode(bytes.str());
}

const std::string& string_value(const json& v, const std::string& field) {
  if (!v.is_string()) throw FieldError{field, "must be a string, got " + std::string(v.type_name())};
  return v.get_ref<const std::string&>();
}

// "texts": ["a", "b"] is one batch named by default; [{"name", "contents": [...]}] names each.
void add_plural(const json& list, const ModalityFields& mf, const std::string& field,
                google::protobuf::RepeatedPtrField<proto::Text>& out) {
  if (!list.is_array()) throw FieldError{field, "must be a list"};
  proto::Text* unnamed = nullptr;
  for (size_t i = 0; i < list.size(); ++i) {
    const json& item = list[i];
    const std::string item_field = field + "[" + std::to_string(i) + "]";
    if (item.is_object()) {
      proto::Text* named = out.Add();
      auto name = item.find("name");
      named->set_name(name == item.end() || name->is_null() ? mf.default_name
                                                            : string_value(*name, item_field + ".name"));
      auto contents = item.find("contents");
      if (contents == item.end() || !contents->is_array())
        throw FieldError{item_field + ".contents", "must be a list of strings"};
      for (size_t k = 0; k < contents->size(); ++k) {
        const std::string cf = item_field + ".contents[" + std::to_string(k) + "]";
        named->add_contents(media_value(string_value((*contents)[k], cf), mf.modality, cf));
      }
    } else {
      if (!unnamed) {
        unnamed = out.Add();
        unnamed->set_name(mf.default_name);
      }
      unnamed->add_contents(media_value(string_value(item, item_field), mf.modality, item_field));
    }
  }
}

google::protobuf::RepeatedPtrField<proto::Text>& target(proto::Turn& turn, Modality m) {
  switch (m) {
    case Modality::text: return *turn.mutable_texts();
    case Modality::image: return *turn.mutable_images();
    case Modality::audio: return *turn.mutable_audios();
    case Modality::video: return *turn.mutable_videos();
  }
  return *turn.mutable_texts();
}

double non_negative_number(const json& v, const std::string& field) {
  if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0)
    throw FieldError{field, "must be a number >= 0, got " + v.dump()};
  return v.get<double>();
}

}  // namespace

bool has_turn_content(const json& object) {
  for (const ModalityFields& mf : kModalities) {
    if (object.contains(mf.singular) || object.contains(mf.plural)) return true;
  }
  return false;
}

void parse_turn_fields(const json& object, const TurnFieldOptions& options, proto::Turn& turn) {
  const std::string& p = options.field_prefix;
  if (!object.is_object()) throw FieldError{p.empty() ? "" : p.substr(0, p.size() - 1), "must be a JSON object"};

  size_t items = 0;
  for (const ModalityFields& mf : kModalities) {
    auto one = object.find(mf.singular);
    auto many = object.find(mf.plural);
    const bool has_one = one != object.end() && !one->is_null();
    const bool has_many = many != object.end() && !many->is_null();
    if (has_one && has_many)
      throw FieldError{p + mf.singular, std::string("'") + mf.singular + "' and '" + mf.plural +
                                            "' are mutually exclusive"};
    auto& out = target(turn, mf.modality);
    if (has_one) {
      proto::Text* t = out.Add();
      t->set_name(mf.default_name);
      const std::string field = p + mf.singular;
      t->add_contents(media_value(string_value(*one, field), mf.modality, field));
    } else if (has_many) {
      add_plural(*many, mf, p + mf.plural, out);
    }
    for (const proto::Text& t : out) items += t.contents_size();
  }
  if (items == 0) throw FieldError{p.empty() ? "" : p.substr(0, p.size() - 1),
                                   "needs at least one of text, texts, image, images, audio, audios, video, videos"};

  if (auto role = object.find("role"); role != object.end() && !role->is_null())
    turn.set_role(string_value(*role, p + "role"));

  auto timestamp = object.find("timestamp");
  auto delay = object.find("delay");
  const bool has_timestamp = timestamp != object.end() && !timestamp->is_null();
  const bool has_delay = delay != object.end() && !delay->is_null();
  if (!options.allow_timing && (has_timestamp || has_delay))
    throw FieldError{p + (has_timestamp ? "timestamp" : "delay"), "not allowed in this dataset type"};
  if (has_timestamp && has_delay) throw FieldError{p + "timestamp", "'timestamp' and 'delay' are mutually exclusive"};
  if (has_timestamp) turn.set_timestamp_ms(non_negative_number(*timestamp, p + "timestamp"));
  if (has_delay) turn.set_delay_ms(non_negative_number(*delay, p + "delay") * options.delay_ratio);

  // The turn's own max tokens; it overrides --osl (apply_output_lengths).
  if (auto out = object.find("output_length"); options.allow_output_length && out != object.end() && !out->is_null())
    turn.set_max_tokens(integer_field(*out, p + "output_length", 1));
}

}  // namespace aiperf::dataset
