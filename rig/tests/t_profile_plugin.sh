#!/bin/sh
# rig/profile/insn-profile.c built as make profile builds it (-Werror, against Debian's
# qemu-plugin.h) and loaded by the QEMU that boots the guests: a cache= it cannot take
# stops QEMU with one line naming it; with two cache models it writes their header and,
# over a firmware's instructions, fetches, accesses and misses that can be true (misses
# no more than accesses; 64-byte lines fetched no more often than 32-byte ones). No
# root needed.
set -eu
. "$(dirname "$0")/lib.sh"
checktool qemu-system-x86_64 make
B=$(cd "$(dirname "${BRNF:-$TOPDIR/build/bin/brnf}")/.." && pwd)
P=$B/profile/insn-profile.so

check "make profile-plugin builds the plugin" \
	make -s -C "$TOPDIR" BUILD="$B" profile-plugin
[ -r "$P" ] || { not_ok "no $P"; exit 1; }
printf 'ffffffff81000000 0000000000000010 T _stext\nffffffff81000010 0000000000000020 T pktgen_xmit\n' \
	>"$TMPD/syms"

# bad CACHE: QEMU exits non-zero and the plugin's line says why
bad() {
	run_rc qemu-system-x86_64 -M none -display none -nodefaults -monitor none \
		-plugin "$P,syms=$TMPD/syms,out=$TMPD/bad.out,$1" </dev/null >"$TMPD/bad.err" 2>&1
	check "$1: QEMU refuses it" test "$rc" -ne 0
	check "$1: the plugin says $2" grep -q "^insn-profile: .*$2" "$TMPD/bad.err"
}
bad cache=x:1000:4:32:1024:4:32 "'1000:4:32': SIZE, WAYS and LINE must be powers of two"
bad cache=x:1024:4:32 "want NAME:ISIZE:IWAYS:ILINE:DSIZE:DWAYS:DLINE"
bad cache=x:1024:4:32:1024:4:32,cache=x:2048:4:32:1024:4:32 "cache x named twice"
bad cache=a:64:1:32:64:1:32,cache=b:64:1:32:64:1:32,cache=c:64:1:32:64:1:32,cache=d:64:1:32:64:1:32,cache=e:64:1:32:64:1:32 \
	"cache= at most 4 times"

# the PC's firmware runs until the monitor quits QEMU: one window, the whole run
O=$TMPD/fw.out
( sleep 3; echo quit ) | qemu-system-x86_64 -M pc -display none -nodefaults -monitor stdio \
	-plugin "$P,syms=$TMPD/syms,out=$O,cache=74kc:65536:4:32:32768:4:32,cache=a53:32768:2:64:32768:4:64" \
	>"$TMPD/fw.log" 2>&1 || true
check "firmware run: the header names both models" \
	sh -c "grep -qx 'cache-model 74kc:65536:4:32:32768:4:32' '$O' && grep -qx 'cache-model a53:32768:2:64:32768:4:64' '$O'"
check "firmware run: one window closed at exit" \
	grep -qx 'summary windows 1 restarts 0 stray_ends 0 open_at_exit 0' "$O"
# cache NAME ifetch F imiss M dacc A dmiss D
field() { awk -v n="$1" -v k="$2" '$1 == "cache" && $2 == n { for (i = 3; i < NF; i += 2) if ($i == k) print $(i + 1) }' "$O"; }
total=$(awk '$1 == "window" { print $3 }' "$O")
check "firmware run: instructions counted ($total)" test "${total:-0}" -gt 0
for m in 74kc a53; do
	f=$(field $m ifetch) im=$(field $m imiss) a=$(field $m dacc) dm=$(field $m dmiss)
	check "firmware run, $m: lines fetched and missed ($f, $im)" test "${im:-0}" -gt 0 -a "$im" -le "$f"
	check "firmware run, $m: data lines accessed and missed ($a, $dm)" test "${dm:-0}" -gt 0 -a "$dm" -le "$a"
	check "firmware run, $m: fewer line fetches than instructions" test "$f" -lt "$total"
done
check "firmware run: 64-byte lines fetched no more often than 32-byte ones" \
	test "$(field a53 ifetch)" -le "$(field 74kc ifetch)"
check "firmware run: both models saw the same data accesses or fewer at 64 bytes" \
	test "$(field a53 dacc)" -le "$(field 74kc dacc)"
exit "$FAILED"
