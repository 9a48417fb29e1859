#!/usr/bin/env bash
# Installs the build into a scratch prefix and packs it as a .deb: the binary runs, the man
# page (from the binary's --help) renders without a warning and has every subcommand, the bash
# completion completes subcommands, options and option values, and the .deb holds all three
# with its library dependencies filled in.
# Usage: tests/packaging/check_package.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$scratch/usr" >/dev/null
"$scratch/usr/bin/trawl" --version | grep -qx '[0-9][0-9.]*' || fail "installed trawl --version"
man_page=$scratch/usr/share/man/man1/trawl.1
[ -f "$man_page" ] || fail "no man page at $man_page (is help2man installed?)"
warnings=$(MANWIDTH=80 man --warnings -l "$man_page" 2>&1 >/dev/null || true)
[ -z "$warnings" ] || fail "man page warnings: $warnings"
for c in HITS COUNT CONTAINS FILTER; do grep -q "COMMAND $c" "$man_page" || fail "man page lacks $c"; done
completion=$scratch/usr/share/bash-completion/completions/trawl
[ -f "$completion" ] || fail "no bash completion"

# Completion, as bash would ask for it.
complete_at() {
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _trawl; echo "${COMPREPLY[*]}"' _ "$completion" "$@"
}
bin=$scratch/usr/bin/trawl
[ "$(complete_at "$bin" fi)" = filter ] || fail "subcommand completion: $(complete_at "$bin" fi)"
[ "$(complete_at "$bin" filter --compress-l)" = --compress-level ] || fail "option completion"
[ "$(complete_at "$bin" hits -a "")" = "iupac dna ascii" ] || fail "value completion: $(complete_at "$bin" hits -a "")"

# The .deb.
(cd "$build" && cpack -G DEB -B "$scratch/deb" >/dev/null)
deb=$(ls "$scratch"/deb/trawl_*.deb)
contents=$(dpkg-deb -c "$deb")
for f in ./usr/bin/trawl ./usr/share/man/man1/trawl.1 ./usr/share/bash-completion/completions/trawl; do
  grep -q " $f\$" <<<"$contents" || fail "the .deb lacks $f"
done
depends=$(dpkg-deb -f "$deb" Depends)
grep -q libhts <<<"$depends" || fail "the .deb's Depends lacks htslib: $depends"
echo "packaging: installed, man page, completion and $(basename "$deb") ok"
