#include "plot/run_discovery.h"

#include <algorithm>
#include <filesystem>
#include <set>

namespace aiperf::plot {
namespace fs = std::filesystem;

namespace {
bool present(const fs::path& p) {
  std::error_code ec;
  return fs::exists(p, ec);  // follows symlinks: a broken one is absent
}

// A trials == 1 sweep writes <base>/<point>/ and a pass-through aggregate beside it
// (<base>/aggregate/<point>/, or <base>/<point>/aggregate/): the point counts once.
bool shadows_single_run(const fs::path& dir) {
  const fs::path d = dir.lexically_normal();
  const fs::path p = d.filename().empty() ? d.parent_path() : d;
  if (p.filename() == "aggregate" && present(p.parent_path() / "profile_export.jsonl")) return true;
  if (p.parent_path().filename() == "aggregate" &&
      present(p.parent_path().parent_path() / p.filename() / "profile_export.jsonl"))
    return true;
  return false;
}

void walk(const fs::path& dir, std::set<fs::path>& visited, std::vector<std::string>& out) {
  std::error_code ec;
  const fs::path real = fs::canonical(dir, ec);
  if (ec || !visited.insert(real).second) return;
  if (is_run_directory(dir.string())) out.push_back(dir.string());
  const bool aggregate_sibling = fs::is_directory(dir / "aggregate", ec);
  std::vector<fs::path> children;
  for (const auto& e : fs::directory_iterator(dir, fs::directory_options::skip_permission_denied, ec))
    if (e.is_directory(ec)) children.push_back(e.path());
  std::sort(children.begin(), children.end());
  for (const fs::path& c : children) {
    if (c.filename() == "profile_runs" && aggregate_sibling) continue;
    walk(c, visited, out);
  }
}
}  // namespace

bool is_run_directory(const std::string& dir) {
  const fs::path d(dir);
  std::error_code ec;
  if (!fs::is_directory(d, ec)) return false;
  if (present(d / "profile_export.jsonl") && present(d / "profile_export_aiperf.json")) return true;
  if (present(d / "profile_export_aiperf_aggregate.json")) return !shadows_single_run(d);
  return false;
}

std::vector<std::string> find_run_directories(const std::vector<std::string>& paths) {
  std::vector<std::string> all;
  std::set<fs::path> seen;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (!fs::exists(p, ec)) throw DiscoveryError("Path does not exist: " + p);
    if (!fs::is_directory(p, ec)) throw DiscoveryError("Path is not a directory: " + p);
    std::set<fs::path> visited;
    std::vector<std::string> found;
    walk(fs::path(p), visited, found);
    if (found.empty()) throw DiscoveryError("Path does not contain any valid run directories: " + p);
    for (const std::string& f : found)
      if (seen.insert(fs::canonical(f, ec)).second) all.push_back(f);
  }
  std::sort(all.begin(), all.end());
  return all;
}

}  // namespace aiperf::plot
