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
/// The instances are `Sendable`: their futures run on the scheduler while the caller goes on, so an
/// instance is used from two threads by design. A non-`Sendable` object gets the same pattern, checked
/// in every build, from ``SchedulableObject``: wrap it for its scheduler and call
/// ``SchedulableObject/future(file:line:_:)``.
public protocol FutureScheduled: AnyObject, Sendable {
    /// The scheduler the futures of every instance run on, unless an instance says otherwise.
    static var futureScheduler: any SerialScheduler { get }

    /// The scheduler this instance's futures run on. Default: the type's `futureScheduler`.
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
        ScheduledFuture.make(
            on: futureScheduler, handler: ConfinementSystem.scopedHandler,
            file: file, line: line, body: { try body(self) }
        )
    }
}
