#pragma once
// A small Parquet reader for tests, independent of lib/src/parquet_writer.cpp (written from
// apache/parquet-format parquet.thrift and Encodings.md and the Thrift compact protocol spec,
// sharing no code with the writer), so that writing with trawl::parquet::Writer and reading
// back here is a real round-trip check.
//
// Scope: what the writer emits, and no more. Flat schemas of REQUIRED BOOLEAN / INT32 / INT64 /
// BYTE_ARRAY columns; data pages v1 in PLAIN or RLE_DICTIONARY, with a PLAIN dictionary page;
// UNCOMPRESSED, SNAPPY and ZSTD. Anything else is rejected rather than guessed at.
//
// It is strict and bounded: every structural problem (truncation, bad Thrift, missing required
// fields, offsets or sizes that disagree, counts that do not add up, bytes left over in a page
// or footer, unknown encodings) throws ReadError, and nothing is read outside the given bytes,
// so it can also be fed corrupted files. Limits caps memory on hostile input.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace trawl::test::parquet {

struct ReadError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Values from parquet.thrift.
enum class PhysicalType : std::int32_t { boolean = 0, int32 = 1, int64 = 2, byte_array = 6 };
inline constexpr std::int32_t kEncodingPlain = 0;
inline constexpr std::int32_t kEncodingPlainDictionary = 2;  // legacy name of the same thing
inline constexpr std::int32_t kEncodingRle = 3;
inline constexpr std::int32_t kEncodingRleDictionary = 8;
inline constexpr std::int32_t kCodecUncompressed = 0;
inline constexpr std::int32_t kCodecSnappy = 1;
inline constexpr std::int32_t kCodecZstd = 6;
inline constexpr std::int32_t kConvertedUtf8 = 0;

// Statistics as stored; min/max are PLAIN bytes (strings without the length prefix).
struct Statistics {
  std::optional<std::string> max, min;  // deprecated fields 1 and 2
  std::optional<std::int64_t> null_count, distinct_count;
  std::optional<std::string> max_value, min_value;
  std::optional<bool> is_max_value_exact, is_min_value_exact;
};

struct SchemaColumn {
  std::string name;
  PhysicalType type;
  std::optional<std::int32_t> converted_type;
  std::optional<std::int16_t> logical_type;  // id of the LogicalType union member (1 = STRING)
};

struct ColumnChunk {
  // ColumnChunk / ColumnMetaData, as stored.
  std::int64_t file_offset = 0;
  PhysicalType type = PhysicalType::int32;
  std::vector<std::int32_t> encodings;
  std::vector<std::string> path_in_schema;
  std::int32_t codec = 0;
  std::int64_t num_values = 0;
  std::int64_t total_uncompressed_size = 0;
  std::int64_t total_compressed_size = 0;
  std::int64_t data_page_offset = 0;
  std::optional<std::int64_t> dictionary_page_offset;
  std::optional<Statistics> statistics;
  // Found while decoding the pages.
  std::optional<std::size_t> dictionary_entries;  // set when the chunk has a dictionary page
  std::size_t plain_pages = 0;                    // data pages in PLAIN
  std::size_t dictionary_pages = 0;               // data pages in RLE_DICTIONARY / PLAIN_DICTIONARY

  std::int64_t start() const { return dictionary_page_offset.value_or(data_page_offset); }
  std::int64_t end() const { return start() + total_compressed_size; }
};

struct RowGroup {
  std::vector<ColumnChunk> columns;
  std::int64_t total_byte_size = 0;
  std::int64_t num_rows = 0;
  std::optional<std::int64_t> file_offset, total_compressed_size;
  std::optional<std::int16_t> ordinal;
};

// The decoded values of one column, all row groups in order; only the vector of its type is used.
struct ColumnValues {
  std::vector<std::int32_t> i32;
  std::vector<std::int64_t> i64;
  std::vector<std::string> str;
  std::vector<bool> boolean;
  bool operator==(const ColumnValues&) const = default;
};

struct File {
  std::int32_t version = 0;
  std::string root_name;
  std::vector<SchemaColumn> columns;
  std::int64_t num_rows = 0;
  std::vector<RowGroup> row_groups;
  std::vector<std::pair<std::string, std::optional<std::string>>> key_value_metadata;
  std::optional<std::string> created_by;
  // Per column, the id of the ColumnOrder union member (1 = TYPE_ORDER); absent if not written.
  std::optional<std::vector<std::int16_t>> column_orders;
  std::uint64_t footer_offset = 0;   // where FileMetaData starts
  std::vector<ColumnValues> values;  // one per column
};

// Caps that keep a corrupted file from making the reader allocate without bound. A file that
// exceeds one is rejected with ReadError.
struct Limits {
  std::uint64_t max_values = std::uint64_t{1} << 26;        // over all column chunks
  std::uint64_t max_page_bytes = std::uint64_t{1} << 28;    // one uncompressed page body
  std::uint64_t max_string_bytes = std::uint64_t{1} << 28;  // all decoded strings together
};

// Decodes a whole Parquet file held in memory. Throws ReadError on any structural problem.
File read_file(const std::uint8_t* data, std::size_t size, const Limits& limits = {});

}  // namespace trawl::test::parquet
