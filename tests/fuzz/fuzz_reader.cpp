// Fuzz target: arbitrary bytes as a FASTA/FASTQ input (plain or gzip, as the bytes happen to
// be). The reader must either return records or throw InputError; any crash, sanitizer report,
// other exception or malformed record is a bug.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "trawl/core/errors.h"
#include "trawl/io/reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = [] {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir ? dir : "/tmp") + "/trawl_fuzz_reader." + std::to_string(::getpid());
  }();
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) std::abort();
  if (size && std::fwrite(data, 1, size, f) != size) std::abort();
  std::fclose(f);
  for (const bool full_header : {false, true}) {
    std::string rows, error;  // record by record: every record, and the error if any
    try {
      trawl::FastxReader reader({path}, trawl::ReaderOptions{full_header, 0});
      trawl::RecordBatch batch;
      while (reader.fill(batch, 4096)) {
        for (std::size_t r = 0; r < batch.size(); ++r) {
          const std::string_view seq = batch.seq(r), name = batch.name(r);
          // Line breaks never reach a sequence, NUL bytes are rejected, names are one line.
          if (seq.find('\n') != std::string_view::npos) std::abort();
          if (seq.find('\0') != std::string_view::npos) std::abort();
          if (name.find('\n') != std::string_view::npos) std::abort();
          if (full_header && name.find('\t') != std::string_view::npos) std::abort();
          rows.append(name).append("\t").append(seq).append("\n");
        }
        batch.clear();
      }
    } catch (const trawl::InputError& e) {
      error = e.what();  // malformed input, reported as designed
    }
    // The pipeline's way: FASTA chunks parsed apart, next() where a chunk cannot be cut.
    // Same records, same error.
    std::string chunk_rows, chunk_error;
    try {
      trawl::FastxReader reader({path}, trawl::ReaderOptions{full_header, 0});
      trawl::RecordBatch batch;
      trawl::FastaChunk chunk;
      // A parsed chunk's records are views into the chunk: collected before the next one.
      auto collect = [&] {
        for (std::size_t r = 0; r < batch.size(); ++r)
          chunk_rows.append(batch.name(r)).append("\t").append(batch.seq(r)).append("\n");
        batch.clear();
      };
      for (;;) {
        if (reader.next_chunk(chunk, 1 + size % 61)) {
          collect();
          trawl::FastxReader::parse_chunk(chunk, batch);
          collect();
        } else if (!reader.next(batch)) {
          break;
        }
      }
      collect();
    } catch (const trawl::InputError& e) {
      chunk_error = e.what();
    }
    // On an error the record-by-record side stops at its last whole batch of 4096 bases,
    // so only the error is compared then.
    if (chunk_error != error || (error.empty() && chunk_rows != rows)) std::abort();
  }
  return 0;
}
