#!/bin/sh
# The controller's layering (rig/README.md, "rig/src"): no #include cycle between
# its modules (X.c and X.h are one module; a cycle, as brflags <-> link had, means
# two layers that cannot be read or changed apart), and no call cycle either (read
# from the objects' symbols: cells.c and cmd_run.c called each other without any
# include cycle), libmnl only behind nl.c, brnf-storm's netlink talk through nl.c
# as well, and the AP's backends chosen in one place (ap_init), not by `native`
# branches.
set -eu
. "$(dirname "$0")/lib.sh"
checktool tsort nm
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
# no_cycle "what" EDGES: ok when the "from to" lines of EDGES have no cycle
no_cycle() {
	if tsort "$2" > /dev/null 2> "$TMPD/loop"; then
		ok "$1"
	else
		not_ok "$1"
		sed 's/^/# /' "$TMPD/loop"
	fi
}
no_cycle "rig/src: no #include cycle between modules" "$TMPD/deps"

# "caller callee" for every symbol a module's object uses that another one defines
OBJ=$(cd "$(dirname "$BRNF")/../rig" && pwd)
for o in "$OBJ"/*.o; do
	m=$(basename "$o" .o)
	nm --defined-only -g "$o" | awk -v m="$m" 'NF == 3 { print $3, m }'
done | sort > "$TMPD/defs"
for o in "$OBJ"/*.o; do
	m=$(basename "$o" .o)
	nm -u "$o" | awk -v m="$m" '{ print $2, m }'
done | sort > "$TMPD/uses"
join "$TMPD/uses" "$TMPD/defs" | awk '$2 != $3 { print $2, $3 }' | sort -u > "$TMPD/calls"
check "rig/src: $(wc -l < "$TMPD/calls") call edges between modules (from $OBJ)" test -s "$TMPD/calls"
no_cycle "rig/src: no call cycle between modules" "$TMPD/calls"

(cd "$SRC" && grep -l -E '\<mnl_[a-z_]+ *\(|<libmnl/' -- *.c *.h) > "$TMPD/mnl" || true
check "rig/src: only nl.c calls or includes libmnl ($(tr '\n' ' ' < "$TMPD/mnl"))" \
	test "$(cat "$TMPD/mnl")" = nl.c
check "rig/src: no ap->native branches (one struct ap_ops, chosen in ap_init)" \
	sh -c "! grep -n -E '(->|\\.)native\\>' '$SRC'/*.c '$SRC'/*.h"
check "rig/storm: talks netlink through nl.c (nl_talk), no mnl_socket_* or mnl_cb_run* of its own" \
	sh -c "! grep -n -E '\\<mnl_(socket_[a-z_]+|cb_run2?) *\\(' '$TOPDIR'/rig/storm/*.c"
