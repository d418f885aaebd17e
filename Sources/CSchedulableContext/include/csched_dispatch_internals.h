// libdispatch's private layout and the Swift Dispatch overlay's private box, read directly: the drain
// lock, a queue's target and width, the overlay's queue-specific box, and the labels libdispatch and
// Swift's concurrency runtime give their pool queues. Each is guarded by a self-check in this process
// and a kill switch; every Swift caller goes through Platform/PlatformInternals.swift.

#ifndef C_SCHEDULABLE_DISPATCH_INTERNALS_H
#define C_SCHEDULABLE_DISPATCH_INTERNALS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Whether the label conventions the library reads are confirmed in this process: the current
/// queue's label tells a concurrent pool's work (a global queue's `"com.apple.root.*"`, Swift's
/// `"Swift global concurrent queue"`) from a serial queue's and from a thread running no queue work
/// (the default root queue's `".overcommit"` variant). Checked once, on first use: work `sync`ed onto a
/// global queue must classify as the pool and a serial queue's as a queue. `false` when the check
/// fails or `SCHEDULABLE_DISABLE_LABEL_CONVENTIONS` is set; then `csched_running_on_pool` answers
/// "yes" (nothing is bound to a thread it cannot tell from a pool worker) and, outside library work,
/// only the main thread gets a construction window.
bool csched_label_conventions_confirmed(void);

/// The prefix of every label of libdispatch's root (global) queues, `"com.apple.root."`: the one place
/// the library spells it (the label table, `PlatformInternals.isRootQueueLabel`, `ThreadName`).
static inline const char *_Nonnull csched_root_queue_label_prefix(void) { return "com.apple.root."; }

/// Whether `label` starts with `csched_root_queue_label_prefix()`, whatever the conventions' self-check
/// said (callers that act on it ask `csched_label_conventions_confirmed` first).
static inline bool csched_label_is_root_queue(const char *_Nonnull label) {
    const char *prefix = csched_root_queue_label_prefix();
    while (*prefix != '\0') {
        if (*label++ != *prefix++) return false;
    }
    return true;
}

/// What the label conventions make of a dispatch queue label: 0 no queue work (a plain thread), 1 a
/// concurrent pool, 2 another queue's work. Exported so that tests can check the table; 1 for every
/// label when the conventions are not confirmed.
int csched_label_kind_of(const char *_Nullable label);

/// Whether the calling code runs on a concurrent pool thread: work of a global dispatch queue or of
/// Swift's global concurrent executor. (A thread running no queue work at all — the main thread, a
/// plain `Thread` — is not: libdispatch names its default root queue's overcommit variant there.)
/// `true` when the label conventions are not confirmed (see `csched_label_conventions_confirmed`).
bool csched_running_on_pool(void);

/// The value the Swift Dispatch overlay keeps for `key` on the queue running the calling code (or a
/// queue it targets), unretained, or NULL: `dispatch_get_specific` and one load, where
/// `DispatchQueue.getSpecific` is an unspecialised generic call with a retain and a copy.
///
/// It reads the overlay's box (a Swift object whose first stored property is the value): Swift code
/// uses it only once `PlatformInternals` has checked, on a probe queue in this process, that it reads
/// exactly what `getSpecific` does.
const void *_Nullable csched_queue_specific_value(const void *_Nonnull key);

/// `queue`'s own queue-specific value for `key` (not its targets'), read like
/// `csched_queue_specific_value` (`dispatch_queue_get_specific` and one load), or NULL.
const void *_Nullable csched_queue_own_specific_value(const void *_Nonnull queue, const void *_Nonnull key);

/// Whether this process reads libdispatch's queue state itself (`csched_thread_holds_queue`,
/// `csched_queue_target`, `csched_queue_width`): `true` only on swift-corelibs-libdispatch (Linux,
/// little-endian LP64) after a self-check at the first call confirmed the layout against libdispatch's
/// behaviour. Set the environment variable `SCHEDULABLE_DISABLE_DISPATCH_READER` to turn the reader off.
bool csched_dispatch_reader_confirmed(void);

/// Whether the calling thread holds the serial libdispatch queue `queue` (runs its work, or waits in
/// `sync` on it or on a queue targeting it): 1 yes, 0 no, -1 cannot tell (reader not confirmed). The
/// same answer `dispatchPrecondition(.onQueue:)` gives for a serial queue, without trapping on "no".
int csched_thread_holds_queue(const void *_Nullable queue);

/// The OS thread id that holds the serial libdispatch queue `queue`'s drain lock (runs its work now),
/// 0 when none does, -1 when the reader cannot tell. A snapshot: the drain may end as it returns.
int64_t csched_queue_drain_owner(const void *_Nullable queue);

/// Whether a thread other than the main thread runs the main queue's work: it holds the main queue's
/// drain lock (a worker draining it under `dispatchMain()`, a raw `sync` nested in that work, a thread
/// in `DispatchQueue.main.sync`). The same test as `csched_thread_holds_queue(main queue) == 1` off the
/// main thread. Always `false` on the main thread (it holds the lock while the queue is bound to it;
/// its misses go through the main-thread test, which adopts main), and when the reader is not confirmed
/// (Darwin, a failed self-check, `SCHEDULABLE_DISABLE_DISPATCH_READER`). The first call on a thread
/// settles what never changes there, for `csched_runs_main_queue_work_settled`.
bool csched_runs_main_queue_work(void);

#if defined(__linux__) && defined(__LP64__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/// A value of `csched_tls_main_drain_owner` no drain-lock owner equals (wider than the owner field).
#define CSCHED_MAIN_DRAIN_NEVER 0xffffffffu
/// This thread's drain-lock owner value (its tid, masked) once `csched_runs_main_queue_work` found that
/// it may prove main's work; `CSCHED_MAIN_DRAIN_NEVER` before that and where it may not.
/// Initial-exec: read at a fixed offset from the thread pointer, where the default model for position-
/// independent code calls `__tls_get_addr` (which the linker rewrites, but the caller still saves its
/// registers around the call it was compiled as).
extern _Thread_local uint32_t csched_tls_main_drain_owner __attribute__((tls_model("initial-exec")));
/// The main queue's state word; a zero word until a thread's first `csched_runs_main_queue_work`.
extern const uint64_t *_Nonnull csched_main_queue_state;
#endif

/// `csched_runs_main_queue_work()` without its first-call work, inline: `false` until this thread's
/// first call of it (a main-owned check's miss asks it there, through the verdict), the same answer
/// after. A thread-local load, two loads, a mask and a compare, no branch: the first test at the
/// slow-path entry of a main-owned check.
static inline bool csched_runs_main_queue_work_settled(void) {
#if defined(__linux__) && defined(__LP64__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t state = __atomic_load_n(__atomic_load_n(&csched_main_queue_state, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
    return ((uint32_t)state & 0x3fffffffu) == csched_tls_main_drain_owner;
#else
    return false;
#endif
}

/// The verified queue-specific key of the library's contexts as `QueueSpecificReader` keeps it: 0 until
/// settled, 1 when there is none (the direct read is off), else the key. A plain global read inline,
/// where a Swift `static let` calls `swift_once` on every read (the slow path of every check reads it).
extern uintptr_t csched_context_key_word;

/// `csched_context_key_word`, acquiring (the key was published after it was verified).
static inline uintptr_t csched_context_key_word_load(void) {
    return __atomic_load_n(&csched_context_key_word, __ATOMIC_ACQUIRE);
}

/// Publishes `csched_context_key_word` (every thread that settles it stores the same word).
static inline void csched_context_key_word_store(uintptr_t word) {
    __atomic_store_n(&csched_context_key_word, word, __ATOMIC_RELEASE);
}

/// The queue `queue` targets, or NULL (no target read: reader not confirmed).
const void *_Nullable csched_queue_target(const void *_Nullable queue);

/// How many blocks of `queue` may run at once (libdispatch's `dq_width`): 1 for a serial queue, more
/// for a concurrent one; -1 cannot tell (reader not confirmed).
int csched_queue_width(const void *_Nullable queue);

/// Whether the self-check's width observations hold with `dq_width` read at `width_offset` (serial
/// queues read 1, a concurrent one more): part of the self-check, exported so that tests can show a
/// wrong offset fails it. `false` where there is no reader (Darwin).
bool csched_dispatch_width_layout_holds_at(size_t width_offset);

#ifdef __cplusplus
}
#endif

#endif
