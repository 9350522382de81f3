# lib.sh: what the kernel/tests/*.sh runtime tests share (sourced, not run).
#
# ok DESC, fail DESC: print "ok N - DESC" / "not ok N - DESC" and count them in $npass,
# $nfail ($ret becomes 1 on a failure); skip REASON: print it and exit 4 (kselftest skip).
# brnf_hooks NS: the number of hooks registered in namespace NS at the hook points
# br_netfilter uses (bridge family, and priority INT_MIN at IPv4/IPv6 PRE_ROUTING, where
# only ip_sabotage_in sits), named or not: a hook left behind by an unloaded module has
# no name any more.

npass=0 nfail=0 ret=0 tn=0
ok() { tn=$((tn + 1)); npass=$((npass + 1)); echo "ok $tn - $*"; }
fail() { tn=$((tn + 1)); nfail=$((nfail + 1)); echo "not ok $tn - $*"; ret=1; }
skip() { echo "SKIP: $*"; exit 4; }

brnf_hooks() {
	{ ip netns exec "$1" nft list hooks bridge
	  ip netns exec "$1" nft list hooks ip | grep -E '^[[:space:]]+-2147483648 '
	  ip netns exec "$1" nft list hooks ip6 | grep -E '^[[:space:]]+-2147483648 '
	} 2>/dev/null | grep -cE '^[[:space:]]+[-+]?[0-9]+ '
}
