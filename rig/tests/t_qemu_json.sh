#!/bin/sh
# qemu.json, a QEMU guest's record (rig/README.md "Raw data"), is written by
# scripts/qemu-json with jq, not printf: every string comes back as it went in, a quote
# and a backslash included (a host CPU's name, QEMU_MACHINE, PROFILE_COUNTERS, a
# path), and a bad value is one line and no file. scripts/ab-matrix writes no JSON of
# its own. The whole ab-matrix needs QEMU: make test's ab suite runs it.
set -eu
. "$(dirname "$0")/lib.sh"
checktool jq
QJ=$TOPDIR/scripts/qemu-json

odd='/tmp/a "quoted" dir\with\backslash\n, a tab	and "\"'
echo '{"schema": 1, "variant": "ondemand"}' > "$TMPD/build.json"
# write NAME ARGS...: qemu.json of a guest into $TMPD/NAME.json, stderr in $TMPD/err.NAME,
# exit status in $rc
write() {
	_n=$1
	shift
	run_rc sh "$QJ" series=6.12 variant=ondemand boot=2 arch=x86_64 clock=icount \
		qemu="QEMU emulator version 7.2.0" qemu_options="-machine q35 -fsdev path=$odd" \
		kernel_image_sha256=0123abcd build="$TMPD/build.json" host_cpu="CPU \"$odd\"" \
		host_cpu_mhz=2400.000 jobs=2 wall_seconds=77 exit_status=3 "$@" \
		> "$TMPD/$_n.json" 2> "$TMPD/err.$_n"
}
write plain
check "qemu-json: exits 0" test "$rc" -eq 0
check "qemu-json: its output is JSON" sh -c "jq -e . '$TMPD/plain.json' > /dev/null"
check "qemu-json: a string with quotes and backslashes comes back as it went in" \
	test "$(jq -r .qemu_options "$TMPD/plain.json")" = "-machine q35 -fsdev path=$odd"
check "qemu-json: the host CPU's name too" \
	test "$(jq -r .host_cpu "$TMPD/plain.json")" = "CPU \"$odd\""
check "qemu-json: integers are numbers, the kernel's build record its JSON" \
	test "$(jq -c '[.boot, .jobs, .wall_seconds, .exit_status, .build.variant]' \
		"$TMPD/plain.json")" = '[2,2,77,3,"ondemand"]'
check "qemu-json: no profile object without profile_plugin_sha256" \
	test "$(jq 'has("profile")' "$TMPD/plain.json")" = false
check "qemu-json: the keys rig/src/data/raw_meta.c reads" \
	test "$(jq -c '[.clock, .qemu, .host_cpu | type]' "$TMPD/plain.json")" = \
	'["string","string","string"]'

write prof profile_plugin_sha256=ff profile_markers="pktgen_xmit,pktgen_stop_device" \
	profile_counters="$odd" profile_caches="74kc:65536:4:32:32768:4:32 a53:32768:2:64:32768:4:64"
check "qemu-json --profile: exits 0" test "$rc" -eq 0
check "qemu-json --profile: the counters as given" \
	test "$(jq -r .profile.counters "$TMPD/prof.json")" = "$odd"
check "qemu-json --profile: the cache models as given" \
	test "$(jq -r .profile.caches "$TMPD/prof.json")" = "74kc:65536:4:32:32768:4:32 a53:32768:2:64:32768:4:64"

write badint jobs=2x
one_line "qemu-json: an integer that is none is one line" "$TMPD/err.badint" \
	'^qemu-json: jobs=2x is not an integer$'
check "qemu-json: and nothing on stdout" test ! -s "$TMPD/badint.json"
check "qemu-json: and exit 1" test "$rc" -eq 1
printf '{"schema": 1, "patches": ["a"b"]}\n' > "$TMPD/bad-build.json"
write badbuild build="$TMPD/bad-build.json"
one_line "qemu-json: a build record that is no JSON is one line" "$TMPD/err.badbuild" \
	"^qemu-json: build=.*: not one JSON value\$"
write nokey kernel_image_sha256=
check "qemu-json: an empty string is a string" \
	test "$(jq -c .kernel_image_sha256 "$TMPD/nokey.json")" = '""'
run_rc sh "$QJ" series=6.12 > /dev/null 2> "$TMPD/err.missing"
one_line "qemu-json: a missing key is named" "$TMPD/err.missing" '^qemu-json: variant= is required$'

# ab-matrix: the qemu.json through scripts/qemu-json, no JSON printed by hand
check "ab-matrix: qemu.json through scripts/qemu-json" \
	grep -q 'scripts/qemu-json" "$@" >"$tmp/raw/$part/qemu.json"' "$TOPDIR/scripts/ab-matrix"
check "ab-matrix: no printf of a JSON key" \
	sh -c "! grep -n 'printf .*\"[a-z_]*\": ' '$TOPDIR/scripts/ab-matrix'"
