#!/bin/sh
# The controller's layering (rig/README.md, "rig/src"), in rig/src and in brnf-storm's
# rig/storm: no #include cycle between modules (X.c and X.h are one module; a cycle, as
# brflags <-> link had, means two layers that cannot be read or changed apart), and no
# call cycle either (read from the objects' symbols: cells.c and cmd_run.c called each
# other without any include cycle); libmnl only behind nl.h, in nl.c and nl_msg.c, in
# every directory of C (by source and by the objects' undefined symbols); the AP's
# backends chosen in one place (ap_init), not by `native` branches; the data side,
# rig/src/data (libbrnfdata.a), includes none of the run side's headers: nothing
# outside its own directory but the generated rulesets.inc. Each check is first
# shown to fail on what it must catch, planted in a directory of its own: a check that
# cannot fail proves nothing.
set -eu
. "$(dirname "$0")/lib.sh"
checktool tsort nm cc git
SRC=$TOPDIR/rig/src
DATA=$SRC/data
STORM=$TOPDIR/rig/storm

# include_edges DIR: "module header" for every #include "header.h" of another module
include_edges() {
	for _f in "$1"/*.c "$1"/*.h; do
		[ -f "$_f" ] || continue
		_m=$(basename "$_f")
		_m=${_m%.*}
		sed -n 's/^#include "\(.*\)\.h".*/\1/p' "$_f" | while read -r _d; do
			[ "$_d" = "$_m" ] || echo "$_m $_d"
		done
	done | sort -u
}
# outside_includes DIR: "file: header" for every #include "header" of DIR/*.[ch] that
# is not a file of DIR itself (a path with a / never is), rulesets.inc aside (made by
# scripts/ruleset-facts into the build directory)
outside_includes() {
	for _f in "$1"/*.c "$1"/*.h; do
		[ -f "$_f" ] || continue
		sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\(.*\)".*/\1/p' "$_f" |
			while read -r _h; do
				case $_h in
				rulesets.inc) ;;
				*/*) echo "$(basename "$_f"): $_h" ;;
				*) [ -f "$1/$_h" ] || echo "$(basename "$_f"): $_h" ;;
				esac
			done
	done
}
# call_edges OBJ...: "caller callee" for every symbol an object uses that another
# one of them defines
call_edges() {
	for _o in "$@"; do
		nm --defined-only -g "$_o" | awk -v m="$(basename "$_o" .o)" 'NF == 3 { print $3, m }'
	done | sort > "$TMPD/defs"
	for _o in "$@"; do
		nm -u "$_o" | awk -v m="$(basename "$_o" .o)" '{ print $2, m }'
	done | sort > "$TMPD/uses"
	join "$TMPD/uses" "$TMPD/defs" | awk '$2 != $3 { print $2, $3 }' | sort -u
}
# has_cycle EDGES: true when the "from to" lines of file EDGES have a cycle (tsort's
# report of it in $TMPD/loop)
has_cycle() { ! tsort "$1" > /dev/null 2> "$TMPD/loop"; }
# no_cycle "what" EDGES
no_cycle() {
	if has_cycle "$2"; then
		not_ok "$1"
		sed 's/^/# /' "$TMPD/loop"
	else
		ok "$1"
	fi
}
# mnl_sources DIR...: the C files under DIR... that call libmnl or include it
mnl_sources() {
	grep -r -l -E --include='*.[ch]' '\<mnl_[a-z_0-9]+ *\(|<libmnl/' "$@" | sort -u || true
}
# mnl_objects OBJ...: the objects with an undefined libmnl symbol
mnl_objects() {
	for _o in "$@"; do
		! nm -u "$_o" | grep -q ' mnl_' || basename "$_o"
	done
}
# objects DIR OUT: DIR/*.c compiled into OUT/*.o, for their symbols
objects() {
	mkdir -p "$2"
	for _c in "$1"/*.c; do
		cc -std=gnu11 -c -I"$TOPDIR/rig/src" -I"$TOPDIR/rig/src/data" -I"$1" \
			$(pkg-config --cflags libmnl json-c 2>/dev/null) \
			-o "$2/$(basename "$_c" .c).o" "$_c" || return 1
	done
}

# --- the checks, on planted faults first
P=$TMPD/plant
mkdir -p "$P/inc" "$P/calls" "$P/mnl/src" "$P/mnl/other" "$P/src/data"
printf '#include "b.h"\n' > "$P/inc/a.c"
printf '#include "a.h"\n' > "$P/inc/b.c"
: > "$P/inc/a.h"
: > "$P/inc/b.h"
include_edges "$P/inc" > "$TMPD/plant.inc"
check "planted: an include cycle a.c <-> b.c is found" has_cycle "$TMPD/plant.inc"
# the issue's example: each calls the other, neither includes the other's header
printf 'void run_testbed_renew(void);\nvoid run_cells(void) { run_testbed_renew(); }\n' \
	> "$P/calls/cells.c"
printf 'void run_cells(void);\nvoid run_testbed_renew(void) { run_cells(); }\n' \
	> "$P/calls/cmd_run.c"
objects "$P/calls" "$P/calls"
include_edges "$P/calls" > "$TMPD/plant.inc2"
call_edges "$P/calls"/*.o > "$TMPD/plant.calls"
check "planted: cells.c and cmd_run.c include nothing of each other" test ! -s "$TMPD/plant.inc2"
check "planted: the call cycle cells.c <-> cmd_run.c is found" has_cycle "$TMPD/plant.calls"
printf '#include <libmnl/libmnl.h>\n' > "$P/mnl/src/ok.c"
printf 'void f(void *nlh) { mnl_attr_parse(nlh, 0, 0, 0); }\n' > "$P/mnl/other/walk.c"
check "planted: a libmnl call outside the door is found" \
	test "$(mnl_sources "$P/mnl" | sed "s|$P/mnl/||" | tr '\n' ' ')" = "other/walk.c src/ok.c "
# data/raw.c including its own header and the generated table (fine), a run-side
# header found through -I rig/src and one reached through the parent directory (not)
: > "$P/src/netns.h"
printf '#include "raw.h"\n#include "rulesets.inc"\n#include "netns.h"\n' > "$P/src/data/raw.c"
printf '#include <stdio.h>\n # include "../netns.h"\n' > "$P/src/data/raw.h"
check "planted: data/ including netns.h and ../netns.h is found" \
	test "$(outside_includes "$P/src/data" | tr '\n' ' ')" = "raw.c: netns.h raw.h: ../netns.h "

# --- rig/src and rig/src/data: includes, calls (from brnf's own objects), libmnl
{ include_edges "$SRC"; include_edges "$DATA"; } | sort -u > "$TMPD/deps"
check "rig/src: $(wc -l < "$TMPD/deps") include edges between modules" test -s "$TMPD/deps"
no_cycle "rig/src: no #include cycle between modules" "$TMPD/deps"
outside_includes "$DATA" > "$TMPD/data.outside"
check "rig/src/data: its $(ls "$DATA"/*.[ch] | wc -l) files include no header outside data/" \
	test ! -s "$TMPD/data.outside"
sed 's/^/# /' "$TMPD/data.outside"
# the objects of this tree's sources (a build directory may hold others, of files
# moved or removed since)
OBJ=$(cd "$(dirname "$BRNF")/../rig" && pwd)
OBJS=$(for _c in "$SRC"/*.c; do echo "$OBJ/$(basename "$_c" .c).o"; done
	for _c in "$DATA"/*.c; do echo "$OBJ/data/$(basename "$_c" .c).o"; done)
check "rig/src: every source's object is in $OBJ" \
	sh -c 'for o; do [ -f "$o" ] || exit 1; done' - $OBJS
call_edges $OBJS > "$TMPD/calls"
check "rig/src: $(wc -l < "$TMPD/calls") call edges between modules (from $OBJ)" test -s "$TMPD/calls"
no_cycle "rig/src: no call cycle between modules" "$TMPD/calls"
# the same edges with the issue's cycle planted into them: found
cat "$TMPD/calls" > "$TMPD/calls.planted"
echo "cells cmd_run" >> "$TMPD/calls.planted"
check "rig/src: with cells -> cmd_run planted beside cmd_run -> cells, a cycle" \
	sh -c "grep -qx 'cmd_run cells' '$TMPD/calls' && ! tsort '$TMPD/calls.planted' > /dev/null 2>&1"
check "rig/src: only nl.o and nl_msg.o use libmnl symbols ($(mnl_objects $OBJS | tr '\n' ' '))" \
	test "$(mnl_objects $OBJS | tr '\n' ' ')" = "nl.o nl_msg.o "

# --- rig/storm: the same, from its sources compiled here
objects "$STORM" "$TMPD/storm"
include_edges "$STORM" > "$TMPD/storm.deps"
no_cycle "rig/storm: no #include cycle between modules ($(wc -l < "$TMPD/storm.deps") edges)" \
	"$TMPD/storm.deps"
call_edges "$TMPD/storm"/*.o > "$TMPD/storm.calls"
check "rig/storm: $(wc -l < "$TMPD/storm.calls") call edges between modules" \
	test -s "$TMPD/storm.calls"
no_cycle "rig/storm: no call cycle between modules" "$TMPD/storm.calls"
check "rig/storm: no object uses a libmnl symbol ($(mnl_objects "$TMPD/storm"/*.o | tr '\n' ' '))" \
	test -z "$(mnl_objects "$TMPD/storm"/*.o)"

# --- every directory of C in the tree: libmnl behind nl.h alone
(cd "$TOPDIR" && git ls-files --cached --others --exclude-standard -- '*.c' '*.h' |
	grep -v -E '^(patches|kernel)/' | xargs -r dirname | sort -u) > "$TMPD/cdirs"
check "C in $(wc -l < "$TMPD/cdirs") directories, all under rig/ or scripts/ ($(tr '\n' ' ' < "$TMPD/cdirs"))" \
	sh -c "grep -qx rig/storm '$TMPD/cdirs' && ! grep -v -E '^(rig|scripts)(/|\$)' '$TMPD/cdirs'"
(cd "$TOPDIR" && mnl_sources rig scripts) > "$TMPD/mnl"
check "rig/, scripts/: only rig/src/nl.c and nl_msg.c call or include libmnl ($(tr '\n' ' ' < "$TMPD/mnl"))" \
	test "$(tr '\n' ' ' < "$TMPD/mnl")" = "rig/src/nl.c rig/src/nl_msg.c "

check "rig/src: no ap->native branches (one struct ap_ops, chosen in ap_init)" \
	sh -c "! grep -n -E '(->|\\.)native\\>' '$SRC'/*.c '$SRC'/*.h"
