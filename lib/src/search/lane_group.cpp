// A job-lane group: its jobs made, fixed up, scanned (ends kept or counted) and grouped.
#include "trawl/search/lane_group.h"

#include <algorithm>

#include "lanes.h"

namespace trawl {

using namespace lanes;

StrandProfile LaneContext::profile_into(std::uint32_t pi, Strand strand,
                                        std::vector<std::uint64_t>& out) const {
  const ClassPlanes* planes = patterns.class_planes(strand);
  if (patterns.precomputed() || !planes) return patterns.profile(pi, strand, out);
  // Built on demand with the kernel's builder (AVX-512 VBMI where the CPU has it).
  StrandProfile prof = patterns.profile_header(pi, strand);
  const std::size_t at = out.size();
  out.resize(at + std::size_t{prof.classes_hint} * prof.words);
  kernel.build_peq(*planes, prof.classes_hint, patterns.seq(pi), out.data() + at);
  prof.peq = out.data() + at;
  return prof;
}

void LaneGroup::set_start_columns(const SearchOptions& options) {
  for (std::uint32_t m = 1; m <= 64; ++m) {
    std::uint64_t vp = ~std::uint64_t{0};
    if (options.overhang)
      for (std::uint32_t j = 0; j < m; ++j)
        if (overhang_cost(options, j + 1) == overhang_cost(options, j)) vp &= ~(std::uint64_t{1} << j);
    start_column_[m] = {vp, overhang_cost(options, m)};
  }
}

void LaneGroup::begin(unsigned group_strands, bool group_counted, std::uint64_t chunk_steps) {
  records.clear();
  jobs.clear();
  fwd.clear();
  rev.clear();
  peq.clear();
  job_offsets.clear();
  sources.clear();
  rc_job.clear();
  strands = group_strands;
  counted = group_counted;
  chunk_steps_ = chunk_steps;
  // Jobs point into the codes and profiles as they are made; fix_up_jobs redoes that only
  // where a buffer has moved since.
  fwd_start_ = fwd.data();
  rev_start_ = rev.data();
}

void LaneGroup::add_job(const LaneContext& ctx, std::uint64_t codes, bool rc, std::uint32_t pi,
                        std::uint32_t record, std::uint32_t n) {
  // Filled in place: a source built on the stack and copied in was a store-forwarding stall
  // (its fields stored one by one, then loaded as vectors) on every job.
  JobSource& src = sources.emplace_back();
  src.codes = codes;
  src.rc = rc;
  src.peq = kNoProfile;
  src.pattern = pi;
  src.record = record;
  const std::size_t at = peq.size();
  const StrandProfile prof = ctx.profile_into(pi, rc ? Strand::rc : Strand::fwd, peq);
  if (peq.size() != at) src.peq = at;  // built on demand: found after fix_up_jobs
  const auto& [vp, score] = start_column_[prof.m];
  jobs.push_back({prof.peq, codes_of(rc, codes), n, prof.m, prof.classes_hint, vp, score});
}

void LaneGroup::add_part_job(const LaneContext& ctx, const Record& rec, std::uint32_t record,
                             std::uint32_t pattern_idx, bool rc, StrandRange range) {
  // (The kernel's lanes advance in blocks that end where the first of them ends: ranges of
  // every length made blocks of a step or two.)
  const auto n = static_cast<std::uint32_t>(rec.text.size());
  const std::uint32_t padded = std::min(n, (range.end - range.begin + kPartQuantum - 1) / kPartQuantum * kPartQuantum);
  const std::uint32_t begin = range.end >= padded ? range.end - padded : 0;
  job_offsets.resize(jobs.size(), 0);
  job_offsets.push_back(begin);
  add_job(ctx, rec.codes_offset + begin, rc, pattern_idx, record, padded);
}

void LaneGroup::fix_up_jobs() {
  if (fwd.data() == fwd_start_ && rev.data() == rev_start_ && peq.empty()) return;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    jobs[j].text = codes_of(sources[j].rc, sources[j].codes);
    if (sources[j].peq != kNoProfile) jobs[j].peq = peq.data() + sources[j].peq;
  }
}

void LaneGroup::scan_chunked(const LaneContext& ctx, const ScanJob* scan, std::size_t n,
                             std::uint32_t first_job, JobState* last_columns, bool first_only,
                             bool count) {
  for (std::size_t i0 = 0; i0 < n;) {
    // The kernel needs room for one end per step.
    std::size_t i1 = i0;
    std::uint64_t steps = 0;
    while (i1 < n && (i1 == i0 || steps + scan[i1].len <= chunk_steps_)) steps += scan[i1++].len;
    // Not inside a run of jobs over one text, unless after whole batches of the kernel's
    // widest lane set: the kernel scans such runs batch by batch, lanes sharing the text.
    if (i1 < n && scan[i1].text == scan[i1 - 1].text) {
      std::size_t run = i1 - 1;
      while (run > i0 && scan[run - 1].text == scan[i1].text) --run;
      const std::size_t cut = run + (i1 - run) / kPanelBatch * kPanelBatch;
      if (cut > i0) {
        i1 = cut;
      } else {  // (a long text: a whole batch, past the chunk's steps)
        std::size_t end = i1;
        while (end < n && end < i0 + kPanelBatch && scan[end].text == scan[i0].text) ++end;
        i1 = end;
      }
      steps = 0;
      for (std::size_t j = i0; j < i1; ++j) steps += scan[j].len;
    }
    if (chunk_ends_.size() < steps) {
      // Scratch: grown without copying what it held (a group's chunks grow step by step,
      // and each copy could be a few MB).
      chunk_ends_.clear();
      chunk_ends_.resize(steps);
    }
    const std::size_t got = ctx.kernel.scan_jobs(scan + i0, i1 - i0, ctx.options.k, chunk_ends_.data(),
                                                 last_columns + i0, first_only);
    const std::uint32_t base = first_job + static_cast<std::uint32_t>(i0);
    if (!count) {
      for (std::size_t e = 0; e < got; ++e) {
        JobEnd je = chunk_ends_[e];
        je.job += base;
        raw_ends.push_back(je);
      }
    } else if (ctx.options.selection == Selection::all_ends) {
      for (std::size_t e = 0; e < got; ++e) ++counts[base + chunk_ends_[e].job];
    } else {
      for (std::size_t e = 0; e < got; ++e) {
        const JobEnd& je = chunk_ends_[e];
        counters_[base + je.job].push(je.pos, je.cost);
      }
    }
    i0 = i1;
  }
}

void LaneGroup::scan_counted(const LaneContext& ctx) {
  const std::size_t n = jobs.size();
  counters_.resize(n);
  counts.resize(n);
  for (std::size_t j = 0; j < n; ++j) count_start_column(ctx, static_cast<std::uint32_t>(j));
  scan_chunked(ctx, jobs.data(), n, 0, finals.data(), false, true);
  if (ctx.options.selection != Selection::all_ends)
    for (std::size_t j = 0; j < n; ++j) counts[j] = counters_[j].finish(jobs[j].len);
}

void LaneGroup::recount_start_columns(const LaneContext& ctx, std::span<const std::uint32_t> which) {
  for (const std::uint32_t j : which) count_start_column(ctx, j);
}

void LaneGroup::count_start_column(const LaneContext& ctx, std::uint32_t j) {
  counters_[j] = LocalMinimaCounter{};
  counts[j] = 0;
  // The end at position 0 (m <= k) is the start column's, not the kernel's.
  if (jobs[j].len == 0 || jobs[j].score > ctx.options.k) return;
  if (ctx.options.selection != Selection::all_ends) counters_[j].push(0, static_cast<std::int32_t>(jobs[j].score));
  else ++counts[j];
}

void LaneGroup::count_rescanned(const LaneContext& ctx, std::size_t from,
                                std::span<const std::uint32_t> which) {
  const bool minima = ctx.options.selection != Selection::all_ends;
  for (std::size_t e = from; e < raw_ends.size(); ++e) {
    const JobEnd& je = raw_ends[e];
    if (minima) counters_[je.job].push(je.pos, je.cost);
    else ++counts[je.job];
  }
  if (minima)
    for (const std::uint32_t j : which) counts[j] = counters_[j].finish(jobs[j].len);
  raw_ends.resize(from);
}

void LaneGroup::group_ends() {
  const std::size_t n = jobs.size();
  const std::size_t found = raw_ends.size();
  end_offsets_.assign(n + 1, 0);
  if (found == 0) return;  // (most groups of a pattern panel)
  for (std::size_t e = 0; e < found; ++e) ++end_offsets_[raw_ends[e].job + 1];
  for (std::size_t j = 0; j < n; ++j) end_offsets_[j + 1] += end_offsets_[j];
  // Job j's ends go to ends_[off[j] + j, off[j + 1] + j): one unused slot after each job's,
  // because records of one length with as many ends each (dense outputs) would otherwise
  // start their ends a power of two apart, and the scatter below then wrote to a few cache
  // sets only (evicting each other).
  ends_.resize(found + n);
  fill_.resize(n);
  for (std::size_t j = 0; j < n; ++j) fill_[j] = end_offsets_[j] + static_cast<std::uint32_t>(j);
  if (job_offsets.empty()) {
    for (std::size_t e = 0; e < found; ++e) {
      const JobEnd& je = raw_ends[e];
      ends_[fill_[je.job]++] = {je.pos, je.cost};
    }
    return;
  }
  // Jobs over part of a strand count their ends from where that part starts.
  job_offsets.resize(n, 0);
  for (std::size_t e = 0; e < found; ++e) {
    const JobEnd& je = raw_ends[e];
    ends_[fill_[je.job]++] = {std::uint64_t{job_offsets[je.job]} + je.pos, je.cost};
  }
}

std::uint32_t LaneGroup::job_of(const Record& rec, std::uint32_t pi, Strand strand) const {
  if (rec.listed) {
    // (A few jobs, by pattern, forward first.)
    const bool rc = strand == Strand::rc;
    const auto first = sources.begin() + rec.first_job, last = first + rec.jobs;
    const auto at = std::lower_bound(first, last, std::pair{pi, rc}, [](const JobSource& s, std::pair<std::uint32_t, bool> key) {
      return s.pattern != key.first ? s.pattern < key.first : s.rc < key.second;
    });
    return at != last && at->pattern == pi && at->rc == rc ? static_cast<std::uint32_t>(at - sources.begin()) : kNoJobs;
  }
  if (rec.live != kAllLive) {  // filtered (at most 64 jobs)
    const std::uint32_t bit = (pi - rec.first_pattern) + (strand == Strand::rc ? rec.patterns : 0);
    if ((rec.live >> bit & 1) == 0) return kNoJobs;  // ruled out: no end
    // The live jobs before it. (Often none or one, --paired: a popcount is a library call
    // in code built for any x86-64.)
    const std::uint64_t before = rec.live & ((std::uint64_t{1} << bit) - 1);
    const std::uint32_t jobs_before = (before & (before - 1)) == 0 ? before != 0 : static_cast<std::uint32_t>(__builtin_popcountll(before));
    return rec.first_job + jobs_before;
  }
  const std::uint32_t j = rec.first_job + (pi - rec.first_pattern);
  if (strand == Strand::fwd) return j;
  return strands == 2 ? j + rec.patterns : rc_job[j];
}

}  // namespace trawl
