// Nesting bounds shared by the two Jinja interpreters (chat_template_*.cpp for
// --apply-chat-template, jinja_subset.cpp for payload_template). Both parse, evaluate and destroy
// templates by recursion, so a deeply nested template (thousands of '(' or {% if %}, or a long
// `a.b.c...` / `x or x or ...` chain, which builds a deep tree without recursing while parsing)
// would overflow the stack. Templates past these bounds are refused while compiling, the way
// Python's recursion limit stops Jinja itself; real templates stay far below them.
#pragma once
#include <algorithm>
#include <string>

namespace aiperf::endpoints::jinja {

inline constexpr int kMaxExpressionDepth = 200;
inline constexpr int kMaxBlockDepth = 100;

// Each interpreter's error: throws its own exception type with `what` in the message.
using Fail = void (*)(const std::string& what);

// One level of parser recursion, held while the guard lives: counts `depth` up, and fails
// ("expression nested too deeply" / "blocks nested too deeply") past the bound.
class NestingGuard {
 public:
  enum class Of { expression, block };
  NestingGuard(int& depth, Of of, Fail fail) : depth_(depth) {
    const bool block = of == Of::block;
    if (++depth_ > (block ? kMaxBlockDepth : kMaxExpressionDepth)) {
      --depth_;
      fail(block ? "blocks nested too deeply" : "expression nested too deeply");
    }
  }
  ~NestingGuard() { --depth_; }
  NestingGuard(const NestingGuard&) = delete;
  NestingGuard& operator=(const NestingGuard&) = delete;

 private:
  int& depth_;
};

// The depth of an expression node (1 + its deepest child; `children` are pointers, null ones
// skipped), failing past kMaxExpressionDepth. Catches chains the parser builds in a loop.
template <class Children>
int node_depth(const Children& children, int deepest_so_far, Fail fail) {
  int d = deepest_so_far;
  for (const auto& c : children)
    if (c) d = std::max(d, c->depth);
  if (d + 1 > kMaxExpressionDepth) fail("expression nested too deeply");
  return d + 1;
}

}  // namespace aiperf::endpoints::jinja
