// SPDX-License-Identifier: GPL-2.0
/* Whole files (see file.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errbuf.h"
#include "file.h"

int file_read(const char *path, size_t max, char **bufp, size_t *lenp, char *err,
	      size_t errlen)
{
	size_t len = 0, cap = 4096;
	char *buf, *nbuf;
	ssize_t n;
	int fd, ret;

	*bufp = NULL;
	if (lenp)
		*lenp = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto out_msg;
	}
	buf = malloc(cap);
	if (!buf) {
		ret = -ENOMEM;
		goto out_close;
	}
	for (;;) {
		if (len + 1 >= cap) {
			nbuf = realloc(buf, cap * 2);
			if (!nbuf) {
				ret = -ENOMEM;
				goto out_free;
			}
			buf = nbuf;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			goto out_free;
		}
		if (n == 0)
			break;
		len += n;
		if (max && len > max) {
			ret = -EFBIG;
			goto out_free;
		}
	}
	buf[len] = '\0';
	close(fd);
	*bufp = buf;
	if (lenp)
		*lenp = len;
	return 0;

out_free:
	free(buf);
out_close:
	close(fd);
out_msg:
	if (ret == -EFBIG)
		seterr(err, errlen, "%s: larger than %zu bytes", path, max);
	else
		seterr(err, errlen, "%s: %s", path, strerror(-ret));
	return ret;
}

int read_file(const char *path, char **buf, size_t *len)
{
	return file_read(path, 0, buf, len, NULL, 0);
}

/* Write all of buf to fd (fsync'd when sync) and close it. 0 or -errno. */
static int write_close(int fd, const char *buf, size_t len, mode_t mode, int sync)
{
	ssize_t n;
	int err = 0;

	/* an existing file keeps its mode otherwise, and the umask is not ours to trust */
	if (fchmod(fd, mode))
		err = -errno;
	while (len && !err) {
		n = write(fd, buf, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		buf += n;
		len -= n;
	}
	if (sync && !err && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

int file_write(const char *path, const char *buf, size_t len, mode_t mode)
{
	int fd;

	/* never through a link planted where the file goes (brnf writes as root) */
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode);
	if (fd < 0)
		return -errno;
	return write_close(fd, buf, len, mode, 0);
}

int write_file(const char *path, const char *buf, size_t len)
{
	return file_write(path, buf, len, 0644);
}

int file_render(const char *dir, const char *name, file_render_fn fn, void *arg)
{
	char path[4096], tmp[4096], *buf = NULL;
	size_t len = 0;
	int ret, fd = -1;
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path) ||
	    snprintf(tmp, sizeof(tmp), "%s/.%s.tmp.%d", dir, name, (int)getpid()) >=
		    (int)sizeof(tmp)) {
		pr_err("%s/%s: path too long", dir, name);
		return -ENAMETOOLONG;
	}
	f = open_memstream(&buf, &len);
	if (!f) {
		pr_err("%s: out of memory", path);
		return -ENOMEM;
	}
	ret = fn(f, arg);
	if (fclose(f) && !ret)
		ret = -ENOMEM;
	if (!ret) {
		/* a new file, never one (or a link) that is there already */
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		ret = fd < 0 ? -errno : write_close(fd, buf, len, 0644, 1);
	}
	if (!ret && rename(tmp, path))
		ret = -errno;
	free(buf);
	if (ret) {
		if (fd >= 0)
			unlink(tmp);
		pr_err("%s: %s", path, strerror(-ret));
	}
	return ret;
}
