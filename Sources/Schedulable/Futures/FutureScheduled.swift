/// A type that chooses the scheduler its instances' futures run on — STMQ's `+futureQueue`: a
/// user-interface type whose futures always run on the main thread, a parser type whose instances all
/// share one background thread.
///
/// ```swift
/// final class ThumbnailCache: FutureScheduled {
///     static let futureScheduler: any Scheduler = ThreadScheduler(label: "com.app.thumbnails")
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
/// For checked confinement, adopt ``ScheduleProtectable`` as well — then a bound instance's futures
/// run on its owner (the checks only pass there), and the type's scheduler serves instances that are
/// still detached, which the first checked use inside a future binds to it.
public protocol FutureScheduled: AnyObject, SendableMetatype {
    /// The scheduler the futures of every instance run on, unless an instance says otherwise.
    static var futureScheduler: any Scheduler { get }

    /// The scheduler this instance's futures run on. Default: the type's `futureScheduler`
    /// (for a ``ScheduleProtectable`` type: the owner's scheduler when the instance is bound to one).
    var futureScheduler: any Scheduler { get }
}

extension FutureScheduled {
    /// The type's `futureScheduler`.
    public var futureScheduler: any Scheduler { Self.futureScheduler }

    /// Starts `body` with this object on `futureScheduler` and returns its future at once;
    /// futures of one scheduler run in the order they were made (see ``Scheduler/future(file:line:_:)``).
    ///
    /// - Parameters:
    ///   - file: Where the future is made, for reports.
    ///   - line: Where the future is made, for reports.
    ///   - body: The work, given the object. It may throw: ``Future/present(file:line:)`` rethrows.
    /// - Returns: The future of the body's value.
    public func future<Value: Sendable>(
        file: StaticString = #fileID, line: UInt = #line, _ body: @escaping @Sendable (Self) throws -> Value
    ) -> Future<Value> {
        let object = OwnerBound(self)
        return Future.make(
            on: futureScheduler, handler: ScheduleProtectionSystem.scopedHandler,
            createdAt: SourceLocation(file: file, line: line), body: { try body(object.value) }
        )
    }
}

extension FutureScheduled where Self: ScheduleProtectable {
    /// The owner's scheduler when the object is bound to one — its checks pass only there — else the
    /// type's `futureScheduler`.
    public var futureScheduler: any Scheduler {
        scheduleProtection.ownerScheduler ?? Self.futureScheduler
    }

    /// Starts `body` with this object on `futureScheduler` (its owner when it is bound) and
    /// returns its future at once.
    ///
    /// - Parameters:
    ///   - file: Where the future is made, for reports.
    ///   - line: Where the future is made, for reports.
    ///   - body: The work, given the object. It may throw: ``Future/present(file:line:)`` rethrows.
    /// - Returns: The future of the body's value.
    public func future<Value: Sendable>(
        file: StaticString = #fileID, line: UInt = #line, _ body: @escaping @Sendable (Self) throws -> Value
    ) -> Future<Value> {
        makeFuture(on: futureScheduler, file: file, line: line, body)
    }
}
