#include "plot_command.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>

#include "plot/plot_config.h"
#include "plot/plot_controller.h"
#include "plot/run_data.h"
#include "plot/run_discovery.h"
#include "plot/html_report.h"

namespace aiperf::cli {
namespace {

struct PlotArgs {
  std::vector<std::string> positional, paths;
  bool empty_paths = false;
  std::string output, theme = "light", config, host = "127.0.0.1", mlflow_uri, mlflow_run;
  int port = 8050;
  bool verbose = false, dashboard = false, mlflow_upload = false;
};

constexpr const char* kReportName = "report.html";

// Draws, prints what the reference prints, and returns the exit code. Errors from the data
// (paths without runs, unreadable files) are reported with `what` before them.
int make(const plot::PlotRequest& req, bool quiet_summary) {
  plot::PlotResult r = plot::make_plots(req);
  for (const std::string& w : r.warnings) std::cerr << "Warning: " << w << "\n";
  const std::string html = (std::filesystem::path(r.output_dir) / kReportName).string();
  plot::write_html_report(r.report, html);
  const size_t n = r.files.size();
  std::cout << "\nSaved " << n << (n == 1 ? " plot" : " plots") << " to: " << r.output_dir << "\n";
  std::cout << "Report: " << html << "\n";
  if (!quiet_summary) std::cout << "Logs: " << (std::filesystem::path(r.output_dir) / "aiperf_plot.log").string() << "\n";
  return 0;
}

int run_plot(const PlotArgs& a) {
  if (a.dashboard && a.mlflow_upload) {
    std::cerr << "Error: --dashboard and --mlflow-upload are mutually exclusive\n";
    return 2;
  }
  if (a.dashboard) {
    std::cerr << "Error: --dashboard: the interactive Dash dashboard server is not available in this native "
                 "aiperf. `aiperf plot` writes a self-contained interactive HTML report ("
              << kReportName << ", next to the PNGs) that opens offline in any browser; run without --dashboard.\n";
    return 2;
  }
  if (a.mlflow_upload) {
    std::cerr << "Error: --mlflow-upload: uploading plots to MLflow is not supported by this native aiperf; "
                 "the PNGs are written to the output directory for you to upload.\n";
    return 2;
  }
  std::string theme = a.theme;
  std::transform(theme.begin(), theme.end(), theme.begin(), [](unsigned char c) { return std::tolower(c); });
  if (theme != "light" && theme != "dark") {
    std::cerr << "Error: --theme: must be one of light, dark, got '" << a.theme << "'\n";
    return 2;
  }
  plot::PlotRequest req;
  req.paths = a.positional;
  req.paths.insert(req.paths.end(), a.paths.begin(), a.paths.end());
  req.output = a.output;
  req.theme = theme == "dark" ? plot::Theme::Dark : plot::Theme::Light;
  if (!a.config.empty()) {
    try {
      plot::PlotSelection sel = plot::read_plot_config(a.config);
      for (const std::string& n : sel.notes) std::cerr << "Warning: " << n << "\n";
      req.single_run_plots = std::move(sel.single_run);
      req.multi_run_plots = std::move(sel.multi_run);
    } catch (const plot::PlotConfigError& e) {
      std::cerr << "Error: --config: " << e.what() << "\n";
      return 2;
    }
  }
  try {
    return make(req, false);
  } catch (const plot::DiscoveryError& e) {
    std::cerr << "Error: --paths: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "Error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace

std::function<int()> add_plot_command(CLI::App& app) {
  auto a = std::make_shared<PlotArgs>();
  CLI::App* cmd = app.add_subcommand("plot", "Generate PNG plots (and an HTML report) from AIPerf profiling runs");
  cmd->add_option("paths", a->positional, "Paths to profiling run directories (default ./artifacts)");
  cmd->add_option("--paths", a->paths, "Paths to profiling run directories (default ./artifacts)");
  cmd->add_flag("--empty-paths", a->empty_paths, "No paths (the default ./artifacts)");
  cmd->add_option("--output", a->output, "Directory to save generated plots (default <first path>/plots)");
  cmd->add_option("--theme", a->theme, "light or dark")->capture_default_str();
  cmd->add_option("--config", a->config, "Plot configuration YAML: which of the built-in plots to draw");
  cmd->add_flag("--verbose,!--no-verbose", a->verbose, "Show detailed errors");
  cmd->add_flag("--dashboard,!--no-dashboard", a->dashboard, "Dash server (not available: use the HTML report)");
  cmd->add_option("--host", a->host, "Dashboard host (only with --dashboard)")->capture_default_str();
  cmd->add_option("--port", a->port, "Dashboard port (only with --dashboard)")->capture_default_str();
  cmd->add_flag("--mlflow-upload,!--no-mlflow-upload", a->mlflow_upload, "Upload to MLflow (not supported: refused)");
  cmd->add_option("--mlflow-tracking-uri", a->mlflow_uri, "MLflow tracking URI (with --mlflow-upload)");
  cmd->add_option("--mlflow-run-id", a->mlflow_run, "MLflow run id (with --mlflow-upload)");
  return [a]() -> int { return run_plot(*a); };
}

int run_auto_plot(const std::string& artifact_dir, bool plot_required) {
  plot::PlotRequest req;
  req.paths = {artifact_dir};
  try {
    make(req, false);
    return 0;
  } catch (const std::exception& e) {
    if (plot_required) {
      std::cerr << "Error: --plot-required: auto-plot failed for " << artifact_dir << ": " << e.what() << "\n";
      return 1;
    }
    std::cerr << "Warning: auto-plot failed (run artifacts intact at " << artifact_dir << "): " << e.what()
              << ". Re-run `aiperf plot " << artifact_dir << "` manually if needed.\n";
    return 0;
  }
}

}  // namespace aiperf::cli
