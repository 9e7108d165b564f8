#include "public_datasets.h"

#include <cctype>

namespace aiperf::dataset {

namespace {

constexpr std::string_view kBlazeditTemplate =
    "Given a code file, please apply the change requests and generate the new file.\n\nOriginal file:\n"
    "```python\n{code}\n```\n\nChange request:\n{change_request}\n\nPlease generate the new code file in the "
    "\"New file\" section below.";

PublicDatasetInfo instruction(std::string_view name, std::string_view repo, std::string_view subset,
                              std::string_view split, std::string_view column, std::string_view tmpl = {},
                              std::string_view image = {}, bool supported = true) {
  return {name, PublicFamily::kInstruction, repo, subset, split, column, tmpl, image, supported};
}

PublicDatasetInfo other(std::string_view name, PublicFamily family, std::string_view repo, std::string_view subset,
                        std::string_view split, std::string_view image = {}) {
  return {name, family, repo, subset, split, {}, {}, image, false};
}

std::vector<PublicDatasetInfo> make_registry() {
  using F = PublicFamily;
  std::vector<PublicDatasetInfo> r = {
      other("exgentic_v2", F::kExgentic, "Exgentic/agent-llm-traces-v2", "", "train"),
      other("exgentic", F::kExgentic, "Exgentic/agent-llm-traces", "", "train"),
      {"sharegpt", F::kShareGpt, "", "", "", "", "", "", true},
      instruction("aimo", "AI-MO/NuminaMath-TIR", "", "train", "problem"),
      // Images need the HF image feature decoded and re-encoded as JPEG, as AIPerf sends them.
      instruction("mmstar", "Lin-Chen/MMStar", "", "val", "question", {}, "image", false),
      other("mmvu", F::kMmvu, "yale-nlp/MMVU", "", "validation"),
      other("vision_arena", F::kConversation, "lmarena-ai/VisionArena-Chat", "", "train", "images"),
      other("llava_onevision", F::kConversation, "lmms-lab/LLaVA-OneVision-Data", "sharegpt4o", "train", "image"),
      instruction("aimo_aime", "AI-MO/aimo-validation-aime", "", "train", "problem"),
      instruction("aimo_numina_cot", "AI-MO/NuminaMath-CoT", "", "train", "problem"),
      instruction("aimo_numina_1_5", "AI-MO/NuminaMath-1.5", "", "train", "problem"),
      {"spec_bench", F::kSpecBench, "", "", "", "", "", "", true},
      instruction("spec_al_gsm8k", "openai/gsm8k", "main", "test", "question"),
      instruction("spec_al_math500", "HuggingFaceH4/MATH-500", "", "test", "problem"),
      instruction("spec_al_humaneval", "openai/openai_humaneval", "", "test", "prompt"),
      instruction("spec_al_mbpp", "google-research-datasets/mbpp", "full", "test", "text"),
      {"spec_al_mtbench", F::kMtBench, "HuggingFaceH4/mt_bench_prompts", "", "train", "", "", "", true},
      instruction("instruct_coder", "likaixin/InstructCoder", "", "train", "instruction"),
      instruction("blazedit_5k", "vdaita/edit_5k_char", "", "train", "change_request", kBlazeditTemplate),
      instruction("blazedit_10k", "vdaita/edit_10k_char", "", "train", "change_request", kBlazeditTemplate),
      other("librispeech", F::kAsr, "openslr/librispeech_asr", "clean", "test"),
      other("voxpopuli", F::kAsr, "facebook/voxpopuli", "en", "test"),
      other("gigaspeech", F::kAsr, "speechcolab/gigaspeech", "xs", "test"),
      other("ami", F::kAsr, "edinburghcstr/ami", "ihm", "test"),
      other("spgispeech", F::kAsr, "kensho/spgispeech", "test", "test"),
  };
  // The SemiAnalysis weka corpora: one repo each (weka_hf takes it from --hf-weka-dataset).
  const std::pair<std::string_view, std::string_view> weka[] = {
      {"semianalysis_cc_traces_weka", "semianalysisai/cc-traces-weka-no-subagents-051826"},
      {"semianalysis_cc_traces_weka_no_subagents", "semianalysisai/cc-traces-weka-no-subagents-051826"},
      {"semianalysis_cc_traces_weka_with_subagents", "semianalysisai/cc-traces-weka-062126"},
      {"semianalysis_cc_traces_weka_with_subagents_256k", "semianalysisai/cc-traces-weka-062126-256k"},
      {"semianalysis_cc_traces_weka_with_subagents_060226", "semianalysisai/cc-traces-weka-with-subagents-060226"},
      {"semianalysis_cc_traces_weka_with_subagents_060226_256k",
       "semianalysisai/cc-traces-weka-with-subagents-060226-256k"},
      {"semianalysis_cc_traces_weka_with_subagents_060526", "semianalysisai/cc-traces-weka-with-subagents-060526"},
      {"semianalysis_cc_traces_weka_with_subagents_060526_256k",
       "semianalysisai/cc-traces-weka-with-subagents-060526-256k"},
      {"semianalysis_cc_traces_weka_with_subagents_060826", "semianalysisai/cc-traces-weka-with-subagents-060826"},
      {"semianalysis_cc_traces_weka_with_subagents_060826_256k",
       "semianalysisai/cc-traces-weka-with-subagents-060826-256k"},
      {"semianalysis_cc_traces_weka_061326", "semianalysisai/cc-traces-weka-061326"},
      {"semianalysis_cc_traces_weka_061326_256k", "semianalysisai/cc-traces-weka-061326-256k"},
      {"semianalysis_cc_traces_weka_061526", "semianalysisai/cc-traces-weka-061526"},
      {"semianalysis_cc_traces_weka_061526_256k", "semianalysisai/cc-traces-weka-061526-256k"},
      {"semianalysis_cc_traces_weka_062126", "semianalysisai/cc-traces-weka-062126"},
      {"semianalysis_cc_traces_weka_062126_256k", "semianalysisai/cc-traces-weka-062126-256k"},
      {"weka_hf", ""},
  };
  for (const auto& [name, repo] : weka) r.push_back({name, F::kWekaTrace, repo, "", "train", {}, {}, {}, true});
  return r;
}

std::string normalized(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = c == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

const std::vector<PublicDatasetInfo>& public_datasets() {
  static const std::vector<PublicDatasetInfo> registry = make_registry();
  return registry;
}

const PublicDatasetInfo* find_public_dataset(std::string_view name) {
  const std::string key = normalized(name);
  for (const auto& d : public_datasets())
    if (d.name == key) return &d;
  return nullptr;
}

std::string supported_public_datasets() {
  std::string out;
  for (const auto& d : public_datasets())
    if (d.supported) out += (out.empty() ? "" : ", ") + std::string(d.name);
  return out;
}

}  // namespace aiperf::dataset
