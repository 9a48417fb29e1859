// Job lanes: short records scanned in groups, one (record, pattern, strand) job per SIMD
// lane, by the strategy the plan chose (lanes, panel, filtered panel, paired; the screened
// strategy gathers its records in screened.cpp). A group is gathered, its jobs scanned,
// and their ends grouped by job; the searcher then answers each record from them.
#include <algorithm>

#include "lanes.h"
#include "trawl/search/searcher.h"

namespace trawl {

using namespace lanes;

std::size_t Searcher::prescan(std::span<const std::string_view> texts, std::uint64_t paired_first) {
  const std::uint64_t group_steps = begin_group();
  const std::size_t took = plan_.strategy == Strategy::screened
                               ? gather_screened(texts, group_steps)
                               : gather_records(texts, paired_first, group_steps);
  if (!screened_.empty()) screen_group();
  fix_up_jobs();
  scan_group();
  return took;
}

std::uint64_t Searcher::begin_group() {
  pre_records_.clear();
  pre_jobs_.clear();
  pre_fwd_.clear();
  pre_rev_.clear();
  pre_peq_.clear();
  pre_job_offsets_.clear();
  probes_.clear();
  screened_.clear();
  sources_.clear();
  pre_current_ = nullptr;
  // A group where the first end decides holds forward jobs only, back to back, so the kernel
  // takes them in place; the reverse jobs wanted are appended after the forward scan.
  pre_strands_ = plan_.first_end_decides ? 1 : (options_.searches_rc() ? 2 : 1);
  pre_counted_ = plan_.counted;
  // Jobs point into the codes and profiles as they are made; fix_up_jobs redoes that only
  // where a buffer has moved since.
  group_fwd_start_ = pre_fwd_.data();
  group_rev_start_ = pre_rev_.data();
  chunk_steps_ = plan_.strategy == Strategy::screened         ? kGroupSteps * kScreenedGroupScale
                 : plan_.strategy == Strategy::filtered_panel ? kGroupSteps * kFilteredGroupScale
                                                              : kGroupSteps;
  return chunk_steps_;
}

std::size_t Searcher::gather_records(std::span<const std::string_view> texts,
                                     std::uint64_t paired_first, std::uint64_t group_steps) {
  const auto npat = static_cast<std::uint32_t>(patterns_.size());
  const unsigned strands = options_.searches_rc() ? 2 : 1;
  const bool short_patterns = patterns_.max_length() <= 64;
  std::uint64_t steps = 0;
  std::size_t r = 0;
  for (; r < texts.size(); ++r) {
    // Made in place: a record built on the stack and copied in was a store-forwarding stall
    // (its fields stored one by one, then loaded as vectors).
    PrescanRecord& rec = pre_records_.emplace_back();
    rec.text = texts[r];
    std::uint32_t first = 0, last = npat;
    if (paired_first != kAllPatterns) {
      first = paired_first + r < npat ? static_cast<std::uint32_t>(paired_first + r) : npat;
      last = first < npat ? first + 1 : npat;
    }
    rec.first_pattern = first;
    rec.patterns = last - first;
    const std::uint64_t n = rec.text.size();
    const bool scanned = short_patterns && first < last && n <= kMaxText &&
                         std::uint64_t{last - first} * strands * n <= kRecordSteps;
    // The group ends before a record that would take it past its budget, so that no group
    // needs cutting in scan_chunked (a cut inside a record parts its two strands, which a
    // pattern panel scans together, a text per vector).
    const std::uint64_t record_jobs = scanned ? std::uint64_t{last - first} * pre_strands_ : 0;
    if (r > 0 && (steps + record_jobs * n > group_steps || pre_jobs_.size() + record_jobs > kGroupJobs)) {
      pre_records_.pop_back();
      break;
    }
    if (scanned) steps += add_record_jobs(rec, static_cast<std::uint32_t>(r), paired_first != kAllPatterns);
  }
  return r;
}

std::uint64_t Searcher::add_record_jobs(PrescanRecord& rec, std::uint32_t r, bool paired) {
  const bool first_end_decides = plan_.first_end_decides;
  const bool filtering = plan_.strategy == Strategy::filtered_panel;
  const std::uint64_t n = rec.text.size();
  rec.codes_offset = static_cast<std::uint32_t>(pre_fwd_.size());
  pre_fwd_.resize(pre_fwd_.size() + n);
  std::uint8_t* rev_end = nullptr;
  if (options_.searches_rc()) {
    pre_rev_.resize(pre_fwd_.size());
    // Where the first end decides, most records never need their reverse codes.
    if (!first_end_decides) rev_end = pre_rev_.data() + rec.codes_offset + n;
  }
  // Where the first end decides, a forward strand is coded and scanned only as far as its
  // head at first (continue_first_end does the rest).
  const std::uint64_t coded = first_end_decides ? std::min(n, kFirstEndHead) : n;
  kernel_.encode(class_of_.data(), reinterpret_cast<const std::uint8_t*>(rec.text.data()), coded,
                 pre_fwd_.data() + rec.codes_offset, rev_end);
  rec.first_job = static_cast<std::uint32_t>(pre_jobs_.size());
  // (The filter's bits are panel_jobs_' order, which is the record's, as first = 0.)
  const std::uint64_t live = filtering ? seed_filter_.candidates(pre_fwd_.data() + rec.codes_offset, n, kernel_.seed_lookup) : 0;
  if (filtering) rec.live = live;  // (64 live jobs, all of a record's, read the same either way)
  // --paired: only the strands, and the parts of them, that PairedSeedFilter says can hold
  // an end (not where the first end decides: that path takes forward strands whole first).
  // (Counted as a whole record: its codes are held all the same.)
  if (paired && rec.patterns > 0 && !first_end_decides && add_paired_jobs(rec, r)) return n;
  // Strand by strand: a strand's jobs share its text, which the kernel scans once for a
  // whole panel of patterns (kernel_jobs.h, scan_shared_text).
  for (unsigned s = 0; s < pre_strands_; ++s) add_strand_jobs(rec, r, s == 1, coded, live);
  // (Filtered, only the jobs that passed take steps: a group holds several times as many
  // records, and the kernel's vectors fill better. A record counts as one job at least, so
  // its codes stay bounded too.)
  rec.jobs = static_cast<std::uint32_t>(pre_jobs_.size() - rec.first_job);
  return std::max<std::uint64_t>(rec.jobs, 1) * n;
}

void Searcher::add_strand_jobs(const PrescanRecord& rec, std::uint32_t r, bool rc,
                               std::uint64_t coded, std::uint64_t live) {
  const auto npat = static_cast<std::uint32_t>(patterns_.size());
  const std::uint32_t first = rec.first_pattern, last = first + rec.patterns;
  if (panel_jobs_.empty()) {
    for (std::uint32_t pi = first; pi < last; ++pi)
      add_job(rec.codes_offset, rc, pi, r, static_cast<std::uint32_t>(coded));
    return;
  }
  if (plan_.strategy == Strategy::filtered_panel) {
    add_filtered_jobs(rec, r, rc, coded, live);
    return;
  }
  const ScanJob* ready = panel_jobs_.data() + (rc ? npat : 0);
  const std::uint8_t* const text = codes_of(rc, rec.codes_offset);
  // Ready-made jobs, copied as a block: a call per job showed in a panel's profile.
  const std::size_t at = pre_jobs_.size();
  pre_jobs_.insert(pre_jobs_.end(), ready + first, ready + last);
  sources_.resize(pre_jobs_.size());
  for (std::size_t j = at; j < pre_jobs_.size(); ++j) {
    pre_jobs_[j].text = text;
    pre_jobs_[j].len = static_cast<std::uint32_t>(coded);
    sources_[j] = {rec.codes_offset, rc, Window::kOpen, first + static_cast<std::uint32_t>(j - at), r};
  }
}

void Searcher::add_filtered_jobs(const PrescanRecord& rec, std::uint32_t r, bool rc,
                                 std::uint64_t coded, std::uint64_t live) {
  const auto npat = static_cast<std::uint32_t>(patterns_.size());
  // Reverse jobs are probed on the forward text (panel_probe_jobs_): all of a record's jobs
  // then read one text, and the kernel's vectors need no second row look-up and blend a
  // step; the few that find an end are scanned for real (rescan_probes).
  const bool probe = rc && !panel_probe_jobs_.empty();
  const ScanJob* ready = probe ? panel_probe_jobs_.data() : panel_jobs_.data() + (rc ? npat : 0);
  const std::uint8_t* const job_text = codes_of(rc && !probe, rec.codes_offset);
  const std::uint64_t strand_bits = npat == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << npat) - 1;
  for (std::uint64_t bits = live >> (rc ? npat : 0) & strand_bits; bits; bits &= bits - 1) {
    const auto pi = static_cast<std::uint32_t>(__builtin_ctzll(bits));
    ScanJob& job = pre_jobs_.emplace_back(ready[pi]);
    job.text = job_text;
    job.len = static_cast<std::uint32_t>(coded);
    if (probe) probes_.push_back(static_cast<std::uint32_t>(pre_jobs_.size() - 1));
    sources_.push_back({rec.codes_offset, rc && !probe, Window::kOpen, pi, r});
  }
}

void Searcher::add_job(std::uint64_t codes, bool rc, std::uint32_t pi, std::uint32_t record,
                       std::uint32_t n) {
  // Filled in place: a source built on the stack and copied in was a store-forwarding stall
  // (its fields stored one by one, then loaded as vectors) on every job.
  JobSource& src = sources_.emplace_back();
  src.codes = codes;
  src.rc = rc;
  src.peq = Window::kOpen;
  src.pattern = pi;
  src.record = record;
  const std::size_t at = pre_peq_.size();
  const StrandProfile prof = profile_into(pi, rc ? Strand::rc : Strand::fwd, pre_peq_);
  if (pre_peq_.size() != at) src.peq = at;  // built on demand: found after fix_up_jobs
  const auto& [vp, score] = start_column_[prof.m];
  pre_jobs_.push_back({prof.peq, codes_of(rc, codes), n, prof.m, prof.classes_hint, vp, score});
}

void Searcher::fix_up_jobs() {
  if (pre_fwd_.data() == group_fwd_start_ && pre_rev_.data() == group_rev_start_ && pre_peq_.empty()) return;
  for (std::size_t j = 0; j < pre_jobs_.size(); ++j) {
    pre_jobs_[j].text = codes_of(sources_[j].rc, sources_[j].codes);
    if (sources_[j].peq != Window::kOpen) pre_jobs_[j].peq = pre_peq_.data() + sources_[j].peq;
  }
}

void Searcher::scan_group() {
  const std::size_t jobs = pre_jobs_.size();
  pre_final_.resize(jobs);
  pre_raw_ends_.clear();
  if (pre_counted_) {
    scan_counted();
    return;
  }
  scan_chunked(pre_jobs_.data(), jobs, 0, pre_final_.data(), plan_.first_end_decides);
  if (!probes_.empty()) {
    // A probe with an end: the reverse job's real ends take the probe's place.
    job_flags_.assign(jobs, 0);
    for (const JobEnd& e : pre_raw_ends_) job_flags_[e.job] = 1;
    rescan_probes();
  }
  pre_rc_job_.clear();
  if (plan_.first_end_decides) continue_first_end();
  group_ends();
}

void Searcher::scan_counted() {
  const std::size_t jobs = pre_jobs_.size();
  pre_counters_.assign(jobs, LocalMinimaCounter{});
  pre_counts_.assign(jobs, 0);
  const bool minima = options_.selection != Selection::all_ends;
  // The end at position 0 (m <= k) is the start column's, not the kernel's.
  const auto count_start_column = [&](std::size_t j) {
    const ScanJob& job = pre_jobs_[j];
    if (job.len == 0 || job.score > options_.k) return;
    if (minima) pre_counters_[j].push(0, static_cast<std::int32_t>(job.score));
    else ++pre_counts_[j];
  };
  for (std::size_t j = 0; j < jobs; ++j) count_start_column(j);
  scan_chunked(pre_jobs_.data(), jobs, 0, pre_final_.data(), false);
  if (minima)
    for (std::size_t j = 0; j < jobs; ++j) pre_counts_[j] = pre_counters_[j].finish(pre_jobs_[j].len);
  if (probes_.empty()) return;
  // A probe that counted a hit: its reverse job's count, from the real scan's ends.
  job_flags_.assign(jobs, 0);
  for (const std::uint32_t j : probes_) job_flags_[j] = pre_counts_[j] != 0;
  rescan_probes();
  // (A reverse job counts its own start column: the probe's was the probe's.)
  for (const std::uint32_t j : rest_of_) {
    pre_counters_[j] = LocalMinimaCounter{};
    pre_counts_[j] = 0;
    count_start_column(j);
  }
  for (const JobEnd& e : pre_raw_ends_) {
    if (minima) pre_counters_[e.job].push(e.pos, e.cost);
    else ++pre_counts_[e.job];
  }
  if (minima)
    for (const std::uint32_t j : rest_of_) pre_counts_[j] = pre_counters_[j].finish(pre_jobs_[j].len);
  pre_raw_ends_.clear();
}

// The probes (panel_probe_jobs_) that job_flags_ marks as having an end become their reverse
// jobs, which are scanned (in rest_jobs_, rest_of_[i] their place): their ends replace the
// probes' in pre_raw_ends_ (a probe has an end exactly where its reverse job has one, so the
// others have none either way), and their last columns the probes'. (A probe without an end
// keeps its own last column: probes are made only where SeedFilter is on, without overhang,
// and nothing reads a whole record's last column then.)
void Searcher::rescan_probes() {
  const auto npat = static_cast<std::uint32_t>(patterns_.size());
  rest_jobs_.clear();
  rest_of_.clear();
  for (const std::uint32_t j : probes_) {
    if (!job_flags_[j]) continue;
    ScanJob real = panel_jobs_[npat + sources_[j].pattern];
    sources_[j].rc = true;
    real.text = pre_rev_.data() + sources_[j].codes;
    real.len = pre_jobs_[j].len;
    pre_jobs_[j] = real;
    rest_jobs_.push_back(real);
    rest_of_.push_back(j);
  }
  is_probe_.assign(pre_jobs_.size(), 0);
  for (const std::uint32_t j : probes_) is_probe_[j] = 1;
  std::erase_if(pre_raw_ends_, [&](const JobEnd& e) { return is_probe_[e.job] != 0; });
  const std::size_t ends_before = pre_raw_ends_.size();
  rest_final_.resize(rest_jobs_.size());
  const bool counted = pre_counted_;
  pre_counted_ = false;  // (scan_chunked counts whole groups only: these ends are kept)
  scan_chunked(rest_jobs_.data(), rest_jobs_.size(), 0, rest_final_.data(), false);
  pre_counted_ = counted;
  for (std::size_t e = ends_before; e < pre_raw_ends_.size(); ++e) pre_raw_ends_[e].job = rest_of_[pre_raw_ends_[e].job];
  for (std::size_t i = 0; i < rest_of_.size(); ++i) pre_final_[rest_of_[i]] = rest_final_[i];
}

void Searcher::group_ends() {
  const std::size_t jobs = pre_jobs_.size();
  const std::size_t found = pre_raw_ends_.size();
  pre_end_offsets_.assign(jobs + 1, 0);
  if (found == 0) return;  // (most groups of a pattern panel)
  for (std::size_t e = 0; e < found; ++e) ++pre_end_offsets_[pre_raw_ends_[e].job + 1];
  for (std::size_t j = 0; j < jobs; ++j) pre_end_offsets_[j + 1] += pre_end_offsets_[j];
  // Job j's ends go to pre_ends_[off[j] + j, off[j + 1] + j): one unused slot after each
  // job's, because records of one length with as many ends each (dense outputs) would
  // otherwise start their ends a power of two apart, and the scatter below then wrote to
  // a few cache sets only (evicting each other).
  pre_ends_.resize(found + jobs);
  fill_.resize(jobs);
  for (std::size_t j = 0; j < jobs; ++j) fill_[j] = pre_end_offsets_[j] + static_cast<std::uint32_t>(j);
  if (pre_job_offsets_.empty()) {
    for (std::size_t e = 0; e < found; ++e) {
      const JobEnd& je = pre_raw_ends_[e];
      pre_ends_[fill_[je.job]++] = {je.pos, je.cost};
    }
    return;
  }
  // Jobs over part of a strand count their ends from where that part starts.
  pre_job_offsets_.resize(jobs, 0);
  for (std::size_t e = 0; e < found; ++e) {
    const JobEnd& je = pre_raw_ends_[e];
    pre_ends_[fill_[je.job]++] = {std::uint64_t{pre_job_offsets_[je.job]} + je.pos, je.cost};
  }
}

void Searcher::scan_chunked(const ScanJob* jobs, std::size_t n, std::uint32_t first_job,
                            JobState* finals, bool first_only) {
  for (std::size_t i0 = 0; i0 < n;) {
    // The kernel needs room for one end per step.
    std::size_t i1 = i0;
    std::uint64_t steps = 0;
    while (i1 < n && (i1 == i0 || steps + jobs[i1].len <= chunk_steps_)) steps += jobs[i1++].len;
    // Not inside a run of jobs over one text, unless after whole batches of the kernel's
    // widest lane set: the kernel scans such runs batch by batch, lanes sharing the text.
    if (i1 < n && jobs[i1].text == jobs[i1 - 1].text) {
      std::size_t run = i1 - 1;
      while (run > i0 && jobs[run - 1].text == jobs[i1].text) --run;
      const std::size_t cut = run + (i1 - run) / kPanelBatch * kPanelBatch;
      if (cut > i0) i1 = cut;
    }
    if (chunk_ends_.size() < steps) {
      // Scratch: grown without copying what it held (a group's chunks grow step by step,
      // and each copy could be a few MB).
      chunk_ends_.clear();
      chunk_ends_.resize(steps);
    }
    const std::size_t got = kernel_.scan_jobs(jobs + i0, i1 - i0, options_.k, chunk_ends_.data(),
                                              finals + i0, first_only);
    if (pre_counted_) {  // counted, not kept (always the whole group, first_job 0)
      if (options_.selection == Selection::all_ends) {
        for (std::size_t e = 0; e < got; ++e) ++pre_counts_[i0 + chunk_ends_[e].job];
      } else {
        for (std::size_t e = 0; e < got; ++e) {
          const JobEnd& je = chunk_ends_[e];
          pre_counters_[i0 + je.job].push(je.pos, je.cost);
        }
      }
      i0 = i1;
      continue;
    }
    for (std::size_t e = 0; e < got; ++e) {
      JobEnd je = chunk_ends_[e];
      je.job += first_job + static_cast<std::uint32_t>(i0);
      pre_raw_ends_.push_back(je);
    }
    i0 = i1;
  }
}

std::uint32_t Searcher::prescan_job(std::uint32_t pi, Strand strand) const {
  if (pre_current_->live != kAllLive) {  // filtered (at most 64 jobs)
    const std::uint32_t bit = (pi - pre_current_->first_pattern) + (strand == Strand::rc ? pre_current_->patterns : 0);
    if ((pre_current_->live >> bit & 1) == 0) return kNoJobs;  // ruled out: no end
    // The live jobs before it. (Often none or one, --paired: a popcount is a library call
    // in code built for any x86-64.)
    const std::uint64_t before = pre_current_->live & ((std::uint64_t{1} << bit) - 1);
    const std::uint32_t jobs_before = (before & (before - 1)) == 0 ? before != 0 : static_cast<std::uint32_t>(__builtin_popcountll(before));
    return pre_current_->first_job + jobs_before;
  }
  const std::uint32_t j = pre_current_->first_job + (pi - pre_current_->first_pattern);
  if (strand == Strand::fwd) return j;
  return pre_strands_ == 2 ? j + pre_current_->patterns : pre_rc_job_[j];
}

}  // namespace trawl
