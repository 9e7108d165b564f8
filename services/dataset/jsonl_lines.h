// Line-by-line JSONL reading with file:line error reporting for dataset loaders.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace aiperf::dataset {

// Calls `fn(object, line_number)` for every non-blank line. Invalid JSON, a non-object line or
// a FieldError thrown by `fn` becomes DatasetFileError "path:line: field: problem". A missing
// or unreadable file is a DatasetFileError too.
void for_each_json_line(const std::string& path,
                        const std::function<void(const nlohmann::json&, size_t)>& fn);

// `v` as an integer, at least `minimum` when one is given; otherwise FieldError on `name`
// ("must be an integer [>= minimum], got <v>").
int64_t integer_field(const nlohmann::json& v, const std::string& name, std::optional<int64_t> minimum = std::nullopt);

}  // namespace aiperf::dataset
