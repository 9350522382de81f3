# scripts/relpaths.sh: relpaths, a filter for what a run publishes: a file under
# results/ names no directory of the machine it ran on (rig/tests/t_tree.sh), so the
# paths of this checkout (TOP) are written relative to it (TOP/x as x, TOP as .), and
# those of a BUILD outside it as $BUILD/x. Sourced (POSIX sh); needs TOP, reads BUILD.
relpaths() {
	awk -v top="$TOP" -v build="${BUILD:-$TOP/build}" '
	# s with from/x as slash x and from alone as bare; not in /a/b2 for /a/b
	function swap(s, from, bare, slash,    i, n, c, out) {
		out = ""
		n = length(from)
		while (n > 1 && (i = index(s, from)) > 0) {
			c = substr(s, i + n, 1)
			if (c == "/") {
				out = out substr(s, 1, i - 1) slash
				s = substr(s, i + n + 1)
			} else if (c ~ /[A-Za-z0-9_.~-]/) {
				out = out substr(s, 1, i + n - 1)
				s = substr(s, i + n)
			} else {
				out = out substr(s, 1, i - 1) bare
				s = substr(s, i + n)
			}
		}
		return out s
	}
	{
		line = swap($0, top, ".", "")
		if (index(build "/", top "/") != 1)
			line = swap(line, build, "$BUILD", "$BUILD/")
		print line
	}'
}
