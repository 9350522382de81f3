#!/bin/sh
# The SSH transport against a real sshd (Debian's openssh-server) inside the
# AP namespace of a test bed, with a throwaway host key, client key and
# config. The controller runs in the pc namespace (as on a real rig, where
# brnf runs on the wired PC) and reaches the AP over ssh.
#
#   sta: sshd 198.18.1.2:22 ==veth== [br-wlan] ap: sshd 198.18.2.1:22, :2222 [br-lan]
#        ==veth== pc: sshd 198.18.2.2:22, brnf and its ssh clients
#
# The matrix runs with the station over ssh too (iperf3 clients remote), the
# SIGTERM case with every role over ssh (iperf3 servers remote as well).
#
# Checks: a one-second matrix over ssh whose read-back and filtering
# verification agree with the namespace transport (throughput not compared)
# and that leaves the AP as it was; an unreachable host; a refused key; a
# station without iperf3; an AP without br_netfilter; SIGTERM and Ctrl-C
# mid-run restore the AP's settings (sysctls, bridge flags, nft ruleset,
# mangle), also with a second Ctrl-C during the restore; a ruleset the AP's kernel
# refuses leaves the AP's own ruleset in place (one nft transaction); a SIGKILL
# right after each kind of step the journal records, also of a PID 1 brnf, leaves
# nothing `brnf cleanup` does not undo, byte for byte.
#
# Stand-ins, all inside each sshd's own mount namespace (ip netns exec makes
# one); nothing outside it changes:
# - sh is busybox ash (busybox bound over dash), so every script brnf runs on
#   a host is run by ash and its applets (cat, sed, cut, sha256sum), as on
#   OpenWrt; the login shell that starts it stays root's bash;
# - root's ~/.bashrc on this machine runs `pyenv init` (0.3 s per command),
#   so the sshds see an empty one (OpenWrt's ash reads no rc file);
# - "no iperf3": /dev/null bound over /usr/bin/iperf3 (sshd on the AP, :22);
# - "no br_netfilter": the second sshd on the AP (:2222) sees an empty tmpfs
#   over /proc/sys/net/bridge. This kernel has br_netfilter built in, so only
#   the AP's view is simulated; the kernel still filters as its sysctls say.
set -eu
. "$(dirname "$0")/lib.sh"
checktool jq ssh ssh-keygen iptables-save nft ip sysctl
if [ ! -x /usr/sbin/sshd ]; then
	echo "not ok - /usr/sbin/sshd is missing (apt-get install openssh-server)"
	exit 1
fi

"$BRNF" testbed up > "$TMPD/tb" || { not_ok "testbed up"; exit 1; }
AP=$(awk '$1 == "ap" { print $2 }' "$TMPD/tb")
STA=$(awk '$1 == "sta" { print $2 }' "$TMPD/tb")
PC=$(awk '$1 == "pc" { print $2 }' "$TMPD/tb")
SSHD_PIDS=""
cleanup() {
	for p in $SSHD_PIDS; do
		[ -s "$p" ] && kill "$(cat "$p")" 2>/dev/null
	done
	"$BRNF" testbed down "$AP" > /dev/null 2>&1 || true
	rm -rf "$TMPD"
}
trap cleanup EXIT

ssh-keygen -q -t ed25519 -N '' -C brnf-test-host -f "$TMPD/hostkey"
ssh-keygen -q -t ed25519 -N '' -C brnf-test -f "$TMPD/id"
ssh-keygen -q -t ed25519 -N '' -C brnf-test-refused -f "$TMPD/id_refused"
cp "$TMPD/id.pub" "$TMPD/authorized_keys"
: > "$TMPD/empty"
cat > "$TMPD/ssh_config" <<EOF
Host *
	StrictHostKeyChecking no
	UserKnownHostsFile /dev/null
	LogLevel ERROR
EOF
mkdir -p /run/sshd	# sshd's privilege separation directory

# start_sshd NAME NETNS ADDR:PORT SETUP: an sshd in NETNS; SETUP runs first in its
# mount namespace
start_sshd() {
	cat > "$TMPD/sshd_$1.conf" <<EOF
ListenAddress $3
HostKey $TMPD/hostkey
PidFile $TMPD/sshd_$1.pid
AuthorizedKeysFile $TMPD/authorized_keys
StrictModes no
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
EOF
	SSHD_PIDS="$SSHD_PIDS $TMPD/sshd_$1.pid"
	ip netns exec "$2" sh -c "$4 && exec /usr/sbin/sshd -f '$TMPD/sshd_$1.conf' -E '$TMPD/sshd_$1.log'"
	wait_for 5 test -s "$TMPD/sshd_$1.pid"
}
noiperf="mount --bind /dev/null /usr/bin/iperf3"
norc="mount --bind '$TMPD/empty' /root/.bashrc"
# sh is busybox ash (with its applets: cat, sed, cut, sha256sum ...), as on OpenWrt
if command -v busybox > /dev/null; then
	ash="mount --bind $(command -v busybox) $(readlink -f /bin/sh)"
else
	ash="true"
	echo "# busybox (busybox-static) is missing: the sshds' sh stays $(readlink -f /bin/sh)"
fi
nobrnf="mount -t tmpfs -o size=1m,mode=0555 brnf-test /proc/sys/net/bridge"
if start_sshd ap "$AP" 198.18.2.1:22 "$norc && $ash && $noiperf" &&
   start_sshd nobrnf "$AP" 198.18.2.1:2222 "$norc && $ash && $nobrnf" &&
   start_sshd sta "$STA" 198.18.1.2:22 "$norc && $ash" &&
   start_sshd pc "$PC" 198.18.2.2:22 "$norc && $ash"; then
	ok "sshd in the ap (:22 without iperf3, :2222 without br_netfilter), sta and pc namespaces"
else
	not_ok "sshd in the test bed"
	cat "$TMPD"/sshd_*.log 2>/dev/null | sed 's/^/# /'
	exit 1
fi

SSHOPT="identity=$TMPD/id config=$TMPD/ssh_config"
STA_SSH="role=sta transport=ssh dest=root@198.18.1.2 $SSHOPT addr=198.18.1.2"
PC_SSH="role=pc transport=ssh dest=root@198.18.2.2 $SSHOPT addr=198.18.2.2"

# rig NAME AP-EXTRA [STA-LINE [PC-LINE]]: a rig file whose AP is reached over ssh
rig() {
	{
		echo "# t_ssh.sh: AP over ssh, controller in pc"
		echo "role=ap transport=ssh dest=root@198.18.2.1 $SSHOPT" \
		     "bridge=br-wlan:wlan0 bridge=br-lan:eth0 $2"
		echo "${3:-$STA_SSH}"
		echo "${4:-role=pc transport=local addr=198.18.2.2}"
	} > "$TMPD/$1.rig"
}
in_pc() { ip netns exec "$PC" "$@"; }
# What a run may change on the AP, read in the AP namespace without brnf.
ap_state() {
	ip netns exec "$AP" sh -c '
		for f in iptables ip6tables arptables; do
			echo "global $f $(cat /proc/sys/net/bridge/bridge-nf-call-$f)"
		done
		for b in br-wlan br-lan; do for f in iptables ip6tables arptables; do
			echo "$b $f $(cat /sys/class/net/$b/bridge/nf_call_$f)"
		done; done
		nft list ruleset 2>/dev/null | sed "s/counter packets [0-9]* bytes [0-9]*/counter/"
		iptables-save -t mangle | grep -v "^#" | sed "s/\[[0-9]*:[0-9]*\]//"'
}
state_same() {
	ap_state > "$TMPD/state.now"
	if diff -u "$1" "$TMPD/state.now" > "$TMPD/state.diff"; then
		return 0
	fi
	sed 's/^/# /' "$TMPD/state.diff" | head -30
	return 1
}
no_iperf() {
	for ns in "$AP" "$STA" "$PC"; do
		for p in $(ip netns pids "$ns"); do
			[ "$(cat /proc/"$p"/comm 2>/dev/null)" = iperf3 ] && return 1
		done
	done
	return 0
}
no_ssh_left() {
	! ls -d /tmp/brnf-ssh.* > /dev/null 2>&1 && ! pgrep -f '/tmp/brnf-ssh\.' > /dev/null
}

[ "$ash" = true ] || check "the sshds' sh is busybox ash" sh -c "ip netns exec '$PC' ssh -F '$TMPD/ssh_config' -i '$TMPD/id' \
	-o BatchMode=yes root@198.18.2.1 'sh --help 2>&1 | head -n 1' | grep -q '^BusyBox'"
check "shipped rig files parse" sh -c "'$BRNF' rig check '$TOPDIR/rig/rigs/netns.rig' > /dev/null &&
	'$BRNF' rig check '$TOPDIR/rig/rigs/openwrt-example.rig' > /dev/null"
rig ok ""
check "brnf rig ping reaches the AP over ssh (from pc)" \
	sh -c "ip netns exec '$PC' '$BRNF' rig ping '$TMPD/ok.rig' --role ap --repeat 3 | grep -q 'ap .*ssh .*mean'"

# --- one-second default matrix over ssh
ap_state > "$TMPD/state.before"
set +e
in_pc "$BRNF" run --rig "$TMPD/ok.rig" --time 1 --omit 0 --reps 1 --flows 1 --out "$TMPD/ssh" \
	--no-render > "$TMPD/out" 2> "$TMPD/err"
rc=$?
set -e
check "matrix over ssh: exit 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMPD/err" | tail -20
check "matrix over ssh: 8 measured runs" test "$(measured_runs "$TMPD/ssh" | wc -l)" -eq 8
check "matrix over ssh: 4 verification passes" test "$(verify_records "$TMPD/ssh" | wc -l)" -eq 4
check "matrix over ssh: the AP's settings restored (sysctls, flags, nft, mangle)" \
	state_same "$TMPD/state.before"
check "matrix over ssh: says it restored" grep -q 'restoring the settings of ap (ssh root@198.18.2.1)' "$TMPD/err"
PROV="$TMPD/ssh/raw/running/provenance.json"
check "provenance: device over ssh with uname -a" \
	test "$(jq -r '.device.transport + " " + (.device.uname | split(" ")[0])' "$PROV")" = "ssh Linux"
check "provenance: br_netfilter true, ruleset digest, restore verified" \
	test "$(jq -r '[.device.br_netfilter, (.device.ruleset_digest_start | test("^sha256:[0-9a-f]{64}$")),
		.device.restore] | join(" ")' "$PROV")" = "true true restored and read back equal"
check "provenance: the saved switches" test "$(jq -c .device.saved.global "$PROV")" = \
	"[$(ip netns exec "$AP" sh -c 'cat /proc/sys/net/bridge/bridge-nf-call-iptables \
	/proc/sys/net/bridge/bridge-nf-call-ip6tables /proc/sys/net/bridge/bridge-nf-call-arptables' | paste -sd,)]"
check "provenance: the AP's sysctls read over ssh" test "$(jq -r '.ap_at_end.sysctls["net.ipv4.ip_forward"]' "$PROV")" = 1
check "provenance: the kernel under test is the AP's (uname -a over ssh)" \
	test "$(jq -r '.kernel_release + " " + .kernel.source' "$PROV")" = "$(uname -r) ap (ssh root@198.18.2.1)"
check "brnf render renders a run over ssh" sh -c "'$BRNF' render '$TMPD/ssh' > /dev/null && test -s '$TMPD/ssh/matrix.md'"
check "provenance: the rig's roles" test "$(jq -r '.testbed.kind + " " + (.testbed.roles | length | tostring)' "$PROV")" = "rig 3"
check "no ssh connection or control directory left" no_ssh_left
check "no iperf3 state directory left on the remote side" sh -c "! ls -d /tmp/brnf-iperf3.* 2>/dev/null"

# --- the same matrix over the namespace transport: read-back and verification agree
set +e
"$BRNF" run --time 1 --omit 0 --reps 1 --flows 1 --out "$TMPD/netns" --no-render \
	> /dev/null 2> "$TMPD/err.netns"
rc=$?
set -e
check "matrix over netns: exit 0" test "$rc" -eq 0
summary() {
	jq -c '{i: .row.index, k: .kind, d: .direction, w: .workload, rb: .readback,
		v: (.verify.bridges // {} | map_values({expected, counted: (.packets > 0)})),
		r: .verify.result}' "$1"/raw/running/runs/*/record.json | sort
}
summary "$TMPD/ssh" > "$TMPD/sum.ssh"
summary "$TMPD/netns" > "$TMPD/sum.netns"
if [ -s "$TMPD/sum.ssh" ] && diff -u "$TMPD/sum.netns" "$TMPD/sum.ssh" > "$TMPD/sum.diff"; then
	ok "ssh and netns transports: same read-back and verification in all 12 records"
else
	not_ok "ssh and netns transports: same read-back and verification in all 12 records"
	sed 's/^/# /' "$TMPD/sum.diff" | head -20
fi
check "every row over ssh verified yes" test "$(verdicts "$TMPD/ssh")" = yes

# --- errors before anything changes: one line naming the host
err_case() {	# err_case WHAT RIG PATTERN
	set +e
	in_pc "$BRNF" run --rig "$TMPD/$2.rig" --time 1 --omit 0 --reps 1 --flows 1 \
		--out "$TMPD/out.$2" > /dev/null 2> "$TMPD/err.$2"
	rc=$?
	set -e
	check "$1: exit 1" test "$rc" -eq 1
	if grep -q "$3" "$TMPD/err.$2"; then ok "$1: the error names the host"; else
		not_ok "$1: the error names the host"; sed 's/^/# /' "$TMPD/err.$2"; fi
	check "$1: one line" test "$(wc -l < "$TMPD/err.$2")" -eq 1
	sed 's/^/#   /' "$TMPD/err.$2"
	check "$1: no results" sh -c "! ls -d '$TMPD/out.$2'* 2>/dev/null"
	check "$1: the AP unchanged" state_same "$TMPD/state.before"
	check "$1: no ssh connection left" no_ssh_left
}
sed 's/198\.18\.2\.1/198.18.9.9/' "$TMPD/ok.rig" > "$TMPD/unreach.rig"
err_case "unreachable host" unreach 'ap (ssh root@198.18.9.9): ssh failed: .*unreachable'
sed "/^role=ap/s|identity=$TMPD/id |identity=$TMPD/id_refused |" "$TMPD/ok.rig" > "$TMPD/refused.rig"
err_case "refused key" refused 'ap (ssh root@198.18.2.1): ssh failed: .*Permission denied'
rig noiperf "" "role=sta transport=ssh dest=root@198.18.2.1 $SSHOPT addr=198.18.1.2"
err_case "station without iperf3" noiperf 'sta (ssh root@198.18.2.1): iperf3 not found'

# --- an AP without br_netfilter: the rows that need it are unsupported, the rest run
rig nobrnf "port=2222" "role=sta transport=netns netns=$STA addr=198.18.1.2"
set +e
in_pc "$BRNF" run --rig "$TMPD/nobrnf.rig" --time 1 --omit 0 --reps 1 --flows 1 --out "$TMPD/nb" \
	--no-render > /dev/null 2> "$TMPD/err.nb"
rc=$?
set -e
check "no br_netfilter: exit 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMPD/err.nb" | tail
check "no br_netfilter: 3 rows unsupported" test "$(grep -c 'unsupported, ap (ssh root@198.18.2.1 port 2222) has no br_netfilter' "$TMPD/err.nb")" -eq 3
grep 'unsupported' "$TMPD/err.nb" | sed 's/^/#   /'
check "no br_netfilter: the other row ran (2 runs, 1 verification pass)" \
	test "$(measured_runs "$TMPD/nb" | wc -l) $(verify_records "$TMPD/nb" | wc -l)" = "2 1"
check "no br_netfilter: verification n/a" test "$(verdicts "$TMPD/nb")" = n/a
check "no br_netfilter: provenance marks the rows" test "$(jq -c '[.rows[] | .unsupported != null]' \
	"$TMPD/nb/raw/running/provenance.json")" = "[false,true,true,true]"
check "no br_netfilter: provenance says so" test "$(jq .device.br_netfilter "$TMPD/nb/raw/running/provenance.json")" = false
check "no br_netfilter: brnf render renders the row that ran" sh -c "'$BRNF' render '$TMPD/nb' > '$TMPD/nb.txt' && grep -q 'n/a' '$TMPD/nb/matrix.md'"
check "no br_netfilter: the AP unchanged" state_same "$TMPD/state.before"

# --- more roles: flow i uses the i-th station and PC (sta2 and pc2 over ssh)
rig multi "" "role=sta transport=netns netns=$STA addr=198.18.1.2
role=sta2 transport=ssh dest=root@198.18.1.2 $SSHOPT addr=198.18.1.2
role=pc2 transport=ssh dest=root@198.18.2.2 $SSHOPT addr=198.18.2.2"
printf 'global=0 local=br-lan\n' > "$TMPD/one.matrix"
set +e
in_pc "$BRNF" run --rig "$TMPD/multi.rig" --matrix "$TMPD/one.matrix" --time 1 --omit 0 --reps 1 \
	--flows 2 --out "$TMPD/multi" --no-render > /dev/null 2> "$TMPD/err.multi"
rc=$?
set -e
check "sta2 and pc2: exit 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMPD/err.multi" | tail
check "sta2 and pc2: both flows of every run received data" test "$(jq -s \
	'map(.end.sum_received.bits_per_second > 0) | length == 4 and all' \
	$(measured_runs "$TMPD/multi" | sed 's,$,flow-*.json,'))" = true
check "sta2 and pc2: verified yes" test "$(verdicts "$TMPD/multi")" = yes
check "sta2 and pc2: the AP unchanged" state_same "$TMPD/state.before"

# --- SIGTERM mid-run: the AP's own settings come back
ip netns exec "$AP" sh -c '
	echo 1 > /proc/sys/net/bridge/bridge-nf-call-iptables
	echo 0 > /proc/sys/net/bridge/bridge-nf-call-ip6tables
	echo 1 > /proc/sys/net/bridge/bridge-nf-call-arptables
	echo 1 > /sys/class/net/br-lan/bridge/nf_call_iptables
	echo 1 > /sys/class/net/br-wlan/bridge/nf_call_arptables
	nft add table inet brnfkeep
	nft add chain inet brnfkeep input "{ type filter hook input priority 0; policy accept; }"
	nft add rule inet brnfkeep input tcp dport 9 counter accept
	iptables -w -t mangle -A FORWARD -p tcp --dport 9 -j ACCEPT'
ap_state > "$TMPD/state.own"
printf 'global=0 local=-\nglobal=1 local=br-lan ruleset=openwrt\n' > "$TMPD/m"
rig allssh "" "$STA_SSH" "$PC_SSH"
ip netns exec "$PC" "$BRNF" run --rig "$TMPD/allssh.rig" --matrix "$TMPD/m" --time 5 --omit 0 --reps 2 --flows 2 \
	--out "$TMPD/t" --no-render > /dev/null 2> "$TMPD/err.t" &
pid=$!	# ip netns exec execs brnf: this is brnf's pid
started() { ls -d "$TMPD"/t.tmp.*/raw/running/runs/0001-* > /dev/null 2>&1; }
if wait_for 60 started; then
	ok "SIGTERM: run over ssh started"
else
	not_ok "SIGTERM: run over ssh started"
	sed 's/^/# /' "$TMPD/err.t"
fi
sleep 1
# the journal's entry for the AP: the one with the AP's saved sysctls in it
ap_entry() { grep -l 'bridge-nf-call' /run/brnf/*.journal/*.sh 2> /dev/null | head -n 1; }
check "SIGTERM: the saved state is also a journal entry in /run/brnf" test -s "$(ap_entry)"
check "SIGTERM: the entry (the router's firewall) is mode 0600" \
	test "$(stat -c %a "$(ap_entry)")" = 600
ap_state > "$TMPD/state.mid"
check "SIGTERM: the AP was changed meanwhile" sh -c "! cmp -s '$TMPD/state.own' '$TMPD/state.mid'"
kill -TERM "$pid" 2>/dev/null || true
set +e
wait "$pid"
rc=$?
set -e
check "SIGTERM: exit 143" test "$rc" -eq 143
check "SIGTERM: says it restores" grep -q 'interrupted; restoring the AP' "$TMPD/err.t"
check "SIGTERM: the AP's own settings are back (sysctls, flags, nft, mangle)" state_same "$TMPD/state.own"
check "SIGTERM: the entry is gone once the AP read back as saved" test -z "$(ap_entry)"
check "SIGTERM: no results directory" test ! -e "$TMPD/t"
check "SIGTERM: no temporary results directory" sh -c "! ls -d '$TMPD'/t.tmp.* 2>/dev/null"
check "SIGTERM: no ssh connection left" no_ssh_left
check "SIGTERM: no iperf3 left in the test bed" no_iperf
check "SIGTERM: no iperf3 state directory left" sh -c "! ls -d /tmp/brnf-iperf3.* 2>/dev/null"

# --- Ctrl-C: SIGINT to the whole process group, the ssh clients die with brnf's
setsid ip netns exec "$PC" "$BRNF" run --rig "$TMPD/allssh.rig" --matrix "$TMPD/m" --time 5 \
	--omit 0 --reps 2 --flows 2 --out "$TMPD/c" --no-render > /dev/null 2> "$TMPD/err.c" &
pid=$!	# setsid execs (not a group leader here): brnf's pid and process group
startedc() { ls -d "$TMPD"/c.tmp.*/raw/running/runs/0001-* > /dev/null 2>&1; }
if wait_for 60 startedc; then
	ok "Ctrl-C: run over ssh started"
else
	not_ok "Ctrl-C: run over ssh started"
	sed 's/^/# /' "$TMPD/err.c"
fi
sleep 1
kill -INT -"$pid" 2>/dev/null || true
set +e
wait "$pid"
rc=$?
set -e
check "Ctrl-C: exit 130" test "$rc" -eq 130
check "Ctrl-C: says it restores" grep -q 'interrupted; restoring the AP' "$TMPD/err.c"
check "Ctrl-C: the AP's own settings are back" state_same "$TMPD/state.own"
check "Ctrl-C: no ssh connection left" no_ssh_left
check "Ctrl-C: no iperf3 left in the test bed" no_iperf
check "Ctrl-C: no iperf3 state directory left" sh -c "! ls -d /tmp/brnf-iperf3.* 2>/dev/null"

# --- Ctrl-C twice, the second while the AP is being restored: the restore finishes
# (brnf blocks the stop signals while it unwinds, and its ssh and nft children are in
# process groups of their own, so a Ctrl-C at the terminal never reaches them)
setsid ip netns exec "$PC" "$BRNF" run --rig "$TMPD/allssh.rig" --matrix "$TMPD/m" --time 5 \
	--omit 0 --reps 2 --flows 2 --out "$TMPD/c2" --no-render > /dev/null 2> "$TMPD/err.c2" &
pid=$!
check "Ctrl-C twice: run over ssh started" \
	wait_for 60 sh -c "ls -d '$TMPD'/c2.tmp.*/raw/running/runs/0001-* > /dev/null 2>&1"
# the first, then one every 50 ms to the whole group until brnf is gone; n counts those
# sent while the restore was under way
n=0
i=0
while kill -0 "$pid" 2> /dev/null && [ "$i" -lt 600 ]; do
	kill -INT -"$pid" 2> /dev/null || true
	grep -q 'restoring the settings of ap' "$TMPD/err.c2" && n=$((n + 1))
	i=$((i + 1))
	sleep 0.05
done
run_rc wait "$pid"
echo "# $i SIGINTs to the process group, $n of them during the restore"
check "Ctrl-C twice: exit 130" test "$rc" -eq 130
check "Ctrl-C twice: Ctrl-C came again during the restore" test "$n" -ge 1
check "Ctrl-C twice: the AP's own settings are back (sysctls, flags, nft, mangle)" \
	state_same "$TMPD/state.own"
check "Ctrl-C twice: the restore says nothing failed" sh -c "! grep -q 'NOT restored' '$TMPD/err.c2'"
check "Ctrl-C twice: the journal entry is gone (the AP read back as saved)" test -z "$(ap_entry)"
check "Ctrl-C twice: no ssh connection left" no_ssh_left
check "Ctrl-C twice: no iperf3 left in the test bed" no_iperf
[ "$rc" -eq 130 ] || sed 's/^/# /' "$TMPD/err.c2" | tail -5

# --- a ruleset the AP's kernel refuses (a nat chain on the forward hook: refused when
# the transaction is committed): the flush and the load are one nft transaction, so
# the AP keeps its own ruleset, the very tables (same handles), never flushed
mkdir "$TMPD/data"
cp -r "$TOPDIR/rig/rulesets" "$TOPDIR/rig/rigs" "$TOPDIR/rig/matrices" "$TMPD/data/"
n=$(wc -l < "$TMPD/data/rulesets/openwrt.nft")
printf 'table ip brnf_refused {\n\tchain c {\n\t\ttype nat hook forward priority 0;\n\t}\n}\n' \
	>> "$TMPD/data/rulesets/openwrt.nft"
printf 'global=0 local=- ruleset=openwrt\n' > "$TMPD/refused.matrix"
ip netns exec "$AP" nft -a list ruleset > "$TMPD/handles.before"
run_rc in_pc env BRNF_DATADIR="$TMPD/data" "$BRNF" run --rig "$TMPD/ok.rig" \
	--matrix "$TMPD/refused.matrix" --workloads tcp --time 1 --omit 0 --reps 1 --flows 1 \
	--out "$TMPD/rf" \
	--no-render > /dev/null 2> "$TMPD/err.rf"
ip netns exec "$AP" nft -a list ruleset > "$TMPD/handles.after"
check "refused ruleset on the AP: exit 1" test "$rc" -eq 1
one_line "refused ruleset on the AP: one line naming the AP, the file and its line $((n + 2))" \
	"$TMPD/err.rf" "ap (ssh root@198.18.2.1): ruleset openwrt (.*/openwrt.nft) does not load on this kernel .*/openwrt.nft:$((n + 2)):.*Operation not supported" \
	'restoring the settings of'
same_file "refused ruleset on the AP: it kept its ruleset, the same tables (nft -a: same handles)" \
	"$TMPD/handles.before" "$TMPD/handles.after"
check "refused ruleset on the AP: its settings as before" state_same "$TMPD/state.own"
check "refused ruleset on the AP: no results" sh -c "! ls -d '$TMPD'/rf '$TMPD'/rf.tmp.* 2>/dev/null"

# --- SIGKILL right after each kind of step the journal records (BRNF_FAULT_KILL,
# journal.h), every role over ssh, then `brnf cleanup` on the PC: the host (its
# namespaces, links, sysctls, firewall) and the AP (switches, sysctls, nft,
# iptables-save, the files a run makes on the hosts) are byte for byte as before.
# This test's own test bed is kept (testbed up): holding its claim keeps cleanup off it.
P=${AP%-ap}
(exec 9<> "/run/brnf/$P.claim" && flock 9 && exec sleep 900) > /dev/null 2>&1 &
HOLD=$!
kill_state() {
	root_state
	echo "## netns"
	ip netns list
	echo "## ap"
	ap_state
	ip netns exec "$AP" sysctl -a 2>/dev/null | grep '^net\.' | grep -v -E \
		'nf_conntrack_count|gc_|random|^net\.ipv4\.tcp_mem|^net\.ipv4\.udp_mem|^net\.core\.netdev_rss_key'
	ip netns exec "$AP" iptables-save | grep -v '^#' | sed 's/\[[0-9]*:[0-9]*\]//'
	ip netns exec "$AP" ip6tables-save | grep -v '^#' | sed 's/\[[0-9]*:[0-9]*\]//'
	echo "## files"
	ls -d /tmp/brnf-iperf3.* /tmp/brnf-ssh.* "$TMPD"/kj* 2> /dev/null || true
	ls /run/brnf
	ls /run/brnf/*.journal 2> /dev/null || true
	echo "## processes"
	pgrep -f '/tmp/brnf-ssh\.' | wc -l
	pgrep -x iperf3 | wc -l
}
printf 'global=1 local=-\nglobal=0 local=br-lan ruleset=openwrt\n' > "$TMPD/mk"
iperf_left() { ! no_iperf; }
ap_changed() { ap_state > "$TMPD/state.now" && ! cmp -s "$TMPD/state.own" "$TMPD/state.now"; }
# a master renames itself "ssh: /tmp/brnf-ssh.XXXXXX/<hash> [mux]"
masters_gone() { ! pgrep -f '/tmp/brnf-ssh\.' > /dev/null; }
ssh_left() { ls -d /tmp/brnf-ssh.* > /dev/null 2>&1 && ! masters_gone; }
kill_at() {	# kill_at KIND [PREFIX...]: a run killed right after that step
	_k=$1
	shift
	run_rc in_pc "$@" env BRNF_FAULT_KILL="$_k" "$BRNF" run --rig "$TMPD/allssh.rig" \
		--matrix "$TMPD/mk" --time 1 --omit 0 --reps 1 --flows 2 --out "$TMPD/kj" \
		--no-render > /dev/null 2> "$TMPD/err.kj"
	check "SIGKILL after the step $_k: killed there (exit 137)" \
		sh -c "test $rc -eq 137 && grep -q 'BRNF_FAULT_KILL=$_k: killed' '$TMPD/err.kj'"
}
for kind in claim ssh ap change results remote; do
	kill_state > "$TMPD/kill.before"
	kill_at "$kind"
	kill_state > "$TMPD/kill.killed"
	check "SIGKILL after the step $kind: something is left to undo" \
		sh -c "! cmp -s '$TMPD/kill.before' '$TMPD/kill.killed'"
	case $kind in
	claim) check "SIGKILL after the step claim: its claim and journal are left" \
		sh -c "ls /run/brnf/brnf*.claim | grep -v '/$P\.claim\$' | grep -q ." ;;
	ssh) check "SIGKILL after the step ssh: its control directory and master are left" \
		ssh_left ;;
	results) check "SIGKILL after the step results: its temporary results are left" \
		sh -c "ls -d '$TMPD'/kj.tmp.* > /dev/null 2>&1" ;;
	ap) check "SIGKILL after the step ap: the AP's saved state is journaled" test -s "$(ap_entry)" ;;
	change) check "SIGKILL after the step change: the AP is left changed" ap_changed ;;
	remote) check "SIGKILL after the step remote: iperf3 servers are left on the hosts" \
		iperf_left ;;
	esac
	run_rc in_pc "$BRNF" cleanup > /dev/null
	check "SIGKILL after the step $kind: brnf cleanup exit 0" test "$rc" -eq 0
	wait_for 10 masters_gone || true
	kill_state > "$TMPD/kill.after"
	same_file "SIGKILL after the step $kind, brnf cleanup: host and AP byte-identical to before" \
		"$TMPD/kill.before" "$TMPD/kill.after" 20
done

# Killed once every run was measured, during the AP's restore (docker stop's SIGKILL
# after its grace period): the replay puts the AP back and keeps the measured runs
kill_state > "$TMPD/kill.before"
kill_at measured
run_rc in_pc "$BRNF" cleanup > /dev/null
check "SIGKILL once measured: brnf cleanup exit 0" test "$rc" -eq 0
check "SIGKILL once measured: the AP's own settings" state_same "$TMPD/state.own"
check "SIGKILL once measured: the measured runs are kept (2 rows, 2 directions)" \
	test "$(ls -d "$TMPD"/kj.tmp.*/raw/running/runs/*/ 2> /dev/null | grep -vc -- '-verify/$')" -eq 4
rm -rf "$TMPD"/kj.tmp.*
wait_for 10 masters_gone || true
kill_state > "$TMPD/kill.after"
check "SIGKILL once measured, brnf cleanup, the runs moved away: byte-identical to before" \
	cmp -s "$TMPD/kill.before" "$TMPD/kill.after"

# PID 1 of a pid namespace (a container's brnf after `docker stop` timed out), twice in
# a row: the second replays the first's journal before it saves the AP, so what
# cleanup puts back is the AP's own state, not the first run's changes.
kill_state > "$TMPD/kill.before"
kill_at change unshare -fp --mount-proc
kill_at change unshare -fp --mount-proc
check "PID 1 twice: the second run put the first's changes back before saving" \
	grep -q "replayed .* on ap (ssh root@198.18.2.1)" "$TMPD/err.kj"
run_rc in_pc "$BRNF" cleanup > /dev/null
check "PID 1 twice: brnf cleanup exit 0" test "$rc" -eq 0
wait_for 10 masters_gone || true
kill_state > "$TMPD/kill.after"
check "PID 1 twice, brnf cleanup: host and AP byte-identical to before" \
	cmp -s "$TMPD/kill.before" "$TMPD/kill.after"
check "PID 1 twice: the AP's own settings" state_same "$TMPD/state.own"

# An entry that cannot be replayed (the AP unreachable from where cleanup runs, here
# the root namespace): it stays, one line names it, cleanup and the next run fail
kill_at change
run_rc "$BRNF" cleanup 2> "$TMPD/err.cl"
check "AP unreachable: brnf cleanup exit 1" test "$rc" -eq 1
check "AP unreachable: the line names the entry and the AP" \
	grep -q "journal/[0-9]*\.sh: replay on ap (ssh root@198.18.2.1) failed" "$TMPD/err.cl"
check "AP unreachable: the entry stays" test -s "$(ap_entry)"
run_rc "$BRNF" run --rig "$TMPD/allssh.rig" --matrix "$TMPD/mk" --time 1 --omit 0 --reps 1 \
	--flows 1 --out "$TMPD/kj" --no-render > /dev/null 2> "$TMPD/err.next"
check "AP unreachable: the next run refuses to start (exit 1)" test "$rc" -eq 1
check "AP unreachable: and says why" grep -q "the AP may still carry its settings" "$TMPD/err.next"
run_rc in_pc "$BRNF" cleanup > /dev/null
check "AP reachable again: brnf cleanup exit 0" test "$rc" -eq 0
check "AP reachable again: the AP's own settings" state_same "$TMPD/state.own"
kill "$HOLD" 2> /dev/null || true

# --- a hostile pid file on a host reached over ssh kills nothing. Another user of
# the PC host plants /tmp/brnf-iperf3-5201.pid, the fixed name brnf once used, with
# "-9 <pid>" in it, where root cannot overwrite it (fs.protected_regular on Debian;
# here a read-only bind mount inside that sshd's own mount namespace). The flow
# fails (a stand-in iperf3 client on the station), so brnf ends the PC's server
# over ssh: it must end its own server and nothing else.
sleep 600 &
canary=$!
printf -- '-9 %s\n' "$canary" > "$TMPD/hostile.pid"
chmod 644 "$TMPD/hostile.pid"
: > /tmp/brnf-iperf3-5201.pid
chown 65534:65534 /tmp/brnf-iperf3-5201.pid
hostile="mount --bind -o ro '$TMPD/hostile.pid' /tmp/brnf-iperf3-5201.pid"
if start_sshd hostile "$PC" 198.18.2.2:2222 "$norc && $ash && $hostile"; then
	ok "hostile pid file: sshd on the pc (:2222) sees it"
else
	not_ok "hostile pid file: sshd on the pc (:2222) sees it"
fi
failing_iperf3 "$TMPD/failbin"
rig hostile "" "role=sta transport=netns netns=$STA addr=198.18.1.2" \
	"role=pc transport=ssh dest=root@198.18.2.2 port=2222 $SSHOPT addr=198.18.2.2"
printf 'global=0 local=-\n' > "$TMPD/one.matrix"
set +e
ip netns exec "$PC" env PATH="$TMPD/failbin:$PATH" "$BRNF" run --rig "$TMPD/hostile.rig" \
	--matrix "$TMPD/one.matrix" --time 1 --omit 0 --reps 1 --flows 1 --out "$TMPD/h" \
	--no-render > /dev/null 2> "$TMPD/err.h"
rc=$?
set -e
check "hostile pid file: the failed flow is reported (exit 1)" test "$rc" -eq 1
check "hostile pid file: the process it names is alive" kill -0 "$canary"
check "hostile pid file: brnf's own server ended" wait_for 5 no_iperf
check "hostile pid file: no state directory left" sh -c "! ls -d /tmp/brnf-iperf3.* 2>/dev/null"
check "hostile pid file: the AP unchanged" state_same "$TMPD/state.own"
kill "$canary" 2> /dev/null || true
# what the old fixed name left behind when it could not end its server
for p in $(ip netns pids "$PC"); do
	[ "$(cat /proc/"$p"/comm 2>/dev/null)" = iperf3 ] && kill "$p"
done
kill "$(cat "$TMPD/sshd_hostile.pid")" 2> /dev/null || true
rm -f /tmp/brnf-iperf3-5201.pid

# --- a stale iperf3 server on the port (another user's, or one a killed run left): brnf
# measures only its own server, found by the listening socket's inode among that
# server's fds, so its server failing to bind is an error, not a measurement of the
# stale one. Over ssh (the PC's sshd; brnf in the pc namespace) and through the netns
# transport (every role; brnf where the tests run).
ip netns exec "$PC" iperf3 -s -p 5201 > /dev/null 2>&1 &
stale=$!
wait_for 5 sh -c "ip netns exec '$PC' ss -Hltn 'sport = :5201' | grep -q 5201"
rig stalessh "" "role=sta transport=netns netns=$STA addr=198.18.1.2" "$PC_SSH"
printf '%s\n' "role=ap transport=netns netns=$AP bridge=br-wlan:wlan0 bridge=br-lan:eth0" \
	"role=sta transport=netns netns=$STA addr=198.18.1.2" \
	"role=pc transport=netns netns=$PC addr=198.18.2.2" > "$TMPD/stalens.rig"
for t in ssh ns; do
	where=in_pc
	[ "$t" = ssh ] || where=
	run_rc $where "$BRNF" run --rig "$TMPD/stale$t.rig" --matrix "$TMPD/one.matrix" \
		--workloads tcp --time 1 --omit 0 --reps 1 --flows 1 --out "$TMPD/stale$t" \
		--no-render > /dev/null 2> "$TMPD/err.stale$t"
	check "stale iperf3 server on the pc ($t): the run fails (exit 1)" test "$rc" -eq 1
	if grep -q 'iperf3 server on pc (.*) port 5201 exited (status 1) before listening' \
		"$TMPD/err.stale$t"; then
		ok "stale iperf3 server on the pc ($t): says its own server did not listen"
	else
		not_ok "stale iperf3 server on the pc ($t): says its own server did not listen"
		sed 's/^/# /' "$TMPD/err.stale$t" | tail -5
	fi
	check "stale iperf3 server on the pc ($t): nothing measured" \
		sh -c "! ls -d '$TMPD'/stale$t '$TMPD'/stale$t.tmp.* 2>/dev/null"
	check "stale iperf3 server on the pc ($t): it is left alone" kill -0 "$stale"
done
kill "$stale" 2> /dev/null || true
wait "$stale" 2> /dev/null || true
check "stale iperf3 server: the AP unchanged" state_same "$TMPD/state.own"
