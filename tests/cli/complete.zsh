# SPDX-License-Identifier: MIT
# zsh -f tests/cli/complete.zsh 'LINE': the matches zsh's completion system
# (compinit, completions/zsh on $fpath) offers at the end of LINE, one a
# line.  An interactive zsh on a pseudo-terminal (zsh/zpty) gets LINE and a
# TAB; compadd is wrapped to print what each call adds that matches the
# word being completed (compadd -O: the matching without adding).
zmodload zsh/zpty || exit 2
top=$PWD
zpty z zsh -f -i || exit 2
zpty -w z "PS1= PROMPT= RPROMPT=; unsetopt zle_bracketed_paste 2>/dev/null
fpath=($top/completions/zsh \$fpath); autoload -Uz compinit; compinit -u -D
compadd() { if (( \${@[(I)-[OAD]]} )); then builtin compadd \"\$@\"; return; fi
  local -a __m; builtin compadd -O __m \"\$@\"; (( \$#__m )) && print -rl -- \"@\"\"@M:\"\${^__m}; builtin compadd \"\$@\"; }
_t_done() { print -r -- \"@\"\"@E\"; }
zstyle ':completion:*' insert-tab false
print -r -- \"@\"\"@R\""
# wait for the shell to be set up, then complete LINE
integer n=0
local line out
while (( n++ < 200 )); do
	zpty -rt z line || { sleep 0.05; continue }
	[[ $line == *@@R* ]] && break
done
zpty -w z "comppostfuncs=(_t_done)"
zpty -wn z "$1"$'\t'
n=0
while (( n++ < 200 )); do
	zpty -rt z line || { sleep 0.05; continue }
	line=${line//[$'\r\n']/}
	[[ $line == *@@E* ]] && { zpty -d z; print -rn -- "$out"; exit 0 }
	[[ $line == *@@M:* ]] && out+="${line##*@@M:}"$'\n'
done
zpty -d z
print -u2 "no completion within 10 s"
exit 1
