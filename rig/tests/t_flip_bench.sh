#!/bin/sh
# scripts/flip-bench without a guest: kernel/tests/rtnl-holds.awk on a trace of the
# shape kprobe events print, the tables of the published runs drawn again from their
# bench.txt alone (--table), the RTNL holds' table, and --trace's kernel names.
set -eu
. "$(dirname "$0")/lib.sh"
FB=$TOPDIR/scripts/flip-bench
AWK=$TOPDIR/kernel/tests/rtnl-holds.awk

# pid 200: ip link add (its own hold, with rtnl_newlink); pid 201: the batch, whose
# second hold is an RTM_GETLINK (no rtnl_newlink) and whose fourth is seen from
# rtnl_newlink on (rtnl_lock inlined), then a release of a hold no probe saw begin; a
# kworker between; sh: a trylock
# that failed, then one that took the lock
cat >"$TMPD/trace" <<'EOF'
# tracer: nop
#
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
#              | |         |   |||||     |         |
              ip-200     [000] .....    10.000100: acq: (rtnetlink_rcv_msg+0x1/0x2 <- rtnl_lock)
              ip-200     [000] .....    10.000110: newlink: (rtnl_newlink+0x0/0x10)
              ip-200     [000] .....    10.000150: rel: (__rtnl_unlock+0x0/0x10)
              ip-201     [000] .....    11.000000: acq: (rtnetlink_rcv_msg+0x1/0x2 <- rtnl_lock)
              ip-201     [000] .....    11.000005: newlink: (rtnl_newlink+0x0/0x10)
              ip-201     [000] .....    11.000030: rel: (__rtnl_unlock+0x0/0x10)
     kworker/0:1-12      [000] .....    11.000040: acq: (linkwatch_event+0x1/0x2 <- rtnl_lock)
     kworker/0:1-12      [000] .....    11.000090: rel: (__rtnl_unlock+0x0/0x10)
              ip-201     [000] .....    11.000100: acq: (rtnetlink_rcv_msg+0x1/0x2 <- rtnl_lock)
              ip-201     [000] .....    11.000110: rel: (__rtnl_unlock+0x0/0x10)
              ip-201     [000] .....    11.000200: acq: (rtnetlink_rcv_msg+0x1/0x2 <- rtnl_lock)
              ip-201     [000] .....    11.000201: newlink: (rtnl_newlink+0x0/0x10)
              ip-201     [000] .....    11.000260: rel: (__rtnl_unlock+0x0/0x10)
              ip-201     [000] .....    11.000300: newlink: (rtnl_newlink+0x0/0x10)
              ip-201     [000] .....    11.000340: rel: (__rtnl_unlock+0x0/0x10)
              ip-201     [000] .....    11.000400: rel: (__rtnl_unlock+0x0/0x10)
              sh-300     [000] .....    12.000000: tacq: (brnf_sysctl+0x1/0x2 <- rtnl_trylock) ret=0x0
              sh-300     [000] .....    12.000100: tacq: (brnf_sysctl+0x1/0x2 <- rtnl_trylock) ret=0x1
              sh-300     [000] .....    12.000120: rel: (__rtnl_unlock+0x0/0x10)
              sh-300     [000] .....    12.000200: kacq: (foo+0x1/0x2 <- rtnl_lock_killable) ret=0x0
              sh-300     [000] .....    12.000207: rel: (__rtnl_unlock+0x0/0x10)
EOF
holds() { awk -v comm="$1" -v need="${2:-}" -f "$AWK" "$TMPD/trace" | tr '\n' ' '; }
check "rtnl-holds: the batch's holds with rtnl_newlink (from it when no acq), not ip link add's or GETLINK's" \
	test "$(holds ip newlink)" = "30000 60000 40000 "
check "rtnl-holds: without need, every hold of the batch" test "$(holds ip)" = "30000 10000 60000 40000 "
check "rtnl-holds: a failed trylock holds nothing, a taken one and lock_killable do" \
	test "$(holds sh)" = "20000 7000 "
check "rtnl-holds: a task that never held RTNL, no line" test "$(holds nobody)" = ""
check "rtnl-holds: all=1, the holds with rtnl_newlink of every ip, in order" \
	test "$(awk -v comm=ip -v need=newlink -v all=1 -f "$AWK" "$TMPD/trace" | tr '\n' ' ')" = \
	"50000 30000 60000 40000 "
# x86-tsc: whole ticks, their difference as it is
cat >"$TMPD/trace" <<'EOF'
              ip-70      [000] .....  14615559506: newlink: (rtnl_newlink+0x0/0x60)
              ip-70      [000] .....  14615560653: rel: (__rtnl_unlock+0x0/0x60)
              ip-70      [000] .....  14615605306: rel: (__rtnl_unlock+0x0/0x60)
              ip-70      [000] .....  14615708409: newlink: (rtnl_newlink+0x0/0x60)
              ip-70      [000] d.Z..  14615708500: chg: (br_changelink+0x0/0x2f0)
              ip-70      [000] .....  14615710673: rel: (__rtnl_unlock+0x0/0x60)
EOF
check "rtnl-holds: x86-tsc ticks, differences as they are" test "$(holds ip newlink)" = "1147 2264 "
check "rtnl-holds: need=chg, only the request that changed the bridge" \
	test "$(holds ip chg)" = "2264 "

# the published runs' tables, drawn again from their bench.txt
for d in "$TOPDIR"/results/*-flip-bench*; do
	[ -r "$d/bench.txt" ] || continue
	n=${d##*/}
	mkdir -p "$TMPD/$n"
	cp "$d/bench.txt" "$TMPD/$n/"
	for f in holds.txt edges.txt; do
		[ ! -e "$d/$f" ] || cp "$d/$f" "$TMPD/$n/"
	done
	check "$n: --table draws table.txt again, the same bytes" sh -c \
		"sh '$FB' --table '$TMPD/$n' >/dev/null && cmp -s '$TMPD/$n/table.txt' '$d/table.txt'"
done

# a kernel whose flips hold RTNL for nothing: no rate, no change against 0
mkdir -p "$TMPD/h"
cat >"$TMPD/h/bench.txt" <<'EOF'
vanilla+trace case=same rep=1 ops=4 seconds=0.004
vanilla+trace case=same-rtnl rep=1 ops=4 seconds=0.000000
ondemand+trace case=same rep=1 ops=4 seconds=0.002
ondemand+trace case=same-rtnl rep=1 ops=4 seconds=0.000080000
EOF
cat >"$TMPD/h/holds.txt" <<'EOF'
vanilla+trace case=same rep=1 ops=4 count=0 p50_ns=- max_ns=- clock=x86-tsc
ondemand+trace case=same rep=1 ops=4 count=4 p50_ns=20000 max_ns=30000 clock=x86-tsc
ondemand+trace case=same rep=2 ops=4 count=4 p50_ns=10000 max_ns=90000 clock=x86-tsc
EOF
cat >"$TMPD/h/edges.txt" <<'EOF'
vanilla+trace off=7 sysctl=7 flag=7
ondemand+trace off=0 sysctl=7 flag=7
EOF
check "holds: the table is drawn" sh -c "sh '$FB' --table '$TMPD/h' >/dev/null"
check "edges: the hooks with everything off, the sysctl, the flag" \
	grep -Eq '^ondemand\+trace +0 +7 +7$' "$TMPD/h/table.txt"
check "holds: a sum of 0 has no rate and no change" \
	grep -Eq '^same-rtnl +vanilla\+trace +1 +0\.0 +- +n/a$' "$TMPD/h/table.txt"
check "holds: count and p50 the median over the repetitions, max the longest" \
	grep -Eq '^same +ondemand\+trace +2 +4 +15000 +90000$' "$TMPD/h/table.txt"
check "holds: a kernel without holds shows -" \
	grep -Eq '^same +vanilla\+trace +1 +0 +- +-$' "$TMPD/h/table.txt"

# --trace: every kernel as VARIANT+trace, the old series' too
run_rc env BUILD="$TMPD/build" sh "$FB" --no-build --trace --out "$TMPD/o" vanilla \
	>"$TMPD/out" 2>"$TMPD/err"
check "--trace: exit 1 without a built kernel" test "$rc" -eq 1
one_line "--trace: names the +trace kernel's image" "$TMPD/err" \
	"vanilla+trace/arch/x86/boot/bzImage: missing"
run_rc env BUILD="$TMPD/build" sh "$FB" --no-build --trace --old-rev abc --out "$TMPD/o2" \
	>"$TMPD/out" 2>"$TMPD/err"
check "--trace: ondemand@REV becomes ondemand+trace@REV" \
	grep -qx 'kernels: vanilla+trace ondemand+trace ondemand+trace@abc' "$TMPD/o2/run.txt"
run_rc sh "$FB" --no-build --trace --clock realtime --out "$TMPD/o3" >"$TMPD/out" 2>"$TMPD/err"
check "--trace --clock realtime: refused" test "$rc" -eq 1
one_line "--trace --clock realtime: says why" "$TMPD/err" "nanoseconds under --clock icount only"
check "--trace --clock realtime: nothing written" test ! -e "$TMPD/o3"
exit "$FAILED"
