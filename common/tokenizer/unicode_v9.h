// Character classes as Unicode 9.0 defines them. HF's BertNormalizer, BertPreTokenizer,
// Punctuation pre-tokenizer and StripAccents classify characters with Unicode 9.0 tables (crates
// unicode_categories 0.1.1 and unicode-normalization-alignments), so a character assigned or
// re-categorised since then must be answered as 9.0 did, or the ids differ from HF's.
#pragma once

namespace aiperf::tok::uni {

bool is_punctuation_v9(char32_t cp);      // P*
bool is_other_v9(char32_t cp);            // Cc, Cf or Co (unassigned code points are not)
bool is_nonspacing_mark_v9(char32_t cp);  // Mn
bool is_mark_v9(char32_t cp);             // Mn, Mc or Me

}  // namespace aiperf::tok::uni
