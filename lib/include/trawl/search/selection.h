#pragma once
// Hit selection (docs/semantics.md §2) as a pure function of the sparse stream of (p, C[p])
// with C[p] <= k, in increasing p. docs/semantics.md §10: the local-minimum rule restarts at
// every run of consecutive ends with cost <= k, so values above k are never needed.
#include <cstdint>
#include <limits>
#include <vector>

#include "trawl/kernel/kernel.h"

namespace trawl {

// Rightmost end of every local minimum (Sassy `search`), fed one end at a time.
class LocalMinimaSelector {
 public:
  // Passes to `emit` (called with an EndCost) the ends that become decided by seeing
  // (p, cost).
  template <class Emit>
  void push(std::uint64_t p, std::int32_t cost, Emit&& emit) {
    if (has_prev_ && p == prev_pos_ + 1) {
      if (decreasing_ && cost > prev_cost_) emit(EndCost{prev_pos_, prev_cost_});
      decreasing_ = cost < prev_cost_ || (decreasing_ && cost == prev_cost_);
    } else {
      // A new run: the value before it is > k (or there is none), a strict decrease.
      if (has_prev_ && decreasing_) emit(EndCost{prev_pos_, prev_cost_});
      decreasing_ = true;
    }
    prev_pos_ = p;
    prev_cost_ = cost;
    has_prev_ = true;
  }
  // Ends the stream; `last` is the last end position of the text (n, or n + S with
  // overhang). Resets the selector for reuse.
  template <class Emit>
  void finish(std::uint64_t last, Emit&& emit) {
    if (has_prev_ && decreasing_ && !(prev_pos_ == last && last == 0)) emit(EndCost{prev_pos_, prev_cost_});
    has_prev_ = false;
  }
  void push(std::uint64_t p, std::int32_t cost, std::vector<EndCost>& out) {
    push(p, cost, [&out](const EndCost& e) { out.push_back(e); });
  }
  void finish(std::uint64_t last, std::vector<EndCost>& out) {
    finish(last, [&out](const EndCost& e) { out.push_back(e); });
  }

 private:
  // The previous end, kept as two fields rather than an EndCost: an EndCost written field by
  // field and then copied whole is a 16-byte load from two smaller stores, which the CPU
  // cannot forward (a stall of many cycles per end in dense outputs).
  std::uint64_t prev_pos_ = 0;
  std::int32_t prev_cost_ = 0;
  bool has_prev_ = false;
  bool decreasing_ = true;
};

// How many ends LocalMinimaSelector reports, without keeping them (count).
class LocalMinimaCounter {
 public:
  void push(std::uint64_t p, std::int32_t cost) {
    selector_.push(p, cost, [this](const EndCost&) { ++count_; });
  }
  // Ends the stream (see LocalMinimaSelector::finish) and returns the count.
  std::uint32_t finish(std::uint64_t last) {
    selector_.finish(last, [this](const EndCost&) { ++count_; });
    return count_;
  }

 private:
  LocalMinimaSelector selector_;
  std::uint32_t count_ = 0;
};

// --best's one rule: of two hits of one strand, the better has the lower cost, ties going
// to the larger end in the strand's orientation.
inline bool best_before(std::int32_t cost_a, std::uint64_t end_a, std::int32_t cost_b, std::uint64_t end_b) {
  return cost_a != cost_b ? cost_a < cost_b : end_a > end_b;
}

// Which runs of ends with cost <= k a scan answers for, in the strand's end positions: all
// of them (a whole record), or those starting (forward) or ending (reverse) in [a, b) (a
// window of a long record; every run has exactly one owner).
enum class Own : std::uint8_t { all, runs_starting_in, runs_ending_in };
struct Ownership {
  static constexpr std::uint64_t kOpen = std::numeric_limits<std::uint64_t>::max();
  Own kind = Own::all;
  std::uint64_t a = 0, b = kOpen;  // [a, b)
};

// The ends of one strand scan, fed in increasing position, into `selected`: the runs the
// ownership gives this scan, and of those only the local minima where `minima`. An end
// before `exact_from` (a scan started inside the text is exact only from m + k on) is not
// seen; a run an ending-in window owns that reaches back to `exact_from` cannot be placed
// (need_more: the scan must start earlier).
class EndCollector {
 public:
  EndCollector(Ownership own, std::uint64_t exact_from, bool minima, std::vector<EndCost>& run,
               std::vector<EndCost>& selected)
      : own_(own), exact_from_(exact_from), minima_(minima), run_(run), selected_(selected) {}

  void take(const EndCost& e) {
    if (minima_) selector_.push(e.pos, e.cost, selected_);
    else selected_.push_back(e);
  }
  void on_end(std::uint64_t p, std::int32_t cost) {
    if (p < exact_from_) return;
    if (!run_open_ || p != run_last_ + 1) {
      close_run();
      run_open_ = true;
      run_first_ = p;
      run_.clear();
      run_owned_ = own_.kind == Own::all || (own_.kind == Own::runs_starting_in && p >= own_.a && p < own_.b);
    }
    run_last_ = p;
    if (own_.kind == Own::runs_ending_in) run_.push_back({p, cost});
    else if (run_owned_) take({p, cost});
  }
  void close_run() {
    if (!run_open_) return;
    run_open_ = false;
    if (own_.kind != Own::runs_ending_in) return;
    if (run_last_ < own_.a || run_last_ >= own_.b) return;
    // Owned, but where it starts is unknown if it reaches back to the first exact end.
    if (run_first_ == exact_from_ && exact_from_ > 0) {
      need_more_ = true;
      return;
    }
    for (const EndCost& e : run_) take(e);
  }
  // The scan has passed `scanned`: a run that ended before it is complete.
  void close_run_before(std::uint64_t scanned) {
    if (run_open_ && run_last_ < scanned) close_run();
  }
  // Everything owned is decided once the scan has passed b (and, for runs starting in the
  // window, finished the one it owns that crosses b).
  bool decided(std::uint64_t scanned) const {
    if (own_.kind == Own::all || own_.b == Ownership::kOpen || scanned < own_.b) return false;
    if (run_open_ && run_last_ == scanned) {
      if (own_.kind == Own::runs_ending_in) return true;  // a run reaching b is not owned
      return !run_owned_;
    }
    return true;
  }
  bool need_more() const { return need_more_; }
  // Ends the stream at the text's last end position.
  void finish(std::uint64_t last) {
    if (minima_) selector_.finish(last, selected_);
  }

 private:
  const Ownership own_;
  const std::uint64_t exact_from_;
  const bool minima_;
  std::vector<EndCost>& run_;  // the open run, while its ownership is undecided
  std::vector<EndCost>& selected_;
  LocalMinimaSelector selector_;
  bool run_open_ = false, run_owned_ = false, need_more_ = false;
  std::uint64_t run_first_ = 0, run_last_ = 0;
};

}  // namespace trawl
