#include "trawl/searcher.h"

#include <algorithm>

#include "trawl/selection.h"

namespace trawl {
namespace {

// Ends are taken from the kernel this many text characters at a time, so the buffer stays
// small whatever the record length.
constexpr std::size_t kScanChunk = 8192;

}  // namespace

Searcher::Searcher(const PatternSet& patterns, const SearchOptions& options,
                   const KernelFns& kernel)
    : patterns_(patterns), options_(options), kernel_(kernel) {
  for (unsigned b = 0; b < 256; ++b)
    class_of_[b] = options_.alphabet.text_class(static_cast<std::uint8_t>(b));
  const std::uint32_t words = (patterns_.max_length() + 63) / 64;
  vp_.resize(words);
  vn_.resize(words);
  column_.resize(patterns_.max_length() + 1);
  ends_.resize(kScanChunk);
}

void Searcher::set_text(std::string_view text) {
  text_ = text;
  fwd_text_.resize(text.size());
  for (std::size_t i = 0; i < text.size(); ++i)
    fwd_text_[i] = class_of_[static_cast<std::uint8_t>(text[i])];
  if (options_.searches_rc()) {
    rev_text_.resize(text.size());
    std::reverse_copy(fwd_text_.begin(), fwd_text_.end(), rev_text_.begin());
  }
  if (options_.n_filter_on()) {
    n_runs_.clear();
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < text.size();) {
      if (!is_n_byte(static_cast<std::uint8_t>(text[i]))) {
        ++i;
        continue;
      }
      std::size_t j = i;
      while (j < text.size() && is_n_byte(static_cast<std::uint8_t>(text[j]))) ++j;
      n_runs_.push_back({i, j, total});
      total += j - i;
      i = j;
    }
  }
}

std::span<const std::uint8_t> Searcher::strand_text(Strand strand) const {
  return strand == Strand::fwd ? std::span<const std::uint8_t>(fwd_text_)
                               : std::span<const std::uint8_t>(rev_text_);
}

void Searcher::search_record(std::uint64_t text_idx, std::string_view text, HitList& out) {
  set_text(text);
  for (std::uint32_t pi = 0; pi < patterns_.size(); ++pi) find_hits(pi, text_idx, out);
}

void Searcher::search_pattern(std::uint32_t pattern_idx, std::uint64_t text_idx,
                              std::string_view text, HitList& out) {
  set_text(text);
  find_hits(pattern_idx, text_idx, out);
}

void Searcher::find_hits(std::uint32_t pi, std::uint64_t text_idx, HitList& out) {
  const std::size_t first = out.hits.size();
  search_strand(pi, Strand::fwd, text_idx, out);
  if (options_.searches_rc()) search_strand(pi, Strand::rc, text_idx, out);
  // SPEC §7 order within a pattern: start, strand, end. Equal (start, strand, end) only
  // arises from overhang ends past the text; those keep their end order (pattern_end down).
  std::sort(out.hits.begin() + static_cast<std::ptrdiff_t>(first), out.hits.end(),
            [](const Hit& a, const Hit& b) {
              if (a.start != b.start) return a.start < b.start;
              if (a.strand != b.strand) return a.strand < b.strand;
              if (a.end != b.end) return a.end < b.end;
              return a.pattern_end > b.pattern_end;
            });
}

std::uint32_t Searcher::count_hits(std::uint32_t pi) {
  std::uint32_t count = 0;
  for (Strand strand : {Strand::fwd, Strand::rc}) {
    if (strand == Strand::rc && !options_.searches_rc()) break;
    const StrandProfile prof = patterns_.profile(pi, strand, profile_scratch_);
    collect_ends(prof, strand_text(strand));
    const bool best = options_.selection == Selection::best;
    if (!options_.n_filter_on()) {
      // DESIGN §3: without the N filter every candidate end is one hit; no traceback.
      count += best ? (selected_.empty() ? 0u : 1u) : static_cast<std::uint32_t>(selected_.size());
      continue;
    }
    if (best) sort_best_first();
    for (const EndCost& end : selected_) {
      if (!survives_n_filter(prof, strand, end)) continue;
      ++count;
      if (best) break;
    }
  }
  return count;
}

bool Searcher::has_hit(std::uint32_t pi) {
  for (Strand strand : {Strand::fwd, Strand::rc}) {
    if (strand == Strand::rc && !options_.searches_rc()) break;
    const StrandProfile prof = patterns_.profile(pi, strand, profile_scratch_);
    if (!options_.n_filter_on()) {
      // Every run of ends with cost <= k holds a local minimum (DESIGN §3), so the first
      // such end decides.
      collect_ends(prof, strand_text(strand), /*stop_at_first=*/true);
      if (!selected_.empty()) return true;
      continue;
    }
    collect_ends(prof, strand_text(strand));
    for (const EndCost& end : selected_)
      if (survives_n_filter(prof, strand, end)) return true;
  }
  return false;
}

bool Searcher::survives_n_filter(const StrandProfile& prof, Strand strand, const EndCost& end) {
  const std::uint64_t n = text_.size();
  const std::uint64_t band = std::uint64_t{prof.m} + static_cast<std::uint64_t>(options_.k);
  const std::uint64_t e = std::min(end.pos, n);
  // The traced region lies in [p - m - k, e) and check 1 looks at [e - (m - k), e); the
  // latter reaches further left only for right-overhang ends. No N in either: both pass.
  const std::uint64_t window = std::max<std::int64_t>(std::int64_t{prof.m} - options_.k, 0);
  std::uint64_t s = end.pos > band ? std::min(end.pos - band, e) : 0;
  s = std::min(s, e > window ? e - window : 0);
  if (count_n(strand, s, e) == 0) return true;
  if (!passes_end_window_check(strand, prof.m, end.pos)) return false;
  scratch_ops_.clear();
  const TraceResult tr = tracer_.trace(prof, strand_text(strand), end.pos, options_, scratch_ops_);
  return passes_region_check(strand, tr.start, tr.end);
}

void Searcher::sort_best_first() {
  std::sort(selected_.begin(), selected_.end(), [](const EndCost& a, const EndCost& b) {
    return a.cost != b.cost ? a.cost < b.cost : a.pos > b.pos;
  });
}

// Fills selected_ with the candidate ends of one strand, in increasing p: the local minima,
// or every end with cost <= k (all_ends and best).
void Searcher::collect_ends(const StrandProfile& prof, std::span<const std::uint8_t> text,
                            bool stop_at_first) {
  selected_.clear();
  const std::uint64_t n = text.size();
  const std::uint32_t m = prof.m;
  const std::uint32_t extra = right_overhang_steps(options_, m);
  if (n == 0 && extra == 0) return;  // an empty text has no end positions to report
  const std::int32_t k = options_.k;
  // best picks among the local minima (Sassy only_best_match on `search`).
  const bool minima = options_.selection != Selection::all_ends && !stop_at_first;
  LocalMinimaSelector selector;
  auto push = [&](std::uint64_t p, std::int32_t cost) {
    if (minima) selector.push(p, cost, selected_);
    else selected_.push_back({p, cost});
  };

  // Column 0: D(j, 0) = L(j); vertical deltas L(j+1) - L(j) are 0 or 1.
  for (std::uint32_t w = 0; w < prof.words; ++w) {
    vp_[w] = ~std::uint64_t{0};
    vn_[w] = 0;
  }
  if (options_.overhang) {
    for (std::uint32_t j = 0; j < m; ++j)
      if (overhang_cost(options_, j + 1) == overhang_cost(options_, j))
        vp_[j >> 6] &= ~(std::uint64_t{1} << (j & 63));
  }
  ColumnState state{vp_.data(), vn_.data(), overhang_cost(options_, m)};
  if (state.score <= k) push(0, static_cast<std::int32_t>(state.score));
  if (stop_at_first && !selected_.empty()) return;

  const ScanFn scan = stop_at_first ? kernel_.scan_first : kernel_.scan;
  for (std::uint64_t pos = 0; pos < n; pos += kScanChunk) {
    const std::size_t len = static_cast<std::size_t>(std::min<std::uint64_t>(kScanChunk, n - pos));
    const std::size_t found = scan(prof, state, text.data() + pos, len, pos, k, ends_.data());
    for (std::size_t e = 0; e < found; ++e) push(ends_[e].pos, ends_[e].cost);
    if (stop_at_first && !selected_.empty()) return;
  }

  if (extra > 0) {
    // Right overhang: C[n + o] = D(m - o, n) + floor(alpha * o), from the last column.
    column_[0] = 0;
    for (std::uint32_t j = 0; j < m; ++j)
      column_[j + 1] = column_[j] + static_cast<std::int32_t>((vp_[j >> 6] >> (j & 63)) & 1u) -
                       static_cast<std::int32_t>((vn_[j >> 6] >> (j & 63)) & 1u);
    for (std::uint32_t o = 1; o <= extra; ++o) {
      const std::int32_t cost = column_[m - o] + overhang_cost(options_, o);
      if (cost <= k) push(n + o, cost);
    }
  }
  if (minima) selector.finish(n + extra, selected_);
}

void Searcher::search_strand(std::uint32_t pi, Strand strand, std::uint64_t text_idx,
                             HitList& out) {
  const StrandProfile prof = patterns_.profile(pi, strand, profile_scratch_);
  const std::span<const std::uint8_t> text = strand_text(strand);
  collect_ends(prof, text);

  if (options_.selection != Selection::best) {
    for (const EndCost& end : selected_) {
      if (options_.n_filter_on() && !passes_end_window_check(strand, prof.m, end.pos)) continue;
      emit_hit(prof, strand, text, end, pi, text_idx, out);
    }
    return;
  }
  // best: lowest cost, ties -> largest end (in this strand's orientation), among the local minima
  // that pass the N filter.
  sort_best_first();
  for (const EndCost& end : selected_) {
    if (options_.n_filter_on() && !passes_end_window_check(strand, prof.m, end.pos)) continue;
    if (emit_hit(prof, strand, text, end, pi, text_idx, out)) return;
  }
}

// Traces one end and appends its hit unless the traced-region N check drops it.
bool Searcher::emit_hit(const StrandProfile& prof, Strand strand,
                        std::span<const std::uint8_t> text, const EndCost& end,
                        std::uint32_t pi, std::uint64_t text_idx, HitList& out) {
  const std::size_t ops_before = out.cigar_ops.size();
  const TraceResult tr = tracer_.trace(prof, text, end.pos, options_, out.cigar_ops);
  if (options_.n_filter_on() && !passes_region_check(strand, tr.start, tr.end)) {
    out.cigar_ops.resize(ops_before);
    return false;
  }
  const std::uint64_t n = text.size();
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

std::uint64_t Searcher::count_n(Strand strand, std::uint64_t s, std::uint64_t e) const {
  const std::uint64_t n = text_.size();
  if (strand == Strand::rc) {
    const std::uint64_t fs = n - e;
    e = n - s;
    s = fs;
  }
  // Ns before position x = Ns in runs wholly before x, plus the part of the run holding x.
  auto before = [this](std::uint64_t x) -> std::uint64_t {
    auto it = std::upper_bound(n_runs_.begin(), n_runs_.end(), x,
                               [](std::uint64_t v, const NRun& r) { return v < r.start; });
    if (it == n_runs_.begin()) return 0;
    --it;
    return it->before + (std::min(x, it->end) - it->start);
  };
  return before(e) - before(s);
}

// Sassy's check 1: the window of m - k characters before the end, divided by m + k.
bool Searcher::passes_end_window_check(Strand strand, std::uint32_t m, std::uint64_t p) const {
  const std::uint64_t n = text_.size();
  const std::uint64_t e = std::min(p, n);
  const std::int64_t w = std::max<std::int64_t>(std::int64_t{m} - options_.k, 0);
  const std::uint64_t s = e > static_cast<std::uint64_t>(w) ? e - static_cast<std::uint64_t>(w) : 0;
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
