/// An ``AtomicWord`` in an object of its own, for the places where one allocation does not matter (a
/// counter per scheduler, a process-wide switch).
package final class AtomicCell: @unchecked Sendable {
    // @unchecked: `word` is only read and written through AtomicWord's atomic functions.
    /// The only stored property, so it is the first (see ``AtomicWord``).
    private var word: AtomicWord

    /// A cell holding `value`.
    ///
    /// - Parameter value: The initial value.
    package init(_ value: UInt = 0) {
        word = AtomicWord(value)
    }

    /// A relaxed load.
    package func loadRelaxed() -> UInt { AtomicWord.loadRelaxed(firstIn: self) }

    /// An acquiring load.
    package func loadAcquiring() -> UInt { AtomicWord.loadAcquiring(firstIn: self) }

    /// A relaxed store.
    ///
    /// - Parameter value: The new value.
    package func storeRelaxed(_ value: UInt) { AtomicWord.storeRelaxed(value, firstIn: self) }

    /// A releasing store.
    ///
    /// - Parameter value: The new value.
    package func storeReleasing(_ value: UInt) { AtomicWord.storeReleasing(value, firstIn: self) }

    /// Adds `delta` (wrapping); acquiring and releasing.
    ///
    /// - Parameter delta: What to add.
    /// - Returns: The new value.
    @discardableResult
    package func add(_ delta: UInt) -> UInt { AtomicWord.add(delta, firstIn: self) }

    /// Subtracts `delta` (wrapping); acquiring and releasing.
    ///
    /// - Parameter delta: What to subtract.
    /// - Returns: The new value.
    @discardableResult
    package func subtract(_ delta: UInt) -> UInt { AtomicWord.subtract(delta, firstIn: self) }
}
