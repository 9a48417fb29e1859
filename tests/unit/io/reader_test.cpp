// FASTA chunks (FastxReader::next_chunk + parse_chunk, the pipeline's way of reading) must
// give exactly the records, record count and error message of reading record by record with
// next(), for any chunk size, on seeded random inputs full of the awkward cases: blank lines,
// '\r\n', '>' inside headers and sequences, no final newline, records longer than a chunk,
// NUL bytes (an error naming record and line), several files, a FASTQ file among them.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "trawl/core/errors.h"
#include "trawl/io/reader.h"

using namespace trawl;

namespace {

struct ReadResult {
  std::vector<std::string> rows;  // "name\tseq" per record
  std::uint64_t records_read = 0;
  std::string error;
};

void collect(const RecordBatch& b, ReadResult& out) {
  for (std::size_t r = 0; r < b.size(); ++r) {
    out.rows.push_back(std::string(b.name(r)) + "\t" + std::string(b.seq(r)));
    // With keep_records: the header line, the quality and the kind too.
    if (b.keeps_records())
      out.rows.back() += "\t" + std::string(b.header(r)) + "\t" + std::string(b.qual(r)) + "\t" +
                         std::to_string(static_cast<int>(b.kinds[r]));
  }
}

ReadResult read_by_record(const std::vector<std::string>& paths, ReaderOptions options) {
  ReadResult out;
  FastxReader reader(paths, options);
  RecordBatch b;
  try {
    while (reader.next(b)) {}
  } catch (const InputError& e) {
    out.error = e.what();
  }
  collect(b, out);
  out.records_read = reader.records_read();
  return out;
}

ReadResult read_by_chunk(const std::vector<std::string>& paths, ReaderOptions options,
                         std::uint64_t target) {
  ReadResult out;
  FastxReader reader(paths, options);
  RecordBatch b;  // records from next()
  RecordBatch parsed;  // one chunk's records: views into that chunk, so collected at once
  FastaChunk chunk;
  try {
    for (;;) {
      if (reader.next_chunk(chunk, target)) {
        collect(b, out);
        b.clear();
        parsed.clear();
        FastxReader::parse_chunk(chunk, parsed);
        REQUIRE(parsed.size() == chunk.records);
        collect(parsed, out);
        parsed.clear();
        continue;
      }
      if (!reader.next(b)) break;
    }
  } catch (const InputError& e) {
    out.error = e.what();
  }
  collect(parsed, out);  // the records of a chunk before its error
  collect(b, out);
  out.records_read = reader.records_read();
  return out;
}

std::string random_fasta(std::mt19937_64& rng, bool allow_nul) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  std::string s;
  const int blank_start = pick(3);
  for (int i = 0; i < blank_start; ++i) s += pick(2) ? "\n" : "\r\n";
  const int records = pick(12);
  for (int r = 0; r < records; ++r) {
    s += '>';
    const int name_len = pick(8);
    for (int i = 0; i < name_len; ++i) s += "ab c>\t"[pick(6)];
    s += pick(4) ? "\n" : "\r\n";
    const int lines = pick(5);
    for (int l = 0; l < lines; ++l) {
      // Now and then a long line, longer than the smallest chunks.
      const int len = pick(6) == 0 ? 200 + pick(300) : pick(30);
      for (int i = 0; i < len; ++i) s += "ACGTN>a"[pick(7)];
      if (allow_nul && pick(200) == 0) s += '\0';
      s += pick(5) ? "\n" : "\r\n";
      if (pick(8) == 0) s += "\n";  // a blank line inside the record
    }
  }
  if (!s.empty() && pick(3) == 0) s.pop_back();  // no final newline
  return s;
}

// Random FASTQ, mostly of four-line records (the ones chunks take), with every other shape
// now and then: sequence and quality in several lines, CRLF, blank lines, a quality line that
// starts with '@' or '+', a sequence line that starts with '+', a '+' line that repeats the
// name, a quality of the wrong length, a NUL byte, tabs in headers, an empty sequence, no final newline, a truncated last record.
std::string random_fastq(std::mt19937_64& rng) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  std::string s;
  const int records = pick(14);
  for (int r = 0; r < records; ++r) {
    const char* eol = pick(30) ? "\n" : "\r\n";
    std::string name = "q" + std::to_string(r);
    if (pick(3) == 0) name += pick(2) ? " comment x" : "\tfield";
    const int len = pick(8) == 0 ? 200 + pick(300) : pick(40);
    std::string seq, qual;
    for (int i = 0; i < len; ++i) seq += "ACGTN"[pick(5)];
    for (int i = 0; i < len; ++i) qual += "@+>I#5"[pick(6)];
    if (pick(40) == 0 && !seq.empty()) seq[pick(len)] = '\0';
    if (pick(40) == 0 && !seq.empty()) seq[0] = '+';  // next() ends the sequence at such a line
    if (pick(40) == 0) qual += 'J';  // one too long
    s += "@" + name + eol;
    if (pick(15) == 0 && len > 2) {
      s += seq.substr(0, len / 2) + eol + seq.substr(len / 2) + eol;  // two lines
    } else {
      s += seq + eol;
    }
    s += pick(6) == 0 ? "+" + name + eol : std::string("+") + eol;
    if (pick(15) == 0 && qual.size() > 2) {
      s += qual.substr(0, qual.size() / 2) + eol + qual.substr(qual.size() / 2) + eol;
    } else {
      s += qual + eol;
    }
    if (pick(20) == 0) s += "\n";  // a blank line between records
  }
  if (!s.empty() && pick(4) == 0) s.pop_back();  // no final newline
  if (!s.empty() && pick(25) == 0) s.resize(s.size() - 1 - static_cast<std::size_t>(pick(static_cast<int>(std::min<std::size_t>(s.size(), 20)))));
  return s;
}

std::string write_temp(const std::string& name, const std::string& bytes) {
  const std::string path = "/tmp/trawl_reader_test." + std::to_string(::getpid()) + "." + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

}  // namespace

TEST_CASE("reader: FASTA chunks parse exactly as record-by-record reading") {
  std::mt19937_64 rng(20261203);
  int compared = 0, errors = 0, chunked_records = 0;
  for (int c = 0; c < 400; ++c) {
    std::vector<std::string> paths;
    const int files = 1 + static_cast<int>(rng() % 3);
    for (int f = 0; f < files; ++f) {
      std::string bytes = random_fasta(rng, c % 4 == 0);
      if (c % 25 == 0 && f == files - 1) bytes += "@q\nACGT\n+\nIIII\n";  // FASTQ after FASTA: an error
      if (c % 31 == 0 && f == 0) bytes = "@q\nACGT\n+\nIIII\n@r\nAC\n+\nII\n";  // a FASTQ file
      paths.push_back(write_temp(std::to_string(f), bytes));
    }
    for (const bool full_header : {false, true}) {
      const ReadResult expected = read_by_record(paths, ReaderOptions{full_header, 0, false});
      // Record by record from mapped files: one-line sequences are lent as views into the
      // mapping (several files: views of one file at a time in a batch, copies otherwise).
      {
        const ReadResult mapped = read_by_record(paths, ReaderOptions{full_header, 0, true});
        INFO("case " << c << " record by record, mapped, full_header " << full_header);
        CHECK(mapped.rows == expected.rows);
        CHECK(mapped.error == expected.error);
        CHECK(mapped.records_read == expected.records_read);
        ++compared;
      }
      // Mapped files (chunks read with pread) and buffered reading alike.
      for (const bool map_files : {true, false})
      for (const std::uint64_t target : {1, 7, 64, 300, 4096, 1 << 20}) {
        const ReadResult got = read_by_chunk(paths, ReaderOptions{full_header, 0, map_files}, target);
        INFO("case " << c << " target " << target << " full_header " << full_header << " map_files " << map_files);
        CHECK(got.rows == expected.rows);
        CHECK(got.error == expected.error);
        // After an error, chunks have counted records beyond it (not yet parsed).
        if (expected.error.empty()) CHECK(got.records_read == expected.records_read);
        ++compared;
      }
      errors += !expected.error.empty();
      chunked_records += static_cast<int>(expected.rows.size());
    }
    for (const std::string& p : paths) std::remove(p.c_str());
  }
  MESSAGE(compared << " comparisons, " << errors << " inputs with an error, " << chunked_records
                   << " records");
  CHECK(errors > 10);  // the error paths were exercised
}

TEST_CASE("reader: FASTQ chunks parse exactly as record-by-record reading, errors included") {
  std::mt19937_64 rng(20261207);
  int compared = 0, errors = 0, records = 0;
  for (int c = 0; c < 300; ++c) {
    std::vector<std::string> paths;
    const int files = 1 + static_cast<int>(rng() % 2);
    for (int f = 0; f < files; ++f) paths.push_back(write_temp(std::to_string(f), random_fastq(rng)));
    for (const bool full_header : {false, true})
      for (const bool keep : {false, true}) {
        ReaderOptions o{full_header, 0, false};
        o.keep_records = keep;
        const ReadResult expected = read_by_record(paths, o);
        for (const bool map_files : {true, false})
          for (const std::uint64_t target : {1, 7, 64, 300, 4096, 1 << 20}) {
            o.map_files = map_files;
            const ReadResult got = read_by_chunk(paths, o, target);
            INFO("case " << c << " target " << target << " full_header " << full_header << " keep " << keep
                         << " map_files " << map_files);
            CHECK(got.rows == expected.rows);
            CHECK(got.error == expected.error);
            if (expected.error.empty()) CHECK(got.records_read == expected.records_read);
            ++compared;
          }
        errors += !expected.error.empty();
        records += static_cast<int>(expected.rows.size());
      }
    for (const std::string& p : paths) std::remove(p.c_str());
  }
  MESSAGE(compared << " comparisons, " << errors << " inputs with an error, " << records << " records");
  CHECK(errors > 10);
}

// Inputs many times the reader's 1 MiB line buffer: a mapped file's chunks are read with
// pread, a buffered file's from the line buffer (no more than the chunk asks for, the rest
// left there) and then from the file; every chunk size must give the records of next().
TEST_CASE("reader: chunks of a file larger than the line buffer parse as record-by-record reading") {
  std::mt19937_64 rng(20261205);
  std::string bytes;
  while (bytes.size() < (std::size_t{3} << 20)) {
    std::string piece = random_fasta(rng, false);
    if (!piece.empty() && piece.back() != '\n') piece += '\n';  // records stay whole
    bytes += piece;
  }
  const std::string path = write_temp("large", bytes);
  const ReadResult expected = read_by_record({path}, ReaderOptions{false, 0, false});
  REQUIRE(expected.error.empty());
  REQUIRE(expected.rows.size() > 10000);
  for (const bool map_files : {true, false})
    for (const std::uint64_t target : {1000, 65536 + 17, 300000, 1 << 20, 5 << 20}) {
      INFO("target " << target << " map_files " << map_files);
      const ReadResult got = read_by_chunk({path}, ReaderOptions{false, 0, map_files}, target);
      CHECK(got.error.empty());
      CHECK(got.rows == expected.rows);
      CHECK(got.records_read == expected.records_read);
    }
  std::remove(path.c_str());
}

TEST_CASE("reader: a chunk error names the record and line within the file") {
  const std::string path = write_temp("nul", ">a\nAC\nGT\n>b x>y\nAAA\n\n>c\nA" + std::string(1, '\0') + "C\n");
  FastxReader reader({path}, ReaderOptions{});
  FastaChunk chunk;
  REQUIRE(reader.next_chunk(chunk, 1 << 20));
  CHECK(chunk.records == 3);
  RecordBatch b;
  CHECK_THROWS_WITH_AS(FastxReader::parse_chunk(chunk, b),
                       (path + ": record 3 (line 8): NUL byte in sequence (binary input?)").c_str(),
                       InputError);
  std::remove(path.c_str());
}

TEST_CASE("reader: records longer than the release step read the same mapped and buffered") {
  // A long one-line record of a mapped file is lent as a view into the mapping; one in
  // lines is copied out in slices whose pages are released behind the copy (one 40 MB line,
  // and 40 MB in 61-byte lines); the bytes must not change.
  std::mt19937_64 rng(7);
  std::string one_line(40u << 20, 'A'), lines;
  for (char& c : one_line) c = "ACGT"[rng() & 3];
  for (std::size_t i = 0; i < one_line.size(); i += 61) lines += one_line.substr(i, 61) + "\n";
  const std::string path = write_temp("long", ">a\n" + one_line + "\n>b desc\n" + lines + ">c\nAC\n");
  for (const bool map_files : {true, false}) {
    FastxReader reader({path}, ReaderOptions{false, 0, map_files});
    RecordBatch b;
    while (reader.next(b)) {}
    REQUIRE(b.size() == 3);
    CHECK(b.seq(0) == one_line);
    CHECK(b.seq(1) == one_line);
    CHECK(b.name(1) == "b");
    CHECK(b.seq(2) == "AC");
    // Views (of a and c) into the mapping, a copy of b.
    CHECK((b.borrowed_mapping != nullptr) == map_files);
  }
  std::remove(path.c_str());
}

TEST_CASE("reader: a NUL byte in a lent one-line sequence is the same error as in a copied one") {
  std::string seq(100000, 'C');
  seq[77777] = '\0';
  const std::string path = write_temp("nul_line", ">a\nACGT\n>b\n" + seq + "\n>c\nAC");
  std::string messages[2];
  for (const bool map_files : {true, false}) {
    FastxReader reader({path}, ReaderOptions{false, 0, map_files});
    RecordBatch b;
    try {
      while (reader.next(b)) {}
    } catch (const InputError& e) {
      messages[map_files] = e.what();
    }
    CHECK(b.size() == 1);
  }
  CHECK(messages[1] == path + ": record 2 (line 4): NUL byte in sequence (binary input?)");
  CHECK(messages[0] == messages[1]);
  std::remove(path.c_str());
}

TEST_CASE("reader: a LineEndFinder searches a long one-line sequence past its first MiB") {
  // The pipeline's finder searches in parts on every thread; this one searches parts of
  // 64 KiB last to first, so only a correct minimum over the parts gives the line end.
  std::mt19937_64 rng(11);
  std::string long_seq(3u << 20, 'A'), nul_seq(3u << 20, 'C');
  for (char& c : long_seq) c = "ACGT"[rng() & 3];
  nul_seq[(5u << 19) + 3] = '\0';  // 2.5 MiB in: past the part searched on the reader's thread
  const std::string path =
      write_temp("finder", ">a\n" + long_seq + "\n>b\n" + long_seq.substr(0, 1000) + "\n>c\n" + long_seq + "\r\n>d\n" + nul_seq + "\n");
  std::size_t calls = 0;
  auto finder = [&](const char* p, std::size_t n) {
    ++calls;
    constexpr std::size_t kPart = 1 << 16;
    std::size_t first = n;
    for (std::size_t at = (n - 1) / kPart * kPart;; at -= kPart) {
      const std::size_t len = std::min(kPart, n - at);
      const std::size_t end = FastxReader::find_line_end(p + at, len);
      if (end < len) first = at + end;
      if (at == 0) break;
    }
    return first;
  };
  std::string messages[2];
  for (const bool with_finder : {false, true}) {
    FastxReader reader({path}, ReaderOptions{});
    if (with_finder) reader.set_line_end_finder(finder);
    RecordBatch b;
    try {
      while (reader.next(b)) {}
    } catch (const InputError& e) {
      messages[with_finder] = e.what();
    }
    REQUIRE(b.size() == 3);
    CHECK(b.seq(0) == long_seq);
    CHECK(b.seq(1) == long_seq.substr(0, 1000));
    CHECK(b.seq(2) == long_seq);  // the '\r' before the line end dropped
    // Lent as views into the mapping (a wrong line end would make the reader copy instead).
    for (const std::size_t r : {0, 2}) CHECK((b.seq_spans[r].offset & RecordBatch::kBorrowed) != 0);
  }
  CHECK(calls == 3);  // a, c and d: b ends within its first MiB
  CHECK(messages[1] == path + ": record 4 (line 8): NUL byte in sequence (binary input?)");
  CHECK(messages[0] == messages[1]);
  std::remove(path.c_str());
}

namespace {

// A gzip file of `bytes` in stored (uncompressed) deflate blocks, written by hand so the
// test does not share the reader's decompressor.
std::string gzip_stored(const std::string& bytes) {
  std::uint32_t table[256];
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    table[i] = c;
  }
  std::uint32_t crc = 0xFFFFFFFFu;
  for (const unsigned char b : bytes) crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8);
  crc ^= 0xFFFFFFFFu;
  auto le = [](std::string& s, std::uint32_t v, int n) {
    for (int i = 0; i < n; ++i) s += static_cast<char>((v >> (8 * i)) & 0xFF);
  };
  std::string out("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff", 10);
  std::size_t at = 0;
  do {
    const std::size_t n = std::min<std::size_t>(bytes.size() - at, 65535);
    out += static_cast<char>(at + n == bytes.size() ? 1 : 0);
    le(out, static_cast<std::uint32_t>(n), 2);
    le(out, static_cast<std::uint32_t>(~n & 0xFFFF), 2);
    out.append(bytes, at, n);
    at += n;
  } while (at < bytes.size());
  le(out, crc, 4);
  le(out, static_cast<std::uint32_t>(bytes.size()), 4);
  return out;
}

// The error of reading `paths` whole (empty: none), record by record or in chunks, with fd 0
// reading `stdin_path` where that is given (the paths then name "-").
std::string read_error(const std::vector<std::string>& paths, const ReaderOptions& options, bool chunks,
                       const std::string& stdin_path = "") {
  const int saved = stdin_path.empty() ? -1 : ::dup(0);
  if (saved >= 0) REQUIRE(std::freopen(stdin_path.c_str(), "rb", stdin) != nullptr);
  const ReadResult got = chunks ? read_by_chunk(paths, options, 64) : read_by_record(paths, options);
  if (saved >= 0) {
    ::dup2(saved, 0);
    ::close(saved);
    std::clearerr(stdin);
  }
  return got.error;
}

}  // namespace

TEST_CASE("reader: a stream that mixes FASTA and FASTQ records is an error naming the line") {
  const std::string fq = "@q1\nACGT\n+\n@II>\n@q2\nAC\n+\n>I\n";  // qualities may start with '@' or '>'
  struct Case {
    std::string bytes;
    int line;
    bool fastq_after_fasta;
  };
  const std::vector<Case> cases = {
      {">a\nACGTACGT\n>b\nACGT\n" + fq, 5, true},     // one-line FASTA records
      {">a\nACGT\nACGT\n\n" + fq, 5, true},            // in lines, a blank line before the FASTQ
      {">a\n" + fq, 2, true},                          // an empty FASTA record
      {">a\nAC\r\n@q\r\nAC\r\n+\r\nII\r\n", 3, true},  // CRLF
      {fq + ">a\nACGT\n", 9, false},
      {fq + "\n>a\nACGT\n", 10, false},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    const std::string plain = write_temp("mixed", c.bytes), gz = write_temp("mixed.gz", gzip_stored(c.bytes));
    const std::string what = c.fastq_after_fasta
                                 ? "a line that starts with '@' (a FASTQ record?) after FASTA records; trawl reads one format per input"
                                 : "a FASTA record ('>') after FASTQ records; trawl reads one format per input";
    const std::string line = ": line " + std::to_string(c.line) + ": ";
    for (const bool map_files : {true, false})
      for (const bool chunks : {false, true}) {
        INFO("case " << i << " map_files " << map_files << " chunks " << chunks);
        const ReaderOptions options{false, 0, map_files};
        CHECK(read_error({plain}, options, chunks) == plain + line + what);
        CHECK(read_error({gz}, options, chunks) == gz + line + what);
        CHECK(read_error({"-"}, options, chunks, plain) == "<stdin>" + line + what);
        CHECK(read_error({"-"}, options, chunks, gz) == "<stdin>" + line + what);
      }
    std::remove(plain.c_str());
    std::remove(gz.c_str());
  }
  // One format per input: a FASTA and a FASTQ file read one after the other are fine.
  const std::string fa = write_temp("fa", ">a\nACGT\n"), fastq = write_temp("fq", fq);
  const ReadResult both = read_by_chunk({fa, fastq, fa}, ReaderOptions{}, 64);
  CHECK(both.error.empty());
  CHECK(both.rows == std::vector<std::string>{"a\tACGT", "q1\tACGT", "q2\tAC", "a\tACGT"});
  std::remove(fa.c_str());
  std::remove(fastq.c_str());
}

TEST_CASE("reader: a quality of the wrong length names the record, its quality line and both lengths") {
  const std::string rec1 = "@r1 one\nACGTACGTAC\n+\nIIIIIIIIII\n", rec3 = "@r3\nACGTACGTAC\n+\nIIIIIIIIII\n";
  struct Case {
    std::string bytes, message;
  };
  const std::vector<Case> cases = {
      // Short: the joined quality would take in the next record's lines; the file has 5.
      {rec1 + "@r2 two\nACGTACGTAC\n+\nIIIII\n" + rec3, "record 2 'r2': quality length 5 at line 8 differs from sequence length 10"},
      {rec1 + "@r2\nACGTACGTAC\n+\nIIIIIIIIIIII\n" + rec3, "record 2 'r2': quality length 12 at line 8 differs from sequence length 10"},
      {rec1 + "@r2\nACGTACGTAC\n+r2\nIII\n", "record 2 'r2': quality length 3 at line 8 differs from sequence length 10"},  // at the end
      {rec1 + "@r2\nACGTA\nCGTAC\n+\nIIII\nIII\n@r3 x\nAC\n+\nII\n", "record 2 'r2': quality length 7 at line 9 differs from sequence length 10"},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::string path = write_temp("qual", cases[i].bytes);
    for (const bool map_files : {true, false}) {
      INFO("case " << i << " map_files " << map_files);
      CHECK(read_error({path}, ReaderOptions{false, 0, map_files}, false) == path + ": " + cases[i].message);
    }
    std::remove(path.c_str());
  }
}

TEST_CASE("reader: input compressed with bzip2, xz or zstd is named as such") {
  const std::vector<std::pair<std::string, std::string>> kinds = {
      {std::string("BZh91AY&SY\x01\x02", 12), "bzip2"},
      {std::string("\xFD" "7zXZ\0\0\x04\xE6\xD6\xB4\x46", 12), "xz"},
      {std::string("\x28\xB5\x2F\xFD\x24\x05\x29\x00", 8), "zstd"},
  };
  for (const auto& [bytes, tool] : kinds) {
    const std::string path = write_temp("packed", bytes);
    const std::string advice = ", which trawl does not read; decompress it first (e.g. `";
    for (const bool map_files : {true, false}) {
      INFO(tool << " map_files " << map_files);
      const ReaderOptions options{false, 0, map_files};
      CHECK(read_error({path}, options, true) ==
            path + ": compressed with " + tool + advice + tool + " -dc " + path + " | trawl ... -`)");
      CHECK(read_error({"-"}, options, false, path) ==
            "<stdin>: compressed with " + tool + advice + "... | " + tool + " -dc | trawl ... -`)");
    }
    std::remove(path.c_str());
  }
  // Other junk keeps the plain message.
  const std::string junk = write_temp("junk", "BZ\n>a\nAC\n");
  CHECK(read_error({junk}, ReaderOptions{}, false) ==
        junk + ": line 1: not FASTA or FASTQ: expected '>' or '@' at the start of a record, found 'B' (plain text? --lines makes each line a record)");
  std::remove(junk.c_str());
}

TEST_CASE("reader --lines: every line a record named by its line number, in every input and read path") {
  const std::string text = "first line\r\n\n>not a header\n@nor this\nlast, no line end";
  const std::vector<std::string> expected = {"1\tfirst line", "2\t", "3\t>not a header", "4\t@nor this",
                                             "5\tlast, no line end"};
  const std::string plain = write_temp("lines.txt", text), gz = write_temp("lines.txt.gz", gzip_stored(text));
  for (const std::string& path : {plain, gz})
    for (const bool map_files : {true, false}) {
      CAPTURE(path);
      CAPTURE(map_files);
      const ReaderOptions options{false, 0, map_files, true};
      const ReadResult by_record = read_by_record({path}, options);
      CHECK(by_record.error.empty());
      CHECK(by_record.rows == expected);
      CHECK(by_record.records_read == 5);
      CHECK(read_by_chunk({path}, options, 1).rows == expected);  // no chunks: record by record
    }
  // Two inputs: each numbers its own lines.
  const ReadResult two = read_by_record({plain, gz}, ReaderOptions{false, 0, true, true});
  CHECK(two.rows.size() == 10);
  CHECK(two.rows[5] == "1\tfirst line");
  // A final line end makes no empty record; a NUL byte is still binary input.
  CHECK(read_by_record({write_temp("lines_end.txt", "a\nb\n")}, ReaderOptions{false, 0, true, true}).rows ==
        std::vector<std::string>{"1\ta", "2\tb"});
  CHECK(read_by_record({write_temp("lines_nul.txt", std::string("a\nb\0c\n", 6))}, ReaderOptions{false, 0, true, true})
            .error.find("NUL byte") != std::string::npos);
  // Without --lines, plain text says how to read it.
  CHECK(read_by_record({plain}, ReaderOptions{}).error.find("--lines makes each line a record") != std::string::npos);
  for (const std::string& p : {plain, gz}) std::remove(p.c_str());
}
