#include "trawl/partition/assembler.h"

#include <algorithm>

#include "trawl/search/selection.h"

namespace trawl {

std::uint64_t LongRecordAssembler::add(const WindowTask& t, const BatchResults& results,
                                       const WindowAnswer& answer) {
  out_.clear();
  if (t.no_pattern) return 0;
  if (t.incomplete) again_.push_back(t);
  else if (!t.partial && !again_.empty()) search_again(t.searched());
  if (mode_.shape.command == Command::hits) add_hits(t, results);
  else add_answer(t, answer);
  write(t);
  return hits_in(out_, mode_.shape.command);
}

// count and contains: a pair's answer is complete with its last window, a record's with its
// last pair.
void LongRecordAssembler::add_answer(const WindowTask& t, const WindowAnswer& answer) {
  const ResultShape& shape = mode_.shape;
  if (shape.command == Command::count) {
    counts_.fwd += answer.counts.fwd;
    counts_.rc += answer.counts.rc;
    if (t.last_window) {
      const std::uint32_t c = reported_count(counts_, best_);
      if (c > 0 || shape.zeros) out_.pair_counts.push_back({t.record->text_idx, t.pattern, c});
      counts_ = {};
    }
    return;
  }
  pair_contains_ = pair_contains_ || answer.contains;
  if (t.last_window) {
    if (shape.per_pair) out_.pair_counts.push_back({t.record->text_idx, t.pattern, pair_contains_ ? 1u : 0u});
    record_contains_ = record_contains_ || pair_contains_;
    pair_contains_ = false;
  }
  if (t.last_of_record && !shape.per_pair) {
    out_.contains.push_back(record_contains_ ? 1 : 0);
    record_contains_ = false;
  }
}

// The rows released so far, through the sink, as one batch of the one record.
void LongRecordAssembler::write(const WindowTask& t) {
  view_.clear();
  view_.first_record = t.record->text_idx;
  view_.names = t.record->name;
  view_.name_spans.push_back({0, t.record->name.size()});
  view_.seq_spans.push_back({0, t.text.size()});
  view_.seq_bases = t.text.size();
  view_.external_seq = t.text;
  view_.record_continues = !t.last_of_record;
  view_.text_partial = t.partial;
  if (t.record->kept && t.last_of_record) {  // (only the last view is written)
    view_.header_spans.push_back({view_.names.size(), t.record->header.size()});
    view_.names += t.record->header;
    view_.quals = t.record->qual;
    view_.add_kept(t.record->kind, {0, t.record->qual.size()});
  }
  formatted_.clear();
  sink_.format(view_, out_, formatted_);
  sink_.write(view_, out_, formatted_);
}

// The windows that wait for the whole record, searched in it (with a searcher of this
// stage's own: rare, so made on first use).
void LongRecordAssembler::search_again(std::string_view text) {
  if (!searcher_) searcher_.emplace(patterns_, options_, kernel_, mode_);
  for (const WindowTask& w : again_) {
    again_results_.clear();
    const WindowAnswer a = searcher_->search(WindowQuery{text, w.window, false, w.pattern, w.record->text_idx}, again_results_);
    take_hits(again_results_.hits, w.offset);
    counts_.fwd += a.counts.fwd;
    counts_.rc += a.counts.rc;
    pair_contains_ = pair_contains_ || a.contains;
  }
  again_.clear();
}

// Takes a window's hits into pending_, moved from its part's coordinates to the record's.
void LongRecordAssembler::take_hits(const HitList& in, std::uint64_t offset) {
  for (const Hit& h : in.hits) {
    Hit copy = h;
    copy.start += offset;
    copy.end += offset;
    copy.cigar_offset = static_cast<std::uint32_t>(pending_.cigar_ops.size());
    const auto ops = in.cigar(h);
    pending_.cigar_ops.insert(pending_.cigar_ops.end(), ops.begin(), ops.end());
    pending_.hits.push_back(copy);
  }
}

void LongRecordAssembler::add_hits(const WindowTask& t, const BatchResults& results) {
  take_hits(results.hits, t.offset);
  // --best holds every window's best until the last window of the pair; otherwise the last
  // window of a part (--region) releases all, as the next part's hits start after its end.
  const std::uint64_t band = patterns_.seq(t.pattern).size() + static_cast<std::uint64_t>(options_.k);
  const auto before = [band](const WindowTask& w, std::uint64_t at) { return w.offset + (at > band ? at - band : 0); };
  std::uint64_t watermark = 0;
  if (t.last_window) {
    watermark = Window::kOpen;
    if (best_) keep_best();
  } else if (!best_) {
    watermark = t.window.end == Window::kOpen ? Window::kOpen : before(t, t.window.end);
  }
  // Not past the hits a window searched again later may still add.
  for (const WindowTask& w : again_) watermark = std::min(watermark, before(w, w.window.begin));
  std::stable_sort(pending_.hits.begin(), pending_.hits.end(),
                   [](const Hit& a, const Hit& b) { return output_order(a, b); });
  std::size_t release = 0;
  while (release < pending_.hits.size() && pending_.hits[release].start < watermark) ++release;
  for (std::size_t i = 0; i < release; ++i) {
    Hit h = pending_.hits[i];
    const auto ops = pending_.cigar(h);
    h.cigar_offset = static_cast<std::uint32_t>(out_.hits.cigar_ops.size());
    out_.hits.cigar_ops.insert(out_.hits.cigar_ops.end(), ops.begin(), ops.end());
    out_.hits.hits.push_back(h);
  }
  pending_.hits.erase(pending_.hits.begin(), pending_.hits.begin() + static_cast<std::ptrdiff_t>(release));
  if (pending_.hits.empty()) pending_.cigar_ops.clear();
}

// Keeps the best hit of each strand (best_before). A '-' hit's end in its strand's
// orientation is n - start: ~start orders the same way without n.
void LongRecordAssembler::keep_best() {
  const Hit* best[2] = {nullptr, nullptr};
  const auto strand_end = [](const Hit& h) { return h.strand == Strand::fwd ? h.end : ~h.start; };
  for (const Hit& h : pending_.hits) {
    const Hit*& slot = best[h.strand == Strand::fwd ? 0 : 1];
    if (!slot || best_before(h.cost, strand_end(h), slot->cost, strand_end(*slot))) slot = &h;
  }
  std::vector<Hit> kept;
  for (const Hit* h : best)
    if (h) kept.push_back(*h);
  pending_.hits = std::move(kept);
}

}  // namespace trawl
