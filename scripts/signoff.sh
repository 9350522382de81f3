# signoff.sh: the submitter's identity for exported patches (sourced by
# scripts/upstream-export and scripts/openwrt-export, not run).
#
# signoff_parse "Name <address>": sets signoff_name and signoff_addr and returns 0, or
# sets signoff_why to why the identity cannot sign (not "Name <address>", a placeholder
# domain: example, .invalid, localhost, test..., or the patches' own placeholder author)
# and returns 1.
signoff_parse() {
	signoff_name=$(echo "$1" | sed -n 's/^ *\([^<]*[^< ]\) *<\([^<> ]*@[^<> ]*\)> *$/\1/p')
	signoff_addr=$(echo "$1" | sed -n 's/^ *\([^<]*[^< ]\) *<\([^<> ]*@[^<> ]*\)> *$/\2/p')
	if [ -z "$signoff_name" ] || [ -z "$signoff_addr" ]; then
		signoff_why='not "Name <address>"'
		return 1
	fi
	_domain=$(echo "${signoff_addr#*@}" | tr 'A-Z' 'a-z')
	case $_domain in
	example|example.*|*.example|invalid|*.invalid|localhost|localhost.*|*.localdomain|test|*.test)
		signoff_why="$_domain is a placeholder domain, not an address to sign with"
		return 1 ;;
	esac
	if [ "$signoff_name" = "brnf developers" ]; then
		signoff_why="the patches' placeholder author, not a person"
		return 1
	fi
	return 0
}
