# rtnl-holds.awk: how long each process held RTNL, from a trace of kprobe events
# (kernel/tests/flip-bench.sh sets them up; rig/tests/t_flip_bench.sh feeds it a fixture).
#
#   awk -v comm=NAME [-v need=EVENT] [-v all=1] -f rtnl-holds.awk TRACE
#
# Events (the trace's text format, one per line): acq (rtnl_lock() returned), tacq
# (rtnl_trylock() returned, ret=0x1 when it took the lock), kacq (rtnl_lock_killable()
# returned, ret=0x0 when it did), rel (__rtnl_unlock() entered), newlink (rtnl_newlink()
# entered), chg (br_changelink() entered). A hold runs from an acquiring event to the same task's rel. rtnetlink_rcv_msg()
# takes RTNL through rtnl_lock() inlined in its own file, which no probe sees: a
# newlink event outside a hold starts one, so a netlink request's hold runs from its
# handler's entry (the few instructions between the lock and the handler are not in
# it). A rel without a hold (an acquisition no probe saw) counts nothing. Prints, one per
# line in order, the holds in nanoseconds of the task named NAME that held RTNL most
# often (the ip -batch or the write loop of a case, not an ip link add or ip netns exec
# around it); with need=EVENT only the holds in which that event fired (chg: the
# requests that changed a bridge's options, not ip's RTM_GETLINK or its first probe,
# a RTM_NEWLINK that fails with ENODEV); with all=1 the holds of every task named NAME,
# in the order they ended (one ip per namespace: flip-bench.sh's first asks). Timestamps:
# seconds with a fraction (the ns clocks: local, global, mono), or whole ticks (x86-tsc,
# counter), whose difference is printed as it is: under QEMU -icount the guest's TSC
# counts one tick per nanosecond, which is one instruction.
/^ *#/ { next }
{
	task = $1; sub(/-[0-9]+$/, "", task); pid = $1; sub(/.*-/, "", pid)
	for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+(\.[0-9]+)?:$/) break
	if (i > NF) next
	ts = $i; sub(/:$/, "", ts); ev = $(i + 1)
	if (ev == "acq:" || (ev == "tacq:" && $NF == "ret=0x1") ||
	    (ev == "kacq:" && $NF == "ret=0x0")) {
		start[pid] = ts
		mark[pid] = 0
	} else if (ev == "newlink:" && !(pid in start)) {
		start[pid] = ts
		mark[pid] = 0
	}
	if (ev == need ":" && (pid in start)) {
		mark[pid] = 1
	} else if (ev == "rel:" && (pid in start)) {
		if (task == comm && (need == "" || mark[pid])) {
			ns[pid, ++n[pid]] = sprintf("%.0f", (ts - start[pid]) * (ts ~ /\./ ? 1e9 : 1))
			seq[++m] = ns[pid, n[pid]]
		}
		delete start[pid]
	}
}
# the process that held RTNL most often: the batch or the write loop, not
# the ip link add before it or the ip netns exec around it
END {
	if (all) {
		for (i = 1; i <= m; i++) print seq[i]
		exit
	}
	for (p in n) if (n[p] > best) { best = n[p]; bp = p }
	for (i = 1; i <= best; i++) print ns[bp, i]
}
