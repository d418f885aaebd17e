/// Delayed work and timers that are not due yet, earliest first; equal deadlines keep the order they
/// were armed in. The one ordering of deadlines, shared by the thread scheduler's loop and the
/// libdispatch-backed schedulers.
///
/// A sorted array, latest first, so that taking the earliest is `removeLast()`. Inserting and removing
/// a cancelled entry shift elements (O(n)); a scheduler holds a handful of timers, for which this beats
/// a heap's bookkeeping. FIXME: a heap with indices kept in the entries, if thousands of timers per
/// scheduler become a real use.
struct DeadlineStore<Item> {
    struct Entry {
        /// `DispatchTime.uptimeNanoseconds` of the deadline.
        let deadline: UInt64
        /// Arming order, which breaks ties between equal deadlines.
        let sequence: UInt64
        let item: Item
    }

    private var entries: [Entry] = []
    private var nextSequence: UInt64 = 0

    var isEmpty: Bool { entries.isEmpty }

    /// The earliest deadline, if any.
    var earliest: UInt64? { entries.last?.deadline }

    /// Adds `item` due at `deadline`, after every entry already due at the same time.
    ///
    /// - Returns: Whether it is now the earliest entry (a waiting loop must then wake up sooner).
    @discardableResult
    mutating func insert(_ item: Item, deadline: UInt64) -> Bool {
        let entry = Entry(deadline: deadline, sequence: nextSequence, item: item)
        nextSequence += 1
        // Latest first: the new entry goes before the first entry due no later than it (entries due at
        // the same time were armed earlier, so they run first, from nearer the end).
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].deadline <= deadline { high = middle } else { low = middle + 1 }
        }
        entries.insert(entry, at: low)
        return low == entries.count - 1
    }

    /// Takes the earliest entry if it is due at `now`.
    mutating func popDue(now: UInt64) -> Entry? {
        guard let last = entries.last, last.deadline <= now else { return nil }
        return entries.removeLast()
    }

    /// Forgets the entry whose item matches (cancelled work); nothing happens when there is none.
    mutating func remove(where matches: (Item) -> Bool) {
        if let index = entries.lastIndex(where: { matches($0.item) }) {
            entries.remove(at: index)
        }
    }

    /// Takes every item, earliest first.
    mutating func removeAll() -> [Item] {
        defer { entries.removeAll() }
        return entries.reversed().map(\.item)
    }

    /// The deadline of a timer's next firing after the one due at `deadline` ran at `now`: the next
    /// multiple of `interval` still ahead, so that missed firings merge instead of running in a burst.
    static func nextDeadline(after deadline: UInt64, interval: UInt64, now: UInt64) -> UInt64 {
        let periods = now < deadline ? 1 : (now - deadline) / interval + 1
        let (product, overflowsProduct) = periods.multipliedReportingOverflow(by: interval)
        let (next, overflowsSum) = deadline.addingReportingOverflow(product)
        return overflowsProduct || overflowsSum ? .max : next
    }
}
