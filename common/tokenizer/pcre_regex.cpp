#include "tokenizer/pcre_regex.h"

#include "tokenizer/tokenizer.h"

namespace aiperf::tok {

namespace {

// Per-thread match state: match data for one ovector pair and a JIT stack large enough for
// patterns such as \s+(?!\S) on long whitespace runs. Shared by every PcreRegex on the thread.
struct ThreadMatchState {
  pcre2_match_data* data = pcre2_match_data_create(1, nullptr);
  pcre2_match_context* context = pcre2_match_context_create(nullptr);
  pcre2_jit_stack* stack = pcre2_jit_stack_create(32 * 1024, 4 * 1024 * 1024, nullptr);

  ThreadMatchState() { pcre2_jit_stack_assign(context, nullptr, stack); }
  ~ThreadMatchState() {
    pcre2_jit_stack_free(stack);
    pcre2_match_context_free(context);
    pcre2_match_data_free(data);
  }
};

ThreadMatchState& thread_state() {
  thread_local ThreadMatchState state;
  return state;
}

}  // namespace

PcreRegex::PcreRegex(std::string_view pattern) {
  int error = 0;
  PCRE2_SIZE offset = 0;
  code_ = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                        PCRE2_UTF | PCRE2_UCP, &error, &offset, nullptr);
  if (code_ == nullptr) {
    PCRE2_UCHAR msg[256];
    pcre2_get_error_message(error, msg, sizeof msg);
    throw TokenizerError("invalid regex '" + std::string(pattern) + "' at offset " +
                         std::to_string(offset) + ": " + reinterpret_cast<const char*>(msg));
  }
  // JIT is an optimisation only: if it is unavailable pcre2_match interprets the pattern.
  pcre2_jit_compile(code_, PCRE2_JIT_COMPLETE);
}

PcreRegex::~PcreRegex() { pcre2_code_free(code_); }

bool PcreRegex::find(std::string_view subject, size_t start, size_t& begin, size_t& end) const {
  ThreadMatchState& st = thread_state();
  int rc = pcre2_match(code_, reinterpret_cast<PCRE2_SPTR>(subject.data()), subject.size(), start,
                       PCRE2_NO_UTF_CHECK, st.data, st.context);
  if (rc < 0) return false;  // PCRE2_ERROR_NOMATCH, or a resource limit: treat as no match
  const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(st.data);
  begin = ov[0];
  end = ov[1];
  return true;
}

}  // namespace aiperf::tok
