#pragma once
// A small streaming Parquet writer for flat tables of INT32, INT64, UTF-8 string and BOOLEAN
// columns (Debian 12 has no Arrow/parquet-cpp, so trawl writes the format itself).
//
// What it emits (docs/parquet.md says why each field is there):
//   - REQUIRED columns, data page v1, PLAIN encoding; string columns use a per-chunk
//     dictionary (RLE_DICTIONARY) while it stays small and pays off, else PLAIN;
//   - pages of about 1 MiB, one column chunk per column per row group; a page is encoded and
//     compressed as soon as it is full, so a row group is buffered encoded;
//   - chunk statistics (null_count, min_value, max_value) plus column_orders;
//   - strings annotated with both ConvertedType UTF8 and LogicalType STRING;
//   - UNCOMPRESSED, SNAPPY or ZSTD pages.
// Memory is bounded by one row group's encoded pages (row_group_rows rows or about
// row_group_bytes of values, whichever comes first), one open page per column and the
// dictionaries. The file is unreadable until close() has written the footer, so
// callers should write to a temporary file and rename it afterwards.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "trawl/io/byte_sink.h"
#include "trawl/core/uninitialized_vector.h"

namespace trawl::parquet {

enum class Compression { none, snappy, zstd };
enum class Type { int32, int64, utf8, boolean };

struct Column {
  std::string name;
  Type type;
};

// "zstd", "snappy", "none" (exact, lower case); nullopt otherwise.
std::optional<Compression> parse_compression(std::string_view name);
std::string_view compression_name(Compression compression);

// One column of rows appended in bulk (Writer::append_rows): values of the column's type.
// Strings are kept as runs of equal values, so that an id repeated over many rows is stored,
// checked and looked up in the dictionary once, not once per row.
class ColumnValues {
 public:
  // (Uninitialized growth: a sink sizes them for a batch, then writes every value.)
  UninitializedVector<std::int32_t> i32;
  UninitializedVector<std::int64_t> i64;
  UninitializedVector<std::uint8_t> bools;  // 0 or 1
  // Appends `times` rows of `v`, extending the last run where it holds the same value.
  // (Inline: called per row of a batch, mostly with short strings.)
  [[gnu::always_inline]] void add_string(std::string_view v, std::uint32_t times = 1) {
    const std::size_t runs = run_rows_.size();
    if (runs > 0 && offsets_[runs] - offsets_[runs - 1] == v.size() &&
        same_bytes(bytes_.data() + offsets_[runs - 1], v.data(), v.size())) {
      run_rows_.back() += times;
      return;
    }
    bytes_.append(v);
    offsets_.push_back(bytes_.size());
    run_rows_.push_back(times);
  }
  // Appends `times` more rows of the last run's value (there must be one).
  void repeat_last(std::uint32_t times = 1) { run_rows_.back() += times; }
  std::size_t runs() const { return run_rows_.size(); }
  std::string_view run(std::size_t r) const {
    return std::string_view(bytes_).substr(offsets_[r], offsets_[r + 1] - offsets_[r]);
  }
  std::uint32_t run_rows(std::size_t r) const { return run_rows_[r]; }
  void clear();  // keeps the capacity

 private:
  // A byte loop for the short strings of most rows: memcmp's call costs more than the compare.
  [[gnu::always_inline]] static bool same_bytes(const char* a, const char* b, std::size_t n) {
    if (n > 16) return std::memcmp(a, b, n) == 0;
    for (std::size_t i = 0; i < n; ++i)
      if (a[i] != b[i]) return false;
    return true;
  }
  std::vector<std::uint32_t> run_rows_;
  std::vector<std::size_t> offsets_{0};  // run r's value: bytes_[offsets_[r], offsets_[r + 1])
  std::string bytes_;
};

// Rows for Writer::append_rows: one ColumnValues per column of the schema, in its order,
// each with `rows` values.
struct RowBatch {
  std::size_t rows = 0;
  std::vector<ColumnValues> columns;
  void clear();  // keeps the columns and their capacity
};

class Writer {
 public:
  // row_group_bytes bounds the buffered row group by (approximate, uncompressed) size as well,
  // so rows with long strings cannot make memory grow with row_group_rows. created_by is
  // written to FileMetaData.created_by, e.g. "trawl version 0.1.0".
  Writer(ByteSink& out, std::vector<Column> schema, Compression compression,
         std::vector<std::pair<std::string, std::string>> key_value_metadata,
         std::size_t row_group_rows = 1 << 20, std::size_t row_group_bytes = 128 << 20,
         std::string created_by = "trawl");
  ~Writer();
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  // Values of the current row, column by column; each column gets exactly one value per row
  // and the call must match the column's type (else std::runtime_error). Strings must be
  // valid UTF-8.
  void append_int32(std::size_t col, std::int32_t v);
  void append_int64(std::size_t col, std::int64_t v);
  void append_string(std::size_t col, std::string_view v);
  void append_bool(std::size_t col, bool v);

  // Ends one row; writes a row group once row_group_rows rows (or row_group_bytes) are buffered.
  void end_row();

  // Appends batch.rows whole rows (between rows, not inside one begun value by value), with
  // the checks of the calls above; throws before appending anything if a column has the
  // wrong number of values or an invalid string. Row groups end as with end_row, except that
  // the byte bound and a full dictionary are checked every few thousand rows.
  void append_rows(const RowBatch& batch);

  // Writes the last row group and the footer. A file with zero rows is valid. No calls are
  // allowed afterwards. Not calling close() leaves an incomplete (unreadable) file.
  void close();

  std::uint64_t rows_written() const;   // rows passed to end_row() so far
  std::uint64_t bytes_written() const;  // bytes handed to the sink so far

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Building blocks, exposed for unit tests.
namespace detail {

using Bytes = std::vector<std::uint8_t>;

inline std::uint64_t zigzag(std::int64_t n) {
  return (static_cast<std::uint64_t>(n) << 1) ^ static_cast<std::uint64_t>(n >> 63);
}
void put_uvarint(Bytes& out, std::uint64_t v);  // ULEB128
void put_u32le(Bytes& out, std::uint32_t v);

// Smallest bit width that holds max_value (0 for 0).
int bit_width(std::uint32_t max_value);

// RLE / bit-packed hybrid encoding of n values of bit_width bits (Parquet Encodings.md), with
// no length prefix. Runs of >= 8 equal values become RLE runs, the rest bit-packed groups.
void rle_hybrid_encode(Bytes& out, const std::uint32_t* values, std::size_t n, int bit_width);
// The same for values given as runs of equal values (`count` of them, each run as long as it
// can be: two neighbours never hold the same value).
struct ValueRun {
  std::uint32_t value;
  std::size_t count;
};
void rle_hybrid_encode_runs(Bytes& out, const ValueRun* runs, std::size_t count, int bit_width);

bool is_valid_utf8(std::string_view s);

// The write-only subset of the Thrift compact protocol that Parquet metadata needs. Fields must
// be written in increasing id order within a struct (keeps every field header at one byte).
class ThriftWriter {
 public:
  enum : std::uint8_t {
    kTrue = 1, kFalse = 2, kI8 = 3, kI16 = 4, kI32 = 5, kI64 = 6, kDouble = 7,
    kBinary = 8, kList = 9, kSet = 10, kMap = 11, kStruct = 12
  };
  explicit ThriftWriter(Bytes& out) : out_(out) {}

  void field_i32(std::int16_t id, std::int32_t v);
  void field_i64(std::int16_t id, std::int64_t v);
  void field_bool(std::int16_t id, bool v);
  void field_binary(std::int16_t id, std::string_view v);
  void begin_struct(std::int16_t id);  // a struct-valued field; close with end_struct()
  void begin_list(std::int16_t id, std::uint8_t elem_type, std::size_t size);

  // List elements (no field headers).
  void elem_i32(std::int32_t v);
  void elem_binary(std::string_view v);
  void begin_elem_struct();  // a struct element; close with end_struct()

  // Writes the stop byte of the innermost open struct (or of the top-level struct).
  void end_struct();

 private:
  void field_header(std::int16_t id, std::uint8_t type);
  void push();

  Bytes& out_;
  std::int16_t last_id_ = 0;
  std::vector<std::int16_t> stack_;  // last_id_ of each enclosing struct
};

}  // namespace detail
}  // namespace trawl::parquet
