# rig/tests/lib.sh: helpers for the brnf integration tests (POSIX sh, root).
# Each test prints "ok - what" or "not ok - what"; run.sh counts them.

BRNF=${BRNF:-$(cd "$(dirname "$0")/../.." && pwd)/build/bin/brnf}
TOPDIR=$(cd "$(dirname "$0")/../.." && pwd)

# ok, not_ok, check, wait_for
. "$TOPDIR/rig/tests/checklib.sh"

# No iperf3 of ours: ignore those in other tools' named namespaces (brnfstorm*,
# brnfpb-*) on this shared machine; one in no named namespace or in brnf<n>-*
# counts.
no_iperf3() {
	for _p in $(pgrep -x iperf3); do
		case "$(ip netns identify "$_p" 2>/dev/null)" in
		brnf[0-9]*-* | "") return 1 ;;
		esac
	done
	return 0
}
# prefix_of PID: the test bed prefix (brnf<n>) of the brnf run PID, from its claim
# (rig/src/lock.h: a claim's first line is its owner's pid); waits up to 30 s for it
prefix_of() {
	_i=0
	while [ "$_i" -lt 300 ]; do
		for _c in /run/brnf/brnf[0-9]*.claim; do
			[ -e "$_c" ] && [ "$(head -n 1 "$_c" 2> /dev/null)" = "$1" ] &&
				{ basename "$_c" .claim; return 0; }
		done
		_i=$((_i + 1))
		sleep 0.1
	done
	return 1
}
no_brnf_netns() { ! ls /run/netns 2>/dev/null | grep -q '^brnf[0-9]'; }
lock_free() { flock -n /run/brnf/lock true 2>/dev/null || [ ! -e /run/brnf/lock ]; }
# A child the run forked (between fork and exec, or creating a namespace) holds the
# lock's descriptor until it is gone: give orphans a bounded moment to finish.
lock_free_within() {
	_i=0
	while [ "$_i" -lt 50 ]; do
		lock_free && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}

# failing_iperf3 DIR [N]: DIR/iperf3, a stand-in for PATH whose client (-c), from its
# N-th start on (default the first), prints iperf3's error JSON and exits 1, as when
# it cannot connect; anything else (the server, --version, the clients before) is the
# real iperf3.
failing_iperf3() {
	mkdir -p "$1"
	cat > "$1/iperf3" <<EOS
#!/bin/sh
for a in "\$@"; do
	if [ "\$a" = -c ]; then
		n=\$((\$(cat "$1/clients" 2>/dev/null || echo 0) + 1))
		echo "\$n" > "$1/clients"
		[ "\$n" -lt ${2:-1} ] && break
		printf '{\\n\\t"start": {},\\n\\t"error": "unable to connect to server: Connection refused"\\n}\\n'
		exit 1
	fi
done
exec /usr/bin/iperf3 "\$@"
EOS
	chmod +x "$1/iperf3"
}

checktool() {
	for _t in "$@"; do
		if ! command -v "$_t" >/dev/null 2>&1; then
			echo "not ok - tool $_t is missing"
			exit 1
		fi
	done
}

# The root namespace's state that a run must not change.
root_state() {
	{
		echo "## sysctl"
		sysctl -a 2>/dev/null | grep '^net\.' | grep -v -E \
			'nf_conntrack_count|^net\.ipv4\.tcp_mem|^net\.ipv4\.udp_mem|gc_|random|^net\.core\.netdev_rss_key|^net\.ipv6\.route\.gc|nf_conntrack_buckets|nf_conntrack_max|^net\.netfilter\.nf_log\.|^net\.unix\.max_dgram' || true
		echo "## links"
		ip -o link | sed 's/ qlen [0-9]*//'
		echo "## nft"
		nft list ruleset
		echo "## iptables"
		iptables-save 2>/dev/null | grep -v '^#' | sed 's/\[[0-9]*:[0-9]*\]//'
		ip6tables-save 2>/dev/null | grep -v '^#' | sed 's/\[[0-9]*:[0-9]*\]//'
	}
}

TMPD=$(mktemp -d /tmp/brnf-test.XXXXXX)
cleanup_tmp() { rm -rf "$TMPD"; }

# Checks that run something as another user (nobody) run a copy of it: the clone may
# sit where only root can read, as under root's home (mode 700). for_nobody FILE...
# copies each file to TMPD/nobody/ (mode 755; TMPD made searchable, not listable) and
# prints the copy of the first: an absolute path as its base name, a path relative to
# TOPDIR under that same relative path (scripts/deps.sh beside scripts/arch.sh, which it
# sources). There nobody reads and runs what root built, whatever the clone's modes.
for_nobody() {
	chmod 711 "$TMPD"
	mkdir -p "$TMPD/nobody"
	chmod 755 "$TMPD/nobody"
	_first=
	for _f in "$@"; do
		case $_f in
		/*) _to=$TMPD/nobody/${_f##*/}; _from=$_f ;;
		*) _to=$TMPD/nobody/$_f; _from=$TOPDIR/$_f ;;
		esac
		mkdir -p "$(dirname "$_to")"
		cp "$_from" "$_to"
		chmod -R a+rX "$TMPD/nobody"
		[ -n "$_first" ] || _first=$_to
	done
	echo "$_first"
}
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
# wait_rc PID: wait for a background run; its exit status in $rc, set -e or not
wait_rc() { set +e; wait "$1"; rc=$?; set -e; }

# A results directory's run directories (part running, or $2): the measured runs, and
# the verification passes' records (one per row).
measured_runs() { ls -d "$1"/raw/"${2:-running}"/runs/*/ 2>/dev/null | grep -v -- '-verify/$'; }
verify_records() { ls "$1"/raw/"${2:-running}"/runs/*-verify/record.json 2>/dev/null; }
# The verdicts of every verification pass, one line each distinct ("yes", "n/a"...).
verdicts() { jq -r .verify.result $(verify_records "$1") </dev/null | sort -u; }
trap cleanup_tmp EXIT
