# matrix-json.sh: sourced by the scripts that read a rendered matrix.json (patch-table,
# clock-compare, matrix-compare). The caller defines die().

# check_matrix_json DIR WORKLOAD: DIR/matrix.json is readable, of format 2, and has runs of
# WORKLOAD; else die with one line naming the file
check_matrix_json() {
	[ -r "$1/matrix.json" ] || die "$1/matrix.json: cannot read"
	jq -e '.format == 2' "$1/matrix.json" >/dev/null 2>&1 ||
		die "$1/matrix.json: not of format 2 (make publish DIR=$1)"
	jq -e --arg w "$2" 'any(.workloads[]; .name == $w)' "$1/matrix.json" >/dev/null ||
		die "$1/matrix.json: no $2 runs"
}
