// The group driver (LaneDriver) and the plain strategies: job lanes (a job per record,
// pattern and strand, profiles made per group) and the pattern panel (ready-made jobs). The
// other strategies fill their groups in filtered_panel.cpp, screened.cpp and paired.cpp;
// contains' first-end pass is in first_end.cpp.
#include <algorithm>

#include "lanes.h"
#include "trawl/search/lane_strategies.h"

namespace trawl {

using namespace lanes;

LaneDriver::LaneDriver(const LaneContext& ctx, const PatternIndex* index) {
  indexed_.make(index);
  group_.set_start_columns(ctx.options);
  const std::size_t npat = ctx.patterns.size();
  if (ctx.patterns.precomputed() && ctx.patterns.max_length() <= 64 && npat <= kPanelJobsLimit) {
    panel_.make(ctx, group_);
    filtered_.make(ctx, panel_);
  }
  paired_.make(ctx);
  screened_.make(ctx, filtered_.enabled());
}

std::size_t LaneDriver::scan(const LaneContext& ctx, std::span<const std::string_view> texts,
                             std::uint64_t paired_first) {
  const std::uint64_t group_steps = begin_group(ctx);
  std::size_t took = 0;
  if (plan_.strategy == Strategy::screened) {
    took = screened_.gather(group_, ctx, texts, group_steps);
    screened_.screen(group_, ctx);
  } else if (plan_.strategy == Strategy::indexed) {
    took = indexed_.gather(group_, ctx, texts, group_steps);
  } else {
    took = gather_records(ctx, texts, paired_first, group_steps);
  }
  group_.fix_up_jobs();
  scan_group(ctx);
  return took;
}

std::uint64_t LaneDriver::begin_group(const LaneContext& ctx) {
  // A group where the first end decides holds forward jobs only, back to back, so the kernel
  // takes them in place; the reverse jobs wanted are appended after the forward scan.
  const unsigned strands = plan_.first_end_decides ? 1 : ctx.strands();
  const std::uint64_t steps = plan_.strategy == Strategy::screened         ? kGroupSteps * kScreenedGroupScale
                              : plan_.strategy == Strategy::filtered_panel || plan_.strategy == Strategy::indexed
                                  ? kGroupSteps * kFilteredGroupScale
                                                                           : kGroupSteps;
  group_.begin(strands, plan_.counted, steps);
  filtered_.begin_group();
  return steps;
}

std::size_t LaneDriver::gather_records(const LaneContext& ctx, std::span<const std::string_view> texts,
                                       std::uint64_t paired_first, std::uint64_t group_steps) {
  const auto npat = static_cast<std::uint32_t>(ctx.patterns.size());
  const unsigned strands = ctx.strands();
  const bool short_patterns = ctx.patterns.max_length() <= 64;
  std::uint64_t steps = 0;
  std::size_t r = 0;
  for (; r < texts.size(); ++r) {
    // Made in place: a record built on the stack and copied in was a store-forwarding stall
    // (its fields stored one by one, then loaded as vectors).
    LaneGroup::Record& rec = group_.records.emplace_back();
    rec.text = texts[r];
    std::uint32_t first = 0, last = npat;
    if (paired_first != kAllPatterns) {
      first = paired_first + r < npat ? static_cast<std::uint32_t>(paired_first + r) : npat;
      last = first < npat ? first + 1 : npat;
    }
    rec.first_pattern = first;
    rec.patterns = last - first;
    const std::uint64_t n = rec.text.size();
    // A pattern panel shares each text's codes between its jobs, long texts too where its
    // jobs fill a kernel batch (fewer gain more from the text-tiled kernel's segments).
    const std::uint64_t pair_jobs = std::uint64_t{last - first} * strands;
    const bool long_panel = !panel_.empty() && pair_jobs >= kPanelBatch;
    const bool scanned = short_patterns && first < last && n <= (long_panel ? kMaxPanelText : kMaxText) &&
                         pair_jobs * n <= (long_panel ? kPanelRecordSteps : kRecordSteps);
    // The group ends before a record that would take it past its budget, so that no group
    // needs cutting in scan_chunked (a cut inside a record parts its two strands, which a
    // pattern panel scans together, a text per vector).
    const std::uint64_t record_jobs = scanned ? std::uint64_t{last - first} * group_.strands : 0;
    if (r > 0 && (steps + record_jobs * n > group_steps || group_.jobs.size() + record_jobs > kGroupJobs)) {
      group_.records.pop_back();
      break;
    }
    if (scanned) steps += add_record_jobs(ctx, rec, static_cast<std::uint32_t>(r), paired_first != kAllPatterns);
  }
  return r;
}

std::uint64_t LaneDriver::add_record_jobs(const LaneContext& ctx, LaneGroup::Record& rec,
                                          std::uint32_t r, bool paired) {
  const bool first_end_decides = plan_.first_end_decides;
  const bool filtering = plan_.strategy == Strategy::filtered_panel;
  const std::uint64_t n = rec.text.size();
  rec.codes_offset = static_cast<std::uint32_t>(group_.fwd.size());
  group_.fwd.resize(group_.fwd.size() + n);
  std::uint8_t* rev_end = nullptr;
  if (ctx.options.searches_rc()) {
    group_.rev.resize(group_.fwd.size());
    // Where the first end decides, most records never need their reverse codes.
    if (!first_end_decides) rev_end = group_.rev.data() + rec.codes_offset + n;
  }
  // Where the first end decides, a forward strand is coded and scanned only as far as its
  // head at first (FirstEndPass does the rest).
  const std::uint64_t coded = first_end_decides ? std::min(n, kFirstEndHead) : n;
  const std::uint8_t* codes = group_.fwd.data() + rec.codes_offset;
  ctx.kernel.encode(ctx.class_of.data(), reinterpret_cast<const std::uint8_t*>(rec.text.data()), coded,
                    group_.fwd.data() + rec.codes_offset, rev_end);
  rec.first_job = static_cast<std::uint32_t>(group_.jobs.size());
  // (The filter's bits are the panel's order, which is the record's, as first = 0.)
  const std::uint64_t live = filtering ? filtered_.live(ctx, codes, n) : 0;
  if (filtering) rec.live = live;  // (64 live jobs, all of a record's, read the same either way)
  // --paired: only the strands, and the parts of them, that PairedSeedFilter says can hold
  // an end (not where the first end decides: that path takes forward strands whole first).
  // (Counted as a whole record: its codes are held all the same.)
  if (paired && rec.patterns > 0 && !first_end_decides && paired_.add_jobs(group_, ctx, rec, r)) return n;
  // Strand by strand: a strand's jobs share its text, which the kernel scans once for a
  // whole panel of patterns (kernel_jobs.h, scan_shared_text).
  for (unsigned s = 0; s < group_.strands; ++s) add_strand_jobs(ctx, rec, r, s == 1, coded, live);
  // (Filtered, only the jobs that passed take steps: a group holds several times as many
  // records, and the kernel's vectors fill better. A record counts as one job at least, so
  // its codes stay bounded too.)
  rec.jobs = static_cast<std::uint32_t>(group_.jobs.size() - rec.first_job);
  return std::max<std::uint64_t>(rec.jobs, 1) * n;
}

void LaneDriver::add_strand_jobs(const LaneContext& ctx, const LaneGroup::Record& rec,
                                 std::uint32_t r, bool rc, std::uint64_t coded, std::uint64_t live) {
  if (plan_.strategy == Strategy::filtered_panel) {
    filtered_.add_strand(group_, ctx, panel_, rec, r, rc, coded, live);
  } else if (!panel_.empty()) {
    panel_.add_strand(group_, ctx, rec, r, rc, coded);
  } else {
    const std::uint32_t first = rec.first_pattern, last = first + rec.patterns;
    for (std::uint32_t pi = first; pi < last; ++pi)
      group_.add_job(ctx, rec.codes_offset, rc, pi, r, static_cast<std::uint32_t>(coded));
  }
}

void LaneDriver::scan_group(const LaneContext& ctx) {
  group_.finals.resize(group_.jobs.size());
  group_.raw_ends.clear();
  const bool filtered = plan_.strategy == Strategy::filtered_panel;
  if (plan_.counted) {
    group_.scan_counted(ctx);
    if (filtered) filtered_.rescan_counted(group_, ctx, panel_);
    return;
  }
  group_.scan_chunked(ctx, group_.jobs.data(), group_.jobs.size(), 0, group_.finals.data(),
                      plan_.first_end_decides, false);
  if (filtered) filtered_.rescan(group_, ctx, panel_);
  if (plan_.first_end_decides) first_end_.finish(group_, ctx);
  group_.group_ends();
}

void PanelJobs::make(const LaneContext& ctx, const LaneGroup& group) {
  const auto npat = static_cast<std::uint32_t>(ctx.patterns.size());
  std::vector<std::uint64_t> scratch;
  jobs_.resize(2 * std::size_t{npat});
  for (std::uint32_t pi = 0; pi < npat; ++pi)
    for (Strand strand : {Strand::fwd, Strand::rc}) {
      if (strand == Strand::rc && !ctx.options.searches_rc()) break;
      scratch.clear();
      const StrandProfile prof = ctx.profile_into(pi, strand, scratch);
      const auto& [vp, score] = group.start_column(prof.m);
      jobs_[(strand == Strand::rc ? npat : 0) + pi] = {prof.peq, nullptr, 0, prof.m, prof.classes_hint, vp, score};
    }
}

void PanelJobs::add_strand(LaneGroup& group, const LaneContext& ctx, const LaneGroup::Record& rec,
                           std::uint32_t r, bool rc, std::uint64_t coded) const {
  const auto npat = static_cast<std::uint32_t>(ctx.patterns.size());
  const std::uint32_t first = rec.first_pattern, last = first + rec.patterns;
  const ScanJob* ready = jobs_.data() + (rc ? npat : 0);
  const std::uint8_t* const text = group.codes_of(rc, rec.codes_offset);
  const std::size_t at = group.jobs.size();
  group.jobs.insert(group.jobs.end(), ready + first, ready + last);
  group.sources.resize(group.jobs.size());
  for (std::size_t j = at; j < group.jobs.size(); ++j) {
    group.jobs[j].text = text;
    group.jobs[j].len = static_cast<std::uint32_t>(coded);
    group.sources[j] = {rec.codes_offset, rc, LaneGroup::kNoProfile, first + static_cast<std::uint32_t>(j - at), r};
  }
}

}  // namespace trawl
