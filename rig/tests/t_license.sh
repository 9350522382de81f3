#!/bin/sh
# LICENSE says what the SPDX-License-Identifier lines of the tree say: the GPL version 2
# text, the identifier of brnf's own files (GPL-2.0, each one), and every identifier
# a kernel patch adds. No root or network needed.
set -eu
. "$(dirname "$0")/lib.sh"
checktool git
L=$TOPDIR/LICENSE

check "LICENSE: the GNU GPL version 2" sh -c "grep -q 'GNU GENERAL PUBLIC LICENSE' '$L' &&
	grep -q 'Version 2, June 1991' '$L'"
check "LICENSE: names GPL-2.0 as brnf's license" grep -q 'SPDX-License-Identifier: GPL-2.0)' "$L"
# brnf's own files: every identifier GPL-2.0
git -C "$TOPDIR" grep --untracked -n 'SPDX-License-Identifier:' -- . ':!patches' ':!LICENSE' ':!rig/tests/t_license.sh' |
	grep -v 'SPDX-License-Identifier: GPL-2.0\( \|$\|\*\)' > "$TMPD/other" || true
check "brnf's files: $(git -C "$TOPDIR" grep --untracked -l 'SPDX-License-Identifier:' -- . ':!patches' ':!LICENSE' ':!rig/tests/t_license.sh' |
	wc -l) say GPL-2.0, none another license" test ! -s "$TMPD/other"
sed 's/^/# /' "$TMPD/other" | head -n 5
# the patches: what they add, and the files of Linux they change, are named in LICENSE
git -C "$TOPDIR" grep -h '^+.*SPDX-License-Identifier:' -- patches |
	sed 's/.*SPDX-License-Identifier: *\([^ *]*\).*/\1/' | sort -u > "$TMPD/ids"
check "the patches add SPDX lines ($(tr '\n' ' ' < "$TMPD/ids"))" test -s "$TMPD/ids"
while read -r id; do
	check "LICENSE names $id, which a patch adds" grep -q -- "$id" "$L"
done < "$TMPD/ids"
