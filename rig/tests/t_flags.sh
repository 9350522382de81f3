#!/bin/sh
# Build the test bed, flip every bridge-netfilter switch through brnf (rtnetlink
# for the bridges, /proc/sys for the globals) and read each back through sysfs
# and sysctl inside the AP namespace.
set -eu
. "$(dirname "$0")/lib.sh"
checktool ip jq

"$BRNF" testbed up > "$TMPD/names" || { not_ok "testbed up"; exit 1; }
ok "testbed up"
AP=$(awk '$1 == "ap" { print $2 }' "$TMPD/names")
STA=$(awk '$1 == "sta" { print $2 }' "$TMPD/names")
check "sta reaches pc over IPv4 through the AP" \
	ip netns exec "$STA" ping -c 1 -W 2 198.18.2.2 >/dev/null
check "sta reaches pc over IPv6 through the AP" \
	ip netns exec "$STA" ping -6 -c 1 -W 2 2001:2:0:2::2 >/dev/null
for br in br-lan br-wlan; do
	check "$br forward_delay 0" test "$(ip netns exec "$AP" cat /sys/class/net/$br/bridge/forward_delay)" = 0
done

# bridge netfilter off from before the first bridge (testbed.c, ap_setup()), as a router
# boots: the three sysctls 0 wherever br_netfilter is there to have them
check "testbed up: every bridge-nf-call-* sysctl 0 in the AP (or no br_netfilter there)" \
	ip netns exec "$AP" sh -c '[ ! -e /proc/sys/net/bridge/bridge-nf-call-iptables ] ||
		[ "$(cat /proc/sys/net/bridge/bridge-nf-call-iptables \
			/proc/sys/net/bridge/bridge-nf-call-ip6tables \
			/proc/sys/net/bridge/bridge-nf-call-arptables | tr -d "\n")" = 000 ]'

sysfs() { ip netns exec "$AP" cat "/sys/class/net/$1/bridge/nf_call_$2"; }
for br in br-lan br-wlan; do
	for fam in iptables ip6tables arptables; do
		for v in 1 0; do
			if "$BRNF" testbed flags "$br" "$fam=$v" && [ "$(sysfs "$br" "$fam")" = "$v" ]; then
				ok "$br nf_call_$fam=$v set over netlink, read back in sysfs"
			else
				not_ok "$br nf_call_$fam=$v set over netlink, read back in sysfs"
			fi
		done
	done
done
for fam in iptables ip6tables arptables; do
	for v in 0 1; do
		run_rc "$BRNF" testbed flags global "$fam=$v"
		got=$(ip netns exec "$AP" sysctl -n "net.bridge.bridge-nf-call-$fam")
		check "global bridge-nf-call-$fam=$v in the AP, exit 0 (got $got, exit $rc)" \
			test "$got $rc" = "$v 0"
	done
done
# The root namespace keeps its own values (per-namespace sysctls).
"$BRNF" testbed flags br-lan iptables=1 arptables=1
check "testbed show reads the flags back over netlink" \
	sh -c "'$BRNF' testbed show | grep -qx 'br-lan 1 0 1'"
set +e
"$BRNF" testbed flags br-nope iptables=1 2> "$TMPD/err"; rc=$?
set -e
check "unknown bridge: exit != 0" test "$rc" -ne 0
check "unknown bridge: names it" grep -q 'no link br-nope' "$TMPD/err"

"$BRNF" testbed down "$AP" >/dev/null
check "testbed down removes the namespaces" no_brnf_netns
