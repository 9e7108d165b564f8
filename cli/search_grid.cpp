#include "search_grid.h"

#include <algorithm>

namespace aiperf::cli {
namespace {

// The spellings of the options a search sets (one searched option removes all of its names).
const std::vector<std::vector<std::string>>& alias_groups() {
  static const std::vector<std::vector<std::string>> kGroups = {
      {"--request-count", "--num-requests"},
      {"--isl", "--prompt-input-tokens-mean", "--synthetic-input-tokens-mean"},
      {"--osl", "--prompt-output-tokens-mean", "--output-tokens-mean"},
  };
  return kGroups;
}

std::string joined(const std::vector<long long>& values) {
  std::string out;
  for (long long v : values) out += (out.empty() ? "" : ",") + std::to_string(v);
  return out;
}

}  // namespace

std::vector<std::string> drop_options(std::vector<std::string> args, const std::vector<std::string>& names) {
  for (size_t i = 0; i < args.size();) {
    const std::string name = args[i].substr(0, args[i].find('='));
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      ++i;
      continue;
    }
    const size_t n = args[i].find('=') == std::string::npos ? 2 : 1;
    args.erase(args.begin() + static_cast<long>(i), args.begin() + static_cast<long>(std::min(i + n, args.size())));
  }
  return args;
}

bool has_option(const std::vector<std::string>& args, const std::vector<std::string>& names) {
  for (const auto& a : args)
    if (std::find(names.begin(), names.end(), a.substr(0, a.find('='))) != names.end()) return true;
  return false;
}

std::vector<std::string> with_search_value(std::vector<std::string> args, const std::string& option,
                                           const std::string& value) {
  std::vector<std::string> names{option};
  for (const auto& g : alias_groups())
    if (std::find(g.begin(), g.end(), option) != g.end()) names = g;
  args = drop_options(std::move(args), names);
  args.push_back(option);
  args.push_back(value);
  return args;
}

namespace search {

namespace {

// --concurrency's value on the command line (the last one given), if any.
std::optional<std::string> scalar_concurrency(const std::vector<std::string>& args) {
  std::optional<std::string> v;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--concurrency" && i + 1 < args.size()) v = args[i + 1];
    else if (args[i].rfind("--concurrency=", 0) == 0) v = args[i].substr(14);
  }
  return v;
}

// pareto-sweep's concurrencies: the --concurrency list, a single --concurrency, or AIPerf's default.
std::vector<long long> pareto_concurrencies(const sweep::Extracted& given) {
  for (const auto& p : given.parameters)
    if (p.option == "--concurrency") {
      std::vector<long long> out;
      for (const auto& v : p.values) out.push_back(v.get<long long>());
      return out;
    }
  if (const auto v = scalar_concurrency(given.args)) {
    try {
      size_t used = 0;
      const long long c = std::stoll(*v, &used);
      if (used == v->size()) return {c};
    } catch (const std::exception&) {
    }
    throw SearchError("--concurrency: invalid value '" + *v + "' (an integer expected)");
  }
  return {1, 4, 16, 64, 256};
}

}  // namespace

RecipeSweep recipe_sweep(const GridRecipe& g, const sweep::Extracted& given, sweep::SweepType sweep_type) {
  const bool paired = !g.isl_osl_pairs.empty();
  std::vector<std::string> refused;
  for (const auto& p : given.parameters)
    if (!(paired && p.option == "--concurrency")) refused.push_back(magic_list_field(p.path));
  if (!refused.empty()) {
    std::sort(refused.begin(), refused.end());
    std::string listed;
    for (const auto& f : refused) listed += (listed.empty() ? "" : ", ") + py_repr(f);
    throw SearchError("--search-recipe (grid path) is mutually exclusive with magic-list flags [" + listed +
                      "] -- the recipe owns the sweep parameters. Drop the list-shaped flag, or drop --search-recipe "
                      "and configure the sweep by hand.");
  }
  RecipeSweep out;
  out.sweep_type = sweep_type;
  std::vector<std::string> args = given.args;
  std::vector<std::string> one_value;
  std::vector<std::pair<std::string, std::string>> paths;  // option -> the recipe's path (names the folders)
  if (paired) {
    const std::vector<long long> conc = pareto_concurrencies(given);
    if (g.isl_osl_pairs.size() * conc.size() < 2)
      throw SearchError("recipe 'pareto-sweep': a Pareto sweep with a single point is meaningless. Pass at least 2 "
                        "pairs OR at least 2 concurrency values.");
    std::vector<long long> isl, osl, c;
    for (const auto& [i, o] : g.isl_osl_pairs)
      for (long long v : conc) {
        isl.push_back(i);
        osl.push_back(o);
        c.push_back(v);
      }
    args = with_search_value(args, "--isl", joined(isl));
    args = with_search_value(args, "--osl", joined(osl));
    args = with_search_value(args, "--concurrency", joined(c));
    paths = {{"--isl", "datasets.main.prompts.isl"}, {"--osl", "datasets.main.prompts.osl"}};
    out.sweep_type = sweep::SweepType::kZip;  // the pairs stay paired: AIPerf's scenarios, in pair-major order
  } else {
    args = with_search_value(args, g.option, joined(g.values));
    paths.emplace_back(g.option, g.path);
    for (const auto& axis : g.more_axes) {
      args = with_search_value(args, axis.option, joined(axis.values));
      paths.emplace_back(axis.option, axis.path);
    }
    for (const auto& [option, value] : g.fixed) {
      args = with_search_value(args, option, value + ",");
      one_value.push_back(option);
    }
    out.sweep_type = sweep::SweepType::kGrid;
  }
  try {
    out.lists = sweep::extract_lists(args, one_value);
  } catch (const sweep::SweepError& e) {
    throw SearchError(e.what());
  }
  for (auto& p : out.lists.parameters)
    for (const auto& [option, path] : paths)
      if (p.option == option) p.path = path;
  return out;
}

void label_recipe_points(const GridRecipe& g, std::vector<sweep::Point>& points) {
  if (g.isl_osl_pairs.empty()) return;
  for (auto& p : points) {
    nlohmann::json isl, osl, conc;
    for (const auto& [path, v] : p.values) {
      if (path == "datasets.main.prompts.isl") isl = v;
      if (path == "datasets.main.prompts.osl") osl = v;
      if (path == "phases.profiling.concurrency") conc = v;
    }
    const std::string i = sweep::python_str(isl), o = sweep::python_str(osl), c = sweep::python_str(conc);
    p.label = "shape_" + i + "_" + o + "_c" + c;
    // A scenario's values are keyed by name, sorted (its aggregate's variation_values, the
    // sweep's parameters), and its aggregate folder follows them.
    p.values = {{"concurrency", conc}, {"isl", isl}, {"osl", osl}};
    p.aggregate_dir = "concurrency_" + c + "__isl_" + i + "__osl_" + o;
  }
}

}  // namespace search
}  // namespace aiperf::cli
