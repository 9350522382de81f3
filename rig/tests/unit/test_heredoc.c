// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the restore script's here-documents (rig/src/heredoc.c): saved rules
 * holding the delimiter, or anything sh would expand, reach their command whole.
 */
#include "unit.h"

#include "heredoc.h"

/* The script heredoc_write() makes for cmd "cat", run by sh: what cat printed. */
static char *through_sh(const char *head, const char *text, char **script)
{
	char *buf = NULL, *out;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	char path[] = "/tmp/brnf-heredoc.XXXXXX", outp[64];
	int fd = mkstemp(path);

	assert_non_null(m);
	assert_true(fd >= 0);
	close(fd);
	heredoc_write(m, "cat", head, text);
	fprintf(m, "echo END\n");	/* the script goes on after the here-document */
	assert_int_equal(fclose(m), 0);
	spit(path, buf, len);
	*script = buf;
	snprintf(outp, sizeof(outp), "%s.out", path);
	sh("sh %s > %s", path, outp);
	out = slurp(outp, NULL);
	unlink(outp);
	unlink(path);
	return out;
}

static void check(const char *head, const char *text, const char *want, const char *delim)
{
	char *script, *out = through_sh(head, text, &script), first[64];

	snprintf(first, sizeof(first), "cat <<'%s'\n", delim);
	assert_true(!strncmp(script, first, strlen(first)));
	assert_string_equal(out, want);
	free(out);
	free(script);
}

static void test_plain(void **state)
{
	(void)state;
	check(NULL, "-A PREROUTING -j ACCEPT\nCOMMIT\n", "-A PREROUTING -j ACCEPT\nCOMMIT\nEND\n",
	      "BRNF_EOF");
	/* no newline at the end: one is added; head first */
	check("flush ruleset", "table inet fw4 {\n}", "flush ruleset\ntable inet fw4 {\n}\nEND\n",
	      "BRNF_EOF");
	/* nothing to restore: the head alone */
	check("flush ruleset", NULL, "flush ruleset\nEND\n", "BRNF_EOF");
	check("flush ruleset", "", "flush ruleset\nEND\n", "BRNF_EOF");
	/* quoted delimiter: nothing is expanded */
	check(NULL, "comment \"$HOME `id` \\n $(id)\"\n", "comment \"$HOME `id` \\n $(id)\"\nEND\n",
	      "BRNF_EOF");
}

/* a line that is the delimiter: the next one is taken, and the text survives */
static void test_delimiter_in_text(void **state)
{
	const char *text = "table ip t {\nBRNF_EOF\n  BRNF_EOF\nBRNF_EOF_2\nBRNF_EOF_3x\n}\n";
	char want[256];

	(void)state;
	snprintf(want, sizeof(want), "%sEND\n", text);
	check(NULL, text, want, "BRNF_EOF_3");
	/* on the last line, without its newline */
	check(NULL, "a\nBRNF_EOF", "a\nBRNF_EOF\nEND\n", "BRNF_EOF_2");
	/* in the head too */
	check("BRNF_EOF", "BRNF_EOF_2\n", "BRNF_EOF\nBRNF_EOF_2\nEND\n", "BRNF_EOF_3");
	/* only a line's start or end: not the delimiter */
	check(NULL, "xBRNF_EOF\nBRNF_EOFx\n", "xBRNF_EOF\nBRNF_EOFx\nEND\n", "BRNF_EOF");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_delimiter_in_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
