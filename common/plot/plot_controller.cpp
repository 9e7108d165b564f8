#include "plot/plot_controller.h"

#include <filesystem>
#include <fstream>

#include "export/client_server.h"
#include "plot/figures.h"
#include "plot/run_data.h"
#include "plot/run_discovery.h"

namespace aiperf::plot {
namespace fs = std::filesystem;

namespace {

// The Client vs Server section of a run's summary as the console shows it, with its notes and warnings.
Table client_server_table(const nlohmann::ordered_json& section) {
  exporting::ClientServerView view = exporting::client_server_view(section);
  Table t;
  t.title = std::move(view.title);
  t.columns = std::move(view.headers);
  t.rows = std::move(view.rows);
  t.notes = std::move(view.notes);
  t.warnings = std::move(view.warnings);
  return t;
}

}  // namespace

std::string plot_output_dir(const PlotRequest& request) {
  if (!request.output.empty()) return request.output;
  const std::string first = request.paths.empty() ? "./artifacts" : request.paths.front();
  return (fs::path(first) / "plots").string();
}

PlotResult make_plots(const PlotRequest& request) {
  PlotRequest req = request;
  if (req.paths.empty()) req.paths = {"./artifacts"};
  PlotResult result;
  result.output_dir = plot_output_dir(req);
  const std::vector<std::string> dirs = find_run_directories(req.paths);
  result.runs = dirs.size();
  result.multi_run = dirs.size() > 1;
  std::vector<std::string> log{std::string("Found ") + std::to_string(dirs.size()) + " unique run directories",
                               std::string("Detected ") + (result.multi_run ? "MULTI_RUN" : "SINGLE_RUN") + " mode: " +
                                   std::to_string(dirs.size()) + " run director" + (dirs.size() == 1 ? "y" : "ies") +
                                   " found"};
  FigureSet set;
  if (result.multi_run) {
    std::vector<RunData> runs;
    for (const std::string& d : dirs) {
      try {
        runs.push_back(load_run(d, false));
      } catch (const DataLoadError& e) {
        result.warnings.push_back("Failed to load run from " + d + ": " + e.what());
      }
    }
    if (runs.empty()) throw DataLoadError("Failed to load any valid profiling runs");
    set = multi_run_figures(runs, req.multi_run_plots.value_or(default_multi_run_plots()));
    result.report.title = "AIPerf multi-run comparison (" + std::to_string(runs.size()) + " runs)";
    result.report.tables.push_back(runs_table(runs));
    for (const RunData& r : runs) result.report.notes.push_back("Run: " + r.dir);
  } else {
    const RunData run = load_run(dirs.front(), true);
    set = single_run_figures(run, req.single_run_plots.value_or(default_single_run_plots()));
    result.report.title = "AIPerf run: " + run.name;
    result.report.notes.push_back("Run: " + run.dir);
    if (run.model != "Unknown") result.report.notes.push_back("Model: " + run.model);
    result.report.tables.push_back(summary_table(run));
    if (!run.client_server.is_null()) result.report.tables.push_back(client_server_table(run.client_server));
  }
  for (const std::string& s : set.skipped) {
    result.warnings.push_back(s);
    result.report.notes.push_back(s);
  }
  fs::create_directories(result.output_dir);
  for (const Figure& f : set.figures) {
    const std::string path = (fs::path(result.output_dir) / (f.id + ".png")).string();
    try {
      render_png(f, req.theme, path);
      result.files.push_back(path);
      log.push_back("Generated " + f.id + ".png");
    } catch (const RenderError& e) {
      result.warnings.push_back(std::string("Failed to generate ") + f.id + ": " + e.what());
    }
  }
  result.report.figures = std::move(set.figures);
  // AIPerf's summary.txt, then our log of what was found, drawn and skipped.
  std::ofstream summary(fs::path(result.output_dir) / "summary.txt");
  summary << "AIPerf Plot Export Summary\n" << std::string(50, '=') << "\n\n"
          << "Generated " << result.files.size() << " plots:\n\n";
  for (const std::string& f : result.files) summary << "  - " << fs::path(f).filename().string() << "\n";
  summary << "\nOutput directory: " << result.output_dir << "\n";
  std::ofstream logf(fs::path(result.output_dir) / "aiperf_plot.log");
  for (const std::string& l : log) logf << "INFO " << l << "\n";
  for (const std::string& w : result.warnings) logf << "WARNING " << w << "\n";
  return result;
}

}  // namespace aiperf::plot
