#!/bin/sh
# The first `make test` or `make matrix` on a fresh machine reads the makefiles
# before scripts/deps.sh installed json-c and cmocka: nothing may complain then.
# No pkg-config .pc file is found here (PKG_CONFIG_LIBDIR), as on such a machine;
# make -n runs no recipe but the sub-makes, whose makefiles are read as well.
set -eu
. "$(dirname "$0")/lib.sh"
checktool make
for goal in test matrix rig rig-unit help; do
	set +e
	PKG_CONFIG_LIBDIR=/nonexistent make -C "$TOPDIR" -n "$goal" > /dev/null 2> "$TMPD/err"
	rc=$?
	set -e
	if [ "$rc" -eq 0 ] && [ ! -s "$TMPD/err" ]; then
		ok "make -n $goal without json-c, cmocka, libmnl for pkg-config: nothing on stderr"
	else
		not_ok "make -n $goal without json-c, cmocka, libmnl for pkg-config: nothing on stderr"
		sed 's/^/# /' "$TMPD/err" | head -5
	fi
done
