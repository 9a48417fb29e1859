#pragma once
// Many short texts at once (lanes of records or of --paired pairs: docs/architecture.md,
// kernels), shared by the SIMD kernels (included only by their translation units, each
// compiled with its own -m flags).
//
// Every SIMD lane runs a different job, a whole (pattern, text, strand) scan with its own
// profile and pattern length, and takes the next job as soon as its text ends, so short
// records fill every lane with no warm-up overlap and no per-record set-up. Lanes advance in
// blocks: each block runs as many steps as the lane closest to its end has left (at most
// kBlock), so no lane ends inside a block. Per block, the equality words of every lane are
// looked up into a step-major buffer (each lane has its own profile, so there is no
// shared table to look up in; V::fill does it with vectors from each lane's V::Table, made
// when the lane takes its job, else scalar loads); the Myers steps then run on whole vectors.
// V::kGroups independent vectors are stepped together, because one Myers step is a chain of
// dependent instructions and a single vector would leave the core idle between them (four
// at a time beat two on AMD Zen 5: docs/performance.md).
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "kernel_buffer.h"
#include "trawl/kernel/kernel.h"

namespace trawl::jobs {

constexpr unsigned kBlock = 64;
// Bit l: lane l (at most 64 lanes: V::kGroups * V::kLanes).
using LaneBits = std::uint64_t;

// The lanes' columns between memory (per lane, where jobs are set up and taken down) and
// V::kGroups vectors of registers each (while stepping). `last` never changes while stepping.
template <class V, class Word = typename V::Word, class Reg = typename V::Reg, unsigned G = V::kGroups>
inline void load_lanes(const Word* pv_a, const Word* mv_a, const Word* score_a, const Word* last_a,
                       Reg (&pv)[G], Reg (&mv)[G], Reg (&score)[G], Reg (&last)[G]) {
  for (unsigned g = 0; g < G; ++g) {
    pv[g] = V::load(pv_a + g * V::kLanes);
    mv[g] = V::load(mv_a + g * V::kLanes);
    score[g] = V::load(score_a + g * V::kLanes);
    last[g] = V::load(last_a + g * V::kLanes);
  }
}
template <class V, class Word = typename V::Word, class Reg = typename V::Reg, unsigned G = V::kGroups>
inline void store_lanes(const Reg (&pv)[G], const Reg (&mv)[G], const Reg (&score)[G], Word* pv_a,
                        Word* mv_a, Word* score_a) {
  for (unsigned g = 0; g < G; ++g) {
    V::store(pv_a + g * V::kLanes, pv[g]);
    V::store(mv_a + g * V::kLanes, mv[g]);
    V::store(score_a + g * V::kLanes, score[g]);
  }
}

// One Myers step of a vector of lanes on their equality words `eq`: the new column in pv and
// mv; ph and mh get the horizontal deltas (+1, -1) of every row, before their shift.
template <class V>
inline void advance(typename V::Reg eq, typename V::Reg& pv, typename V::Reg& mv,
                    typename V::Reg& ph, typename V::Reg& mh) {
  using Reg = typename V::Reg;
  const Reg xv = V::or_(eq, mv);
  const Reg xh = V::or_(V::xor_(V::add(V::and_(eq, pv), pv), pv), eq);
  ph = V::or_not_or(mv, xh, pv);  // mv | ~(xh | pv)
  mh = V::and_(pv, xh);
  const Reg ph_up = V::shl1(ph);
  const Reg mh_up = V::shl1(mh);
  pv = V::or_not_or(mh_up, xv, ph_up);  // mh | ~(xv | ph), shifted
  mv = V::and_(ph_up, xv);
}

// The same, and the score at row m moved by that row's deltas; returns the lanes whose new
// score is <= k (kv) as bits.
template <class V>
inline unsigned step(typename V::Reg eq, typename V::Reg& pv, typename V::Reg& mv,
                     typename V::Reg& score, typename V::Reg last, typename V::Reg kv) {
  typename V::Reg ph, mh;
  advance<V>(eq, pv, mv, ph, mh);
  score = V::score_step(score, ph, mh, last);  // + ph, - mh at row m
  return V::le_mask(score, kv);
}

// The equality words of every lane of scan() for its next `steps` (<= kBlock) steps,
// step-major: eqbuf[s * L + l], lane l reading text_of[l] from pos_of[l] through its profile
// (table_of[l], or peq_of[l] where bit l of `untabled` is set). Idle lanes see no matches.
// (Always inlined, so that scan() compiles much as with this code in its body: the arrays
// stay its own locals.)
template <class V, class Word = typename V::Word, unsigned G = V::kGroups>
[[gnu::always_inline]] inline void fill_block(const std::uint8_t* const* text_of, const std::uint32_t* pos_of,
                                              const std::uint64_t* const* peq_of,
                                              const typename V::Table* table_of, LaneBits untabled,
                                              std::uint32_t steps, Word* eqbuf) {
  constexpr unsigned W = V::kLanes;
  constexpr unsigned L = G * W;
  constexpr LaneBits kGroupLanes = (LaneBits{1} << W) - 1;  // one vector's lanes as bits
  for (unsigned g = 0; g < G; ++g) {
    const std::uint8_t* texts[W];
    for (unsigned i = 0; i < W; ++i) texts[i] = text_of[g * W + i] + pos_of[g * W + i];
    if ((untabled >> (g * W) & kGroupLanes) == 0) {
      if constexpr (V::kTwoTables) {
        // At most two profiles among the lanes (text tiles of one pattern, or the strands
        // of one): the cheaper lookup, where the block is long enough to pay for its
        // transpose of 64 steps.
        if (steps > kBlock / 4 && V::two_tables_supported()) {
          const std::uint64_t* const* peq = peq_of + g * W;
          unsigned use_b = 0, b = 0;  // (W <= 16 bits)
          bool two = true;
          for (unsigned i = 1; i < W && two; ++i) {
            if (peq[i] == peq[0]) continue;
            if (b == 0) b = i;
            two = peq[i] == peq[b];
            use_b |= 1u << i;
          }
          if (two) {
            V::fill_two_tables(table_of[g * W], table_of[g * W + b], use_b, texts, steps, eqbuf + g * W, L);
            continue;
          }
        }
      }
      V::fill(table_of + g * W, texts, steps, eqbuf + g * W, L);
      continue;
    }
    for (unsigned i = 0; i < W; ++i) {
      const std::uint64_t* peq = peq_of[g * W + i];
      Word* dst = eqbuf + g * W + i;
      for (std::uint32_t s = 0; s < steps; ++s) dst[s * L] = static_cast<Word>(peq[texts[i][s]]);
    }
  }
}

// Advances the positions of scan()'s L lanes by `steps` where the lane is `active` (idle
// ones by 0) and returns the lanes that have reached their text's end, as bits. Branch free
// over every lane, in parts of at most 32 lanes with 32-bit masks, which GCC vectorizes
// (over 64-bit masks it did not).
template <unsigned L>
[[gnu::always_inline]] inline LaneBits advance_positions(std::uint32_t* pos_of, const std::uint32_t* len_of,
                                                         LaneBits active, std::uint32_t steps) {
  LaneBits done = 0;
  constexpr unsigned kPart = L < 32 ? L : 32;
  for (unsigned p = 0; p < L; p += kPart) {
    const auto part_active = static_cast<std::uint32_t>(active >> p);
    std::uint32_t part_done = 0;
    for (unsigned i = 0; i < kPart; ++i) {
      pos_of[p + i] += steps & (0u - (part_active >> i & 1u));
      part_done |= static_cast<std::uint32_t>(pos_of[p + i] == len_of[p + i]) << i;
    }
    done |= LaneBits{part_done} << p;
  }
  return done;
}

// V: the vector operations of one instruction set (see kernel_avx2.cpp, kernel_avx512.cpp),
// on lanes of V::Word: 64-bit lanes for any m <= 64, or 32-bit lanes (twice as many per
// vector) when every job has m <= 32. A lane's bits below m depend only on bits below m
// (carries and shifts move upward), so narrow lanes give the same ends and final columns.
// kFirstOnly: a job ends at its first end (contains); its lane idles to the block's end.
template <class V, bool kFirstOnly>
std::size_t scan(const ScanJob* jobs, std::size_t n, std::int32_t k, JobEnd* out,
                 JobState* final_states) {
  constexpr unsigned W = V::kLanes;   // lanes per vector
  constexpr unsigned G = V::kGroups;  // vectors stepped together
  constexpr unsigned L = G * W;       // lanes in all
  static_assert(L <= 64, "lanes are LaneBits");
  using Reg = typename V::Reg;
  using Word = typename V::Word;

  // Per-lane bookkeeping, in memory; the vectors are reloaded from it after a refill.
  // last_a: the lane's bit for pattern row m, in the form V::score_step wants.
  alignas(64) Word pv_a[L], mv_a[L], score_a[L], last_a[L];
  std::uint32_t job_of[L];
  const std::uint8_t* text_of[L];
  const std::uint64_t* peq_of[L];
  std::uint32_t pos_of[L], len_of[L];
  // Each lane's profile in the form V::fill looks up (built once per job, not per block);
  // a bit of `untabled` marks a lane whose profile V cannot hold (scalar loads instead).
  typename V::Table table_of[L];
  LaneBits untabled = 0;
  alignas(64) Word eqbuf[kBlock * L];
  alignas(64) Word sc[L];

  std::size_t next = 0, found = 0;
  LaneBits active = 0;  // bit l: lane l holds a job
  LaneBits live = 0;    // bit l: lane l's job still wants ends (kFirstOnly)
  auto set_table = [&](unsigned l, const std::uint64_t* peq, std::uint32_t classes) {
    if (V::make_table(peq, classes, table_of[l])) untabled &= ~(LaneBits{1} << l);
    else untabled |= LaneBits{1} << l;
  };
  // Gives lane l the next job with text left; jobs with empty texts finish at once.
  auto refill = [&](unsigned l) {
    while (next < n && jobs[next].len == 0) {
      final_states[next] = {jobs[next].vp, jobs[next].vn, jobs[next].score};
      ++next;
    }
    if (next == n) {
      active &= ~(LaneBits{1} << l);
      live &= ~(LaneBits{1} << l);
      pv_a[l] = mv_a[l] = 0;
      score_a[l] = V::kIdleScore;  // never <= k (k is capped below it)
      last_a[l] = V::last_row(1);
      static const std::uint8_t kNoText[kBlock + 8] = {};
      static const std::uint64_t kNoMatch[1] = {0};
      text_of[l] = kNoText;  // an idle lane reads class 0, which matches nothing
      peq_of[l] = kNoMatch;
      pos_of[l] = 0;
      len_of[l] = ~std::uint32_t{0};  // never the lane closest to its end
      set_table(l, kNoMatch, 1);
      return;
    }
    const ScanJob& j = jobs[next];
    active |= LaneBits{1} << l;
    live |= LaneBits{1} << l;
    job_of[l] = static_cast<std::uint32_t>(next++);
    text_of[l] = j.text;
    peq_of[l] = j.peq;
    pos_of[l] = 0;
    len_of[l] = j.len;
    set_table(l, j.peq, j.classes);
    pv_a[l] = static_cast<Word>(j.vp);
    mv_a[l] = static_cast<Word>(j.vn);
    score_a[l] = static_cast<Word>(j.score);
    last_a[l] = V::last_row(j.m);
  };
  for (unsigned l = 0; l < L; ++l) refill(l);

  // Real scores never exceed m (<= 64), so capping k below the idle score changes no answer.
  const std::int64_t k_capped = std::min<std::int64_t>(k, static_cast<std::int64_t>(V::kIdleScore) - 1);
  const Reg kv = V::set1(static_cast<Word>(k_capped));
  while (active) {
    // A job that stops at its first end idles until its block ends: shorter blocks then.
    // Over every lane, branch free (idle lanes have the most left), so it vectorizes: a
    // loop over the active bits would branch on every lane in every block.
    std::uint32_t steps = kFirstOnly ? kBlock / 4 : kBlock;
    for (unsigned l = 0; l < L; ++l) steps = std::min(steps, len_of[l] - pos_of[l]);
    // Equality words, step-major: eqbuf[s * L + l].
    fill_block<V>(text_of, pos_of, peq_of, table_of, untabled, steps, eqbuf);

    Reg pv[G], mv[G], score[G], last[G];
    load_lanes<V>(pv_a, mv_a, score_a, last_a, pv, mv, score, last);
    for (std::uint32_t s = 0; s < steps; ++s) {
      LaneBits hit = 0;
      for (unsigned g = 0; g < G; ++g)
        hit |= LaneBits{step<V>(V::load(eqbuf + s * L + g * W), pv[g], mv[g], score[g], last[g], kv)} << (g * W);
      if constexpr (kFirstOnly) hit &= live;
      if (hit) {  // rare: write the ends at or below k
        for (unsigned g = 0; g < G; ++g) V::store(sc + g * W, score[g]);
        if constexpr (kFirstOnly) live &= ~hit;
        for (; hit; hit &= hit - 1) {
          const unsigned l = static_cast<unsigned>(__builtin_ctzll(hit));
          out[found++] = {job_of[l], pos_of[l] + s + 1, static_cast<std::int32_t>(sc[l])};
        }
      }
    }
    store_lanes<V>(pv, mv, score, pv_a, mv_a, score_a);
    // The same: every lane advances (idle ones by 0), then only the lanes whose job is done
    // are visited.
    LaneBits done = advance_positions<L>(pos_of, len_of, active, steps);
    if constexpr (kFirstOnly) done |= ~live;
    for (done &= active; done; done &= done - 1) {
      const unsigned l = static_cast<unsigned>(__builtin_ctzll(done));
      final_states[job_of[l]] = {pv_a[l], mv_a[l], static_cast<std::int64_t>(score_a[l])};
      refill(l);
    }
  }
  return found;
}

// Jobs over one text (pattern tiling: docs/architecture.md, kernels; a panel of patterns on one record strand): every lane of
// a vector reads the same character, so a step's equality words are one row of a table made
// once per batch (row c: each lane's word for class c), with no per-lane lookup and no
// transpose. A vector may also hold the jobs of two texts of one length (the jobs of a
// record's two strands that SeedFilter left, say): its lanes then take their words from the
// rows of both texts' characters, blended by a lane mask.
constexpr std::uint32_t kSharedClasses = 16;

// The jobs of one vector: jobs[first, first + count), count <= V::kLanes, all of one length
// and number of classes; lanes [0, split) read one text, the others a second (split ==
// count: one text).
struct SharedVector {
  std::uint32_t first, count, split;
};

// G shared-text vectors set up for stepping: vecs[v0, v0 + used) of a run, the others idle.
// Holds the batch's table rows, each lane's first column and job, which lanes hold a job, and
// the texts each vector reads. One per kernel call, reused batch by batch.
template <class V, unsigned G>
struct SharedBatch {
  static constexpr unsigned W = V::kLanes;
  static constexpr unsigned L = G * W;
  static_assert(W <= 32, "a vector's lanes are 32-bit masks");
  using Word = typename V::Word;
  using Reg = typename V::Reg;
  alignas(64) Word table[kSharedClasses * L];
  alignas(64) Word pv[L], mv[L], score[L], last[L];
  std::uint32_t job_of[L];
  std::uint32_t busy[G];          // per vector: bit i, lane i holds a job
  const std::uint8_t* text[G];    // each vector's (an idle one reads the first's)
  const std::uint8_t* text_b[G];  // its second text, for the lanes of second_lanes
  typename V::LaneMask second_lanes[G];
  bool two_texts = false;
  unsigned used = 0;

  void start(const ScanJob* jobs, const SharedVector* vecs, std::size_t nvec, std::size_t v0,
             std::uint32_t classes) {
    // The table's rows are the lanes' words for the classes 0, 1, ..., classes - 1: a
    // transpose of their V::Tables in vector registers, where V has them.
    static constexpr std::uint64_t kNoMatch[1] = {0};
    used = static_cast<unsigned>(std::min<std::size_t>(G, nvec - v0));
    two_texts = false;
    for (unsigned g = 0; g < G; ++g) {
      const SharedVector vec = g < used ? vecs[v0 + g] : SharedVector{vecs[v0].first, 0, 0};
      text[g] = text_b[g] = jobs[vec.first].text;
      unsigned second = 0;
      if (vec.split < vec.count) {
        text_b[g] = jobs[vec.first + vec.split].text;
        second = ((1u << vec.count) - 1) & ~((1u << vec.split) - 1);
        two_texts = true;
      }
      second_lanes[g] = V::lane_mask(second);
      busy[g] = static_cast<std::uint32_t>((std::uint64_t{1} << vec.count) - 1);
      typename V::Table tables[W];
      bool tabled = true;
      for (unsigned i = 0; i < W; ++i) {
        const unsigned l = g * W + i;
        if (i >= vec.count) {  // idle: matches nothing, never <= k
          job_of[l] = 0;
          pv[l] = mv[l] = 0;
          score[l] = V::kIdleScore;
          last[l] = V::last_row(1);
          tabled = tabled && V::make_table(kNoMatch, 1, tables[i]);
          continue;
        }
        const ScanJob& j = jobs[vec.first + i];
        job_of[l] = vec.first + i;
        pv[l] = static_cast<Word>(j.vp);
        mv[l] = static_cast<Word>(j.vn);
        score[l] = static_cast<Word>(j.score);
        last[l] = V::last_row(j.m);
        tabled = tabled && V::make_table(j.peq, classes, tables[i]);
      }
      if (tabled) {
        V::table_rows(tables, classes, table + g * W, L);
        continue;
      }
      for (unsigned i = 0; i < W; ++i)
        for (std::uint32_t c = 0; c < classes; ++c)
          table[c * L + g * W + i] = i < vec.count ? static_cast<Word>(jobs[vec.first + i].peq[c]) : 0;
    }
  }

  // Vector g's equality words at step s (kSecond: some vector of the batch reads two texts).
  template <bool kSecond>
  Reg eq(unsigned g, std::uint32_t s) const {
    const Reg e = V::load(table + std::size_t{text[g][s]} * L + g * W);
    if constexpr (!kSecond) return e;
    return V::blend(second_lanes[g], e, V::load(table + std::size_t{text_b[g][s]} * L + g * W));
  }

  // Writes the busy lanes' columns in pv, mv and score to final_states.
  void finish(JobState* final_states) const {
    for (unsigned g = 0; g < used; ++g)
      for (std::uint32_t bits = busy[g]; bits; bits &= bits - 1) {
        const unsigned l = g * W + static_cast<unsigned>(__builtin_ctz(bits));
        final_states[job_of[l]] = {pv[l], mv[l], static_cast<std::int64_t>(score[l])};
      }
  }
};

// Runs vectors vecs[0, nvec) of one length and number of classes, G at a time. Same
// contract as scan(), for the jobs the vectors hold (job numbers index `jobs`).
template <class V, bool kFirstOnly, unsigned G>
std::size_t scan_shared_batches(const ScanJob* jobs, const SharedVector* vecs, std::size_t nvec,
                                std::int32_t k, JobEnd* out, JobState* final_states) {
  constexpr unsigned W = V::kLanes;
  constexpr unsigned L = G * W;
  static_assert(L <= 64, "lanes are LaneBits");
  using Reg = typename V::Reg;
  using Word = typename V::Word;
  const std::uint32_t len = jobs[vecs[0].first].len;
  const std::uint32_t classes = jobs[vecs[0].first].classes;
  SharedBatch<V, G> batch;
  alignas(64) Word sc[L];
  const std::int64_t k_capped = std::min<std::int64_t>(k, static_cast<std::int64_t>(V::kIdleScore) - 1);
  const Reg kv = V::set1(static_cast<Word>(k_capped));
  std::size_t found = 0;
  for (std::size_t v0 = 0; v0 < nvec; v0 += G) {
    batch.start(jobs, vecs, nvec, v0, classes);
    LaneBits live = 0;
    for (unsigned g = 0; g < G; ++g) live |= LaneBits{batch.busy[g]} << (g * W);
    Reg pv[G], mv[G], score[G], last[G];
    load_lanes<V>(batch.pv, batch.mv, batch.score, batch.last, pv, mv, score, last);
    // The steps, with a second row look-up only in batches that need one.
    auto run = [&](auto with_second_text) {
      for (std::uint32_t s = 0; s < len; ++s) {
        LaneBits hit = 0;
        for (unsigned g = 0; g < G; ++g) {
          const Reg eq = batch.template eq<decltype(with_second_text)::value>(g, s);
          hit |= LaneBits{step<V>(eq, pv[g], mv[g], score[g], last[g], kv)} << (g * W);
        }
        if constexpr (kFirstOnly) hit &= live;
        if (hit) {  // rare: write the ends at or below k
          for (unsigned g = 0; g < G; ++g) V::store(sc + g * W, score[g]);
          for (LaneBits h = hit; h; h &= h - 1) {
            const unsigned l = static_cast<unsigned>(__builtin_ctzll(h));
            out[found++] = {batch.job_of[l], s + 1, static_cast<std::int32_t>(sc[l])};
          }
          if constexpr (kFirstOnly) {
            live &= ~hit;
            if (live == 0) return;  // every job has its end (final columns are then undefined)
          }
        }
      }
    };
    if (batch.two_texts) run(std::true_type{});
    else run(std::false_type{});
    store_lanes<V>(pv, mv, score, batch.pv, batch.mv, batch.score);
    batch.finish(final_states);
  }
  return found;
}

// Where V has a shared-text kernel that counts scores instead of tracking them
// (V::kCountedShared: V::scan_shared_counted, kernel_avx512.cpp), a lane's score is checked
// only every kCheckSteps steps, against t = k + kCheckSteps - 1, and a vector with a lane
// that close steps again scoring every step. That pays only where random text rarely comes
// that close: for patterns of at least min(4t - 2, 2t + 8) characters, below which random
// DNA comes within t of a pattern often enough that many vectors would step again (the
// rates, which fall with m - 2t, are in docs/performance.md).
constexpr unsigned kCheckSteps = 4;
// (A template of V, as everything here, so that no kernel object exports it:
// docs/architecture.md, kernels.)
template <class V>
bool counted_pays(const ScanJob* jobs, const SharedVector* vecs, std::size_t nvec, std::int32_t k) {
  const std::int64_t t = std::int64_t{k} + kCheckSteps - 1;
  const std::int64_t least = std::min(4 * t - 2, 2 * t + 8);
  for (std::size_t v = 0; v < nvec; ++v)
    for (std::uint32_t i = 0; i < vecs[v].count; ++i)
      if (jobs[vecs[v].first + i].m < least) return false;
  return true;
}

template <class V, bool kFirstOnly, unsigned G, bool kCounted>
std::size_t scan_shared_batches_of(const ScanJob* jobs, const SharedVector* vecs, std::size_t nvec,
                                   std::int32_t k, JobEnd* out, JobState* final_states) {
  if constexpr (kCounted) return V::template scan_shared_counted<kFirstOnly, G>(jobs, vecs, nvec, k, out, final_states);
  else return scan_shared_batches<V, kFirstOnly, G>(jobs, vecs, nvec, k, out, final_states);
}

// Batches of G vectors, but a last one that would leave more than half of them idle runs on
// G / 2: idle lanes cost as much as busy ones.
template <class V, bool kFirstOnly, unsigned G, bool kCounted>
std::size_t scan_shared_split(const ScanJob* jobs, const SharedVector* vecs, std::size_t nvec,
                              std::int32_t k, JobEnd* out, JobState* final_states) {
  if constexpr (G > 2) {
    const std::size_t wide = nvec % G > G / 2 ? nvec : nvec / G * G;
    std::size_t found = 0;
    if (wide > 0) found = scan_shared_batches_of<V, kFirstOnly, G, kCounted>(jobs, vecs, wide, k, out, final_states);
    if (wide < nvec)
      found += scan_shared_batches_of<V, kFirstOnly, G / 2, kCounted>(jobs, vecs + wide, nvec - wide, k, out + found, final_states);
    return found;
  }
  return scan_shared_batches_of<V, kFirstOnly, G, kCounted>(jobs, vecs, nvec, k, out, final_states);
}

template <class V, bool kFirstOnly>
std::size_t scan_shared_text(const ScanJob* jobs, const SharedVector* vecs, std::size_t nvec,
                             std::int32_t k, JobEnd* out, JobState* final_states) {
  if constexpr (V::kCountedShared) {
    if (V::counted_supported() && counted_pays<V>(jobs, vecs, nvec, k))
      return scan_shared_split<V, kFirstOnly, V::kGroups, true>(jobs, vecs, nvec, k, out, final_states);
  }
  return scan_shared_split<V, kFirstOnly, V::kGroups, false>(jobs, vecs, nvec, k, out, final_states);
}

// The ScanJobsFn of a SIMD kernel. Jobs of one length and number of classes that follow
// each other are packed into vectors in order: a vector takes jobs while they read at most
// two texts, as the jobs of a record's strands for a panel of patterns do. Vectors at least
// half full go to scan_shared_text; the jobs of the others go to scan(), whose lanes take
// jobs of any text.
template <class V, bool kFirstOnly>
std::size_t scan_any(const ScanJob* jobs, std::size_t n, std::int32_t k, JobEnd* out,
                     JobState* final_states) {
  constexpr std::size_t W = V::kLanes;
  thread_local KernelBuffer<SharedVector> vecs;
  vecs.clear();
  for (std::size_t i = 0; i < n;) {
    const std::uint32_t len = jobs[i].len, classes = jobs[i].classes;
    SharedVector v{static_cast<std::uint32_t>(i), 1, 1};
    unsigned texts = 1;
    std::size_t q = i + 1;
    for (; q < n && q - i < W && jobs[q].len == len && jobs[q].classes == classes; ++q) {
      if (jobs[q].text == jobs[q - 1].text) continue;
      if (texts == 2) break;
      ++texts;
      v.split = static_cast<std::uint32_t>(q - i);
    }
    v.count = static_cast<std::uint32_t>(q - i);
    if (texts == 1) v.split = v.count;
    if (classes <= kSharedClasses && 2 * v.count >= W) vecs.push_back(v);
    i = q;
  }
  if (vecs.empty()) return scan<V, kFirstOnly>(jobs, n, k, out, final_states);

  // The shared vectors, a call per run of one length and number of classes; the jobs left
  // over are copied out (per-thread buffers) and scanned together.
  thread_local KernelBuffer<ScanJob> rest;
  thread_local KernelBuffer<std::uint32_t> rest_of;
  thread_local KernelBuffer<JobState> rest_final;
  rest.clear();
  rest_of.clear();
  std::size_t found = 0, next = 0;  // jobs before `next` are in a vector or in rest
  auto rest_until = [&](std::size_t end) {
    for (; next < end; ++next) {
      rest.push_back(jobs[next]);
      rest_of.push_back(static_cast<std::uint32_t>(next));
    }
  };
  for (std::size_t a = 0; a < vecs.size();) {
    std::size_t b = a + 1;
    const ScanJob& first = jobs[vecs[a].first];
    while (b < vecs.size() && jobs[vecs[b].first].len == first.len && jobs[vecs[b].first].classes == first.classes) ++b;
    found += scan_shared_text<V, kFirstOnly>(jobs, vecs.data() + a, b - a, k, out + found, final_states);
    for (std::size_t x = a; x < b; ++x) {
      rest_until(vecs[x].first);
      next = vecs[x].first + vecs[x].count;
    }
    a = b;
  }
  rest_until(n);
  if (rest.empty()) return found;
  rest_final.resize(rest.size());
  const std::size_t got = scan<V, kFirstOnly>(rest.data(), rest.size(), k, out + found, rest_final.data());
  for (std::size_t e = found; e < found + got; ++e) out[e].job = rest_of[out[e].job];
  for (std::size_t q = 0; q < rest.size(); ++q) final_states[rest_of[q]] = rest_final[q];
  return found + got;
}

}  // namespace trawl::jobs
