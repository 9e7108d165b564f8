// Corpus: the text synthetic prompts are cut from. AIPerf cuts from Shakespeare; we generate
// English-like prose from a built-in word list with a fixed seed, so the corpus is the same
// on every machine, needs no data file and carries no license.
#pragma once
#include <string>

namespace aiperf::dataset {

// About `words` words of sentences; identical output for identical `words`.
std::string generate_corpus(size_t words = 60000);

}  // namespace aiperf::dataset
