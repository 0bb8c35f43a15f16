/* Linked into every test program: with HYLA_TEST_WATCHDOG=SECONDS, a test
 * still running after that long prints the stack of each of its threads to
 * stderr (raw frames, "program(+offset)", for addr2line -f -e PROGRAM
 * where the symbol is not exported) and exits with status 124. For GPU
 * hosts without a debugger: a test that hangs says where. Unset or 0:
 * nothing happens. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <execinfo.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static void dump_stack(int sig) {
    (void)sig;
    void *frames[64];
    char head[64];
    const int n = backtrace(frames, 64);
    const int len = snprintf(head, sizeof head, "--- thread %ld\n", (long)syscall(SYS_gettid));
    if (len > 0) (void)!write(2, head, (size_t)len);
    backtrace_symbols_fd(frames, n, 2);
}

static void *watch(void *arg) {
    const unsigned seconds = (unsigned)(size_t)arg;
    sleep(seconds);
    fprintf(stderr, "watchdog: still running after %u s; the threads' stacks:\n", seconds);
    const pid_t pid = getpid(), self = (pid_t)syscall(SYS_gettid);
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    while (d && (e = readdir(d))) {
        const pid_t tid = (pid_t)atoi(e->d_name);
        if (tid > 0 && tid != self) {
            syscall(SYS_tgkill, pid, tid, SIGUSR2);
            usleep(100000);
        }
    }
    if (d) closedir(d);
    usleep(500000);
    _exit(124);
}

__attribute__((constructor)) static void watchdog_start(void) {
    const char *s = getenv("HYLA_TEST_WATCHDOG");
    const long seconds = s ? atol(s) : 0;
    if (seconds <= 0) return;
    struct sigaction sa = {0};
    sa.sa_handler = dump_stack;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR2, &sa, NULL);
    backtrace((void *[1]){0}, 1); /* loads libgcc's unwinder before any signal */
    pthread_t th;
    if (pthread_create(&th, NULL, watch, (void *)(size_t)seconds) == 0) pthread_detach(th);
}
