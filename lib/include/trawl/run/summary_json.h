#pragma once
// The run summary of --json: what ran (version, command line, inputs, options that matter,
// threads, kernel) and what it found (records, bases, hits, per-pattern totals, seconds), as
// one JSON object that MultiQC also reads as custom content (a table section "trawl", one row
// per sample; name the file SAMPLE_mqc.json and MultiQC finds it by itself).
#include <string>
#include <string_view>

#include "trawl/core/pattern_set.h"
#include "trawl/core/run_options.h"
#include "trawl/run/run.h"
#include "trawl/sinks/tally_sink.h"

namespace trawl {

// The sample a summary file stands for: its file name without the directory and without
// "_mqc.json", ".json" (whichever it ends in).
std::string json_sample_name(std::string_view path);

// The summary, pretty-printed, ending in a newline.
std::string summary_json(const RunOptions& options, const RunStart& start, const RunSummary& summary,
                         const PatternSet& patterns, const PatternTallies& tallies);

}  // namespace trawl
