#!/bin/sh
# Per-command overhead of brnf's transports: `brnf rig ping --repeat N` runs
# `true` N times on each role (after one warm-up command that opens the ssh
# connection) and prints the mean. Against a local sshd in the AP namespace of
# a test bed, reached from the pc namespace as on a real rig; the station is a
# netns role (fork + setns + exec), the pc a local one (fork + exec).
#
# Two sshd: "norc" sees an empty /root/.bashrc (OpenWrt's ash reads no rc
# file for a command), "stock" this machine's own root shell setup. Both only
# in the sshd's mount namespace. Output: results/ssh-overhead/<UTC time>.txt
# with provenance (date, kernel, ssh version, brnf version, load, CPU).
#
# usage: rig/tests/ssh-overhead.sh [COUNT [REPS]]   (root; default 100 x 3)
set -eu
. "$(dirname "$0")/lib.sh"
COUNT=${1:-100}
REPS=${2:-3}
checktool ssh ssh-keygen ip
[ -x /usr/sbin/sshd ] || { echo "$0: /usr/sbin/sshd is missing (openssh-server)" >&2; exit 1; }

"$BRNF" testbed up > "$TMPD/tb"
AP=$(awk '$1 == "ap" { print $2 }' "$TMPD/tb")
STA=$(awk '$1 == "sta" { print $2 }' "$TMPD/tb")
PC=$(awk '$1 == "pc" { print $2 }' "$TMPD/tb")
cleanup() {
	for p in "$TMPD"/sshd_*.pid; do
		[ -s "$p" ] && kill "$(cat "$p")" 2>/dev/null
	done
	"$BRNF" testbed down "$AP" > /dev/null 2>&1 || true
	rm -rf "$TMPD"
}
trap cleanup EXIT

ssh-keygen -q -t ed25519 -N '' -f "$TMPD/hostkey"
ssh-keygen -q -t ed25519 -N '' -f "$TMPD/id"
cp "$TMPD/id.pub" "$TMPD/authorized_keys"
: > "$TMPD/empty"
printf 'Host *\n\tStrictHostKeyChecking no\n\tUserKnownHostsFile /dev/null\n\tLogLevel ERROR\n' \
	> "$TMPD/ssh_config"
mkdir -p /run/sshd
start_sshd() {	# NAME PORT SETUP
	cat > "$TMPD/sshd_$1.conf" <<EOF
ListenAddress 198.18.2.1:$2
HostKey $TMPD/hostkey
PidFile $TMPD/sshd_$1.pid
AuthorizedKeysFile $TMPD/authorized_keys
StrictModes no
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
EOF
	ip netns exec "$AP" sh -c "$3 && exec /usr/sbin/sshd -f '$TMPD/sshd_$1.conf'"
	wait_for 5 test -s "$TMPD/sshd_$1.pid"
}
start_sshd norc 22 "mount --bind '$TMPD/empty' /root/.bashrc"
start_sshd stock 2222 "true"
for v in norc:22 stock:2222; do
	cat > "$TMPD/${v%%:*}.rig" <<EOF
role=ap transport=ssh dest=root@198.18.2.1 port=${v#*:} identity=$TMPD/id config=$TMPD/ssh_config bridge=br-wlan:wlan0 bridge=br-lan:eth0
role=sta transport=netns netns=$STA addr=198.18.1.2
role=pc transport=local addr=198.18.2.2
EOF
done

mkdir -p "$TOPDIR/results/ssh-overhead"
OUT="$TOPDIR/results/ssh-overhead/$(date -u +%Y%m%dT%H%M%SZ).txt"
{
	echo "# brnf transport overhead: mean wall time of one \`true\` per transport"
	echo "# command: ip netns exec <pc> brnf rig ping RIG --repeat $COUNT   ($REPS times per rig)"
	echo "# script: rig/tests/ssh-overhead.sh $COUNT $REPS"
	echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "# kernel: $(uname -a)"
	echo "# ssh: $(ssh -V 2>&1)"
	echo "# sshd: /usr/sbin/sshd from $(dpkg-query -W -f '${Package} ${Version}' openssh-server 2>/dev/null)"
	echo "# brnf: $("$BRNF" version)"
	echo "# cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cpus"
	echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg) (machine shared with other jobs)"
	echo "# ap: sshd in netns $AP, client in netns $PC; sta: netns exec; pc: local exec"
	echo "# norc: the sshd sees an empty /root/.bashrc; stock: this machine's root .bashrc"
	echo "#   ($(grep -c . /root/.bashrc 2>/dev/null || echo 0) non-empty lines, runs pyenv init)"
	for rig in norc stock; do
		for rep in $(seq "$REPS"); do
			ip netns exec "$PC" "$BRNF" rig ping "$TMPD/$rig.rig" --repeat "$COUNT" |
				sed "s/^/$rig rep $rep: /"
		done
	done
	echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$OUT"
echo "wrote $OUT" >&2
