#!/bin/sh
# The controller's layering (rig/README.md, "rig/src"): no #include cycle between
# its modules (X.c and X.h are one module; a cycle, as brflags <-> link had, means
# two layers that cannot be read or changed apart), libmnl only behind nl.c, and
# the AP's backends chosen in one place (ap_init), not by `native` branches.
set -eu
. "$(dirname "$0")/lib.sh"
checktool tsort
SRC=$TOPDIR/rig/src

# "module header" for every #include "header.h" of another module
for f in "$SRC"/*.c "$SRC"/*.h; do
	m=$(basename "$f")
	m=${m%.*}
	sed -n 's/^#include "\(.*\)\.h".*/\1/p' "$f" | while read -r d; do
		[ "$d" = "$m" ] || echo "$m $d"
	done
done | sort -u > "$TMPD/deps"
check "rig/src: $(wc -l < "$TMPD/deps") include edges between modules" test -s "$TMPD/deps"
if tsort "$TMPD/deps" > /dev/null 2> "$TMPD/loop"; then
	ok "rig/src: no #include cycle between modules"
else
	not_ok "rig/src: no #include cycle between modules"
	sed 's/^/# /' "$TMPD/loop"
fi

(cd "$SRC" && grep -l -E '\<mnl_[a-z_]+ *\(|<libmnl/' -- *.c *.h) > "$TMPD/mnl" || true
check "rig/src: only nl.c calls or includes libmnl ($(tr '\n' ' ' < "$TMPD/mnl"))" \
	test "$(cat "$TMPD/mnl")" = nl.c
check "rig/src: no ap->native branches (one struct ap_ops, chosen in ap_init)" \
	sh -c "! grep -n -E '(->|\\.)native\\>' '$SRC'/*.c '$SRC'/*.h"
