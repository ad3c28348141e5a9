// The Linux system calls a worker confines itself with (Landlock, seccomp, prctl), which Swift cannot reach: glibc
// declares `syscall` and `prctl` variadic, and has no wrappers for Landlock. Elsewhere every call says "none".
#ifndef COURIER_SANDBOX_BINDING_H
#define COURIER_SANDBOX_BINDING_H

/// The Landlock ABI this kernel offers (0: none, or not Linux).
int courier_sandbox_landlock_abi(void);

/// 1 when this kernel takes seccomp filters (Linux built with them), else 0.
int courier_sandbox_seccomp_available(void);

/// What `courier_sandbox_confine` applied, as bits.
enum {
    COURIER_SANDBOX_NO_NEW_PRIVS = 1,
    /// Landlock over files: nothing written, nothing read outside the paths given.
    COURIER_SANDBOX_FILES = 2,
    /// Landlock over TCP: no bind, no connect (ABI 4).
    COURIER_SANDBOX_TCP = 4,
    /// Landlock scopes: no signal, no abstract socket outside the sandbox (ABI 6).
    COURIER_SANDBOX_SCOPES = 8,
    /// The seccomp filter: no socket, no new process or session, no signal to another process, no terminal ioctl,
    /// no shared or stack-growing mapping, no memfd or System V shared memory, no tracing, no change to a file's
    /// mode, owner, times or attributes (which Landlock does not hold), none to the clock.
    COURIER_SANDBOX_SECCOMP = 16,
    /// Landlock handles truncation (ABI 3): without it, a file could be emptied though never opened for writing.
    COURIER_SANDBOX_TRUNCATE = 32,
};

/// Confines the calling process, which must have one thread, after giving up every capability (Landlock binds the calling thread and those it
/// starts later): `readable` (`count` paths; a folder covers what is beneath it) may be read, nothing else; `self`
/// is the process's id, the only process it may signal. Returns the bits of what was applied.
int courier_sandbox_confine(const char *const *readable, int count, int self);

#endif
