# rig/tests/checklib.sh: the check helpers of the brnf integration tests (lib.sh) and of
# the storm's tests (scripts/storm/tests/lib.sh); sourced, POSIX sh. Each check prints
# "ok - what" or "not ok - what"; the run.sh next to the tests counts them.

ok() { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; FAILED=1; }
FAILED=0

# check "what" cmd args...: ok when cmd succeeds
check() {
	_what=$1
	shift
	if "$@"; then ok "$_what"; else not_ok "$_what"; fi
}

# same_file "what" BEFORE AFTER [LINES]: ok when the two files are byte-identical; else
# not ok, with the first LINES (default 10) lines of their diff
same_file() {
	if cmp -s "$2" "$3"; then
		ok "$1"
	else
		not_ok "$1"
		diff "$2" "$3" | sed 's/^/# /' | head -n "${4:-10}"
	fi
}

# wait_for SECONDS cmd args...: poll (not a bare sleep) until cmd succeeds
wait_for() {
	_limit=$1
	shift
	_i=0
	while ! "$@"; do
		_i=$((_i + 1))
		[ "$_i" -gt $((_limit * 10)) ] && return 1
		sleep 0.1
	done
	return 0
}

# run_rc cmd args...: run cmd with set -e off; its exit status in $rc
run_rc() {
	set +e
	"$@"
	rc=$?
	set -e
}

# one_line "what" FILE PATTERN [SKIP]: ok when FILE has one line (not counting lines
# matching SKIP) and it matches PATTERN; else not ok, with FILE shown
one_line() {
	if [ "$(grep -vc -e "${4:-^\$^}" "$2")" -eq 1 ] && grep -q -e "$3" "$2"; then
		ok "$1"
	else
		not_ok "$1"
		sed 's/^/# /' "$2"
	fi
}
