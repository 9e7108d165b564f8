#include "accuracy/hf_dataset.h"

#include "accuracy/csv_rows.h"

#include <fnmatch.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <optional>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <yaml-cpp/yaml.h>

#ifdef AIPERF_ACCURACY_PARQUET
#include "parquet/parquet_reader.h"
#endif

namespace aiperf::accuracy {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string trim_slash(std::string s) {
  while (!s.empty() && s.back() == '/') s.pop_back();
  return s;
}

std::string cache_dir_of(const std::string& repo, const std::string& hub_cache) {
  std::string name = "datasets--" + repo;
  for (size_t i = 0; (i = name.find('/', i)) != std::string::npos;) name.replace(i, 1, "--");
  return (fs::path(hub_cache) / name).string();
}

std::string describe(const std::string& repo, const std::string& config, const std::string& split) {
  std::string s = "dataset " + repo;
  if (!config.empty()) s += " (config " + config + (split.empty() ? "" : ", split " + split) + ")";
  else if (!split.empty()) s += " (split " + split + ")";
  return s;
}

// Every regular file under `root` (symlinks to blobs followed), as '/'-separated relative paths.
std::vector<std::string> all_files(const fs::path& root) {
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root, fs::directory_options::follow_directory_symlink, ec), end;
       !ec && it != end; it.increment(ec)) {
    std::error_code fec;
    if (!it->is_regular_file(fec)) continue;
    const std::string rel = fs::relative(it->path(), root, fec).generic_string();
    if (rel.empty() || rel[0] == '.') continue;  // .cache, .gitattributes
    out.push_back(rel);
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool is_data_file(const std::string& rel) {
  for (const char* ext : {".parquet", ".jsonl", ".json", ".csv", ".arrow"})
    if (rel.size() > std::strlen(ext) && rel.compare(rel.size() - std::strlen(ext), std::string::npos, ext) == 0)
      return true;
  return false;
}

// fnmatch with '*' not crossing '/', and "**" (a whole component) matching any depth.
bool glob_match(const std::string& pattern, const std::string& rel) {
  if (pattern.find("**") == std::string::npos) return fnmatch(pattern.c_str(), rel.c_str(), FNM_PATHNAME) == 0;
  return fnmatch(pattern.c_str(), rel.c_str(), 0) == 0;
}

// The README card's YAML front matter, or a null node.
YAML::Node card_of(const fs::path& root) {
  const fs::path readme = root / "README.md";
  if (!fs::exists(readme)) return {};
  const std::string text = read_text(readme);
  if (text.rfind("---", 0) != 0) return {};
  const size_t end = text.find("\n---", 3);
  if (end == std::string::npos) return {};
  try {
    return YAML::Load(text.substr(3, end - 3));
  } catch (const YAML::Exception&) {
    return {};
  }
}

// The patterns of `split` in one config's data_files (a string, a list, or split entries).
std::optional<std::vector<std::string>> split_patterns(const YAML::Node& data_files, const std::string& split) {
  auto patterns_of = [](const YAML::Node& n) {
    std::vector<std::string> out;
    if (n.IsScalar()) out.push_back(n.as<std::string>());
    else if (n.IsSequence())
      for (const auto& p : n) out.push_back(p.as<std::string>());
    return out;
  };
  if (!data_files) return std::nullopt;
  if (data_files.IsScalar()) {
    if (split == "train") return patterns_of(data_files);
    return std::nullopt;
  }
  if (data_files.IsMap()) {
    if (data_files[split]) return patterns_of(data_files[split]);
    return std::nullopt;
  }
  if (data_files.IsSequence()) {
    std::vector<std::string> plain;
    for (const auto& e : data_files) {
      if (e.IsMap() && e["split"]) {
        if (e["split"].as<std::string>() == split) return patterns_of(e["path"]);
      } else if (e.IsScalar()) {
        plain.push_back(e.as<std::string>());
      }
    }
    if (!plain.empty() && split == "train") return plain;
  }
  return std::nullopt;
}

// The card's entry for `config` ("" = the default one); null when the card lists no configs.
std::optional<YAML::Node> card_config(const YAML::Node& card, const std::string& config, bool& listed) {
  listed = false;
  if (!card || !card.IsMap() || !card["configs"] || !card["configs"].IsSequence()) return std::nullopt;
  listed = true;
  const YAML::Node configs = card["configs"];
  if (config.empty()) {
    for (const auto& c : configs)
      if (c["default"] && c["default"].as<bool>(false)) return c;
    for (const auto& c : configs)
      if (c["config_name"] && c["config_name"].as<std::string>() == "default") return c;
    if (configs.size() == 1) return configs[0];
    return std::nullopt;
  }
  for (const auto& c : configs)
    if (c["config_name"] && c["config_name"].as<std::string>() == config) return c;
  return std::nullopt;
}

// datasets' conventional split names: "<split>" followed by a separator, digits or the extension.
bool conventional_split_file(const std::string& rel, const std::string& split) {
  size_t start = 0;
  while (true) {
    const size_t slash = rel.find('/', start);
    const std::string part = rel.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (part == split && slash != std::string::npos) return true;  // a <split>/ directory
    if (slash == std::string::npos) {
      if (part.rfind(split, 0) != 0) return false;
      if (part.size() == split.size()) return false;
      const char next = part[split.size()];
      return next == '-' || next == '.' || next == '_' || next == ' ' || (next >= '0' && next <= '9');
    }
    start = slash + 1;
  }
}

std::vector<std::string> find_files(const std::string& root, const std::string& repo, const std::string& config,
                                    const std::string& split, bool throw_missing) {
  const fs::path base(root);
  bool listed = false;
  const YAML::Node card = card_of(base);
  const std::optional<YAML::Node> found = card_config(card, config, listed);
  const std::vector<std::string> files = all_files(base);
  std::vector<std::string> out;
  if (listed) {
    if (!found) {
      if (!throw_missing) return {};
      std::string names;
      for (const auto& c : card["configs"])
        if (c["config_name"]) names += (names.empty() ? "" : ", ") + c["config_name"].as<std::string>();
      throw DatasetError(describe(repo, config, split) + ": no config '" + (config.empty() ? "default" : config) +
                         "' in " + (base / "README.md").string() + " (configs: " + names + ")");
    }
    const YAML::Node& entry = *found;
    std::string data_dir = entry["data_dir"] ? trim_slash(entry["data_dir"].as<std::string>()) : "";
    if (auto patterns = split_patterns(entry["data_files"], split)) {
      for (const auto& f : files)
        for (const auto& p : *patterns)
          if (glob_match(data_dir.empty() ? p : data_dir + "/" + p, f) && is_data_file(f)) {
            out.push_back(f);
            break;
          }
    } else if (!entry["data_files"] && !data_dir.empty()) {
      for (const auto& f : files)
        if (f.rfind(data_dir + "/", 0) == 0 && is_data_file(f) &&
            conventional_split_file(f.substr(data_dir.size() + 1), split))
          out.push_back(f);
    }
  } else {
    const std::string prefix = !config.empty() && fs::is_directory(base / config) ? config + "/" : "";
    for (const auto& f : files)
      if (f.rfind(prefix, 0) == 0 && is_data_file(f) && conventional_split_file(f.substr(prefix.size()), split))
        out.push_back(f);
    // `datasets` puts every data file in "train" when none is named for a split
    // (Maxwell-Jia/AIME_2024's lone aime_2024_problems.parquet).
    if (out.empty() && split == "train") {
      bool any_split_named = false;
      for (const auto& f : files)
        for (const char* s : {"train", "test", "validation", "valid", "dev", "eval"})
          any_split_named = any_split_named || (f.rfind(prefix, 0) == 0 && is_data_file(f) &&
                                                conventional_split_file(f.substr(prefix.size()), s));
      if (!any_split_named)
        for (const auto& f : files)
          if (f.rfind(prefix, 0) == 0 && is_data_file(f)) out.push_back(f);
    }
  }
  if (out.empty() && throw_missing)
    throw DatasetError(describe(repo, config, split) + ": no data files for split '" + split + "' in " + root);
  for (auto& f : out) f = (base / f).string();
  return out;
}

}  // namespace

std::string dataset_root(const std::string& repo, const DatasetLocation& where) {
  std::vector<std::string> looked;
  if (!where.local_root.empty()) {
    const fs::path local = fs::path(where.local_root) / repo;
    if (fs::is_directory(local)) return local.string();
    looked.push_back(local.string());
  }
  if (!where.hub_cache.empty()) {
    const fs::path dir = cache_dir_of(repo, where.hub_cache);
    const fs::path snapshots = dir / "snapshots";
    if (fs::exists(dir / "refs" / "main")) {
      std::string commit = read_text(dir / "refs" / "main");
      while (!commit.empty() && (commit.back() == '\n' || commit.back() == ' ')) commit.pop_back();
      if (fs::is_directory(snapshots / commit)) return (snapshots / commit).string();
    }
    std::vector<fs::path> snaps;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(snapshots, ec))
      if (e.is_directory()) snaps.push_back(e.path());
    if (snaps.size() == 1) return snaps[0].string();
    looked.push_back(snaps.empty() ? dir.string()
                                   : dir.string() + " (several snapshots and no refs/main to choose one)");
  }
  std::string where_list;
  for (const auto& l : looked) where_list += (where_list.empty() ? "" : ", ") + l;
  if (where_list.empty()) where_list = "nowhere (no HuggingFace cache directory is set)";
  throw DatasetError("dataset " + repo + " is not available offline: looked in " + where_list +
                     ". Download it into the HuggingFace cache (huggingface-cli download --repo-type dataset " + repo +
                     ") or put its files in ./" + repo);
}

std::vector<std::string> data_files(const std::string& root, const std::string& repo, const std::string& config,
                                    const std::string& split) {
  return find_files(root, repo, config, split, true);
}

bool has_split(const std::string& repo, const std::string& config, const std::string& split,
               const DatasetLocation& where) {
  return !find_files(dataset_root(repo, where), repo, config, split, false).empty();
}

std::vector<json> read_rows_file(const std::string& path) {
  auto ends_with = [&](const char* ext) {
    const size_t n = std::strlen(ext);
    return path.size() >= n && path.compare(path.size() - n, n, ext) == 0;
  };
  std::vector<json> rows;
  if (ends_with(".parquet")) {
#ifdef AIPERF_ACCURACY_PARQUET
    try {
      return parquet::read_parquet_rows(path);
    } catch (const std::exception& e) {
      throw DatasetError(e.what());
    }
#else
    throw DatasetError(path + ": this build has no Parquet reader (common/parquet)");
#endif
  }
  if (ends_with(".jsonl") || ends_with(".json")) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw DatasetError(path + ": cannot be read");
    const std::string text = read_text(path);
    const size_t first = text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && text[first] == '[') {
      try {
        json all = json::parse(text);
        for (auto& r : all) rows.push_back(std::move(r));
        return rows;
      } catch (const json::exception& e) {
        throw DatasetError(path + ": not valid JSON: " + e.what());
      }
    }
    std::istringstream lines(text);
    std::string line;
    size_t n = 0;
    while (std::getline(lines, line)) {
      ++n;
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      try {
        rows.push_back(json::parse(line));
      } catch (const json::exception& e) {
        throw DatasetError(path + ":" + std::to_string(n) + ": not valid JSON: " + e.what());
      }
      if (!rows.back().is_object())
        throw DatasetError(path + ":" + std::to_string(n) + ": a row must be a JSON object");
    }
    return rows;
  }
  if (ends_with(".csv")) return read_csv_rows(path);
  throw DatasetError(path +
                     ": this file format is not read by this native aiperf (Parquet, JSON Lines, JSON and CSV are)");
}

std::vector<json> load_rows(const std::string& repo, const std::string& config, const std::string& split,
                            const DatasetLocation& where) {
  const std::string root = dataset_root(repo, where);
  std::vector<json> rows;
  for (const auto& f : data_files(root, repo, config, split)) {
    auto part = read_rows_file(f);
    std::move(part.begin(), part.end(), std::back_inserter(rows));
  }
  return rows;
}

}  // namespace aiperf::accuracy
