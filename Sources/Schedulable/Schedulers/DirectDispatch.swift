import CSchedulableContext
import Dispatch

/// Hops onto a library queue with `dispatch_async_f`: the work travels as one small job object and a C
/// function, so a hop costs one allocation where `queue.async { … }` costs two (a closure context for
/// what the hop captures, and the block libdispatch copies it into).
///
/// The libdispatch queue is taken from the `DispatchQueue` — on Darwin the object *is* the
/// `dispatch_queue_t`; in swift-corelibs-libdispatch it is the class's one stored property — and
/// used only if `dispatch_queue_get_label` on it gives the queue's own label; otherwise the scheduler
/// keeps using `queue.async`.
struct DirectDispatch: @unchecked Sendable {
    // @unchecked: a libdispatch queue pointer, thread-safe by libdispatch's contract and kept alive
    // by the `DispatchQueue` the scheduler holds.
    private let queue: UnsafeRawPointer

    /// The direct path for `queue`, or `nil` when its libdispatch queue cannot be confirmed.
    init?(_ queue: DispatchQueue) {
        guard let address = PlatformInternals.queueAddress(of: queue) else { return nil }
        self.queue = address
    }

    /// Runs `work` on the queue, in `context`.
    func async(in context: ExecutionContext, site: WorkSite, _ work: @escaping @Sendable () -> Void) {
        let job = Unmanaged.passRetained(DirectDispatchJob(context: context, site: site, work: work)).toOpaque()
        csched_dispatch_async_f(queue, job) { raw in
            let job = Unmanaged<DirectDispatchJob>.fromOpaque(raw!).takeRetainedValue()
            job.context.run(site: job.site, job.work)
        }
    }
}

/// One hop's work, the context it runs in and where it was scheduled from (in the one allocation).
private final class DirectDispatchJob {
    let context: ExecutionContext
    let site: WorkSite
    let work: @Sendable () -> Void

    init(context: ExecutionContext, site: WorkSite, work: @escaping @Sendable () -> Void) {
        self.context = context
        self.site = site
        self.work = work
    }
}
