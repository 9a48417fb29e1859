#!/usr/bin/env bash
# The SIMD kernel objects are compiled with -mavx2 / -mavx512f (docs/architecture.md §3). An
# inline function or template they instantiate (a std::vector member, say) is emitted as a
# weak symbol, and the linker keeps one copy for the whole program: if that copy holds AVX
# instructions, generic code calling it would crash on a CPU without them. This fails when a
# weak symbol defined in a kernel object contains a VEX/EVEX instruction or a ymm, zmm or
# mask register.
# Usage: check_weak_symbols.sh OBJECT... (the kernel objects are picked by name).
set -euo pipefail
status=0
checked=0
for obj in "$@"; do
  case $(basename "$obj") in kernel_avx*) ;; *) continue ;; esac
  checked=$((checked + 1))
  # Weak code symbols (W), mangled: the disassembler looks them up by these names.
  while read -r sym; do
    bad=$(objdump -d --no-show-raw-insn --disassemble="$sym" "$obj" |
          grep -P '^\s+[0-9a-f]+:\s+v[a-z]|%[yz]mm|%k[0-7]' || true)
    if [[ -n $bad ]]; then
      echo "$(basename "$obj"): weak symbol $(echo "$sym" | c++filt) holds AVX instructions:" >&2
      echo "$bad" | head -5 >&2
      status=1
    fi
  done < <(nm --defined-only "$obj" | awk '$2 == "W" {print $3}')
done
if [[ $checked -eq 0 ]]; then
  echo "check_weak_symbols: no kernel_avx* object among the arguments" >&2
  exit 1
fi
[[ $status -eq 0 ]] && echo "check_weak_symbols: $checked kernel objects, no AVX code in weak symbols"
exit $status
