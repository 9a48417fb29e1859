# Shared by scripts/bench_*.sh (sourced, not run). Needs: NAME (for messages), WORK (a
# scratch folder) and reps (runs per point) set by the caller.

# measure OUT CMD...: runs CMD (stdout to /dev/null) and writes "seconds maxrss_kb" to OUT;
# returns CMD's exit status (stderr in $WORK/stderr). Max RSS from GNU time when present, wall
# seconds from bash's clock around it (GNU time's %e has 0.01 s steps, too coarse for runs of
# 0.1-0.2 s; the clock adds only GNU time's own start, about a millisecond); otherwise a
# python3 stand-in with the same output, else bash's clock alone (max RSS 0).
measure() {
  local out=$1; shift
  local rc=0
  if [[ -x /usr/bin/time ]]; then
    local t0=${EPOCHREALTIME/,/.}
    /usr/bin/time -f '%M' -o "$out.rss" "$@" >/dev/null 2>"$WORK/stderr" || rc=$?
    local t1=${EPOCHREALTIME/,/.}
    awk -v a="$t0" -v b="$t1" -v k="$(tail -n 1 "$out.rss")" 'BEGIN { printf "%.3f %d\n", b - a, k }' > "$out"
    rm -f "$out.rss"
  elif command -v python3 > /dev/null; then
    python3 -c '
import os, sys, time
t = time.monotonic(); pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
_, st, ru = os.wait4(pid, 0)
open(sys.argv[1], "w").write("%.3f %d\n" % (time.monotonic() - t, ru.ru_maxrss))
sys.exit(os.WEXITSTATUS(st) if os.WIFEXITED(st) else 128 + os.WTERMSIG(st))
' "$out" "$@" >/dev/null 2>"$WORK/stderr" || rc=$?
  else
    local t0=$EPOCHREALTIME
    "$@" >/dev/null 2>"$WORK/stderr" || rc=$?
    awk -v a="${t0/,/.}" -v b="${EPOCHREALTIME/,/.}" 'BEGIN { printf "%.3f 0\n", b - a }' > "$out"
  fi
  tail -n 1 "$out" > "$out.last" && mv "$out.last" "$out"
  return "$rc"
}

# timed_reps CMD...: sets SEC (median of $reps runs) and KB (largest max RSS); exits on failure.
# (interleaved_reps with a single variant; CMD holds no "{}".)
timed_reps() {
  local -A ISEC=() IKB=()
  interleaved_reps one -- "$@"
  SEC=${ISEC[one]}
  KB=${IKB[one]}
}

# interleaved_reps NAMES -- CMD...: for every name in NAMES (a space-separated string) runs
# CMD with each argument "{}" replaced by the name, one run per name per round, $reps rounds,
# so a machine whose speed drifts during the table slows every variant alike. Sets
# ISEC[name] (median seconds) and IKB[name] (largest max RSS); exits on failure. The caller
# declares `declare -A ISEC IKB`.
interleaved_reps() {
  local names=$1; shift
  [[ $1 == -- ]] && shift
  local -A all=()
  local i name rc s k a
  local -a cmd
  for name in $names; do IKB[$name]=0; done
  for ((i = 0; i < reps; i++)); do
    for name in $names; do
      cmd=()
      for a in "$@"; do if [[ $a == "{}" ]]; then cmd+=("$name"); else cmd+=("$a"); fi; done
      rc=0
      measure "$WORK/t" "${cmd[@]}" || rc=$?
      if ((rc != 0)); then
        echo "$NAME: command failed (exit $rc): ${cmd[*]}" >&2
        cat "$WORK/stderr" >&2
        exit 1
      fi
      read -r s k < "$WORK/t"
      all[$name]+="$s "
      if ((k > IKB[$name])); then IKB[$name]=$k; fi
    done
  done
  for name in $names; do
    # shellcheck disable=SC2086  # word splitting of the list is intended
    ISEC[$name]=$(printf '%s\n' ${all[$name]} | sort -g | sed -n "$(( (reps + 1) / 2 ))p")
  done
}
