#!/bin/sh
# The tree speaks of the project alone: its reader has neither the developers' machines
# nor the project's tracker, and a clone has main's history only. In every file of the
# tree (tracked, or new and not ignored) but those kept as they were written: the raw
# logs, machine output as it was printed (results/**/raw/**, *.log, *.log.gz, so
# kernel/tests/runs/*.log too), and a run's results/*/ab.matrix (its sha256 is in the
# run's raw provenance):
# - no absolute path of one machine: the checkout's own path, anything under /work,
#   /home or /Users, root's home but its dotfiles (/root/.bashrc is on every machine:
#   the ssh tests bind over it), a name mktemp made under /tmp (its XXXXXX template is
#   fine: every machine makes its own). What every machine has stays: /usr/src's
#   tarballs, /run/brnf/lock, /proc, /sys, /etc, /dev, /usr/bin, /lib/modules, a
#   guest's /mnt/out, a scratch file a command writes to /tmp itself;
# - no number of the tracker, in a file or in a file's name: issue, stop, session,
#   ticket, item or point and a number after it, '#' or not. A public reference
#   (owner/repo#N, a URL's issues/N) names no tracker of ours and stays, as does a
#   duration ("stop" and seconds);
# - every commit a Reproduce block of results/ checks out or builds from is in HEAD's
#   history, as a clone of main has it (a commit that did not land cannot be fetched).
# Each check first proves on a planted tree of its own that it finds what it must, and
# when it fails names the first offence as FILE:LINE. No network; git alone.
set -eu
. "$(dirname "$0")/lib.sh"
checktool git awk

# Files that a change made beside this one rewrites: each may keep as many hits of a
# kind as given here until it lands (lower the count as they go; 0 removes the line).
pending_machine=''
pending_tracker=''

# git_tree DIR GIT-ARGS...: git GIT-ARGS in DIR over the files of its tree but those kept
# as they were written: the raw logs, and a run's ab.matrix (the sha256 of the matrix it
# ran is in its raw/*/provenance.json: an edit would break that proof)
git_tree() {
	_d=$1
	shift
	git -C "$_d" "$@" -- . ':(exclude,glob)results/**/raw/**' ':(exclude,glob)**/*.log' \
		':(exclude,glob)**/*.log.gz' ':(exclude,glob)results/*/ab.matrix'
}
# tree_grep DIR GREP-ARGS...: "FILE:LINE:TEXT" of DIR's tree
tree_grep() {
	_d=$1
	shift
	git_tree "$_d" grep --untracked -I -n "$@" || true
}
# tree_files DIR: the names in DIR's tree as "FILE:0:FILE" (not one deleted from it yet)
tree_files() {
	git_tree "$1" ls-files --deleted > "$TMPD/deleted"
	git_tree "$1" ls-files --cached --others --exclude-standard | sort -u |
		grep -v -x -F -f "$TMPD/deleted" | awk '{ print $0 ":0:" $0 }'
}

# machine_paths DIR: "FILE:LINE: PATH" for each absolute path of one machine in DIR's
# tree. A root counts where a path starts (after a blank, a quote, '=', '(', ':'...),
# not inside another path or a word ($(BUILD)/fuzz/work/ is a relative one).
machine_paths() {
	_top=$(cd "$1" && pwd)
	_topp=$(cd "$1" && pwd -P)
	tree_grep "$1" -F -e /work/ -e /home/ -e /Users/ -e /root/ -e /tmp/ \
		-e "$_top/" -e "$_topp/" | awk -v top="$_top/" -v topp="$_topp/" '
	# the path that starts at s[i]: up to a blank, a quote or a delimiter
	function token(s, i,    t) {
		t = substr(s, i)
		sub(/[] \t"'\''`<>|;,()[{}].*/, "", t)
		return t
	}
	# a name mktemp made: a component NAME.SUFFIX, SUFFIX 6 or more letters and digits
	# with a small letter and a capital or digit (as mktemp draws them), not X...X
	function mktemp_made(p,    n, c, i, x) {
		n = split(p, c, "/")
		for (i = 1; i <= n; i++) {
			x = c[i]
			if (!sub(/^[^.]*\./, "", x) || x !~ /^[A-Za-z0-9]+$/ || length(x) < 6)
				continue
			if (x ~ /^X+$/ || x !~ /[a-z]/ || x !~ /[A-Z0-9]/)
				continue
			return 1
		}
		return 0
	}
	function machine(p) {
		if (index(p, top) == 1 || index(p, topp) == 1) return 1
		if (p ~ /^\/(work|home|Users)\/./) return 1
		if (p ~ /^\/root\/[^.]/) return 1
		if (p ~ /^\/tmp\// && mktemp_made(p)) return 1
		return 0
	}
	{
		f = $0
		sub(/:.*/, "", f)
		rest = substr($0, length(f) + 2)
		ln = rest
		sub(/:.*/, "", ln)
		s = substr(rest, length(ln) + 2)
		for (i = 1; i <= length(s); i++) {
			if (substr(s, i, 1) != "/") continue
			if (i > 1 && substr(s, i - 1, 1) ~ /[A-Za-z0-9_.~$)}\/-]/) continue
			p = token(s, i)
			if (machine(p)) { print f ":" ln ": " p; next }
		}
	}'
}

# tracker_words DIR: "FILE:LINE: WORDS" for each number of the tracker in DIR's tree
# (line 0: in the file's name)
tracker_words() {
	{
		tree_grep "$1" -i -E -e '(issue|stop|session|ticket|item|point)s?[ _-]?#?[0-9]'
		tree_files "$1"
	} | awk '
	BEGIN {
		word = "(^|[^a-z0-9_])((issue|stop|session|ticket)s?[ _-]?#?|(item|point)s? #?)[0-9]+"
		unit = "^(\\.[0-9]+)? ?(s|ms|min|seconds?|minutes?)([^a-z]|$)"
	}
	{
		f = $0
		sub(/:.*/, "", f)
		rest = substr($0, length(f) + 2)
		ln = rest
		sub(/:.*/, "", ln)
		s = tolower(substr(rest, length(ln) + 2))
		while (match(s, word)) {
			w = substr(s, RSTART, RLENGTH)
			s = substr(s, RSTART + RLENGTH)
			# a duration: "the stop 15 s after boot"
			if (w ~ /stops?[ _-]?[0-9]+$/ && s ~ unit)
				continue
			sub(/^[^a-z]/, "", w)
			print f ":" ln ": " w
			next
		}
	}'
}

# reproduce_revs DIR: "FILE:LINE: REV" for each commit a Reproduce block of DIR's
# results/**/README.md names: git checkout REV, --patches-rev/--old-rev REV, X_REV=REV
# (a <placeholder> is no commit)
reproduce_revs() {
	git -C "$1" ls-files --cached --others --exclude-standard -- \
		':(glob)results/**/README.md' ':(exclude,glob)results/**/raw/**' | sort -u |
	while read -r _f; do
		awk -v f="$_f" '
			BEGIN {
				rev = "git checkout +[^ ;&|)]+|--(patches|old)-rev[ =]+[^ ;&|)]+"
				rev = rev "|[A-Z_]*REV=[^ ;&|)]+"
			}
			/^## / { r = ($0 ~ /^## Reproduce/) }
			r && /^```/ { fence = !fence; next }
			!(r && fence) { next }
			{
				s = $0
				while (match(s, rev)) {
					w = substr(s, RSTART, RLENGTH)
					s = substr(s, RSTART + RLENGTH)
					sub(/.*[ =]/, "", w)
					if (w !~ /^</) print f ":" FNR ": " w
				}
			}' "$1/$_f"
	done
}
# lost_revs DIR: those of reproduce_revs that are no commit of DIR or not in its HEAD's
# history
lost_revs() {
	reproduce_revs "$1" | while read -r _at _rev; do
		if ! git -C "$1" rev-parse -q --verify "$_rev^{commit}" > /dev/null; then
			echo "$_at $_rev (no such commit)"
		elif ! git -C "$1" merge-base --is-ancestor "$_rev" HEAD; then
			echo "$_at $_rev (not in HEAD's history)"
		fi
	done
}

# over_pending HITS ALLOWANCES: the hits beyond each file's allowance, in order; a
# note for each allowance larger than what is left
over_pending() {
	awk -v allow="$2" '
		BEGIN {
			n = split(allow, a, "\n")
			for (i = 1; i <= n; i++) if (split(a[i], w, " ") == 2) left[w[1]] = w[2]
		}
		{
			f = $0
			sub(/:.*/, "", f)
			if (left[f] > 0) { left[f]--; next }
			print
		}
		END {
			for (f in left) if (left[f] > 0)
				print "# " f ": " left[f] " pending allowed but not found: lower it" > "/dev/stderr"
		}' "$1"
}

# ---- the checks on a planted tree first ------------------------------------------------
P=$TMPD/plant
mkdir -p "$P/docs" "$P/results/run/raw/boot1"
g() { git -C "$P" -c user.name=brnf -c user.email=brnf@localhost "$@"; }
g init -q
# (each line of fault is put together here, so that this file has none of it)
w=/wo
tmpl=XX
{
	echo "fine: /usr/src/linux-source-6.12.tar.xz /run/brnf/lock /proc/net /mnt/out/x"
	echo "fine: build/fuzz$w""rk/t, \$(BUILD)$w""rk/x, /root/.bashrc"
	echo "fine: /tmp/brnf-t.${tmpl}${tmpl}${tmpl}, /tmp/tmp.$tmpl$tmpl$tmpl$tmpl$tmpl"
	echo "fine: mktemp /tmp/w.txt; moby/moby#47127, a stop 15 s after boot, round 6"
	echo "fault: BUILD=$w""rk/ci/build"
} > "$P/docs/a.md"
printf '# as the run read it: %s/ci %s 13\n' "$w""rk" issue > "$P/results/run/ab.matrix"
printf 'fault: socat - UNIX-CONNECT:/tmp/brnf-m.%s/hmp\n' ELld1l > "$P/docs/b.txt"
printf 'fault: cd %s/docs\n' "$P" > "$P/docs/c.txt"
num=25
printf 'fault: the section left for %s %s\n' issue "$num" > "$P/docs/d.md"
printf 'fault: %s%s landed\n' 'stop ' 17 > "$P/docs/e.md"
stopname=ci-stop"$((num - 7))".txt
: > "$P/docs/$stopname"
printf 'raw: %s/ci/build and %s 25\n' "$w""rk" issue > "$P/results/run/raw/boot1/log"
printf 'kept: %s/ci/build\n' "$w""rk" > "$P/docs/x.log"
g add -A
g commit -q -m one
g checkout -q -b gone
g commit -q --allow-empty -m gone
gone=$(g rev-parse --short=8 HEAD)
g checkout -q -
g commit -q --allow-empty -m two
printf '## Reproduce\n\n```\ngit checkout %s\ngit checkout %s^\n' "$(g rev-parse --short=8 HEAD)" \
	"$(g rev-parse --short=8 HEAD)" > "$P/results/run/README.md"
printf 'git checkout %s\nsh scripts/flip-bench --old-rev %s\n```\n\n## Notes\n\n' "$gone" \
	"0000000$tmpl" >> "$P/results/run/README.md"
printf '```\ngit checkout %s\n```\n' "$gone" >> "$P/results/run/README.md"

machine_paths "$P" > "$TMPD/p.machine"
check "planted: the machine paths are found, the system paths and the raw logs left alone" \
	test "$(cut -d: -f1-2 "$TMPD/p.machine" | tr '\n' ' ')" = \
	"docs/a.md:5 docs/b.txt:1 docs/c.txt:1 "
sed 's/^/# /' "$TMPD/p.machine"
tracker_words "$P" > "$TMPD/p.tracker"
check "planted: the tracker numbers are found, in a file and in a name, not in the raw logs" \
	test "$(cut -d: -f1-2 "$TMPD/p.tracker" | tr '\n' ' ')" = \
	"docs/d.md:1 docs/e.md:1 docs/$stopname:0 "
sed 's/^/# /' "$TMPD/p.tracker"
lost_revs "$P" > "$TMPD/p.lost"
check "planted: a Reproduce block's lost commits are found, not those outside the block" \
	test "$(cut -d' ' -f1 "$TMPD/p.lost" | tr '\n' ' ')" = \
	"results/run/README.md:6: results/run/README.md:7: "
sed 's/^/# /' "$TMPD/p.lost"

# ---- the checks on the tree ------------------------------------------------------------
machine_paths "$TOPDIR" > "$TMPD/machine.all"
over_pending "$TMPD/machine.all" "$pending_machine" > "$TMPD/machine"
n=$(wc -l < "$TMPD/machine")
check "no absolute path of one machine outside the raw logs ($n$(head -n 1 \
	"$TMPD/machine" | sed 's/^/, first: /'))" test "$n" -eq 0
sed 's/^/# /' "$TMPD/machine" | head -n 10
tracker_words "$TOPDIR" > "$TMPD/tracker.all"
over_pending "$TMPD/tracker.all" "$pending_tracker" > "$TMPD/tracker"
n=$(wc -l < "$TMPD/tracker")
check "no number of the tracker outside the raw logs ($n$(head -n 1 "$TMPD/tracker" |
	sed 's/^/, first: /'))" test "$n" -eq 0
sed 's/^/# /' "$TMPD/tracker" | head -n 10
if [ "$(git -C "$TOPDIR" rev-parse --is-shallow-repository)" = true ]; then
	ok "every Reproduce block's commit is in HEAD's history # SKIP a shallow clone"
else
	reproduce_revs "$TOPDIR" > "$TMPD/revs"
	lost_revs "$TOPDIR" > "$TMPD/lost"
	check "every Reproduce block's commit is in HEAD's history ($(wc -l < "$TMPD/revs") named$(
		head -n 1 "$TMPD/lost" | sed 's/^/; first lost: /'))" test ! -s "$TMPD/lost"
	sed 's/^/# /' "$TMPD/lost" | head -n 10
fi
