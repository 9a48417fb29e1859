// The filtered panel: SeedFilter rules out most of a record's jobs; reverse jobs are probed
// on the forward text, and the probes that find an end are rescanned as the real jobs.
#include <algorithm>

#include "lanes.h"
#include "trawl/search/lane_strategies.h"

namespace trawl {

using namespace lanes;

void FilteredPanel::make(const LaneContext& ctx, const PanelJobs& panel) {
  // The filter needs every end to be an alignment of the whole pattern inside the text (no
  // overhang), and a record's jobs as bits.
  const std::size_t npat = ctx.patterns.size();
  const std::size_t scans = ctx.options.searches_rc() ? 2 * npat : npat;
  if (ctx.options.overhang || scans > SeedFilter::kMaxScans) return;
  const std::span<const ScanJob> jobs = panel.all();
  std::vector<SeedScan> seed_scans(scans);
  for (std::size_t j = 0; j < scans; ++j)
    seed_scans[j] = {{jobs[j].m, 1, jobs[j].classes, jobs[j].peq}, j >= npat};
  SeedFilter filter(ctx.options.alphabet, ctx.options.k, seed_scans);
  if (static_cast<std::size_t>(__builtin_popcountll(filter.filtered())) < kSeedFilterMinScans) return;
  filter_ = std::move(filter);
  if (!ctx.options.searches_rc()) return;
  // Row j of the probe is row m - 1 - j of the rc profile, in every class's word.
  std::size_t probe_words = 0;
  for (std::size_t pi = 0; pi < npat; ++pi) probe_words += jobs[npat + pi].classes;
  probe_peq_.resize(probe_words);
  probe_jobs_.resize(npat);
  std::size_t at = 0;
  for (std::size_t pi = 0; pi < npat; ++pi) {
    const ScanJob& rc = jobs[npat + pi];
    for (std::uint32_t c = 0; c < rc.classes; ++c) probe_peq_[at + c] = reversed_rows(rc.peq[c], 0, rc.m);
    probe_jobs_[pi] = rc;
    probe_jobs_[pi].peq = probe_peq_.data() + at;
    at += rc.classes;
  }
}

void FilteredPanel::add_strand(LaneGroup& group, const LaneContext& ctx, const PanelJobs& panel,
                               const LaneGroup::Record& rec, std::uint32_t r, bool rc,
                               std::uint64_t coded, std::uint64_t live) {
  const auto npat = static_cast<std::uint32_t>(ctx.patterns.size());
  // Reverse jobs are probed on the forward text: all of a record's jobs then read one text,
  // and the kernel's vectors need no second row look-up and blend a step.
  const bool probe = rc && !probe_jobs_.empty();
  const ScanJob* ready = probe ? probe_jobs_.data() : &panel.job(0, rc, npat);
  const std::uint8_t* const job_text = group.codes_of(rc && !probe, rec.codes_offset);
  const std::uint64_t strand_bits = npat == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << npat) - 1;
  for (std::uint64_t bits = live >> (rc ? npat : 0) & strand_bits; bits; bits &= bits - 1) {
    const auto pi = static_cast<std::uint32_t>(__builtin_ctzll(bits));
    ScanJob& job = group.jobs.emplace_back(ready[pi]);
    job.text = job_text;
    job.len = static_cast<std::uint32_t>(coded);
    if (probe) probes_.push_back(static_cast<std::uint32_t>(group.jobs.size() - 1));
    group.sources.push_back({rec.codes_offset, rc && !probe, LaneGroup::kNoProfile, pi, r});
  }
}

void FilteredPanel::rescan(LaneGroup& group, const LaneContext& ctx, const PanelJobs& panel) {
  if (probes_.empty()) return;
  has_end_.assign(group.jobs.size(), 0);
  for (const JobEnd& e : group.raw_ends) has_end_[e.job] = 1;
  rescan_flagged(group, ctx, panel);
}

void FilteredPanel::rescan_counted(LaneGroup& group, const LaneContext& ctx, const PanelJobs& panel) {
  if (probes_.empty()) return;
  // A probe that counted a hit: its reverse job's count, from the real scan's ends. (A
  // reverse job counts its own start column: the probe's was the probe's.)
  has_end_.assign(group.jobs.size(), 0);
  for (const std::uint32_t j : probes_) has_end_[j] = group.counts[j] != 0;
  const std::size_t from = group.raw_ends.size();
  rescan_flagged(group, ctx, panel);
  group.recount_start_columns(ctx, rest_of_);
  group.count_rescanned(ctx, from, rest_of_);
}

// The probes that has_end_ marks become their reverse jobs, which are scanned (in
// rest_jobs_, rest_of_[i] their place): their ends replace the probes' in raw_ends (a probe
// has an end exactly where its reverse job has one, so the others have none either way), and
// their last columns the probes'. (A probe without an end keeps its own last column: probes
// are made only without overhang, and nothing reads a whole record's last column then.)
void FilteredPanel::rescan_flagged(LaneGroup& group, const LaneContext& ctx, const PanelJobs& panel) {
  const auto npat = static_cast<std::uint32_t>(ctx.patterns.size());
  rest_jobs_.clear();
  rest_of_.clear();
  for (const std::uint32_t j : probes_) {
    if (!has_end_[j]) continue;
    ScanJob real = panel.job(group.sources[j].pattern, true, npat);
    group.sources[j].rc = true;
    real.text = group.rev.data() + group.sources[j].codes;
    real.len = group.jobs[j].len;
    group.jobs[j] = real;
    rest_jobs_.push_back(real);
    rest_of_.push_back(j);
  }
  is_probe_.assign(group.jobs.size(), 0);
  for (const std::uint32_t j : probes_) is_probe_[j] = 1;
  std::erase_if(group.raw_ends, [&](const JobEnd& e) { return is_probe_[e.job] != 0; });
  const std::size_t ends_before = group.raw_ends.size();
  rest_final_.resize(rest_jobs_.size());
  group.scan_chunked(ctx, rest_jobs_.data(), rest_jobs_.size(), 0, rest_final_.data(), false, false);
  for (std::size_t e = ends_before; e < group.raw_ends.size(); ++e) group.raw_ends[e].job = rest_of_[group.raw_ends[e].job];
  for (std::size_t i = 0; i < rest_of_.size(); ++i) group.finals[rest_of_[i]] = rest_final_[i];
}

}  // namespace trawl
