#pragma once
// Hit selection (SPEC §2) as a pure function of the sparse stream of (p, C[p]) with
// C[p] <= k, in increasing p. DESIGN §3: the local-minimum rule restarts at every run of
// consecutive ends with cost <= k, so values above k are never needed.
#include <cstdint>
#include <vector>

#include "trawl/kernel.h"

namespace trawl {

// Rightmost end of every local minimum (Sassy `search`), fed one end at a time.
class LocalMinimaSelector {
 public:
  // Appends to `out` the ends that become decided by seeing (p, cost).
  void push(std::uint64_t p, std::int32_t cost, std::vector<EndCost>& out) {
    if (has_prev_ && p == prev_.pos + 1) {
      if (decreasing_ && cost > prev_.cost) out.push_back(prev_);
      decreasing_ = cost < prev_.cost || (decreasing_ && cost == prev_.cost);
    } else {
      // A new run: the value before it is > k (or there is none), a strict decrease.
      if (has_prev_ && decreasing_) out.push_back(prev_);
      decreasing_ = true;
    }
    prev_ = {p, cost};
    has_prev_ = true;
  }
  // Ends the stream; `last` is the last end position of the text (n, or n + S with
  // overhang). Resets the selector for reuse.
  void finish(std::uint64_t last, std::vector<EndCost>& out) {
    if (has_prev_ && decreasing_ && !(prev_.pos == last && last == 0)) out.push_back(prev_);
    has_prev_ = false;
  }

 private:
  EndCost prev_{0, 0};
  bool has_prev_ = false;
  bool decreasing_ = true;
};

}  // namespace trawl
