/**
 * What zsh offers on TAB, without a terminal: a zsh in a zpty (zsh's pseudo-terminal module)
 * with the completion system and a script loaded, `compadd` wrapped to print each match, one
 * TAB typed. The matches are read back between two NUL lines (printed before and after the
 * completion widget), then the inner shell exits.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";

const CAPTURE = `PROMPT=
autoload -Uz compinit && compinit -u -d "$AMX_ZCOMPDUMP"
source "$AMX_SCRIPT"
bindkey '^I' complete-word
_amx_null_line() { echo -E - $'\\0' }
compprefuncs=( _amx_null_line )
comppostfuncs=( _amx_null_line exit )
zstyle ':completion:*' insert-tab false
compadd() {
  # the completion system's own queries (-O, -A, -D: into arrays) are not matches
  if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then
    builtin compadd "$@"
    return $?
  fi
  local -a hits
  builtin compadd -A hits "$@"
  (( $#hits )) && print -rl -- "\${hits[@]}"
  return 0
}
echo capture-ready
`;

const DRIVE = `zmodload zsh/zpty
zpty amx zsh -f -i
zpty -w amx "source \${(q)AMX_CAPTURE}"
zpty -r amx line '*capture-ready*'
zpty -w amx "$1"$'\\t'
zpty -r amx out '*'$'\\0''*'$'\\0'
print -rn -- "$out"
zpty -d amx
`;

/** Writes the harness into `dir`; returns a function giving the sorted matches for a command line typed in `cwd`. */
export function zshCompleter(dir: string, script: string): (line: string, cwd: string, env?: Record<string, string>) => string[] {
  const capture = join(dir, "zsh-capture.zsh");
  const drive = join(dir, "zsh-drive.zsh");
  writeFileSync(capture, CAPTURE);
  writeFileSync(drive, DRIVE);
  return (line, cwd, env = {}) => {
    const p = Bun.spawnSync(["zsh", "-f", drive, line], {
      cwd,
      env: { ...process.env, ...env, AMX_CAPTURE: capture, AMX_SCRIPT: script, AMX_ZCOMPDUMP: join(dir, "zcompdump") },
      stdout: "pipe",
      stderr: "pipe",
      timeout: 15_000,
    });
    const parts = p.stdout.toString().split("\0");
    if (parts.length < 3) throw new Error(`zsh completion of ${JSON.stringify(line)} gave no answer (exit ${p.exitCode}): ${p.stdout}${p.stderr}`);
    return parts[1]!
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean)
      .sort();
  };
}
