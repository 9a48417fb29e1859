// Writes one named test case twice: as Parquet (through trawl::parquet::Writer) and as TSV (the
// same rows, the way trawl prints them). compare.mjs then decodes the Parquet file with three
// independent readers and requires each to equal the TSV row for row.
//
//   parquet_fixture CASE zstd|snappy|none OUT_PREFIX    writes OUT_PREFIX.parquet, OUT_PREFIX.tsv
//   parquet_fixture --list                              prints the case names
//
// Data is pseudo-random with a fixed seed, so every run writes identical files.
#include "trawl/sinks/parquet_writer.h"

#include <chrono>
#include <charconv>
#include <climits>
#include <cstdio>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace pq = trawl::parquet;

namespace {

class FileSink : public trawl::ByteSink {
 public:
  explicit FileSink(const std::string& path) : path_(path), f_(std::fopen(path.c_str(), "wb")) {
    if (!f_) throw std::runtime_error("cannot open " + path);
  }
  ~FileSink() override {
    if (f_) std::fclose(f_);
  }
  void write(const void* data, std::size_t size) override {
    if (std::fwrite(data, 1, size, f_) != size) throw std::runtime_error("write failed: " + path_);
  }
  void close() {
    if (std::fclose(f_) != 0) throw std::runtime_error("close failed: " + path_);
    f_ = nullptr;
  }

 private:
  std::string path_;
  std::FILE* f_;
};

// Writes every value to both the Parquet writer and the TSV file.
class Table {
 public:
  Table(const std::string& prefix, std::vector<pq::Column> schema, pq::Compression compression,
        std::size_t row_group_rows)
      : pq_sink_(prefix + ".parquet"), tsv_sink_(prefix + ".tsv"), schema_(schema),
        writer_(pq_sink_, schema, compression,
                {{"trawl.fixture", "parquet_fixture"}, {"trawl.schema_version", "1"}},
                row_group_rows, 128 << 20, "trawl version 0.1.0 (parquet_fixture)") {
    for (std::size_t i = 0; i < schema.size(); ++i) {
      if (i) tsv_ += '\t';
      tsv_ += schema[i].name;
    }
    tsv_ += '\n';
  }

  void str(std::string_view v) {
    for (const char ch : v)
      if (ch == '\t' || ch == '\n') throw std::logic_error("fixture values must not contain tabs or newlines");
    writer_.append_string(sep(), v);
    tsv_ += v;
  }
  void i32(std::int32_t v) {
    writer_.append_int32(sep(), v);
    number(v);
  }
  void i64(std::int64_t v) {
    writer_.append_int64(sep(), v);
    number(v);
  }
  void boolean(bool v) {
    writer_.append_bool(sep(), v);
    tsv_ += v ? "true" : "false";
  }
  void end_row() {
    writer_.end_row();
    tsv_ += '\n';
    col_ = 0;
    ++rows_;
    if (tsv_.size() > (1 << 20)) flush_tsv();
  }
  void close() {
    writer_.close();
    pq_sink_.close();
    flush_tsv();
    tsv_sink_.close();
  }
  std::uint64_t rows() const { return rows_; }
  std::uint64_t parquet_bytes() const { return writer_.bytes_written(); }

 private:
  std::size_t sep() {
    if (col_) tsv_ += '\t';
    return col_++;
  }
  template <class T>
  void number(T v) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    tsv_.append(buf, r.ptr);
  }
  void flush_tsv() {
    tsv_sink_.write(tsv_.data(), tsv_.size());
    tsv_.clear();
  }

  FileSink pq_sink_, tsv_sink_;
  std::vector<pq::Column> schema_;
  pq::Writer writer_;
  std::string tsv_;
  std::size_t col_ = 0;
  std::uint64_t rows_ = 0;
};

const std::vector<pq::Column> kHits = {
    {"pat_id", pq::Type::utf8}, {"text_id", pq::Type::utf8},     {"cost", pq::Type::int32},
    {"strand", pq::Type::utf8}, {"start", pq::Type::int64},      {"end", pq::Type::int64},
    {"match_region", pq::Type::utf8}, {"cigar", pq::Type::utf8}};
const std::vector<pq::Column> kCount = {
    {"pat_id", pq::Type::utf8}, {"text_id", pq::Type::utf8}, {"count", pq::Type::int64}};
const std::vector<pq::Column> kContains = {{"text_id", pq::Type::utf8},
                                           {"contains", pq::Type::boolean}};

// splitmix64: a fast, fixed-seed generator (std::mt19937_64 dominated the 10M-row case).
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : s_(seed) {}
  std::uint64_t operator()() {
    std::uint64_t z = (s_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

 private:
  std::uint64_t s_;
};

// prefix + decimal n, into a reused buffer.
std::string_view label(std::string& buf, std::string_view prefix, std::uint64_t n) {
  buf.assign(prefix);
  char digits[24];
  const auto r = std::to_chars(digits, digits + sizeof digits, n);
  buf.append(digits, r.ptr);
  return buf;
}

// Hits-like rows in trawl's order: records in input order, a few hits each.
class HitsGenerator {
 public:
  explicit HitsGenerator(std::uint64_t seed, int patterns = 12) : rng_(seed), patterns_(patterns) {}

  void rows(Table& t, std::uint64_t n, int region_min = 15, int region_max = 30) {
    std::uint64_t written = 0;
    while (written < n) {
      ++record_;
      const int hits = static_cast<int>(rng_() % 5);
      for (int h = 0; h < hits && written < n; ++h, ++written) {
        const int len = region_min + static_cast<int>(rng_() % (region_max - region_min + 1));
        const int cost = static_cast<int>(rng_() % 4);
        const std::int64_t start = static_cast<std::int64_t>(rng_() % 100000);
        t.str(label(id_, "pattern", 1 + rng_() % patterns_));
        t.str(label(id_, "read", record_));
        t.i32(cost);
        t.str(rng_() % 2 ? "+" : "-");
        t.i64(start);
        t.i64(start + len);
        region_.clear();
        for (int i = 0; i < len; i += 16) {  // 16 bases per random draw
          std::uint64_t bits = rng_();
          for (int k = i; k < len && k < i + 16; ++k, bits >>= 2) region_ += "ACGT"[bits & 3];
        }
        if (rng_() % 50 == 0) region_[0] = 'N';
        t.str(region_);
        if (cost == 0) {
          label(cigar_, "", static_cast<std::uint64_t>(len));
          cigar_ += '=';
        } else {
          const int a = 1 + static_cast<int>(rng_() % (len - 2));
          label(cigar_, "", static_cast<std::uint64_t>(a));
          cigar_ += '=';
          cigar_ += std::to_string(cost);
          cigar_ += 'X';
          cigar_ += std::to_string(std::max(1, len - a - cost));
          cigar_ += '=';
        }
        t.str(cigar_);
        t.end_row();
      }
    }
  }

 private:
  Rng rng_;
  int patterns_;
  std::uint64_t record_ = 0;
  std::string id_, region_, cigar_;
};

struct Case {
  const char* name;
  const char* what;
  std::function<void(const std::string&, pq::Compression)> run;
};

std::vector<Case> cases() {
  std::vector<Case> c;
  c.push_back({"hits", "20k hits rows, row groups of 3000", [](auto& p, auto comp) {
                 Table t(p, kHits, comp, 3000);
                 HitsGenerator(1).rows(t, 20000);
                 t.close();
               }});
  c.push_back({"count", "count table, 5000 rows, row groups of 999", [](auto& p, auto comp) {
                 Table t(p, kCount, comp, 999);
                 Rng rng(2);
                 for (int i = 0; i < 5000; ++i) {
                   t.str("guide" + std::to_string(1 + rng() % 300));
                   t.str("read" + std::to_string(i / 3));
                   t.i64(1 + static_cast<std::int64_t>(rng() % 1000));
                   t.end_row();
                 }
                 t.close();
               }});
  c.push_back({"contains", "contains table, 5003 rows, row groups of 1001 (partial bytes)",
               [](auto& p, auto comp) {
                 Table t(p, kContains, comp, 1001);
                 Rng rng(3);
                 for (int i = 0; i < 5003; ++i) {
                   t.str("seq" + std::to_string(i));
                   t.boolean(rng() % 3 == 0);
                   t.end_row();
                 }
                 t.close();
               }});
  c.push_back({"contains_const", "contains table, all false / all true row groups",
               [](auto& p, auto comp) {
                 Table t(p, kContains, comp, 10);
                 for (int i = 0; i < 25; ++i) {
                   t.str("r");
                   t.boolean(i >= 10 && i < 20);
                   t.end_row();
                 }
                 t.close();
               }});
  c.push_back({"zero_rows", "hits schema, no rows", [](auto& p, auto comp) {
                 Table t(p, kHits, comp, 1000);
                 t.close();
               }});
  c.push_back({"empty_strings", "empty strings in every string column, cigar always empty",
               [](auto& p, auto comp) {
                 Table t(p, kHits, comp, 7);
                 for (int i = 0; i < 40; ++i) {
                   t.str(i % 3 == 0 ? "" : "p");
                   t.str(i % 2 == 0 ? "" : "read" + std::to_string(i));
                   t.i32(i);
                   t.str(i % 5 == 0 ? "" : "+");
                   t.i64(i);
                   t.i64(i);
                   t.str(i % 4 == 0 ? "" : std::string(static_cast<std::size_t>(i), 'A'));
                   t.str("");
                   t.end_row();
                 }
                 t.close();
               }});
  c.push_back({"long_string", "100 kbp match_region values (30 rows = several 1 MiB pages)",
               [](auto& p, auto comp) {
                 Table t(p, kHits, comp, 1000);
                 Rng rng(4);
                 std::string region;
                 for (int i = 0; i < 32; ++i) {
                   const std::size_t len = i % 8 == 7 ? 10 : 100000;
                   region.clear();
                   for (std::size_t k = 0; k < len; ++k) region += "ACGT"[rng() % 4];
                   t.str("pattern1");
                   t.str("chr" + std::to_string(1 + i / 10));
                   t.i32(0);
                   t.str("+");
                   t.i64(i * 1000000LL);
                   t.i64(i * 1000000LL + static_cast<std::int64_t>(len));
                   t.str(region);
                   t.str(std::to_string(len) + "=");
                   t.end_row();
                 }
                 t.close();
               }});
  c.push_back({"edge", "integer extremes, multibyte UTF-8, bytes >= 0x80 in stats, 3x7 rows",
               [](auto& p, auto comp) {
                 const std::vector<pq::Column> schema = {
                     {"str", pq::Type::utf8},  {"i32", pq::Type::int32},
                     {"i64", pq::Type::int64}, {"bool", pq::Type::boolean},
                     {"str_const", pq::Type::utf8}};
                 Table t(p, schema, comp, 7);
                 const char* strs[] = {"a", "é", "日本語", "🧬 dna", "Z", "zz", "ÿ", "",
                                       "a\xc3\xa9", "~", "Ω", "abc", "ab", "A"};
                 const std::int32_t i32s[] = {INT32_MIN, INT32_MAX, 0, -1, 1};
                 const std::int64_t i64s[] = {INT64_MIN, INT64_MAX, 0, -1, 4294967296LL};
                 for (int i = 0; i < 21; ++i) {
                   t.str(strs[i % 14]);
                   t.i32(i32s[i % 5]);
                   t.i64(i64s[(i * 3) % 5]);
                   t.boolean(i % 2 == 1);
                   t.str("same");
                   t.end_row();
                 }
                 t.close();
               }});
  c.push_back({"dict_fallback",
               "100k rows, 2 row groups: text_id's dictionary overflows 1 MiB mid-chunk, "
               "match_region's is dropped early, pat_id (2000 values) keeps one",
               [](auto& p, auto comp) {
                 Table t(p, kHits, comp, 60000);
                 Rng rng(5);
                 std::string buf, region;
                 for (std::uint64_t i = 0; i < 100000; ++i) {
                   t.str(label(buf, "pattern", 1 + rng() % 2000));
                   t.str(label(buf, "a_rather_long_record_name_for_testing_", i / 2));
                   t.i32(static_cast<std::int32_t>(rng() % 4));
                   t.str(rng() % 2 ? "+" : "-");
                   t.i64(static_cast<std::int64_t>(i));
                   t.i64(static_cast<std::int64_t>(i + 20));
                   region.clear();
                   for (std::uint64_t bits = rng(); region.size() < 24; bits >>= 2)
                     region += "ACGT"[bits & 3];
                   t.str(region);
                   t.str("20=");
                   t.end_row();
                 }
                 t.close();
               }});
  c.push_back({"big", "10M hits rows, row groups of 65536 (153 groups)", [](auto& p, auto comp) {
                 Table t(p, kHits, comp, 1 << 16);
                 HitsGenerator(6).rows(t, 10000000, 8, 12);
                 t.close();
               }});
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const auto all = cases();
    if (argc == 2 && std::strcmp(argv[1], "--list") == 0) {
      for (const auto& c : all) std::printf("%s\t%s\n", c.name, c.what);
      return 0;
    }
    if (argc != 4) {
      std::fprintf(stderr, "usage: %s CASE zstd|snappy|none OUT_PREFIX | --list\n", argv[0]);
      return 2;
    }
    const auto compression = pq::parse_compression(argv[2]);
    if (!compression) {
      std::fprintf(stderr, "unknown compression '%s'\n", argv[2]);
      return 2;
    }
    for (const auto& c : all) {
      if (c.name != std::string_view(argv[1])) continue;
      const auto t0 = std::chrono::steady_clock::now();
      c.run(argv[3], *compression);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::FILE* f = std::fopen((std::string(argv[3]) + ".parquet").c_str(), "rb");
      long size = 0;
      if (f) {
        std::fseek(f, 0, SEEK_END);
        size = std::ftell(f);
        std::fclose(f);
      }
      std::fprintf(stderr, "%s/%s: %ld bytes parquet, %.2f s (with data generation and TSV)\n",
                   argv[1], argv[2], size, s);
      return 0;
    }
    std::fprintf(stderr, "unknown case '%s' (see --list)\n", argv[1]);
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "parquet_fixture: %s\n", e.what());
    return 1;
  }
}
