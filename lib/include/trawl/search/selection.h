#pragma once
// Hit selection (SPEC §2) as a pure function of the sparse stream of (p, C[p]) with
// C[p] <= k, in increasing p. DESIGN §3: the local-minimum rule restarts at every run of
// consecutive ends with cost <= k, so values above k are never needed.
#include <cstdint>
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

}  // namespace trawl
