#include "plot/plot_config.h"

#include <yaml-cpp/yaml.h>

#include <fstream>

#include "plot/figures.h"

namespace aiperf::plot {

namespace {
std::vector<std::string> names(const YAML::Node& list, const std::string& path, const std::string& key,
                               const std::vector<std::string>& fallback) {
  if (!list) return fallback;
  if (list.IsNull()) return {};
  if (!list.IsSequence())
    throw PlotConfigError(path + ": visualization." + key + ": expected a list of plot names");
  std::vector<std::string> out;
  for (const YAML::Node& n : list) {
    if (!n.IsScalar())
      throw PlotConfigError(path + ": visualization." + key + ": expected a list of plot names (line " +
                            std::to_string(n.Mark().line + 1) + ")");
    out.push_back(n.as<std::string>());
  }
  return out;
}
}  // namespace

PlotSelection read_plot_config(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw PlotConfigError(path + ": cannot be read");
  YAML::Node root;
  try {
    root = YAML::Load(in);
  } catch (const YAML::Exception& e) {
    throw PlotConfigError(path + ": line " + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  PlotSelection sel;
  const YAML::Node vis = root.IsMap() ? root["visualization"] : YAML::Node();
  if (vis && !vis.IsMap()) throw PlotConfigError(path + ": visualization: expected a mapping");
  sel.single_run = names(vis ? vis["single_run_defaults"] : YAML::Node(), path, "single_run_defaults",
                         default_single_run_plots());
  sel.multi_run = names(vis ? vis["multi_run_defaults"] : YAML::Node(), path, "multi_run_defaults",
                        default_multi_run_plots());
  if (vis && (vis["single_run_plots"] || vis["multi_run_plots"]))
    sel.notes.push_back(path + ": the presets' settings (single_run_plots, multi_run_plots) are not read: "
                               "the built-in presets are drawn as AIPerf defines them");
  if (root.IsMap() && root["experiment_classification"])
    sel.notes.push_back(path + ": experiment_classification is not supported: runs are grouped by model");
  return sel;
}

}  // namespace aiperf::plot
