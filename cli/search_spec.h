// Adaptive searches (AIPerf 0.13's `adaptive_search` sweep): what --search-space,
// --search-sla, --search-sla-tier and the objective options describe, parsed with the
// reference's grammar and messages. Pure: no I/O, unit-tested in tests/cli/search_spec_test.cpp.
//   --search-space    "PATH:LO,HI[:KIND]"            KIND int | real (default real)
//   --search-sla      "METRIC:STAT:OP:THRESHOLD"     e.g. time_to_first_token:p95:lt:200
//   --search-sla-tier "[LABEL:]FILTER[,FILTER...]"   2 to 10 tiers, labels unique
#pragma once
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "util/py_repr.h"

namespace aiperf::cli::search {

// A user error in the search options: the caller prints "Error: <what>" and exits 2.
class SearchError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Dimension {
  std::string path;  // dotted config path, e.g. phases.profiling.concurrency
  double lo = 0, hi = 0;
  std::string kind = "real";  // int | real
  std::string prior = "uniform";  // uniform | log-uniform (recipes; only BO planners read it)
};

// A trial is feasible for the filter when stat(metric) op threshold (a missing or non-finite
// value is infeasible).
struct SlaFilter {
  std::string metric_tag;
  std::string stat = "p95";
  std::string op;  // lt | le | gt | ge
  double threshold = 0;
};

struct SloTier {
  std::string label;
  std::vector<SlaFilter> filters;
};

// The whole search as AdaptiveSearchSweep describes it (search_history.json's "config").
struct Spec {
  std::string planner = "bayesian";  // bayesian | monotonic_sla | smooth_isotonic | optuna
  std::vector<Dimension> space;
  std::string metric;
  std::string stat = "avg";
  std::string direction;  // maximize | minimize
  int max_iterations = 0;
  int n_initial_points = 5;
  std::optional<long long> random_seed;
  std::vector<SlaFilter> sla_filters;
  std::vector<SloTier> tiers;
  std::optional<std::string> recipe;  // the --search-recipe that made it
  int stability_trials = 2;           // monotonic_sla: agreeing verdicts a point needs
  // AIPERF_SEARCH_PLANNER_* tunables (read by the CLI): the bracket precision both 1-D planners
  // stop at; smooth_isotonic's per-probe warmup (first probe of a value: max(first_probe_floor,
  // warmup); a re-probe: max(replicate_floor, warmup)) and its profiling request count when the
  // command line sets none.
  double precision = 0.05;
  double warmup_seconds = 30, first_probe_floor = 60, replicate_floor = 15;
  long long precision_requests = 1000;
  // bayesian / optuna (search_bo_planner.h): the sampler ("" = the planner's default, the GP with
  // noisy EI), --optuna-acquisition, --optuna-terminator, --search-percentile-pooling,
  // --bo-constraint-mode (deprecated, read by nothing) and the three-signal stop knobs.
  std::string optuna_sampler;
  std::optional<std::string> optuna_acquisition;
  std::string optuna_terminator = "none";
  std::string objective_pooling = "mean";
  std::string constraint_mode = "penalty";
  int improvement_patience = 10, plateau_window = 8;
  double plateau_threshold = 0.01;
  // Options every point sets on top of the command line (max-goodput-under-slo: its per-request
  // SLOs as --goodput, merged with the user's own, the recipe's winning on the same metric).
  std::vector<std::pair<std::string, std::string>> point_options;
};

// Whether the search is the multi-tier planner's (AIPerf: two or more --search-sla-tier, whatever
// the planner named).
inline bool multi_tier(const Spec& spec) { return spec.tiers.size() >= 2; }

// One more swept option of a grid recipe (decode-itl-curve's --osl beside --concurrency).
struct GridAxis {
  std::string option;  // --osl
  std::string path;    // datasets.main.prompts.osl
  std::vector<long long> values;
};

// A grid recipe (concurrency-ramp, prefill-ttft-curve, max-concurrency-under-sla --search-style grid): a sweep of `values` on `option`, then a post-process of the
// sweep aggregate written beside it as `output_filename` (search_post_process.h).
struct GridRecipe {
  std::string recipe;
  std::string option;  // --concurrency
  std::string path;    // phases.profiling.concurrency
  std::vector<long long> values;
  std::string handler;          // degradation_knee_detect
  nlohmann::ordered_json params;  // the handler's params, as AIPerf's PostProcessSpec
  std::string output_filename;  // degradation_knee.json
  std::vector<SlaFilter> sla_filters;  // the sweep's SLA filters (metadata.sla_constraints), if any
  // Options the recipe pins to one swept value (prefill-ttft-curve: --concurrency 1), as a
  // one-value sweep parameter, so they name the folders as AIPerf's do (isl_256__concurrency_1).
  std::vector<std::pair<std::string, std::string>> fixed;
  bool auto_plot_default = false;  // AIPerf's recipe default for --auto-plot (concurrency-ramp, prefill-ttft-curve)
  std::vector<GridAxis> more_axes;  // crossed with `values` (grid), as AIPerf's sweep_parameters
  // pareto-sweep (AIPerf's scenarios): each (ISL, OSL) pair crossed with the concurrencies of
  // --concurrency (a list the recipe consumes; default 1,4,16,64,256), run as one zipped sweep
  // in pair-major order, folders isl_<i>__osl_<o>__concurrency_<c>, labels shape_<i>_<o>_c<c>.
  std::vector<std::pair<long long, long long>> isl_osl_pairs;
};

// AIPerf's CLI field name of a sweepable path ("phases.profiling.concurrency" -> "concurrency"),
// as its "magic-list flags [...]" message names it.
std::string magic_list_field(const std::string& path);

// `steps` log-spaced integers from lo to hi (both included), rounded (ties to even),
// duplicates collapsed, ascending; SearchError for steps < 2, lo <= 0 or hi <= lo.
std::vector<long long> logspace_int_steps(double lo, double hi, int steps);

// "--search-space 'x': expected 'path:lo,hi[:kind]', ..." and the other reference messages.
Dimension parse_dimension(const std::string& raw);
SlaFilter parse_sla_filter(const std::string& raw);
// `index` names an unlabelled tier tier_<index+1>.
SloTier parse_sla_tier(const std::string& raw, size_t index);
// Count (2 to 10) and unique labels.
void check_tiers(const std::vector<SloTier>& tiers);
using util::py_repr;  // the reference's messages quote values as Python's repr()

// The option that sets a search path on the command line ("phases.profiling.concurrency" ->
// "--concurrency"), for the paths a search can vary; nullopt for others.
std::optional<std::string> option_for_path(const std::string& path);
std::string known_paths_text();  // those paths, comma-separated, for messages

// --goodput's "tag:value ..." with the recipe's SLOs merged in, as AIPerf merges the slos
// dict: the user's pairs in their order, a recipe SLO replacing the value of the same tag in
// place, the others appended (values as Python prints floats: 500.0).
std::string merged_goodput(const std::string& user, const std::vector<std::pair<std::string, double>>& recipe);

// The search_history.json "config" block.
nlohmann::ordered_json config_json(const Spec& spec);
nlohmann::ordered_json filter_json(const SlaFilter& f);

}  // namespace aiperf::cli::search
