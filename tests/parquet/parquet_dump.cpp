// Prints a Parquet file's rows as TSV (a header of the column names, then one line per row),
// decoded by the independent test reader (tests/support/parquet_reader): what
// scripts/check_same_output.sh compares, so that two writers that lay out pages differently
// but store the same rows compare equal.
//
//   parquet_dump FILE.parquet
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "support/parquet_reader.h"

namespace tp = trawl::test::parquet;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: parquet_dump FILE.parquet\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) {
    std::fprintf(stderr, "parquet_dump: cannot read %s\n", argv[1]);
    return 1;
  }
  try {
    const tp::File f = tp::read_file(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    std::string line;
    for (std::size_t c = 0; c < f.columns.size(); ++c) line += (c ? "\t" : "") + f.columns[c].name;
    std::puts(line.c_str());
    for (std::int64_t r = 0; r < f.num_rows; ++r) {
      line.clear();
      for (std::size_t c = 0; c < f.columns.size(); ++c) {
        const tp::ColumnValues& v = f.values[c];
        const auto i = static_cast<std::size_t>(r);
        if (c) line += '\t';
        switch (f.columns[c].type) {
          case tp::PhysicalType::int32: line += std::to_string(v.i32[i]); break;
          case tp::PhysicalType::int64: line += std::to_string(v.i64[i]); break;
          case tp::PhysicalType::boolean: line += v.boolean[i] ? "true" : "false"; break;
          case tp::PhysicalType::byte_array: line += v.str[i]; break;
        }
      }
      std::puts(line.c_str());
    }
  } catch (const tp::ReadError& e) {
    std::fprintf(stderr, "parquet_dump: %s: %s\n", argv[1], e.what());
    return 1;
  }
  return 0;
}
