#!/bin/sh
# What a child brnf starts in a namespace of the test bed gets (rig/src/proc.c,
# netns.c, nl.c):
# - /sys mounted from inside that namespace, as `ip netns exec` gives it: its
#   /sys/class/net lists the namespace's own links (in the AP the bridges, whose
#   nf_call_* files are the AP's), in a mount namespace of the child's own, so that
#   the root namespace's /sys stays as it was;
# - none of brnf's rtnetlink sockets: every one is opened close-on-exec.
set -eu
. "$(dirname "$0")/lib.sh"
checktool strace iperf3 iptables-restore

# Stand-ins on PATH for the iperf3 of sta and pc and the iptables-restore of the AP:
# each notes what /sys/class/net lists, then is the real tool.
mkdir "$TMPD/bin"
for t in iperf3 iptables-restore; do
	cat > "$TMPD/bin/$t" <<EOS
#!/bin/sh
case " \$* " in
*" -s "*) who=server ;;
*" -c "*) who=client ;;
*) who=$t ;;
esac
echo "\$who \$(ls /sys/class/net | tr '\\n' ' ')" >> "$TMPD/sys.log"
exec $(command -v $t) "\$@"
EOS
	chmod +x "$TMPD/bin/$t"
done
mounts() { grep -c ' /sys ' /proc/self/mountinfo; }
before=$(mounts)
printf 'global=0 local=br-lan\n' > "$TMPD/one.matrix"
run_rc env PATH="$TMPD/bin:$PATH" "$BRNF" run --matrix "$TMPD/one.matrix" --workloads tcp \
	--time 1 --omit 0 --reps 1 --flows 1 --out "$TMPD/res" --no-render > /dev/null \
	2> "$TMPD/err"
check "a run with the stand-ins: exit 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMPD/err" | tail -5
# (iperf3 --version runs in the namespaces too: those lines are the servers' and clients')
check "iperf3 servers (pc) see pc's links in /sys/class/net" \
	test "$(grep '^server ' "$TMPD/sys.log" | sort -u)" = "server eth0 lo "
check "iperf3 clients (sta) see sta's links in /sys/class/net" \
	test "$(grep '^client ' "$TMPD/sys.log" | sort -u)" = "client lo wlan0 "
check "iptables-restore (AP) sees the AP's bridges and ports in /sys/class/net" \
	test "$(grep '^iptables-restore ' "$TMPD/sys.log" | sort -u)" = \
		"iptables-restore br-lan br-wlan eth0 lo wlan0 "
sed 's/^/# /' "$TMPD/sys.log" | sort -u
check "the root namespace's /sys is as it was ($(mounts) mounts on /sys, $before before)" \
	test "$(mounts)" = "$before"
check "no namespaces left" no_brnf_netns

# every AF_NETLINK socket brnf opens, over a test bed's making, is SOCK_CLOEXEC
run_rc strace -f -qq -e trace=socket -o "$TMPD/strace" "$BRNF" testbed up > "$TMPD/tb"
check "testbed up under strace: exit 0" test "$rc" -eq 0
ap=$(awk '$1 == "ap" { print $2 }' "$TMPD/tb")
[ -z "$ap" ] || "$BRNF" testbed down "$ap" > /dev/null 2> "$TMPD/err.down"
n=$(grep -c 'socket(AF_NETLINK, ' "$TMPD/strace" || true)
check "testbed up opened rtnetlink sockets ($n)" test "$n" -gt 0
check "every one of them close-on-exec (SOCK_CLOEXEC)" \
	sh -c "! grep 'socket(AF_NETLINK, ' '$TMPD/strace' | grep -v SOCK_CLOEXEC"
grep 'socket(AF_NETLINK, ' "$TMPD/strace" | grep -v SOCK_CLOEXEC | sed 's/^/# /' | head -n 3
check "no namespaces left after testbed down" no_brnf_netns
