#!/bin/sh
# brnf in a pid namespace of its own that sees another one's /proc: the host's, as
# under `unshare -fp` without --mount-proc (or a container given the host's /proc).
# A pid read there is no pid of brnf's, so brnf must not kill() or waitpid() it:
# - as PID 1 it reaps the orphans it inherits with waitid(), not from /proc, and finds
#   its iperf3 servers' sockets under the pid /proc gives them (a pidfd's fdinfo): a
#   run succeeds and leaves no orphan a zombie (rig/src/proc.c);
# - ending what runs in a namespace it deletes, it signals each process through a
#   pidfd of the /proc directory it looked at (rig/src/netns.c, netns_kill_pids()):
#   its own processes there end, one of the host's pid namespace is not its to end,
#   and a process of its own that has the host one's pid number is left alone (kill()
#   ended it).
set -eu
. "$(dirname "$0")/lib.sh"
checktool unshare nsenter ps

printf 'global=0 local=-\n' > "$TMPD/one.matrix"
printf 'global=0 local=-\nglobal=1 local=-\n' > "$TMPD/two.matrix"

# --- PID 1 with the host's /proc. An iperf3 on PATH that leaves an orphan behind (a
# double fork) and then is the real iperf3, as in t_safety.sh, where /proc is brnf's.
mkdir "$TMPD/orph"
cp "$(command -v sleep)" "$TMPD/orph/pidns_orphan"
cat > "$TMPD/orph/iperf3" <<EOS
#!/bin/sh
( "$TMPD/orph/pidns_orphan" 0.05 & )
exec $(command -v iperf3) "\$@"
EOS
chmod +x "$TMPD/orph/iperf3"
zombies() { ps -eo stat=,comm= | grep -c '^Z.* pidns_orphan$' || true; }
PATH="$TMPD/orph:$PATH" unshare -fp "$BRNF" run --matrix "$TMPD/two.matrix" --workloads tcp \
	--time 2 --omit 0 --reps 1 --flows 2 --out "$TMPD/p1" --no-render > /dev/null \
	2> "$TMPD/err.p1" &
p1=$!
wait_for 60 sh -c "ls -d '$TMPD'/p1.tmp.*/raw/running/runs/0001-* > /dev/null 2>&1" || true
sleep 1
z=$(zombies)
wait_rc "$p1"
check "PID 1 with the host's /proc: the run succeeds (its iperf3 servers found)" \
	test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMPD/err.p1" | tail -5
check "PID 1 with the host's /proc: no orphan left a zombie mid-run ($z found)" test "$z" -eq 0
check "PID 1 with the host's /proc: no namespaces left" no_brnf_netns

# --- the namespace's processes at the end. A keeper started here, in the host's pid
# namespace, enters the run's pc (host pid H); in the run's pid namespace, whose PID 1
# is a shell that starts brnf, the victim is made to have pid H too (ns_last_pid), and
# the iperf3 servers leave a daemon of their own (setsid) in pc. brnf must end the
# daemon, leave the keeper (not its to end) and never touch the victim.
mkdir "$TMPD/dmn"
cat > "$TMPD/dmn/iperf3" <<EOS
#!/bin/sh
case " \$* " in
*" -s "*) [ -e "$TMPD/daemon.pid" ] || setsid sh -c \
	'read -r hp _ < /proc/self/stat; echo "\$hp" > "$TMPD/daemon.pid"; exec sleep 600' \
	< /dev/null > /dev/null 2>&1 & ;;
esac
exec $(command -v iperf3) "\$@"
EOS
chmod +x "$TMPD/dmn/iperf3"
# The keeper's shell (pid H) waits until the pc of the run whose claim names pid H + 1
# (brnf is the run shell's child after the victim: pid H + 1 there) is a namespace (the
# file is made first, the namespace mounted on it next), enters it and becomes sleep:
# one pid throughout.
cat > "$TMPD/keeper.sh" <<'EOS'
ns=
while [ -z "$ns" ] || ! nsenter --net="$ns" true 2> /dev/null; do
	for c in /run/brnf/brnf[0-9]*.claim; do
		[ "$(head -n 1 "$c" 2> /dev/null)" = $(($$ + 1)) ] &&
			ns=/run/netns/$(basename "$c" .claim)-pc
	done
	sleep 0.05
done
exec nsenter --net="$ns" sh -c ': > "$1"; exec sleep 600' sh "$1"
EOS
sh "$TMPD/keeper.sh" "$TMPD/keeper.in" &
keeper=$!
unshare -fp sh -c '
	echo $(($1 - 1)) > /proc/sys/kernel/ns_last_pid
	sleep 600 &
	victim=$!
	rc=0
	PATH="$2:$PATH" "$3" run --matrix "$4" --workloads tcp --time 1 --omit 0 --reps 1 \
		--flows 1 --out "$5" --no-render > /dev/null 2> "$6" || rc=$?
	if kill -0 "$victim" 2> /dev/null; then echo "$victim alive"; else echo "$victim ended"; fi > "$7"
	kill "$victim"
	# the daemon as brnf left it (this pid namespace ends every process of it next);
	# its host pid read in the host /proc (ps refuses that /proc here)
	d=$(cat "$8" 2> /dev/null || echo none)
	st=gone
	[ ! -r "/proc/$d/stat" ] || read -r _ _ st _ < "/proc/$d/stat"
	case $d:$st in
	none:*) echo "none" ;;
	*:gone | *:Z) echo "$d ended" ;;
	*) echo "$d running ($st)" ;;
	esac > "$9"
	exit "$rc"' sh "$keeper" "$TMPD/dmn" "$BRNF" "$TMPD/one.matrix" "$TMPD/p2" "$TMPD/err.p2" \
	"$TMPD/victim" "$TMPD/daemon.pid" "$TMPD/daemon" &
p2=$!
wait_rc "$p2"
check "the run beside a keeper from the host: exit 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMPD/err.p2" | tail -5
check "the keeper (host pid $keeper) was in the run's pc" test -e "$TMPD/keeper.in"
check "the victim had the keeper's pid in the run's pid namespace" \
	grep -q "^$keeper " "$TMPD/victim"
check "brnf left its own process of the keeper's pid number alone" \
	grep -qx "$keeper alive" "$TMPD/victim"
check "the keeper, of another pid namespace, is not brnf's to end" kill -0 "$keeper"
check "brnf ended its own daemon left in pc ($(cat "$TMPD/daemon"))" \
	grep -qx '[0-9]* ended' "$TMPD/daemon"
check "no namespaces left" no_brnf_netns
kill "$keeper" 2> /dev/null || true
wait "$keeper" 2> /dev/null || true
