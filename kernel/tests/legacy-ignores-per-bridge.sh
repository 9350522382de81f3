#!/bin/sh
# legacy-ignores-per-bridge.sh: assert the known flaw of the "legacy" kernel (the port of
# OpenWrt's 644-bridge_optimize_netfilter_hooks.patch): with the namespace's
# bridge-nf-call-* sysctls at 0, a bridge's own nf_call_iptables=1 is ignored (no frame
# reaches iptables) and nftables bridge-family chains see no frame either.
# Run as root in a guest booted with the legacy kernel (scripts/qemu-run); topology and
# helpers in brnf-topo.sh. Exit 0 when the flaw is observed, 1 when not, 4 to skip.
#
#  1. sanity: global sysctls 1: iptables counts br-lan and br-wlan frames
#     (proves physdev counting works on this kernel, so 0 below means something)
#  2. global 0, br-lan nf_call_*=1: the br-lan iptables counter stays 0
#  3. global 0, an nft bridge forward chain: its counters stay 0
#  4. global 0, an ebtables-legacy table exists: br-lan frames reach iptables again
#     (the original's "ebtables in use" exception), when ebtables-legacy is installed
set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/brnf-topo.sh"

trap topo_cleanup EXIT
need_tools nft
topo_setup

set_global 1
ping_count ipt
if [ "${l:-0}" -gt 0 ] && [ "${w:-0}" -gt 0 ]; then
	ok "global 1: iptables counts bridged frames (br-lan $l, br-wlan $w)"
else
	fail "global 1: iptables should count bridged frames (br-lan ${l:-?}, br-wlan ${w:-?})"
fi

set_global 0
set_bridge br-lan 1
ipt_zero
ping_count ipt
if both_zero; then
	ok "global 0, br-lan nf_call_iptables=1: per-bridge flag ignored (br-lan 0, br-wlan 0)"
else
	fail "global 0, br-lan nf_call_iptables=1: expected 0/0 on legacy, got br-lan ${l:-?}, br-wlan ${w:-?}"
fi

nft_bridge_add
ping_count nft
if both_zero; then
	ok "global 0: nft bridge forward chain skipped too (lan 0, wlan 0)"
else
	fail "global 0: expected the nft bridge chain to be skipped on legacy, got lan ${l:-?}, wlan ${w:-?}"
fi
nft_bridge_del

if command -v ebtables-legacy >/dev/null 2>&1 &&
   ip netns exec "$NS_AP" ebtables-legacy -t filter -L >/dev/null 2>&1; then
	ipt_zero
	ping_lan
	l=$(ipt_count lan)
	if [ "${l:-0}" -gt 0 ]; then
		ok "global 0, ebtables filter table exists: hooks run, br-lan counted ($l)"
	else
		fail "global 0, ebtables filter table exists: br-lan should be counted, got ${l:-?}"
	fi
else
	echo "# ebtables-legacy unavailable: check 4 not run"
fi

if [ $ret -ne 0 ]; then
	ip netns exec "$NS_AP" iptables -L FORWARD -v -n -x || true
	ip netns exec "$NS_AP" nft list hooks 2>/dev/null || true
fi
exit $ret
