#!/bin/sh
# The claim reaper (rig/src/lock.c, rig/README.md "Safety"): a claim under /run/brnf
# that nobody holds is a run that ended, and `brnf cleanup` removes its namespaces
# and the claim; a claim whose owner is alive (it holds the claim's flock) is left
# with its namespaces, whatever its pid says (a pid of another pid namespace means
# nothing here); a namespace that is no longer the one the claim names is left alone.
# The same for a claim's temporary file (.claim.XXXXXX, made whole before it is
# linked under its name): removed once its maker is gone, left while it holds it.
# The claims are made here as brnf writes them ("<pid>", then "<name> <dev> <ino>").
# A run whose own namespace is another one under its name by the end leaves it alone
# too, says so in one line and exits 1 (it exited 0: the unwind's status was lost).
set -eu
. "$(dirname "$0")/lib.sh"
checktool ip flock stat jq

# three prefixes of pids no process has
free_pid() {
	_p=$1
	while [ -e "/proc/$_p" ] || [ -e "/run/brnf/brnf$_p.claim" ] ||
		ls /run/netns 2>/dev/null | grep -q "^brnf$_p-"; do
		_p=$((_p - 1))
	done
	echo "$_p"
}
D1=$(free_pid 999990)
D2=$(free_pid $((D1 - 1)))
D3=$(free_pid $((D2 - 1)))
STALE=brnf$D1 LIVE=brnf$D2 MOVED=brnf$D3
holder= tmpholder= REPLACED=
TMPFREE=/run/brnf/.claim.brnfT1 TMPHELD=/run/brnf/.claim.brnfT2
cleanup() {
	[ -z "$holder" ] || kill "$holder" 2> /dev/null || true
	[ -z "$tmpholder" ] || kill "$tmpholder" 2> /dev/null || true
	rm -f "$TMPFREE" "$TMPHELD"
	[ -z "$REPLACED" ] || ip netns del "$REPLACED-sta" 2> /dev/null || true
	for p in $STALE $LIVE $MOVED $REPLACED; do
		ip netns del "$p-ap" 2> /dev/null || true
		rm -f "/run/brnf/$p.claim"
	done
	cleanup_tmp
}
trap cleanup EXIT

mkdir -p /run/brnf
# claim PREFIX PID [INO]: namespace PREFIX-ap and its claim (INO: a wrong inode)
claim() {
	ip netns add "$1-ap"
	printf '%s\n%s-ap %s\n' "$2" "$1" \
		"$(stat -c "%d ${3:-%i}" "/run/netns/$1-ap")" > "/run/brnf/$1.claim"
}
claim "$STALE" "$D1"
claim "$LIVE" "$D2"
claim "$MOVED" "$D3" 1
ip netns exec "$LIVE-ap" ip link add keep0 type veth peer name keep1
# the live claim's owner: holds its flock, as a brnf holds its claim for its life (the
# lock's descriptor is the sleep's own: it ends with it)
(exec 9<> "/run/brnf/$LIVE.claim" && flock 9 && exec sleep 600) > /dev/null 2>&1 &
holder=$!
# two temporary claim files: one its maker (killed) left, one being made
echo 1 > "$TMPFREE"
echo 1 > "$TMPHELD"
(exec 9<> "$TMPHELD" && flock 9 && exec sleep 600) > /dev/null 2>&1 &
tmpholder=$!
held() { ! flock -n "$1" true; }
check "the live claim is locked by its owner" wait_for 10 held "/run/brnf/$LIVE.claim"
check "a temporary claim file is locked by its maker" wait_for 10 held "$TMPHELD"

run_rc "$BRNF" cleanup > "$TMPD/out.1" 2> "$TMPD/err.1"
sed 's/^/# /' "$TMPD/err.1"
check "cleanup: exits 0" test "$rc" -eq 0
check "cleanup: a claim nobody holds: its namespace removed" test ! -e "/run/netns/$STALE-ap"
check "cleanup: and the claim" test ! -e "/run/brnf/$STALE.claim"
check "cleanup: one line says so" \
	grep -qx "brnf: removed network namespace $STALE-ap of a run that ended (pid $D1)" \
	"$TMPD/err.1"
check "cleanup: a live claim (its pid dead here) is left, its namespace too" \
	sh -c "test -e '/run/brnf/$LIVE.claim' && ip netns exec '$LIVE-ap' ip link show keep0 > /dev/null"
check "cleanup: a claimed name that is another namespace now is left" \
	test -e "/run/netns/$MOVED-ap"
check "cleanup: and says so" grep -q \
	"network namespace $MOVED-ap is not the one brnf made under that name; it is left alone" \
	"$TMPD/err.1"
check "cleanup: its claim is kept (a namespace it names is still there)" \
	test -e "/run/brnf/$MOVED.claim"
check "cleanup: counts what it removed" grep -qx 'removed 1 test bed namespace(s)' "$TMPD/out.1"
check "cleanup: a temporary claim file nobody holds is removed" test ! -e "$TMPFREE"
check "cleanup: one its maker holds is left" test -e "$TMPHELD"

# the owner ends: its claim is free, and the next cleanup takes it
kill "$holder" "$tmpholder"
wait "$holder" "$tmpholder" 2> /dev/null || true
holder= tmpholder=
run_rc "$BRNF" cleanup > "$TMPD/out.2" 2> "$TMPD/err.2"
check "owner gone: cleanup removes its namespace" test ! -e "/run/netns/$LIVE-ap"
check "owner gone: and its claim" test ! -e "/run/brnf/$LIVE.claim"
check "owner gone: the moved namespace is still left alone" test -e "/run/netns/$MOVED-ap"
check "maker gone: its temporary claim file is removed" test ! -e "$TMPHELD"

# --- a run's sta replaced under its name before the end: an iptables on PATH that,
# at the run's last removal of the counting chain (its second -X: the preflight's,
# then the verification pass's), waits until the test has deleted its sta and
# made another namespace under that name. The run's unwind must leave that one alone,
# name it in one line, and the run exit 1.
mkdir "$TMPD/bin"
cat > "$TMPD/bin/iptables" <<EOS
#!/bin/sh
case " \$* " in
*" -X "*)
	n=\$((\$(cat "$TMPD/x.count" 2> /dev/null || echo 0) + 1))
	echo "\$n" > "$TMPD/x.count"
	if [ "\$n" -eq 2 ]; then
		: > "$TMPD/at-end"
		i=0
		while [ ! -e "$TMPD/replaced" ] && [ "\$i" -lt 300 ]; do
			sleep 0.1
			i=\$((i + 1))
		done
	fi ;;
esac
exec $(command -v iptables) "\$@"
EOS
chmod +x "$TMPD/bin/iptables"
printf 'global=0 local=-\n' > "$TMPD/one.matrix"
PATH="$TMPD/bin:$PATH" "$BRNF" run --matrix "$TMPD/one.matrix" --workloads tcp --time 1 \
	--omit 0 --reps 1 --flows 1 --out "$TMPD/res" --no-render > /dev/null 2> "$TMPD/err.3" &
run=$!
REPLACED=$(prefix_of "$run") || true
wait_for 60 test -e "$TMPD/at-end" || true
ip netns del "$REPLACED-sta" && ip netns add "$REPLACED-sta" || true
: > "$TMPD/replaced"
wait_rc "$run"
check "a run's sta replaced before the end: exit 1 (got $rc)" test "$rc" -eq 1
check "a run's sta replaced before the end: one line names what was left behind" \
	test "$(grep -c "^brnf: left behind at the end: $REPLACED-sta\$" "$TMPD/err.3")" -eq 1
check "a run's sta replaced before the end: the unwind said why" grep -q \
	"network namespace $REPLACED-sta is not the one brnf made under that name; it is left alone" \
	"$TMPD/err.3"
sed -n '/left/s/^/# /p' "$TMPD/err.3"
check "a run's sta replaced before the end: the replacement is left" \
	test -e "/run/netns/$REPLACED-sta"
check "a run's sta replaced before the end: the rest of the test bed removed" \
	sh -c "! ls /run/netns | grep -q -e '^$REPLACED-ap\$' -e '^$REPLACED-pc\$'"
check "a run's sta replaced before the end: its results committed all the same" \
	sh -c "jq -e '.runs == 3' '$TMPD/res/raw/running/provenance.json' > /dev/null"
