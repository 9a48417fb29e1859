// The paired strategy (--paired: pattern i only in record i): a record's jobs cover only the
// strands, and the parts of them, where PairedSeedFilter says an end can be.
#include <algorithm>

#include "lanes.h"
#include "trawl/search/lane_strategies.h"

namespace trawl {

using namespace lanes;

void PairedParts::make(const LaneContext& ctx) {
  filter_ = PairedSeedFilter(ctx.options.alphabet, ctx.options.k, ctx.options.searches_rc(),
                             ctx.options.overhang.has_value());
}

bool PairedParts::add_jobs(LaneGroup& group, const LaneContext& ctx, LaneGroup::Record& rec,
                           std::uint32_t r) {
  const std::uint32_t pi = rec.first_pattern;
  const std::uint64_t n = rec.text.size();
  PairedSeedFilter::StrandRange ranges[2];
  if (!filter_.ranges(ctx.patterns.seq(pi), group.fwd.data() + rec.codes_offset, n, ctx.kernel.seed_spans, ranges))
    return false;
  rec.live = 0;
  for (unsigned s = 0; s < ctx.strands(); ++s) {
    if (!ranges[s].live) continue;
    rec.live |= std::uint64_t{1} << s;  // (bit 0 forward, bit 1 reverse: one pattern)
    group.add_part_job(ctx, rec, r, pi, s == 1, ranges[s]);
  }
  rec.jobs = static_cast<std::uint32_t>(group.jobs.size() - rec.first_job);
  return true;
}

}  // namespace trawl
