// SPDX-License-Identifier: GPL-2.0
/*
 * brnf help, brnf COMMAND --help and the manual page from the same tables
 * (usage.h). The text of the sections after the commands is written once here,
 * for both forms.
 */
#include <string.h>

#include "matrix.h"
#include "usage.h"
#include "util.h"

/* The sections after the commands: help prints "Title: text", the manual page
 * ".SH MAN_TITLE" and the text as it stands (no filling). */
struct section {
	const char *title;
	const char *man_title;
	const char *text;
};

static char matrix_text[1024];

static const struct section sections[] = {
	{ "Matrix file (--matrix)", "MATRIX FILE", matrix_text },
	{ "Traffic", "TRAFFIC",
	  "iperf3 servers in pc, clients in sta; upload = sta -> pc,\n"
	  "download = pc -> sta (clients with -R). Ports from 5201 on.\n" },
	{ "Exit status", "EXIT STATUS",
	  "0 ok, 1 error, 2 usage, 3 a run's filtering verification said no,\n"
	  "128 + N stopped by signal N (130 Ctrl-C, 143 SIGTERM) after cleaning up.\n" },
};

/* The matrix file's section names the rulesets there are (matrix.c's table). */
static void sections_init(void)
{
	const struct brnf_ruleset_file *rs;
	size_t len;

	len = (size_t)snprintf(matrix_text, sizeof(matrix_text), "%s",
		"one row per line, whitespace separated key=value:\n"
		"  kernel=VARIANT (default running)  global=0|1|iptables,ip6tables,arptables\n"
		"  local=-|br-lan[,br-wlan]  label=TEXT  ruleset=NAME[+NAME...], files of\n"
		"  rig/rulesets loaded together:");
	for (rs = brnf_rulesets; rs->name && len < sizeof(matrix_text); rs++)
		len += (size_t)snprintf(matrix_text + len, sizeof(matrix_text) - len, " %s",
					rs->name);
	if (len < sizeof(matrix_text))
		snprintf(matrix_text + len, sizeof(matrix_text) - len, "%s",
			 "\n  (a ruleset that filters in the bridge family, bridge-*: its row sets"
			 " global=0\n  local=-)\n"
			 "  '#' starts a comment. Rows with another kernel than the running one"
			 " are skipped.\n");
}

static void opts_text(FILE *f, const struct opt *opts)
{
	if (opts)
		opts_help(f, opts);
}

void usage_cmd(FILE *f, const struct cmd *c)
{
	fprintf(f, "  brnf %s%s%s\n      %s\n", c->name, c->usage[0] ? " " : "", c->usage,
		c->help);
	opts_text(f, c->opts);
	if (c->more)
		fputs(c->more, f);
}

void usage_all(FILE *f, const struct cmd *cmds, size_t n)
{
	size_t i;

	sections_init();
	fprintf(f, "usage: brnf COMMAND [ARGS]   (--help after COMMAND, anywhere: that command"
		" alone;\n       brnf --man: this text as a manual page)\n\n");
	for (i = 0; i < n; i++)
		usage_cmd(f, &cmds[i]);
	for (i = 0; i < ARRAY_SIZE(sections); i++)
		fprintf(f, "\n%s: %s", sections[i].title, sections[i].text);
}

/*
 * roff: a backslash is \e, a minus \- (so that options can be searched and
 * copied), a line must not begin with . or ' (a request); squeeze: every run of
 * white space is one space (a usage spread over lines for the terminal). The
 * text ends at end, or at its NUL when end is NULL.
 */
static void roff(FILE *f, const char *s, const char *end, bool squeeze)
{
	bool bol = true;

	for (; *s && (!end || s < end); s++) {
		if (squeeze && (*s == ' ' || *s == '\n' || *s == '\t')) {
			while (s[1] == ' ' || s[1] == '\n' || s[1] == '\t')
				s++;
			fputc(' ', f);
			continue;
		}
		if (bol && (*s == '.' || *s == '\''))
			fputs("\\&", f);
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
		bol = *s == '\n';
	}
}

/* text as it stands, each line without the indentation of its first line */
static void roff_pre(FILE *f, const char *text)
{
	size_t ind = strspn(text, " "), sp;
	const char *nl;

	fputs(".nf\n", f);
	while (*text) {
		sp = strspn(text, " ");
		text += sp < ind ? sp : ind;
		nl = strchr(text, '\n');
		if (!nl)
			nl = text + strlen(text);
		roff(f, text, nl, false);
		fputc('\n', f);
		text = *nl ? nl + 1 : nl;
	}
	fputs(".fi\n", f);
}

static void opts_man(FILE *f, const struct opt *opts)
{
	const struct opt *o;

	for (o = opts; o && o->name; o++) {
		fputs(".TP\n\\fB", f);
		roff(f, o->name, NULL, false);
		fputs("\\fR", f);
		if (o->arg) {
			fputs(" \\fI", f);
			roff(f, o->arg, NULL, false);
			fputs("\\fR", f);
		}
		fputc('\n', f);
		roff(f, o->help, NULL, false);
		fputc('\n', f);
	}
}

void usage_man(FILE *f, const struct cmd *cmds, size_t n, const char *version)
{
	size_t i;

	sections_init();
	fputs(".TH BRNF 1 \"\" \"brnf ", f);
	roff(f, version, NULL, true);
	fputs("\" \"brnf\"\n"
	      ".SH NAME\n"
	      "brnf \\- bridge\\-netfilter A/B benchmark controller\n"
	      ".SH SYNOPSIS\n"
	      ".B brnf\n"
	      ".I COMMAND\n"
	      "[\\fIARGS\\fR] [\\fB\\-\\-help\\fR]\n"
	      ".br\n"
	      ".B brnf \\-\\-man\n"
	      ".SH DESCRIPTION\n"
	      "brnf measures what bridge\\-netfilter costs: it builds a test bed of network\n"
	      "namespaces (or reaches a rig of real hosts), runs a matrix of kernel and\n"
	      "switch settings with iperf3 and pktgen, and writes a results directory with\n"
	      "its tables. \\fB\\-\\-help\\fR anywhere after a command prints that command's\n"
	      "usage alone; \\fBbrnf help\\fR prints all of them. This page is made from the\n"
	      "same tables as the help (\\fBbrnf \\-\\-man\\fR).\n"
	      ".SH COMMANDS\n", f);
	for (i = 0; i < n; i++) {
		fputs(".SS \"brnf ", f);
		roff(f, cmds[i].name, NULL, true);
		if (cmds[i].usage[0]) {
			fputc(' ', f);
			roff(f, cmds[i].usage, NULL, true);
		}
		fputs("\"\n", f);
		roff(f, cmds[i].help, NULL, true);
		fputc('\n', f);
		opts_man(f, cmds[i].opts);
		if (cmds[i].more) {
			fputs(".PP\n", f);
			roff_pre(f, cmds[i].more + strspn(cmds[i].more, "\n"));
		}
	}
	for (i = 0; i < ARRAY_SIZE(sections); i++) {
		fprintf(f, ".SH %s\n", sections[i].man_title);
		roff_pre(f, sections[i].text);
	}
	fputs(".SH SEE ALSO\n"
	      "\\fBmake help\\fR in the brnf repository; rig/README.md there.\n", f);
}
