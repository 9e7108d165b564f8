#include "accuracy/problems.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <stdexcept>

#include "accuracy/benchmarks.h"
#include "accuracy/py_random.h"
#include "accuracy/recipe_problems.h"

namespace aiperf::accuracy {

using nlohmann::json;
using nlohmann::ordered_json;

ProblemOptions resolve_options(const config::AccuracyConfig& c) {
  ProblemOptions o;
  o.benchmark = c.benchmark.value_or("");
  const BenchmarkInfo* info = find_benchmark(o.benchmark);
  o.tasks = c.tasks;
  o.n_shots = c.n_shots ? *c.n_shots : (info ? info->default_n_shots : 0);
  o.enable_cot = c.enable_cot ? *c.enable_cot : (info && info->default_enable_cot);
  o.system_prompt = c.system_prompt ? *c.system_prompt : (info ? std::string(info->default_system_prompt) : "");
  return o;
}

const std::vector<std::string>& mmlu_subjects() {
  static const std::vector<std::string> kSubjects = {"abstract_algebra",
                                                     "anatomy",
                                                     "astronomy",
                                                     "business_ethics",
                                                     "clinical_knowledge",
                                                     "college_biology",
                                                     "college_chemistry",
                                                     "college_computer_science",
                                                     "college_mathematics",
                                                     "college_medicine",
                                                     "college_physics",
                                                     "computer_security",
                                                     "conceptual_physics",
                                                     "econometrics",
                                                     "electrical_engineering",
                                                     "elementary_mathematics",
                                                     "formal_logic",
                                                     "global_facts",
                                                     "high_school_biology",
                                                     "high_school_chemistry",
                                                     "high_school_computer_science",
                                                     "high_school_european_history",
                                                     "high_school_geography",
                                                     "high_school_government_and_politics",
                                                     "high_school_macroeconomics",
                                                     "high_school_mathematics",
                                                     "high_school_microeconomics",
                                                     "high_school_physics",
                                                     "high_school_psychology",
                                                     "high_school_statistics",
                                                     "high_school_us_history",
                                                     "high_school_world_history",
                                                     "human_aging",
                                                     "human_sexuality",
                                                     "international_law",
                                                     "jurisprudence",
                                                     "logical_fallacies",
                                                     "machine_learning",
                                                     "management",
                                                     "marketing",
                                                     "medical_genetics",
                                                     "miscellaneous",
                                                     "moral_disputes",
                                                     "moral_scenarios",
                                                     "nutrition",
                                                     "philosophy",
                                                     "prehistory",
                                                     "professional_accounting",
                                                     "professional_law",
                                                     "professional_medicine",
                                                     "professional_psychology",
                                                     "public_relations",
                                                     "security_studies",
                                                     "sociology",
                                                     "us_foreign_policy",
                                                     "virology",
                                                     "world_religions"};
  return kSubjects;
}

namespace {

std::string field_string(const json& row, const char* name, const std::string& where) {
  if (!row.is_object() || !row.contains(name) || !row[name].is_string())
    throw DatasetError(where + ": a row has no string field '" + name + "'");
  return row[name].get<std::string>();
}

// MMLU's gold index: an int, or a letter (some copies store "A".."D").
size_t mmlu_gold(const json& row, const std::string& where) {
  const json& a = row.contains("answer") ? row["answer"] : json();
  if (a.is_number_integer() && a.get<int64_t>() >= 0) return static_cast<size_t>(a.get<int64_t>());
  if (a.is_string() && a.get<std::string>().size() == 1 && a.get<std::string>()[0] >= 'A' &&
      a.get<std::string>()[0] <= 'Z')
    return static_cast<size_t>(a.get<std::string>()[0] - 'A');
  throw DatasetError(where + ": a row's 'answer' is neither a choice index nor a letter");
}

std::vector<std::string> mmlu_choices(const json& row, const std::string& where) {
  if (!row.contains("choices") || !row["choices"].is_array())
    throw DatasetError(where + ": a row has no list field 'choices'");
  std::vector<std::string> out;
  for (const auto& c : row["choices"]) {
    if (!c.is_string()) throw DatasetError(where + ": a row's 'choices' are not strings");
    out.push_back(c.get<std::string>());
  }
  return out;
}

// "\nA. first\nB. second..." (zip with the uppercase letters).
std::string choices_block(const std::vector<std::string>& choices) {
  std::string s;
  for (size_t i = 0; i < choices.size() && i < 26; ++i)
    s += "\n" + std::string(1, static_cast<char>('A' + i)) + ". " + choices[i];
  return s;
}

std::string gold_choice(size_t ix, const std::string& where) {
  if (ix >= 4) throw DatasetError(where + ": an answer index is outside A-D");
  return " " + std::string(1, static_cast<char>('A' + ix));
}

std::string mmlu_instruction(const std::string& subject, bool cot) {
  std::string s = "The following are multiple choice questions (with answers) about ";
  for (char c : subject) s += c == '_' ? ' ' : c;
  s += ".";
  if (cot) s += " Think step by step and then output the answer in the format of \"The answer is (X)\" at the end.";
  return s + "\n\n";
}

struct Shot {
  std::string question, choices, answer;
};

void add_mmlu_subject(const ProblemOptions& o, const DatasetLocation& where, const std::string& subject,
                      std::vector<Problem>& out) {
  const std::string repo = "lighteval/mmlu";
  const std::string label = repo + " (config " + subject + ")";
  std::vector<Shot> shots;
  if (o.n_shots > 0) {
    std::string split;
    if (has_split(repo, subject, "dev", where)) split = "dev";
    else if (has_split(repo, subject, "validation", where)) split = "validation";
    if (!split.empty()) {
      const auto source = load_rows(repo, subject, split, where);
      for (size_t i : mmlu_balanced_shots(source, o.n_shots)) {
        const json& r = source[i];
        shots.push_back({field_string(r, "question", label), choices_block(mmlu_choices(r, label)),
                         gold_choice(mmlu_gold(r, label), label)});
      }
    }
  }
  const std::string instruction = mmlu_instruction(subject, o.enable_cot);
  std::string few_shot_text;
  for (size_t i = 0; i < shots.size(); ++i)
    few_shot_text +=
        (i ? "\n\n" : "") + ("Question: " + shots[i].question + shots[i].choices + "\nAnswer:" + shots[i].answer);
  if (!few_shot_text.empty()) few_shot_text += "\n\n";
  for (const json& row : load_rows(repo, subject, "test", where)) {
    const std::string question = field_string(row, "question", label);
    const std::string choices = choices_block(mmlu_choices(row, label));
    const std::string query =
        "Question: " + question + choices + (o.enable_cot ? "\nLet's think step by step.\nAnswer:" : "\nAnswer:");
    Problem p;
    p.prompt = instruction + few_shot_text + query;
    p.messages = ordered_json::array();
    for (size_t i = 0; i < shots.size(); ++i) {
      std::string q = "Question: " + shots[i].question + shots[i].choices + "\nAnswer:";
      if (i == 0) q = instruction + q;
      p.messages.push_back({{"role", "user"}, {"content", q}});
      p.messages.push_back({{"role", "assistant"}, {"content", shots[i].answer}});
    }
    p.messages.push_back({{"role", "user"}, {"content", shots.empty() ? instruction + query : query}});
    p.ground_truth = gold_choice(mmlu_gold(row, label), label);
    p.task = subject;
    p.generation_size = o.enable_cot ? 4000 : 5;
    if (!o.enable_cot) p.stop = {"\n"};
    out.push_back(std::move(p));
  }
}

std::vector<Problem> mmlu_problems(const ProblemOptions& o, const DatasetLocation& where) {
  std::vector<std::string> subjects;
  if (o.tasks.empty() || std::find(o.tasks.begin(), o.tasks.end(), "all") != o.tasks.end()) {
    subjects = mmlu_subjects();
  } else {
    for (const auto& t : o.tasks) {
      if (std::find(mmlu_subjects().begin(), mmlu_subjects().end(), t) == mmlu_subjects().end())
        throw std::invalid_argument("Unknown MMLU subject '" + t +
                                    "'. See docs/accuracy/accuracy-benchmarking.md for the list of 57 valid subjects.");
      subjects.push_back(t);
    }
  }
  std::vector<Problem> out;
  for (const auto& s : subjects) add_mmlu_subject(o, where, s, out);
  return out;
}

const std::vector<std::string>& mmlu_pro_categories() {
  static const std::vector<std::string> kCategories = {
      "biology", "business", "chemistry", "computer science", "economics", "engineering", "health",
      "history", "law",      "math",      "philosophy",       "physics",   "psychology",  "other"};
  return kCategories;
}

// TIGER-AI-Lab's evaluate_from_api.py example: the options without "N/A", lettered A-J.
std::string mmlu_pro_example(const std::string& question, const json& options, std::string cot) {
  if (cot.empty()) cot = "Let's think step by step.";
  if (cot.rfind("A: ", 0) == 0) cot = cot.substr(3);
  std::string s = "Question: " + question + "\nOptions: ";
  size_t i = 0;
  for (const auto& opt : options) {
    if (!opt.is_string() || opt.get<std::string>() == "N/A") continue;
    if (i >= 10) break;
    s += std::string(1, static_cast<char>('A' + i++)) + ". " + opt.get<std::string>() + "\n";
  }
  return s + "Answer: " + cot + "\n\n";
}

std::string answer_text(const json& row, const std::string& label) {
  const json& a = row.contains("answer") ? row["answer"] : json();
  if (a.is_string()) return a.get<std::string>();
  if (a.is_number()) return a.dump();
  throw DatasetError(label + ": a row has no field 'answer'");
}

std::vector<Problem> mmlu_pro_problems(const ProblemOptions& o, const DatasetLocation& where) {
  std::vector<std::string> categories;
  if (o.tasks.empty() || std::find(o.tasks.begin(), o.tasks.end(), "all") != o.tasks.end()) {
    categories = mmlu_pro_categories();
  } else {
    for (const auto& t : o.tasks) {
      if (std::find(mmlu_pro_categories().begin(), mmlu_pro_categories().end(), t) == mmlu_pro_categories().end()) {
        std::string all;
        for (const auto& c : mmlu_pro_categories()) all += (all.empty() ? "" : ", ") + c;
        throw std::invalid_argument("Unknown MMLU-Pro category '" + t + "'. Valid categories: " + all + ".");
      }
      categories.push_back(t);
    }
  }
  const std::string repo = "TIGER-Lab/MMLU-Pro";
  const std::string& label = repo;
  std::map<std::string, std::vector<json>> shots_by_category;
  for (auto& row : load_rows(repo, "", "validation", where))
    shots_by_category[field_string(row, "category", label)].push_back(std::move(row));
  std::vector<Problem> out;
  for (const json& row : load_rows(repo, "", "test", where)) {
    const std::string category = field_string(row, "category", label);
    if (std::find(categories.begin(), categories.end(), category) == categories.end()) continue;
    if (!row.contains("options") || !row["options"].is_array())
      throw DatasetError(label + ": a row has no list field 'options'");
    std::string prompt = "The following are multiple choice questions (with answers) about " + category +
                         (o.enable_cot ? ". Think step by step and then output the answer in the format of \"The "
                                         "answer is (X)\" at the end.\n\n"
                                       : ".\n\n");
    const auto& shots = shots_by_category[category];
    for (size_t i = 0; i < shots.size() && i < static_cast<size_t>(std::max(o.n_shots, 0)); ++i) {
      const json& ex = shots[i];
      const std::string ex_answer = o.enable_cot ? field_string(ex, "cot_content", label) : answer_text(ex, label);
      prompt += mmlu_pro_example(field_string(ex, "question", label), ex.value("options", json::array()), ex_answer);
    }
    if (o.enable_cot) {
      prompt += mmlu_pro_example(field_string(row, "question", label), row["options"], "");
    } else {
      // The bare "Answer: " trailer (AIPerf's non-CoT variant): no primer.
      std::string example = mmlu_pro_example(field_string(row, "question", label), row["options"], "-");
      example.resize(example.size() - std::string("-\n\n").size());
      prompt += example + "\n\n";
    }
    Problem p;
    p.prompt = prompt;
    p.messages = ordered_json::array({{{"role", "user"}, {"content", prompt}}});
    p.ground_truth = answer_text(row, label);
    p.task = category;
    p.generation_size = 4000;
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<Problem> gsm8k_problems(const DatasetLocation& where) {
  std::vector<Problem> out;
  const std::string label = "openai/gsm8k (config main, split test)";
  for (const json& row : load_rows("openai/gsm8k", "main", "test", where)) {
    Problem p;
    p.prompt = "Question: " + field_string(row, "question", label) + "\nAnswer:";
    p.messages = ordered_json::array({{{"role", "user"}, {"content", p.prompt}}});
    const json& a = row.contains("answer") ? row["answer"] : json();
    if (a.is_string()) p.ground_truth = a.get<std::string>();
    else if (a.is_number()) p.ground_truth = a.dump();
    else throw DatasetError(label + ": a row has no field 'answer'");
    p.task = "gsm8k";
    p.generation_size = 256;
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace

std::vector<size_t> mmlu_balanced_shots(const std::vector<json>& source, int n_shots) {
  // Rows grouped by the text of their gold choice; labels in sorted order.
  std::map<std::string, std::vector<size_t>> label_to_indices;
  for (size_t i = 0; i < source.size(); ++i) {
    const auto choices = mmlu_choices(source[i], "lighteval/mmlu");
    const size_t g = mmlu_gold(source[i], "lighteval/mmlu");
    if (g >= choices.size()) throw DatasetError("lighteval/mmlu: an answer index is outside the choices");
    label_to_indices[choices[g]].push_back(i);
  }
  std::map<size_t, std::vector<std::string>> counts_to_labels;  // by count; labels in sorted order
  for (const auto& [label, idx] : label_to_indices) counts_to_labels[idx.size()].push_back(label);
  PyRandom rng(0);
  std::vector<std::string> sorted_labels;
  for (auto it = counts_to_labels.rbegin(); it != counts_to_labels.rend(); ++it) {
    auto labels = it->second;
    rng.shuffle(labels);
    sorted_labels.insert(sorted_labels.end(), labels.begin(), labels.end());
  }
  std::vector<size_t> result;
  size_t remaining = std::min(source.size(), static_cast<size_t>(n_shots) + 1);
  size_t cursor = 0;
  while (remaining > 0 && !sorted_labels.empty()) {
    auto& pool = label_to_indices[sorted_labels[cursor++ % sorted_labels.size()]];
    if (pool.empty()) continue;
    const size_t idx = static_cast<size_t>(rng.randbelow(pool.size()));
    result.push_back(pool[idx]);
    pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(idx));
    --remaining;
  }
  if (result.size() > static_cast<size_t>(n_shots)) result.resize(static_cast<size_t>(n_shots));
  return result;
}

std::vector<Problem> build_problems(const ProblemOptions& o, const DatasetLocation& where) {
  std::vector<Problem> problems;
  if (o.benchmark == "mmlu") problems = mmlu_problems(o, where);
  else if (o.benchmark == "gsm8k") problems = gsm8k_problems(where);
  else if (o.benchmark == "mmlu_pro") problems = mmlu_pro_problems(o, where);
  else if (o.benchmark == "aime") problems = aime_problems(o, where);
  else if (o.benchmark == "aime24" || o.benchmark == "aime25") problems = aime_year_problems(o.benchmark, where);
  else if (o.benchmark == "math_500") problems = math500_problems(where);
  else if (o.benchmark == "gpqa_diamond") problems = gpqa_diamond_problems(where);
  else throw std::invalid_argument("--accuracy-benchmark " + o.benchmark + " is not supported by this native aiperf");
  // The reference's loader: the system prompt leads the messages and the flat prompt.
  if (!o.system_prompt.empty()) {
    for (auto& p : problems) {
      p.messages.insert(p.messages.begin(), ordered_json{{"role", "system"}, {"content", o.system_prompt}});
      p.prompt = o.system_prompt + "\n\n" + p.prompt;
    }
  }
  return problems;
}

std::string problem_conversation_id(const std::string& benchmark_id, std::optional<uint64_t> random_seed,
                                    size_t index) {
  if (random_seed) {
    char id[32];
    std::snprintf(id, sizeof id, "session_%06zu", index);
    return id;
  }
  // Two FNV-1a 64-bit hashes of (benchmark id, index), laid out as a version-4 UUID.
  auto fnv = [&](uint64_t h) {
    for (unsigned char c : benchmark_id) h = (h ^ c) * 1099511628211ULL;
    for (int k = 0; k < 8; ++k) h = (h ^ ((index >> (8 * k)) & 0xff)) * 1099511628211ULL;
    return h;
  };
  const uint64_t a = fnv(14695981039346656037ULL), b = fnv(0x84222325cbf29ce4ULL);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%08x-%04x-4%03x-%04x-%012llx", static_cast<unsigned>(a >> 32),
                static_cast<unsigned>((a >> 16) & 0xffff), static_cast<unsigned>(a & 0xfff),
                static_cast<unsigned>(0x8000 | ((b >> 48) & 0x3fff)),
                static_cast<unsigned long long>(b & 0xffffffffffffULL));
  return buf;
}

}  // namespace aiperf::accuracy
