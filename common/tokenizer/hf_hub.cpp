#include "tokenizer/hf_hub.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>

#include "tokenizer/hub_http.h"
#include "tokenizer/tokenizer.h"

namespace aiperf::tok {

namespace fs = std::filesystem;

namespace {

bool is_commit_sha(const std::string& s) {
  if (s.size() != 40) return false;
  for (char c : s) {
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

fs::path repo_cache_dir(const std::string& repo, const HubEnv& env) {
  std::string folder = "models--" + repo;
  for (size_t p = folder.find('/'); p != std::string::npos; p = folder.find('/', p)) folder.replace(p, 1, "--");
  return fs::path(env.hub_cache) / folder;
}

std::string read_ref(const fs::path& ref) {
  std::ifstream in(ref);
  std::string sha;
  in >> sha;
  return sha;
}

// Writes `data` to `path` via a temporary file and rename, so a concurrent reader (or a
// Python process sharing the cache) never sees a partial file.
void write_atomically(const fs::path& path, const std::string& data) {
  fs::create_directories(path.parent_path());
  fs::path tmp = path;
  tmp += ".incomplete." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    if (!out) throw TokenizerError("cannot write " + tmp.string());
  }
  fs::rename(tmp, path);
}

// ETag as huggingface_hub names blobs: LFS files carry X-Linked-Etag; quotes and W/ removed.
std::string blob_name(const HubResponse& r) {
  auto it = r.headers.find("x-linked-etag");
  if (it == r.headers.end()) it = r.headers.find("etag");
  if (it == r.headers.end()) return {};
  std::string etag = it->second;
  if (etag.rfind("W/", 0) == 0) etag.erase(0, 2);
  if (etag.size() >= 2 && etag.front() == '"' && etag.back() == '"') etag = etag.substr(1, etag.size() - 2);
  if (etag.empty() || etag.find('/') != std::string::npos || etag.find("..") != std::string::npos) return {};
  return etag;
}

struct Download {
  bool found = false;
  std::string commit;
  std::string url;
};

// Fetches one file of the repo into blobs/ and links it from snapshots/<commit>/. A 404 gives
// found=false; any other failure throws naming the repo and file.
Download download_file(const std::string& repo, const std::string& revision, const std::string& file,
                       const fs::path& repo_dir, const HubEnv& env) {
  const std::string url = env.endpoint + "/" + repo + "/resolve/" + revision + "/" + file;
  const std::string where = "tokenizer '" + repo + "': cannot download " + file + " from " + url;
  HubResponse r;
  try {
    r = hub_http_get(url, env.token);
  } catch (const std::exception& e) {
    throw TokenizerError(where + ": " + e.what());
  }
  if (r.status == 404) return {false, {}, url};
  if (r.status == 401 || r.status == 403) {
    throw TokenizerError(where + ": HTTP " + std::to_string(r.status) +
                         " (gated or private repository: set HF_TOKEN to a token with access)");
  }
  if (r.status != 200) throw TokenizerError(where + ": HTTP " + std::to_string(r.status));

  Download d{true, {}, url};
  if (auto it = r.headers.find("x-repo-commit"); it != r.headers.end() && is_commit_sha(it->second)) {
    d.commit = it->second;
  } else if (is_commit_sha(revision)) {
    d.commit = revision;
  } else {
    throw TokenizerError(where + ": the response names no commit (X-Repo-Commit header)");
  }
  std::string blob = blob_name(r);
  fs::path snapshot_file = repo_dir / "snapshots" / d.commit / file;
  try {
    if (blob.empty()) {
      write_atomically(snapshot_file, r.body);  // no ETag: store the file in the snapshot itself
    } else {
      write_atomically(repo_dir / "blobs" / blob, r.body);
      fs::create_directories(snapshot_file.parent_path());
      fs::path link_tmp = snapshot_file;
      link_tmp += ".link." + std::to_string(::getpid());
      fs::remove(link_tmp);
      fs::create_symlink(fs::path("../../blobs") / blob, link_tmp);
      fs::rename(link_tmp, snapshot_file);
    }
    if (revision != d.commit) write_atomically(repo_dir / "refs" / revision, d.commit);
  } catch (const fs::filesystem_error& e) {
    throw TokenizerError("tokenizer '" + repo + "': cannot store " + file + " in " + repo_dir.string() + ": " +
                         e.code().message());
  }
  return d;
}

}  // namespace

bool looks_like_hub_repo(const std::string& name) {
  static const std::regex re(R"(^[A-Za-z0-9][A-Za-z0-9._-]*(/[A-Za-z0-9][A-Za-z0-9._-]*)?$)");
  return name.size() <= 200 && name.find("..") == std::string::npos && std::regex_match(name, re);
}

std::optional<std::string> find_cached_snapshot(const std::string& repo, const std::string& revision,
                                                const HubEnv& env) {
  if (env.hub_cache.empty()) return std::nullopt;
  fs::path dir = repo_cache_dir(repo, env);
  std::string commit = is_commit_sha(revision) ? revision : read_ref(dir / "refs" / revision);
  if (commit.empty()) return std::nullopt;
  fs::path snapshot = dir / "snapshots" / commit;
  std::error_code ec;
  if (fs::is_regular_file(snapshot / "tokenizer.json", ec) || fs::is_regular_file(snapshot / "tokenizer.model", ec)) {
    return snapshot.string();
  }
  return std::nullopt;
}

std::string resolve_hub_tokenizer(const std::string& repo, const std::string& revision, bool download,
                                  const HubEnv& env) {
  if (env.hub_cache.empty())
    throw TokenizerError("tokenizer '" + repo + "': no HuggingFace cache directory (set HF_HOME or HOME)");
  if (auto cached = find_cached_snapshot(repo, revision, env)) return *cached;
  fs::path dir = repo_cache_dir(repo, env);
  if (env.offline) {
    throw TokenizerError("tokenizer '" + repo + "' (revision " + revision + ") is not in the HF cache " +
                         dir.string() + " and HF_HUB_OFFLINE is set");
  }
  if (!download) {
    throw TokenizerNotCached("tokenizer '" + repo + "' (revision " + revision + ") is not in the HF cache " +
                             dir.string());
  }
  Download main = download_file(repo, revision, "tokenizer.json", dir, env);
  if (!main.found) {
    const std::string json_url = main.url;
    main = download_file(repo, revision, "tokenizer.model", dir, env);
    if (!main.found) {
      throw TokenizerError("tokenizer '" + repo + "': cannot download tokenizer.json from " + json_url +
                           ": HTTP 404 (no tokenizer.model either)");
    }
  }
  // Pinned to the commit just fetched, so every file comes from the same revision. Newer repos
  // keep their chat template only in chat_template.jinja (--apply-chat-template); a 404 is fine.
  download_file(repo, main.commit, "tokenizer_config.json", dir, env);
  download_file(repo, main.commit, "chat_template.jinja", dir, env);
  return (dir / "snapshots" / main.commit).string();
}

}  // namespace aiperf::tok
