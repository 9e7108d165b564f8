#include "hf_text_datasets.h"

#include <cstdio>
#include <filesystem>

#include "dataset_error.h"
#include "tokenizer/hub_http.h"
#include "util/output_paths.h"
#include "util/py_repr.h"
#include "util/uuid.h"

namespace aiperf::dataset {

using nlohmann::json;

namespace {

// Python's repr of a value inside a list or dict (strings quoted, the rest as str()).
std::string py_repr_of(const json& v) { return v.is_string() ? util::py_repr(v.get<std::string>()) : py_str(v); }

bool blank(const std::string& s) { return s.find_first_not_of(" \t\n\r\f\v") == std::string::npos; }

// Python's str.strip() on ASCII whitespace (the datasets' text is what matters here).
std::string py_strip(const std::string& s) {
  const char* ws = " \t\n\r\f\v";
  const size_t b = s.find_first_not_of(ws);
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(ws) - b + 1);
}

// Python's `not t`: None, "", 0, False, [] and {}.
bool falsy(const json& t) {
  return t.is_null() || (t.is_string() && t.get_ref<const std::string&>().empty()) ||
         (t.is_boolean() && !t.get<bool>()) || (t.is_number() && t.get<double>() == 0) ||
         ((t.is_array() || t.is_object()) && t.empty());
}

// `str(t).strip() if t else ""`.
std::string truthy_stripped(const json& t) { return falsy(t) ? "" : py_strip(py_str(t)); }

proto::Conversation single_text_conversation(std::string id, const std::vector<std::string>& turns) {
  proto::Conversation conv;
  conv.set_session_id(std::move(id));
  for (const auto& t : turns) {
    proto::Text* text = conv.add_turns()->add_texts();
    text->set_name("text");
    text->add_contents(t);
  }
  return conv;
}

}  // namespace

std::string spec_bench_cache_path() {
  return (std::filesystem::current_path() / ".cache/aiperf/datasets/spec_bench.jsonl").string();
}

void download_spec_bench(const std::string& path, int timeout_seconds) {
  tok::HubResponse r;
  try {
    r = tok::hub_http_get(kSpecBenchUrl, "", timeout_seconds);
  } catch (const std::exception& e) {
    throw DatasetFileError(std::string("cannot download ") + kSpecBenchUrl + ": " + e.what() + "; put the file at " +
                           path);
  }
  if (r.status != 200)
    throw DatasetFileError(std::string("cannot download ") + kSpecBenchUrl + ": HTTP " + std::to_string(r.status) +
                           "; put the file at " + path);
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  util::write_file_atomically(path, r.body);
}

std::string effective_subset(const PublicDatasetInfo& info, const std::optional<std::string>& hf_subset) {
  return hf_subset ? *hf_subset : std::string(info.subset);
}

std::vector<json> load_public_rows(const PublicDatasetInfo& info, const std::string& subset,
                                   const accuracy::DatasetLocation& where, const std::string& file) {
  try {
    if (info.repo.empty()) return accuracy::read_rows_file(file);
    return accuracy::load_rows(std::string(info.repo), subset, std::string(info.split), where);
  } catch (const accuracy::DatasetError& e) {
    throw DatasetFileError(e.what());
  }
}

std::string py_str(const json& v) {
  switch (v.type()) {
    case json::value_t::string:
      return v.get<std::string>();
    case json::value_t::null:
      return "None";
    case json::value_t::boolean:
      return v.get<bool>() ? "True" : "False";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
      return v.dump();
    case json::value_t::number_float: {
      const double d = v.get<double>();
      std::string s = v.dump();  // shortest round-trip digits, as Python's repr
      if (d == static_cast<double>(static_cast<long long>(d)) && s.find_first_of(".e") == std::string::npos) s += ".0";
      return s;
    }
    case json::value_t::array: {
      std::string out = "[";
      for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + py_repr_of(v[i]);
      return out + "]";
    }
    case json::value_t::object: {
      std::string out = "{";
      bool first = true;
      for (const auto& [k, x] : v.items()) {
        out += (first ? "" : ", ") + util::py_repr(k) + ": " + py_repr_of(x);
        first = false;
      }
      return out + "}";
    }
    default:
      return v.dump();
  }
}

std::string py_format(const std::string& tmpl, const json& row) {
  std::string out;
  out.reserve(tmpl.size() * 2);
  for (size_t i = 0; i < tmpl.size(); ++i) {
    const char c = tmpl[i];
    if (c == '}') {
      if (i + 1 < tmpl.size() && tmpl[i + 1] == '}') ++i;
      else throw FieldError{"", "prompt template: single '}' encountered in format string"};
      out += '}';
      continue;
    }
    if (c != '{') {
      out += c;
      continue;
    }
    if (i + 1 < tmpl.size() && tmpl[i + 1] == '{') {
      out += '{';
      ++i;
      continue;
    }
    const size_t close = tmpl.find('}', i + 1);
    if (close == std::string::npos) throw FieldError{"", "prompt template: single '{' encountered in format string"};
    const std::string name = tmpl.substr(i + 1, close - i - 1);
    if (name.empty() || name.find_first_of(".[!:") != std::string::npos)
      throw FieldError{"", "prompt template field {" + name + "} is not a plain column name"};
    auto it = row.find(name);
    if (it == row.end()) throw FieldError{name, "missing (the prompt template uses it)"};
    out += py_str(*it);
    i = close;
  }
  return out;
}

std::vector<proto::Conversation> text_public_conversations(const PublicDatasetInfo& info, const std::vector<json>& rows,
                                                           const std::string& source,
                                                           std::optional<uint64_t> random_seed, std::mt19937_64& rng) {
  size_t counter = 0;
  auto next_id = [&] {
    if (!random_seed) return util::uuid4(rng);
    char buf[32];
    std::snprintf(buf, sizeof buf, "session_%06zu", counter++);
    return std::string(buf);
  };
  std::vector<proto::Conversation> out;
  const std::string column = info.family == PublicFamily::kMtBench     ? "prompt"
                             : info.family == PublicFamily::kSpecBench ? "turns"
                                                                       : std::string(info.prompt_column);
  for (size_t r = 0; r < rows.size(); ++r) {
    const json& row = rows[r];
    if (!row.is_object()) throw DatasetFileError(source + ": row " + std::to_string(r) + " is not an object");
    // AIPerf checks the column on the first row only (Spec-Bench: no check, rows lacking it are skipped).
    if (r == 0 && info.family != PublicFamily::kSpecBench && info.prompt_template.empty() && !row.contains(column)) {
      std::string columns;
      for (const auto& [k, v] : row.items()) columns += (columns.empty() ? "" : ", ") + util::py_repr(k);
      throw DatasetFileError(source + ": column '" + column + "' not found (available columns: [" + columns + "])");
    }
    if (info.family == PublicFamily::kInstruction) {
      std::string prompt;
      if (!info.prompt_template.empty()) {
        try {
          prompt = py_format(std::string(info.prompt_template), row);
        } catch (const FieldError& e) {
          throw DatasetFileError(source + ": row " + std::to_string(r) +
                                 (e.field.empty() ? ": " : ": field '" + e.field + "': ") + e.message);
        }
      } else {
        auto it = row.find(column);
        // `if not prompt`: a missing or falsy value is skipped, like a blank one.
        if (it == row.end() || falsy(*it)) continue;
        prompt = py_str(*it);
      }
      if (blank(prompt)) continue;
      out.push_back(single_text_conversation(next_id(), {prompt}));
      continue;
    }
    auto it = row.find(column);
    if (it == row.end() || !it->is_array()) continue;
    std::vector<std::string> turns;
    if (info.family == PublicFamily::kSpecBench) {
      if (it->empty()) continue;
      std::string first = truthy_stripped((*it)[0]);
      if (first.empty()) continue;
      turns.push_back(std::move(first));
    } else {
      for (const json& t : *it)
        if (std::string text = truthy_stripped(t); !text.empty()) turns.push_back(std::move(text));
      if (turns.empty()) continue;
    }
    out.push_back(single_text_conversation(next_id(), turns));
  }
  if (out.empty())
    throw DatasetFileError(source + ": no row has a prompt in column '" +
                           (info.prompt_template.empty() ? column : std::string("<template>")) + "' (" +
                           std::to_string(rows.size()) + " rows read)");
  return out;
}

}  // namespace aiperf::dataset
