// The indexed strategy: a record's jobs are the candidate (pattern, strand) pairs that the
// run's PatternIndex finds, each over part of its strand.
#include <algorithm>

#include "lanes.h"
#include "trawl/search/lane_strategies.h"

namespace trawl {

using namespace lanes;

std::size_t IndexedRecords::gather(LaneGroup& group, const LaneContext& ctx, std::span<const std::string_view> texts,
                                   std::uint64_t group_steps) {
  const auto npat = static_cast<std::uint32_t>(ctx.patterns.size());
  const bool rc = ctx.options.searches_rc();
  std::uint64_t steps = 0;
  std::size_t r = 0;
  for (; r < texts.size(); ++r) {
    LaneGroup::Record& rec = group.records.emplace_back();
    rec.text = texts[r];
    rec.patterns = npat;
    const std::uint64_t n = rec.text.size();
    if (n > kMaxIndexedText) continue;  // (the ordinary path: first_job stays kNoJobs)
    const auto offset = static_cast<std::uint32_t>(group.fwd.size());
    group.fwd.resize(offset + n);
    if (rc) group.rev.resize(offset + n);
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(rec.text.data());
    // (The reverse codes only where a reverse strand is a candidate: most records have none.)
    ctx.kernel.encode(ctx.class_of.data(), bytes, n, group.fwd.data() + offset, nullptr);
    const bool told = index_->candidates(group.fwd.data() + offset, n, ctx.kernel.seed_keys, scratch_, candidates_);
    std::uint64_t record_steps = 0;
    for (const PatternIndex::Candidate& c : candidates_) record_steps += c.range.end - c.range.begin + kPartQuantum;
    // The group ends before a record that would take it past its budget (its codes were
    // the last ones: dropped).
    if (!told || (r > 0 && (steps + record_steps > group_steps || group.jobs.size() + candidates_.size() > kGroupJobs))) {
      group.fwd.resize(offset);
      if (rc) group.rev.resize(offset);
      if (told) {
        group.records.pop_back();
        break;
      }
      continue;  // the index cannot tell: the ordinary path scans every pair
    }
    if (rc && std::any_of(candidates_.begin(), candidates_.end(), [](const PatternIndex::Candidate& c) { return c.rc; }))
      ctx.kernel.encode(ctx.class_of.data(), bytes, n, nullptr, group.rev.data() + offset + n);
    rec.codes_offset = offset;
    rec.first_job = static_cast<std::uint32_t>(group.jobs.size());
    rec.listed = true;
    for (const PatternIndex::Candidate& c : candidates_)
      group.add_part_job(ctx, rec, static_cast<std::uint32_t>(r), c.pattern, c.rc, c.range);
    rec.jobs = static_cast<std::uint32_t>(group.jobs.size() - rec.first_job);
    // (A record counts its codes too, so that a group's codes stay bounded.)
    steps += std::max(record_steps, n);
  }
  return r;
}

}  // namespace trawl
