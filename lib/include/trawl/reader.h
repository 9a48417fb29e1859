#pragma once
// FASTA/FASTQ reader over htslib's BGZF layer (plain, gzip and BGZF input; "-" = stdin).
// The only code that includes htslib. Sequence bytes are kept exactly (line breaks and a
// trailing '\r' removed); malformed input throws InputError naming file and record.
// Not thread safe: one reader, driven by the pipeline's serial input stage.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "trawl/record_batch.h"

namespace trawl {

struct ReaderOptions {
  bool full_header = false;  // text_id = whole header line instead of the name up to whitespace
  int decompress_threads = 0;  // htslib threads for BGZF input (0 = none)
};

class FastxReader {
 public:
  // An empty list means stdin. Files are opened one at a time, in order.
  FastxReader(std::vector<std::string> paths, ReaderOptions options);
  ~FastxReader();
  FastxReader(const FastxReader&) = delete;
  FastxReader& operator=(const FastxReader&) = delete;

  // Appends whole records to `batch` until it holds at least `target_bases` residues or
  // the input ends. Returns false when nothing was added (end of all inputs).
  bool fill(RecordBatch& batch, std::uint64_t target_bases);
  // Reads one record into `batch` (appending). Returns false at the end of all inputs.
  bool next(RecordBatch& batch);

  std::uint64_t records_read() const { return records_; }

 private:
  class File;
  bool open_next_file();

  std::vector<std::string> paths_;
  ReaderOptions options_;
  std::size_t next_path_ = 0;
  std::unique_ptr<File> file_;
  std::uint64_t records_ = 0;
};

}  // namespace trawl
