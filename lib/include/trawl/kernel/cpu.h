#pragma once
// The CPU's instruction-set extensions, probed once for the whole program: every choice of a
// code path by the CPU (kernels, look-ups, the traceback, the reader's line index) reads
// them here, so no two parts can disagree about what the CPU has.

namespace trawl {

struct CpuFeatures {
  bool popcnt = false;
  bool avx2 = false;
  bool avx512f = false;
  bool avx512bw = false;
  bool avx512bitalg = false;
  bool avx512vbmi = false;
  bool avx512vpopcntdq = false;
};

// The features of the CPU this runs on (all false off x86-64). The probe runs on the first
// call (thread-safe); later calls only read it. Callers on a hot path keep the bit they need
// in a static of their own.
const CpuFeatures& cpu_features();

}  // namespace trawl
