# plot-lib.sh: what scripts/plot and scripts/headline share, sourced by both.
#
# One colour per kernel variant in every figure (the Okabe-Ito palette, which readers
# with the common colour vision deficiencies can tell apart). NAME-m (br_netfilter a
# module) and NAME:N (the first N patches of NAME's series) take NAME's colour, except
# ondemand-m, which has its own; a kernel not in the table is grey.
# jq: "KERNEL" | variant_color -> the colour as gnuplot's 24-bit integer (rgb variable)
variant_color_jq='
def variant_hex:
	{ "nobrnf": "000000", "legacy": "E69F00", "vanilla": "D55E00", "bypass": "CC79A7",
	  "ondemand": "0072B2", "ondemand-m": "56B4E9", "perbridge": "009E73" } as $c
	| if $c[.] then $c[.]
	  else (sub(":[0-9]+$"; "") | sub("-m$"; "")) as $b | ($c[$b] // "999999") end;
def variant_color:
	variant_hex | ascii_downcase | explode
	| reduce .[] as $d (0; . * 16 + (if $d >= 97 then $d - 87 else $d - 48 end));'

# jq: a matrix.json -> "6.12 · x86_64 -cpu max · clock icount (QEMU -icount
# shift=0,sleep=off)": the kernel series, the guest's architecture and CPU model (up to
# its first comma: the features taken off it are in qemu.json; the host's CPU for a run
# without QEMU) and the clock of its parts. $arch: run.txt's arch= or "".
matrix_what_jq='
def uniq_join: reduce .[] as $x ([]; if index([$x]) then . else . + [$x] end) | join(", ");
([.parts[].kernel_release | capture("^(?<s>[0-9]+\\.[0-9]+)").s] | uniq_join) as $series
| ([.parts[] | select(.qemu) | .qemu_options // "" | capture("-cpu (?<c>[^ ,]+)").c] | uniq_join)
	as $cpu
| ([.parts[] | select(.qemu) | .qemu_options // "" | capture("-machine (?<m>[^ ]+)").m
	| if . == "pc" then "x86_64" elif . == "virt" then "arm64" elif . == "malta" then "mipsel"
	  else . end] | uniq_join) as $machine_arch
| ([.parts[] | select(.qemu | not) | .host_cpu] | uniq_join) as $host
| ([.parts[].clock] | uniq_join) as $clock
| ([.parts[] | select(.qemu) | .qemu_options // ""
	| capture("(?<i>-icount [^ ]+)").i] | uniq_join) as $icount
| ([.parts[] | select(.qemu) | .qemu_options // "" | capture("-smp (?<n>[0-9]+)").n]
	| uniq_join) as $smp
| [$series,
   (if $cpu != "" then (if $arch != "" then $arch else $machine_arch end) + " -cpu " + $cpu
    else "host CPU " + $host end),
   "clock " + $clock
	+ (if any(.parts[]; .qemu) then " (" + (["QEMU" + (if $icount != "" then " " + $icount else "" end),
		(if $smp == "1" then "one vCPU" elif $smp != "" then $smp + " vCPUs" else "" end)]
		| map(select(. != "")) | join(", ")) + ")" else "" end)]
| map(select(. != "")) | join(" · ")'

# run.txt's value of KEY in DIR, or nothing
run_field() { # DIR KEY
	[ -r "$1/run.txt" ] || return 0
	tr ' ' '\n' <"$1/run.txt" | sed -n "s/^$2=//p" | head -n 1
}
