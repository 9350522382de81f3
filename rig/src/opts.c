// SPDX-License-Identifier: GPL-2.0
/* Table-driven option parsing (see opts.h). */
#include <errno.h>
#include <string.h>

#include "opts.h"
#include "util.h"

int opts_parse(const struct opt *opts, int argc, char **argv, void *ctx,
	       char **pos, int npos)
{
	const struct opt *o;
	int i, n = 0;

	for (i = 0; i < argc; i++) {
		if (argv[i][0] != '-' || !strcmp(argv[i], "-")) {
			if (n >= npos) {
				pr_err("unexpected argument \"%s\"", argv[i]);
				return -EINVAL;
			}
			pos[n++] = argv[i];
			continue;
		}
		for (o = opts; o->name; o++)
			if (!strcmp(o->name, argv[i]))
				break;
		if (!o->name) {
			pr_err("option \"%s\" is unknown, try brnf help", argv[i]);
			return -EINVAL;
		}
		if (o->arg && i + 1 >= argc) {
			pr_err("option \"%s\" needs an argument %s", o->name, o->arg);
			return -EINVAL;
		}
		if (o->set(ctx, o->arg ? argv[++i] : NULL)) {
			pr_err("option \"%s\": \"%s\" is wrong (%s %s: %s)", o->name,
			       o->arg ? argv[i] : "", o->name, o->arg ? o->arg : "", o->help);
			return -EINVAL;
		}
	}
	return n;
}

void opts_help(FILE *f, const struct opt *opts)
{
	const struct opt *o;
	char buf[64];

	for (o = opts; o->name; o++) {
		snprintf(buf, sizeof(buf), "%s%s%s", o->name, o->arg ? " " : "",
			 o->arg ? o->arg : "");
		fprintf(f, "      %-22s %s\n", buf, o->help);
	}
}

bool opts_help_asked(const struct opt *opts, int argc, char **argv)
{
	const struct opt *o;
	int i;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
		for (o = opts; o && o->name; o++)
			if (!strcmp(o->name, argv[i]))
				break;
		if (o && o->name && o->arg)
			i++;	/* its argument, whatever it looks like */
	}
	return false;
}
