import BenchmarkSink
@_spi(Benchmarks) import Schedulable

// Per-object cost: each kernel creates one object per iteration and stores it where the optimizer
// must assume it escapes (so it is really allocated, never promoted to the stack), freeing the
// previous one. So a row is "create + free one object", the same shape for every row, and its
// mallocs per iteration are the allocations one object costs.

/// The unprotected reference: a class with two `Int` properties.
public final class PlainPair {
    /// A property.
    public var first = 1
    /// Another.
    public var second = 2

    /// Creates a pair.
    public init() {}
}

/// The same class, protected: a record bound to an explicit owner, default options.
public final class ConfinedPair: ConfinedObject {
    /// The record.
    public let confinement: Confinement
    /// Checked while the debug tier is compiled in.
    @Confined public var first = 1
    /// Checked while the debug tier is compiled in.
    @Confined public var second = 2

    /// Binds the pair to `owner`.
    public init(owner: SerialQueueScheduler) {
        confinement = Confinement(owner: owner)
    }
}

/// The same class for an object that changes hands: `Confinement.transferable`, always a record of
/// its own.
public final class TransferablePair: ConfinedObject {
    /// The record.
    public let confinement: Confinement
    /// Checked while the debug tier is compiled in.
    @Confined public var first = 1
    /// Checked while the debug tier is compiled in.
    @Confined public var second = 2

    /// Binds the pair to `owner`, transferable.
    public init(owner: SerialQueueScheduler) {
        confinement = .transferable(owner: owner)
    }
}

/// The same class with always-on boxes.
public final class BoundPair {
    /// A box.
    public var first: SchedulerBound<Int>
    /// Another.
    public var second: SchedulerBound<Int>

    /// Binds both boxes to `owner`.
    public init(owner: SerialQueueScheduler) {
        first = SchedulerBound(1, owner: owner)
        second = SchedulerBound(2, owner: owner)
    }
}

/// Where created objects escape to.
final class ObjectSink {
    var last: AnyObject?
    nonisolated(unsafe) static let shared = ObjectSink()  // one kernel at a time, on one thread
}

@inline(never)
func createPlainObjects(_ iterations: Int) {
    let sink = ObjectSink.shared
    for _ in 0..<iterations {
        sink.last = PlainPair()
    }
    sink.last = nil
}

@inline(never)
func createConfinedObjects(_ owner: SerialQueueScheduler, _ iterations: Int) {
    let sink = ObjectSink.shared
    for _ in 0..<iterations {
        sink.last = ConfinedPair(owner: owner)
    }
    sink.last = nil
}

/// The same loop as `createConfinedObjects`, under its own name so that callgrind counts it alone: run
/// in a task on the cooperative pool, where the construction window belongs to the task.
@inline(never)
func createConfinedObjectsInTask(_ owner: SerialQueueScheduler, _ iterations: Int) {
    let sink = ObjectSink.shared
    for _ in 0..<iterations {
        sink.last = ConfinedPair(owner: owner)
    }
    sink.last = nil
}

/// The same loop again, under its own name: run in the owner's work, where no construction window opens.
@inline(never)
func createConfinedObjectsOnOwner(_ owner: SerialQueueScheduler, _ iterations: Int) {
    let sink = ObjectSink.shared
    for _ in 0..<iterations {
        sink.last = ConfinedPair(owner: owner)
    }
    sink.last = nil
}

@inline(never)
func createTransferableObjects(_ owner: SerialQueueScheduler, _ iterations: Int) {
    let sink = ObjectSink.shared
    for _ in 0..<iterations {
        sink.last = TransferablePair(owner: owner)
    }
    sink.last = nil
}

@inline(never)
func createBoundObjects(_ owner: SerialQueueScheduler, _ iterations: Int) {
    let sink = ObjectSink.shared
    for _ in 0..<iterations {
        sink.last = BoundPair(owner: owner)
    }
    sink.last = nil
}

@inline(never)
func createSchedulableObjects(_ owner: SerialQueueScheduler, _ iterations: Int) {
    let sink = ObjectSink.shared
    for _ in 0..<iterations {
        sink.last = SchedulableObject(PlainPair(), on: owner)
    }
    sink.last = nil
}

/// The bytes the allocator reserved for `object`.
private func allocatedBytes(_ object: AnyObject) -> Int {
    schedulable_benchmark_allocated_bytes(Unmanaged.passUnretained(object).toOpaque())
}

/// Heap bytes per object for each creation row: the object's allocation plus any the protection
/// made for it (the record), as the allocator sized them.
public func objectFootprints() -> [(kernel: CheckKernel, bytes: Int)] {
    let owner = SerialQueueScheduler(label: "benchmark.footprints")
    let plain = PlainPair()
    let confined = ConfinedPair(owner: owner)
    let bound = BoundPair(owner: owner)
    let wrapped = SchedulableObject(PlainPair(), on: owner)
    withExtendedLifetime(wrapped) {}
    // Built in the owner's work: a release build without the debug tier shares one record among them
    // (counted 0 per object when two objects refer to the same one), else each has its own.
    let (onOwner, onOwnerToo) = owner.sync { (ConfinedPair(owner: owner), ConfinedPair(owner: owner)) }
    let sharesRecord = onOwner.confinement._recordObject === onOwnerToo.confinement._recordObject
    let transferable = TransferablePair(owner: owner)
    return [
        (.createPlain, allocatedBytes(plain)),
        (.createConfined, allocatedBytes(confined) + allocatedBytes(confined.confinement._recordObject)),
        (.createConfinedInTask, allocatedBytes(confined) + allocatedBytes(confined.confinement._recordObject)),
        (
            .createConfinedOnOwner,
            allocatedBytes(onOwner) + (sharesRecord ? 0 : allocatedBytes(onOwner.confinement._recordObject))
        ),
        (.createTransferable, allocatedBytes(transferable) + allocatedBytes(transferable.confinement._recordObject)),
        (.createSchedulerBound, allocatedBytes(bound)),
        // The wrapper plus the object it holds (a PlainPair, sized like the one above).
        (.createSchedulableObject, allocatedBytes(wrapped) + allocatedBytes(plain)),
    ]
}
