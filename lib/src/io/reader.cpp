#include "trawl/io/reader.h"

#include <htslib/bgzf.h>
#include <htslib/hfile.h>
#include <htslib/hts.h>
#include <htslib/hts_log.h>

#include <cerrno>
#include <algorithm>
#include <charconv>
#if defined(__SSE2__)
#include <immintrin.h>
#endif
#include <cstring>
#include <limits>
#include <stdexcept>
#include <sys/mman.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trawl/core/errors.h"
#include "trawl/core/memory_pages.h"
#include "trawl/kernel/cpu.h"
#include "trawl/io/gzip_input.h"

namespace trawl {

namespace {

// Every '\n' position in [p, p + n) into `out` (resized to their number); returns whether a
// NUL byte occurs. The reader stage's only pass over a chunk's bytes: it numbers the chunk's
// records and lines, and the parse then finds each line end in this index instead of
// calling memchr per line (a call and a scan of an unaligned short line each), which was
// the largest part of parsing short records (docs/performance.md).
template <class Vec>
__attribute__((always_inline)) inline bool index_lines_with(const char* p, std::size_t n,
                                                            UninitializedVector<std::uint32_t>& out) {
  std::size_t count = 0;
  // Room for one more block's line ends (grown by doubling; kept between chunks).
  auto room = [&] {
    if (out.size() < count + Vec::kBytes) out.resize(std::max(2 * out.size(), count + Vec::kBytes + 4096));
  };
  std::size_t i = 0;
  bool nul = false;
  for (; i + Vec::kBytes <= n; i += Vec::kBytes) {
    // This pass is the first read of a chunk's bytes (in the caches only in part); the
    // hardware prefetcher stops at each 4 KiB page, so ask a page ahead.
    __builtin_prefetch(p + i + 4096);
    auto [lines, zeros] = Vec::masks(p + i);
    nul |= zeros != 0;
    room();
    std::uint32_t* dst = out.data() + count;
    for (; lines; lines &= lines - 1) *dst++ = static_cast<std::uint32_t>(i + static_cast<std::size_t>(__builtin_ctzll(lines)));
    count = static_cast<std::size_t>(dst - out.data());
  }
  for (; i < n; ++i) {
    nul |= p[i] == 0;
    if (p[i] != '\n') continue;
    room();
    out[count++] = static_cast<std::uint32_t>(i);
  }
  out.resize(count);
  return nul;
}
#if defined(__SSE2__)
struct Sse2Lines {
  static constexpr std::size_t kBytes = 16;
  static std::pair<std::uint64_t, std::uint64_t> masks(const char* p) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    return {static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8('\n')))),
            static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_setzero_si128())))};
  }
};
struct Avx2Lines {
  static constexpr std::size_t kBytes = 32;
  __attribute__((target("avx2"))) static std::pair<std::uint64_t, std::uint64_t> masks(const char* p) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    return {static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('\n')))),
            static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, _mm256_setzero_si256())))};
  }
};
__attribute__((target("avx2"))) bool index_lines_avx2(const char* p, std::size_t n,
                                                      UninitializedVector<std::uint32_t>& out) {
  return index_lines_with<Avx2Lines>(p, n, out);
}
#else
struct ByteLines {
  static constexpr std::size_t kBytes = 1;
  static std::pair<std::uint64_t, std::uint64_t> masks(const char* p) { return {*p == '\n', *p == 0}; }
};
#endif
// The offset of the first '\n' or NUL byte in [p, p + n), or n: one pass over a line both
// finds its end and proves it free of NUL bytes (memchr twice would read it twice). Long
// lines go 64 bytes a step, short ones (80-column FASTA) 16.
std::size_t find_line_end_or_nul(const char* p, std::size_t n) {
  std::size_t i = 0;
#if defined(__SSE2__)
  const __m128i newline = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
  auto stops = [&](std::size_t at) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at));
    return _mm_or_si128(_mm_cmpeq_epi8(x, newline), _mm_cmpeq_epi8(x, zero));
  };
  if (n >= 256) {
    for (; i + 64 <= n; i += 64) {
      const __m128i any = _mm_or_si128(_mm_or_si128(stops(i), stops(i + 16)),
                                       _mm_or_si128(stops(i + 32), stops(i + 48)));
      if (_mm_movemask_epi8(any) != 0) break;  // the steps below find which
    }
  }
  for (; i + 16 <= n; i += 16)
    if (const int mask = _mm_movemask_epi8(stops(i)); mask != 0) return i + static_cast<std::size_t>(__builtin_ctz(mask));
#endif
  for (; i < n; ++i)
    if (p[i] == '\n' || p[i] == 0) return i;
  return n;
}

bool index_lines(const char* p, std::size_t n, UninitializedVector<std::uint32_t>& out) {
#if defined(__SSE2__)
  static const bool avx2 = cpu_features().avx2;
  return avx2 ? index_lines_avx2(p, n, out) : index_lines_with<Sse2Lines>(p, n, out);
#else
  return index_lines_with<ByteLines>(p, n, out);
#endif
}

}  // namespace

// An uncompressed input file mapped whole, shared by the records lent from it.
class MappedFile {
 public:
  MappedFile(const char* data, std::size_t size) : data_(data), size_(size), behind_(data, size) {}
  ~MappedFile() { munmap(const_cast<char*>(data_), size_); }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  const char* data() const { return data_; }
  // Drops the pages wholly inside [begin, end) from the process; for bytes only the caller
  // uses (thread safe: madvise alone).
  void release_range(const char* begin, const char* end) const {
    pages::advise_inside(begin, static_cast<std::size_t>(end - begin), MADV_DONTNEED);
  }
  // Drops the pages wholly before `end` from the process (see pages::ReleaseBehind). Calls
  // come in input order.
  void release_before(const char* end) { behind_.release_before(end); }

 private:
  const char* data_;
  std::size_t size_;
  pages::ReleaseBehind behind_;
};

// One input: a buffered line source plus the FASTA/FASTQ record grammar. The source is a
// file over BGZF, or (parse_chunk) a block of FASTA bytes already in memory.
class FastxReader::File {
 public:
  // The reader's (see FastxReader::set_line_end_finder, set_line_indexer); null in a chunk
  // parser.
  const LineEndFinder* line_end_finder = nullptr;
  const LineIndexer* line_indexer = nullptr;
  // A parser for chunks in memory (see start_chunk).
  File() = default;
  // Parses `chunk` next; record and line numbers continue from its bases. The parser's
  // buffers are kept, so a thread parsing chunk after chunk allocates nothing new.
  void start_chunk(const FastaChunk& chunk) {
    display_ = *chunk.display;  // within the capacity after the first chunk of a file
    options_ = chunk.options;
    data_ = chunk.data;
    pos_ = 0;
    end_ = chunk.size;
    eof_ = false;
    format_ = chunk.format;
    record_ = chunk.record_base;
    line_no_ = chunk.line_base;
    parsing_chunk_ = true;
    // The reader stage's pass found the block's line ends and whether it has a NUL byte
    // (most have none, so records need no NUL check of their own).
    line_index_ = chunk.indexed;
    chunk_has_nul_ = chunk.has_nul;
    newlines_ = chunk.newlines.data();
    newline_count_ = chunk.newlines.size();
    next_newline_ = 0;
  }

  File(const std::string& path, const ReaderOptions& options)
      : display_(path == "-" ? "<stdin>" : path), options_(options) {
    if (path != "-") {
      struct stat st {};
      if (stat(path.c_str(), &st) != 0)
        throw InputError(display_ + ": cannot open: " + std::strerror(errno));
      if (S_ISDIR(st.st_mode)) throw InputError(display_ + ": is a directory");
      if (S_ISREG(st.st_mode)) file_size_ = static_cast<std::uint64_t>(st.st_size);
    }
    fp_ = bgzf_open(path.c_str(), "r");
    if (!fp_) throw InputError(display_ + ": cannot open: " + std::strerror(errno ? errno : EIO));
    if (options.decompress_threads > 0 && bgzf_compression(fp_) == bgzf)
      bgzf_mt(fp_, options.decompress_threads, 64);
    // Uncompressed input is read from the underlying hFILE, which copies big reads straight
    // into our buffer; bgzf_read would copy every byte once more through its 64 KiB block.
    // (bgzf_open only peeked at the first bytes, so nothing is lost.)
    plain_ = bgzf_compression(fp_) == no_compression;
    // Plain gzip (not BGZF) is inflated here, from the compressed bytes htslib reads.
    if (bgzf_compression(fp_) == gzip)
      gzip_ = std::make_unique<GzipInput>([fp = fp_->fp](char* dst, std::size_t n) -> std::size_t {
        const ssize_t got = hread(fp, dst, n);
        if (got < 0) throw std::runtime_error(std::strerror(errno ? errno : EIO));
        return static_cast<std::size_t>(got);
      });
    buf_.resize(1 << 20);
    data_ = buf_.data();
    if (plain_ && file_size_ > 0 && options.map_files) map_whole_file(path);
  }
  ~File() {
    if (fp_) bgzf_close(fp_);
  }
  File(const File&) = delete;
  File& operator=(const File&) = delete;

  // Where the next byte would be read, in a mapped file.
  InputMark mark() const {
    if (!mapping_) return {};
    return {mapping_, data_ + pos_};
  }

  // Whether no record is left (blank lines aside): the lock-step reader asks the other mate
  // file once one has ended.
  bool at_end() {
    skip_blank_lines();
    return peek() < 0;
  }
  // '>' FASTA, '@' FASTQ, 0 before the first record; and the name messages use.
  int format() const { return format_; }
  const std::string& display() const { return display_; }
  // Bytes of the file read so far: the parse position of a mapped file, else what was read
  // from it (compressed bytes for compressed input).
  std::uint64_t position() const {
    if (mapping_) return pos_;
    return fp_ ? static_cast<std::uint64_t>(std::max<off_t>(0, htell(fp_->fp))) : file_size_;
  }

  enum class ChunkResult { took, ended, use_next };
  // Moves whole records, about `target` bytes, into `chunk` unparsed; counts their records
  // and lines so numbering goes on as if they had been parsed. FASTA records of any shape;
  // FASTQ records only of four lines each (next() reads the others). use_next: the next
  // record is not one a chunk takes (the first record of a file that is neither format, or
  // one longer than `target`): it stays for next().
  ChunkResult take_chunk(FastaChunk& chunk, std::uint64_t target) {
    if (options_.lines) return ChunkResult::use_next;  // (lines are records of their own)
    // After a FASTA chunk the next byte is a '>' (chunks end before a header line);
    // otherwise look (in a mapped file that maps a page, which the chunk's own bytes below
    // avoid).
    if (!at_fasta_header_) {
      skip_blank_lines();
      const int c = peek();
      if (c < 0) return ChunkResult::ended;
      if (format_ == 0 && (c == '>' || c == '@')) format_ = c;
      if (c != format_ || (format_ == '@' && no_fastq_chunks_)) return ChunkResult::use_next;
    }
    at_fasta_header_ = false;
    bool at_end = false;
    // A FASTQ base comes with its quality byte: twice the bytes hold about as many bases.
    const std::string_view source = chunk_source(chunk, format_ == '@' ? 2 * target : target, at_end);
    const char* begin = source.data();
    const std::size_t size = source.size();
    // One pass finds the line ends (kept for the parse) and NUL bytes; chunks of 4 GiB or
    // more are counted without an index.
    chunk.indexed = size <= std::numeric_limits<std::uint32_t>::max();
    if (chunk.indexed)
      chunk.has_nul = line_indexer != nullptr && *line_indexer ? (*line_indexer)(source, chunk.newlines)
                                                               : FastxReader::index_lines(source, chunk.newlines);
    std::uint64_t fastq_records = 0;
    const std::size_t cut = format_ == '>' ? fasta_cut(source, at_end) : fastq_cut(chunk, source, at_end, fastq_records);
    give_back(chunk, size, cut);
    if (cut == 0) return ChunkResult::use_next;  // (a FASTQ record of another shape: fastq_cut)
    at_fasta_header_ = format_ == '>' && cut < size;
    chunk.data = begin;
    chunk.size = cut;
    chunk.format = static_cast<char>(format_);
    std::uint64_t records = fastq_records, lines = 4 * fastq_records;
    if (format_ == '>') count_fasta(chunk, records, lines);
    else chunk.newlines.resize(std::min<std::size_t>(chunk.newlines.size(), 4 * records));
    chunk.display = display_shared();
    chunk.options = options_;
    chunk.record_base = record_;
    chunk.line_base = line_no_;
    chunk.records = records;
    record_ += records;
    line_no_ += lines;
    return ChunkResult::took;
  }

  // The next bytes for a chunk, about `target` of them: a mapped file's own (not a copy: a
  // pread into the chunk cost more, in time and in system time, than the mapping's page faults
  // (docs/performance.md); the pages are dropped again behind the output, release()), or
  // copies from the line buffer, refilled (a MiB a read) as it runs out, into storage
  // reserved in whole huge pages: a task size that grows step by step would otherwise move
  // the buffer, and clear fresh pages, at every step.
  std::string_view chunk_source(FastaChunk& chunk, std::uint64_t target, bool& at_end) {
    if (mapping_) {
      const std::string_view source{data_ + pos_, std::min<std::size_t>(end_ - pos_, target)};
      at_end = pos_ + source.size() == end_;
      chunk.mapping = mapping_;
      return source;
    }
    auto& bytes = chunk.storage;
    if (bytes.capacity() < target) bytes.reserve(HugePageAllocator<char>::room_for(target));
    bytes.clear();
    while (bytes.size() < target && (pos_ < end_ || refill())) {
      const std::size_t take = std::min<std::size_t>(end_ - pos_, target - bytes.size());
      bytes.insert(bytes.end(), data_ + pos_, data_ + pos_ + take);
      pos_ += take;
    }
    at_end = pos_ == end_ && eof_;
    chunk.mapping.reset();
    return {bytes.data(), bytes.size()};
  }

  // FASTA: before the last header line (records after it may be incomplete), or all of it
  // at the end of the file.
  static std::size_t fasta_cut(std::string_view source, bool at_end) {
    if (at_end) return source.size();
    const char* begin = source.data();
    for (std::size_t i = source.size(); i > 1;) {
      const void* gt = memrchr(begin + 1, '>', i - 1);
      if (!gt) break;
      i = static_cast<std::size_t>(static_cast<const char*>(gt) - begin);
      if (begin[i - 1] == '\n') return i;
    }
    return 0;
  }

  // FASTQ: after the last whole record of the run of four-line records at the start ('@'
  // header, sequence, '+' line, a quality as long as the sequence; no '\r', no NUL byte), which
  // the parse then takes straight from the line index; `records` says how many. A first
  // record of another shape sets no_fastq_chunks_: the file is read record by record from
  // there (looking again at every record would index the same bytes again and again); one
  // only longer than the chunk does not.
  std::size_t fastq_cut(FastaChunk& chunk, std::string_view source, bool at_end, std::uint64_t& records) {
    records = 0;
    if (!chunk.indexed) {
      no_fastq_chunks_ = true;
      return 0;
    }
    const char* b = source.data();
    const std::size_t size = source.size(), n = chunk.newlines.size();
    const std::uint32_t* nl = chunk.newlines.data();
    // A last line without '\n' ends at the end of the file.
    const std::size_t lines = n + (at_end && size > 0 && b[size - 1] != '\n' ? 1 : 0);
    const auto line_end = [&](std::size_t i) -> std::size_t { return i < n ? nl[i] : size; };
    const std::size_t nul = chunk.has_nul ? static_cast<std::size_t>(static_cast<const char*>(std::memchr(b, 0, size)) - b) : SIZE_MAX;
    const auto ends_cr = [&](std::size_t from, std::size_t to) { return to > from && b[to - 1] == '\r'; };
    std::size_t start = 0;
    for (std::size_t line = 0; line + 4 <= lines; line += 4) {
      const std::size_t header_end = line_end(line), seq_end = line_end(line + 1),
                        plus_end = line_end(line + 2), qual_end = line_end(line + 3);
      const std::size_t seq = header_end + 1, plus = seq_end + 1, qual = plus_end + 1;
      if (qual_end >= nul) break;
      // (A sequence line that starts with '+' would end next()'s sequence there.)
      const bool shaped = b[start] == '@' && b[plus] == '+' && qual_end - qual == seq_end - seq &&
                          (seq == seq_end || b[seq] != '+') &&
                          !ends_cr(start, header_end) && !ends_cr(seq, seq_end) && !ends_cr(plus, plus_end) &&
                          !ends_cr(qual, qual_end);
      if (!shaped) {
        if (records == 0) no_fastq_chunks_ = true;
        break;
      }
      start = qual_end + 1;
      ++records;
    }
    chunk.has_nul = false;
    return std::min(start, size);
  }

  // Puts the bytes of a chunk's source past `cut` back to be read again.
  void give_back(FastaChunk& chunk, std::size_t size, std::size_t cut) {
    auto& bytes = chunk.storage;
    if (mapping_) {
      pos_ += cut;
      return;
    }
    if (size - cut <= pos_) {
      pos_ -= size - cut;  // the bytes past the cut are still in the line buffer
    } else {
      // They began before the buffer's last refill: the older ones go back in front of it.
      const std::size_t older = size - cut - pos_;
      joined_.assign(bytes.begin() + static_cast<std::ptrdiff_t>(cut),
                     bytes.begin() + static_cast<std::ptrdiff_t>(cut + older));
      joined_.insert(joined_.end(), buf_.begin(), buf_.begin() + static_cast<std::ptrdiff_t>(end_));
      if (joined_.size() < (1 << 20)) joined_.resize(1 << 20);
      end_ += older;
      buf_.swap(joined_);
      data_ = buf_.data();
      pos_ = 0;
    }
    if (cut > 0) bytes.resize(cut);
  }

  // A FASTA chunk's records and lines: a line end followed by '>' starts a record (data[0] is
  // a '>'); a last line without '\n' counts too, as take_line counts lines. Trims the line
  // index to the chunk.
  static void count_fasta(FastaChunk& chunk, std::uint64_t& records, std::uint64_t& lines) {
    const char* begin = chunk.data;
    const std::size_t cut = chunk.size;
    records = 1;
    lines = 0;
    if (chunk.indexed) {
      // The index and the NUL check covered the bytes past the cut too.
      auto& newlines = chunk.newlines;
      newlines.resize(static_cast<std::size_t>(
          std::lower_bound(newlines.begin(), newlines.end(), static_cast<std::uint32_t>(cut)) - newlines.begin()));
      if (chunk.has_nul) chunk.has_nul = std::memchr(begin, 0, cut) != nullptr;
      lines = newlines.size();
      for (const std::uint32_t at : newlines) records += at + 1 < cut && begin[at + 1] == '>';
    } else {  // offsets past 32 bits: counted here, found again by the parse
      chunk.newlines.clear();
      chunk.has_nul = std::memchr(begin, 0, cut) != nullptr;
      for (const char* p = begin; (p = static_cast<const char*>(std::memchr(p, '\n', cut - static_cast<std::size_t>(p - begin))));) {
        ++lines;
        ++p;
        records += p < begin + cut && *p == '>';
      }
    }
    lines += begin[cut - 1] != '\n';
  }

  // Reads one record into the batch arena. Returns false at the end of the file.
  bool next(RecordBatch& batch, std::uint64_t limit) {
    if (sequence_open_) throw std::logic_error("FastxReader: a record's sequence is still open");
    if (options_.lines) return next_line(batch);
    at_fasta_header_ = false;
    skip_blank_lines();
    int c = peek();
    if (c < 0) return false;
    ++record_;
    if (format_ == 0) {
      if (c != '>' && c != '@') fail_not_fastx(c);
      format_ = c;
    }
    if (c != format_) {
      if (c == '>' || c == '@') fail_mixed(c);
      fail_at_line(std::string("expected '") + static_cast<char>(format_) +
                   "' at the start of a record, found " + describe(c));
    }

    // Header line: text_id is the name up to the first whitespace unless full_header.
    // A chunk holds every line whole, so its names and one-line sequences are views into
    // it (RecordBatch::kBorrowed) instead of copies.
    const bool in_memory = parsing_chunk_;
    std::string_view header;
    if (in_memory) {
      header = borrow_line();
    } else {
      line_.clear();
      take_line(line_);
      header = line_;
    }
    header.remove_prefix(1);
    if (options_.keep_records) keep_header(batch, header, in_memory);
    if (!options_.full_header) {
      // A plain loop: string_view::find_first_of calls memchr on the set for every byte.
      std::size_t cut = 0;
      while (cut < header.size() && !is_header_space(header[cut])) ++cut;
      header = header.substr(0, cut);
    }
    // A tab inside a full header would split the TSV row; show it as a space (a copy).
    if (in_memory && !(options_.full_header && header.find('\t') != std::string_view::npos)) {
      batch.name_spans.push_back({borrowed_offset(header.data()), header.size()});
    } else {
      const std::uint64_t name_off = batch.names.size();
      batch.names.append(header);
      if (options_.full_header)
        for (std::size_t i = name_off; i < batch.names.size(); ++i)
          if (batch.names[i] == '\t') batch.names[i] = ' ';
      batch.name_spans.push_back({name_off, header.size()});
    }

    const std::uint64_t seq_off = batch.seqs.size();
    if (format_ == '>') {
      // FASTA: sequence lines up to the next header; blank lines are skipped.
      if (!in_memory && mapping_ && lend_one_line_sequence(batch)) return true;
      if (!in_memory) {
        join_first_part(batch.seqs, limit);
        batch.seq_spans.push_back({seq_off, batch.seqs.size() - seq_off});
        batch.seq_bases += batch.seqs.size() - seq_off;
        return true;
      }
      // A chunk in memory: a one-line sequence is a view, more lines are copied. A line
      // that starts with '@' is a FASTQ record (see join_sequence), checked once a line here
      // and once a record in take_simple_records.
      if (peek() >= 0 && peek() != '>') {
        if (peek() == '@') fail_mixed('@');
        const std::string_view first = borrow_line();
        if (peek() < 0 || peek() == '>') {
          if (chunk_has_nul_ && std::memchr(first.data(), 0, first.size()))
            fail_here("NUL byte in sequence (binary input?)");
          batch.seq_spans.push_back({borrowed_offset(first.data()), first.size()});
          batch.seq_bases += first.size();
          return true;
        }
        batch.seqs.append(first);
      }
      for (int d = peek(); d >= 0 && d != '>'; d = peek()) {
        if (d == '@') fail_mixed('@');
        take_line(batch.seqs);
      }
    } else {
      for (int d = peek(); d >= 0 && d != '+'; d = peek()) take_line(batch.seqs);
      if (peek() != '+') fail_here("FASTQ record has no '+' line");
      skip_line();
      // (Read straight into the batch where it keeps qualities: no second copy.)
      std::string& quals = options_.keep_records ? batch.quals : qual_;
      if (!options_.keep_records) qual_.clear();
      const std::size_t qual_off = quals.size();
      read_quality(header, batch.seqs.size() - seq_off, quals);
      if (options_.keep_records) batch.add_kept(RecordBatch::Kind::fastq, {qual_off, quals.size() - qual_off});
    }
    const std::uint64_t seq_len = batch.seqs.size() - seq_off;
    if ((format_ == '@' || chunk_has_nul_) && std::memchr(batch.seqs.data() + seq_off, 0, seq_len))
      fail_here("NUL byte in sequence (binary input?)");
    batch.seq_spans.push_back({seq_off, seq_len});
    batch.seq_bases += seq_len;
    return true;
  }

  // --lines: the next line is a record (a last line without '\n' too), named by its line
  // number; an empty line is an empty record, so the numbers stay the file's.
  bool next_line(RecordBatch& batch) {
    if (peek() < 0) return false;
    ++record_;
    char number[24];
    const char* number_end = std::to_chars(number, number + sizeof number, line_no_ + 1).ptr;
    batch.name_spans.push_back({batch.names.size(), static_cast<std::uint64_t>(number_end - number)});
    batch.names.append(number, static_cast<std::size_t>(number_end - number));
    const std::uint64_t seq_off = batch.seqs.size();
    take_line(batch.seqs);
    const std::uint64_t len = batch.seqs.size() - seq_off;
    if (std::memchr(batch.seqs.data() + seq_off, 0, len)) fail_here("NUL byte in line (binary input?)");
    batch.seq_spans.push_back({seq_off, len});
    batch.seq_bases += len;
    if (options_.keep_records) {
      batch.header_spans.push_back({0, 0});
      batch.add_kept(RecordBatch::Kind::line, {0, 0});
    }
    return true;
  }

  // keep_records: the header line as read (a view where the line is in memory), and for
  // FASTA already the record's kind (a FASTQ record's comes with its quality).
  void keep_header(RecordBatch& batch, std::string_view header, bool in_memory) {
    if (in_memory) {
      batch.header_spans.push_back({borrowed_offset(header.data()), header.size()});
    } else {
      batch.header_spans.push_back({batch.names.size(), header.size()});
      batch.names.append(header);
    }
    if (format_ == '>') batch.add_kept(RecordBatch::Kind::fasta, {0, 0});
  }

  // In a chunk: takes up to `max` records at pos_ that are a header line and one sequence
  // line each (no '\r', no blank line, no '@' line, no NUL byte in the chunk, names cut at
  // whitespace), straight from the line index, as next() would take them; stops at the
  // first other one, which next() then reads. Returns how many it took. (Reads a record in
  // a few steps where next() took several calls: most chunks are all such records.)
  std::uint64_t take_simple_records(RecordBatch& batch, std::uint64_t max) {
    if (!line_index_ || chunk_has_nul_ || options_.full_header) return 0;
    std::uint64_t taken = 0;
    while (taken < max && next_newline_ + 1 < newline_count_) {
      const std::size_t header_end = newlines_[next_newline_], seq_end = newlines_[next_newline_ + 1];
      const std::size_t seq_begin = header_end + 1;
      if (data_[pos_] != '>' || seq_begin == seq_end || data_[seq_begin] == '>' ||
          data_[seq_begin] == '@' ||
          data_[header_end - 1] == '\r' || data_[seq_end - 1] == '\r' ||
          (seq_end + 1 < end_ && data_[seq_end + 1] != '>'))
        break;
      std::size_t name_end = pos_ + 1;
      while (name_end < header_end && !is_header_space(data_[name_end])) ++name_end;
      batch.name_spans.push_back({borrowed_offset(data_ + pos_ + 1), name_end - pos_ - 1});
      if (options_.keep_records) {
        batch.header_spans.push_back({borrowed_offset(data_ + pos_ + 1), header_end - pos_ - 1});
        batch.add_kept(RecordBatch::Kind::fasta, {0, 0});
      }
      batch.seq_spans.push_back({borrowed_offset(data_ + seq_begin), seq_end - seq_begin});
      batch.seq_bases += seq_end - seq_begin;
      pos_ = seq_end + 1;
      next_newline_ += 2;
      line_no_ += 2;
      ++record_;
      ++taken;
    }
    return taken;
  }

  // A FASTQ chunk's records (four lines each, checked by fastq_cut), straight from the line
  // index: names, sequences and qualities are views into the chunk.
  void take_fastq_records(RecordBatch& batch, std::uint64_t count) {
    const auto line_end = [&](std::size_t i) -> std::size_t { return i < newline_count_ ? newlines_[i] : end_; };
    for (std::uint64_t r = 0; r < count; ++r, next_newline_ += 4) {
      const std::size_t header_end = line_end(next_newline_), seq_end = line_end(next_newline_ + 1),
                        qual_end = line_end(next_newline_ + 3);
      const std::size_t seq = header_end + 1, qual = line_end(next_newline_ + 2) + 1;
      const std::string_view header(data_ + pos_ + 1, header_end - pos_ - 1);
      if (options_.keep_records) {
        batch.header_spans.push_back({borrowed_offset(header.data()), header.size()});
        batch.add_kept(RecordBatch::Kind::fastq, {borrowed_offset(data_ + qual), qual_end - qual});
      }
      add_name(batch, header);
      batch.seq_spans.push_back({borrowed_offset(data_ + seq), seq_end - seq});
      batch.seq_bases += seq_end - seq;
      pos_ = qual_end + 1;
    }
    record_ += count;
    line_no_ += 4 * count;
  }
  // A chunk record's text_id: the header up to the first whitespace (a view), or with
  // full_header all of it, tabs shown as spaces (then a copy).
  void add_name(RecordBatch& batch, std::string_view header) {
    if (!options_.full_header) {
      std::size_t cut = 0;
      while (cut < header.size() && !is_header_space(header[cut])) ++cut;
      batch.name_spans.push_back({borrowed_offset(header.data()), cut});
      return;
    }
    if (header.find('\t') == std::string_view::npos) {
      batch.name_spans.push_back({borrowed_offset(header.data()), header.size()});
      return;
    }
    const std::uint64_t off = batch.names.size();
    batch.names.append(header);
    std::replace(batch.names.begin() + static_cast<std::ptrdiff_t>(off), batch.names.end(), '\t', ' ');
    batch.name_spans.push_back({off, header.size()});
  }

  // Whether next() left a FASTA sequence unfinished (see FastxReader::next).
  bool sequence_open() const { return sequence_open_; }

  // Joins the open sequence's lines into dst: its bytes without line ends ('\n', and a '\r'
  // just before one), at most `room` of them, up to the next header line or the end of the
  // file. Returns the bytes written; the sequence is closed once it has ended (a NUL byte in
  // it is then an error, reported as for a record read whole).
  std::size_t join_sequence(char* dst, std::size_t room) {
    std::size_t written = 0;
    while (sequence_open_ && written < room) {
      if (pos_ == end_ && !refill()) {
        end_sequence();
        break;
      }
      const char* p = data_ + pos_;
      const std::size_t n = end_ - pos_;
      if (held_cr_) {  // a '\r' that ended the last block: a line end only before a '\n'
        held_cr_ = false;
        if (*p != '\n') {
          dst[written++] = '\r';
          continue;
        }
      }
      if (at_line_start_ && *p == '>') {
        end_sequence();
        break;
      }
      // '@' is no sequence letter: at a line start it begins a FASTQ record, which the
      // record grammar of this input cannot hold (see fail_mixed).
      if (at_line_start_ && *p == '@') fail_mixed('@');
      const std::size_t stop = find_line_end_or_nul(p, n);
      if (stop < n && p[stop] == 0) {
        // Joined as a byte like any other, and reported once the sequence has ended.
        nul_in_sequence_ = true;
        const std::size_t take = std::min(stop + 1, room - written);
        std::memcpy(dst + written, p, take);
        written += take;
        pos_ += take;
        at_line_start_ = false;
        continue;
      }
      const bool line_ends = stop < n;
      const bool cr = stop > 0 && p[stop - 1] == '\r';
      std::size_t take = cr ? stop - 1 : stop;
      if (take > room - written) {  // the room ends inside the line; the rest comes next time
        take = room - written;
        std::memcpy(dst + written, p, take);
        written += take;
        pos_ += take;
        at_line_start_ = false;
        break;
      }
      std::memcpy(dst + written, p, take);
      written += take;
      if (line_ends) {
        pos_ += stop + 1;
        ++line_no_;
        at_line_start_ = true;
      } else {
        pos_ += stop;
        held_cr_ = cr;
        at_line_start_ = false;
      }
    }
    // Bytes of a mapped file that a joined sequence has passed are used by nothing else, so
    // they leave resident memory as it goes (else a chromosome would be resident twice).
    if (mapping_ && pos_ - released_ >= kReleaseStep) {
      mapping_->release_range(data_ + released_, data_ + pos_);
      released_ = pos_;
    }
    if (!sequence_open_ && nul_in_sequence_) fail_here("NUL byte in sequence (binary input?)");
    return written;
  }

  // An upper bound of the bytes join_sequence may still write (the rest of a mapped file), or
  // 0 where that is unknown.
  std::uint64_t sequence_bound() const { return mapping_ ? end_ - pos_ : 0; }

 private:
  // Starts joining a FASTA sequence in lines into `seqs`, up to `limit` bytes; where it is
  // longer the sequence stays open (see join_sequence). Joined through a reused buffer, so
  // that a short record costs no clearing of room it does not use.
  void join_first_part(std::string& seqs, std::uint64_t limit) {
    constexpr std::size_t kStep = std::size_t{1} << 20;
    sequence_open_ = true;
    at_line_start_ = true;
    held_cr_ = false;
    nul_in_sequence_ = false;
    released_ = pos_;
    if (join_buf_.size() < kStep) join_buf_.resize(kStep);
    for (std::uint64_t joined = 0; sequence_open_ && joined < limit;) {
      const std::size_t room = static_cast<std::size_t>(std::min<std::uint64_t>(limit - joined, kStep));
      const std::size_t got = join_sequence(join_buf_.data(), room);
      seqs.append(join_buf_.data(), got);
      joined += got;
    }
  }
  // The end of a joined sequence: a last line without '\n' counts as a line, and a '\r'
  // that ended the input is a line end.
  void end_sequence() {
    sequence_open_ = false;
    held_cr_ = false;
    if (!at_line_start_) ++line_no_;
    at_line_start_ = true;
  }

  [[noreturn]] void fail_here(const std::string& what) {
    throw InputError(display_ + ": record " + std::to_string(record_) + " (line " +
                     std::to_string(line_no_) + "): " + what);
  }
  [[noreturn]] void fail_at_line(const std::string& what) {
    throw InputError(display_ + ": line " + std::to_string(line_no_ + 1) + ": " + what);
  }
  // A record of the other format at the next line. Mixed streams are refused rather than
  // parsed record by record: a chunk counts FASTA records by the '>' at line starts, which
  // a FASTQ quality line may also begin with, so only one grammar per input is safe.
  [[noreturn]] void fail_mixed(int marker) {
    fail_at_line(marker == '@' ? "a line that starts with '@' (a FASTQ record?) after FASTA records; trawl reads one format per input"
                               : "a FASTA record ('>') after FASTQ records; trawl reads one format per input");
  }
  // The first record does not start with '>' or '@'. A compressed format that htslib does
  // not read is named, since its magic bytes would otherwise be reported as a stray letter.
  [[noreturn]] void fail_not_fastx(int c) {
    if (line_no_ == 0) {
      // The magic is at the first byte; a pipe may have given fewer bytes than it so far.
      while (fp_ && end_ - pos_ < 6 && !eof_ && data_ == buf_.data() && end_ < buf_.size())
        end_ += read_into(buf_.data() + end_, buf_.size() - end_);
      const std::string_view head(data_ + pos_, std::min<std::size_t>(end_ - pos_, 6));
      const char* tool = head.substr(0, 3) == "BZh"                             ? "bzip2"
                         : head == std::string_view("\xFD" "7zXZ\0", 6)         ? "xz"
                         : head.substr(0, 4) == std::string_view("\x28\xB5\x2F\xFD", 4) ? "zstd"
                                                                                 : nullptr;
      if (tool) {
        const std::string source = display_ == "<stdin>" ? std::string("... | ") + tool + " -dc"
                                                         : std::string(tool) + " -dc " + display_;
        throw InputError(display_ + ": compressed with " + tool +
                         ", which trawl does not read; decompress it first (e.g. `" + source +
                         " | trawl ... -`)");
      }
    }
    fail_at_line("not FASTA or FASTQ: expected '>' or '@' at the start of a record, found " + describe(c) +
                 " (plain text? --lines makes each line a record)");
  }
  // Reads the quality lines of a FASTQ record whose sequence is `seq_len` long (joined until
  // they are as long, as kseq does) and checks the length. A mismatch names the record, the
  // line its quality starts at and the quality's length as the file has it: a short one
  // would join the next record's lines, so the report stops at a line that starts with '@'.
  // The quality is appended to `dst`.
  void read_quality(std::string_view name, std::uint64_t seq_len, std::string& dst) {
    const std::uint64_t first_line = line_no_ + 1;
    const std::size_t start = dst.size();
    std::size_t as_written = std::string::npos;  // the quality before a probable next header
    for (bool first = true; dst.size() - start < seq_len && peek() >= 0; first = false) {
      if (!first && as_written == std::string::npos && peek() == '@') as_written = dst.size() - start;
      take_line(dst);
    }
    if (dst.size() - start == seq_len) return;
    const std::size_t qual_len = as_written == std::string::npos ? dst.size() - start : as_written;
    throw InputError(display_ + ": record " + std::to_string(record_) + " '" + std::string(name) +
                     "': quality length " + std::to_string(qual_len) + " at line " +
                     std::to_string(first_line) + " differs from sequence length " + std::to_string(seq_len));
  }
  static bool is_header_space(char c) {
    return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
  }
  static std::string describe(int c) {
    if (c >= 0x21 && c < 0x7f) return std::string("'") + static_cast<char>(c) + "'";
    return "byte " + std::to_string(c);
  }

  // An uncompressed regular file is read as one mapping when the system allows it: next()
  // parses it as a buffer that is already full, and chunks and long one-line sequences are
  // views into it, not copies. Otherwise it is read through fp_.
  void map_whole_file(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    void* p = mmap(nullptr, file_size_, PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);  // (the mapping stays)
    if (p == MAP_FAILED) return;
    mapping_ = std::make_shared<MappedFile>(static_cast<const char*>(p), file_size_);
    bgzf_close(fp_);
    fp_ = nullptr;
    buf_ = {};
    data_ = mapping_->data();
    pos_ = 0;
    end_ = file_size_;
    eof_ = true;
  }

  // Up to `size` bytes from the file into `dst`; 0 (and eof_) at its end, or always in
  // memory mode.
  std::size_t read_into(char* dst, std::size_t size) {
    if (eof_ || !fp_) {
      eof_ = true;
      return 0;
    }
    if (gzip_) return read_gzip(dst, size);
    const ssize_t got = plain_ ? hread(fp_->fp, dst, size) : bgzf_read(fp_, dst, size);
    if (got < 0)
      throw InputError(display_ + ": read error after record " + std::to_string(record_) + ": " +
                       (plain_ ? std::string(std::strerror(errno ? errno : EIO))
                               : std::string("corrupt or truncated compressed data")));
    if (got == 0) eof_ = true;
    return static_cast<std::size_t>(got);
  }
  std::size_t read_gzip(char* dst, std::size_t size) {
    std::size_t got = 0;
    try {
      got = gzip_->read(dst, size);
    } catch (const std::runtime_error& e) {
      throw InputError(display_ + ": read error after record " + std::to_string(record_) + ": " + e.what());
    }
    if (got == 0) eof_ = true;
    return got;
  }
  bool refill() {
    if (!fp_) return false;  // a chunk or a mapped file: all of it is in memory already
    const std::size_t got = read_into(buf_.data(), buf_.size());
    pos_ = 0;
    end_ = got;
    return got > 0;
  }
  int peek() {
    if (pos_ == end_ && !refill()) return -1;
    return static_cast<unsigned char>(data_[pos_]);
  }
  std::shared_ptr<const std::string> display_shared() {
    if (!display_ptr_) display_ptr_ = std::make_shared<const std::string>(display_);
    return display_ptr_;
  }
  // Appends the rest of the current line (no '\n', no trailing '\r') to `dst`.
  void take_line(std::string& dst) {
    const std::size_t start_len = dst.size();
    for (;;) {
      if (pos_ == end_ && !refill()) break;
      const char* begin = data_ + pos_;
      const void* nl = find_newline();
      if (nl) {
        const std::size_t len = static_cast<const char*>(nl) - begin;
        reserve_more(dst, len);
        append_bytes(dst, begin, len);
        pos_ += len + 1;
        break;
      }
      reserve_more(dst, end_ - pos_);
      append_bytes(dst, begin, end_ - pos_);
      pos_ = end_;
    }
    ++line_no_;
    if (dst.size() > start_len && dst.back() == '\r') dst.pop_back();
  }
  // The first '\n' at or after pos_, or null: from the chunk's line index when it has one.
  const char* find_newline() {
    if (!parsing_chunk_ || !line_index_)
      return static_cast<const char*>(std::memchr(data_ + pos_, '\n', end_ - pos_));
    // Lines are consumed front to back, so the cursor only moves forward.
    while (next_newline_ < newline_count_ && newlines_[next_newline_] < pos_) ++next_newline_;
    return next_newline_ < newline_count_ ? data_ + newlines_[next_newline_] : nullptr;
  }
  // dst += [p, p + n). A long line of a mapped file (a chromosome on one line) is copied in
  // slices whose pages leave resident memory once copied: next() reads only records that no
  // chunk holds a view of.
  void append_bytes(std::string& dst, const char* p, std::size_t n) {
    if (!mapping_ || n < 2 * kReleaseStep) {
      dst.append(p, n);
      return;
    }
    for (std::size_t done = 0; done < n;) {
      const std::size_t step = std::min(kReleaseStep, n - done);
      dst.append(p + done, step);
      mapping_->release_range(p + done, p + done + step);
      done += step;
    }
  }
  // In memory mode: the rest of the current line as a view (no '\n', no trailing '\r'),
  // counted as take_line counts it.
  std::string_view borrow_line() {
    const char* begin = data_ + pos_;
    const void* nl = find_newline();
    std::size_t len = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - begin) : end_ - pos_;
    pos_ += nl ? len + 1 : len;
    ++line_no_;
    if (len > 0 && begin[len - 1] == '\r') --len;
    return {begin, len};
  }
  // A mapped file's FASTA sequence that is one line (a chromosome written unwrapped) as a
  // view into the mapping, lent to `batch` with the mapping: a long record then costs the
  // reader one pass (line end and NUL check together) instead of a copy into fresh pages.
  // False, with nothing consumed, where the sequence is not one line free of NUL bytes, or
  // the batch already holds views of another file; the caller then reads it as usual.
  bool lend_one_line_sequence(RecordBatch& batch) {
    if (pos_ >= end_ || data_[pos_] == '>' || data_[pos_] == '@') return false;
    if (batch.borrowed != nullptr && batch.borrowed != data_) return false;
    const std::size_t len = find_long_line_end(data_ + pos_, end_ - pos_);
    const std::size_t after = pos_ + len + (pos_ + len < end_ ? 1 : 0);
    if (pos_ + len < end_ && data_[pos_ + len] == 0) return false;  // next() reports it
    if (after < end_ && data_[after] != '>') return false;            // more lines follow
    std::size_t seq_len = len;
    if (seq_len > 0 && data_[pos_ + seq_len - 1] == '\r') --seq_len;
    batch.borrowed = data_;
    if (batch.borrowed_mapping != mapping_) batch.borrowed_mapping = mapping_;
    batch.seq_spans.push_back({borrowed_offset(data_ + pos_), seq_len});
    batch.seq_bases += seq_len;
    pos_ = after;
    ++line_no_;
    return true;
  }
  // find_line_end_or_nul, the part past the first MiB with the reader's LineEndFinder
  // where it has one.
  std::size_t find_long_line_end(const char* p, std::size_t n) const {
    constexpr std::size_t kOnThisThread = std::size_t{1} << 20;
    const std::size_t head = std::min(n, kOnThisThread);
    const std::size_t len = FastxReader::find_line_end(p, head);
    if (len < head || head == n) return len;
    if (line_end_finder != nullptr && *line_end_finder) return head + (*line_end_finder)(p + head, n - head);
    return head + FastxReader::find_line_end(p + head, n - head);
  }
  // The RecordBatch span offset of `p`, a byte of the chunk being parsed (or of the mapped
  // file, for lend_one_line_sequence).
  std::uint64_t borrowed_offset(const char* p) const {
    return static_cast<std::uint64_t>(p - data_) | RecordBatch::kBorrowed;
  }
  // Room for `extra` more bytes in `dst`. Beyond kLongBytes (a long record) it grows in big
  // steps, backed by transparent huge pages where the kernel allows them: a chromosome
  // would otherwise cost a page fault per 4 KiB and a copy per doubling. An
  // uncompressed file's size bounds any record in it, so one reservation (address space
  // only until touched) then suffices.
  void reserve_more(std::string& dst, std::size_t extra) {
    constexpr std::size_t kLongBytes = std::size_t{8} << 20;
    const std::size_t need = dst.size() + extra;
    if (need <= dst.capacity() || need < kLongBytes) return;
    std::size_t want = std::max(need, 2 * dst.capacity());
    if (file_size_ > need) want = std::max<std::size_t>(want, file_size_);
    dst.reserve(want);
    const auto page = static_cast<std::uintptr_t>(4096);
    const auto begin = (reinterpret_cast<std::uintptr_t>(dst.data()) + page - 1) & ~(page - 1);
    const auto end = reinterpret_cast<std::uintptr_t>(dst.data()) + dst.capacity();
    if (end > begin) (void)madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
  }
  void skip_line() {
    scratch_.clear();
    take_line(scratch_);
  }
  void skip_blank_lines() {
    for (int c = peek(); c == '\n' || c == '\r'; c = peek()) skip_line();
  }

  std::string display_;
  std::shared_ptr<const std::string> display_ptr_;  // for chunks, made once
  ReaderOptions options_;
  BGZF* fp_ = nullptr;     // null: a chunk in memory, or a mapped file
  std::shared_ptr<MappedFile> mapping_;  // the whole file, when mapped
  bool at_fasta_header_ = false;  // take_chunk left the input at a header's '>'
  bool no_fastq_chunks_ = false;  // a FASTQ record of another shape than four lines: no chunks
  static constexpr std::size_t kReleaseStep = std::size_t{16} << 20;  // of a long record
  bool plain_ = false;     // fp_ is uncompressed: read through its hFILE
  std::unique_ptr<GzipInput> gzip_;  // fp_ is plain gzip: inflated from its hFILE
  std::uint64_t file_size_ = 0;  // of a plain regular file (0: unknown)
  UninitializedVector<char> buf_;  // the line buffer over fp_
  const char* data_ = nullptr;  // buf_.data(), or the chunk
  std::size_t pos_ = 0, end_ = 0;
  bool eof_ = false;
  bool parsing_chunk_ = false;  // start_chunk: records may be views into the chunk
  bool chunk_has_nul_ = false;  // the chunk in memory has a NUL byte somewhere
  bool line_index_ = false;  // newlines_ holds the chunk's line ends (chunks under 4 GiB)
  const std::uint32_t* newlines_ = nullptr;  // the chunk's (FastaChunk::newlines)
  std::size_t newline_count_ = 0;
  std::size_t next_newline_ = 0;  // the first entry of newlines_ not behind pos_
  int format_ = 0;  // '>' FASTA, '@' FASTQ, 0 not yet known
  // A FASTA sequence being joined (join_sequence): still open, at the start of a line, a
  // '\r' held back at the end of a block, a NUL byte seen, bytes before released_ released.
  bool sequence_open_ = false, at_line_start_ = true, held_cr_ = false, nul_in_sequence_ = false;
  std::size_t released_ = 0;
  UninitializedVector<char> join_buf_;  // join_first_part's
  std::uint64_t record_ = 0, line_no_ = 0;
  std::string line_, qual_, scratch_;
  UninitializedVector<char> joined_;  // take_chunk's bytes past a cut, before a refill
};

FastxReader::FastxReader(std::vector<std::string> paths, ReaderOptions options)
    : paths_(std::move(paths)), options_(options) {
  // Our InputError names the file and record; htslib's own log lines would only repeat it.
  hts_set_log_level(HTS_LOG_OFF);
  if (paths_.empty()) paths_.push_back("-");
  if (options_.mates == MateLayout::two_files && paths_.size() != 2)
    throw std::invalid_argument("FastxReader: two mate files, not " + std::to_string(paths_.size()));
  // Fail before any output is produced if an input cannot be opened at all.
  for (auto& p : paths_) {
    if (p.empty()) p = "-";
    if (p == "-") continue;
    struct stat st {};
    if (stat(p.c_str(), &st) != 0) throw InputError(p + ": cannot open: " + std::strerror(errno));
    if (S_ISDIR(st.st_mode)) throw InputError(p + ": is a directory");
    if (access(p.c_str(), R_OK) != 0) throw InputError(p + ": cannot read: " + std::strerror(errno));
  }
  first_record_ = std::make_unique<std::atomic<std::uint64_t>[]>(paths_.size());
  for (std::size_t i = 0; i < paths_.size(); ++i) first_record_[i].store(UINT64_MAX, std::memory_order_relaxed);
}

std::size_t FastxReader::input_of(std::uint64_t index) const {
  if (options_.mates == MateLayout::two_files) return static_cast<std::size_t>(index % 2);
  // The last input that starts at or before the record (an empty input shares its start
  // with the next one, which then holds the record). Inputs are few.
  std::size_t input = 0;
  for (std::size_t i = 1; i < paths_.size() && first_record_of(i) <= index; ++i) input = i;
  return input;
}

FastxReader::~FastxReader() = default;

// No advice here: this runs for every record a mapped file lends, and a system call per
// record (MADV_POPULATE_READ over up to a MiB each) made loading a pattern FASTA file cost
// more than the whole search; a long line's pages fault in cheaply as they are read.
std::size_t FastxReader::find_line_end(const char* p, std::size_t n) { return find_line_end_or_nul(p, n); }

bool FastxReader::index_lines(std::string_view bytes, UninitializedVector<std::uint32_t>& newlines) {
  return trawl::index_lines(bytes.data(), bytes.size(), newlines);
}

std::uint64_t FastxReader::bytes_read() const {
  return done_bytes_ + (file_ ? file_->position() : 0) + (mate_file_ ? mate_file_->position() : 0);
}

std::uint64_t FastxReader::input_size() const {
  std::uint64_t total = 0;
  for (const std::string& path : paths_) {
    struct stat st {};
    if (path == "-" || stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return 0;
    total += static_cast<std::uint64_t>(st.st_size);
  }
  return total;
}

bool FastxReader::open_next_file() {
  if (file_) done_bytes_ += file_->position();
  file_.reset();
  if (next_path_ >= paths_.size()) return false;
  first_record_[next_path_].store(records_, std::memory_order_release);
  file_ = std::make_unique<File>(paths_[next_path_++], options_);
  file_->line_end_finder = &line_end_finder_;
  file_->line_indexer = &line_indexer_;
  return true;
}

bool FastxReader::next(RecordBatch& batch, std::uint64_t limit) {
  if (options_.mates == MateLayout::two_files) return next_of_two_files(batch);
  const bool interleaved = options_.mates == MateLayout::interleaved;
  if (interleaved) limit = kWhole;
  for (;;) {
    if (!file_ && !open_next_file()) return false;
    if (file_->next(batch, limit)) {
      ++records_;
      if (interleaved) check_mate(batch);
      return true;
    }
    // (Earlier inputs held whole pairs, so an odd total is this input's.)
    if (interleaved && records_ % 2 == 1)
      throw InputError(file_->display() + ": an odd number of records (" +
                       std::to_string(records_ - first_record_of(next_path_ - 1)) +
                       "): interleaved mates come in pairs, mate 1 then mate 2");
    file_.reset();
  }
}

std::uint64_t FastxReader::count_records(std::vector<std::string> paths, ReaderOptions options) {
  options.keep_records = false;
  FastxReader reader(std::move(paths), options);
  FastaChunk chunk;
  RecordBatch batch;
  std::uint64_t records = 0;
  for (;;) {
    if (reader.next_chunk(chunk, std::uint64_t{64} << 20)) {
      records += chunk.records;
      continue;
    }
    batch.clear();
    if (!reader.next(batch, kWhole)) return records;
    records += batch.size();
  }
}

bool FastxReader::next_chunk(FastaChunk& chunk, std::uint64_t target_bytes) {
  if (options_.mates != MateLayout::none) return false;  // pairs come from next()
  if (sequence_open()) throw std::logic_error("FastxReader: a record's sequence is still open");
  for (;;) {
    if (!file_ && !open_next_file()) return false;
    switch (file_->take_chunk(chunk, target_bytes)) {
      case File::ChunkResult::took:
        records_ += chunk.records;
        return true;
      case File::ChunkResult::ended: file_.reset(); break;
      case File::ChunkResult::use_next: return false;
    }
  }
}

// Mate 1 from the first file, mate 2 from the second, by turns; both are open at once.
bool FastxReader::next_of_two_files(RecordBatch& batch) {
  if (mates_done_) return false;
  if (!file_) {
    file_ = std::make_unique<File>(paths_[0], options_);
    mate_file_ = std::make_unique<File>(paths_[1], options_);
    first_record_[0].store(0, std::memory_order_release);
    first_record_[1].store(1, std::memory_order_release);
  }
  const bool second = records_ % 2 == 1;
  if (!(second ? *mate_file_ : *file_).next(batch, kWhole)) {
    if (second || !mate_file_->at_end()) fail_unequal_mates(!second);
    file_.reset();
    mate_file_.reset();
    mates_done_ = true;
    return false;
  }
  ++records_;
  if (records_ == 2 && file_->format() != mate_file_->format())
    throw InputError(pair_source() + ": " + file_->display() + " is " + (file_->format() == '>' ? "FASTA" : "FASTQ") +
                     " but " + mate_file_->display() + " is " + (mate_file_->format() == '>' ? "FASTA" : "FASTQ") +
                     ": the two mate files must be one format");
  check_mate(batch);
  return true;
}

namespace {

// A mate's name as pairs compare it: up to the first whitespace (a --full-header name has a
// comment), without a trailing /1 or /2.
std::string_view pair_name(std::string_view name) {
  std::size_t cut = 0;
  while (cut < name.size() && name[cut] != ' ' && name[cut] != '\t' && name[cut] != '\r') ++cut;
  name = name.substr(0, cut);
  if (name.size() >= 2 && name[name.size() - 2] == '/' && (name.back() == '1' || name.back() == '2'))
    name.remove_suffix(2);
  return name;
}

}  // namespace

// The batch's last record is the mate just read (records_ of them so far): a mate 1's name
// is kept, a mate 2's must agree with it.
void FastxReader::check_mate(const RecordBatch& batch) {
  const std::string_view name = pair_name(batch.name(batch.size() - 1));
  if (records_ % 2 == 1) {
    mate1_name_.assign(name);
    return;
  }
  if (name == mate1_name_) return;
  // Counted in the file (an interleaved one) or in both files, from 1.
  const bool interleaved = options_.mates == MateLayout::interleaved;
  const std::uint64_t mates = records_ - (interleaved ? first_record_of(next_path_ - 1) : 0);
  std::string where = pair_source() + ": pair " + std::to_string(mates / 2);
  if (interleaved) where += " (records " + std::to_string(mates - 1) + " and " + std::to_string(mates) + ")";
  throw InputError(where + ": mate names differ: '" + mate1_name_ + "' and '" + std::string(name) +
                   "' (names must agree without a comment and a trailing /1 or /2)");
}

// One mate file ended before the other: `first_ended` says which.
void FastxReader::fail_unequal_mates(bool first_ended) const {
  const File& ended = first_ended ? *file_ : *mate_file_;
  const File& longer = first_ended ? *mate_file_ : *file_;
  throw InputError(pair_source() + ": " + ended.display() + " ends after " + std::to_string(records_ / 2) +
                   " records but " + longer.display() + " has more: the mate files must hold the same number");
}

// The files a pair comes from, for messages.
std::string FastxReader::pair_source() const {
  if (options_.mates == MateLayout::two_files) return file_->display() + " and " + mate_file_->display();
  return file_->display();
}

void FastxReader::parse_chunk(const FastaChunk& chunk, RecordBatch& batch) {
  thread_local File parser;
  parser.start_chunk(chunk);
  batch.borrowed = chunk.data;
  if (chunk.format == '@') {
    parser.take_fastq_records(batch, chunk.records);
    return;
  }
  for (std::uint64_t r = parser.take_simple_records(batch, chunk.records); r < chunk.records;) {
    if (!parser.next(batch, kWhole)) throw std::logic_error("parse_chunk: fewer records than counted");
    ++r;
    r += parser.take_simple_records(batch, chunk.records - r);
  }
}

bool FastxReader::sequence_open() const { return file_ && file_->sequence_open(); }

std::size_t FastxReader::read_sequence(char* dst, std::size_t room) {
  return sequence_open() ? file_->join_sequence(dst, room) : 0;
}

std::uint64_t FastxReader::sequence_bound() const { return sequence_open() ? file_->sequence_bound() : 0; }

InputMark FastxReader::mark() const {
  if (!file_) return {};
  return file_->mark();
}

void FastxReader::release(const InputMark& mark) {
  if (mark.mapping) mark.mapping->release_before(mark.end);
}

bool FastxReader::fill(RecordBatch& batch, std::uint64_t target_bases) {
  bool added = false;
  while (batch.bases() < target_bases && next(batch)) added = true;
  return added;
}

}  // namespace trawl
