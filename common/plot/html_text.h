// Text encodings the HTML report needs: HTML-escaped text, and JSON that is safe inside a
// <script> element (no `<`, `>` or `&` appears literally, so no `</script>` can end it early).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "plot/figure.h"

namespace aiperf::plot::html {

// `&<>"'` as entities; everything else as is.
std::string escape_html(std::string_view text);

// A JSON string literal (with the quotes). `"`, `\`, control characters, `<`, `>`, `&`, U+2028
// and U+2029 are escaped; other bytes pass through.
std::string json_string(std::string_view text);

// A JSON number with at most 6 significant digits (shortest form: 0.5, 12, 1.5e+06); NaN and
// infinities become null (the page skips them).
std::string json_number(double value);

// The figures as the page's script reads them: one object per figure with the axes and, per
// series, its colour (the PNG palette's) and columnar arrays (x, y, and xd = x_end - x for
// spans, lo/hi/xlo/xhi/labels, only when present). A numeric column equal to one written before
// is {"ref":N} (the N-th column written, counting in this order), an exact arithmetic
// progression {"seq":[first,step,count]}.
std::string figures_json(const std::vector<Figure>& figures);

}  // namespace aiperf::plot::html
