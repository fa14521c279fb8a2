/*
 * The system calls newlib is built to expect (--disable-newlib-supplied-
 * syscalls: its reentrant wrappers call write, sbrk, ... and exit calls
 * _exit). Only the console is a file; the heap for newlib's malloc is a
 * fixed region here (the kernel's own objects use kmalloc from mm/), so
 * printf works from the first line of kmain, before mm is up.
 */
#include <errno.h>
#include <sys/stat.h>
#include <sys/times.h>
#include <sys/time.h>

#include "kernel/console.h"
#include "kernel/exit.h"
#include "kernel/time.h"

#undef errno
extern int errno;

#define NEWLIB_HEAP_SIZE (4UL << 20)
static char newlib_heap[NEWLIB_HEAP_SIZE] __aligned(4096);
static size_t newlib_brk;

int write(int fd, const void *buf, size_t len)
{
	if (fd != 1 && fd != 2) {
		errno = EBADF;
		return -1;
	}
	console_write(buf, len);
	return (int)len;
}

void *sbrk(ptrdiff_t incr)
{
	size_t old = newlib_brk;

	if (incr < 0 ? (size_t)-incr > old : (size_t)incr > NEWLIB_HEAP_SIZE - old) {
		errno = ENOMEM;
		return (void *)-1;
	}
	newlib_brk += incr;
	return newlib_heap + old;
}

void _exit(int code)
{
	kernel_exit(code ? EXIT_FAILURE_STATUS : EXIT_OK);
}

int read(int fd, void *buf, size_t len)
{
	(void)fd, (void)buf, (void)len;
	errno = EBADF;
	return -1;
}

int close(int fd)
{
	(void)fd;
	errno = EBADF;
	return -1;
}

int fstat(int fd, struct stat *st)
{
	if (fd < 0 || fd > 2) {
		errno = EBADF;
		return -1;
	}
	st->st_mode = S_IFCHR;
	return 0;
}

int isatty(int fd)
{
	return fd >= 0 && fd <= 2;
}

off_t lseek(int fd, off_t off, int whence)
{
	(void)fd, (void)off, (void)whence;
	errno = ESPIPE;
	return -1;
}

int open(const char *path, int flags, int mode)
{
	(void)path, (void)flags, (void)mode;
	errno = ENOSYS;
	return -1;
}

int kill(int pid, int sig)
{
	(void)pid, (void)sig;
	errno = EINVAL;
	return -1;
}

int getpid(void)
{
	return 1;
}

int gettimeofday(struct timeval *tv, void *tz)
{
	uint64_t ns = ktime_ns();

	(void)tz;
	tv->tv_sec = (time_t)(ns / NSEC_PER_SEC);
	tv->tv_usec = (suseconds_t)(ns % NSEC_PER_SEC / 1000);
	return 0;
}

clock_t times(struct tms *buf)
{
	(void)buf;
	errno = ENOSYS;
	return (clock_t)-1;
}

int link(const char *a, const char *b)
{
	(void)a, (void)b;
	errno = ENOSYS;
	return -1;
}

int unlink(const char *path)
{
	(void)path;
	errno = ENOSYS;
	return -1;
}

int fork(void)
{
	errno = ENOSYS;
	return -1;
}

int wait(int *status)
{
	(void)status;
	errno = ENOSYS;
	return -1;
}

int execve(const char *p, char *const argv[], char *const envp[])
{
	(void)p, (void)argv, (void)envp;
	errno = ENOSYS;
	return -1;
}

int stat(const char *path, struct stat *st)
{
	(void)path, (void)st;
	errno = ENOSYS;
	return -1;
}
