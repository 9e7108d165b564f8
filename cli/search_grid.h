// The sweep a grid or scenario recipe runs (concurrency-ramp, prefill-ttft-curve,
// decode-itl-curve, pareto-sweep, max-concurrency-under-sla --search-style grid): the recipe's
// values put on the command line as comma lists, so the recipe runs as the same sweep a user
// could type, with AIPerf's folder names. Pure (no I/O); unit-tested in
// tests/cli/search_recipes_test.cpp.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "search_spec.h"
#include "sweep_plan.h"

namespace aiperf::cli {

// `args` with every occurrence of `option` (and its aliases: --isl/--synthetic-input-tokens-mean,
// ...) removed and `option value` appended.
std::vector<std::string> with_search_value(std::vector<std::string> args, const std::string& option,
                                           const std::string& value);
// `args` without the options named (in either --opt value or --opt=value form).
std::vector<std::string> drop_options(std::vector<std::string> args, const std::vector<std::string>& names);
// Whether `args` gives one of the options named.
bool has_option(const std::vector<std::string>& args, const std::vector<std::string>& names);

}  // namespace aiperf::cli

namespace aiperf::cli::search {

struct RecipeSweep {
  sweep::Extracted lists;  // the lists to expand (and the command line they sit in)
  sweep::SweepType sweep_type = sweep::SweepType::kGrid;  // zip for pareto-sweep's paired points
};

// `given`: the command line's own lists (sweep::extract_lists). Lists are refused beside a
// recipe ("--search-recipe (grid path) is mutually exclusive with magic-list flags
// ['concurrency'] ..."), except pareto-sweep's --concurrency, which it consumes (a single
// --concurrency value is a list of one; none: 1,4,16,64,256). Throws SearchError, also for a
// pareto-sweep of a single point.
RecipeSweep recipe_sweep(const GridRecipe& recipe, const sweep::Extracted& given, sweep::SweepType sweep_type);

// pareto-sweep's points as AIPerf names its scenarios: label shape_<isl>_<osl>_c<concurrency>,
// values keyed concurrency, isl, osl (the aggregates' variation_values and the sweep's
// parameters), aggregate folder concurrency_<c>__isl_<i>__osl_<o>. Other recipes keep the sweep's.
void label_recipe_points(const GridRecipe& recipe, std::vector<sweep::Point>& points);

}  // namespace aiperf::cli::search
