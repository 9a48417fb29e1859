#include "trawl/partition/record_parts.h"

#include <algorithm>

#include "trawl/search/selection.h"

namespace trawl {

ResultShape RecordParts::searched_shape(ResultShape run_shape) {
  ResultShape s = run_shape;
  s.command = Command::hits;
  s.zeros = s.per_pattern_totals = s.per_pair = false;
  return s;
}

void RecordParts::split(const RecordBatch& batch, const Region& region) {
  first_record_ = batch.first_record;
  views_.clear();
  offsets_.clear();
  record_.clear();
  for (std::size_t r = 0; r < batch.size(); ++r) {
    const std::string_view seq = batch.seq(r);
    region.spans(seq.size(), spans_);
    for (const Span& s : spans_) {
      views_.push_back(seq.substr(s.offset, s.length));
      offsets_.push_back(s.offset);
      record_.push_back(static_cast<std::uint32_t>(r));
    }
  }
  one_each_ = views_.size() == batch.size();
}

void RecordParts::place(BatchResults& results) const {
  for (Hit& h : results.hits.hits) {
    const std::uint64_t offset = offsets_[h.text_idx - first_record_];
    h.start += offset;
    h.end += offset;
  }
}

void RecordParts::fold(BatchResults& results, const ResultShape& shape, bool best, std::uint32_t patterns) const {
  std::vector<Hit>& hits = results.hits.hits;
  for (Hit& h : hits) {
    const std::size_t v = h.text_idx;
    h.text_idx = first_record_ + record_[v];
    h.start += offsets_[v];
    h.end += offsets_[v];
  }
  // A record's hits are together, part after part.
  for (std::size_t from = 0, to; from < hits.size(); from = to) {
    for (to = from + 1; to < hits.size() && hits[to].text_idx == hits[from].text_idx;) ++to;
    order_record(hits, from, to, best);
  }
  if (best) std::erase_if(hits, [](const Hit& h) { return h.cost < 0; });
  if (shape.command != Command::hits) answer(results, shape, patterns);
}

// Sorts hits[from, to) of one record into output order: by pattern, stable, as a part's hits
// all lie before the next part's. With --best, marks (cost -1) all but the best hit of each
// (pattern, strand).
void RecordParts::order_record(std::vector<Hit>& hits, std::size_t from, std::size_t to, bool best) {
  const auto first = hits.begin() + static_cast<std::ptrdiff_t>(from), last = hits.begin() + static_cast<std::ptrdiff_t>(to);
  std::stable_sort(first, last, [](const Hit& a, const Hit& b) { return a.pattern_idx < b.pattern_idx; });
  if (!best) return;
  // A '-' hit's end in its strand's orientation is n - start: ~start orders the same way.
  const auto strand_end = [](const Hit& h) { return h.strand == Strand::fwd ? h.end : ~h.start; };
  for (std::size_t i = from, j; i < to; i = j) {
    Hit* slot[2] = {nullptr, nullptr};
    for (j = i; j < to && hits[j].pattern_idx == hits[i].pattern_idx; ++j) {
      Hit*& s = slot[hits[j].strand == Strand::fwd ? 0 : 1];
      Hit* worse = &hits[j];
      if (!s || best_before(hits[j].cost, strand_end(hits[j]), s->cost, strand_end(*s))) std::swap(s, worse);
      if (worse) worse->cost = -1;
    }
  }
}

// count and contains: the rows the folded hits make, for every record of the split (those
// without hits too), in output order; the hits are then dropped.
void RecordParts::answer(BatchResults& results, const ResultShape& shape, std::uint32_t patterns) const {
  const std::vector<Hit>& hits = results.hits.hits;
  const std::uint32_t records = record_.empty() ? 0 : record_.back() + 1;
  const bool flags = shape.command == Command::contains;
  std::size_t h = 0;
  for (std::uint32_t r = 0; r < records; ++r) {
    const std::uint64_t text_idx = first_record_ + r;
    std::size_t end = h;
    while (end < hits.size() && hits[end].text_idx == text_idx) ++end;
    if (flags && !shape.per_pair) {
      results.contains.push_back(end > h ? 1 : 0);
    } else if (flags || shape.zeros) {  // a row for every pattern
      for (std::uint32_t p = 0; p < patterns; ++p) {
        std::uint32_t c = 0;
        for (; h < end && hits[h].pattern_idx == p; ++h) ++c;
        results.pair_counts.push_back({text_idx, p, flags ? std::uint32_t{c > 0} : c});
      }
    } else {  // a row for every pattern with hits
      for (std::size_t i = h, j; i < end; i = j) {
        for (j = i; j < end && hits[j].pattern_idx == hits[i].pattern_idx;) ++j;
        results.pair_counts.push_back({text_idx, hits[i].pattern_idx, static_cast<std::uint32_t>(j - i)});
      }
    }
    h = end;
  }
  results.hits.clear();
}

}  // namespace trawl
