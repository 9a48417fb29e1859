// The progress line (run/progress.h): percent of a known input size and the time left (once
// a second has passed), else the counts alone.
#include <doctest/doctest.h>

#include "trawl/run/progress.h"

using namespace trawl;

TEST_CASE("progress: percent and time left where the size is known, counts otherwise") {
  RunStats s;
  s.records = 1234;
  s.bases = 2500000;
  s.hits = 7;
  CHECK(progress_text(s, 3) == "1234 records, 2.5 Mbp, 7 hits");
  s.input_size = 2000000000;
  s.input_read = 500000000;
  CHECK(progress_text(s, 0.5) == "25% of 2.0 GB; 1234 records, 2.5 Mbp, 7 hits");
  CHECK(progress_text(s, 10) == "25% of 2.0 GB, 0:30 left; 1234 records, 2.5 Mbp, 7 hits");
  CHECK(progress_text(s, 1300) == "25% of 2.0 GB, 1:05:00 left; 1234 records, 2.5 Mbp, 7 hits");
  s.input_size = 3500000;
  s.input_read = 3500000;
  CHECK(progress_text(s, 2) == "100% of 3.5 MB, 0:00 left; 1234 records, 2.5 Mbp, 7 hits");
  s.input_read = 0;
  CHECK(progress_text(s, 2) == "0% of 3.5 MB; 1234 records, 2.5 Mbp, 7 hits");
  s.input_size = 900;
  s.input_read = 9000;  // (read ahead of a size that shrank: capped)
  CHECK(progress_text(s, 2) == "100% of 1 kB, 0:00 left; 1234 records, 2.5 Mbp, 7 hits");
}
