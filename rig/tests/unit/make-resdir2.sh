#!/bin/sh
# make-resdir2.sh: write the schema 2 unit test fixture data/resdir2 (rig/README.md "Raw data"): two
# kernels (nobrnf, vanilla) x 3 boots, rows 0 (nobrnf), 1 (vanilla, everything off),
# 2 (vanilla, br-lan); workloads pps64 (2 repetitions per boot) and tcp-bytes (1); one
# verification pass per row and boot; run.txt with target_pct=0.5.
# The pktgen figures are made up for the test (chosen so that ns/packet are round
# numbers: elapsed_us = ns/packet * count / 1000); the tcp-bytes flow files are real
# `iperf3 -J -n` client outputs, made in a private network namespace on loopback.
# Not run by the tests: run it (as root) only to remake the fixture, then review.
#
# usage: rig/tests/unit/make-resdir2.sh
set -eu

me=make-resdir2.sh
die() { echo "$me: $*" >&2; exit 1; }
command -v jq >/dev/null || die "jq not found"
command -v iperf3 >/dev/null || die "iperf3 not found"
[ "$(id -u)" -eq 0 ] || die "needs root (unshare -n)"

out=$(cd "$(dirname "$0")" && pwd)/data/resdir2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
count=50000

# ns/packet per kernel row, direction, boot, repetition
pps() { # ROW DIR BOOT REP
	case $1.$2.$3.$4 in
	0.download.1.1) echo 6000 ;; 0.download.1.2) echo 6010 ;;
	0.download.2.1) echo 6020 ;; 0.download.2.2) echo 6030 ;;
	0.download.3.1) echo 5990 ;; 0.download.3.2) echo 6000 ;;
	0.upload.1.1) echo 6100 ;; 0.upload.1.2) echo 6104 ;;
	0.upload.2.1) echo 6110 ;; 0.upload.2.2) echo 6106 ;;
	0.upload.3.1) echo 6096 ;; 0.upload.3.2) echo 6100 ;;
	1.download.1.1) echo 6150 ;; 1.download.1.2) echo 6160 ;;
	1.download.2.1) echo 6170 ;; 1.download.2.2) echo 6166 ;;
	1.download.3.1) echo 6140 ;; 1.download.3.2) echo 6150 ;;
	1.upload.1.1) echo 6250 ;; 1.upload.1.2) echo 6256 ;;
	1.upload.2.1) echo 6260 ;; 1.upload.2.2) echo 6262 ;;
	1.upload.3.1) echo 6248 ;; 1.upload.3.2) echo 6250 ;;
	2.download.1.1) echo 6600 ;; 2.download.1.2) echo 6620 ;;
	2.download.2.1) echo 6610 ;; 2.download.2.2) echo 6600 ;;
	2.download.3.1) echo 6650 ;; 2.download.3.2) echo 6640 ;;
	2.upload.1.1) echo 6700 ;; 2.upload.1.2) echo 6690 ;;
	2.upload.2.1) echo 6710 ;; 2.upload.2.2) echo 6700 ;;
	2.upload.3.1) echo 6720 ;; 2.upload.3.2) echo 6716 ;;
	*) die "no value for $*" ;;
	esac
}

row_json() { # INDEX
	case $1 in
	0) jq -n '{index: 0, kernel: "nobrnf", label: "", global: [0,0,0], local: [],
		   ruleset: "none", source: "rig/matrices/ab.matrix:5"}' ;;
	1) jq -n '{index: 1, kernel: "vanilla", label: "", global: [0,0,0], local: [],
		   ruleset: "none", source: "rig/matrices/ab.matrix:6"}' ;;
	2) jq -n '{index: 2, kernel: "vanilla", label: "", global: [0,0,0], local: ["br-lan"],
		   ruleset: "none", source: "rig/matrices/ab.matrix:7"}' ;;
	esac
}

readback_json() { # INDEX
	case $1 in
	0) echo '{}' ;;
	1) echo '{"global": [0,0,0], "bridges": {"br-lan": [0,0,0], "br-wlan": [0,0,0]}}' ;;
	2) echo '{"global": [0,0,0], "bridges": {"br-lan": [1,1,1], "br-wlan": [0,0,0]}}' ;;
	esac
}

# one real iperf3 -n client output per call, in a private network namespace
flow() { # DIR FILE
	rev=
	[ "$1" = download ] && rev=-R
	unshare -n sh -c "ip link set lo up && iperf3 -s -1 -p 5399 -D && sleep 0.3 &&
		iperf3 -c 127.0.0.1 -p 5399 -n 4194304 -J $rev" >"$2"
}

rm -rf "$out"
mkdir -p "$out/raw"
printf 'series=6.12 clock=icount flows=1 boots=3 jobs=2\ntarget_pct=0.5 max_boots=8 min_boots=3 reps=2 workloads=pps64,tcp-bytes\n' \
	>"$out/run.txt"
for kernel in nobrnf vanilla; do
	case $kernel in nobrnf) rows=0 ;; vanilla) rows="1 2" ;; esac
	for boot in 1 2 3; do
		part=$out/raw/$kernel-boot$boot
		mkdir -p "$part/runs"
		jq -n --arg p "$kernel-boot$boot" --arg d "2026-12-0${boot}T10:00:00Z" '{schema: 2,
			part: $p, kernel_release: "6.12.117+", clock: "icount",
			testbed: {kind: "netns", offloads_requested: "off"}, date: $d,
			wall_seconds: 60, workloads: ["pps64", "tcp-bytes"], pktgen_count: 50000,
			neighbours: "permanent", counting_rules_in_measured_runs: false}' \
			>"$part/provenance.json"
		jq -n '{series: "6.12", variant: "x", clock: "icount",
			qemu: "QEMU emulator version 7.2.22",
			qemu_options: "-machine pc -cpu max -m 1G -icount shift=0,sleep=off -smp 1",
			host_cpu: "Example CPU", exit_status: 0}' >"$part/qemu.json"
		order=0
		for r in $rows; do
			o=$order n=$(printf %04d $order)
			order=$((order + 1))
			mkdir "$part/runs/$n-verify"
			case $r in
			0) rules=iif result=n/a lan=false lanp=0 ;;
			1) rules=physdev result=yes lan=false lanp=0 ;;
			2) rules=physdev result=yes lan=true lanp=$((800 + boot)) ;;
			esac
			jq -n --argjson row "$(row_json $r)" --argjson rb "$(readback_json $r)" \
				--argjson o $o --arg rules $rules --arg res $result \
				--argjson lan $lan --argjson lanp $lanp '{schema: 2, kind: "verify",
				row: $row, order: $o, readback: $rb, rules: $rules,
				traffic: "iperf3 -n 1048576, 1 flow, download and upload",
				verify: {bridges: {"br-lan": {expected: $lan, packets: $lanp},
						   "br-wlan": {expected: false, packets: 0}},
					 result: $res}}' >"$part/runs/$n-verify/record.json"
			for rep in 1 2; do
				for dir in download upload; do
					o=$order n=$(printf %04d $order)
					order=$((order + 1))
					ns=$(pps $r $dir $boot $rep)
					el=$((ns * count / 1000))
					recv=$count
					# one run that lost packets
					[ "$r.$dir.$boot.$rep" = 2.upload.1.2 ] && recv=$((count - 10))
					mkdir "$part/runs/$n-pps64-$dir"
					jq -n --argjson row "$(row_json $r)" --argjson rb "$(readback_json $r)" \
						--argjson o $o --arg d $dir --argjson rep $rep \
						--argjson el $el --argjson c $count --argjson recv $recv '{
						schema: 2, kind: "measure", row: $row, workload: "pps64",
						direction: $d, repetition: $rep, order: $o,
						counting_rules: false, readback: $rb,
						pktgen: {pkt_size: 60, count: $c, sent: $c, received: $recv,
							 errors: 0, elapsed_us: $el,
							 result: "OK: \($el)(c\($el - 77)+d77) usec, \($c) (60byte,0frags)"}}' \
						>"$part/runs/$n-pps64-$dir/record.json"
				done
			done
			for dir in download upload; do
				o=$order n=$(printf %04d $order)
				order=$((order + 1))
				d=$part/runs/$n-tcp-bytes-$dir
				mkdir "$d"
				flow $dir "$d/flow-0.json"
				jq -n --argjson row "$(row_json $r)" --argjson rb "$(readback_json $r)" \
					--argjson o $o --arg d $dir '{schema: 2,
					kind: "measure", row: $row, workload: "tcp-bytes", direction: $d,
					repetition: 1, order: $o, counting_rules: false, readback: $rb,
					flows: [{file: "flow-0.json", port: 5399}],
					bytes_per_flow: 4194304}' >"$d/record.json"
			done
		done
	done
done
echo "$me: wrote $out"
