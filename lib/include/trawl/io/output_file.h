#pragma once
// The output byte stream: stdout, or a file written under a temporary name in the same
// folder and renamed to the final name only by commit() (docs/architecture.md §1), so a
// failed or interrupted run never leaves a truncated file under the final name.
#include <string>

#include "trawl/io/byte_sink.h"
#include "trawl/core/uninitialized_vector.h"

namespace trawl {

class OutputFile : public ByteSink {
 public:
  // "-" or "" = stdout. Throws OutputError if the temporary file cannot be created.
  explicit OutputFile(const std::string& path);
  ~OutputFile() override;  // removes the temporary file unless committed
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Buffered; throws OutputError on failure, DownstreamClosed on EPIPE.
  void write(const void* data, std::size_t size) override;
  // Flushes and closes the file (a write error surfaces here), not yet renamed: a run with
  // several outputs finishes them all before it renames any.
  void finish();
  // finish(), then renames the temporary file to the final name.
  void commit();

  bool is_stdout() const { return fd_ == 1 && !direct_; }
  const std::string& temp_path() const { return temp_path_; }  // empty for stdout

 private:
  void flush();
  void raw_write(const char* data, std::size_t size);

  std::string path_, temp_path_;
  int fd_ = -1;
  bool committed_ = false;
  bool finished_ = false;
  bool direct_ = false;  // a device or FIFO, written in place
  HugePageVector<char> buf_;  // (huge pages: its MiB faults in once, not page by page)
  std::size_t used_ = 0;
};

// gzip-compresses everything written to it into `out` (for -o FILE.tsv.gz). finish()
// must be called once after the last write.
class GzipByteSink : public ByteSink {
 public:
  explicit GzipByteSink(ByteSink& out, int level = 6);
  ~GzipByteSink() override;
  GzipByteSink(const GzipByteSink&) = delete;
  GzipByteSink& operator=(const GzipByteSink&) = delete;
  void write(const void* data, std::size_t size) override;
  void finish();

 private:
  void pump(int flush);
  ByteSink& out_;
  struct State;
  State* state_;
  UninitializedVector<char> buf_;
};

}  // namespace trawl
