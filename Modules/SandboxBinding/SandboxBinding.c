// Landlock, seccomp and prctl for a worker that confines itself (see include/SandboxBinding.h). Constants are
// spelled here rather than taken from the kernel's headers, so the binding builds against old headers and reports
// what the running kernel lacks instead.
#include "SandboxBinding.h"

#if defined(__linux__)

#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#endif
#ifndef __NR_landlock_add_rule
#define __NR_landlock_add_rule 445
#endif
#ifndef __NR_landlock_restrict_self
#define __NR_landlock_restrict_self 446
#endif

#if defined(__x86_64__)
#define COURIER_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define COURIER_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

struct courier_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

struct courier_path_beneath_attr {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

struct courier_net_port_attr {
    uint64_t allowed_access;
    uint64_t port;
};

int courier_sandbox_landlock_abi(void) {
    long abi = syscall(__NR_landlock_create_ruleset, NULL, 0, 1U /* LANDLOCK_CREATE_RULESET_VERSION */);
    return abi < 0 ? 0 : (int)abi;
}

int courier_sandbox_seccomp_available(void) {
#ifdef COURIER_AUDIT_ARCH
    // A kernel with filters answers EFAULT for a null program; one without them, EINVAL.
    if (prctl(PR_GET_SECCOMP, 0, 0, 0, 0) < 0) return 0;
    errno = 0;
    long result = syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, NULL);
    return result < 0 && errno == EFAULT;
#else
    return 0;
#endif
}

/// Every file access right the kernel of `abi` knows: handled, hence denied unless a rule allows it.
static uint64_t handled_files(int abi) {
    uint64_t rights = (1ULL << 13) - 1; // EXECUTE … MAKE_SYM (ABI 1)
    if (abi >= 2) rights |= 1ULL << 13; // REFER
    if (abi >= 3) rights |= 1ULL << 14; // TRUNCATE
    if (abi >= 5) rights |= 1ULL << 15; // IOCTL_DEV
    return rights;
}

static int confine_files(const char *const *readable, int count, int abi, int *applied) {
    struct courier_ruleset_attr attr = {0};
    size_t size = sizeof(uint64_t);
    attr.handled_access_fs = handled_files(abi);
    if (abi >= 4) {
        attr.handled_access_net = 3; // BIND_TCP | CONNECT_TCP, with no port allowed
        size = 2 * sizeof(uint64_t);
    }
    if (abi >= 6) {
        attr.scoped = 3; // ABSTRACT_UNIX_SOCKET | SIGNAL
        size = sizeof(attr);
    }
    int ruleset = (int)syscall(__NR_landlock_create_ruleset, &attr, size, 0);
    if (ruleset < 0) return -1;
    const uint64_t read_file = 1ULL << 2, read_dir = 1ULL << 3;
    for (int index = 0; index < count; index++) {
        int fd = open(readable[index], O_PATH | O_CLOEXEC);
        if (fd < 0) continue;
        struct courier_path_beneath_attr rule = {.allowed_access = read_file | read_dir, .parent_fd = fd};
        // A file takes file rights only: retried without READ_DIR.
        if (syscall(__NR_landlock_add_rule, ruleset, 1 /* PATH_BENEATH */, &rule, 0) < 0 && errno == EINVAL) {
            rule.allowed_access = read_file;
            syscall(__NR_landlock_add_rule, ruleset, 1, &rule, 0);
        }
        close(fd);
    }
    long result = syscall(__NR_landlock_restrict_self, ruleset, 0);
    close(ruleset);
    if (result < 0) return -1;
    *applied |= COURIER_SANDBOX_FILES;
    if (abi >= 3) *applied |= COURIER_SANDBOX_TRUNCATE;
    if (abi >= 4) *applied |= COURIER_SANDBOX_TCP;
    if (abi >= 6) *applied |= COURIER_SANDBOX_SCOPES;
    return 0;
}

#ifdef COURIER_AUDIT_ARCH

#define ERRNO(code) (SECCOMP_RET_ERRNO | ((code) & SECCOMP_RET_DATA))
#define ARG_LOW(n) (offsetof(struct seccomp_data, args) + 8 * (n))
#define LOAD(offset) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (offset))
#define RETURN(value) BPF_STMT(BPF_RET | BPF_K, (value))
#define IS(value, yes, no) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (value), (yes), (no))

/// System calls a worker never needs and a squad's code must not have: answered "not permitted".
static const int denied[] = {
#ifdef __NR_fork
    __NR_fork,
#endif
#ifdef __NR_vfork
    __NR_vfork,
#endif
    __NR_execve, __NR_execveat, __NR_setsid, __NR_setpgid, __NR_ptrace, __NR_process_vm_readv,
    __NR_process_vm_writev, __NR_socket, __NR_socketpair, __NR_tkill,
    // System V and POSIX IPC, whose objects are the machine's: another process's could be read, changed or
    // removed by id, and one made here would outlive the worker.
    __NR_shmget, __NR_shmat, __NR_shmctl, __NR_shmdt, __NR_semget, __NR_semop, __NR_semtimedop, __NR_semctl,
    __NR_msgsnd, __NR_msgrcv, __NR_msgctl, __NR_mq_unlink, __NR_mq_timedsend, __NR_mq_timedreceive,
    __NR_mq_notify, __NR_mq_getsetattr,
    __NR_perf_event_open, __NR_bpf, __NR_keyctl, __NR_add_key, __NR_request_key, __NR_mount, __NR_umount2,
    __NR_pivot_root, __NR_chroot, __NR_unshare, __NR_setns, __NR_kcmp, __NR_open_by_handle_at,
    __NR_name_to_handle_at, __NR_fanotify_init, __NR_userfaultfd, __NR_memfd_create, __NR_mq_open, __NR_msgget,
    __NR_init_module, __NR_finit_module, __NR_delete_module, __NR_kexec_load, __NR_reboot, __NR_swapon,
    __NR_swapoff, __NR_acct, __NR_quotactl, __NR_ioprio_set, __NR_migrate_pages,
    __NR_move_pages, __NR_personality, __NR_vhangup, __NR_syslog,
#ifdef __NR_kexec_file_load
    __NR_kexec_file_load,
#endif
#ifdef __NR_pidfd_open
    __NR_pidfd_open,
#endif
#ifdef __NR_pidfd_getfd
    __NR_pidfd_getfd,
#endif
#ifdef __NR_pidfd_send_signal
    __NR_pidfd_send_signal,
#endif
#ifdef __NR_memfd_secret
    __NR_memfd_secret,
#endif
#ifdef __NR_process_madvise
    __NR_process_madvise,
#endif
#ifdef __NR_io_uring_setup
    __NR_io_uring_setup, __NR_io_uring_enter, __NR_io_uring_register,
#endif
#ifdef __NR_iopl
    __NR_iopl, __NR_ioperm,
#endif
#ifdef __NR_uselib
    __NR_uselib,
#endif
    // A file's mode, owner, times and attributes, which Landlock does not hold: a worker may read a file, never
    // make the person's key readable to all or another user's.
    __NR_fchmod, __NR_fchmodat, __NR_fchown, __NR_fchownat, __NR_utimensat, __NR_setxattr, __NR_lsetxattr,
    __NR_fsetxattr, __NR_removexattr, __NR_lremovexattr, __NR_fremovexattr,
#ifdef __NR_chmod
    __NR_chmod, __NR_chown, __NR_lchown, __NR_utime, __NR_utimes, __NR_futimesat,
#endif
#ifdef __NR_fchmodat2
    __NR_fchmodat2,
#endif
#ifdef __NR_setxattrat
    __NR_setxattrat, __NR_removexattrat,
#endif
    // The machine's clock and names.
    __NR_settimeofday, __NR_clock_settime, __NR_clock_adjtime, __NR_adjtimex, __NR_sethostname,
    __NR_setdomainname,
};

/// Terminal ioctls ('T' commands) a worker may still make: they read, or set its own descriptors' flags (not
/// FIOASYNC: a descriptor that signals its owner could be made to signal another process).
static const uint32_t harmless_terminal[] = {
    0x5401 /* TCGETS */, 0x540F /* TIOCGPGRP */, 0x5413 /* TIOCGWINSZ */, 0x541B /* FIONREAD */,
    0x5421 /* FIONBIO */, 0x5450 /* FIONCLEX */, 0x5451 /* FIOCLEX */, 0x5460 /* FIOQSIZE */,
};

static int confine_calls(int self) {
    enum { capacity = 512 };
    struct sock_filter program[capacity];
    int n = 0;
#define PUT(instruction)                                                                                               \
    do {                                                                                                               \
        if (n >= capacity) return -1;                                                                                  \
        program[n++] = (struct sock_filter)instruction;                                                                \
    } while (0)
    // Another architecture's numbers mean other calls: the process ends rather than guess.
    PUT(LOAD(offsetof(struct seccomp_data, arch)));
    PUT(IS(COURIER_AUDIT_ARCH, 1, 0));
    PUT(RETURN(SECCOMP_RET_KILL_PROCESS));
    PUT(LOAD(offsetof(struct seccomp_data, nr)));
#if defined(__x86_64__)
    // The x32 ABI's numbers (bit 30) alias the 64-bit ones: refused whole.
    PUT(BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1));
    PUT(RETURN(ERRNO(EPERM)));
#endif
    for (size_t index = 0; index < sizeof(denied) / sizeof(denied[0]); index++) {
        PUT(IS((uint32_t)denied[index], 0, 1));
        PUT(RETURN(ERRNO(EPERM)));
    }
    // clone3's flags are behind a pointer: "not implemented", so glibc starts threads with clone.
#ifdef __NR_clone3
    PUT(IS(__NR_clone3, 0, 1));
    PUT(RETURN(ERRNO(ENOSYS)));
#endif
    // clone: a thread of this process (CLONE_THREAD), never another process.
    PUT(IS(__NR_clone, 0, 4));
    PUT(LOAD(ARG_LOW(0)));
    PUT(BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, 0x00010000 /* CLONE_THREAD */, 0, 1));
    PUT(RETURN(SECCOMP_RET_ALLOW));
    PUT(RETURN(ERRNO(EPERM)));
    // Signals: to itself only (kill's 0 is its own group, of which it is the only member).
    const int signalling[] = {__NR_kill, __NR_tgkill, __NR_rt_sigqueueinfo, __NR_rt_tgsigqueueinfo};
    for (size_t index = 0; index < 4; index++) {
        PUT(IS((uint32_t)signalling[index], 0, 5));
        PUT(LOAD(ARG_LOW(0)));
        PUT(IS((uint32_t)self, 2, 0));
        PUT(IS(0, 1, 0));
        PUT(RETURN(ERRNO(EPERM)));
        PUT(RETURN(SECCOMP_RET_ALLOW));
    }
    // Limits and scheduling of itself only: another process's limits, processors and policy (the host made idle,
    // or pinned to one processor) are not its to change.
    const int own[] = {__NR_prlimit64, __NR_sched_setaffinity, __NR_sched_setscheduler, __NR_sched_setparam,
#ifdef __NR_sched_setattr
        __NR_sched_setattr,
#endif
    };
    for (size_t index = 0; index < sizeof(own) / sizeof(own[0]); index++) {
        PUT(IS((uint32_t)own[index], 0, 5));
        PUT(LOAD(ARG_LOW(0)));
        PUT(IS((uint32_t)self, 2, 0));
        PUT(IS(0, 1, 0));
        PUT(RETURN(ERRNO(EPERM)));
        PUT(RETURN(SECCOMP_RET_ALLOW));
    }
    // setpriority of its own thread only (Dispatch sets its threads' and traps when refused): never a group's or a
    // user's processes.
    PUT(IS(__NR_setpriority, 0, 6));
    PUT(LOAD(ARG_LOW(0)));
    PUT(IS(0 /* PRIO_PROCESS */, 0, 2));
    PUT(LOAD(ARG_LOW(1)));
    PUT(IS(0, 1, 0));
    PUT(RETURN(ERRNO(EPERM)));
    PUT(RETURN(SECCOMP_RET_ALLOW));
    // mmap: no shared mapping (it would escape RLIMIT_DATA) and no stack-growing one (the same).
    PUT(IS(__NR_mmap, 0, 4));
    PUT(LOAD(ARG_LOW(3)));
    PUT(BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, 0x01 /* MAP_SHARED */ | 0x0100 /* MAP_GROWSDOWN */, 0, 1));
    PUT(RETURN(ERRNO(EPERM)));
    PUT(RETURN(SECCOMP_RET_ALLOW));
    // fcntl: no owner or signal for a descriptor's events (F_SETOWN, F_SETOWN_EX, F_SETSIG: with O_ASYNC the kernel
    // would signal any process named, past the signal rules above on a kernel without Landlock's scopes), and no
    // larger pipe buffers (F_SETPIPE_SZ: kernel memory outside the cap).
    const uint32_t fcntl_denied[] = {8, 15, 10, 1031};
    for (size_t index = 0; index < 4; index++) {
        PUT(IS(__NR_fcntl, 0, 3));
        PUT(LOAD(ARG_LOW(1)));
        PUT(IS(fcntl_denied[index], 0, 1));
        PUT(RETURN(ERRNO(EPERM)));
        PUT(LOAD(offsetof(struct seccomp_data, nr)));
    }
    // ioctl: no descriptor owner (FIOSETOWN, SIOCSPGRP), as for fcntl.
    PUT(IS(__NR_ioctl, 0, 4));
    PUT(LOAD(ARG_LOW(1)));
    PUT(IS(0x8901 /* FIOSETOWN */, 1, 0));
    PUT(IS(0x8902 /* SIOCSPGRP */, 0, 1));
    PUT(RETURN(ERRNO(EPERM)));
    PUT(LOAD(offsetof(struct seccomp_data, nr)));
    // ioctl: no terminal command ('T') but those that only read or touch its own descriptor's flags.
    const int harmless = (int)(sizeof(harmless_terminal) / sizeof(harmless_terminal[0]));
    PUT(IS(__NR_ioctl, 0, (uint8_t)(harmless + 6)));
    PUT(LOAD(ARG_LOW(1)));
    PUT(BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0xFF00));
    PUT(IS(0x5400, 0, (uint8_t)(harmless + 2)));
    PUT(LOAD(ARG_LOW(1)));
    for (int index = 0; index < harmless; index++) PUT(IS(harmless_terminal[index], (uint8_t)(harmless - index), 0));
    PUT(RETURN(ERRNO(EPERM)));
    PUT(RETURN(SECCOMP_RET_ALLOW));
    // Everything else: allowed (Landlock holds the files).
    PUT(RETURN(SECCOMP_RET_ALLOW));
#undef PUT
    struct sock_fprog filter = {.len = (unsigned short)n, .filter = program};
    return (int)syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &filter);
}

#else

static int confine_calls(int self) {
    (void)self;
    return -1;
}

#endif

/// Gives up every capability (a worker of a host run as root would otherwise keep them: raise its memory cap,
/// change any file's owner): effective, permitted and inheritable emptied, the ambient set cleared.
static int drop_capabilities(void) {
    struct {
        uint32_t version;
        int pid;
    } header = {0x20080522 /* _LINUX_CAPABILITY_VERSION_3 */, 0};
    struct {
        uint32_t effective, permitted, inheritable;
    } data[2] = {{0, 0, 0}, {0, 0, 0}};
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
    return (int)syscall(__NR_capset, &header, data);
}

int courier_sandbox_confine(const char *const *readable, int count, int self) {
    int applied = 0;
    if (drop_capabilities() != 0) return applied;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return applied;
    applied |= COURIER_SANDBOX_NO_NEW_PRIVS;
    int abi = courier_sandbox_landlock_abi();
    if (abi > 0) confine_files(readable, count, abi, &applied);
    if (courier_sandbox_seccomp_available() && confine_calls(self) == 0) applied |= COURIER_SANDBOX_SECCOMP;
    return applied;
}

#else

int courier_sandbox_landlock_abi(void) { return 0; }
int courier_sandbox_seccomp_available(void) { return 0; }
int courier_sandbox_confine(const char *const *readable, int count, int self) {
    (void)readable;
    (void)count;
    (void)self;
    return 0;
}

#endif
