#include "search_run.h"

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "log/log.h"
#include "search_multi_tier.h"
#include "search_planner.h"
#include "search_post_process.h"
#include "sweep_aggregate.h"
#include "sweep_plan.h"
#include "trial_process.h"
#include "util/output_paths.h"
#include "util/version.h"

namespace aiperf::cli {
namespace {

namespace fs = std::filesystem;

std::string numbered(const char* prefix, long n) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%s_%04ld", prefix, n);
  return buf;
}

std::string value_text(const search::Dimension& d, const nlohmann::json& v) {
  if (d.kind == "int") return std::to_string(v.get<long long>());
  return sweep::python_str(v);
}

// The searched values of a proposal: one per dimension (a 1-D planner proposes a bare value, the
// BO planners an object path -> value for several dimensions), as the option text each sets.
std::vector<std::pair<const search::Dimension*, std::string>> point_values(const search::Spec& spec,
                                                                           const nlohmann::json& value) {
  std::vector<std::pair<const search::Dimension*, std::string>> out;
  if (!value.is_object()) return {{&spec.space.front(), value_text(spec.space.front(), value)}};
  for (const auto& d : spec.space) out.emplace_back(&d, value_text(d, value.at(d.path)));
  return out;
}

// "concurrency=4" or "concurrency=4, request_rate=2.5" for an iteration's variation_values.
std::string values_text(const search::Spec& spec, const nlohmann::ordered_json& values) {
  std::string out;
  for (const auto& d : spec.space)
    if (values.contains(d.path))
      out += (out.empty() ? "" : ", ") + sweep::leaf(d.path) + "=" + sweep::python_str(values.at(d.path));
  return out;
}

std::string number(double v) {
  std::ostringstream s;
  s.precision(6);
  s << v;
  return s.str();
}

const char* op_text(const std::string& op) {
  return op == "lt" ? "<" : op == "le" ? "<=" : op == "gt" ? ">" : ">=";
}

// "time_to_first_token p95 = 120.3 (< 200)" for each filter, as measured (mean over trials).
std::string sla_text(const search::Spec& spec, const search::Trials& results) {
  std::string out;
  for (const auto& f : spec.sla_filters) {
    const auto v = search::averaged(results, f.metric_tag, f.stat);
    out += (out.empty() ? "" : ", ") + f.metric_tag + " " + f.stat + " = " + (v ? number(*v) : "n/a") + " (SLA " +
           op_text(f.op) + " " + number(f.threshold) + ")";
  }
  return out;
}

// search_checkpoint.json (AIPerf's recovery file, compact): per iteration its values and each
// trial's result (label, success, summary_metrics, error, artifacts_path, variation_label,
// variation_values, variation_index, trial_index, was_cancelled). Written through a temporary
// file so a crash never leaves half of it.
// A trial's summary metrics as AIPerf's checkpoint dumps its JsonMetricResult objects: every
// statistic key, null where the summary has none.
nlohmann::ordered_json full_metrics(const nlohmann::ordered_json& metrics) {
  static const char* const kKeys[] = {"unit", "avg", "p1",  "p5",  "p10", "p25", "p50",   "p75",
                                      "p90",  "p95", "p99", "min", "max", "std", "count", "sum"};
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  if (!metrics.is_object()) return out;
  for (const auto& [tag, m] : metrics.items()) {
    if (!m.is_object()) continue;
    nlohmann::ordered_json full = nlohmann::ordered_json::object();
    for (const char* k : kKeys) full[k] = m.contains(k) ? m[k] : nlohmann::ordered_json(nullptr);
    out[tag] = std::move(full);
  }
  return out;
}

void write_checkpoint(const search::Planner& planner, const std::string& base_dir) {
  nlohmann::ordered_json doc;
  auto& iterations = doc["iterations"] = nlohmann::ordered_json::array();
  for (const auto& it : planner.history()) {
    nlohmann::ordered_json results = nlohmann::ordered_json::array();
    int trial = 0;
    for (const auto& t : it.results)
      results.push_back({{"label", t.label},
                         {"success", t.success},
                         {"summary_metrics", full_metrics(t.metrics)},
                         {"error", t.success ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(t.error)},
                         {"artifacts_path", t.dir},
                         {"variation_label", numbered("search_iter", it.index)},
                         {"variation_values", it.values},
                         {"variation_index", it.index},
                         {"trial_index", trial++},
                         {"was_cancelled", t.was_cancelled}});
    iterations.push_back({{"variation_values", it.values}, {"results", results}});
  }
  const std::string path = base_dir + "/search_checkpoint.json";
  write_file(path + ".tmp", doc.dump());
  fs::rename(path + ".tmp", path);
}

// As AIPerf after a search: one sweep combination per probed value (in first-probe order),
// holding the value's last iteration (AIPerf keys the cells by value, so a re-probe replaces the
// earlier one), with its confidence aggregate in aggregate/<leaf>_<value>/ (variation_label
// search_iter_NNNN) and the sweep aggregate in sweep_aggregate/ (aggregate/sweep_aggregate/
// with several trials): with SLA filters, the best configurations and the Pareto front come
// from the combinations that meet them, and the metadata says how many do.
void write_aggregates(const search::Spec& spec, const search::Planner& planner, const std::string& base_dir,
                      const ProfileOptions::MultiRun& m, const std::string& model) {
  std::vector<std::string> order;
  std::map<std::string, const search::Iteration*> last;
  for (const auto& it : planner.history()) {
    const std::string key = it.values.dump();
    if (!last.count(key)) order.push_back(key);
    last[key] = &it;
  }
  std::vector<sweep::Cell> cells;
  for (const auto& key : order) {
    const search::Iteration& it = *last[key];
    bool ok = false;
    for (const auto& t : it.results) ok = ok || t.success;
    if (!ok) continue;
    sweep::Cell c;
    c.point.index = cells.size();
    std::vector<std::string> paths;
    for (const auto& d : spec.space) paths.push_back(d.path);
    std::sort(paths.begin(), paths.end());  // a sweep point's paths are sorted
    for (const auto& path : paths) {
      const nlohmann::json v = it.values.at(path);
      c.point.values.emplace_back(path, v);
      c.point.value_index.push_back(0);
      c.point.dir_name += (c.point.dir_name.empty() ? "" : "__") + sweep::leaf(path) + "_" + sweep::python_str(v);
    }
    c.point.label = numbered("search_iter", it.index);
    c.trials = it.results;
    cells.push_back(std::move(c));
  }
  if (cells.empty()) return;
  for (const auto& c : cells) {
    const auto agg = sweep::point_aggregate(c, m.confidence_level, m.cooldown_seconds, "repeated", model, util::kVersion);
    const std::string dir = base_dir + "/aggregate/" + c.point.dir_name;
    fs::create_directories(dir);
    write_file(dir + "/profile_export_aiperf_aggregate.json", agg.dump(2) + "\n");
    write_file(dir + "/profile_export_aiperf_aggregate.csv", exporting::aggregate_csv(agg) + sweep::point_csv_extra(agg));
  }
  auto doc = sweep::sweep_aggregate(cells, "repeated", m.confidence_level);
  nlohmann::ordered_json sla = nullptr;
  if (!spec.sla_filters.empty()) {
    std::vector<sweep::Cell> feasible;
    for (size_t i = 0; i < cells.size(); ++i) {
      bool pass = true;
      for (const auto& f : spec.sla_filters)
        pass = pass && search::row_passes(doc["per_combination_metrics"][i], f.metric_tag, f.stat, f.op, f.threshold);
      if (pass) feasible.push_back(cells[i]);
    }
    sla = {{"active_filters", nlohmann::ordered_json::array()},
           {"feasible_count", feasible.size()},
           {"infeasible_count", cells.size() - feasible.size()}};
    for (const auto& f : spec.sla_filters) sla["active_filters"].push_back(search::filter_json(f));
    if (feasible.empty()) {
      doc["pareto_optimal"] = nlohmann::ordered_json::array();
    } else {
      const auto only = sweep::sweep_aggregate(feasible, "repeated", m.confidence_level);
      doc["best_configurations"] = only["best_configurations"];
      doc["pareto_optimal"] = only["pareto_optimal"];
    }
  }
  doc["metadata"] = search::with_sweep_metadata(doc["metadata"], sla,
                                                spec.recipe ? search::recipe_pareto_axes(*spec.recipe) : nullptr);
  const std::string dir = m.num_runs > 1 ? base_dir + "/aggregate/sweep_aggregate" : base_dir + "/sweep_aggregate";
  fs::create_directories(dir);
  write_file(dir + "/profile_export_aiperf_sweep.json", doc.dump(2) + "\n");
  write_file(dir + "/profile_export_aiperf_sweep.csv", sweep::sweep_csv(doc));
}

}  // namespace

std::vector<std::string> search_point_args(const search::Spec& spec, const std::vector<std::string>& args,
                                           const std::string& value) {
  std::vector<std::string> out = with_search_value(args, *search::option_for_path(spec.space.front().path), value);
  for (const auto& [option, v] : spec.point_options) out = with_search_value(out, option, v);
  return out;
}

int run_search(const search::Spec& spec, const std::vector<std::string>& args, const PointConfig& point_config,
               const std::string& base_dir, const ProfileOptions::MultiRun& m) {
  install_trial_signals();
  std::unique_ptr<search::Planner> planner = search::make_planner(spec);
  const auto* tiers = dynamic_cast<const search::MultiTierPlanner*>(planner.get());
  const search::Dimension& dim = spec.space.front();
  std::string space_text;  // "phases.profiling.concurrency in [1, 64]" per dimension
  for (const auto& d : spec.space)
    space_text += (space_text.empty() ? "" : ", ") + d.path + " in [" + number(d.lo) + ", " + number(d.hi) + "]";
  const std::string history_path = base_dir + "/search_history.json";
  auto flush = [&](const std::string& reason) {
    write_file(history_path, search::history_json(spec, *planner, reason).dump(2) + "\n");
    write_checkpoint(*planner, base_dir);
  };
  {
    auto filters_text = [](const std::vector<search::SlaFilter>& filters) {
      std::string out;
      for (const auto& f : filters)
        out += (out.empty() ? "" : ", ") + f.metric_tag + " " + f.stat + " " + op_text(f.op) + " " + number(f.threshold);
      return out;
    };
    std::string slas = filters_text(spec.sla_filters);
    if (search::multi_tier(spec)) {  // each tier's filters, then the global ones every tier adds
      std::string tiers;
      for (const auto& t : spec.tiers) tiers += (tiers.empty() ? "" : "; ") + t.label + ": " + filters_text(t.filters);
      slas = "tiers " + tiers + (slas.empty() ? "" : "; every tier: " + slas);
    }
    std::ostringstream banner;
    banner << "Adaptive search (" << (search::multi_tier(spec) ? std::string("multi_tier") : spec.planner)
           << (spec.recipe ? ", recipe " + *spec.recipe : "") << "): " << space_text << ", at most "
           << spec.max_iterations << " iterations, " << m.num_runs << " trial(s) per point; SLA: " << slas
           << "; objective: " << spec.direction << " " << spec.metric << " " << spec.stat;
    AIPERF_LOG(kInfo) << banner.str();
    std::cout << banner.str() << "\n" << std::flush;
  }
  bool any_success = false, any_ran = false;
  std::set<std::string> probed;  // values probed so far (smooth_isotonic's first-probe warmup)
  std::string model_name;
  std::string summary_name;
  try {
    while (!stop_signal()) {
      const std::optional<nlohmann::json> value = planner->ask();
      if (!value) break;
      const long iteration = static_cast<long>(planner->history().size());
      const auto values = point_values(spec, *value);
      const std::string text = values.front().second;  // the first dimension's (1-D planners: the only one)
      std::string label;
      for (const auto& [d, t] : values) label += (label.empty() ? "" : ", ") + sweep::leaf(d->path) + "=" + t;
      std::vector<std::string> point_args = search_point_args(spec, args, text);
      for (size_t i = 1; i < values.size(); ++i)
        point_args = with_search_value(point_args, *search::option_for_path(values[i].first->path), values[i].second);
      if (spec.planner == "smooth_isotonic" || search::multi_tier(spec)) {
        // As AIPerf's smooth_isotonic: a warmup at the probed value before every probe (longer
        // the first time a value is probed), and enough requests for a stable p99.
        const bool first = probed.insert(text).second;
        const double warmup = std::max(first ? spec.first_probe_floor : spec.replicate_floor, spec.warmup_seconds);
        point_args = drop_options(point_args, {"--warmup-request-count", "--num-warmup-requests", "--num-warmup-sessions",
                                               "--warmup-duration", "--warmup-concurrency"});
        point_args.insert(point_args.end(), {"--warmup-duration", number(warmup), "--warmup-concurrency", text});
        if (!has_option(point_args, {"--request-count", "--num-requests", "--benchmark-duration", "--conversation-num",
                                     "--num-conversations", "--num-sessions"}))
          point_args.insert(point_args.end(), {"--request-count", std::to_string(spec.precision_requests)});
      }
      const config::RunConfig base = point_config(point_args);
      if (model_name.empty() && !base.endpoint.model_names.empty()) model_name = base.endpoint.model_names.front();
      if (summary_name.empty())
        summary_name = fs::path(util::artifact_file(base, "profile_export_aiperf.json")).filename();
      search::Trials results;
      bool interrupted = false;
      for (uint32_t trial = 1; trial <= m.num_runs && !stop_signal(); ++trial) {
        if (any_ran) {
          const double pause = trial > 1 ? m.cooldown_seconds : m.parameter_sweep_cooldown_seconds;
          if (pause > 0 && !cooldown(pause)) {
            interrupted = true;
            break;
          }
        }
        any_ran = true;
        const std::string dir = base_dir + "/" + numbered("search_iter", iteration) + "/profile_runs/" +
                                numbered("run", static_cast<long>(trial));
        std::error_code ec;
        fs::create_directories(dir + "/logs", ec);
        if (ec) throw std::runtime_error("cannot create " + dir + ": " + ec.message());
        const config::RunConfig cfg = trial_config(base, m, trial, dir);
        write_file(dir + "/run_config.json", config::to_json(cfg).dump(2) + "\n");
        const std::string what = "search iteration " + std::to_string(iteration) + ": " + label +
                                 (m.num_runs > 1 ? " (trial " + std::to_string(trial) + ")" : "");
        AIPERF_LOG(kInfo) << "Executing " << what;
        std::cout << "\nExecuting " << what << "...\n" << std::flush;
        const int rc = run_child(dir + "/run_config.json");
        if (rc == 128 + SIGINT || rc == 128 + SIGTERM) {
          note_stop_signal(rc - 128);
          interrupted = true;
          break;
        }
        results.push_back(exporting::read_trial(numbered("run", static_cast<long>(trial)), dir, summary_name));
        if (!results.back().success) {
          AIPERF_LOG(kError) << what << " failed: " << results.back().error;
        }
        any_success = any_success || results.back().success;
      }
      if (interrupted) break;
      planner->tell(results);
      flush("");
      const search::Iteration& it = planner->history().back();
      std::ostringstream line;
      line << "[search " << iteration + 1 << "/" << spec.max_iterations << "] " << label << ": "
           << (it.feasible ? "feasible" : "infeasible") << " (" << (tiers ? tiers->progress() : sla_text(spec, results))
           << "); " << spec.metric << " " << spec.stat << " = " << (it.objective ? number(*it.objective) : "n/a");
      const auto best = search::best_trials(spec, planner->history());
      if (!best.is_null() && best[0]["feasible"].get<bool>())
        line << "; best so far: " << values_text(spec, best[0]["variation_values"]) << " ("
             << number(best[0]["objective_values"][0].get<double>()) << ")";
      AIPERF_LOG(kInfo) << line.str();
      std::cout << line.str() << "\n" << std::flush;
    }
  } catch (const std::exception& e) {
    flush("aborted");
    std::cerr << "Error: " << e.what() << "\n";
    return 1;
  }
  const int sig = stop_signal();
  const std::string reason = sig ? "cancelled" : planner->convergence_reason();
  flush(reason);
  try {
    write_aggregates(spec, *planner, base_dir, m, model_name);
  } catch (const std::exception& e) {
    AIPERF_LOG(kWarning) << "Search aggregates not written: " << e.what();
  }
  const auto boundary = planner->boundary_summary();
  std::ostringstream done;
  done << "Search finished (" << reason << ") after " << planner->history().size() << " iterations";
  if (!boundary.is_null()) {
    if (!boundary["feasible_max"].is_null())
      done << "; highest feasible " << sweep::leaf(dim.path) << ": "
           << sweep::python_str(boundary["feasible_max"]["value"]);
    if (!boundary["infeasible_min"].is_null())
      done << "; lowest infeasible " << sweep::leaf(dim.path) << ": "
           << sweep::python_str(boundary["infeasible_min"]["value"]);
  }
  if (tiers)
    for (const auto& t : tiers->tier_results())
      done << "; tier " << t["label"].get<std::string>() << ": " << sweep::leaf(dim.path) << " "
           << (t["boundary_concurrency"].is_null() ? std::string("none") : t["boundary_concurrency"].dump()) << " ("
           << t["convergence_status"].get<std::string>() << ")";
  const auto best = search::best_trials(spec, planner->history());
  if (!best.is_null())
    done << "; best " << spec.metric << ": " << values_text(spec, best[0]["variation_values"]) << " ("
         << number(best[0]["objective_values"][0].get<double>()) << ")";
  AIPERF_LOG(kInfo) << done.str();
  std::cout << "\n" << done.str() << "\nSearch history: " << history_path << "\n" << std::flush;
  if (sig) return 128 + sig;
  return any_success ? 0 : 1;
}

int finish_grid_recipe(const search::GridRecipe& recipe, int rc, const std::string& base_dir,
                       const ProfileOptions::MultiRun& m) {
  const bool repeated = m.num_runs > 1 && (m.sweep_type != sweep::SweepType::kGrid ||
                                           m.parameter_sweep_mode == sweep::ParameterSweepMode::kRepeated);
  const std::string dir = repeated ? base_dir + "/aggregate/sweep_aggregate" : base_dir + "/sweep_aggregate";
  const std::string sweep_file = dir + "/profile_export_aiperf_sweep.json";
  if (!fs::exists(sweep_file)) return rc;  // no aggregate (fewer than two runs succeeded)
  try {
    std::ifstream in(sweep_file);
    auto doc = nlohmann::ordered_json::parse(in);
    in.close();
    // The recipe's Pareto axes and SLA verdicts in the sweep file's metadata, as AIPerf stamps
    // them (its best configurations are not re-filtered here).
    nlohmann::ordered_json sla = nullptr;
    if (!recipe.sla_filters.empty() && doc.contains("per_combination_metrics")) {
      size_t feasible = 0;
      for (const auto& row : doc["per_combination_metrics"]) {
        bool pass = true;
        for (const auto& f : recipe.sla_filters) pass = pass && search::row_passes(row, f.metric_tag, f.stat, f.op, f.threshold);
        feasible += pass ? 1 : 0;
      }
      sla = {{"active_filters", nlohmann::ordered_json::array()},
             {"feasible_count", feasible},
             {"infeasible_count", doc["per_combination_metrics"].size() - feasible}};
      for (const auto& f : recipe.sla_filters) sla["active_filters"].push_back(search::filter_json(f));
    }
    const auto axes = search::recipe_pareto_axes(recipe.recipe);
    if ((!axes.is_null() || !sla.is_null()) && doc.contains("metadata")) {
      doc["metadata"] = search::with_sweep_metadata(doc["metadata"], sla, axes);
      write_file(sweep_file, doc.dump(2) + "\n");
    }
    const auto out = search::post_process(recipe.handler, doc, recipe.params);
    write_file(dir + "/" + recipe.output_filename, out.dump(2) + "\n");
    AIPERF_LOG(kInfo) << "Post-process artifact written: " << dir << "/" << recipe.output_filename;
    std::cout << recipe.recipe << ": " << dir << "/" << recipe.output_filename << "\n" << std::flush;
  } catch (const std::exception& e) {
    const nlohmann::ordered_json err{{"handler", recipe.handler},
                                     {"output_filename", recipe.output_filename},
                                     {"error", e.what()},
                                     {"type", "ValueError"}};
    write_file(dir + "/post_process_errors.json", err.dump(2) + "\n");
    AIPERF_LOG(kWarning) << "Post-process handler '" << recipe.handler << "' failed: " << e.what()
                         << "; standard sweep aggregates unaffected (errors in " << dir << "/post_process_errors.json).";
  }
  return rc;
}

}  // namespace aiperf::cli
