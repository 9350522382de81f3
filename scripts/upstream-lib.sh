# shellcheck shell=sh disable=SC2034,SC2154  # sets base, what, name, addr for its caller; signoff.sh sets signoff_*
# upstream-lib.sh: what scripts/upstream-export and scripts/upstream-export-native share
# (sourced, not run; after scripts/signoff.sh, with TOP, BUILD and a die function).
#
# upstream_submitter ID: the submitter from ID (else git config user.name and
#   user.email) into name and addr, or die.
# upstream_base SERIES TREE NOTE: the base commit into base and the tree into tree: TREE
#   at its HEAD, or (TREE empty) Debian's linux-source-SERIES as scripts/kernel-build
#   unpacks it (branch vanilla); what describes it, NOTE appended for Debian's.
# upstream_recipients MBOX: --to=/--cc= lines from the tree's MAINTAINERS for MBOX.
# upstream_check DESC CMD...: runs CMD, prints "ok - DESC" or "not ok - DESC" and its
#   output (LOG, a scratch file), counts into npass and nfail.
# upstream_strict PATCH [TYPE...]: checkpatch --strict finds nothing but
#   FILE_PATH_CHANGES (a new selftest file) and the TYPEs given as an ERROR or WARNING.
# upstream_signed PATCH: its From: and Signed-off-by: are the submitter's.

upstream_submitter() {
	_id=$1
	if [ -z "$_id" ]; then
		_n=$(git -C "$TOP" config user.name || true)
		_e=$(git -C "$TOP" config user.email || true)
		[ -n "$_n" ] && [ -n "$_e" ] ||
			die "no submitter: give SIGNOFF=\"Name <address>\" (or set git config user.name and user.email)"
		_id="$_n <$_e>"
	fi
	signoff_parse "$_id" || die "'$_id': $signoff_why (give SIGNOFF=\"Name <address>\")"
	name=$signoff_name addr=$signoff_addr
}

upstream_base() {
	tree=$2
	if [ -n "$tree" ]; then
		git -C "$tree" rev-parse --verify -q HEAD >/dev/null || die "$tree: not a git tree"
		base=$(git -C "$tree" rev-parse HEAD)
		what="$tree at $(git -C "$tree" describe --always HEAD)"
	else
		tree=$BUILD/kernel/$1/src
		if ! git -C "$tree" rev-parse -q --verify refs/heads/vanilla >/dev/null 2>&1; then
			sh "$TOP/scripts/kernel-build" --prepare "$1" vanilla >/dev/null 2>&1 ||
				die "cannot unpack linux-source-$1 (scripts/kernel-build --prepare $1 vanilla)"
		fi
		base=$(git -C "$tree" rev-parse vanilla)
		what="Debian linux-source-$1 $(make -s --no-print-directory -C "$tree" kernelversion 2>/dev/null) ($3)"
	fi
	[ -x "$tree/scripts/checkpatch.pl" ] || die "$tree: no scripts/checkpatch.pl (not a kernel tree?)"
}

upstream_recipients() {
	_to=$(cd "$tree" && ./scripts/get_maintainer.pl --no-git --no-git-fallback --no-rolestats \
		--m --nor --nol "$1" 2>/dev/null) || true
	_cc=$(cd "$tree" && ./scripts/get_maintainer.pl --no-git --no-git-fallback --no-rolestats \
		--nom --r --l "$1" 2>/dev/null) || true
	[ -n "$_to$_cc" ] || die "$tree: get_maintainer.pl named nobody"
	echo "$_to" | sed -n 's/^./--to=&/p'
	echo "$_cc" | sed -n 's/^./--cc=&/p'
}

npass=0 nfail=0
upstream_check() {
	_d=$1
	shift
	if "$@" >"$LOG" 2>&1; then
		npass=$((npass + 1)); echo "ok - $_d"
	else
		nfail=$((nfail + 1)); echo "not ok - $_d"
		sed 's/^/#   /' "$LOG" | head -n 20
	fi
}

upstream_strict() {
	_o=$(cd "$tree" && ./scripts/checkpatch.pl --strict --no-color --show-types "$1" 2>&1)
	echo "$_o" | grep -q '^total:' || { echo "$_o"; return 1; }
	shift
	_ok='^WARNING:FILE_PATH_CHANGES:'
	for _t in "$@"; do _ok="$_ok|^(ERROR|WARNING):$_t:"; done
	! echo "$_o" | grep -E '^(ERROR|WARNING|CHECK):' | grep -v -E "$_ok"
}

upstream_signed() {
	{ grep -qxF "From: $name <$addr>" "$1" || grep -qxF "From: \"$name\" <$addr>" "$1"; } &&
		grep -qxF "Signed-off-by: $name <$addr>" "$1" &&
		! grep -q 'example\.invalid' "$1"
}
