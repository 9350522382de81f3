#!/bin/sh
# Rows that filter in the nftables bridge family (rig/rulesets/bridge-*.nft): their
# verification pass counts, with nft rules inserted into the ruleset's own chain
# "bridge filter stateful" for that pass only, which bridges' frames reached the filter.
#
#  sta wlan0 -[br-wlan] ap [br-lan]- eth0 pc     bridge-lan: br-lan's frames counted,
#                                                br-wlan's not; bridge-both: both
#
# The shipped rulesets track connections in the bridge family (nf_conntrack_bridge) and
# match meta ibrname (nft_meta_bridge); on a kernel without them the run must stop
# before measuring, naming the ruleset. The verification itself is tested with stand-ins
# of the same tables and chains without ct (BRNF_DATADIR): what the chain decides does
# not matter to the counting, which bridges reach it does.
set -eu
. "$(dirname "$0")/lib.sh"
checktool jq nft

run() { # out matrix [datadir]: brnf run, exit status in $rc
	set +e
	BRNF_DATADIR=${3:-} "$BRNF" run --matrix "$2" --workloads tcp --time 1 --omit 0 \
		--reps 1 --flows 1 --out "$1" --no-render > "$TMPD/out" 2> "$TMPD/err" &
	pid=$!
	p=$(prefix_of "$pid") || true
	# the AP's rules while the measured runs run (the verification makes its directory
	# before it inserts its rules, as in t_counting.sh)
	: > "$TMPD/samples"
	while kill -0 "$pid" 2>/dev/null; do
		n=$( { ip netns exec "$p-ap" nft list ruleset | grep -c brnf_count; } 2>/dev/null)
		r=$(ls "$1".tmp.*/raw/running/runs 2>/dev/null | tail -n 1)
		[ -z "$r" ] || echo "$r $n" >> "$TMPD/samples"
		sleep 0.05
	done
	wait "$pid"
	rc=$?
	set -e
}
rec() { jq -r "$2" "$1"/raw/running/runs/*-verify/record.json; } # dir filter: one per row

# --- the shipped rulesets on this kernel ---
ns=brnftest$$
ip netns add "$ns"
if ip netns exec "$ns" nft -f "$TOPDIR/rig/rulesets/bridge-lan.nft" 2>/dev/null; then
	real=yes
else
	real=no
fi
ip netns del "$ns"
printf 'ruleset=openwrt+bridge-lan\n' > "$TMPD/real.matrix"
run "$TMPD/real" "$TMPD/real.matrix"
if [ "$real" = no ]; then
	check "bridge-lan without nf_conntrack_bridge: exit 1 before measuring" test "$rc" -eq 1
	check "... one line naming the ruleset and what it needs" sh -c "
		[ \$(wc -l < '$TMPD/err') -eq 1 ] &&
		grep -q 'ruleset openwrt+bridge-lan (.*/bridge-lan.nft) does not load on this kernel (ct in the bridge family needs CONFIG_NF_CONNTRACK_BRIDGE' '$TMPD/err'"
	check "... nothing written, nothing left" sh -c \
		"! ls -d '$TMPD'/real '$TMPD'/real.tmp.* 2>/dev/null && ! ls /run/netns | grep -q '^brnf[0-9]'"
else
	check "bridge-lan on a kernel with nf_conntrack_bridge: verified yes" \
		sh -c "[ $rc -eq 0 ] && [ \"\$(jq -r .verify.result '$TMPD'/real/raw/running/runs/*-verify/record.json)\" = yes ]"
fi

# --- stand-ins without ct: the verification's counting ---
data=$TMPD/data
mkdir -p "$data/rulesets"
cp -r "$TOPDIR/rig/rigs" "$data/"
cp "$TOPDIR"/rig/rulesets/*.nft "$data/rulesets/"
standin() { # file, the ports whose frames jump to chain stateful
	cat > "$data/rulesets/$1.nft" <<EOF
table bridge filter {
	chain input {
		type filter hook input priority filter; policy accept;
		iifname { $2 } meta protocol { ip, ip6 } jump stateful
	}
	chain forward {
		type filter hook forward priority filter; policy accept;
		iifname { $2 } meta protocol { ip, ip6 } jump stateful
	}
	chain stateful {
		accept
	}
}
EOF
}
standin bridge-lan '"eth0"'
standin bridge-both '"eth0", "wlan0"'
printf 'ruleset=bridge-lan\nruleset=bridge-both\n' > "$TMPD/b.matrix"
run "$TMPD/b" "$TMPD/b.matrix" "$data"
check "bridge-lan, bridge-both: the run exits 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMPD/err" | tail -5
check "both rows verified yes" test "$(rec "$TMPD/b" .verify.result | sort -u)" = yes
check "the counting rules were nft's in the bridge table" \
	test "$(rec "$TMPD/b" .rules | sort -u)" = nft-bridge
check "bridge-lan: br-lan's frames counted, br-wlan's not" test "$(rec "$TMPD/b" \
	'select(.row.ruleset == "bridge-lan") | .verify.bridges | "\(.["br-lan"].packets > 0) \(.["br-wlan"].packets)"')" = "true 0"
check "bridge-both: both bridges' frames counted" test "$(rec "$TMPD/b" \
	'select(.row.ruleset == "bridge-both") | .verify.bridges | [.[].packets > 0] | all')" = true
check "the AP was sampled while a measured run ran" grep -q -- '-tcp-[a-z]* ' "$TMPD/samples"
check "no counting rule in the AP while a run measured" \
	sh -c "! grep -v -- '-verify ' '$TMPD/samples' | grep -v ' 0\$'"
check "the verification pass had its rules in the AP" grep -q -- '-verify [1-9]' "$TMPD/samples"

# --- failing cases ---
# a filter that takes br-wlan's frames too, where the row says br-lan only
standin bridge-lan '"eth0", "wlan0"'
printf 'ruleset=bridge-lan\n' > "$TMPD/w.matrix"
run "$TMPD/w" "$TMPD/w.matrix" "$data"
check "a bridge filter on the wrong bridges: exit 3" test "$rc" -eq 3
check "... its verification says no" test "$(rec "$TMPD/w" .verify.result)" = no
check "... and the error names the row and both counts" grep -q \
	"filtering verification failed for row .*w.matrix:1: expected the bridge filter on br-lan yes, on br-wlan no; counted [1-9][0-9]* and [1-9][0-9]* packets" \
	"$TMPD/err"

# a bridge ruleset without the chain the counting rules go into
sed -i 's/stateful/decide/' "$data/rulesets/bridge-lan.nft"
run "$TMPD/n" "$TMPD/w.matrix" "$data"
check "no chain stateful: exit 1 before measuring" test "$rc" -eq 1
check "... the error names the ruleset and the chain" \
	grep -q 'ruleset bridge-lan: no chain bridge filter stateful' "$TMPD/err"
check "... in one line, not two for one failure" test "$(grep -c stateful "$TMPD/err")" -eq 1
check "... nothing written, nothing left" sh -c \
	"! ls -d '$TMPD'/n '$TMPD'/n.tmp.* 2>/dev/null && ! ls /run/netns | grep -q '^brnf[0-9]'"
