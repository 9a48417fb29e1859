#include "trawl/search/searcher.h"

#include <algorithm>

#include "lanes.h"
#include "trawl/search/selection.h"

namespace trawl {
using namespace lanes;

namespace {
std::array<std::uint8_t, 256> text_classes(const AlphabetSpec& alphabet) {
  std::array<std::uint8_t, 256> classes{};
  for (unsigned b = 0; b < 256; ++b) classes[b] = alphabet.text_class(static_cast<std::uint8_t>(b));
  return classes;
}
}  // namespace

Searcher::Searcher(const PatternSet& patterns, const SearchOptions& options,
                   const KernelFns& kernel, SearchMode mode)
    : patterns_(patterns),
      options_(options),
      kernel_(kernel),
      mode_(mode),
      class_of_(text_classes(options_.alphabet)),
      lanes_(lane_context(), mode.index) {
  const std::uint32_t words = (patterns_.max_length() + 63) / 64;
  vp_.resize(words);
  vn_.resize(words);
  column_.resize(patterns_.max_length() + 1);
  ends_.resize(kScanChunk);
  choose_plan();
  lanes_.follow(plan_);
}

void Searcher::choose_plan() {
  const Command command = mode_.shape.command;
  plan_.first_end_decides = first_end_decides(command, options_);
  plan_.counted = counts_as_scanned(command, options_);
  // (The seed filter and the screen exclude each other, see make_screens; contains whose
  // first end decides takes forward strands whole first, which neither knows.)
  if (mode_.record_by_record) plan_.strategy = Strategy::record_by_record;
  else if (mode_.paired) plan_.strategy = Strategy::paired;
  else if (lanes_.indexed()) plan_.strategy = Strategy::indexed;
  else if (lanes_.filtered_panel() && !plan_.first_end_decides) plan_.strategy = Strategy::filtered_panel;
  else if (lanes_.screened() && !plan_.first_end_decides) plan_.strategy = Strategy::screened;
  else if (lanes_.panel()) plan_.strategy = Strategy::panel;
  else plan_.strategy = Strategy::lanes;
  if (plan_.strategy == Strategy::indexed) {
    // (A record's candidates are few: no forward-first pass over whole strands.)
    plan_.first_end_decides = false;
    plan_.index = mode_.index->describe();
  }
}

void Searcher::search(std::span<const std::string_view> records, std::uint64_t first_index,
                      BatchResults& out) {
  const auto npat = static_cast<std::uint32_t>(patterns_.size());
  std::size_t group_first = 0, group_size = 0;
  for (std::size_t r = 0; r < records.size(); ++r) {
    const std::uint64_t text_idx = first_index + r;
    if (plan_.strategy == Strategy::record_by_record) {
      set_text(records[r]);
    } else {
      // Short records are scanned in groups, a (record, pattern, strand) per SIMD lane.
      if (r == group_first + group_size) {
        group_first = r;
        group_size = prescan(records.subspan(r), mode_.paired ? text_idx : LaneDriver::kAllPatterns);
      }
      select_prescanned(r - group_first);
    }
    // --paired: only pattern i in record i. A surplus record has no pattern; the count
    // mismatch is reported after the run.
    std::uint32_t first = 0, last = npat;
    if (mode_.paired) {
      first = text_idx < npat ? static_cast<std::uint32_t>(text_idx) : npat;
      last = text_idx < npat ? first + 1 : npat;
    }
    answer_record(text_idx, first, last, out);
  }
}

template <class Visit>
void Searcher::for_each_pattern(std::uint32_t first, std::uint32_t last, bool every, Visit&& visit) const {
  if (pre_current_ && pre_current_->listed && !every) {
    const LaneGroup& group = lanes_.group();
    std::uint32_t previous = LaneGroup::kNoJobs;
    for (std::uint32_t j = pre_current_->first_job; j < pre_current_->first_job + pre_current_->jobs; ++j) {
      const std::uint32_t pi = group.sources[j].pattern;
      if (pi != previous && !visit(pi)) return;
      previous = pi;
    }
    return;
  }
  if (!every && prescanned_ends_kept() && lanes_.group().has_every_job(*pre_current_) &&
      first >= pre_current_->first_pattern && last <= pre_current_->first_pattern + pre_current_->patterns) {
    // A panel's record mostly has ends for a pattern or two: one look per pattern here, not
    // a search set up per pattern and strand.
    const LaneGroup& group = lanes_.group();
    for (std::uint32_t pi = first; pi < last; ++pi)
      if (group.pattern_has_ends(*pre_current_, pi) && !visit(pi)) return;
    return;
  }
  for (std::uint32_t pi = first; pi < last; ++pi)
    if (!visit(pi)) return;
}

void Searcher::answer_record(std::uint64_t text_idx, std::uint32_t first, std::uint32_t last,
                             BatchResults& out) {
  const ResultShape& shape = mode_.shape;
  const bool best = options_.selection == Selection::best;
  switch (shape.command) {
    case Command::hits:
      // (A panel's records mostly have no end at all: a call per pattern and strand would
      // set up every one of them for nothing.)
      if (selected_has_no_ends()) break;
      for_each_pattern(first, last, false, [&](std::uint32_t pi) {
        find_hits(pi, text_idx, out.hits);
        return true;
      });
      break;
    case Command::count:
      if (!shape.zeros && selected_has_no_ends()) break;
      for_each_pattern(first, last, shape.zeros, [&](std::uint32_t pi) {
        const std::uint32_t c = reported_count(count_hits(pi), best);
        if (c > 0 || shape.zeros) out.pair_counts.push_back({text_idx, pi, c});
        return true;
      });
      break;
    case Command::contains:
      if (shape.per_pair) {
        for_each_pattern(first, last, true, [&](std::uint32_t pi) {
          out.pair_counts.push_back({text_idx, pi, has_hit(pi) ? 1u : 0u});
          return true;
        });
      } else {
        bool any = false;
        if (!selected_has_no_ends())
          for_each_pattern(first, last, false, [&](std::uint32_t pi) { return !(any = has_hit(pi)); });
        out.contains.push_back(any ? 1 : 0);
      }
      break;
  }
}

WindowAnswer Searcher::search(const WindowQuery& q, BatchResults& out) {
  const std::size_t hits_before = out.hits.hits.size(), ops_before = out.hits.cigar_ops.size();
  WindowAnswer answer;
  set_window(q.text, q.window, q.partial);
  switch (mode_.shape.command) {
    case Command::hits: find_hits(q.pattern, q.text_idx, out.hits); break;
    case Command::count: answer.counts = count_hits(q.pattern); break;
    case Command::contains: answer.contains = has_hit(q.pattern); break;
  }
  if (incomplete_) {
    out.hits.hits.resize(hits_before);
    out.hits.cigar_ops.resize(ops_before);
    return {{}, false, true};
  }
  return answer;
}

StrandProfile Searcher::profile_of(std::uint32_t pi, Strand strand) {
  profile_scratch_.clear();
  return lane_context().profile_into(pi, strand, profile_scratch_);
}

StrandProfile Searcher::profile_for(std::uint32_t pi, Strand strand) {
  if (!pre_current_) return profile_of(pi, strand);
  const std::uint32_t j = lanes_.group().job_of(*pre_current_, pi, strand);
  if (j == LaneGroup::kNoJobs) return profile_of(pi, strand);
  StrandProfile prof = patterns_.profile_header(pi, strand);
  prof.peq = lanes_.group().jobs[j].peq;
  return prof;
}

void Searcher::set_text(std::string_view text) {
  text_ = text;
  windowed_ = false;
  incomplete_ = false;
  pre_current_ = nullptr;
  // Both strands are encoded on first use, the forward one only as far as a scan reaches
  // (contains often stops after a few dozen characters).
  fwd_codes_.resize(text.size());
  fwd_encoded_ = 0;
  rev_ready_ = false;
}

void Searcher::set_window(std::string_view text, Window window, bool partial) {
  // Slices are encoded on first use (window_slice).
  text_ = text;
  windowed_ = true;
  partial_ = partial;
  incomplete_ = false;
  pre_current_ = nullptr;
  rev_ready_ = false;
  coded_ = {false, false};
  window_ = window;
}

void Searcher::find_hits(std::uint32_t pi, std::uint64_t text_idx, HitList& out) {
  // A record prescanned for count kept no ends: search it afresh.
  if (pre_current_ && lanes_.group().counted) set_text(text_);
  const std::size_t first = out.hits.size();
  search_strand(pi, Strand::fwd, text_idx, out);
  if (options_.searches_rc()) search_strand(pi, Strand::rc, text_idx, out);
  // One strand's hits mostly come in order already (ends increase, and so do starts unless
  // the hits overlap with different indels): a check is cheaper than a sort.
  const auto from = out.hits.begin() + static_cast<std::ptrdiff_t>(first);
  const auto before = [](const Hit& a, const Hit& b) { return output_order(a, b); };
  if (!std::is_sorted(from, out.hits.end(), before)) std::sort(from, out.hits.end(), before);
}

StrandCounts Searcher::count_hits(std::uint32_t pi) {
  StrandCounts counts;
  const LaneGroup& group = lanes_.group();
  if (pre_current_ && group.counted) {
    const std::uint32_t fwd = group.job_of(*pre_current_, pi, Strand::fwd);
    counts.fwd = fwd == LaneGroup::kNoJobs ? 0 : group.counts[fwd];
    if (options_.searches_rc()) {
      const std::uint32_t rc = group.job_of(*pre_current_, pi, Strand::rc);
      counts.rc = rc == LaneGroup::kNoJobs ? 0 : group.counts[rc];
    }
    return counts;
  }
  for (Strand strand : {Strand::fwd, Strand::rc}) {
    if (strand == Strand::rc && !options_.searches_rc()) break;
    if (prescanned_without_ends(pi, strand)) continue;  // (most of a panel's pairs)
    const StrandProfile prof = profile_for(pi, strand);
    strand_candidates(pi, prof, strand, /*stop_at_first=*/false);
    std::uint32_t count = 0;
    if (!options_.n_filter_on()) {
      // docs/semantics.md §10: without the N filter every candidate end is one hit.
      count = static_cast<std::uint32_t>(selected_.size());
    } else {
      for (const EndCost& end : selected_) count += survives_n_filter(prof, strand, end);
    }
    (strand == Strand::fwd ? counts.fwd : counts.rc) = count;
  }
  return counts;
}

bool Searcher::has_hit(std::uint32_t pi) {
  const LaneGroup& group = lanes_.group();
  if (pre_current_ && group.counted) {
    const StrandCounts counts = count_hits(pi);
    return counts.fwd + counts.rc > 0;
  }
  if (pre_current_ && !options_.n_filter_on()) {
    // A prescanned strand owns its whole record, so any end its scan found is a candidate,
    // and without the N filter a candidate is a hit (docs/semantics.md §10): no collect_ends.
    if (group.job_has_ends(group.job_of(*pre_current_, pi, Strand::fwd))) return true;
    // (A reverse job exists wherever its forward one found no end, unless ruled out.)
    if (options_.searches_rc() && group.job_has_ends(group.job_of(*pre_current_, pi, Strand::rc))) return true;
  }
  for (Strand strand : {Strand::fwd, Strand::rc}) {
    if (strand == Strand::rc && !options_.searches_rc()) break;
    if (prescanned_without_ends(pi, strand)) continue;
    const StrandProfile prof = profile_for(pi, strand);
    // Without the N filter every run of ends with cost <= k holds a local minimum
    // (docs/semantics.md §10), so the first owned end decides.
    const bool first_decides = !options_.n_filter_on();
    strand_candidates(pi, prof, strand, first_decides);
    if (first_decides) {
      if (!selected_.empty()) return true;
      continue;
    }
    for (const EndCost& end : selected_)
      if (survives_n_filter(prof, strand, end)) return true;
  }
  return false;
}

void Searcher::encode_forward_until(std::uint64_t end) {
  if (end <= fwd_encoded_) return;
  kernel_.encode(class_of_.data(), reinterpret_cast<const std::uint8_t*>(text_.data()) + fwd_encoded_,
                 end - fwd_encoded_, fwd_codes_.data() + fwd_encoded_, nullptr);
  fwd_encoded_ = end;
}

Ownership Searcher::window_ownership(Strand strand) const {
  // '+' owns the runs that start in [begin, end); '-' owns the reversed runs whose last end
  // p' has forward start n - p' in [begin, end). Both tile the strand's ends.
  if (strand == Strand::fwd) return {Own::runs_starting_in, window_.begin, window_.end};
  const std::uint64_t n = text_.size();
  return {Own::runs_ending_in, window_.end == Window::kOpen ? 0 : n - window_.end + 1,
          window_.begin == 0 ? Window::kOpen : n - window_.begin + 1};
}

std::pair<std::uint64_t, std::uint64_t> Searcher::window_range(Strand strand, std::uint64_t band) const {
  const std::uint64_t n = text_.size();
  const Ownership own = window_ownership(strand);
  // One end before a must be exact to tell whether a run starts (or, for '-', ends) at a;
  // '+' reads on a band past b to finish the run it owns that crosses b.
  const std::uint64_t lo = own.a == 0 ? 0 : saturating_sub(own.a - 1, band);
  const std::uint64_t past_b = strand == Strand::fwd ? band : 1;
  return {lo, own.b == Window::kOpen ? n : std::min(n, own.b + past_b)};
}

Searcher::StrandText Searcher::window_slice(Strand strand, std::uint64_t lo, std::uint64_t hi,
                                            bool stop_at_first) {
  const std::uint64_t n = text_.size();
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(text_.data());
  const int s = strand == Strand::fwd ? 0 : 1;
  UninitializedVector<std::uint8_t>& codes = s == 0 ? fwd_codes_ : rev_codes_;
  if (!coded_[s] || lo < coded_from_[s] || hi > coded_from_[s] + codes.size()) {
    // Every pattern of a window scans nearly the same slice of a strand: the first codes
    // the slice for the longest pattern, and the others take theirs from it. Where both
    // strands will be scanned in full, one pass over the bytes codes both (the second pass
    // was a second read of the window's bytes).
    const std::uint64_t widest_band = std::uint64_t{patterns_.max_length()} + static_cast<std::uint64_t>(options_.k);
    std::uint64_t a = lo, b = hi;  // in the strand's positions
    if (!coded_[s]) {
      const auto widest = window_range(strand, widest_band);
      a = std::min(a, widest.first);
      b = std::max(b, widest.second);
    }
    if (s == 0 && !coded_[0] && !coded_[1] && !stop_at_first && options_.searches_rc()) {
      // (The forward strand is always scanned first.) Forward positions [fa, fb) cover
      // both strands' slices: '-' position i is forward byte n - 1 - i.
      const auto rc = window_range(Strand::rc, widest_band);
      const std::uint64_t fa = std::min(a, n - rc.second);
      const std::uint64_t fb = std::max(b, n - rc.first);
      fwd_codes_.resize(fb - fa);
      rev_codes_.resize(fb - fa);
      kernel_.encode(class_of_.data(), bytes + fa, fb - fa, fwd_codes_.data(), rev_codes_.data() + (fb - fa));
      coded_ = {true, true};
      coded_from_ = {fa, n - fb};
    } else {
      codes.resize(b - a);
      if (s == 0) {
        kernel_.encode(class_of_.data(), bytes + a, b - a, codes.data(), nullptr);
      } else {
        // codes[i - a] = class(text[n - 1 - i]): text[n - b, n - a) reversed.
        kernel_.encode(class_of_.data(), bytes + (n - b), b - a, nullptr, codes.data() + (b - a));
      }
      coded_[s] = true;
      coded_from_[s] = a;
    }
  }
  return {std::span<const std::uint8_t>(codes.data() + (lo - coded_from_[s]), hi - lo), lo, n};
}

void Searcher::strand_candidates(std::uint32_t pi, const StrandProfile& prof, Strand strand,
                                 bool stop_at_first) {
  const std::uint64_t n = text_.size();
  if (pre_current_) {
    const LaneGroup& group = lanes_.group();
    pre_job_index_ = group.job_of(*pre_current_, pi, strand);
    if (pre_job_index_ == LaneGroup::kNoJobs) {  // ruled out by SeedFilter: no end
      selected_.clear();
      strand_text_ = {{}, 0, n};
      return;
    }
    pre_job_ = &group.jobs[pre_job_index_];
    // The whole strand (a job may scan only part of it): traceback reads from it.
    strand_text_ = {std::span<const std::uint8_t>(group.codes_of(strand == Strand::rc, pre_current_->codes_offset), n), 0, n};
    collect_ends(prof, strand_text_, Ownership{}, stop_at_first);
    pre_job_ = nullptr;
    return;
  }
  if (!windowed_) {
    if (strand == Strand::rc && !rev_ready_) {
      encode_forward_until(n);
      rev_codes_.resize(fwd_codes_.size());
      std::reverse_copy(fwd_codes_.begin(), fwd_codes_.end(), rev_codes_.begin());
      rev_ready_ = true;
    }
    strand_text_ = {strand == Strand::fwd ? std::span<const std::uint8_t>(fwd_codes_)
                                          : std::span<const std::uint8_t>(rev_codes_),
                    0, n};
    lazy_forward_ = strand == Strand::fwd;
    collect_ends(prof, strand_text_, Ownership{}, stop_at_first);
    lazy_forward_ = false;
    return;
  }
  // Window: '+' owns the runs that start in [begin, end); '-' owns the reversed runs whose
  // last end p' has forward start n - p' in [begin, end). Both tile the strand's ends, and
  // every hit a later window reports starts at or after end - (m + k) (the output order
  // relies on that).
  const std::uint64_t band = std::uint64_t{prof.m} + static_cast<std::uint64_t>(options_.k);
  const Ownership own = window_ownership(strand);
  auto [lo, hi] = window_range(strand, band);
  // A run that crosses the slice edge needs more text; grow geometrically (rare: only
  // long runs of ends with cost <= k, such as k >= m, cross a window border).
  for (std::uint64_t grow = std::max<std::uint64_t>(band, 4096);; grow *= 2) {
    // The first part of a record ends where the record goes on: a slice that reaches it
    // (the forward strand's end, the reverse strand's start) cannot be answered yet.
    if (partial_ && (strand == Strand::fwd ? hi >= n : lo == 0)) {
      incomplete_ = true;
      selected_.clear();
      strand_text_ = {{}, 0, n};
      return;
    }
    strand_text_ = window_slice(strand, lo, hi, stop_at_first);
    if (collect_ends(prof, strand_text_, own, stop_at_first)) return;
    lo = saturating_sub(lo, grow);
    hi = std::min(n, hi + grow);
  }
}

bool Searcher::collect_ends(const StrandProfile& prof, const StrandText& st, Ownership own,
                            bool stop_at_first) {
  selected_.clear();
  run_.clear();
  const std::uint64_t n = st.n;
  const std::uint32_t m = prof.m;
  const std::uint32_t extra = right_overhang_steps(options_, m);
  if (n == 0 && extra == 0) return true;  // an empty text has no end positions to report
  const std::uint64_t last = n + extra;
  const std::int32_t k = options_.k;
  const std::uint64_t ws = st.begin;
  const std::uint64_t pe = st.begin + st.codes.size();
  // A fresh DP started at ws > 0 is exact for costs <= k from ws + m + k on
  // (docs/semantics.md §10).
  const std::uint64_t exact_from = ws == 0 ? 0 : ws + m + static_cast<std::uint64_t>(k);
  // best picks among the local minima (Sassy only_best_match on `search`).
  const bool minima = options_.selection != Selection::all_ends && !stop_at_first;
  EndCollector ends(own, exact_from, minima, run_, selected_);

  ColumnState state = start_column(prof, ws);
  if (state.score <= k) ends.on_end(ws, static_cast<std::int32_t>(state.score));
  if (stop_at_first && !selected_.empty()) return true;
  if (pre_job_) {
    const bool whole = own.kind == Own::all && extra == 0;
    if (collect_prescanned(ends, whole, stop_at_first, last, state)) return true;
    ends.close_run_before(pe);
  }
  // contains on a whole record stops inside the kernel at the first end.
  const ScanFn scan = stop_at_first && own.kind == Own::all ? kernel_.scan_first : kernel_.scan;
  bool done = false;
  // An early stop is likely soon, so contains starts with small chunks and doubles them.
  std::uint64_t chunk = stop_at_first ? 64 : kScanChunk;
  for (std::uint64_t pos = pre_job_ ? pe : ws; pos < pe && !done; pos += chunk, chunk = std::min<std::uint64_t>(2 * chunk, kScanChunk)) {
    const std::size_t len = static_cast<std::size_t>(std::min<std::uint64_t>(chunk, pe - pos));
    if (lazy_forward_) encode_forward_until(pos + len);
    const std::size_t found =
        scan(prof, state, st.codes.data() + (pos - ws), len, pos, k, ends_.data());
    for (std::size_t e = 0; e < found; ++e) ends.on_end(ends_[e].pos, ends_[e].cost);
    // scan_first may stop early; it then found an end, and we are done anyway.
    const std::uint64_t scanned = found && scan == kernel_.scan_first ? ends_[0].pos : pos + len;
    ends.close_run_before(scanned);
    if (stop_at_first && !selected_.empty()) return true;
    done = ends.decided(scanned);
  }
  if (ends.need_more()) return false;
  // The slice ended before ownership was decided.
  if (!done && pe < n && own.kind != Own::all) return false;
  if (!done && pe == n && extra > 0) collect_overhang_ends(ends, m, n, extra);
  ends.close_run();
  if (ends.need_more()) return false;
  ends.finish(last);
  return true;
}

// Column `begin`: D(j, 0) = L(j) at the true text start, j for a fresh start inside the text.
ColumnState Searcher::start_column(const StrandProfile& prof, std::uint64_t begin) {
  for (std::uint32_t w = 0; w < prof.words; ++w) {
    vp_[w] = ~std::uint64_t{0};
    vn_[w] = 0;
  }
  const std::uint32_t m = prof.m;
  if (options_.overhang && begin == 0) {
    for (std::uint32_t j = 0; j < m; ++j)
      if (overhang_cost(options_, j + 1) == overhang_cost(options_, j))
        vp_[j >> 6] &= ~(std::uint64_t{1} << (j & 63));
  }
  return {vp_.data(), vn_.data(), begin == 0 ? overhang_cost(options_, m) : static_cast<std::int64_t>(m)};
}

// Prescanned: the kernel's ends and last column are already known. Returns true when that
// answers the strand (`whole`: the whole record and no overhang, so every end is owned and
// nothing follows the text; or the first end found, with stop_at_first).
bool Searcher::collect_prescanned(EndCollector& ends, bool whole, bool stop_at_first,
                                  std::uint64_t last, ColumnState& state) {
  const std::uint32_t j = pre_job_index_;
  const LaneGroup& group = lanes_.group();
  if (whole) {
    // The ends go straight to selection.
    for (const EndCost& end : group.ends_of(j)) {
      ends.take(end);
      if (stop_at_first && !selected_.empty()) return true;
    }
    ends.finish(last);
    return true;
  }
  for (const EndCost& end : group.ends_of(j)) {
    ends.on_end(end.pos, end.cost);
    if (stop_at_first && !selected_.empty()) return true;
  }
  vp_[0] = group.finals[j].vp;
  vn_[0] = group.finals[j].vn;
  state.score = group.finals[j].score;
  return false;
}

// Right overhang: C[n + o] = D(m - o, n) + floor(alpha * o), from the last column.
void Searcher::collect_overhang_ends(EndCollector& ends, std::uint32_t m, std::uint64_t n,
                                     std::uint32_t extra) {
  column_[0] = 0;
  for (std::uint32_t j = 0; j < m; ++j)
    column_[j + 1] = column_[j] + static_cast<std::int32_t>((vp_[j >> 6] >> (j & 63)) & 1u) -
                     static_cast<std::int32_t>((vn_[j >> 6] >> (j & 63)) & 1u);
  for (std::uint32_t o = 1; o <= extra; ++o) {
    const std::int32_t cost = column_[m - o] + overhang_cost(options_, o);
    if (cost <= options_.k) ends.on_end(n + o, cost);
    else ends.close_run_before(n + o);
  }
}

void Searcher::search_strand(std::uint32_t pi, Strand strand, std::uint64_t text_idx,
                             HitList& out) {
  // (The usual case in a pattern panel.)
  if (prescanned_without_ends(pi, strand)) return;
  const StrandProfile prof = profile_for(pi, strand);
  strand_candidates(pi, prof, strand, /*stop_at_first=*/false);
  if (options_.selection != Selection::best) {
    for (const EndCost& end : selected_) {
      if (options_.n_filter_on() && !passes_end_window_check(strand, prof.m, end.pos)) continue;
      emit_hit(prof, strand, end, pi, text_idx, out);
    }
    return;
  }
  // best: lowest cost, ties -> largest end (in this strand's orientation), among the local
  // minima that pass the N filter.
  sort_best_first();
  for (const EndCost& end : selected_) {
    if (options_.n_filter_on() && !passes_end_window_check(strand, prof.m, end.pos)) continue;
    if (emit_hit(prof, strand, end, pi, text_idx, out)) return;
  }
}

bool Searcher::survives_n_filter(const StrandProfile& prof, Strand strand, const EndCost& end) {
  const std::uint64_t n = text_.size();
  const std::uint64_t band = std::uint64_t{prof.m} + static_cast<std::uint64_t>(options_.k);
  const std::uint64_t e = std::min(end.pos, n);
  // The traced region lies in [p - m - k, e) and check 1 looks at [e - (m - k), e); the
  // latter reaches further left only for right-overhang ends. No N in either: both pass.
  const std::uint64_t window = std::max<std::int64_t>(std::int64_t{prof.m} - options_.k, 0);
  std::uint64_t s = end.pos > band ? std::min(end.pos - band, e) : 0;
  s = std::min(s, saturating_sub(e, window));
  if (count_n(strand, s, e) == 0) return true;
  if (!passes_end_window_check(strand, prof.m, end.pos)) return false;
  scratch_ops_.clear();
  const TraceResult tr = tracer_.trace(prof, strand_text_.codes, strand_text_.begin,
                                       strand_text_.n, end.pos, options_, scratch_ops_);
  return passes_region_check(strand, tr.start, tr.end);
}

void Searcher::sort_best_first() {
  std::sort(selected_.begin(), selected_.end(), [](const EndCost& a, const EndCost& b) {
    return best_before(a.cost, a.pos, b.cost, b.pos);
  });
}

// Traces one end and appends its hit unless the traced-region N check drops it. Inlined
// into its callers: dense outputs call it for nearly every end, and most of such a call was
// its own set-up (the traceback it may call stays out of line).
[[gnu::always_inline]] inline bool Searcher::emit_hit(const StrandProfile& prof, Strand strand, const EndCost& end,
                        std::uint32_t pi, std::uint64_t text_idx, HitList& out) {
  const std::size_t ops_before = out.cigar_ops.size();
  TraceResult tr;
  if (end.cost == 0 && !options_.overhang) {
    // Cost 0 without overhang: the only alignment is m matches on the diagonal (any other
    // step costs 1), which is what the greedy walk would find; no columns to rebuild.
    tr = {end.pos - prof.m, end.pos, 0, prof.m, 0};
    out.cigar_ops.push_back({prof.m, '='});
  } else {
    tr = tracer_.trace(prof, strand_text_.codes, strand_text_.begin, strand_text_.n, end.pos,
                       options_, out.cigar_ops);
  }
  if (options_.n_filter_on() && !passes_region_check(strand, tr.start, tr.end)) {
    out.cigar_ops.resize(ops_before);
    return false;
  }
  const std::uint64_t n = text_.size();
  Hit h;
  h.text_idx = text_idx;
  h.start = strand == Strand::fwd ? tr.start : n - tr.end;
  h.end = strand == Strand::fwd ? tr.end : n - tr.start;
  h.pattern_idx = pi;
  h.pattern_start = tr.pattern_start;
  h.pattern_end = tr.pattern_end;
  h.cost = end.cost;
  h.strand = strand;
  h.cigar_offset = static_cast<std::uint32_t>(ops_before);
  h.cigar_count = static_cast<std::uint32_t>(out.cigar_ops.size() - ops_before);
  out.hits.push_back(h);
  return true;
}

// Ns in [s, e) of the strand's text. Ranges are at most m + k long, so a direct count is
// cheaper than any index (and needs no per-record set-up).
std::uint64_t Searcher::count_n(Strand strand, std::uint64_t s, std::uint64_t e) const {
  const std::uint64_t n = text_.size();
  if (strand == Strand::rc) {
    const std::uint64_t fs = n - e;
    e = n - s;
    s = fs;
  }
  std::uint64_t count = 0;
  for (std::uint64_t i = s; i < e; ++i) count += is_n_byte(static_cast<std::uint8_t>(text_[i]));
  return count;
}

// Sassy's check 1: the window of m - k characters before the end, divided by m + k.
bool Searcher::passes_end_window_check(Strand strand, std::uint32_t m, std::uint64_t p) const {
  const std::uint64_t n = text_.size();
  const std::uint64_t e = std::min(p, n);
  const std::int64_t w = std::max<std::int64_t>(std::int64_t{m} - options_.k, 0);
  const std::uint64_t s = saturating_sub(e, static_cast<std::uint64_t>(w));
  if (s >= n || e == s) return true;
  const float frac = static_cast<float>(count_n(strand, s, e)) /
                     static_cast<float>(std::int64_t{m} + options_.k);
  return frac <= options_.max_n_frac;
}

// Sassy's check 2: the traced region.
bool Searcher::passes_region_check(Strand strand, std::uint64_t s, std::uint64_t e) const {
  const std::uint64_t n = text_.size();
  if (s >= n || e == s) return true;
  const float frac = static_cast<float>(count_n(strand, s, e)) / static_cast<float>(e - s);
  return frac <= options_.max_n_frac;
}

}  // namespace trawl
