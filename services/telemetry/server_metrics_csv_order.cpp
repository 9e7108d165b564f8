// AIPerf 0.13's layout of a server_metrics_export.csv section: which label columns, in which
// order, and in which order the rows come.
#include <algorithm>
#include <map>
#include <set>

#include "endpoint_display.h"
#include "server_metrics.h"

namespace aiperf::telemetry {

std::vector<std::string> csv_label_columns(const std::vector<const ServerSeries*>& rows) {
  std::vector<std::set<std::string>> sets;
  std::set<std::string> all;
  for (const ServerSeries* s : rows) {
    if (s->labels.empty()) continue;
    std::set<std::string>& names = sets.emplace_back();
    for (const auto& kv : s->labels) names.insert(kv.first);
    all.insert(names.begin(), names.end());
  }
  // Labels that occur together (in one series) form a family: union-find over each set's
  // neighbours in sorted order.
  std::map<std::string, std::string> parent;
  auto find = [&](std::string x) {
    while (true) {
      auto [it, inserted] = parent.try_emplace(x, x);
      if (it->second == x) return x;
      x = it->second;
    }
  };
  for (const auto& names : sets)
    for (auto a = names.begin(), b = std::next(a); a != names.end() && b != names.end(); ++a, ++b)
      parent[find(*b)] = find(*a);
  std::map<std::string, std::set<std::string>> families;  // root -> members
  for (const auto& name : all) families[find(name)].insert(name);
  // Families in the order of their smallest label; in each, the labels found in one series only
  // first, then the "bridges" found in several, each group sorted.
  std::vector<const std::set<std::string>*> ordered;
  ordered.reserve(families.size());
  for (const auto& [root, members] : families) ordered.push_back(&members);
  std::sort(ordered.begin(), ordered.end(), [](auto* a, auto* b) { return *a->begin() < *b->begin(); });
  std::vector<std::string> columns;
  for (const auto* members : ordered) {
    std::vector<std::string> bridges;
    for (const auto& name : *members) {
      const auto n = std::count_if(sets.begin(), sets.end(), [&](const auto& names) { return names.count(name) > 0; });
      (n > 1 ? bridges : columns).push_back(name);
    }
    columns.insert(columns.end(), bridges.begin(), bridges.end());
  }
  return columns;
}

namespace {

// Python's str() of the label dict, AIPerf's last sort key: {'endpoint': '/metrics', 'status': '200'}.
std::string python_dict(const prometheus::Labels& labels) {
  if (labels.empty()) return "";
  std::string out = "{";
  for (const auto& [k, v] : labels) {
    if (out.size() > 1) out += ", ";
    out += "'" + k + "': '" + v + "'";
  }
  return out + "}";
}

}  // namespace

void sort_csv_rows(std::vector<const ServerSeries*>& rows, const std::vector<std::string>& columns) {
  auto key = [&](const ServerSeries* s) {
    std::string pattern;  // '1' where the row fills the label column: rows cluster by it
    for (const auto& c : columns)
      pattern += std::any_of(s->labels.begin(), s->labels.end(), [&](auto& kv) { return kv.first == c; }) ? '1' : '0';
    return std::make_tuple(pattern, export_family_name(*s), endpoint_display(s->endpoint_url), python_dict(s->labels));
  };
  std::vector<std::pair<decltype(key(nullptr)), const ServerSeries*>> keyed;
  keyed.reserve(rows.size());
  for (const ServerSeries* s : rows) keyed.emplace_back(key(s), s);
  std::stable_sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (size_t i = 0; i < rows.size(); ++i) rows[i] = keyed[i].second;
}

}  // namespace aiperf::telemetry
