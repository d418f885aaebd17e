/// A single value bound to a scheduler, checked on every access in every build — the always-on
/// (precondition) tier, like swift-nio's `NIOLoopBound`.
///
/// The box is `Sendable` whatever the value is: it may travel anywhere, but its value can only be
/// read or written on the owner; anywhere else the access is reported and the process stops before
/// the access happens.
///
/// ```swift
/// let cache = SchedulerBound(ImageCache(), owner: images)
/// images.schedule { cache.value.evict() }      // fine: on the owner
/// ```
public struct SchedulerBound<Value> {
    /// The owner and bind site, inline: a box allocates nothing of its own.
    @usableFromInline
    let _owner: FixedOwner

    @usableFromInline
    var _value: Value

    /// Binds `value` to `owner`.
    ///
    /// Creating the box off the owner is safe: the value is *sent* into it (the caller keeps no access), and
    /// from then on only the owner can reach it.
    ///
    /// - Parameters:
    ///   - value: The value to protect.
    ///   - owner: The scheduler that may access it.
    ///   - file: The bind site, for reports.
    ///   - line: The bind site, for reports.
    @inlinable
    public init(_ value: sending Value, owner: some SerialScheduler, file: StaticString = #fileID, line: UInt = #line) {
        // No construction window: the always-on tier must never let a second thread through.
        _owner = FixedOwner(owner.executionContext, boundAt: PackedCodeLocation(file: file, line: line))
        _value = value
    }

    /// The value; every get, set and in-place mutation is checked (once).
    @inlinable
    public var value: Value {
        get {
            _owner._checkAccessor("value", wrapper: "SchedulerBound", argument: Value.self)
            return _value
        }
        set {
            _owner._checkAccessor("value", wrapper: "SchedulerBound", argument: Value.self)
            _value = newValue
        }
        _modify {
            _owner._checkAccessor("value", wrapper: "SchedulerBound", argument: Value.self)
            yield &_value
        }
    }

    /// Runs `body` with the value in place, after a single check.
    ///
    /// - Parameters:
    ///   - file: The call site, for reports.
    ///   - line: The call site, for reports.
    ///   - body: Reads or mutates the value.
    /// - Returns: What `body` returns.
    @inlinable
    public mutating func withValue<Result, Failure: Error>(
        file: StaticString = #fileID, line: UInt = #line,
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        _check("withValue(_:)", file, line)
        return try body(&_value)
    }

    /// The owner's context.
    public var owner: ExecutionContext { _owner.context }

    /// Whether the calling code runs on the owner, so the value may be used here. Never a false "yes";
    /// reports nothing.
    public var isIsolated: Bool { _owner.isIsolated }

    /// Reports a violation when called outside the owner — debug tier: compiled out of release builds
    /// unless the `ReleaseChecks` trait is on.
    ///
    /// - Parameters:
    ///   - message: Added to the report's detail line; evaluated only for a report.
    ///   - file: The call site, for reports.
    ///   - line: The call site, for reports.
    @inlinable
    public func assertIsolated(
        _ message: @autoclosure () -> String = String(), file: StaticString = #fileID, line: UInt = #line
    ) {
        #if SCHEDULABLE_CHECKS
        _owner._checkVerb(
            "assertIsolated()", file, line, tier: .assert, wrapper: "SchedulerBound", argument: Value.self,
            message: message
        )
        #endif
    }

    /// Reports a violation and stops the process when called outside the owner — always on.
    ///
    /// - Parameters:
    ///   - message: Added to the report's detail line; evaluated only for a report.
    ///   - file: The call site, for reports.
    ///   - line: The call site, for reports.
    @inlinable
    public func preconditionIsolated(
        _ message: @autoclosure () -> String = String(), file: StaticString = #fileID, line: UInt = #line
    ) {
        _owner._checkVerb(
            "preconditionIsolated()", file, line, tier: .precondition, wrapper: "SchedulerBound", argument: Value.self,
            message: message
        )
    }

    /// Runs `body` with the value after one always-on check that the calling code runs on the owner.
    ///
    /// Use ``withValue(file:line:_:)`` to mutate the value in place.
    ///
    /// - Parameters:
    ///   - file: The call site, for reports.
    ///   - line: The call site, for reports.
    ///   - body: Reads the value.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    @inlinable
    public func assumeIsolated<Result, Failure: Error>(
        file: StaticString = #fileID, line: UInt = #line, _ body: (Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        _check("assumeIsolated(_:)", file, line)
        return try body(_value)
    }

    @inlinable
    @inline(__always)
    func _check(_ member: StaticString, _ file: StaticString, _ line: UInt) {
        _owner._checkMethod(member, file, line, tier: .precondition, wrapper: "SchedulerBound", argument: Value.self)
    }
}

// The value is reachable only through checked accessors, and a failed check stops the process before
// the access, so the box can cross threads whatever `Value` is: the same argument as NIOLoopBound.
extension SchedulerBound: @unchecked Sendable {}
