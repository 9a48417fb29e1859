#pragma once
// Loading the patterns of a run (-p, -f and -l) into a PatternSet.
#include <memory>

#include "trawl/core/pattern_set.h"
#include "trawl/core/run_options.h"
#include "trawl/io/pattern_list.h"

namespace trawl {

// Adds the patterns of `sources` (-p, then -f, then -l; at least one, validate() checks) to
// `patterns` straight away (no second copy of millions of them) and calls patterns.finish().
// A pattern list loads on up to `threads` threads. Returns the list's text (null without
// -l), which the set's patterns are views into: keep it as long as the set. `full_header`
// names FASTA patterns by their whole header line. Throws UsageError for invalid letters, a
// pattern file with no patterns and an id that two sources give; InputError for an
// unreadable file.
std::shared_ptr<PatternListText> load_patterns(const PatternSources& sources, bool full_header,
                                               PatternSet& patterns, int threads);

}  // namespace trawl
