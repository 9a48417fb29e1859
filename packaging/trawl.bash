# bash completion for trawl: subcommands, then each subcommand's options as its own --help
# lists them (so the completion follows the binary it completes), then file names.
_trawl() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
  local trawl=${COMP_WORDS[0]}
  if ((COMP_CWORD == 1)); then
    local commands
    commands=$("$trawl" --help 2>/dev/null | awk '/^Subcommands:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {exit}')
    mapfile -t COMPREPLY < <(compgen -W "$commands --help --version" -- "$cur")
    return
  fi
  local help
  help=$("$trawl" "${COMP_WORDS[1]}" --help 2>/dev/null)
  # An option with a fixed set of values, e.g. "--alphabet TEXT:{iupac,dna,ascii}".
  local values
  values=$(printf '%s\n' "$help" | grep -oE -- "(^|[ ,])$prev(,[^ ]*)? [A-Z]+:\{[^}]*\}" | head -1 | sed 's/.*{//; s/}.*//; s/,/ /g')
  if [[ -n $values && $prev == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$values" -- "$cur")
    return
  fi
  if [[ $cur == -* ]]; then
    local options
    options=$(printf '%s\n' "$help" | grep -oE -- '(^|[ ,])--?[A-Za-z0-9][A-Za-z0-9-]*' | tr -d ' ,' | sort -u)
    mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
    return
  fi
  mapfile -t COMPREPLY < <(compgen -f -- "$cur")
}
complete -o filenames -F _trawl trawl
