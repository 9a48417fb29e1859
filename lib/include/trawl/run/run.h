#pragma once
// The library's one entry for a whole run: options in, a summary out. Everything a front
// end would otherwise decide (defaults, the kernel, the output format and sink, the order
// in which inputs and outputs are opened) is decided here; what the run has to say goes to
// a RunObserver, since the library never logs.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "trawl/core/run_options.h"
#include "trawl/run/pipeline.h"

namespace trawl {

// What a run is about to do, once the patterns are loaded and the kernel chosen.
struct RunStart {
  std::size_t patterns = 0;
  int k = 0;
  Alphabet alphabet = Alphabet::iupac;
  bool both_strands = false;  // the reverse complement is searched too
  const char* kernel = "";    // the kernel's name ("scalar", "avx2", "avx512")
  int threads = 1;
  // The details (filled where the observer wants_details()):
  std::string kernel_reason;   // why that kernel: --kernel, or what the CPU has
  std::string plan;            // the search plan (SearchPlan::describe)
  std::uint64_t batch_bases = 0;
  std::size_t batches_in_flight = 0;
  double load_seconds = 0;     // loading the patterns
};

// What a finished run did.
struct RunSummary {
  RunStats stats;
  Command command = Command::hits;
  double seconds = 0;       // the search and the writing, from the first record to the commit
  const char* kernel = "";
  // Where the observer wants_details(): each stage's time and each input's records and bases.
  PipelineReport report;
  std::vector<std::string> inputs;  // the input names, as report.inputs
  // filter: records with a hit and without; which went to the output (the unmatched with
  // --invert) and whether the others went to --unmatched.
  bool filtered = false;
  std::uint64_t matched = 0, unmatched = 0;
  bool inverted = false, others_written = false;
  // demux: records (pairs, for paired input) assigned to a barcode, ambiguous, unassigned;
  // `unassigned` above is filter's.
  bool demuxed = false, paired = false;
  std::uint64_t assigned = 0, ambiguous = 0, unassigned_reads = 0;
};

// Hears a run's events, all on the thread that called run(). Every call has a default that
// does nothing.
class RunObserver {
 public:
  virtual ~RunObserver() = default;
  // A problem that does not stop the run (e.g. k not below the shortest pattern).
  virtual void warning(const std::string& /*message*/) {}
  virtual void started(const RunStart& /*start*/) {}
  // The temporary output file exists (it becomes the output at the end): a front end that
  // removes it on a signal learns its name here, before anything is written.
  virtual void temp_file_created(const std::string& /*path*/) {}
  // Whether progress() is wanted: it is then called after every batch written.
  virtual bool wants_progress() const { return false; }
  virtual void progress(const RunStats& /*so_far*/) {}
  // Whether the details of RunStart and RunSummary are wanted (they cost a little to find).
  virtual bool wants_details() const { return false; }
  // The output is complete and in place (the temporary file renamed).
  virtual void finished(const RunSummary& /*summary*/) {}
};

// Runs the search `options` describe: patterns loaded, kernel chosen, inputs opened before
// the output is created (a missing input leaves no output file), results written, the
// output committed. Throws UsageError for invalid options (the first problem validate()
// finds: call validate() first to report them all), patterns or an unsupported --kernel;
// InputError, OutputError or DownstreamClosed as the run meets them.
RunSummary run(const RunOptions& options, RunObserver& observer);

}  // namespace trawl
