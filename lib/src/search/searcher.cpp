#include "trawl/search/searcher.h"

#include <algorithm>

#include "trawl/search/selection.h"

namespace trawl {
namespace {

// Ends are taken from the kernel this many text characters at a time, so the buffer stays
// small whatever the record length. Not smaller: a SIMD kernel cuts each chunk into one
// segment per lane, and every segment but the first re-reads m + k characters to warm up;
// at 8192 characters over 32 lanes that was a tenth of the work (W1 0.071 -> 0.062 s), and
// with 64 lanes 32768 gave W1 0.050 s, 65536 0.048 s.
constexpr std::size_t kScanChunk = 65536;

// Prescan work groups: at most this many lane steps (the bound on their ends) and jobs, so
// the buffers stay small. Records longer than kPrescanMaxText gain nothing from a lane of
// their own: the tiled kernel already spreads them over every lane.
constexpr std::uint64_t kPrescanSteps = std::uint64_t{1} << 16;
constexpr std::size_t kPrescanJobs = 4096;
constexpr std::size_t kPrescanMaxText = 4096;
// The most lanes any kernel runs side by side (kernel_jobs.h: four vectors of 16): a chunk of
// jobs cuts a run over one text only after a multiple of this many.
constexpr std::size_t kPanelBatch = 64;
// Sets of up to this many patterns with precomputed profiles keep a prescan job per pattern
// and strand ready (48 bytes each, per thread).
constexpr std::size_t kPanelJobsLimit = 16384;
// Where the first end decides (contains), forward strands are scanned over this many codes
// first: most texts that hit at all do so early, and are then never coded past it.
constexpr std::uint64_t kFirstEndHead = 128;
// A record is prescanned only if all its jobs together take at most this many steps (so
// a group's ends, at most one per step, stay a few MB); a record with more patterns than
// that goes pattern by pattern through the ordinary path.
constexpr std::uint64_t kPrescanRecordSteps = std::uint64_t{1} << 20;
// A panel is filtered (SeedFilter) only if it has at least this many jobs a record that the
// filter can rule out: the look-ups cost about as much per text character as scanning a
// job or two.
constexpr std::size_t kSeedFilterMinScans = 8;
constexpr std::uint64_t kFilteredGroupScale = 4;
// Screened (Searcher::screens_), a group holds up to this many times kPrescanSteps: the few
// records the screen passes then give the kernel enough jobs to keep its lanes full (W2:
// ~100 jobs a call at 4 times, half of them scanned by lanes whose neighbours had ended).
constexpr std::uint64_t kScreenedGroupScale = 16;

// The screen (Searcher::screens_): pieces of kScreenPiece characters (a 16-bit lane), for
// k up to kScreenMaxK (a random 16-mer comes within 3 edits of 150 random bases
// in 0.3% of them, within 4 in ~3%), and patterns at most kScreenMaxPatterns (a record's
// jobs are then at most 64, bits of PrescanRecord::live).
constexpr std::int32_t kScreenMaxK = 4;
constexpr std::size_t kScreenMaxPatterns = 32;

// --paired jobs over part of a strand are a multiple of this many steps long (see prescan).
constexpr std::uint32_t kPartQuantum = 16;

std::uint64_t saturating_sub(std::uint64_t a, std::uint64_t b) { return a > b ? a - b : 0; }

// Rows first .. first + count - 1 of a profile word in reverse order: row j of the result is
// row first + count - 1 - j of `word` (the profile of the reversed pattern, or piece).
std::uint64_t reversed_rows(std::uint64_t word, std::uint32_t first, std::uint32_t count) {
  std::uint64_t reversed = 0;
  for (std::uint32_t j = 0; j < count; ++j) reversed |= (word >> (first + count - 1 - j) & 1) << j;
  return reversed;
}

}  // namespace

Searcher::Searcher(const PatternSet& patterns, const SearchOptions& options,
                   const KernelFns& kernel, SearchMode mode)
    : patterns_(patterns), options_(options), kernel_(kernel), mode_(mode) {
  for (unsigned b = 0; b < 256; ++b)
    class_of_[b] = options_.alphabet.text_class(static_cast<std::uint8_t>(b));
  const std::uint32_t words = (patterns_.max_length() + 63) / 64;
  vp_.resize(words);
  vn_.resize(words);
  column_.resize(patterns_.max_length() + 1);
  ends_.resize(kScanChunk);
  // The start column at the text start (collect_ends), for the prescan jobs.
  for (std::uint32_t m = 1; m <= 64; ++m) {
    std::uint64_t vp = ~std::uint64_t{0};
    if (options_.overhang)
      for (std::uint32_t j = 0; j < m; ++j)
        if (overhang_cost(options_, j + 1) == overhang_cost(options_, j)) vp &= ~(std::uint64_t{1} << j);
    start_column_[m] = {vp, overhang_cost(options_, m)};
  }
  // Prescan jobs of a panel of precomputed profiles differ only in text and length: made
  // once here, each job is then a copy (profile look-ups were a quarter of a panel's scan).
  const std::size_t npat = patterns_.size();
  if (patterns_.precomputed() && patterns_.max_length() <= 64 && npat <= kPanelJobsLimit) {
    panel_jobs_.resize(2 * npat);
    for (std::size_t pi = 0; pi < npat; ++pi)
      for (Strand strand : {Strand::fwd, Strand::rc}) {
        if (strand == Strand::rc && !options_.searches_rc()) break;
        const StrandProfile prof = profile_of(static_cast<std::uint32_t>(pi), strand);
        const auto& [vp, score] = start_column_[prof.m];
        panel_jobs_[(strand == Strand::rc ? npat : 0) + pi] = {prof.peq, nullptr, 0, prof.m, prof.classes_hint, vp, score};
      }
    // The filter needs every end to be an alignment of the whole pattern inside the text
    // (no overhang), and a record's jobs as bits.
    const std::size_t scans = options_.searches_rc() ? 2 * npat : npat;
    if (!options_.overhang && scans <= SeedFilter::kMaxScans) {
      std::vector<SeedScan> seed_scans(scans);
      for (std::size_t j = 0; j < scans; ++j)
        seed_scans[j] = {{panel_jobs_[j].m, 1, panel_jobs_[j].classes, panel_jobs_[j].peq}, j >= npat};
      SeedFilter filter(options_.alphabet, options_.k, seed_scans);
      if (static_cast<std::size_t>(__builtin_popcountll(filter.filtered())) >= kSeedFilterMinScans)
        seed_filter_ = std::move(filter);
    }
    if (seed_filter_.enabled() && options_.searches_rc()) {
      // Row j of the probe is row m - 1 - j of the rc profile, in every class's word.
      std::size_t probe_words = 0;
      for (std::size_t pi = 0; pi < npat; ++pi) probe_words += panel_jobs_[npat + pi].classes;
      panel_probe_peq_.resize(probe_words);
      panel_probe_jobs_.resize(npat);
      std::size_t at = 0;
      for (std::size_t pi = 0; pi < npat; ++pi) {
        const ScanJob& rc = panel_jobs_[npat + pi];
        for (std::uint32_t c = 0; c < rc.classes; ++c) panel_probe_peq_[at + c] = reversed_rows(rc.peq[c], 0, rc.m);
        panel_probe_jobs_[pi] = rc;
        panel_probe_jobs_[pi].peq = panel_probe_peq_.data() + at;
        at += rc.classes;
      }
    }
  }
  paired_filter_ = PairedSeedFilter(options_.alphabet, options_.k, options_.searches_rc(),
                                    options_.overhang.has_value());
  make_screens();
  choose_plan();
}

void Searcher::choose_plan() {
  const Command command = mode_.shape.command;
  plan_.first_end_decides = command == Command::contains && !options_.n_filter_on();
  plan_.counted = command == Command::count && !options_.n_filter_on() && !options_.overhang;
  // (The seed filter and the screen exclude each other, see make_screens; contains whose
  // first end decides takes forward strands whole first, which neither knows.)
  if (mode_.record_by_record) plan_.strategy = Strategy::record_by_record;
  else if (mode_.paired) plan_.strategy = Strategy::paired;
  else if (seed_filter_.enabled() && !plan_.first_end_decides) plan_.strategy = Strategy::filtered_panel;
  else if (!screens_.empty() && !plan_.first_end_decides) plan_.strategy = Strategy::screened;
  else if (!panel_jobs_.empty()) plan_.strategy = Strategy::panel;
  else plan_.strategy = Strategy::lanes;
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
        group_size = prescan(records.subspan(r), mode_.paired ? text_idx : kAllPatterns);
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

void Searcher::answer_record(std::uint64_t text_idx, std::uint32_t first, std::uint32_t last,
                             BatchResults& out) {
  const ResultShape& shape = mode_.shape;
  const bool best = options_.selection == Selection::best;
  switch (shape.command) {
    case Command::hits:
      // (A panel's records mostly have no end at all: a call per pattern and strand would
      // set up every one of them for nothing.)
      if (selected_has_no_ends()) break;
      for (std::uint32_t pi = first; pi < last; ++pi) find_hits(pi, text_idx, out.hits);
      break;
    case Command::count:
      for (std::uint32_t pi = first; pi < last; ++pi) {
        const std::uint32_t c = reported_count(count_hits(pi), best);
        if (c > 0 || shape.zeros) out.pair_counts.push_back({text_idx, pi, c});
      }
      break;
    case Command::contains:
      if (shape.per_pair) {
        for (std::uint32_t pi = first; pi < last; ++pi)
          out.pair_counts.push_back({text_idx, pi, has_hit(pi) ? 1u : 0u});
      } else {
        bool any = false;
        for (std::uint32_t pi = first; pi < last && !any; ++pi) any = has_hit(pi);
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

void Searcher::make_screens() {
  const std::size_t npat = patterns_.size();
  if (!kernel_.screen || options_.overhang || seed_filter_.enabled() || options_.k > kScreenMaxK ||
      npat == 0 || npat > kScreenMaxPatterns || patterns_.max_length() > 64)
    return;
  std::vector<ScreenPieces> screens(npat);
  for (std::size_t pi = 0; pi < npat; ++pi) {
    // (profile_of reuses one scratch: the forward words are read before the reverse ones.)
    const StrandProfile fwd = profile_of(static_cast<std::uint32_t>(pi), Strand::fwd);
    if (fwd.m < kScreenPiece || fwd.classes_hint > 16) return;
    // The piece: the 16 characters that match the fewest classes (an N matches all).
    std::uint32_t best_at = 0, best_matches = UINT32_MAX;
    for (std::uint32_t a = 0; a + kScreenPiece <= fwd.m; ++a) {
      std::uint32_t matches = 0;
      for (std::uint32_t c = 0; c < fwd.classes_hint; ++c)
        matches += static_cast<std::uint32_t>(__builtin_popcountll(fwd.peq[c] >> a & 0xFFFF));
      if (matches < best_matches) {
        best_matches = matches;
        best_at = a;
      }
    }
    // The screen looks a byte up as b & 31 (the letters of either case are 1-26): each
    // entry is the piece's words of every byte of that value ORed (exact for letters, whose
    // cases are one class in dna and iupac; never less than a byte matches for the others).
    ScreenPieces& sp = screens[pi];
    sp.k = options_.k;
    for (unsigned b = 0; b < 256; ++b)
      sp.peq[0][b & 31] |= static_cast<std::uint16_t>(fwd.peq[class_of_[b]] >> best_at);
    if (!options_.searches_rc()) {
      std::copy(std::begin(sp.peq[0]), std::end(sp.peq[0]), std::begin(sp.peq[1]));
      continue;
    }
    // The reverse strand has an end <= k exactly where reverse(complement(P)) has one in the
    // forward text (edit distances keep under reversing both strings), and so wherever the
    // reverse complement of the piece has one: character j of that is complement(P[a + 15
    // - j]), row a + 15 - j of the rc profile (complement(P)).
    const StrandProfile rc = profile_of(static_cast<std::uint32_t>(pi), Strand::rc);
    if (rc.classes_hint != fwd.classes_hint) return;
    for (unsigned b = 0; b < 256; ++b)
      sp.peq[1][b & 31] |= static_cast<std::uint16_t>(reversed_rows(rc.peq[class_of_[b]], best_at, kScreenPiece));
  }
  screens_ = std::move(screens);
}

std::size_t Searcher::prescan(std::span<const std::string_view> texts, std::uint64_t paired_first) {
  pre_records_.clear();
  pre_jobs_.clear();
  pre_fwd_.clear();
  pre_rev_.clear();
  pre_peq_.clear();
  pre_job_offsets_.clear();
  probes_.clear();
  pre_current_ = nullptr;
  const auto npat = static_cast<std::uint32_t>(patterns_.size());
  const unsigned strands = options_.searches_rc() ? 2 : 1;
  const bool short_patterns = patterns_.max_length() <= 64;
  // Where each job's text and profile will be, fixed up once the buffers stop growing.
  struct Source {
    std::uint64_t codes;
    bool rc;
    std::uint64_t peq;  // offset in pre_peq_, or kOpen: the precomputed profile in the job
    std::uint32_t pattern;
    std::uint32_t record;  // in pre_records_
  };
  // has_hit alone, where the first end decides: each strand stops at its first end, and a
  // reverse strand is needed only where the forward one found none (has_hit never looks at
  // it otherwise). Such a group holds forward jobs only, back to back, so the kernel takes
  // them in place; the reverse jobs wanted are appended after the forward scan.
  const bool first_end_decides = plan_.first_end_decides;
  pre_strands_ = first_end_decides ? 1 : strands;
  // count alone: every end is one hit or part of one (DESIGN §3), so hits are counted as
  // the kernel yields the ends; overhang ends past the text would need the last column.
  pre_counted_ = plan_.counted;
  // Panels of precomputed profiles (not --paired; contains scans strand by strand, below):
  // only the jobs of a record that SeedFilter cannot rule out are made and scanned.
  const bool filtering = plan_.strategy == Strategy::filtered_panel;
  // Filtered, a group holds several times the steps, in kernel calls as large: the few
  // jobs a record keeps then fill vectors across more records, with fewer calls (W3-32
  // 0.074 -> 0.064 s). Elsewhere that did not pay (W4), and dense ends want small groups.
  // The screen (screens_): a group's records are screened all together, on their bytes,
  // and coded and given jobs only for the strands it passes (after the loop below).
  const bool screening = plan_.strategy == Strategy::screened;
  screened_.clear();
  const std::uint64_t group_steps = screening ? kPrescanSteps * kScreenedGroupScale
                                    : filtering ? kPrescanSteps * kFilteredGroupScale : kPrescanSteps;
  chunk_steps_ = group_steps;
  thread_local std::vector<Source> sources;
  sources.clear();
  // Jobs point into the codes and profiles as they are made; fix_up below redoes that only
  // where a buffer has moved since.
  const std::uint8_t* const fwd_at_start = pre_fwd_.data();
  const std::uint8_t* const rev_at_start = pre_rev_.data();
  auto codes_of = [&](bool rc, std::uint64_t codes) { return (rc ? pre_rev_ : pre_fwd_).data() + codes; };
  auto add_job = [&](std::uint64_t codes, bool rc, std::uint32_t pi, std::uint32_t record,
                     std::uint32_t n) {
    // Filled in place: a Source built on the stack and copied in was a store-forwarding
    // stall (its fields stored one by one, then loaded as vectors) on every job.
    Source& src = sources.emplace_back();
    src.codes = codes;
    src.rc = rc;
    src.peq = Window::kOpen;
    src.pattern = pi;
    src.record = record;
    const std::size_t at = pre_peq_.size();
    const StrandProfile prof = profile_into(pi, rc ? Strand::rc : Strand::fwd, pre_peq_);
    if (pre_peq_.size() != at) src.peq = at;  // built on demand: found after fix_up
    const auto& [vp, score] = start_column_[prof.m];
    pre_jobs_.push_back({prof.peq, codes_of(rc, codes), n, prof.m, prof.classes_hint, vp, score});
  };
  std::uint64_t steps = 0;
  std::size_t r = 0;
  if (screening) {
    // Records only, coded later if the screen passes them (after this loop): a lean loop,
    // as most records of a screened group are never looked at again.
    const std::uint64_t jobs_per_record = std::uint64_t{npat} * strands;
    std::uint64_t coded = 0;
    screen_texts_.clear();
    for (; r < texts.size(); ++r) {
      const std::uint64_t n = texts[r].size();
      const bool scanned = n <= kPrescanMaxText && jobs_per_record * n <= kPrescanRecordSteps;
      const std::uint64_t record_steps = scanned ? jobs_per_record * n : 0;
      if (r > 0 && (steps + record_steps > group_steps || (screened_.size() + 1) * jobs_per_record > kPrescanJobs)) break;
      PrescanRecord& rec = pre_records_.emplace_back();
      rec.text = texts[r];
      rec.patterns = npat;
      if (!scanned) continue;  // (the ordinary path, in select_prescanned)
      rec.codes_offset = static_cast<std::uint32_t>(coded);
      // No jobs until the screen passes it (below): most records are never visited again.
      rec.first_job = 0;
      rec.live = 0;
      coded += n;
      steps += record_steps;
      screened_.push_back(static_cast<std::uint32_t>(r));
      screen_texts_.push_back({reinterpret_cast<const std::uint8_t*>(texts[r].data()), static_cast<std::uint32_t>(n)});
    }
    pre_fwd_.resize(coded);
  } else for (; r < texts.size(); ++r) {
    // Made in place: a record built on the stack and copied in was a store-forwarding stall
    // (its fields stored one by one, then loaded as vectors), a tenth of W2's search.
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
    const bool scanned = short_patterns && first < last && n <= kPrescanMaxText &&
                         std::uint64_t{last - first} * strands * n <= kPrescanRecordSteps;
    // The group ends before a record that would take it past its budget, so that no group
    // needs cutting in scan_chunked (a cut inside a record parts its two strands, which a
    // pattern panel scans together, a text per vector).
    const std::uint64_t record_jobs = scanned ? std::uint64_t{last - first} * pre_strands_ : 0;
    if (r > 0 && (steps + record_jobs * n > group_steps || pre_jobs_.size() + record_jobs > kPrescanJobs)) {
      pre_records_.pop_back();
      break;
    }
    if (scanned) {
      rec.codes_offset = static_cast<std::uint32_t>(pre_fwd_.size());
      pre_fwd_.resize(pre_fwd_.size() + n);
      std::uint8_t* rev_end = nullptr;
      if (strands == 2) {
        pre_rev_.resize(pre_fwd_.size());
        // Where the first end decides, most records never need their reverse codes.
        if (!first_end_decides) rev_end = pre_rev_.data() + rec.codes_offset + n;
      }
      // Where the first end decides, a forward strand is coded and scanned only as far as
      // its head at first (see below).
      const std::uint64_t coded = first_end_decides ? std::min(n, kFirstEndHead) : n;
      kernel_.encode(class_of_.data(), reinterpret_cast<const std::uint8_t*>(rec.text.data()), coded,
                     pre_fwd_.data() + rec.codes_offset, rev_end);
      rec.first_job = static_cast<std::uint32_t>(pre_jobs_.size());
      // (The filter's bits are panel_jobs_' order, which is the record's, as first = 0.)
      const std::uint64_t live = filtering ? seed_filter_.candidates(pre_fwd_.data() + rec.codes_offset, n, kernel_.seed_lookup) : 0;
      if (filtering) rec.live = live;  // (64 live jobs, all of a record's, read the same either way)
      // --paired: only the strands, and the parts of them, that PairedSeedFilter says can
      // hold an end (not where the first end decides: that path takes forward strands
      // whole first).
      PairedSeedFilter::StrandRange ranges[2];
      if (paired_first != kAllPatterns && first < last && !first_end_decides &&
          paired_filter_.ranges(patterns_.seq(first), pre_fwd_.data() + rec.codes_offset, n, kernel_.seed_spans, ranges)) {
        rec.live = 0;
        for (unsigned s = 0; s < strands; ++s) {
          if (!ranges[s].live) continue;
          rec.live |= std::uint64_t{1} << s;  // (bit 0 forward, bit 1 reverse: one pattern)
          // Lengths in whole multiples of kPartQuantum, reached by starting earlier (or
          // ending later), which finds the same ends: the kernel's lanes advance in blocks
          // that end where the first of them ends, and ranges of ~m + 3k steps of every
          // length made blocks of a step or two (W4: 2.2 M jobs of 29-40 steps).
          std::uint32_t begin = ranges[s].begin, end = ranges[s].end;
          const std::uint32_t padded = std::min<std::uint32_t>(
              static_cast<std::uint32_t>(n), (end - begin + kPartQuantum - 1) / kPartQuantum * kPartQuantum);
          begin = end >= padded ? end - padded : 0;
          end = begin + padded;
          pre_job_offsets_.resize(pre_jobs_.size(), 0);
          pre_job_offsets_.push_back(begin);
          add_job(rec.codes_offset + begin, s == 1, first, static_cast<std::uint32_t>(r), end - begin);
        }
        rec.jobs = static_cast<std::uint32_t>(pre_jobs_.size() - rec.first_job);
        // (Counted as a whole record: its codes are held all the same.)
        steps += n;
        continue;
      }
      // Strand by strand: a strand's jobs share its text, which the kernel scans once for
      // a whole panel of patterns (kernel_jobs.h, scan_shared_text).
      for (unsigned s = 0; s < pre_strands_; ++s) {
        if (panel_jobs_.empty()) {
          for (std::uint32_t pi = first; pi < last; ++pi)
            add_job(rec.codes_offset, s == 1, pi, static_cast<std::uint32_t>(r), static_cast<std::uint32_t>(coded));
          continue;
        }
        const ScanJob* ready = panel_jobs_.data() + (s == 1 ? npat : 0);
        const std::uint8_t* const text = codes_of(s == 1, rec.codes_offset);
        if (filtering) {
          // Reverse jobs are probed on the forward text (panel_probe_jobs_): all of a
          // record's jobs then read one text, and the kernel's vectors need no second row
          // look-up and blend a step (W3-32 0.051-0.055 -> 0.045-0.048 s); the few that
          // find an end are scanned for real below.
          const bool probe = s == 1 && !panel_probe_jobs_.empty();
          if (probe) ready = panel_probe_jobs_.data();
          const std::uint8_t* const job_text = probe ? codes_of(false, rec.codes_offset) : text;
          const std::uint64_t strand_bits = npat == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << npat) - 1;
          for (std::uint64_t bits = live >> (s == 1 ? npat : 0) & strand_bits; bits; bits &= bits - 1) {
            const auto pi = static_cast<std::uint32_t>(__builtin_ctzll(bits));
            ScanJob& job = pre_jobs_.emplace_back(ready[pi]);
            job.text = job_text;
            job.len = static_cast<std::uint32_t>(coded);
            if (probe) probes_.push_back(static_cast<std::uint32_t>(pre_jobs_.size() - 1));
            sources.push_back({rec.codes_offset, s == 1 && !probe, Window::kOpen, pi, static_cast<std::uint32_t>(r)});
          }
          continue;
        }
        // Ready-made jobs, copied as a block (one add_job call per job was a tenth of a
        // panel's scan).
        const std::size_t at = pre_jobs_.size();
        pre_jobs_.insert(pre_jobs_.end(), ready + first, ready + last);
        sources.resize(pre_jobs_.size());
        for (std::size_t j = at; j < pre_jobs_.size(); ++j) {
          pre_jobs_[j].text = text;
          pre_jobs_[j].len = static_cast<std::uint32_t>(coded);
          sources[j] = {rec.codes_offset, s == 1, Window::kOpen, first + static_cast<std::uint32_t>(j - at),
                        static_cast<std::uint32_t>(r)};
        }
      }
      // (Filtered, only the jobs that passed take steps: a group holds several times as
      // many records, and the kernel's vectors fill better. A record counts as one job at
      // least, so its codes stay bounded too.)
      rec.jobs = static_cast<std::uint32_t>(pre_jobs_.size() - rec.first_job);
      steps += std::max<std::uint64_t>(rec.jobs, 1) * n;
    }
  }
  if (!screened_.empty()) {
    // (The screen reads the records' bytes as they are: screen_texts_.)
    const std::size_t count = screened_.size();
    screen_flags_.resize(count * npat);
    for (std::uint32_t pi = 0; pi < npat; ++pi)
      kernel_.screen(screens_[pi], screen_texts_.data(), count, screen_flags_.data() + std::size_t{pi} * count);
    if (strands == 2) pre_rev_.resize(pre_fwd_.size());
    // A record the screen passes is coded (both strands: traceback reads either) and
    // given jobs in the order of PrescanRecord::live's bits: every pattern's forward job,
    // then every reverse one.
    for (std::size_t i = 0; i < count; ++i) {
      std::uint64_t live = 0;
      for (unsigned s = 0; s < strands; ++s)
        for (std::uint32_t pi = 0; pi < npat; ++pi)
          live |= std::uint64_t{screen_flags_[std::size_t{pi} * count + i] >> s & 1u} << (pi + s * npat);
      if (live == 0) continue;  // (most records: left as the lean loop made them)
      PrescanRecord& rec = pre_records_[screened_[i]];
      const auto n = static_cast<std::uint32_t>(rec.text.size());
      rec.first_job = static_cast<std::uint32_t>(pre_jobs_.size());
      rec.live = live;
      kernel_.encode(class_of_.data(), reinterpret_cast<const std::uint8_t*>(rec.text.data()), n,
                     pre_fwd_.data() + rec.codes_offset, strands == 2 ? pre_rev_.data() + rec.codes_offset + n : nullptr);
      for (std::uint64_t bits = rec.live; bits; bits &= bits - 1) {
        const auto bit = static_cast<std::uint32_t>(__builtin_ctzll(bits));
        add_job(rec.codes_offset, bit >= npat, bit % npat, screened_[i], n);
      }
      rec.jobs = static_cast<std::uint32_t>(pre_jobs_.size() - rec.first_job);
    }
  }
  auto fix_up = [&] {
    if (pre_fwd_.data() == fwd_at_start && pre_rev_.data() == rev_at_start && pre_peq_.empty()) return;
    for (std::size_t j = 0; j < pre_jobs_.size(); ++j) {
      pre_jobs_[j].text = (sources[j].rc ? pre_rev_ : pre_fwd_).data() + sources[j].codes;
      if (sources[j].peq != Window::kOpen) pre_jobs_[j].peq = pre_peq_.data() + sources[j].peq;
    }
  };
  fix_up();
  // The probes (panel_probe_jobs_) for which found(j) says they have an end become their
  // reverse jobs, which are scanned (in rest_jobs_, rest_of_[i] their place): their ends
  // replace the probes' in pre_raw_ends_ (a probe has an end exactly where its reverse job
  // has one, so the others have none either way), and their last columns the probes'. (A
  // probe without an end keeps its own last column: probes are made only where SeedFilter
  // is on, without overhang, and nothing reads a whole record's last column then.)
  auto rescan_probes = [&](const auto& found) {
    rest_jobs_.clear();
    rest_of_.clear();
    for (const std::uint32_t j : probes_) {
      if (!found(j)) continue;
      ScanJob real = panel_jobs_[npat + sources[j].pattern];
      sources[j].rc = true;
      real.text = pre_rev_.data() + sources[j].codes;
      real.len = pre_jobs_[j].len;
      pre_jobs_[j] = real;
      rest_jobs_.push_back(real);
      rest_of_.push_back(j);
    }
    thread_local std::vector<std::uint8_t> is_probe;
    is_probe.assign(pre_jobs_.size(), 0);
    for (const std::uint32_t j : probes_) is_probe[j] = 1;
    std::erase_if(pre_raw_ends_, [&](const JobEnd& e) { return is_probe[e.job] != 0; });
    const std::size_t ends_before = pre_raw_ends_.size();
    rest_final_.resize(rest_jobs_.size());
    const bool counted = pre_counted_;
    pre_counted_ = false;  // (scan_chunked counts whole groups only: these ends are kept)
    scan_chunked(rest_jobs_.data(), rest_jobs_.size(), 0, rest_final_.data(), false);
    pre_counted_ = counted;
    for (std::size_t e = ends_before; e < pre_raw_ends_.size(); ++e) pre_raw_ends_[e].job = rest_of_[pre_raw_ends_[e].job];
    for (std::size_t i = 0; i < rest_of_.size(); ++i) pre_final_[rest_of_[i]] = rest_final_[i];
  };

  // Scan, then group the ends by job (each job's ends come out in increasing position).
  std::size_t jobs = pre_jobs_.size();
  pre_final_.resize(jobs);
  pre_raw_ends_.clear();
  if (pre_counted_) {
    pre_counters_.assign(jobs, LocalMinimaCounter{});
    pre_counts_.assign(jobs, 0);
    const bool minima = options_.selection != Selection::all_ends;
    // The end at position 0 (m <= k) is the start column's, not the kernel's.
    for (std::size_t j = 0; j < jobs; ++j) {
      const ScanJob& job = pre_jobs_[j];
      if (job.len == 0 || job.score > options_.k) continue;
      if (minima) pre_counters_[j].push(0, static_cast<std::int32_t>(job.score));
      else ++pre_counts_[j];
    }
    scan_chunked(pre_jobs_.data(), jobs, 0, pre_final_.data(), false);
    if (minima)
      for (std::size_t j = 0; j < jobs; ++j) pre_counts_[j] = pre_counters_[j].finish(pre_jobs_[j].len);
    if (!probes_.empty()) {
      // A probe that counted a hit: its reverse job's count, from the real scan's ends.
      rescan_probes([&](std::uint32_t j) { return pre_counts_[j] != 0; });
      for (const std::uint32_t j : rest_of_) {
        pre_counters_[j] = LocalMinimaCounter{};
        pre_counts_[j] = 0;
      }
      for (const JobEnd& e : pre_raw_ends_) {
        if (minima) pre_counters_[e.job].push(e.pos, e.cost);
        else ++pre_counts_[e.job];
      }
      if (minima)
        for (const std::uint32_t j : rest_of_) pre_counts_[j] = pre_counters_[j].finish(pre_jobs_[j].len);
      pre_raw_ends_.clear();
    }
    return r;
  }
  scan_chunked(pre_jobs_.data(), jobs, 0, pre_final_.data(), first_end_decides);
  if (!probes_.empty()) {
    // A probe with an end: the reverse job's real ends take the probe's place.
    thread_local std::vector<std::uint8_t> probe_has_end;
    probe_has_end.assign(jobs, 0);
    for (const JobEnd& e : pre_raw_ends_) probe_has_end[e.job] = 1;
    rescan_probes([&](std::uint32_t j) { return probe_has_end[j] != 0; });
  }
  pre_rc_job_.clear();
  if (first_end_decides) {
    // The forward jobs cut at their head: those that found no end there carry on over the
    // rest of their text from the head's column (coded now), as one scan would have. A
    // record that hits early is never coded past its head.
    thread_local std::vector<std::uint8_t> has_end;  // by forward job, for both passes below
    has_end.assign(jobs, 0);
    for (const JobEnd& e : pre_raw_ends_) has_end[e.job] = 1;
    rest_jobs_.clear();
    rest_of_.clear();
    std::uint32_t rest_coded = kNoJobs;  // the last record coded in full
    for (std::size_t j = 0; j < jobs; ++j) {
      const std::string_view text = pre_records_[sources[j].record].text;
      if (pre_jobs_[j].len == text.size()) continue;
      pre_jobs_[j].len = static_cast<std::uint32_t>(text.size());  // the whole text from here on
      if (has_end[j]) continue;
      if (sources[j].record != rest_coded) {
        rest_coded = sources[j].record;
        kernel_.encode(class_of_.data(), reinterpret_cast<const std::uint8_t*>(text.data()) + kFirstEndHead,
                       text.size() - kFirstEndHead, pre_fwd_.data() + sources[j].codes + kFirstEndHead, nullptr);
      }
      ScanJob rest = pre_jobs_[j];
      rest.text += kFirstEndHead;
      rest.len -= static_cast<std::uint32_t>(kFirstEndHead);
      rest.vp = pre_final_[j].vp;
      rest.vn = pre_final_[j].vn;
      rest.score = pre_final_[j].score;
      rest_jobs_.push_back(rest);
      rest_of_.push_back(static_cast<std::uint32_t>(j));
    }
    const std::size_t ends_before = pre_raw_ends_.size();
    rest_final_.resize(rest_jobs_.size());
    scan_chunked(rest_jobs_.data(), rest_jobs_.size(), 0, rest_final_.data(), true);
    for (std::size_t e = ends_before; e < pre_raw_ends_.size(); ++e) {
      pre_raw_ends_[e].pos += static_cast<std::uint32_t>(kFirstEndHead);
      pre_raw_ends_[e].job = rest_of_[pre_raw_ends_[e].job];
      has_end[pre_raw_ends_[e].job] = 1;
    }
    for (std::size_t i = 0; i < rest_jobs_.size(); ++i) pre_final_[rest_of_[i]] = rest_final_[i];
    if (strands == 2) {
      // The reverse strands of the forward jobs that found no end, appended and scanned.
      const std::size_t fwd_jobs = jobs;
      pre_rc_job_.assign(fwd_jobs, kNoJobs);
      std::uint32_t rev_encoded = kNoJobs;  // the last record whose reverse codes exist
      for (std::size_t j = 0; j < fwd_jobs; ++j) {
        if (has_end[j]) continue;
        const Source fwd = sources[j];
        if (fwd.record != rev_encoded) {
          rev_encoded = fwd.record;
          const std::string_view text = pre_records_[rev_encoded].text;
          kernel_.encode(class_of_.data(), reinterpret_cast<const std::uint8_t*>(text.data()),
                         text.size(), nullptr, pre_rev_.data() + fwd.codes + text.size());
        }
        pre_rc_job_[j] = static_cast<std::uint32_t>(pre_jobs_.size());
        add_job(fwd.codes, true, fwd.pattern, fwd.record, pre_jobs_[j].len);
      }
      fix_up();
      jobs = pre_jobs_.size();
      pre_final_.resize(jobs);
      scan_chunked(pre_jobs_.data() + fwd_jobs, jobs - fwd_jobs, static_cast<std::uint32_t>(fwd_jobs),
                   pre_final_.data() + fwd_jobs, true);
    }
  }
  const std::size_t found = pre_raw_ends_.size();
  pre_end_offsets_.assign(jobs + 1, 0);
  if (found == 0) return r;  // (most groups of a pattern panel)
  for (std::size_t e = 0; e < found; ++e) ++pre_end_offsets_[pre_raw_ends_[e].job + 1];
  for (std::size_t j = 0; j < jobs; ++j) pre_end_offsets_[j + 1] += pre_end_offsets_[j];
  // Job j's ends go to pre_ends_[off[j] + j, off[j + 1] + j): one unused slot after each
  // job's, because records of one length with as many ends each (dense outputs) would
  // otherwise start their ends a power of two apart, and the scatter below then wrote to
  // a few cache sets only (evicting each other: a fifth of a dense run).
  pre_ends_.resize(found + jobs);
  thread_local std::vector<std::uint32_t> fill;
  fill.resize(jobs);
  for (std::size_t j = 0; j < jobs; ++j) fill[j] = pre_end_offsets_[j] + static_cast<std::uint32_t>(j);
  if (pre_job_offsets_.empty()) {
    for (std::size_t e = 0; e < found; ++e) {
      const JobEnd& je = pre_raw_ends_[e];
      pre_ends_[fill[je.job]++] = {je.pos, je.cost};
    }
  } else {
    // Jobs over part of a strand count their ends from where that part starts.
    pre_job_offsets_.resize(jobs, 0);
    for (std::size_t e = 0; e < found; ++e) {
      const JobEnd& je = pre_raw_ends_[e];
      pre_ends_[fill[je.job]++] = {std::uint64_t{pre_job_offsets_[je.job]} + je.pos, je.cost};
    }
  }
  return r;
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
      // and each copy was up to 3 MB: 6% of a short W3-32 process).
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
    // in code built for any x86-64, 1% of W4.)
    const std::uint64_t before = pre_current_->live & ((std::uint64_t{1} << bit) - 1);
    const std::uint32_t jobs_before = (before & (before - 1)) == 0 ? before != 0 : static_cast<std::uint32_t>(__builtin_popcountll(before));
    return pre_current_->first_job + jobs_before;
  }
  const std::uint32_t j = pre_current_->first_job + (pi - pre_current_->first_pattern);
  if (strand == Strand::fwd) return j;
  return pre_strands_ == 2 ? j + pre_current_->patterns : pre_rc_job_[j];
}

StrandProfile Searcher::profile_into(std::uint32_t pi, Strand strand, std::vector<std::uint64_t>& out) {
  const ClassPlanes* planes = patterns_.class_planes(strand);
  if (patterns_.precomputed() || !planes) return patterns_.profile(pi, strand, out);
  // Built on demand with the kernel's builder (AVX-512 VBMI where the CPU has it).
  StrandProfile prof = patterns_.profile_header(pi, strand);
  const std::size_t at = out.size();
  out.resize(at + std::size_t{prof.classes_hint} * prof.words);
  kernel_.build_peq(*planes, prof.classes_hint, patterns_.seq(pi), out.data() + at);
  prof.peq = out.data() + at;
  return prof;
}

StrandProfile Searcher::profile_of(std::uint32_t pi, Strand strand) {
  profile_scratch_.clear();
  return profile_into(pi, strand, profile_scratch_);
}

StrandProfile Searcher::profile_for(std::uint32_t pi, Strand strand) {
  if (!pre_current_) return profile_of(pi, strand);
  const std::uint32_t j = prescan_job(pi, strand);
  if (j == kNoJobs) return profile_of(pi, strand);
  StrandProfile prof = patterns_.profile_header(pi, strand);
  prof.peq = pre_jobs_[j].peq;
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
  if (pre_current_ && pre_counted_) set_text(text_);
  const std::size_t first = out.hits.size();
  search_strand(pi, Strand::fwd, text_idx, out);
  if (options_.searches_rc()) search_strand(pi, Strand::rc, text_idx, out);
  // SPEC §7 order within a pattern: start, strand, end. Equal (start, strand, end) only
  // arises from overhang ends past the text; those keep their end order (pattern_end down).
  const auto before = [](const Hit& a, const Hit& b) {
    if (a.start != b.start) return a.start < b.start;
    if (a.strand != b.strand) return a.strand < b.strand;
    if (a.end != b.end) return a.end < b.end;
    return a.pattern_end > b.pattern_end;
  };
  // One strand's hits mostly come in order already (ends increase, and so do starts unless
  // the hits overlap with different indels): a check is cheaper than a sort.
  const auto from = out.hits.begin() + static_cast<std::ptrdiff_t>(first);
  if (!std::is_sorted(from, out.hits.end(), before)) std::sort(from, out.hits.end(), before);
}

StrandCounts Searcher::count_hits(std::uint32_t pi) {
  StrandCounts counts;
  if (pre_current_ && pre_counted_) {
    const std::uint32_t fwd = prescan_job(pi, Strand::fwd);
    counts.fwd = fwd == kNoJobs ? 0 : pre_counts_[fwd];
    if (options_.searches_rc()) {
      const std::uint32_t rc = prescan_job(pi, Strand::rc);
      counts.rc = rc == kNoJobs ? 0 : pre_counts_[rc];
    }
    return counts;
  }
  for (Strand strand : {Strand::fwd, Strand::rc}) {
    if (strand == Strand::rc && !options_.searches_rc()) break;
    const StrandProfile prof = profile_for(pi, strand);
    strand_candidates(pi, prof, strand, /*stop_at_first=*/false);
    std::uint32_t count = 0;
    if (!options_.n_filter_on()) {
      // DESIGN §3: without the N filter every candidate end is one hit; no traceback.
      count = static_cast<std::uint32_t>(selected_.size());
    } else {
      for (const EndCost& end : selected_) count += survives_n_filter(prof, strand, end);
    }
    (strand == Strand::fwd ? counts.fwd : counts.rc) = count;
  }
  return counts;
}

bool Searcher::has_hit(std::uint32_t pi) {
  if (pre_current_ && pre_counted_) {
    const StrandCounts counts = count_hits(pi);
    return counts.fwd + counts.rc > 0;
  }
  if (pre_current_ && !options_.n_filter_on()) {
    // A prescanned strand owns its whole record, so any end its scan found is a candidate,
    // and without the N filter a candidate is a hit (DESIGN §3): no collect_ends needed.
    if (prescanned_job_has_ends(prescan_job(pi, Strand::fwd))) return true;
    // (A reverse job exists wherever its forward one found no end, unless ruled out.)
    if (options_.searches_rc() && prescanned_job_has_ends(prescan_job(pi, Strand::rc))) return true;
  }
  for (Strand strand : {Strand::fwd, Strand::rc}) {
    if (strand == Strand::rc && !options_.searches_rc()) break;
    const StrandProfile prof = profile_for(pi, strand);
    // Without the N filter every run of ends with cost <= k holds a local minimum
    // (DESIGN §3), so the first owned end decides.
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

Searcher::Ownership Searcher::window_ownership(Strand strand) const {
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
    pre_job_index_ = prescan_job(pi, strand);
    if (pre_job_index_ == kNoJobs) {  // ruled out by SeedFilter: no end
      selected_.clear();
      strand_text_ = {{}, 0, n};
      return;
    }
    pre_job_ = &pre_jobs_[pre_job_index_];
    // The whole strand (a job may scan only part of it): traceback reads from it.
    strand_text_ = {std::span<const std::uint8_t>((strand == Strand::rc ? pre_rev_ : pre_fwd_).data() + pre_current_->codes_offset, n), 0, n};
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
  // A fresh DP started at ws > 0 is exact for costs <= k from ws + m + k on (DESIGN §3).
  const std::uint64_t exact_from = ws == 0 ? 0 : ws + m + static_cast<std::uint64_t>(k);

  // best picks among the local minima (Sassy only_best_match on `search`).
  const bool minima = options_.selection != Selection::all_ends && !stop_at_first;
  LocalMinimaSelector selector;
  auto take = [&](const EndCost& e) {
    if (minima) selector.push(e.pos, e.cost, selected_);
    else selected_.push_back(e);
  };

  // Runs of consecutive ends with cost <= k, tracked to decide ownership.
  bool run_open = false, run_owned = false, need_more = false;
  std::uint64_t run_first = 0, run_last = 0;
  auto close_run = [&] {
    if (!run_open) return;
    run_open = false;
    if (own.kind != Own::runs_ending_in) return;
    if (run_last < own.a || run_last >= own.b) return;
    // Owned, but where it starts is unknown if it reaches back to the first exact end.
    if (run_first == exact_from && exact_from > 0) {
      need_more = true;
      return;
    }
    for (const EndCost& e : run_) take(e);
  };
  auto on_end = [&](std::uint64_t p, std::int32_t cost) {
    if (p < exact_from) return;
    if (!run_open || p != run_last + 1) {
      close_run();
      run_open = true;
      run_first = p;
      run_.clear();
      run_owned = own.kind == Own::all ||
                  (own.kind == Own::runs_starting_in && p >= own.a && p < own.b);
    }
    run_last = p;
    if (own.kind == Own::runs_ending_in) run_.push_back({p, cost});
    else if (run_owned) take({p, cost});
  };
  // Everything owned is decided once the scan has passed b (and, for '+', finished the
  // run it owns that crosses b).
  auto decided = [&](std::uint64_t scanned) {
    if (own.kind == Own::all || own.b == Window::kOpen || scanned < own.b) return false;
    if (run_open && run_last == scanned) {
      if (own.kind == Own::runs_ending_in) return true;  // a run reaching b is not owned
      return !run_owned;
    }
    return true;
  };

  // Column ws: D(j, ws) = L(j) at the true text start, j for a fresh start inside the text.
  for (std::uint32_t w = 0; w < prof.words; ++w) {
    vp_[w] = ~std::uint64_t{0};
    vn_[w] = 0;
  }
  if (options_.overhang && ws == 0) {
    for (std::uint32_t j = 0; j < m; ++j)
      if (overhang_cost(options_, j + 1) == overhang_cost(options_, j))
        vp_[j >> 6] &= ~(std::uint64_t{1} << (j & 63));
  }
  ColumnState state{vp_.data(), vn_.data(),
                    ws == 0 ? overhang_cost(options_, m) : static_cast<std::int64_t>(m)};
  if (state.score <= k) on_end(ws, static_cast<std::int32_t>(state.score));
  if (stop_at_first && !selected_.empty()) return true;

  if (pre_job_) {
    // Prescanned: the kernel's ends and last column are already known.
    const std::uint32_t j = pre_job_index_;
    if (own.kind == Own::all && extra == 0) {
      // The whole record and no overhang: every end is owned and nothing follows the text,
      // so the ends go straight to selection.
      for (const EndCost& end : prescanned_ends(j)) {
        take(end);
        if (stop_at_first && !selected_.empty()) return true;
      }
      if (minima) selector.finish(last, selected_);
      return true;
    }
    for (const EndCost& end : prescanned_ends(j)) {
      on_end(end.pos, end.cost);
      if (stop_at_first && !selected_.empty()) return true;
    }
    vp_[0] = pre_final_[j].vp;
    vn_[0] = pre_final_[j].vn;
    state.score = pre_final_[j].score;
    if (run_open && run_last < pe) close_run();
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
    for (std::size_t e = 0; e < found; ++e) on_end(ends_[e].pos, ends_[e].cost);
    // scan_first may stop early; it then found an end, and we are done anyway.
    const std::uint64_t scanned = found && scan == kernel_.scan_first ? ends_[0].pos : pos + len;
    if (run_open && run_last < scanned) close_run();
    if (stop_at_first && !selected_.empty()) return true;
    done = decided(scanned);
  }
  if (need_more) return false;
  if (!done && pe < n) {
    // The slice ended before ownership was decided.
    if (own.kind != Own::all) return false;
  }
  if (!done && pe == n && extra > 0) {
    // Right overhang: C[n + o] = D(m - o, n) + floor(alpha * o), from the last column.
    column_[0] = 0;
    for (std::uint32_t j = 0; j < m; ++j)
      column_[j + 1] = column_[j] + static_cast<std::int32_t>((vp_[j >> 6] >> (j & 63)) & 1u) -
                       static_cast<std::int32_t>((vn_[j >> 6] >> (j & 63)) & 1u);
    for (std::uint32_t o = 1; o <= extra; ++o) {
      const std::int32_t cost = column_[m - o] + overhang_cost(options_, o);
      if (cost <= k) on_end(n + o, cost);
      else if (run_open && run_last < n + o) close_run();
    }
  }
  close_run();
  if (need_more) return false;
  if (minima) selector.finish(last, selected_);
  return true;
}

void Searcher::search_strand(std::uint32_t pi, Strand strand, std::uint64_t text_idx,
                             HitList& out) {
  if (pre_current_ && !options_.overhang) {
    // A prescanned strand whose scan found no end has no hit (the usual case in a pattern
    // panel): nothing to set up. (With k >= m every end position has cost <= k, so no end
    // means an empty text, which has no end positions at all without overhang.)
    if (!prescanned_job_has_ends(prescan_job(pi, strand))) return;
  }
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
    return a.cost != b.cost ? a.cost < b.cost : a.pos > b.pos;
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
