#include "accuracy/recipe_problems.h"

#include <openssl/sha.h>

#include <algorithm>
#include <stdexcept>

#include "accuracy/py_random.h"

namespace aiperf::accuracy {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

constexpr int kRecipeGenerationSize = 32768;
constexpr int kAimeMaxShots = 8;

// Python's str() of a dataset value.
std::string py_str(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "None";
  if (v.is_boolean()) return v.get<bool>() ? "True" : "False";
  return v.dump();
}

const json& member(const json& row, const char* name, const std::string& label) {
  if (!row.is_object() || !row.contains(name)) throw DatasetError(label + ": a row has no field '" + name + "'");
  return row[name];
}

std::string text_member(const json& row, const char* name, const std::string& label) {
  const json& v = member(row, name, label);
  if (!v.is_string()) throw DatasetError(label + ": a row's '" + name + "' is not a string");
  return v.get<std::string>();
}

// row.get(name) or fallback
std::string get_or(const json& row, const char* name, const std::string& fallback) {
  if (!row.is_object() || !row.contains(name)) return fallback;
  const json& v = row[name];
  if (v.is_null() || (v.is_string() && v.get<std::string>().empty())) return fallback;
  return py_str(v);
}

Problem single_message(std::string prompt, std::string ground_truth, std::string task) {
  Problem p;
  p.messages = ordered_json::array({{{"role", "user"}, {"content", prompt}}});
  p.prompt = std::move(prompt);
  p.ground_truth = std::move(ground_truth);
  p.task = std::move(task);
  p.generation_size = kRecipeGenerationSize;
  return p;
}

}  // namespace

std::vector<Problem> aime_problems(const ProblemOptions& o, const DatasetLocation& where) {
  if (o.n_shots > kAimeMaxShots)
    throw std::invalid_argument("AIME supports at most 8 few-shot examples (got " + std::to_string(o.n_shots) +
                                "). The trt-llm reference asserts ``n_shots <= 8``; raise that limit upstream first.");
  const std::string label = "Maxwell-Jia/AIME_2024 (split train)";
  const std::vector<json> rows = load_rows("Maxwell-Jia/AIME_2024", "", "train", where);
  // The recipe's AIMETemplate: the header and the first n rows as examples (solutions with CoT).
  std::string shots;
  for (size_t i = 0; i < rows.size() && i < static_cast<size_t>(std::max(o.n_shots, 0)); ++i) {
    if (i == 0)
      shots +=
          "The following are problems from the American Invitational Mathematics Examination (AIME) 2024. "
          "AIME is a prestigious high school mathematics competition known for its challenging mathematical "
          "problems.\n\n";
    shots += "**Problem**: " + text_member(rows[i], "Problem", label) + "\n";
    if (o.enable_cot) shots += "**Solution**: " + get_or(rows[i], "Solution", "") + "\n";
    shots += "**Answer**: " + py_str(member(rows[i], "Answer", label)) + "\n\n";
  }
  std::vector<Problem> out;
  for (const json& row : rows) {
    std::string prompt = shots + "**Problem**: " + text_member(row, "Problem", label) + "\n**Answer**: \n\n" +
                         (o.enable_cot ? "Let's think step-by-step." : "No explanation needed. Just return a number.");
    out.push_back(single_message(std::move(prompt), py_str(member(row, "Answer", label)), "aime"));
  }
  return out;
}

std::vector<Problem> aime_year_problems(const std::string& benchmark, const DatasetLocation& where) {
  const std::string repo = benchmark == "aime24" ? "HuggingFaceH4/aime_2024" : "yentinglin/aime_2025";
  const std::string label = repo + " (split train)";
  std::vector<Problem> out;
  for (const json& row : load_rows(repo, "", "train", where))
    out.push_back(single_message(text_member(row, "problem", label), py_str(member(row, "answer", label)), benchmark));
  return out;
}

std::vector<Problem> math500_problems(const DatasetLocation& where) {
  const std::string label = "HuggingFaceH4/MATH-500 (split test)";
  std::vector<Problem> out;
  for (const json& row : load_rows("HuggingFaceH4/MATH-500", "", "test", where))
    out.push_back(single_message(text_member(row, "problem", label), get_or(row, "solution", ""),
                                 get_or(row, "subject", "math_500")));
  return out;
}

std::vector<int> gpqa_choice_order(const std::string& question) {
  unsigned char md[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(question.data()), question.size(), md);
  // int(hexdigest, 16) % 2**32: the digest's last four bytes, big-endian.
  const uint32_t seed = (static_cast<uint32_t>(md[28]) << 24) | (static_cast<uint32_t>(md[29]) << 16) |
                        (static_cast<uint32_t>(md[30]) << 8) | static_cast<uint32_t>(md[31]);
  PyRandom rng(seed);
  std::vector<int> order = {0, 1, 2, 3};
  rng.shuffle(order);
  return order;
}

std::vector<Problem> gpqa_diamond_problems(const DatasetLocation& where) {
  const std::string label = "Idavidrein/gpqa (config gpqa_diamond, split train)";
  std::vector<Problem> out;
  for (const json& row : load_rows("Idavidrein/gpqa", "gpqa_diamond", "train", where)) {
    const std::string question = text_member(row, "Question", label);
    const std::string raw[4] = {
        py_str(member(row, "Correct Answer", label)), py_str(member(row, "Incorrect Answer 1", label)),
        py_str(member(row, "Incorrect Answer 2", label)), py_str(member(row, "Incorrect Answer 3", label))};
    const std::vector<int> order = gpqa_choice_order(question);
    std::string prompt =
        "Answer the following multiple choice question. The last line of your response should be of the following "
        "format: 'Answer: $LETTER' (without quotes) where LETTER is one of ABCD. Think step by step before "
        "answering.\n\n" +
        question + "\n\n";
    std::string gold;
    for (int k = 0; k < 4; ++k) {
      const char letter = static_cast<char>('A' + k);
      prompt += std::string(1, letter) + ") " + raw[order[static_cast<size_t>(k)]] + (k < 3 ? "\n" : "");
      if (order[static_cast<size_t>(k)] == 0) gold = std::string(1, letter);
    }
    out.push_back(single_message(std::move(prompt), gold, "gpqa_diamond"));
  }
  return out;
}

}  // namespace aiperf::accuracy
