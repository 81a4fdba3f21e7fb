#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The documentation renders and names what the tool has:
# - every Documentation/*.rst renders with docutils at warning level (a
#   broken table or literal is an error a reader sees, not a style nit);
# - every man page formats with groff without a warning;
# - every command `rocetune help` lists has its own entry under COMMANDS
#   in rocetune(8) and is offered by the bash completion.
# The command list comes from the built tool, so a command added without
# its page or completion fails here.

# shellcheck disable=SC2317 # the t_* checks run through tap_ok
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/selftests/lib/tap.sh"

TOOL=$TOP/tools/rocetune/rocetune
MAN=$TOP/Documentation/man
COMP=$TOP/tools/rocetune/rocetune.bash-completion
RST2HTML=$(command -v rst2html || command -v rst2html.py || true)

[ -d "$TOP/Documentation" ] || tap_skip_all "no Documentation/ (installed tests)"
[ -x "$TOOL" ] || tap_skip_all "tools/rocetune not built (make all)"

t_rst() {
	local out
	# --halt=2: stop with an error status on the first warning
	out=$("$RST2HTML" --halt=2 --report=2 --no-datestamp "$1" /dev/null 2>&1) ||
		{ printf '%s\n' "$out"; return 1; }
}

t_man() {
	local out
	out=$(LC_ALL=C.UTF-8 groff -man -ww -Tutf8 -z "$1" 2>&1)
	[ -z "$out" ] || { printf '%s\n' "$out"; return 1; }
}

# The commands the tool itself lists: "  rocetune NAME ..." usage lines.
commands() {
	"$TOOL" help | sed -n 's/^  rocetune \([a-z][a-z-]*\).*/\1/p' | sort -u
}

# t_man_has CMD: rocetune(8) has ".B CMD" (or ".BR CMD") as an item of
# its COMMANDS section.
t_man_has() {
	sed -n '/^\.SH COMMANDS/,/^\.SH /p' "$MAN/rocetune.8" |
		grep -Eq "^\.BR? \"?$1( |\"|$)"
}

# t_comp_has CMD: the completion's command list names CMD.
t_comp_has() {
	grep -E '^[[:space:]]*local cmds=' "$COMP" | grep -Eq "[\" ]$1[\" ]"
}

mapfile -t CMDS < <(commands)
mapfile -t RSTS < <(ls "$TOP"/Documentation/*.rst)
mapfile -t PAGES < <(ls "$MAN"/*.[1-8])

[ ${#CMDS[@]} -ge 5 ] || tap_bail "rocetune help listed ${#CMDS[@]} commands: cannot parse its usage"

tap_header
tap_plan $(( ${#RSTS[@]} + ${#PAGES[@]} + 2 * ${#CMDS[@]} ))

for f in "${RSTS[@]}"; do
	if [ -z "$RST2HTML" ]; then
		tap_skip "${f#"$TOP"/} renders" "rst2html not installed (python3-docutils)"
	else
		tap_ok "${f#"$TOP"/} renders without docutils warnings" t_rst "$f"
	fi
done
for f in "${PAGES[@]}"; do
	tap_ok "${f#"$TOP"/} formats without groff warnings" t_man "$f"
done
for c in "${CMDS[@]}"; do
	tap_ok "rocetune(8) COMMANDS documents '$c'" t_man_has "$c"
	tap_ok "bash completion offers '$c'" t_comp_has "$c"
done
tap_done
