#pragma once
// FASTA/FASTQ reader over htslib's BGZF layer (plain, gzip and BGZF input; "-" = stdin).
// The only code that includes htslib. Sequence bytes are kept exactly (line breaks and a
// trailing '\r' removed); malformed input throws InputError naming file and record.
// One format per input: a FASTQ record among FASTA records, or the reverse, is malformed.
// Not thread safe: one reader, driven by the pipeline's serial input stage.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "trawl/io/record_batch.h"
#include "trawl/core/uninitialized_vector.h"

namespace trawl {

// How the mates of paired-end reads arrive. In both paired layouts the records come out
// interleaved: record 2i is mate 1 of pair i, record 2i + 1 its mate 2, whose names agree
// once a comment and a trailing /1 or /2 are taken off.
enum class MateLayout : std::uint8_t {
  none,         // single records
  two_files,    // the two inputs (exactly two) are read in lock-step, mate 1 from the first
  interleaved,  // mates alternate in the inputs; each input holds whole pairs
};

struct ReaderOptions {
  bool full_header = false;  // text_id = whole header line instead of the name up to whitespace
  int decompress_threads = 0;  // htslib threads for BGZF input (0 = none)
  // Uncompressed regular files are mapped whole (chunks and long one-line records are then
  // views into the mapping, not copies); false reads every input through buffers (for tests
  // of that path).
  bool map_files = true;
  // Plain text (--lines): every line is a record named by its line number in its input.
  bool lines = false;
  // Each record's header line and quality are kept too (RecordBatch::header, qual), for a
  // run that writes records back out.
  bool keep_records = false;
  // Paired-end input (see MateLayout).
  MateLayout mates = MateLayout::none;
};

// Whole FASTA records as raw bytes, for parsing away from the reader (FastxReader::
// parse_chunk), with what the parse needs to number records and lines in its messages.
class MappedFile;

// A position in a mapped input file (see FastxReader::mark); empty for other inputs.
struct InputMark {
  std::shared_ptr<MappedFile> mapping;
  const char* end = nullptr;
};

struct FastaChunk {
  // The records' bytes, starting with a header line; whole records only: in a mapped input
  // file (kept mapped by `mapping`), or in `storage` (which the chunk keeps for the next one).
  const char* data = nullptr;
  std::size_t size = 0;
  std::shared_ptr<MappedFile> mapping;
  HugePageVector<char> storage;
  std::uint64_t records = 0;    // how many
  char format = '>';            // '>' FASTA, '@' FASTQ (four-line records only)
  // Every '\n' offset in the bytes and whether a NUL byte occurs, found by the one pass of
  // the reader stage over them; the parse walks this index instead of the bytes. Empty
  // index with `indexed` false: a chunk of 4 GiB or more (offsets past 32 bits).
  UninitializedVector<std::uint32_t> newlines;
  bool indexed = false;
  bool has_nul = false;
  std::uint64_t record_base = 0, line_base = 0;  // records and lines of the file before it
  std::shared_ptr<const std::string> display;    // the file's name in messages
  ReaderOptions options;
};

class FastxReader {
 public:
  // An empty list means stdin. Files are opened one at a time, in order (both at once with
  // MateLayout::two_files, which needs exactly two).
  FastxReader(std::vector<std::string> paths, ReaderOptions options);
  ~FastxReader();
  FastxReader(const FastxReader&) = delete;
  FastxReader& operator=(const FastxReader&) = delete;

  // Appends whole records to `batch` until it holds at least `target_bases` residues or
  // the input ends. Returns false when nothing was added (end of all inputs).
  bool fill(RecordBatch& batch, std::uint64_t target_bases);
  // Reads one record into `batch` (appending). Returns false at the end of all inputs. A
  // FASTA sequence in lines (not one lent from a mapped file) is read only as far as `limit`
  // bytes: a longer one stays open (sequence_open()), what was read of it is the batch's last
  // sequence, and the rest comes from read_sequence(); no other call may come before it ends.
  static constexpr std::uint64_t kWhole = ~std::uint64_t{0};
  // With paired input (ReaderOptions::mates) every record is read whole, whatever `limit`,
  // and mates are checked as they come: names that disagree, unequal mate counts (an
  // interleaved input with an odd number of records), or FASTA mates of FASTQ ones are an
  // InputError naming the files and the pair.
  bool next(RecordBatch& batch, std::uint64_t limit = kWhole);
  // How mates arrive (ReaderOptions::mates); records are mates of pairs unless none.
  MateLayout mates() const { return options_.mates; }
  // Whether the last record's sequence is still open (see next).
  bool sequence_open() const;
  // Joins up to `room` more bytes of the open sequence into `dst` (its lines without line
  // ends) and returns how many; fewer than `room` only where the sequence has ended, which
  // closes it. Throws InputError as next() would have for the whole record.
  std::size_t read_sequence(char* dst, std::size_t room);
  // An upper bound of the bytes read_sequence() may still give (the rest of an uncompressed
  // file), or 0 where it is unknown (compressed input, stdin).
  std::uint64_t sequence_bound() const;
  // Moves the next whole records, about `target_bytes` of input, into `chunk` without
  // parsing them (the cheap part of reading, so the parse can run on another thread): FASTA
  // records, or FASTQ records of four lines each. Returns false where the next record must
  // come from next() instead: a FASTQ record of another shape (and every record of its file
  // after it), a first record of neither format, a record longer than target_bytes, paired
  // input, or the end of all inputs.
  bool next_chunk(FastaChunk& chunk, std::uint64_t target_bytes);
  // Appends the chunk's records to `batch` exactly as next() would have read them, or
  // throws the InputError next() would have thrown. Names and one-line sequences are views
  // into the chunk's bytes (batch.borrowed): the chunk must stay unchanged while the batch is
  // used, and the batch must hold no records of another chunk. Thread safe (touches only
  // its arguments).
  static void parse_chunk(const FastaChunk& chunk, RecordBatch& batch);
  // Says that the input before `mark` (see mark()) is no longer used, neither by records
  // nor by chunks, so a mapped file's pages there can leave resident memory. Call in input
  // order (the pipeline's ordered output stage); thread safe against the reader itself.
  static void release(const InputMark& mark);
  // The reader's position now, for release() once everything read so far is used.
  InputMark mark() const;

  // The records of `paths` (mates count one each), read and checked as next() and
  // next_chunk() read them (errors are thrown the same way): --shard's first pass.
  static std::uint64_t count_records(std::vector<std::string> paths, ReaderOptions options);

  // For progress: the bytes of the inputs read so far (compressed bytes of compressed
  // input, ahead of the records handed out by what a buffer holds), and the inputs' total
  // size where every input is a regular file (else 0).
  std::uint64_t bytes_read() const;
  std::uint64_t input_size() const;

  // Records handed out so far, by next() or in chunks.
  std::uint64_t records_read() const { return records_; }
  // The inputs, in order ("-": stdin), and which one record `index` (0-based, over all
  // inputs) came from. Safe from another thread for any record handed out before (the
  // pipeline's output stage counts records per input with it). With two mate files the
  // first holds the even indexes and the second the odd ones, so an input's records are not
  // one range there and first_record_of does not bound them.
  const std::vector<std::string>& inputs() const { return paths_; }
  std::size_t input_of(std::uint64_t index) const;
  // The index of input i's first record; the maximum for one not opened yet or past the last.
  std::uint64_t first_record_of(std::size_t i) const {
    return i < paths_.size() ? first_record_[i].load(std::memory_order_acquire) : UINT64_MAX;
  }

  // Finds the first '\n' or NUL byte in [p, p + n): its offset, or n where there is none.
  using LineEndFinder = std::function<std::size_t(const char* p, std::size_t n)>;
  // Where a one-line sequence of a mapped file is longer than a MiB, the rest of its line
  // end is searched with `finder` (empty: on this thread). The pipeline passes one that
  // splits the search over its threads: that pass is the first touch of a long record's
  // bytes, and none of its windows can start before it ends.
  void set_line_end_finder(LineEndFinder finder) { line_end_finder_ = std::move(finder); }
  // Builds a chunk's line index: puts every '\n' offset in `bytes` into `newlines` (resized
  // to their number, size < 4 GiB); returns whether a NUL byte occurs.
  using LineIndexer = std::function<bool(std::string_view bytes, UninitializedVector<std::uint32_t>& newlines)>;
  // Where set, next_chunk indexes the chunks of uncompressed regular files with `indexer`
  // (empty: on this thread). That pass is the first read of the input's bytes and the input
  // stage's main work; the pipeline passes one that splits it over its threads where there
  // are enough of them for the one serial stage to hold the others back.
  void set_line_indexer(LineIndexer indexer) { line_indexer_ = std::move(indexer); }
  // What a LineIndexer does, on this thread (the pipeline's, on each part).
  static bool index_lines(std::string_view bytes, UninitializedVector<std::uint32_t>& newlines);
  // The search on one thread (what a LineEndFinder does on each part), on bytes of a mapped
  // file or other memory. Makes no system call.
  static std::size_t find_line_end(const char* p, std::size_t n);

 private:
  class File;
  bool open_next_file();
  bool next_of_two_files(RecordBatch& batch);
  void check_mate(const RecordBatch& batch);
  [[noreturn]] void fail_unequal_mates(bool first_ended) const;
  std::string pair_source() const;

  std::vector<std::string> paths_;
  ReaderOptions options_;
  std::size_t next_path_ = 0;
  // The index of each input's first record, set as it is opened (none yet: the maximum).
  std::unique_ptr<std::atomic<std::uint64_t>[]> first_record_;
  std::unique_ptr<File> file_;
  std::unique_ptr<File> mate_file_;  // MateLayout::two_files: the second input (file_ the first)
  bool mates_done_ = false;          // both mate files ended together
  std::string mate1_name_;           // the last mate 1's name, without comment and /1
  std::uint64_t records_ = 0;
  std::uint64_t done_bytes_ = 0;  // the sizes of the inputs read to their end
  LineEndFinder line_end_finder_;
  LineIndexer line_indexer_;
};

}  // namespace trawl
