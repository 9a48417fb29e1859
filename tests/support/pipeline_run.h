#pragma once
// The run pipeline (run/pipeline.h) on a file with a TSV sink, as the run-level property
// tests drive it, and a temporary file for their inputs.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "support/sink_fixture.h"
#include "trawl/core/region.h"
#include "trawl/io/reader.h"
#include "trawl/kernel/kernel.h"
#include "trawl/run/pipeline.h"
#include "trawl/sinks/sinks.h"

namespace trawl::test {

// An empty temporary file, removed when the test ends (passed or not).
struct TempFile {
  std::string path;
  explicit TempFile(const std::string& name) : path("/tmp/" + name + "_XXXXXX") {
    const int fd = mkstemp(path.data());
    REQUIRE(fd >= 0);
    close(fd);
  }
  ~TempFile() { std::remove(path.c_str()); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
};

// How run_tsv runs: the rows' shape and the pipeline's settings.
struct PipelineRun {
  ResultShape shape;
  int threads = 1;
  std::uint64_t batch_bases = 1 << 20;
  std::optional<Region> region;
  bool paired = false;          // --pattern-per-record
  bool match_region = true;     // hits: the match_region column
  ReaderOptions reader;
};

// The TSV rows of a run on the scalar kernel; hits rows end in pat_idx and text_idx, which
// make the record numbering across windows visible.
inline std::string run_tsv(const std::string& path, const PatternSet& patterns, const SearchOptions& opt,
                           const PipelineRun& r) {
  StringSink out;
  std::unique_ptr<ResultSink> sink;
  switch (r.shape.command) {
    case Command::hits: {
      HitColumns columns;
      columns.region = r.match_region;
      columns.extra = {ExtraColumn::pat_idx, ExtraColumn::text_idx};
      sink = make_tsv_hits_sink(out, patterns, opt.alphabet, columns);
      break;
    }
    case Command::count: sink = make_tsv_count_sink(out, patterns, r.shape); break;
    case Command::contains: sink = make_tsv_contains_sink(out, patterns, r.shape); break;
  }
  FastxReader reader({path}, r.reader);
  PipelineOptions popt;
  popt.threads = r.threads;
  popt.batch_bases = r.batch_bases;
  popt.shape = r.shape;
  popt.paired = r.paired;
  popt.best = opt.selection == Selection::best;
  popt.region = r.region;
  run_pipeline(reader, patterns, opt, scalar_kernel(), *sink, popt);
  return out.bytes;
}

}  // namespace trawl::test
