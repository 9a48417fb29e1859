// The paired strategy (--paired: pattern i only in record i): a record's jobs cover only
// the strands, and the parts of them, where PairedSeedFilter says an end can be.
#include <algorithm>

#include "lanes.h"
#include "trawl/search/searcher.h"

namespace trawl {

using namespace lanes;

bool Searcher::add_paired_jobs(PrescanRecord& rec, std::uint32_t r) {
  const std::uint32_t pi = rec.first_pattern;
  const std::uint64_t n = rec.text.size();
  PairedSeedFilter::StrandRange ranges[2];
  if (!paired_filter_.ranges(patterns_.seq(pi), pre_fwd_.data() + rec.codes_offset, n, kernel_.seed_spans, ranges))
    return false;
  rec.live = 0;
  for (unsigned s = 0; s < (options_.searches_rc() ? 2u : 1u); ++s) {
    if (!ranges[s].live) continue;
    rec.live |= std::uint64_t{1} << s;  // (bit 0 forward, bit 1 reverse: one pattern)
    // Lengths in whole multiples of kPartQuantum, reached by starting earlier (or ending
    // later), which finds the same ends.
    std::uint32_t begin = ranges[s].begin, end = ranges[s].end;
    const std::uint32_t padded = std::min<std::uint32_t>(
        static_cast<std::uint32_t>(n), (end - begin + kPartQuantum - 1) / kPartQuantum * kPartQuantum);
    begin = end >= padded ? end - padded : 0;
    end = begin + padded;
    pre_job_offsets_.resize(pre_jobs_.size(), 0);
    pre_job_offsets_.push_back(begin);
    add_job(rec.codes_offset + begin, s == 1, pi, r, end - begin);
  }
  rec.jobs = static_cast<std::uint32_t>(pre_jobs_.size() - rec.first_job);
  return true;
}

}  // namespace trawl
