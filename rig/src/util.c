// SPDX-License-Identifier: GPL-2.0
/* Small helpers shared by the run side: error lines, files, hashing. */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <json-c/json.h>
#include <openssl/evp.h>

#include "file.h"
#include "util.h"

volatile sig_atomic_t brnf_stop;

void pr_debug(const char *fmt, ...)
{
	va_list ap;

	if (!getenv("BRNF_DEBUG"))
		return;
	fputs("brnf: debug: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int json_write_file_err(const char *path, struct json_object *o, char *msg, size_t msglen)
{
	const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
						       JSON_C_TO_STRING_SPACED |
						       JSON_C_TO_STRING_NOSLASHESCAPE);
	int err;

	/* as json_object_to_file_ext() wrote it, but never through a link */
	err = s ? file_write(path, s, strlen(s), 0644) : -ENOMEM;
	if (err)
		seterr(msg, msglen, "write %s: %s", path, strerror(-err));
	return err;
}

int json_write_file(const char *path, struct json_object *o)
{
	char msg[4200];
	int err = json_write_file_err(path, o, msg, sizeof(msg));

	if (err)
		pr_err("%s", msg);
	return err;
}

int render_and_say(const char *dir, const char *name, file_render_fn fn, void *arg)
{
	int ret = file_render(dir, name, fn, arg);

	if (!ret)
		printf("%s/%s\n", dir, name);
	return ret;
}

int mkdir_new(const char *path)
{
	return mkdir(path, 0755) ? -errno : 0;
}

int mkdir_p(const char *path)
{
	char tmp[4096], *p;

	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(path) ? -errno : 0;
	return unlink(path) ? -errno : 0;
}

int rm_rf(const char *path)
{
	if (!path_exists(path))
		return 0;
	return nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

bool path_exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

void chomp(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t' ||
		     s[n - 1] == '\r'))
		s[--n] = '\0';
}

int parse_uint(const char *s, unsigned long min, unsigned long max, unsigned long *v)
{
	unsigned long x;
	char *end;

	if (!s || !*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	x = strtoul(s, &end, 10);
	if (errno || *end || x < min || x > max)
		return -EINVAL;
	*v = x;
	return 0;
}

double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int sha256_buf(const void *buf, size_t len, char hex[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen, i;

	if (!EVP_Digest(buf, len, md, &mdlen, EVP_sha256(), NULL))
		return -EIO;
	for (i = 0; i < mdlen && i < 32; i++)
		sprintf(hex + 2 * i, "%02x", md[i]);
	hex[64] = '\0';
	return 0;
}

int sha256_file(const char *path, char hex[65])
{
	size_t len;
	char *buf;
	int err;

	err = read_file(path, &buf, &len);
	if (err)
		return err;
	err = sha256_buf(buf, len, hex);
	free(buf);
	return err;
}

static void on_signal(int sig)
{
	brnf_stop = sig;
}

void signals_install(void)
{
	/* SA_RESTART: a read or write the signal lands in is not cut short; the loops
	 * look at brnf_stop */
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}
