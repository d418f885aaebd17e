#if NIOComparison
import NIOCore
#endif
import Synchronization

/// The unchecked reference: one stored property of a final class, read with no check at all.
public final class PlainModel {
    /// The value every check-cost kernel reads, so each kernel differs from `plainRead` only by its check.
    public var value = 1

    /// Creates a model holding `1`.
    public init() {}
}

/// The "thread-safe architecture" the seed argues against: every access takes a lock.
public final class MutexModel: Sendable {
    /// The protected value; a `Mutex` is `Sendable`, so no confinement is needed (or checked).
    public let value = Mutex(1)

    /// Creates a model holding `1`.
    public init() {}
}

#if NIOComparison
/// swift-nio's always-on confinement box, stored in a class so reading it has the same shape (load from
/// an object, then check) as the other kernels.
public final class LoopBoundModel {
    /// The box; its `value` getter calls `eventLoop.preconditionInEventLoop()` every time. A `let`, like
    /// `BoundModel.bound`, so neither pays for a dynamic exclusivity check.
    public let bound: NIOLoopBound<Int>

    /// Creates the box; `NIOLoopBound.init` itself checks that it runs on `eventLoop`.
    public init(on eventLoop: any EventLoop) {
        bound = NIOLoopBound(1, eventLoop: eventLoop)
    }
}

// Only ever touched on its event loop (the kernels run inside `eventLoop.submit`), which is exactly
// what `NIOLoopBound` enforces on every access; the class is passed across threads but never shared.
extension LoopBoundModel: @unchecked Sendable {}
#endif

/// An actor whose isolation checks (`preconditionIsolated`, `assumeIsolated`) are the Swift-concurrency
/// way to assert confinement.
public actor IsolatedModel {
    /// The value read by the kernels.
    public var value = 1

    /// Creates a model holding `1`.
    public init() {}

    /// Runs `actorPreconditionIsolatedRead` on the actor: the kernel needs the actor's executor to be current.
    public func runPreconditionIsolated(iterations: Int) {
        actorPreconditionIsolatedRead(iterations)
    }

    /// Runs `assumeIsolatedRead` from inside the actor, so `assumeIsolated` succeeds on every iteration.
    public func runAssumeIsolated(iterations: Int) {
        assumeIsolatedRead(self, iterations)
    }

    @inline(never)
    func actorPreconditionIsolatedRead(_ iterations: Int) {
        for _ in 0..<iterations {
            preconditionIsolated()
            consume(value)
        }
    }

    /// Increments `value`; the unit of work for the actor hop benchmarks.
    public func bump() {
        value &+= 1
    }
}

/// A nonisolated function, like the callback code `assumeIsolated` exists for.
@inline(never)
func assumeIsolatedRead(_ model: IsolatedModel, _ iterations: Int) {
    for _ in 0..<iterations {
        consume(model.assumeIsolated { $0.value })
    }
}
