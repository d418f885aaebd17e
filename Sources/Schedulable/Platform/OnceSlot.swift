/// An object made by the first caller that needs it and kept until the slot is freed: one atomic word,
/// read without a lock once filled. (A library scheduler keeps the shared record of its fixed-owner
/// objects in one: see `SharedFixedRecord`.)
package final class OnceSlot: @unchecked Sendable {
    // @unchecked: the word is written once, under the slot's stripe, with a releasing store; readers
    // load it acquiring, so they see the object initialised.
    /// The object, retained (an `Unmanaged` bit pattern), or 0 while empty. The only stored property,
    /// so it is the first (see ``AtomicWord``).
    private var word: AtomicWord

    /// An empty slot.
    package init() {
        word = AtomicWord(0)
    }

    /// The address of the slot's object if it was made (unretained): one acquiring load, no lock, no
    /// closure, no retain — the caller retains what it keeps.
    ///
    /// Safe without a retain race: the caller holds the slot, which releases its object only in `deinit`.
    @inline(__always)
    package var madeObject: UnsafeRawPointer? {
        UnsafeRawPointer(bitPattern: AtomicWord.loadAcquiring(firstIn: self))
    }

    /// The slot's object, made by `make` on first use (once, whatever the races). Test
    /// ``madeObject`` first: kept out of line, so that a caller's closure (and what it captures) is
    /// built only while the slot is empty.
    ///
    /// - Parameter make: Makes the object; called at most once per slot, under the slot's stripe.
    /// - Returns: The object.
    @inline(never)
    package func object(orMake make: () -> AnyObject) -> AnyObject {
        StripedLocks.withLock(for: self) {
            let bits = AtomicWord.loadRelaxed(firstIn: self)
            if bits != 0 { return Self.object(bits) }
            let object = make()
            AtomicWord.storeReleasing(UInt(bitPattern: Unmanaged.passRetained(object).toOpaque()), firstIn: self)
            return object
        }
    }

    private static func object(_ bits: UInt) -> AnyObject {
        // The slot holds +1 until `deinit`; this returns a new strong reference.
        Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeUnretainedValue()
    }

    deinit {
        let bits = AtomicWord.loadAcquiring(firstIn: self)
        if bits != 0 { Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).release() }
    }
}
