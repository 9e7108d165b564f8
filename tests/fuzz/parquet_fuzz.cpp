// Parquet reader: any bytes as a whole .parquet file (parse_parquet_rows). The documented refusal
// is ParquetError; anything else escaping, a crash or an out-of-bounds read is a finding. Rows
// that are read must dump as JSON (strings were checked as UTF-8), and reading a projection of
// the columns must give the same values for them.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "parquet/parquet_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  aiperf::parquet::ReadOptions guard;
  // A three-byte RLE run can declare millions of slots; cap them so the fuzzer explores
  // structure instead of allocating gigabytes.
  guard.max_values_per_chunk = 1 << 16;
  try {
    const auto rows = aiperf::parquet::parse_parquet_rows(bytes, "f", guard);
    for (const auto& row : rows) (void)row.dump();
    const auto names = aiperf::parquet::parquet_column_names(bytes, "f");
    if (!names.empty() && !rows.empty()) {
      guard.columns = {names.back()};
      const auto projected = aiperf::parquet::parse_parquet_rows(bytes, "f", guard);
      if (projected.size() != rows.size()) std::abort();
      for (size_t i = 0; i < rows.size(); ++i)
        if (projected[i].at(names.back()) != rows[i].at(names.back())) std::abort();
    }
  } catch (const aiperf::parquet::ParquetError&) {}
  return 0;
}
