#include "search_itl_surface.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "search_post_process.h"
#include "search_spec.h"

namespace aiperf::cli::search {
namespace {

std::string leaf_of(const std::string& path) { return path.substr(path.rfind('.') + 1); }

// The parameter's value under its dotted path or its leaf; null when neither is there.
nlohmann::ordered_json param(const nlohmann::ordered_json& params, const std::string& path) {
  if (params.contains(path)) return params[path];
  if (params.contains(leaf_of(path))) return params[leaf_of(path)];
  return nullptr;
}

nlohmann::ordered_json triples_json(const std::vector<std::tuple<double, double, double>>& triples) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& [c, o, v] : triples) out.push_back({{"concurrency", c}, {"osl", o}, {"itl_ms", v}});
  return out;
}

}  // namespace

nlohmann::ordered_json itl_surface_fit(const nlohmann::ordered_json& sweep, const nlohmann::ordered_json& params) {
  const std::string metric = params.at("metric_tag").get<std::string>();
  const std::string stat = checked_stat(params.at("stat"), "itl_surface_fit");
  const std::string c_param = params.at("concurrency_param").get<std::string>();
  const std::string o_param = params.at("osl_param").get<std::string>();
  const std::string flat = metric + "_" + stat;

  std::vector<std::tuple<double, double, double>> triples;
  int candidates = 0, non_finite = 0, negative = 0;
  if (sweep.contains("per_combination_metrics") && sweep["per_combination_metrics"].is_array())
    for (const auto& row : sweep["per_combination_metrics"]) {
      const auto p = row.value("parameters", nlohmann::ordered_json::object());
      const auto m = row.value("metrics", nlohmann::ordered_json::object());
      const auto c = param(p, c_param), o = param(p, o_param);
      if (c.is_null() || o.is_null()) continue;
      const nlohmann::ordered_json* block = m.contains(flat) && m[flat].is_object() ? &m[flat] : nullptr;
      if (!block || !block->contains("mean")) block = m.contains(metric) && m[metric].is_object() ? &m[metric] : nullptr;
      if (!block || !block->contains("mean")) continue;
      ++candidates;
      const auto& raw = (*block)["mean"];
      if (!raw.is_number() || !std::isfinite(raw.get<double>())) {
        ++non_finite;
        continue;
      }
      const double v = raw.get<double>();
      if (v < 0) {
        ++negative;
        continue;
      }
      triples.emplace_back(c.get<double>(), o.get<double>(), v);
    }
  if (candidates == 0)
    throw std::runtime_error("itl_surface_fit: sweep aggregate has no rows with parameters " + py_repr(c_param) + " + " +
                             py_repr(o_param) + " and metric " + py_repr(metric) + " (flat key " + py_repr(flat) +
                             "); check that the recipe swept both axes and streaming was enabled.");
  std::stable_sort(triples.begin(), triples.end(), [](const auto& a, const auto& b) {
    return std::get<0>(a) != std::get<0>(b) ? std::get<0>(a) < std::get<0>(b) : std::get<1>(a) < std::get<1>(b);
  });
  nlohmann::ordered_json out{{"swept_metric", metric},
                             {"stat", stat},
                             {"swept_params", {c_param, o_param}},
                             {"raw_points", triples_json(triples)}};
  if (triples.size() < 2) {
    out["surface"] = {{"concurrency_axis", nlohmann::ordered_json::array()},
                      {"osl_axis", nlohmann::ordered_json::array()},
                      {"itl_grid", nlohmann::ordered_json::array()}};
    out["surface_fit_failed"] = true;
    out["error_reason"] = "itl_surface_fit: fewer than 2 finite-positive rows after dropping non-finite/negative ITL (kept " +
                          std::to_string(triples.size()) + ", dropped " + std::to_string(non_finite) + " non-finite + " +
                          std::to_string(negative) +
                          " negative); check that streaming was enabled and that swept cells produced successful requests.";
    return out;
  }
  std::vector<double> c_axis, o_axis;
  std::map<std::pair<double, double>, double> cell;  // a repeated cell: the last row wins, as a dict
  for (const auto& [c, o, v] : triples) {
    c_axis.push_back(c);
    o_axis.push_back(o);
    cell[{c, o}] = v;
  }
  for (auto* axis : {&c_axis, &o_axis}) {
    std::sort(axis->begin(), axis->end());
    axis->erase(std::unique(axis->begin(), axis->end()), axis->end());
  }
  nlohmann::ordered_json grid = nlohmann::ordered_json::array();
  for (double c : c_axis) {
    nlohmann::ordered_json line = nlohmann::ordered_json::array();
    for (double o : o_axis) {
      const auto at = cell.find({c, o});
      line.push_back(at == cell.end() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(at->second));
    }
    grid.push_back(line);
  }
  out["surface"] = {{"concurrency_axis", c_axis}, {"osl_axis", o_axis}, {"itl_grid", grid}};
  out["surface_fit_failed"] = false;
  return out;
}

}  // namespace aiperf::cli::search
