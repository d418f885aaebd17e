/// A type that chooses the scheduler its instances' futures run on — STMQ's `+futureQueue`: a
/// user-interface type whose futures always run on the main thread, a parser type whose instances all
/// share one background thread.
///
/// ```swift
/// final class ThumbnailCache: FutureScheduled {
///     static let futureScheduler: any SerialScheduler = ThreadScheduler(label: "com.app.thumbnails")
///     func thumbnail(for id: String) -> Image { … }
/// }
///
/// let image = cache.future { cache in cache.thumbnail(for: id) }   // on "com.app.thumbnails"
/// ```
///
/// An instance overrides the type's choice by implementing `futureScheduler` (a stored
/// property set per instance, for example).
///
/// Every instance must be used only through its futures (or otherwise only on its scheduler): the
/// futures hand the instance to the scheduler, which is safe only when nothing else uses it meanwhile.
/// For checked confinement, adopt ``ConfinedObject`` as well — then a bound instance's futures
/// run on its owner (the checks only pass there), and the type's scheduler serves instances that are
/// still detached, which the first checked use inside a future binds to it.
public protocol FutureScheduled: AnyObject, SendableMetatype {
    /// The scheduler the futures of every instance run on, unless an instance says otherwise.
    static var futureScheduler: any SerialScheduler { get }

    /// The scheduler this instance's futures run on. Default: the type's `futureScheduler`
    /// (for a ``ConfinedObject`` type: the owner's scheduler when the instance is bound to one).
    var futureScheduler: any SerialScheduler { get }
}

extension FutureScheduled {
    /// The type's `futureScheduler`.
    public var futureScheduler: any SerialScheduler { Self.futureScheduler }

    /// Starts `body` with this object on `futureScheduler` and returns its future at once;
    /// futures of one scheduler run in the order they were made (see ``SerialScheduler/future(file:line:_:)``).
    ///
    /// - Parameters:
    ///   - file: Where the future is made, for reports.
    ///   - line: Where the future is made, for reports.
    ///   - body: The work, given the object. It may throw: ``ScheduledFuture/present(file:line:)`` rethrows.
    /// - Returns: The future of the body's value.
    public func future<Value: Sendable>(
        file: StaticString = #fileID, line: UInt = #line, _ body: @escaping @Sendable (Self) throws -> Value
    ) -> ScheduledFuture<Value> {
        let object = OwnerBound(self)
        return ScheduledFuture.make(
            on: futureScheduler, handler: ConfinementSystem.scopedHandler,
            createdAt: CodeLocation(file: file, line: line), body: { try body(object.value) }
        )
    }
}

extension FutureScheduled where Self: ConfinedObject {
    /// The owner's scheduler when the object is bound to one — its checks pass only there — else the
    /// type's `futureScheduler`.
    public var futureScheduler: any SerialScheduler {
        confinement.ownerScheduler ?? Self.futureScheduler
    }

    /// Starts `body` with this object on `futureScheduler` (its owner when it is bound) and
    /// returns its future at once.
    ///
    /// - Parameters:
    ///   - file: Where the future is made, for reports.
    ///   - line: Where the future is made, for reports.
    ///   - body: The work, given the object. It may throw: ``ScheduledFuture/present(file:line:)`` rethrows.
    /// - Returns: The future of the body's value.
    public func future<Value: Sendable>(
        file: StaticString = #fileID, line: UInt = #line, _ body: @escaping @Sendable (Self) throws -> Value
    ) -> ScheduledFuture<Value> {
        makeFuture(on: futureScheduler, file: file, line: line, body)
    }
}
