// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the one whole-file reader and writer (rig/src/data/file.c). */
#include "unit.h"

#include <dirent.h>

#include "file.h"

static void test_read(void **state)
{
	char *buf = NULL, err[256] = "";
	size_t len = 1;

	(void)state;
	assert_int_equal(file_read(data_path("good.matrix"), 0, &buf, &len, err, sizeof(err)), 0);
	assert_true(len > 0);
	assert_int_equal(strlen(buf), len);
	free(buf);
	/* the limit: a file of len bytes fits len, not len - 1 */
	assert_int_equal(file_read(data_path("good.matrix"), len, &buf, NULL, err, sizeof(err)),
			 0);
	free(buf);
	assert_int_equal(file_read(data_path("good.matrix"), len - 1, &buf, NULL, err,
				   sizeof(err)), -EFBIG);
	assert_null(buf);
	assert_true(strstr(err, "good.matrix: larger than ") != NULL);
	assert_int_equal(file_read("/nonexistent/f", 0, &buf, &len, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "/nonexistent/f: No such file or directory");
	assert_null(buf);
	assert_int_equal(len, 0);
	/* no message wanted */
	assert_int_equal(read_file("/nonexistent/f", &buf, NULL), -ENOENT);
}

static void test_write_mode(void **state)
{
	char dir[] = "/tmp/brnf-unit-file.XXXXXX", path[64], *buf = NULL;
	struct stat st;
	size_t len;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/f", dir);
	assert_int_equal(write_file(path, "abc", 3), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	/* an existing file gets the mode asked for, not the one it had */
	assert_int_equal(file_write(path, "secret\n", 7, 0600), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(read_file(path, &buf, &len), 0);
	assert_int_equal(len, 7);
	assert_string_equal(buf, "secret\n");
	free(buf);
	unlink(path);
	rmdir(dir);
}

/* a link where the file goes is refused, and what it points to stays as it was */
static void test_write_no_follow(void **state)
{
	char dir[] = "/tmp/brnf-unit-file.XXXXXX", link[64], target[64], *buf = NULL;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(target, sizeof(target), "%s/target", dir);
	snprintf(link, sizeof(link), "%s/link", dir);
	assert_int_equal(write_file(target, "mine\n", 5), 0);
	assert_int_equal(symlink(target, link), 0);
	assert_int_equal(file_write(link, "theirs\n", 7, 0600), -ELOOP);
	assert_int_equal(read_file(target, &buf, NULL), 0);
	assert_string_equal(buf, "mine\n");
	free(buf);
	/* a dangling link does not create its target either */
	unlink(target);
	assert_int_equal(write_file(link, "x", 1), -ELOOP);
	assert_int_equal(access(target, F_OK), -1);
	unlink(link);
	rmdir(dir);
}

static int render_text(FILE *f, void *arg)
{
	fputs(arg, f);
	return 0;
}

static int render_fails(FILE *f, void *arg)
{
	(void)arg;
	fputs("half", f);
	return -EINVAL;
}

/* how many entries dir has besides . and .. */
static int entries(const char *dir)
{
	struct dirent *de;
	int n = 0;
	DIR *d;

	d = opendir(dir);
	assert_non_null(d);
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

static void test_render(void **state)
{
	char dir[] = "/tmp/brnf-unit-file.XXXXXX", path[64], target[64], *buf = NULL;
	char text[] = "whole\n";
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/t.md", dir);
	snprintf(target, sizeof(target), "%s/target", dir);
	assert_int_equal(file_render(dir, "t.md", render_text, text), 0);
	assert_int_equal(read_file(path, &buf, NULL), 0);
	assert_string_equal(buf, "whole\n");
	free(buf);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	/* the renderer fails: the old file stays as it was, no temporary file is left */
	assert_int_equal(file_render(dir, "t.md", render_fails, NULL), -EINVAL);
	assert_int_equal(read_file(path, &buf, NULL), 0);
	assert_string_equal(buf, "whole\n");
	free(buf);
	assert_int_equal(entries(dir), 1);
	/* a link where the file goes is replaced, its target not written */
	assert_int_equal(write_file(target, "mine\n", 5), 0);
	unlink(path);
	assert_int_equal(symlink(target, path), 0);
	assert_int_equal(file_render(dir, "t.md", render_text, text), 0);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(read_file(target, &buf, NULL), 0);
	assert_string_equal(buf, "mine\n");
	free(buf);
	/* a directory that is not there: the error, nothing made */
	assert_int_equal(file_render("/nonexistent", "t.md", render_text, text), -ENOENT);
	unlink(path);
	unlink(target);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_write_no_follow),
		cmocka_unit_test(test_write_mode),
		cmocka_unit_test(test_render),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
