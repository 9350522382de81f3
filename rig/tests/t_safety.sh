#!/bin/sh
# What brnf must never touch or change by accident, and options checked before
# anything changes:
# - namespaces it did not claim (a foreign brnf1-mylab, or one named like a test
#   bed of a dead run) survive a run and `brnf cleanup`;
# - an AP with transport=local (this machine's firewall) is refused without
#   --local-ap, with one line saying what would be replaced;
# - `brnf rig check` (it only parses) works as a normal user;
# - brnf works as PID 1 (a container's entrypoint: its children see getppid() 1) and
#   reaps the orphans it inherits there;
# - a namespace under the name a run will use is refused and left alone; runs that
#   are PID 1 side by side (and their kept test beds) never touch each other;
# - a link planted as the temporary results directory is never written through;
# - bad --kernel-label, --only-kernel and --part are usage errors before the run;
# - SIGINT exits 130 and SIGTERM 143.
set -eu
. "$(dirname "$0")/lib.sh"
checktool ip setpriv unshare

# --- foreign namespaces named like brnf's
dead=999999
while [ -e /proc/$dead ]; do dead=$((dead - 1)); done
FOREIGN="brnf1-mylab brnf$dead-ap"
cleanup() {
	for ns in $FOREIGN; do ip netns del "$ns" 2>/dev/null || true; done
	cleanup_tmp
}
trap cleanup EXIT
for ns in $FOREIGN; do ip netns add "$ns"; done
ip netns exec brnf1-mylab ip link add mylab0 type veth peer name mylab1
foreign_intact() {
	for ns in $FOREIGN; do
		[ -e "/run/netns/$ns" ] || return 1
	done
	ip netns exec brnf1-mylab ip link show mylab0 > /dev/null 2>&1
}
printf 'global=0 local=-\n' > "$TMPD/one.matrix"
printf 'global=0 local=-\nglobal=1 local=-\n' > "$TMPD/two.matrix"
set +e
"$BRNF" run --matrix "$TMPD/one.matrix" --time 1 --omit 0 --reps 1 --flows 1 \
	--out "$TMPD/f" --no-render > /dev/null 2> "$TMPD/err.f"
rc=$?
set -e
check "foreign namespaces: the run succeeds" test "$rc" -eq 0
check "foreign namespaces: $FOREIGN survive a run" foreign_intact
check "foreign namespaces: the run names none as removed" sh -c "! grep -q 'removed network namespace' '$TMPD/err.f'"
"$BRNF" cleanup > "$TMPD/out.c" 2> "$TMPD/err.c" || true
check "foreign namespaces: they survive brnf cleanup" foreign_intact
check "foreign namespaces: cleanup removed nothing" grep -qx 'removed 0 test bed namespace(s)' "$TMPD/out.c"
for ns in $FOREIGN; do ip netns del "$ns" 2> /dev/null || true; done
FOREIGN=

# --- a local AP is this machine: refused without --local-ap
cat > "$TMPD/local.rig" <<EOS
role=ap transport=local bridge=br-lan:eth0 bridge=br-wlan:wlan0
role=sta transport=local addr=198.18.1.2
role=pc transport=local addr=198.18.2.2
EOS
root_state > "$TMPD/root.before"
set +e
"$BRNF" run --rig "$TMPD/local.rig" --matrix "$TMPD/one.matrix" --time 1 --omit 0 --reps 1 \
	--flows 1 --out "$TMPD/local" > /dev/null 2> "$TMPD/err.l"
rc=$?
set -e
check "local AP without --local-ap: exit 2" test "$rc" -eq 2
check "local AP without --local-ap: one line" test "$(wc -l < "$TMPD/err.l")" -eq 1
check "local AP without --local-ap: says the nft ruleset and mangle table would be replaced" \
	grep -q 'local.rig:1: role ap transport=local is this machine: a run replaces its nft ruleset and its iptables mangle table.*--local-ap' "$TMPD/err.l"
sed 's/^/#   /' "$TMPD/err.l"
root_state > "$TMPD/root.after"
check "local AP without --local-ap: the root namespace unchanged" cmp -s "$TMPD/root.before" "$TMPD/root.after"
check "local AP without --local-ap: no results" sh -c "! ls -d '$TMPD'/local* 2>/dev/null | grep -v local.rig"
check "rig check names what a local AP means" \
	sh -c "'$BRNF' rig check '$TMPD/local.rig' | grep -q '^# ap is transport=local.*--local-ap'"

# --- rig check and a local rig ping as a normal user (nobody)
chmod 755 "$TMPD"
chmod 644 "$TMPD/local.rig"
NBRNF=$(for_nobody "$BRNF")
set +e
as_nobody "$NBRNF" rig check "$TMPD/local.rig" > "$TMPD/out.n" 2> "$TMPD/err.n"
rc=$?
set -e
check "rig check as nobody: exit 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMPD/err.n"
check "rig check as nobody: the three roles" test "$(grep -c '^role=' "$TMPD/out.n")" -eq 3
check "rig ping of a local role as nobody" \
	sh -c "setpriv --reuid=65534 --regid=65534 --clear-groups '$NBRNF' rig ping '$TMPD/local.rig' --role sta --repeat 2 | grep -q '^sta .*local .*mean'"
chmod 700 "$TMPD"

# --- PID 1: every child used to exit 127 (getppid() is 1 for all of them)
set +e
unshare -fp --mount-proc "$BRNF" rig ping "$TMPD/local.rig" --role sta --repeat 3 \
	> "$TMPD/out.p" 2> "$TMPD/err.p"
rc=$?
set -e
check "as PID 1: rig ping runs its commands (exit 0)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMPD/err.p"
check "as PID 1: rig ping prints the mean" grep -q '^sta .*mean' "$TMPD/out.p"
set +e
unshare -fp --mount-proc "$BRNF" run --matrix "$TMPD/one.matrix" --time 1 --omit 0 --reps 1 \
	--flows 1 --out "$TMPD/pid1" --no-render > /dev/null 2> "$TMPD/err.p1"
rc=$?
set -e
check "as PID 1: a run succeeds" test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMPD/err.p1" | tail -5
check "as PID 1: both directions measured" test "$(measured_runs "$TMPD/pid1" | wc -l)" -eq 2
check "as PID 1: no namespaces left" no_brnf_netns

# --- as PID 1 brnf reaps the orphans it inherits. An iperf3 on PATH that leaves an
# orphan behind (a double fork, as a daemonizing ssh master does) and then is the real
# iperf3: mid-run, no such orphan may be left a zombie under brnf.
mkdir "$TMPD/orph"
cp "$(command -v sleep)" "$TMPD/orph/orphan_sleep"
cat > "$TMPD/orph/iperf3" <<EOS
#!/bin/sh
( "$TMPD/orph/orphan_sleep" 0.05 & )
exec $(command -v iperf3) "\$@"
EOS
chmod +x "$TMPD/orph/iperf3"
zombies() { ps -eo stat=,comm= | grep -c '^Z.* orphan_sleep$' || true; }
PATH="$TMPD/orph:$PATH" unshare -fp --mount-proc "$BRNF" run --matrix "$TMPD/two.matrix" \
	--workloads tcp --time 2 --omit 0 --reps 1 --flows 2 --out "$TMPD/orph-out" --no-render \
	> /dev/null 2> "$TMPD/err.orph" &
orph=$!
wait_for 30 sh -c "ls -d '$TMPD'/orph-out.tmp.*/raw/running/runs/0001-* > /dev/null 2>&1" || true
sleep 1
z=$(zombies)
run_rc wait "$orph"
check "as PID 1: the run with orphans succeeds" test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMPD/err.orph" | tail -5
check "as PID 1: no orphan left a zombie mid-run ($z found)" test "$z" -eq 0

# --- a namespace under a name a run could use (brnf1-ap) that no claim names: the run
# (PID 1) takes the next number and leaves it alone with what runs in it; it deletes
# nothing by name alone
FOREIGN=brnf1-ap
ip netns add brnf1-ap
ip netns exec brnf1-ap ip link add squat0 type veth peer name squat1
ip netns exec brnf1-ap sleep 600 &
squatter=$!	# ip netns exec execs sleep
# pid1_run NAME ARGS...: a one-row run as PID 1, --out $TMPD/NAME, stderr in
# $TMPD/err.NAME, exit status in $rc
pid1_run() {
	_n=$1
	shift
	run_rc unshare -fp --mount-proc "$BRNF" run --matrix "$TMPD/one.matrix" --workloads tcp \
		--time 1 --omit 0 \
		--reps 1 --flows 1 --out "$TMPD/$_n" --no-render "$@" > /dev/null 2> "$TMPD/err.$_n"
}
pid1_run sq
check "a namespace named brnf1-ap, no claim: the run succeeds (exit 0)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMPD/err.sq" | tail -5
check "a namespace named brnf1-ap, no claim: the run's test bed had another number" \
	sh -c "jq -r .testbed.namespaces.ap '$TMPD'/sq/raw/running/provenance.json | grep -qv '^brnf1-'"
check "a namespace named brnf1-ap, no claim: it is still there, its link too" \
	ip netns exec brnf1-ap ip link show squat0
check "a namespace named brnf1-ap, no claim: the process in it is alive" kill -0 "$squatter"
check "a namespace named brnf1-ap, no claim: the run left nothing" \
	sh -c "! ls /run/netns | grep -v '^brnf1-ap\$' | grep -q '^brnf[0-9]' &&
	! ls -d /run/brnf/brnf*.claim /run/brnf/brnf*.journal 2>/dev/null"
kill "$squatter" 2> /dev/null || true
wait "$squatter" 2> /dev/null || true
ip netns del brnf1-ap
FOREIGN=

# --- runs that are PID 1 in pid namespaces of their own, side by side: two kept test
# beds (testbed up) get names of their own, a run beside them leaves both alone.
# pid1_shared: PID 1 with a /proc of its own pid namespace, but /run/netns shared with
# this mount namespace (as a container given the host's /run/netns), so that its kept
# test bed outlives it here; /proc is made private first, so the new proc mount stays
# inside (unshare --mount-proc makes every mount private, and a test bed made in there
# is gone with its mount namespace).
pid1_shared() {
	unshare -fp -m --propagation unchanged sh -c \
		'mount --make-rprivate /proc && mount -t proc proc /proc && exec "$@"' sh "$@"
}
tb_ns() { awk -v r="$2" '$1 == r { print $2 }' "$1"; }
run_rc pid1_shared "$BRNF" testbed up > "$TMPD/tb1" 2> "$TMPD/err.tb1"
rc1=$rc
run_rc pid1_shared "$BRNF" testbed up > "$TMPD/tb2" 2> "$TMPD/err.tb2"
rc2=$rc
check "two PID-1 testbed up: both succeed" test "$rc1 $rc2" = "0 0"
sed 's/^/# /' "$TMPD/err.tb1" "$TMPD/err.tb2"
AP1=$(tb_ns "$TMPD/tb1" ap)
AP2=$(tb_ns "$TMPD/tb2" ap)
check "two PID-1 testbed up: names of their own ($AP1, $AP2)" \
	sh -c "[ -n '$AP1' ] && [ -n '$AP2' ] && [ '$AP1' != '$AP2' ]"
ip netns exec "$AP1" sleep 600 &
keeper1=$!
ip netns exec "$AP2" sleep 600 &
keeper2=$!
beds_intact() {
	for f in "$TMPD/tb1" "$TMPD/tb2"; do
		for r in ap sta pc; do
			[ -e "/run/netns/$(tb_ns "$f" $r)" ] || return 1
		done
	done
	ip netns exec "$AP1" ip link show br-lan > /dev/null &&
		ip netns exec "$AP2" ip link show br-lan > /dev/null &&
		kill -0 "$keeper1" && kill -0 "$keeper2"
}
check "two PID-1 testbed up: the first is intact after the second" beds_intact
pid1_run pid1b
check "a PID-1 run beside two PID-1 test beds: exit 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMPD/err.pid1b" | tail -5
check "a PID-1 run beside two PID-1 test beds: both intact, their processes alive" beds_intact
check "a PID-1 run beside two PID-1 test beds: removed no namespace" \
	sh -c "! grep -q 'removed network namespace' '$TMPD/err.pid1b'"
# two PID-1 runs at once: the second refuses (the run lock) and touches nothing of the first
unshare -fp --mount-proc "$BRNF" run --matrix "$TMPD/one.matrix" --time 3 --omit 0 --reps 1 \
	--flows 1 --out "$TMPD/pid1c" --no-render > /dev/null 2> "$TMPD/err.p1c" &
first=$!
wait_for 30 sh -c "ls -d '$TMPD'/pid1c.tmp.*/raw/running/runs/0000-* > /dev/null 2>&1" || true
pid1_run pid1d
rc2=$rc
run_rc wait "$first"
rc1=$rc
check "two PID-1 runs at once: the second refuses" sh -c "[ $rc2 -eq 1 ] && grep -q 'another brnf run' '$TMPD/err.pid1d'"
check "two PID-1 runs at once: the first completes" test "$rc1" -eq 0
[ "$rc1" -eq 0 ] || sed 's/^/# /' "$TMPD/err.p1c" | tail -5
check "two PID-1 runs at once: the kept test beds are still intact" beds_intact
kill "$keeper1" "$keeper2" 2> /dev/null || true
wait "$keeper1" "$keeper2" 2> /dev/null || true
"$BRNF" testbed down "$AP1" > /dev/null
"$BRNF" testbed down "$AP2" > /dev/null
check "testbed down removes both PID-1 test beds" \
	sh -c "! ls /run/netns | grep -q -e '^$AP1\$' -e '^$AP2\$'"

# --- the temporary results directory is made new: a link planted under its name
# (<out>.tmp.1 for a run that is PID 1) is refused, never written through
mkdir "$TMPD/victim"
ln -s "$TMPD/victim" "$TMPD/planted.tmp.1"
pid1_run planted
check "a link planted as the temporary results directory: exit 1" test "$rc" -eq 1
one_line "a link planted as the temporary results directory: one line saying so" \
	"$TMPD/err.planted" 'mkdir .*/planted.tmp.1: File exists' 
check "a link planted as the temporary results directory: nothing written through it" \
	sh -c "[ -z \"\$(ls -A '$TMPD/victim')\" ] && [ -L '$TMPD/planted.tmp.1' ] && [ ! -e '$TMPD/planted' ]"
check "a link planted as the temporary results directory: no namespaces left" no_brnf_netns
rm -f "$TMPD/planted.tmp.1"

# --- names checked before anything changes (usage errors, one line, nothing made)
bad_opt() {	# bad_opt WHAT PATTERN ARGS...
	_bw=$1
	_pat=$2
	shift 2
	set +e
	"$BRNF" run --matrix "$TMPD/one.matrix" --time 1 --omit 0 --reps 1 --flows 1 \
		--out "$TMPD/bad" "$@" > /dev/null 2> "$TMPD/err.b"
	_rc=$?
	set -e
	check "$_bw: exit 2" test "$_rc" -eq 2
	if [ "$(wc -l < "$TMPD/err.b")" -eq 1 ] && grep -q -- "$_pat" "$TMPD/err.b"; then
		ok "$_bw: one line saying why"
	else
		not_ok "$_bw: one line saying why"
		sed 's/^/# /' "$TMPD/err.b"
	fi
	check "$_bw: no results directory" sh -c "! ls -d '$TMPD'/bad* > /dev/null 2>&1"
	rm -rf "$TMPD"/bad*
}
bad_opt "--kernel-label 'a b'" "bad character ' ' (0x20) in --kernel-label 'a b'" --kernel-label 'a b'
bad_opt "--kernel-label longer than 31" "is longer than" \
	--kernel-label 0123456789012345678901234567890123456789
bad_opt "--only-kernel 'x;y'" "bad character ';' (0x3b) in --only-kernel" --only-kernel 'x;y'
bad_opt "--part a/b" "--part: bad character '/'" --part a/b
bad_opt "--part .hidden" "--part: '.hidden' must not start with '.'" --part .hidden

# --- the exit status of a stopped run: 128 + the signal
printf 'global=0 local=-\nglobal=1 local=-\n' > "$TMPD/two.matrix"
for sig in INT:130 TERM:143; do
	s=${sig%:*}
	want=${sig#*:}
	"$BRNF" run --matrix "$TMPD/two.matrix" --time 5 --omit 0 --reps 2 --flows 1 \
		--out "$TMPD/s$s" --no-render > /dev/null 2> "$TMPD/err.s" &
	pid=$!
	started() { ls -d "$TMPD/s$s".tmp.*/raw/running/runs/0000-* > /dev/null 2>&1; }
	wait_for 30 started || true
	kill -"$s" "$pid"
	set +e
	wait "$pid"
	rc=$?
	set -e
	check "SIG$s mid-run: exit $want" test "$rc" -eq "$want"
	check "SIG$s mid-run: said it was interrupted" grep -q 'interrupted' "$TMPD/err.s"
	check "SIG$s mid-run: no namespaces left" no_brnf_netns
done
