#include "config_command.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "config_file.h"
#include "config_templates.h"
#include "sweep_plan.h"

namespace aiperf::cli {
namespace {

namespace cf = config_file;
namespace tpl = config_templates;

struct ConfigArgs {
  std::string template_name, search, category, model, url, output;
  bool list = false, verbose = false;
  std::string file;
  bool full = false;
  std::optional<int> index;
  std::string format = "text";
};

// Greedy word wrap of `text` to `width` columns.
std::vector<std::string> wrap(const std::string& text, size_t width) {
  std::vector<std::string> lines;
  std::string line, word;
  std::istringstream in(text);
  while (in >> word) {
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      lines.push_back(line);
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

std::string pad(const std::string& s, size_t width) { return s.size() >= width ? s : s + std::string(width - s.size(), ' '); }

// The listing: one table per category, as the reference prints it (80 columns).
void print_list(const std::vector<const tpl::Template*>& items, bool verbose) {
  std::vector<std::string> categories;
  for (const auto* t : items)
    if (std::find(categories.begin(), categories.end(), t->category) == categories.end()) categories.push_back(t->category);
  const std::vector<size_t> widths = verbose ? std::vector<size_t>{28, 17, 17, 18} : std::vector<size_t>{28, 27, 25};
  bool first = true;
  for (const std::string& cat : categories) {
    if (!first) std::cout << "\n";
    first = false;
    const size_t total = 80;
    const size_t left = cat.size() < total ? (total - cat.size()) / 2 : 0;
    std::cout << pad(std::string(left, ' ') + cat, total) << "\n";
    std::vector<std::string> head{"Name", "Title", "Description"};
    if (verbose) head.push_back("Tags");
    for (size_t i = 0; i < head.size(); ++i) std::cout << pad(head[i], widths[i]);
    std::cout << "\n";
    for (const auto* t : items) {
      if (t->category != cat) continue;
      std::vector<std::vector<std::string>> cols{{t->name}, wrap(t->title, widths[1] - 1), wrap(t->description, widths[2])};
      if (verbose) cols.push_back(wrap(t->tags, widths[3] - 1));
      size_t rows = 0;
      for (const auto& c : cols) rows = std::max(rows, c.size());
      for (size_t r = 0; r < rows; ++r) {
        std::string line;
        for (size_t i = 0; i < cols.size(); ++i) line += pad(r < cols[i].size() ? cols[i][r] : "", widths[i]);
        std::cout << pad(line, 80) << "\n";
      }
    }
  }
  std::cout << "\nUse 'aiperf config init --template <name>' to generate a template.\n";
}

int run_init(const ConfigArgs& a) {
  if (a.list || !a.search.empty()) {
    std::vector<const tpl::Template*> items;
    std::string needle = a.search;
    std::transform(needle.begin(), needle.end(), needle.begin(), [](unsigned char c) { return std::tolower(c); });
    for (const auto& t : tpl::all()) {
      std::string hay = t.name + " " + t.title + " " + t.description + " " + t.tags + " " + t.category;
      std::transform(hay.begin(), hay.end(), hay.begin(), [](unsigned char c) { return std::tolower(c); });
      if (!a.category.empty() && t.category != a.category) continue;
      if (!needle.empty() && hay.find(needle) == std::string::npos) continue;
      items.push_back(&t);
    }
    if (items.empty()) {
      if (!needle.empty())
        std::cout << "No templates match '" << a.search << "'.\nRun 'aiperf config init --list' to see all templates.\n";
      else
        std::cout << "No templates in category '" << a.category << "'.\n";
      return 0;
    }
    print_list(items, a.verbose);
    return 0;
  }
  if (a.template_name.empty()) {
    std::cerr << "Specify a template with --template, or run 'aiperf config init --list' to see what is available.\n";
    return 2;
  }
  const tpl::Template* t = tpl::find(a.template_name);
  if (t == nullptr) {
    std::string names;
    for (const auto& x : tpl::all()) names += (names.empty() ? "" : ", ") + x.name;
    std::cerr << "Error: \"Unknown template '" << a.template_name << "'. Available templates: " << names << "\"\n";
    return 1;
  }
  const std::string content = tpl::apply_overrides(t->body, a.model, a.url);
  if (a.output.empty()) {
    std::cout << content;
    return 0;
  }
  const std::filesystem::path out(a.output);
  std::error_code ec;
  if (out.has_parent_path()) std::filesystem::create_directories(out.parent_path(), ec);
  std::ofstream f(out, std::ios::binary);
  f << content;
  f.close();
  if (!f) {
    std::cerr << "Error: cannot write " << a.output << "\n";
    return 1;
  }
  std::cout << "Wrote " << t->name << " template to " << a.output << "\n";
  return 0;
}

// The file's options as `aiperf profile` words, checked as a run would check them.
struct Loaded {
  cf::Translation translation;
  sweep::Extracted extracted;
  std::vector<sweep::Point> points;
};

Loaded load(const std::string& file, const ProfileArgsCheck& check) {
  Loaded l;
  l.translation = cf::translate_file(file, cf::process_env());
  std::vector<std::string> argv{"aiperf", "profile"};
  const std::vector<std::string> words = cf::to_args(l.translation);
  argv.insert(argv.end(), words.begin(), words.end());
  l.extracted = sweep::extract_lists(argv, cf::swept_options(l.translation));
  cf::retype_sweep(l.translation, l.extracted);
  if (!l.extracted.parameters.empty())
    l.points = sweep::expand(l.extracted.parameters,
                             l.translation.has_sweep ? l.translation.sweep_type : sweep::SweepType::kGrid);
  try {
    check(words);
  } catch (const std::exception& e) {
    throw cf::ConfigFileError(cf::annotate(e.what(), l.translation));
  }
  return l;
}

int run_validate(const ConfigArgs& a, const ProfileArgsCheck& check) {
  try {
    Loaded l = load(a.file, check);
    for (const std::string& w : l.translation.warnings) std::cerr << "Warning: " << w << "\n";
    if (l.translation.warnings.empty()) {
      std::cout << "Configuration valid: " << a.file << "\n";
    } else {
      const size_t n = l.translation.warnings.size();
      std::cout << "Configuration valid with " << n << " warning" << (n == 1 ? "" : "s") << ": " << a.file << "\n";
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "Error: " << e.what() << "\n";
    return 1;
  }
}

// A YAML plain or quoted scalar for the expand listing.
std::string yaml_scalar(const nlohmann::json& v) {
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    const bool plain = !s.empty() && s.find(": ") == std::string::npos && s.find(" #") == std::string::npos &&
                       std::string("!&*{}[]|>'\"%@`#-?:,").find(s[0]) == std::string::npos;
    return plain ? s : nlohmann::json(s).dump();
  }
  return sweep::python_str(v);
}

int run_expand(const ConfigArgs& a, const ProfileArgsCheck& check) {
  Loaded l;
  try {
    l = load(a.file, check);
  } catch (const std::exception& e) {
    std::cerr << "Error: " << e.what() << "\n";
    return 1;
  }
  const bool swept = !l.points.empty();
  const std::string type = !swept                                               ? "none"
                           : l.translation.sweep_type == sweep::SweepType::kZip ? "ZipSweep"
                                                                                : "GridSweep";
  struct Entry {
    size_t index;
    std::string dir, label;
    nlohmann::json values;
    std::vector<std::string> args;
  };
  std::vector<Entry> entries;
  if (!swept) {
    entries.push_back({0, "base", "base", nlohmann::json::object(), cf::to_args(l.translation)});
  } else {
    for (const auto& p : l.points) {
      nlohmann::json values = nlohmann::json::object();
      for (const auto& [path, value] : p.values) values[path] = value;
      std::vector<std::string> args = sweep::point_args(l.extracted, p);
      args.erase(args.begin(), args.begin() + 2);  // "aiperf profile"
      entries.push_back({p.index, p.dir_name, p.label, values, args});
    }
  }
  const size_t total = entries.size();
  bool full = a.full;
  if (a.index) {
    if (*a.index < 0 || static_cast<size_t>(*a.index) >= total) {
      std::cerr << "Error: --index " << *a.index << " out of range; sweep has " << total << " variation(s).\n";
      return 1;
    }
    entries = {entries[static_cast<size_t>(*a.index)]};
    full = true;
  }
  auto command = [](const std::vector<std::string>& args) {
    std::string s = "aiperf profile";
    for (const auto& w : args) s += " " + (w.find_first_of(" \"'$") == std::string::npos ? w : nlohmann::json(w).dump());
    return s;
  };
  if (a.format == "text") {
    if (entries.size() == total)
      std::cout << "Sweep type: " << type << " (" << total << " variation" << (total == 1 ? "" : "s") << ")\n\n";
    else
      std::cout << "Sweep type: " << type << " (showing " << entries.size() << " of " << total << ")\n\n";
    for (const auto& e : entries) {
      std::cout << "[" << e.index << "] dir=" << e.dir << "  label=" << e.label << "\n";
      if (full) std::cout << "    " << command(e.args) << "\n\n";
    }
    return 0;
  }
  nlohmann::ordered_json doc;
  doc["sweep_type"] = type;
  doc["variations"] = nlohmann::ordered_json::array();
  for (const auto& e : entries) {
    nlohmann::ordered_json v;
    v["index"] = e.index;
    v["dir_name"] = e.dir;
    v["label"] = e.label;
    v["values"] = e.values;
    if (full) v["command"] = command(e.args);
    doc["variations"].push_back(v);
  }
  if (a.format == "json") {
    std::cout << doc.dump(2) << "\n";
    return 0;
  }
  std::cout << "sweep_type: " << type << "\nvariations:\n";
  for (const auto& v : doc["variations"]) {
    std::cout << "- index: " << v["index"].get<size_t>() << "\n  dir_name: " << yaml_scalar(v["dir_name"])
              << "\n  label: " << yaml_scalar(v["label"]) << "\n  values:";
    if (v["values"].empty()) std::cout << " {}";
    std::cout << "\n";
    for (const auto& [k, x] : v["values"].items()) std::cout << "    " << k << ": " << yaml_scalar(x) << "\n";
    if (v.contains("command")) std::cout << "  command: " << yaml_scalar(v["command"]) << "\n";
  }
  return 0;
}

}  // namespace

std::function<int()> add_config_command(CLI::App& app, ProfileArgsCheck check) {
  auto a = std::make_shared<ConfigArgs>();
  CLI::App* config = app.add_subcommand("config", "Configuration scaffolding commands (YAML configs)");
  config->require_subcommand(1);
  CLI::App* init = config->add_subcommand("init", "Generate, list, or search the bundled config templates");
  init->add_option("-t,--template", a->template_name, "Template name to generate (e.g. 'minimal')");
  init->add_flag("-l,--list", a->list, "List bundled templates and exit");
  init->add_option("-s,--search", a->search, "Filter templates by keyword");
  init->add_option("-c,--category", a->category, "Filter --list by category");
  init->add_flag("-v,--verbose", a->verbose, "Show the tags column");
  init->add_option("-m,--model", a->model, "Override the template's model name");
  init->add_option("-u,--url", a->url, "Override the template's endpoint URL");
  init->add_option("-o,--output", a->output, "Write to file instead of stdout");
  CLI::App* validate = config->add_subcommand("validate", "Validate a config file (exit 1 when invalid)");
  validate->add_option("config_file,--config-file", a->file, "Path to an AIPerf YAML config")->required();
  CLI::App* expand = config->add_subcommand("expand", "Expand a sweep config and print its variations");
  expand->add_option("config_file,--config-file", a->file, "Path to an AIPerf YAML config with a sweep: block")->required();
  expand->add_flag("-F,--full,!--no-full", a->full, "Also print each variation's aiperf profile command");
  expand->add_option_function<int>("-i,--index", [a](const int& i) { a->index = i; },
                                   "Show only the variation at this zero-based index (implies --full)");
  expand->add_option("-f,--format", a->format, "Output format: text, yaml or json")
      ->check(CLI::IsMember({"text", "yaml", "json"}));
  return [a, init, validate, expand, check]() {
    if (*init) return run_init(*a);
    if (*validate) return run_validate(*a, check);
    if (*expand) return run_expand(*a, check);
    return 2;
  };
}

}  // namespace aiperf::cli
