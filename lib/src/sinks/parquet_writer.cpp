// Streaming Parquet writer. Format references: apache/parquet-format parquet.thrift,
// Encodings.md, Compression.md; Thrift compact protocol spec. What it writes and why is in
// docs/parquet.md (every Thrift-required field is written, §7, because DuckDB, arrow-rs and
// Arrow C++ reject files that omit one).
#include "trawl/sinks/parquet_writer.h"

#include <zstd.h>
#include <snappy.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <functional>
#include <limits>
#include <stdexcept>

namespace trawl::parquet {

static_assert(std::endian::native == std::endian::little,
              "PLAIN encoding is little-endian; buffers are copied to pages as they are");

namespace {

// Values from parquet.thrift.
enum PhysicalType : std::int32_t { kBoolean = 0, kInt32 = 1, kInt64 = 2, kByteArray = 6 };
enum Encoding : std::int32_t { kPlain = 0, kRle = 3, kRleDictionary = 8 };
enum PageType : std::int32_t { kDataPage = 0, kDictionaryPage = 2 };
enum Codec : std::int32_t { kUncompressed = 0, kSnappy = 1, kZstd = 6 };
constexpr std::int32_t kConvertedUtf8 = 0;
constexpr std::int32_t kRequired = 0;

// Pages of about 1 MiB keep readers' per-page buffers small (the common writer default).
constexpr std::size_t kPageBytes = 1 << 20;
// A dictionary larger than this rarely pays off and would make one page huge; fall back to PLAIN.
constexpr std::size_t kMaxDictionaryBytes = 1 << 20;
// After this many values, a dictionary holding more than 3/4 distinct values is dropped early:
// hashing every value of a high-cardinality column (match_region) only costs time. Late enough
// that a vocabulary of a few thousand pattern ids has shown its repeats.
constexpr std::size_t kDictionaryProbeValues = 16384;
// Longer string bounds are left out of the statistics rather than truncated (docs/parquet.md
// §6): they bloat the footer and nobody prunes on a 100 kbp match_region.
constexpr std::size_t kMaxStatBytes = 128;
constexpr std::size_t kMaxPageBytes = std::numeric_limits<std::int32_t>::max();

[[noreturn]] void fail(const std::string& message) {
  throw std::runtime_error("parquet writer: " + message);
}

std::int32_t physical_type(Type t) {
  switch (t) {
    case Type::int32: return kInt32;
    case Type::int64: return kInt64;
    case Type::utf8: return kByteArray;
    case Type::boolean: return kBoolean;
  }
  return kByteArray;
}

const char* type_name(Type t) {
  switch (t) {
    case Type::int32: return "int32";
    case Type::int64: return "int64";
    case Type::utf8: return "utf8";
    case Type::boolean: return "boolean";
  }
  return "?";
}

std::int32_t codec_id(Compression c) {
  switch (c) {
    case Compression::none: return kUncompressed;
    case Compression::snappy: return kSnappy;
    case Compression::zstd: return kZstd;
  }
  return kUncompressed;
}

std::string_view as_chars(const std::uint8_t* p, std::size_t n) {
  return {reinterpret_cast<const char*>(p), n};
}

void append(detail::Bytes& out, std::string_view s) {
  out.insert(out.end(), s.begin(), s.end());
}

// A chunk's string dictionary: entries stored PLAIN-encoded back to back, so the dictionary page
// body is `data` as is; an open-addressing hash table avoids a heap node per distinct value.
struct Dictionary {
  detail::Bytes data;
  std::vector<std::uint32_t> offsets;  // start of each entry (its length prefix) in data
  std::vector<std::size_t> hashes;     // per entry, so growing the table needs no rehashing
  std::vector<std::uint32_t> slots;    // entry index + 1; 0 = empty
  std::vector<detail::ValueRun> runs;  // the open page's values, as runs of equal entries
  std::size_t values = 0;              // in `runs`
  std::uint32_t last = 0;              // the entry of the latest value (when size() > 0)

  std::size_t size() const { return offsets.size(); }

  std::string_view entry(std::uint32_t i) const {
    const std::size_t begin = offsets[i] + 4;
    const std::size_t end = i + 1 < offsets.size() ? offsets[i + 1] : data.size();
    return as_chars(data.data() + begin, end - begin);
  }

  // The entry of `v`, added if new.
  std::uint32_t index_of(std::string_view v) {
    // Ids and strands come in runs; skip the hash for a repeat of the previous value.
    if (size() > 0 && entry(last) == v) return last;
    if (slots.empty()) slots.assign(1024, 0);
    const std::size_t h = std::hash<std::string_view>{}(v);
    const std::size_t mask = slots.size() - 1;
    for (std::size_t s = h & mask;; s = (s + 1) & mask) {
      const std::uint32_t e = slots[s];
      if (e == 0) {
        last = static_cast<std::uint32_t>(offsets.size());
        offsets.push_back(static_cast<std::uint32_t>(data.size()));
        hashes.push_back(h);
        detail::put_u32le(data, static_cast<std::uint32_t>(v.size()));
        append(data, v);
        slots[s] = last + 1;
        if (offsets.size() * 2 > slots.size()) grow();
        return last;
      }
      if (hashes[e - 1] == h && entry(e - 1) == v) return last = e - 1;
    }
  }

  void grow() {
    slots.assign(slots.size() * 2, 0);
    const std::size_t mask = slots.size() - 1;
    for (std::uint32_t i = 0; i < offsets.size(); ++i) {
      std::size_t s = hashes[i] & mask;
      while (slots[s] != 0) s = (s + 1) & mask;
      slots[s] = i + 1;
    }
  }

  void clear() {
    data.clear();
    offsets.clear();
    hashes.clear();
    runs.clear();
    values = 0;
    std::fill(slots.begin(), slots.end(), 0);
  }
};

// One column of the current row group. Values gather in an open page, which is encoded and
// compressed into `pages` as soon as it is full, so a row group is held encoded, not as raw
// values; the dictionary page (when used) goes before those pages once the chunk is complete.
// Buffers keep their capacity across row groups, so steady state allocates nothing per value.
struct ColumnState {
  Column column;
  std::size_t count = 0;  // values in this row group
  // The open page's values, by type (strings: `plain`, or the dictionary's indices).
  std::vector<std::int32_t> i32;
  std::vector<std::int64_t> i64;
  std::vector<std::uint8_t> bools;  // one byte per value, bit-packed when the page is written
  detail::Bytes plain;              // utf8 values PLAIN-encoded, when not dictionary-encoded
  std::size_t plain_values = 0;     // values in `plain`
  std::uint64_t string_bytes = 0;   // sum of utf8 value lengths in this row group
  bool use_dictionary = false;
  // Set once a dictionary did not pay off: trawl's columns keep their character through a file,
  // so later chunks of that column go straight to PLAIN instead of hashing every value again.
  bool dictionary_disabled = false;
  // The dictionary outgrew kMaxDictionaryBytes after its first data page: the row group ends
  // at the next row, and the column is PLAIN from then on.
  bool dictionary_full = false;
  Dictionary dictionary;
  detail::Bytes pages;       // the chunk's data pages so far, page headers included
  std::size_t data_pages = 0;
  std::int64_t uncompressed = 0, compressed = 0;  // of `pages`
  // Statistics of the chunk so far (strings in a dictionary: taken from its entries).
  bool has_bounds = false;
  std::int64_t int_min = 0, int_max = 0;
  bool any_true = false, any_false = false;
  std::string str_min, str_max;
};

// What footer metadata needs from a written column chunk.
struct ChunkInfo {
  std::int64_t data_page_offset = -1;
  std::int64_t dictionary_page_offset = -1;
  std::int64_t uncompressed = 0;  // page headers included, as ColumnMetaData requires
  std::int64_t compressed = 0;
  bool has_min_max = false;
  std::string_view min, max;  // PLAIN bytes of the bounds (strings without length prefix)
  std::uint8_t min_buf[8] = {}, max_buf[8] = {};
};

}  // namespace

std::optional<Compression> parse_compression(std::string_view name) {
  if (name == "zstd") return Compression::zstd;
  if (name == "snappy") return Compression::snappy;
  if (name == "none") return Compression::none;
  return std::nullopt;
}

std::string_view compression_name(Compression c) {
  switch (c) {
    case Compression::none: return "none";
    case Compression::snappy: return "snappy";
    case Compression::zstd: return "zstd";
  }
  return "?";
}

// ----------------------------------------------------------------------------------------------
// Encoding building blocks

namespace detail {

void put_uvarint(Bytes& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<std::uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(v));
}

void put_u32le(Bytes& out, std::uint32_t v) {
  const std::uint8_t b[4] = {static_cast<std::uint8_t>(v), static_cast<std::uint8_t>(v >> 8),
                             static_cast<std::uint8_t>(v >> 16),
                             static_cast<std::uint8_t>(v >> 24)};
  out.insert(out.end(), b, b + 4);
}

int bit_width(std::uint32_t max_value) { return static_cast<int>(std::bit_width(max_value)); }

namespace {

void put_rle_run(Bytes& out, std::uint32_t value, std::size_t count, int width) {
  put_uvarint(out, static_cast<std::uint64_t>(count) << 1);
  for (int b = 0; b < width; b += 8) out.push_back(static_cast<std::uint8_t>(value >> b));
}

// Bit-packs n values (LSB first) in groups of 8; only the final run of a page may need padding.
void put_bit_packed(Bytes& out, const std::uint32_t* v, std::size_t n, int width) {
  const std::size_t groups = (n + 7) / 8;
  put_uvarint(out, (static_cast<std::uint64_t>(groups) << 1) | 1);
  std::uint64_t acc = 0;
  int bits = 0;
  for (std::size_t i = 0; i < groups * 8; ++i) {
    acc |= static_cast<std::uint64_t>(i < n ? v[i] : 0) << bits;
    bits += width;
    while (bits >= 8) {
      out.push_back(static_cast<std::uint8_t>(acc));
      acc >>= 8;
      bits -= 8;
    }
  }
}

}  // namespace

void rle_hybrid_encode_runs(Bytes& out, const ValueRun* runs, std::size_t count, int width) {
  // Values not yet emitted gather in `pending`. Before an RLE run, the pending values must fill
  // whole groups of 8; the run lends the values needed to pad them.
  std::vector<std::uint32_t> pending;
  for (std::size_t r = 0; r < count; ++r) {
    const ValueRun& run = runs[r];
    const std::size_t pad = (8 - pending.size() % 8) % 8;
    if (run.count >= pad + 8) {
      pending.insert(pending.end(), pad, run.value);
      if (!pending.empty()) put_bit_packed(out, pending.data(), pending.size(), width);
      put_rle_run(out, run.value, run.count - pad, width);
      pending.clear();
    } else {
      pending.insert(pending.end(), run.count, run.value);
    }
  }
  if (!pending.empty()) put_bit_packed(out, pending.data(), pending.size(), width);
}

void rle_hybrid_encode(Bytes& out, const std::uint32_t* v, std::size_t n, int width) {
  std::vector<ValueRun> runs;
  for (std::size_t i = 0; i < n; ++i) {
    if (runs.empty() || runs.back().value != v[i]) runs.push_back({v[i], 0});
    ++runs.back().count;
  }
  rle_hybrid_encode_runs(out, runs.data(), runs.size(), width);
}

bool is_valid_utf8(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* end = p + s.size();
  while (p < end) {
    // ASCII fast path, 8 bytes at a time (ids and sequences are nearly always ASCII).
    if (end - p >= 8) {
      std::uint64_t w;
      std::memcpy(&w, p, 8);
      if ((w & 0x8080808080808080ULL) == 0) {
        p += 8;
        continue;
      }
    }
    const unsigned char c = *p;
    if (c < 0x80) {
      ++p;
      continue;
    }
    int extra;
    std::uint32_t cp;
    if (c >= 0xC2 && c <= 0xDF) {
      extra = 1;
      cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      extra = 2;
      cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      extra = 3;
      cp = c & 0x07;
    } else {
      return false;  // continuation byte, overlong 2-byte lead, or beyond U+10FFFF
    }
    if (end - p <= extra) return false;
    for (int k = 1; k <= extra; ++k) {
      if ((p[k] & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (p[k] & 0x3F);
    }
    if ((extra == 2 && cp < 0x800) || (extra == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
      return false;  // overlong, out of range, or a surrogate
    p += extra + 1;
  }
  return true;
}

// ThriftWriter ---------------------------------------------------------------------------------

void ThriftWriter::field_header(std::int16_t id, std::uint8_t type) {
  const int delta = id - last_id_;
  if (delta > 0 && delta <= 15) {
    out_.push_back(static_cast<std::uint8_t>((delta << 4) | type));
  } else {
    out_.push_back(type);
    put_uvarint(out_, zigzag(id));
  }
  last_id_ = id;
}

void ThriftWriter::push() {
  stack_.push_back(last_id_);
  last_id_ = 0;
}

void ThriftWriter::field_i32(std::int16_t id, std::int32_t v) {
  field_header(id, kI32);
  put_uvarint(out_, zigzag(v));
}

void ThriftWriter::field_i64(std::int16_t id, std::int64_t v) {
  field_header(id, kI64);
  put_uvarint(out_, zigzag(v));
}

void ThriftWriter::field_bool(std::int16_t id, bool v) { field_header(id, v ? kTrue : kFalse); }

void ThriftWriter::field_binary(std::int16_t id, std::string_view v) {
  field_header(id, kBinary);
  put_uvarint(out_, v.size());
  append(out_, v);
}

void ThriftWriter::begin_struct(std::int16_t id) {
  field_header(id, kStruct);
  push();
}

void ThriftWriter::begin_list(std::int16_t id, std::uint8_t elem_type, std::size_t size) {
  field_header(id, kList);
  if (size <= 14) {
    out_.push_back(static_cast<std::uint8_t>((size << 4) | elem_type));
  } else {
    out_.push_back(static_cast<std::uint8_t>(0xF0 | elem_type));
    put_uvarint(out_, size);
  }
}

void ThriftWriter::elem_i32(std::int32_t v) { put_uvarint(out_, zigzag(v)); }

void ThriftWriter::elem_binary(std::string_view v) {
  put_uvarint(out_, v.size());
  append(out_, v);
}

void ThriftWriter::begin_elem_struct() { push(); }

void ThriftWriter::end_struct() {
  out_.push_back(0);
  if (!stack_.empty()) {
    last_id_ = stack_.back();
    stack_.pop_back();
  }
}

}  // namespace detail

// ----------------------------------------------------------------------------------------------
// Writer

using detail::Bytes;
using detail::ThriftWriter;

struct Writer::Impl {
  ByteSink& out;
  std::vector<ColumnState> columns;
  Compression compression;
  std::vector<std::pair<std::string, std::string>> key_value_metadata;
  std::size_t row_group_rows;
  std::size_t row_group_bytes;
  std::string created_by;

  std::size_t rows_in_group = 0;
  std::size_t buffered_bytes = 0;  // raw bytes of the values of this row group
  bool dictionary_full = false;    // a column's is (ColumnState::dictionary_full)
  std::uint64_t total_rows = 0;
  std::uint64_t offset = 0;  // bytes written so far = file offset of the next byte
  Bytes row_groups_meta;     // serialized RowGroup structs, spliced into the footer at close
  std::size_t num_row_groups = 0;
  enum class State { open, closed, failed } state = State::open;

  Bytes page, compressed, header;  // scratch, reused for every page
  std::vector<std::size_t> cursors;  // append_rows: per column, where its values go on
  std::vector<std::uint32_t> run_used;  // append_rows: rows of the current string run taken
  std::unique_ptr<ZSTD_CCtx, std::size_t (*)(ZSTD_CCtx*)> zstd{nullptr, ZSTD_freeCCtx};

  Impl(ByteSink& sink, Compression c) : out(sink), compression(c) {}

  void emit(const void* data, std::size_t n) {
    out.write(data, n);
    offset += n;
  }

  ColumnState& column(std::size_t col, Type type, const char* call) {
    if (state != State::open) fail(std::string(call) + " called after close() or a failed write");
    if (col >= columns.size())
      fail(std::string(call) + ": column index " + std::to_string(col) + " out of range (" +
           std::to_string(columns.size()) + " columns)");
    ColumnState& c = columns[col];
    if (c.column.type != type)
      fail(std::string(call) + ": column '" + c.column.name + "' has type " +
           type_name(c.column.type));
    if (c.count != rows_in_group)
      fail(std::string(call) + ": column '" + c.column.name + "' already has a value in row " +
           std::to_string(total_rows));
    return c;
  }

  // One page, header then (compressed) body, appended to `dst`; adds its sizes (header
  // included, as the chunk totals want them) to `uncompressed` and `stored_total`.
  void encode_page(std::int32_t page_type, const std::uint8_t* body, std::size_t size,
                   std::size_t num_values, std::int32_t encoding, Bytes& dst,
                   std::int64_t& uncompressed, std::int64_t& stored_total) {
    const std::uint8_t* data = body;
    std::size_t stored = size;
    if (compression == Compression::zstd) {
      if (!zstd) {
        zstd.reset(ZSTD_createCCtx());
        if (!zstd) fail("cannot create a zstd context");
      }
      compressed.resize(ZSTD_compressBound(size));
      stored = ZSTD_compressCCtx(zstd.get(), compressed.data(), compressed.size(), body, size,
                                 ZSTD_CLEVEL_DEFAULT);
      if (ZSTD_isError(stored)) fail(std::string("zstd: ") + ZSTD_getErrorName(stored));
      data = compressed.data();
    } else if (compression == Compression::snappy) {
      compressed.resize(snappy::MaxCompressedLength(size));
      snappy::RawCompress(reinterpret_cast<const char*>(body), size,
                          reinterpret_cast<char*>(compressed.data()), &stored);
      data = compressed.data();
    }
    if (size > kMaxPageBytes || stored > kMaxPageBytes)
      fail("a page exceeds 2 GiB (a single value that large cannot be stored)");

    header.clear();
    ThriftWriter h(header);
    h.field_i32(1, page_type);
    h.field_i32(2, static_cast<std::int32_t>(size));
    h.field_i32(3, static_cast<std::int32_t>(stored));
    if (page_type == kDataPage) {
      h.begin_struct(5);
      h.field_i32(1, static_cast<std::int32_t>(num_values));
      h.field_i32(2, encoding);
      h.field_i32(3, kRle);  // level encodings are required even though no levels are stored
      h.field_i32(4, kRle);
      h.end_struct();
    } else {
      h.begin_struct(7);
      h.field_i32(1, static_cast<std::int32_t>(num_values));
      h.field_i32(2, kPlain);
      h.end_struct();
    }
    h.end_struct();
    dst.insert(dst.end(), header.begin(), header.end());
    dst.insert(dst.end(), data, data + stored);
    uncompressed += static_cast<std::int64_t>(header.size() + size);
    stored_total += static_cast<std::int64_t>(header.size() + stored);
  }

  void data_page(ColumnState& c, const std::uint8_t* body, std::size_t size, std::size_t num_values,
                 std::int32_t encoding) {
    encode_page(kDataPage, body, size, num_values, encoding, c.pages, c.uncompressed, c.compressed);
    ++c.data_pages;
  }

  template <class V>
  static void note_int_bounds(ColumnState& c, const V& v) {
    // A plain loop, which the compiler vectorizes (std::minmax_element's is not).
    auto lo = v.front(), hi = v.front();
    for (const auto x : v) {
      lo = std::min(lo, x);
      hi = std::max(hi, x);
    }
    c.int_min = c.has_bounds ? std::min<std::int64_t>(c.int_min, lo) : lo;
    c.int_max = c.has_bounds ? std::max<std::int64_t>(c.int_max, hi) : hi;
    c.has_bounds = true;
  }
  static void note_string_bounds(ColumnState& c, std::string_view v) {
    if (!c.has_bounds || v < c.str_min) c.str_min.assign(v);
    if (!c.has_bounds || v > c.str_max) c.str_max.assign(v);
    c.has_bounds = true;
  }

  // An integer page: PLAIN, the values as they are.
  template <class V>
  void flush_fixed(ColumnState& c, V& open) {
    if (open.empty()) return;
    note_int_bounds(c, open);
    data_page(c, reinterpret_cast<const std::uint8_t*>(open.data()), open.size() * sizeof(open[0]), open.size(), kPlain);
    open.clear();
  }

  // Bits of a dictionary index now (at least 1: width 0 is legal but a needless edge case).
  static int index_width(const Dictionary& d) {
    return std::max(1, detail::bit_width(static_cast<std::uint32_t>(d.size() - 1)));
  }

  // Encodes the open page of `c` (if it holds values) into its chunk's pages.
  void flush_page(ColumnState& c) {
    switch (c.column.type) {
      case Type::int32: return flush_fixed(c, c.i32);
      case Type::int64: return flush_fixed(c, c.i64);
      case Type::boolean: {
        const std::size_t n = c.bools.size();
        if (n == 0) return;
        page.assign((n + 7) / 8, 0);
        for (std::size_t j = 0; j < n; ++j) {
          page[j >> 3] |= static_cast<std::uint8_t>(c.bools[j] << (j & 7));
          (c.bools[j] ? c.any_true : c.any_false) = true;
        }
        data_page(c, page.data(), page.size(), n, kPlain);
        c.bools.clear();
        return;
      }
      case Type::utf8:
        if (c.use_dictionary) {
          Dictionary& d = c.dictionary;
          if (d.values == 0) return;
          // Each page carries its own bit width: that of the dictionary so far.
          const int width = index_width(d);
          page.clear();
          page.push_back(static_cast<std::uint8_t>(width));
          detail::rle_hybrid_encode_runs(page, d.runs.data(), d.runs.size(), width);
          data_page(c, page.data(), page.size(), d.values, kRleDictionary);
          d.runs.clear();
          d.values = 0;
          return;
        }
        if (c.plain_values == 0) return;
        data_page(c, c.plain.data(), c.plain.size(), c.plain_values, kPlain);
        c.plain.clear();
        c.plain_values = 0;
        return;
    }
  }

  template <class T>
  void add_fixed(ColumnState& c, std::vector<T>& open, const T* v, std::size_t n) {
    constexpr std::size_t kPerPage = kPageBytes / sizeof(T);
    buffered_bytes += n * sizeof(T);
    c.count += n;
    while (n > 0) {
      const std::size_t take = std::min(n, kPerPage - open.size());
      open.insert(open.end(), v, v + take);
      v += take;
      n -= take;
      if (open.size() == kPerPage) flush_page(c);
    }
  }

  // Turns the dictionary-encoded values back into PLAIN (when the dictionary grew too large or
  // does not pay off); the column then stays PLAIN for the rest of the file. Only before the
  // chunk's first data page, while every value of the chunk is still in the open page.
  static void drop_dictionary(ColumnState& c) {
    c.dictionary_disabled = true;
    c.plain.clear();
    for (const detail::ValueRun& run : c.dictionary.runs) {
      const std::string_view v = c.dictionary.entry(run.value);
      for (std::size_t i = 0; i < run.count; ++i) {
        detail::put_u32le(c.plain, static_cast<std::uint32_t>(v.size()));
        append(c.plain, v);
      }
    }
    c.plain_values = c.dictionary.values;
    for (std::uint32_t i = 0; i < c.dictionary.size(); ++i) note_string_bounds(c, c.dictionary.entry(i));
    c.dictionary.clear();
    c.use_dictionary = false;
  }

  // `times` values `v` (valid UTF-8, checked by the caller).
  void add_string(ColumnState& c, std::string_view v, std::size_t times) {
    const std::size_t before = c.count;
    c.count += times;
    c.string_bytes += v.size() * times;
    buffered_bytes += (4 + v.size()) * times;
    if (c.use_dictionary) {
      Dictionary& d = c.dictionary;
      const std::uint32_t index = d.index_of(v);
      constexpr std::size_t kPerPage = kPageBytes / 4;
      for (std::size_t left = times; left > 0;) {
        const std::size_t take = std::min(left, kPerPage - d.values);
        if (d.runs.empty() || d.runs.back().value != index) d.runs.push_back({index, 0});
        d.runs.back().count += take;
        d.values += take;
        left -= take;
        // (Before the probe below has seen the chunk's first values, no page is full.)
        if (d.values == kPerPage) flush_page(c);
      }
      const bool probe = before < kDictionaryProbeValues && c.count >= kDictionaryProbeValues &&
                         d.size() * 4 > kDictionaryProbeValues * 3;
      const bool too_big = d.data.size() > kMaxDictionaryBytes;
      if ((probe || too_big) && c.data_pages == 0) {
        drop_dictionary(c);
      } else if (too_big) {
        c.dictionary_full = dictionary_full = true;
      }
      return;
    }
    note_string_bounds(c, v);
    for (std::size_t i = 0; i < times; ++i) {
      detail::put_u32le(c.plain, static_cast<std::uint32_t>(v.size()));
      append(c.plain, v);
      ++c.plain_values;
      if (c.plain.size() >= kPageBytes) flush_page(c);
    }
  }

  // Ends the chunk's last page: a dictionary that never reached its first page and does not
  // beat PLAIN before compression (bit-packed size as bound) is dropped first.
  void finish_chunk(ColumnState& c) {
    if (c.use_dictionary && c.data_pages == 0) {
      const std::size_t n = c.count;
      const int width = index_width(c.dictionary);
      const std::uint64_t dictionary_cost = c.dictionary.data.size() + (n * width + 7) / 8;
      if (dictionary_cost >= 4 * n + c.string_bytes) drop_dictionary(c);
    }
    flush_page(c);
  }

  void set_bounds(const ColumnState& c, ChunkInfo& info) {
    switch (c.column.type) {
      case Type::int32: {
        const auto lo = static_cast<std::int32_t>(c.int_min), hi = static_cast<std::int32_t>(c.int_max);
        std::memcpy(info.min_buf, &lo, 4);
        std::memcpy(info.max_buf, &hi, 4);
        info.min = as_chars(info.min_buf, 4);
        info.max = as_chars(info.max_buf, 4);
        break;
      }
      case Type::int64:
        std::memcpy(info.min_buf, &c.int_min, 8);
        std::memcpy(info.max_buf, &c.int_max, 8);
        info.min = as_chars(info.min_buf, 8);
        info.max = as_chars(info.max_buf, 8);
        break;
      case Type::boolean:
        info.min_buf[0] = c.any_false ? 0 : 1;
        info.max_buf[0] = c.any_true ? 1 : 0;
        info.min = as_chars(info.min_buf, 1);
        info.max = as_chars(info.max_buf, 1);
        break;
      case Type::utf8: {
        std::string_view lo = c.str_min, hi = c.str_max;
        if (c.use_dictionary) {
          const Dictionary& d = c.dictionary;
          lo = hi = d.entry(0);
          for (std::uint32_t i = 1; i < d.size(); ++i) {
            lo = std::min(lo, d.entry(i));
            hi = std::max(hi, d.entry(i));
          }
        }
        // Longer bounds are left out rather than truncated.
        if (lo.size() > kMaxStatBytes || hi.size() > kMaxStatBytes) return;
        info.min = lo;
        info.max = hi;
        break;
      }
    }
    info.has_min_max = true;
  }

  // Writes one column's chunk: the dictionary page, if any, then the data pages.
  void write_chunk(ColumnState& c, ChunkInfo& info) {
    finish_chunk(c);
    set_bounds(c, info);
    if (c.use_dictionary) {
      const Dictionary& d = c.dictionary;
      page.clear();
      encode_page(kDictionaryPage, d.data.data(), d.data.size(), d.size(), kPlain, page,
                  info.uncompressed, info.compressed);
      info.dictionary_page_offset = static_cast<std::int64_t>(offset);
      emit(page.data(), page.size());
    }
    info.data_page_offset = static_cast<std::int64_t>(offset);
    emit(c.pages.data(), c.pages.size());
    info.uncompressed += c.uncompressed;
    info.compressed += c.compressed;
  }

  void reset(ColumnState& c) {
    if (c.dictionary_full) c.dictionary_disabled = true;
    c.dictionary_full = false;
    c.count = 0;
    c.i32.clear();
    c.i64.clear();
    c.bools.clear();
    c.plain.clear();
    c.plain_values = 0;
    c.string_bytes = 0;
    c.dictionary.clear();
    c.use_dictionary = c.column.type == Type::utf8 && !c.dictionary_disabled;
    c.pages.clear();
    c.data_pages = 0;
    c.uncompressed = c.compressed = 0;
    c.has_bounds = c.any_true = c.any_false = false;
  }

  // Writes the buffered rows as one row group and records its metadata for the footer.
  void flush_row_group() {
    const auto group_offset = static_cast<std::int64_t>(offset);
    std::int64_t group_uncompressed = 0, group_compressed = 0;
    ThriftWriter w(row_groups_meta);
    w.begin_list(1, ThriftWriter::kStruct, columns.size());
    for (ColumnState& c : columns) {
      ChunkInfo info;
      write_chunk(c, info);
      group_uncompressed += info.uncompressed;
      group_compressed += info.compressed;
      const bool dictionary = info.dictionary_page_offset >= 0;

      w.begin_elem_struct();  // ColumnChunk
      w.field_i64(2, 0);      // file_offset: deprecated, but required by the Thrift IDL
      w.begin_struct(3);      // ColumnMetaData
      w.field_i32(1, physical_type(c.column.type));
      if (dictionary) {
        w.begin_list(2, ThriftWriter::kI32, 3);
        w.elem_i32(kPlain);  // the dictionary page
        w.elem_i32(kRle);
        w.elem_i32(kRleDictionary);
      } else {
        w.begin_list(2, ThriftWriter::kI32, 2);
        w.elem_i32(kPlain);
        w.elem_i32(kRle);  // declared level encoding (no levels are stored)
      }
      w.begin_list(3, ThriftWriter::kBinary, 1);
      w.elem_binary(c.column.name);
      w.field_i32(4, codec_id(compression));
      w.field_i64(5, static_cast<std::int64_t>(c.count));
      w.field_i64(6, info.uncompressed);
      w.field_i64(7, info.compressed);
      w.field_i64(9, info.data_page_offset);
      if (dictionary) w.field_i64(11, info.dictionary_page_offset);
      w.begin_struct(12);  // Statistics
      w.field_i64(3, 0);   // null_count
      if (info.has_min_max) {
        w.field_binary(5, info.max);
        w.field_binary(6, info.min);
      }
      w.end_struct();
      w.end_struct();
      w.end_struct();
      reset(c);
    }
    w.field_i64(2, group_uncompressed);  // total_byte_size
    w.field_i64(3, static_cast<std::int64_t>(rows_in_group));
    w.field_i64(5, group_offset);  // file_offset of the first page
    w.field_i64(6, group_compressed);
    w.end_struct();
    ++num_row_groups;
    rows_in_group = 0;
    buffered_bytes = 0;
    dictionary_full = false;
  }

  // After `rows` more complete rows: ends the row group where it is full (a failure leaves
  // the writer failed).
  void rows_added(std::size_t rows) {
    rows_in_group += rows;
    total_rows += rows;
    if (rows_in_group < row_group_rows && buffered_bytes < row_group_bytes && !dictionary_full) return;
    try {
      flush_row_group();
    } catch (...) {
      state = State::failed;
      throw;
    }
  }

  void write_footer() {
    Bytes meta;
    ThriftWriter w(meta);
    w.field_i32(1, 1);  // version
    w.begin_list(2, ThriftWriter::kStruct, columns.size() + 1);
    w.begin_elem_struct();  // root of the (flat) schema tree
    w.field_binary(4, "schema");
    w.field_i32(5, static_cast<std::int32_t>(columns.size()));
    w.end_struct();
    for (const ColumnState& c : columns) {
      w.begin_elem_struct();
      w.field_i32(1, physical_type(c.column.type));
      w.field_i32(3, kRequired);
      w.field_binary(4, c.column.name);
      if (c.column.type == Type::utf8) {
        // Both annotations: DuckDB reads VARCHAR only via converted_type, others prefer logicalType.
        w.field_i32(6, kConvertedUtf8);
        w.begin_struct(10);  // LogicalType union
        w.begin_struct(1);   // STRING: StringType {}
        w.end_struct();
        w.end_struct();
      }
      w.end_struct();
    }
    w.field_i64(3, static_cast<std::int64_t>(total_rows));
    w.begin_list(4, ThriftWriter::kStruct, num_row_groups);
    meta.insert(meta.end(), row_groups_meta.begin(), row_groups_meta.end());
    if (!key_value_metadata.empty()) {
      w.begin_list(5, ThriftWriter::kStruct, key_value_metadata.size());
      for (const auto& [key, value] : key_value_metadata) {
        w.begin_elem_struct();
        w.field_binary(1, key);
        w.field_binary(2, value);
        w.end_struct();
      }
    }
    w.field_binary(6, created_by);
    // Declares min_value/max_value as ordered by type (signed ints, unsigned bytes, false<true).
    w.begin_list(7, ThriftWriter::kStruct, columns.size());
    for (std::size_t i = 0; i < columns.size(); ++i) {
      w.begin_elem_struct();
      w.begin_struct(1);  // TYPE_ORDER: TypeDefinedOrder {}
      w.end_struct();
      w.end_struct();
    }
    w.end_struct();

    if (meta.size() > std::numeric_limits<std::uint32_t>::max()) fail("footer exceeds 4 GiB");
    Bytes tail;
    detail::put_u32le(tail, static_cast<std::uint32_t>(meta.size()));
    append(tail, "PAR1");
    emit(meta.data(), meta.size());
    emit(tail.data(), tail.size());
  }

  void check_string(const ColumnState& c, std::string_view v) const {
    if (v.size() > kMaxPageBytes - 4)
      fail("column '" + c.column.name + "': a value of " + std::to_string(v.size()) +
           " bytes exceeds the 2 GiB page limit");
    if (!detail::is_valid_utf8(v))
      fail("column '" + c.column.name + "', row " + std::to_string(total_rows) +
           ": value is not valid UTF-8");
  }

  // append_rows: that `b` holds `b.rows` values of the right type in every column, every
  // string valid; throws before anything is appended otherwise.
  void check_batch(const RowBatch& b) const {
    if (state != State::open) fail("append_rows called after close() or a failed write");
    if (b.columns.size() != columns.size())
      fail("append_rows: " + std::to_string(b.columns.size()) + " columns for a schema of " +
           std::to_string(columns.size()));
    for (std::size_t j = 0; j < columns.size(); ++j) {
      const ColumnState& c = columns[j];
      const ColumnValues& v = b.columns[j];
      if (c.count != rows_in_group) fail("append_rows: a row begun value by value is not complete");
      std::size_t n = 0;
      switch (c.column.type) {
        case Type::int32: n = v.i32.size(); break;
        case Type::int64: n = v.i64.size(); break;
        case Type::boolean: n = v.bools.size(); break;
        case Type::utf8:
          for (std::size_t r = 0; r < v.runs(); ++r) {
            check_string(c, v.run(r));
            n += v.run_rows(r);
          }
          break;
      }
      if (n != b.rows)
        fail("append_rows: column '" + c.column.name + "' has " + std::to_string(n) + " values for " +
             std::to_string(b.rows) + " rows");
    }
  }

  // append_rows: rows [from, from + n) of column j of `b` (cursors[j], run_used[j]: where its
  // string runs stand).
  void add_rows(std::size_t j, const ColumnValues& v, std::size_t from, std::size_t n) {
    ColumnState& c = columns[j];
    switch (c.column.type) {
      case Type::int32: add_fixed(c, c.i32, v.i32.data() + from, n); return;
      case Type::int64: add_fixed(c, c.i64, v.i64.data() + from, n); return;
      case Type::boolean: add_fixed(c, c.bools, v.bools.data() + from, n); return;
      case Type::utf8:
        while (n > 0) {
          std::size_t& run = cursors[j];
          const std::size_t take = std::min<std::size_t>(n, v.run_rows(run) - run_used[j]);
          add_string(c, v.run(run), take);
          n -= take;
          run_used[j] += static_cast<std::uint32_t>(take);
          if (run_used[j] == v.run_rows(run)) {
            ++run;
            run_used[j] = 0;
          }
        }
        return;
    }
  }
};

// ColumnValues / RowBatch ------------------------------------------------------------------------

void ColumnValues::clear() {
  i32.clear();
  i64.clear();
  bools.clear();
  run_rows_.clear();
  offsets_.resize(1);
  bytes_.clear();
}

void RowBatch::clear() {
  rows = 0;
  for (ColumnValues& c : columns) c.clear();
}

// Writer ---------------------------------------------------------------------------------------

Writer::Writer(ByteSink& out, std::vector<Column> schema, Compression compression,
               std::vector<std::pair<std::string, std::string>> key_value_metadata,
               std::size_t row_group_rows, std::size_t row_group_bytes, std::string created_by)
    : impl_(std::make_unique<Impl>(out, compression)) {
  if (schema.empty()) fail("the schema has no columns");
  if (row_group_rows == 0) fail("row_group_rows must be at least 1");
  for (std::size_t i = 0; i < schema.size(); ++i) {
    const std::string& name = schema[i].name;
    if (name.empty()) fail("column " + std::to_string(i) + " has an empty name");
    if (!detail::is_valid_utf8(name)) fail("column name is not valid UTF-8");
    for (std::size_t j = 0; j < i; ++j)
      if (schema[j].name == name) fail("duplicate column name '" + name + "'");
  }
  for (const auto& [key, value] : key_value_metadata)
    if (!detail::is_valid_utf8(key) || !detail::is_valid_utf8(value))
      fail("key/value metadata '" + key + "' is not valid UTF-8");
  if (!detail::is_valid_utf8(created_by)) fail("created_by is not valid UTF-8");

  Impl& m = *impl_;
  m.key_value_metadata = std::move(key_value_metadata);
  m.row_group_rows = row_group_rows;
  m.row_group_bytes = std::max<std::size_t>(row_group_bytes, 1);
  m.created_by = std::move(created_by);
  m.columns.resize(schema.size());
  for (std::size_t i = 0; i < schema.size(); ++i) {
    m.columns[i].column = std::move(schema[i]);
    m.reset(m.columns[i]);
  }
  m.emit("PAR1", 4);
}

Writer::~Writer() = default;

void Writer::append_int32(std::size_t col, std::int32_t v) {
  ColumnState& c = impl_->column(col, Type::int32, "append_int32");
  impl_->add_fixed(c, c.i32, &v, 1);
}

void Writer::append_int64(std::size_t col, std::int64_t v) {
  ColumnState& c = impl_->column(col, Type::int64, "append_int64");
  impl_->add_fixed(c, c.i64, &v, 1);
}

void Writer::append_bool(std::size_t col, bool v) {
  ColumnState& c = impl_->column(col, Type::boolean, "append_bool");
  const std::uint8_t byte = v ? 1 : 0;
  impl_->add_fixed(c, c.bools, &byte, 1);
}

void Writer::append_string(std::size_t col, std::string_view v) {
  ColumnState& c = impl_->column(col, Type::utf8, "append_string");
  impl_->check_string(c, v);
  impl_->add_string(c, v, 1);
}

void Writer::end_row() {
  Impl& m = *impl_;
  if (m.state != Impl::State::open) fail("end_row called after close() or a failed write");
  for (const ColumnState& c : m.columns)
    if (c.count != m.rows_in_group + 1)
      fail("end_row: column '" + c.column.name + "' has no value in row " +
           std::to_string(m.total_rows));
  m.rows_added(1);
}

void Writer::append_rows(const RowBatch& batch) {
  Impl& m = *impl_;
  m.check_batch(batch);
  // In steps of rows, so that a row group ends close to where its byte bound or a full
  // dictionary is reached.
  constexpr std::size_t kRowsPerStep = 4096;
  m.cursors.assign(m.columns.size(), 0);
  m.run_used.assign(m.columns.size(), 0);
  for (std::size_t done = 0; done < batch.rows;) {
    const std::size_t n = std::min({batch.rows - done, m.row_group_rows - m.rows_in_group, kRowsPerStep});
    try {
      for (std::size_t j = 0; j < m.columns.size(); ++j) m.add_rows(j, batch.columns[j], done, n);
    } catch (...) {
      m.state = Impl::State::failed;
      throw;
    }
    m.rows_added(n);
    done += n;
  }
}

void Writer::close() {
  Impl& m = *impl_;
  if (m.state != Impl::State::open) fail("close called twice or after a failed write");
  for (const ColumnState& c : m.columns)
    if (c.count != m.rows_in_group)
      fail("close: row " + std::to_string(m.total_rows) + " is incomplete (end_row not called)");
  try {
    if (m.rows_in_group > 0) m.flush_row_group();
    m.write_footer();
    m.state = Impl::State::closed;
  } catch (...) {
    m.state = Impl::State::failed;
    throw;
  }
}

std::uint64_t Writer::rows_written() const { return impl_->total_rows; }
std::uint64_t Writer::bytes_written() const { return impl_->offset; }

}  // namespace trawl::parquet
