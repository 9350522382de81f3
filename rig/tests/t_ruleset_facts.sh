#!/bin/sh
# What each ruleset does (brnf_rulesets[]: tracks connections, offloads to a flowtable,
# filters which bridges in the bridge family) is read from the files by
# scripts/ruleset-facts at build time, not written by hand: a ruleset added here gets
# its facts from its rules, and comments and quoted text are no rules. The built
# table is the script's output over rig/rulesets. No root or network needed.
set -eu
. "$(dirname "$0")/lib.sh"
F=$TOPDIR/scripts/ruleset-facts
R=$TMPD/rulesets
mkdir "$R"

cat > "$R/none.nft" <<'EOF'
# no firewall; a comment that says ct state and flow add @ft is no rule
EOF
cat > "$R/fw.nft" <<'EOF'
table inet fw4 {
	chain forward {
		type filter hook forward priority filter; policy drop;
		meta l4proto { tcp, udp } flow add @ft comment "offload"
		ct state vmap { established : accept, related : accept, invalid : drop }
		iifname "br-lan" meta ibrname "br-wlan" accept comment "an inet table: not the bridge family"
	}
}
EOF
cat > "$R/brwlan.nft" <<'EOF'
# a stateful filter of br-wlan's frames in the bridge family # ct state
table bridge filter {
	chain forward {
		type filter hook forward priority filter; policy accept;
		meta ibrname "br-wlan" meta protocol { ip, ip6 } jump stateful comment "br-lan: ct state"
	}

	chain stateful {
		ct state vmap { established : accept, invalid : drop }
	}
}
EOF
cat > "$R/quiet.nft" <<'EOF'
table bridge quiet {
	chain input {
		type filter hook input priority filter; policy accept;
		meta ibrname { "br-lan", "br-wlan" } counter comment "ct state new, flow add @ft"
	}
}
table inet other {
	chain c {
		meta ibrname "br-x" accept
	}
}
EOF
run_rc sh "$F" "$R" > "$TMPD/out" 2> "$TMPD/err"
check "ruleset-facts: exits 0" test "$rc" -eq 0
sed 's/^/# /' "$TMPD/out" "$TMPD/err"
fact() { grep -q -F "{ .name = \"$1\", $2 }," "$TMPD/out"; }
check "ruleset-facts: none comes first, then by name" \
	test "$(sed -n 's/.*\.name = "\([^"]*\)".*/\1/p' "$TMPD/out" | tr '\n' ' ')" = \
	"none brwlan fw quiet "
check "ruleset-facts: a comment is no rule (none)" \
	fact none '.conntrack = false, .flowtable = false, .bridges = { NULL }'
check "ruleset-facts: ct and flow add @ of an inet table; its ibrname is no bridge filter (fw)" \
	fact fw '.conntrack = true, .flowtable = true, .bridges = { NULL }'
check "ruleset-facts: a bridge table's ibrname, not the name in a comment string (brwlan)" \
	fact brwlan '.conntrack = true, .flowtable = false, .bridges = { "br-wlan", NULL }'
check "ruleset-facts: a set of bridges; ct and flow in a string are no rules (quiet)" \
	fact quiet '.conntrack = false, .flowtable = false, .bridges = { "br-lan", "br-wlan", NULL }'

printf 'table bridge b {\n\tchain c {\n\t\tmeta ibrname $lan accept\n\t}\n}\n' > "$R/var.nft"
run_rc sh "$F" "$R" > "$TMPD/out.var" 2> "$TMPD/err.var"
check "ruleset-facts: an ibrname it cannot read fails (exit 1)" test "$rc" -eq 1
one_line "ruleset-facts: one line naming the file and line" "$TMPD/err.var" \
	"^ruleset-facts: .*/var.nft:3: ibrname: a quoted name or a set { ... } expected after it\$"
rm "$R/var.nft"

# the build: what matrix.c includes is the script's output over rig/rulesets
INC=$(cd "$(dirname "$BRNF")/../rig" && pwd)/rulesets.inc
sh "$F" "$TOPDIR/rig/rulesets" > "$TMPD/real"
check "the built table (build/rig/rulesets.inc) is the script's output over rig/rulesets" \
	cmp -s "$INC" "$TMPD/real"
check "matrix.c writes no ruleset fact by hand" \
	sh -c "! grep -n -E '\\.(conntrack|flowtable|bridges?) *=' '$TOPDIR/rig/src/data/matrix.c'"
check "the facts of rig/rulesets: bridge-lan filters br-lan, openwrt-flowtable offloads" \
	sh -c "grep -q -F '{ .name = \"bridge-lan\", .conntrack = true, .flowtable = false, .bridges = { \"br-lan\", NULL } },' '$TMPD/real' &&
		grep -q -F '{ .name = \"openwrt-flowtable\", .conntrack = true, .flowtable = true, .bridges = { NULL } },' '$TMPD/real'"
