#include "variant_sweep.h"

#include <algorithm>

namespace aiperf::cli::variants {
namespace {

std::string kebab(std::string key) {
  std::replace(key.begin(), key.end(), '_', '-');
  return key;
}

// Python's repr of a list of str: ['a', 'b'].
std::string py_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", '" : "'") + items[i] + "'";
  return out + "]";
}

bool is_true(const std::string& v) {
  std::string l = v;
  for (char& c : l) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return l == "true" || l == "1" || l == "yes" || l == "on";
}

// The argv tokens of `opt` removed: `--name value`, `--name=value`, `-x value` and bare flags.
std::vector<std::string> without_option(const std::vector<std::string>& args, const CLI::Option& opt) {
  std::vector<std::string> names;
  for (const std::string& n : opt.get_lnames()) names.push_back("--" + n);
  for (const std::string& n : opt.get_snames()) names.push_back("-" + n);
  const bool takes_value = opt.get_expected_max() > 0;
  std::vector<std::string> out;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const std::string head = a.substr(0, a.find('='));
    if (std::find(names.begin(), names.end(), head) == names.end()) {
      out.push_back(a);
      continue;
    }
    if (takes_value && a.find('=') == std::string::npos) ++i;  // and its value
  }
  return out;
}

}  // namespace

void integers_as_typed(nlohmann::json& diff, const Variant& v) {
  std::vector<long long> typed;
  for (const auto& [key, value] : v.pairs) {
    const size_t digits = value.find_first_not_of("0123456789", value.rfind('-', 0) == 0 ? 1 : 0);
    if (digits == std::string::npos && value != "-" && !value.empty()) {
      try {
        typed.push_back(std::stoll(value));
      } catch (const std::exception&) {
        // beyond long long: stays as the config types it
      }
    }
  }
  if (diff.is_structured()) {
    for (auto& child : diff) integers_as_typed(child, v);
  } else if (diff.is_number_float()) {
    const double d = diff.get<double>();
    for (long long t : typed)
      if (d == static_cast<double>(t)) diff = t;
  }
}

std::vector<std::string> variant_args(const std::vector<std::string>& base_args, const Variant& v,
                                      const std::string& raw, const CLI::App& profile_cmd) {
  std::vector<std::string> unknown;
  for (const auto& [key, value] : v.pairs)
    if (profile_cmd.get_option_no_throw("--" + kebab(key)) == nullptr) unknown.push_back(key);
  if (!unknown.empty()) {
    std::sort(unknown.begin(), unknown.end());
    throw OptionError("--variant '" + raw + "': unknown key(s) " + py_list(unknown) +
                      ". Any aiperf profile option (without --) is accepted as a key.");
  }
  std::vector<std::string> args = base_args;
  for (const auto& [key, value] : v.pairs) {
    const CLI::Option* opt = profile_cmd.get_option_no_throw("--" + kebab(key));
    args = without_option(args, *opt);
    if (opt->get_expected_max() > 0) {
      args.insert(args.end(), {"--" + kebab(key), value});
    } else if (is_true(value)) {
      args.push_back("--" + kebab(key));
    } else {
      // A flag set to false: its negation when it has one ("--no-x"), else left out.
      for (const std::string& name : opt->get_lnames())
        if (name.rfind("no-", 0) == 0) {
          args.push_back("--" + name);
          break;
        }
    }
  }
  return args;
}

nlohmann::json benchmark_diff(const nlohmann::json& base, const nlohmann::json& over) {
  using nlohmann::json;
  if (base.is_object() && over.is_object()) {
    json out = json::object();
    for (const auto& [k, v] : over.items()) {
      if (!base.contains(k)) out[k] = v;
      else if (base[k] != v) out[k] = benchmark_diff(base[k], v);
    }
    return out;
  }
  const auto named = [](const json& list) {
    return list.is_array() && std::all_of(list.begin(), list.end(), [](const json& item) {
             return item.is_object() && item.contains("name") && item["name"].is_string();
           });
  };
  if (named(base) && named(over) && !over.empty()) {
    json out = json::array();
    for (const json& item : over) {
      const auto match =
          std::find_if(base.begin(), base.end(), [&item](const json& b) { return b["name"] == item["name"]; });
      if (match == base.end()) {
        out.push_back(item);
      } else if (*match != item) {
        json d = benchmark_diff(*match, item);
        d["name"] = item["name"];
        out.push_back(d);
      }
    }
    return out;
  }
  return over;
}

}  // namespace aiperf::cli::variants
