#pragma once
// The progress line a front end shows on a terminal while a run goes: percent of the input
// and time left where the input's size is known, else the counts so far.
#include <string>

#include "trawl/run/pipeline.h"

namespace trawl {

// E.g. "37% of 1.2 GB, 0:42 left; 1234567 records, 98.1 Mbp, 4321 hits" or, with no known
// size, "1234567 records, 98.1 Mbp, 4321 hits". `seconds`: since the run started. The time
// left is the time so far scaled by the part still to read, shown once a second has passed.
std::string progress_text(const RunStats& stats, double seconds);

}  // namespace trawl
