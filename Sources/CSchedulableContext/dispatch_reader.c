// libdispatch's drain lock, target and width, read from its private queue layout
// (csched_dispatch_internals.h).

#include "csched_private.h"

// MARK: - Which queues the calling thread holds (libdispatch's drain lock)
//
// `dispatchPrecondition(.onQueue(q))` knows whether the calling thread holds `q`, but answers "no" by
// trapping. Its first test is public in spirit and simple in fact: a serial queue's 64-bit state word
// carries, in its low 32 bits, the drain lock, whose owner field is the OS thread id of the thread
// running the queue's work (or blocked in `sync` on it, which takes the lock for the whole target
// chain). Reading that word answers the same question without trapping — including for a raw
// `someQueue.sync {}` nested in raw work on the queue, which leaves no other trace.
//
// The layout is swift-corelibs-libdispatch's (`struct dispatch_queue_s`: `do_targetq` at 0x18,
// `dq_state` at 0x38, `dq_label` at 0x48 and `dq_width` at 0x50 — the low half of `dq_atomic_flags`
// on little-endian LP64; `DLOCK_OWNER_MASK` 0x3fffffff; the owner is `gettid()`). It is not a public
// contract, so it is used only after a self-check in this process confirms it against libdispatch's
// own behaviour; otherwise every answer is "unknown" and callers keep their fallback. On Darwin the
// owner is the thread's mach port and the layout differs: the reader says "unknown".
//
// The width is how many blocks of the queue may run at once: 1 for a serial queue (also one that
// targets a concurrent queue: it still runs one block at a time), `DISPATCH_QUEUE_WIDTH_MAX` (0xffe)
// for `attributes: .concurrent`, 0xfff for the global queues. `SerialQueueScheduler(wrapping:)` refuses
// a queue wider than 1, which nothing else can tell apart from a serial one before it misbehaves.

uintptr_t csched_context_key_word = 0;  // csched_dispatch_internals.h

#if defined(__linux__) && defined(__LP64__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
enum {
    csched_dq_targetq_offset = 0x18,
    csched_dq_state_offset = 0x38,
    csched_dq_label_offset = 0x48,
    csched_dq_width_offset = 0x50,
};
static const uint32_t csched_dlock_owner_mask = 0x3fffffff;

static _Thread_local uint32_t csched_tls_dispatch_tid = 0;

static uint32_t csched_dispatch_tid(void) {
    uint32_t tid = csched_tls_dispatch_tid;
    if (tid == 0) {
        tid = (uint32_t)syscall(SYS_gettid);
        csched_tls_dispatch_tid = tid;
    }
    return tid;
}

static bool csched_drain_locked_by_self(const void *queue) {
    uint64_t state = __atomic_load_n((const uint64_t *)((const char *)queue + csched_dq_state_offset), __ATOMIC_RELAXED);
    return ((uint32_t)state & csched_dlock_owner_mask) == (csched_dispatch_tid() & csched_dlock_owner_mask);
}

static const void *csched_raw_target(const void *queue) {
    return __atomic_load_n((const void *const *)((const char *)queue + csched_dq_targetq_offset), __ATOMIC_RELAXED);
}

// `dq_width` is set when the queue is created and never changes for the queues the library sees
// (`dispatch_queue_set_width` is not exported by swift-corelibs-libdispatch).
static uint16_t csched_width_at(const void *queue, size_t offset) {
    return __atomic_load_n((const uint16_t *)((const char *)queue + offset), __ATOMIC_RELAXED);
}

static uint16_t csched_raw_width(const void *queue) {
    return csched_width_at(queue, csched_dq_width_offset);
}

// Whether `queue`'s fields read as a queue of its label and of width 1 (`serial`) or more.
static bool csched_layout_reads(dispatch_queue_t queue, bool serial, size_t width_offset) {
    const char *label = *(const char *const *)((const char *)queue + csched_dq_label_offset);
    uint16_t width = csched_width_at(queue, width_offset);
    return label != NULL && label == dispatch_queue_get_label(queue) && (serial ? width == 1 : width > 1);
}

// The self-check's width observations, with `dq_width` read at `width_offset`: three serial queues (a
// tree, a branch of it, another) read 1 and a concurrent queue (targeted by none) reads more, each
// with its own label in `dq_label`. Of the 2-byte offsets in the first 0x60 bytes, only 0x50 passes on
// this libdispatch (`DispatchReaderTests` checks it), so a moved field turns the reader off.
bool csched_dispatch_width_layout_holds_at(size_t width_offset) {
    if (width_offset > 0x5e || width_offset % 2 != 0) return false;
    dispatch_queue_t tree = dispatch_queue_create("schedulable.width-check.tree", NULL);
    dispatch_queue_t branch = dispatch_queue_create_with_target("schedulable.width-check.branch", NULL, tree);
    dispatch_queue_t other = dispatch_queue_create("schedulable.width-check.other", NULL);
    dispatch_queue_t concurrent = dispatch_queue_create("schedulable.width-check.concurrent", &_dispatch_queue_attr_concurrent);
    bool holds = csched_layout_reads(tree, true, width_offset) && csched_layout_reads(branch, true, width_offset)
        && csched_layout_reads(other, true, width_offset) && csched_layout_reads(concurrent, false, width_offset);
    dispatch_release(concurrent);
    dispatch_release(other);
    dispatch_release(branch);
    dispatch_release(tree);
    return holds;
}

// The self-check's evidence, one bit per observation that must hold.
static _Atomic unsigned csched_layout_evidence = 0;
enum {
    csched_evidence_sync_holds_queue = 1u << 0,
    csched_evidence_sync_holds_target = 1u << 1,
    csched_evidence_nested_sync_keeps_outer = 1u << 2,
    csched_evidence_nested_queue_held = 1u << 3,
    csched_evidence_all = (1u << 4) - 1,
};

struct csched_layout_probe {
    dispatch_queue_t tree;
    dispatch_queue_t branch;
    dispatch_queue_t other;
};

static void csched_layout_probe_nested(void *context) {
    const struct csched_layout_probe *probe = context;
    unsigned evidence = 0;
    if (csched_drain_locked_by_self(probe->branch)) evidence |= csched_evidence_nested_sync_keeps_outer;
    if (csched_drain_locked_by_self(probe->other)) evidence |= csched_evidence_nested_queue_held;
    atomic_fetch_or_explicit(&csched_layout_evidence, evidence, memory_order_relaxed);
}

static void csched_layout_probe_outer(void *context) {
    const struct csched_layout_probe *probe = context;
    unsigned evidence = 0;
    if (csched_drain_locked_by_self(probe->branch)) evidence |= csched_evidence_sync_holds_queue;
    if (csched_drain_locked_by_self(probe->tree)) evidence |= csched_evidence_sync_holds_target;
    atomic_fetch_or_explicit(&csched_layout_evidence, evidence, memory_order_relaxed);
    dispatch_sync_f(probe->other, context, csched_layout_probe_nested);
}

static bool csched_drain_reader_confirmed = false;
static pthread_once_t csched_drain_reader_once = PTHREAD_ONCE_INIT;

// Runs once, on the first question: `sync` work on a branch of a tree must show both queues held by
// this thread, a raw `sync` nested in it must leave them held and hold its own queue; outside, none is
// held; the branch's target must read as the tree; serial queues must read width 1 and a concurrent
// one more (`csched_dispatch_width_layout_holds_at`). Any miss disables the reader for good.
static void csched_confirm_drain_reader(void) {
    if (csched_switched_off("SCHEDULABLE_DISABLE_DISPATCH_READER")) return;
    struct csched_layout_probe probe;
    probe.tree = dispatch_queue_create("schedulable.layout-check.tree", NULL);
    probe.branch = dispatch_queue_create_with_target("schedulable.layout-check.branch", NULL, probe.tree);
    probe.other = dispatch_queue_create("schedulable.layout-check.other", NULL);
    bool confirmed = csched_raw_target(probe.branch) == (const void *)probe.tree
        && dispatch_queue_get_label(probe.branch) != NULL
        && strcmp(dispatch_queue_get_label(probe.branch), "schedulable.layout-check.branch") == 0
        && csched_dispatch_width_layout_holds_at(csched_dq_width_offset)
        && !csched_drain_locked_by_self(probe.tree) && !csched_drain_locked_by_self(probe.branch);
    if (confirmed) {
        dispatch_sync_f(probe.branch, &probe, csched_layout_probe_outer);
        confirmed = atomic_load_explicit(&csched_layout_evidence, memory_order_relaxed) == csched_evidence_all
            && !csched_drain_locked_by_self(probe.tree) && !csched_drain_locked_by_self(probe.branch)
            && !csched_drain_locked_by_self(probe.other);
    }
    dispatch_release(probe.other);
    dispatch_release(probe.branch);
    dispatch_release(probe.tree);
    csched_drain_reader_confirmed = confirmed;
}

bool csched_dispatch_reader_confirmed(void) {
    pthread_once(&csched_drain_reader_once, csched_confirm_drain_reader);
    return csched_drain_reader_confirmed;
}

int csched_thread_holds_queue(const void *queue) {
    if (queue == NULL || !csched_dispatch_reader_confirmed()) return -1;
    return csched_drain_locked_by_self(queue) ? 1 : 0;
}

int64_t csched_queue_drain_owner(const void *queue) {
    if (queue == NULL || !csched_dispatch_reader_confirmed()) return -1;
    uint64_t state = __atomic_load_n((const uint64_t *)((const char *)queue + csched_dq_state_offset), __ATOMIC_RELAXED);
    return (int64_t)((uint32_t)state & csched_dlock_owner_mask);
}

// The main queue's drain lock as a proof of main's work, asked first when a main-owned check misses
// the fast path (csched_dispatch_internals.h). Under `dispatchMain()` a worker thread drains the main
// queue, and libdispatch keeps the queue's drain lock owned by that thread's tid for the whole drain —
// also while a raw `sync` nested in main's work runs, and on a thread that runs
// `DispatchQueue.main.sync` (main's work too: `dispatchPrecondition(.onQueue(.main))` agrees) — and
// clears it when the drain ends. So the answer changes between blocks by itself: a pool block run next
// on the same worker sees another owner or none.
//
// Everything that does not change on a thread is settled by its first call and kept in one
// thread-local word (`csched_tls_main_drain_owner`): the reader's verdict (the kill switch and the
// self-check), whether this is the main thread, the tid. The main thread is left out: while the main
// queue is bound to it (before `dispatchMain()`) it owns the lock all the time, and its misses must
// keep going through the main-thread test, which makes main the thread's base (the next check takes
// the fast path). Its tid is the process id. After that the test is inline
// (`csched_runs_main_queue_work_settled`): a thread-local load, two loads, a mask and a compare.
static const uint64_t csched_no_queue_state = 0;
_Thread_local uint32_t csched_tls_main_drain_owner = CSCHED_MAIN_DRAIN_NEVER;
const uint64_t *csched_main_queue_state = &csched_no_queue_state;
static _Thread_local bool csched_tls_main_drain_settled = false;

bool csched_runs_main_queue_work(void) {
    if (__builtin_expect(!csched_tls_main_drain_settled, 0)) {
        // Written before this thread's own word, by every thread that reads it: no ordering needed.
        const uint64_t *state = (const uint64_t *)((const char *)&_dispatch_main_q + csched_dq_state_offset);
        __atomic_store_n(&csched_main_queue_state, state, __ATOMIC_RELAXED);
        uint32_t tid = csched_dispatch_tid();
        uint32_t owner = tid & csched_dlock_owner_mask;
        bool mayProve = csched_dispatch_reader_confirmed() && tid != (uint32_t)getpid() && owner != 0;
        csched_tls_main_drain_owner = mayProve ? owner : CSCHED_MAIN_DRAIN_NEVER;
        csched_tls_main_drain_settled = true;
    }
    return csched_runs_main_queue_work_settled();
}

const void *csched_queue_target(const void *queue) {
    if (queue == NULL || !csched_dispatch_reader_confirmed()) return NULL;
    return csched_raw_target(queue);
}

int csched_queue_width(const void *queue) {
    if (queue == NULL || !csched_dispatch_reader_confirmed()) return -1;
    return csched_raw_width(queue);
}

#else
// Every function the header declares for all platforms has its stub here (.ci/check-apple checks it).
bool csched_dispatch_reader_confirmed(void) { return false; }
int csched_thread_holds_queue(const void *queue) { (void)queue; return -1; }
int64_t csched_queue_drain_owner(const void *queue) { (void)queue; return -1; }
bool csched_runs_main_queue_work(void) { return false; }  // as documented: no reader, no proof
const void *csched_queue_target(const void *queue) { (void)queue; return NULL; }
int csched_queue_width(const void *queue) { (void)queue; return -1; }
bool csched_dispatch_width_layout_holds_at(size_t width_offset) { (void)width_offset; return false; }
#endif
